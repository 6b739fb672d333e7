/* SPDX-License-Identifier: MIT */
/* A small streaming JSON writer: enough for the report, no dependency. */
#include <math.h>
#include <string.h>

#include "json.h"

static void sep(struct uj *j, const char *key)
{
	if (j->depth > 0 && j->count[j->depth - 1]++)
		fputc(',', j->f);
	if (j->depth > 0 && !j->compact) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	if (key) {
		uj_string(j->f, key);
		fputs(j->compact ? ":" : ": ", j->f);
	}
}

void uj_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void uj_init(struct uj *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

void uj_init_compact(struct uj *j, FILE *f)
{
	uj_init(j, f);
	j->compact = true;
}

static void open_(struct uj *j, const char *key, char c)
{
	sep(j, key);
	fputc(c, j->f);
	if (j->depth < UJ_MAX_DEPTH)
		j->count[j->depth] = 0;
	j->depth++;
}

static void close_(struct uj *j, char c)
{
	bool had = j->count[j->depth - 1] > 0;

	j->depth--;
	if (had && !j->compact) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
	if (j->depth == 0 && !j->compact)
		fputc('\n', j->f);
}

void uj_obj(struct uj *j, const char *key) { open_(j, key, '{'); }
void uj_end_obj(struct uj *j) { close_(j, '}'); }
void uj_arr(struct uj *j, const char *key) { open_(j, key, '['); }
void uj_end_arr(struct uj *j) { close_(j, ']'); }

void uj_str(struct uj *j, const char *key, const char *v)
{
	sep(j, key);
	if (v)
		uj_string(j->f, v);
	else
		fputs("null", j->f);
}

void uj_u64(struct uj *j, const char *key, uint64_t v)
{
	sep(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void uj_i64(struct uj *j, const char *key, int64_t v)
{
	sep(j, key);
	fprintf(j->f, "%lld", (long long)v);
}

void uj_dbl(struct uj *j, const char *key, double v)
{
	sep(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f);
}

void uj_bool(struct uj *j, const char *key, bool v)
{
	sep(j, key);
	fputs(v ? "true" : "false", j->f);
}

void uj_null(struct uj *j, const char *key)
{
	sep(j, key);
	fputs("null", j->f);
}

void uj_raw(struct uj *j, const char *key, void (*emit)(const void *arg, FILE *f), const void *arg)
{
	sep(j, key);
	emit(arg, j->f);
}
