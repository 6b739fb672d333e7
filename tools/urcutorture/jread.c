/* SPDX-License-Identifier: MIT */
/*
 * A small recursive-descent JSON reader (see jread.h).  Depth is bounded
 * (64) so a hostile file cannot exhaust the stack; \u escapes are decoded
 * to UTF-8 (surrogate pairs joined).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jread.h"

#define JV_MAX_DEPTH	64

struct jp {
	const char *p;
	const char *start;
	char *err;
	size_t len;
	bool failed;
};

static void fail(struct jp *jp, const char *what)
{
	int line = 1;

	if (jp->failed)
		return;
	for (const char *q = jp->start; q < jp->p; q++)
		line += *q == '\n';
	snprintf(jp->err, jp->len, "line %d: %s", line, what);
	jp->failed = true;
}

static void ws(struct jp *jp)
{
	while (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' || *jp->p == '\r')
		jp->p++;
}

static int hex4(const char *s, unsigned int *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];

		*out <<= 4;
		if (c >= '0' && c <= '9')
			*out |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*out |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*out |= (unsigned int)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static size_t utf8(unsigned int cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* At the opening quote; returns a malloc()ed string. */
static char *string(struct jp *jp)
{
	const char *q = ++jp->p;
	char *out, *o;

	/* The decoded string is never longer than the encoded one. */
	while (*q && *q != '"')
		q += *q == '\\' && q[1] ? 2 : 1;
	if (*q != '"') {
		fail(jp, "unterminated string");
		return NULL;
	}
	out = o = malloc((size_t)(q - jp->p) + 1);
	if (!out) {
		fail(jp, "out of memory");
		return NULL;
	}
	while (*jp->p != '"') {
		char c = *jp->p++;

		if ((unsigned char)c < 0x20) {
			fail(jp, "control character in a string");
			break;
		}
		if (c != '\\') {
			*o++ = c;
			continue;
		}
		c = *jp->p++;
		switch (c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			unsigned int cp, lo;

			if (hex4(jp->p, &cp)) {
				fail(jp, "bad \\u escape");
				break;
			}
			jp->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && jp->p[0] == '\\' && jp->p[1] == 'u' &&
			    !hex4(jp->p + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				jp->p += 6;
			}
			/* 6 input bytes (12 for a pair) make at most 4 output bytes. */
			o += utf8(cp, o);
			break;
		}
		default:
			fail(jp, "bad escape");
		}
		if (jp->failed)
			break;
	}
	*o = '\0';
	if (jp->failed) {
		free(out);
		return NULL;
	}
	jp->p++;
	return out;
}

static bool value(struct jp *jp, struct jv *v, int depth);

static bool push(struct jp *jp, struct jv *v, int *cap)
{
	if (v->n < *cap)
		return true;
	*cap = *cap ? *cap * 2 : 8;
	v->items = realloc(v->items, (size_t)*cap * sizeof(*v->items));
	if (v->type == JV_OBJ)
		v->keys = realloc(v->keys, (size_t)*cap * sizeof(*v->keys));
	if (!v->items || (v->type == JV_OBJ && !v->keys)) {
		fail(jp, "out of memory");
		return false;
	}
	return true;
}

static bool container(struct jp *jp, struct jv *v, int depth, bool obj)
{
	int cap = 0;
	char close = obj ? '}' : ']';

	v->type = obj ? JV_OBJ : JV_ARR;
	jp->p++;
	ws(jp);
	if (*jp->p == close) {
		jp->p++;
		return true;
	}
	for (;;) {
		char *key = NULL;

		ws(jp);
		if (obj) {
			if (*jp->p != '"') {
				fail(jp, "expected a member name");
				return false;
			}
			key = string(jp);
			if (!key)
				return false;
			ws(jp);
			if (*jp->p != ':') {
				free(key);
				fail(jp, "expected ':'");
				return false;
			}
			jp->p++;
		}
		if (!push(jp, v, &cap)) {
			free(key);
			return false;
		}
		memset(&v->items[v->n], 0, sizeof(v->items[0]));
		if (obj)
			v->keys[v->n] = key;
		v->n++;
		if (!value(jp, &v->items[v->n - 1], depth + 1))
			return false;
		ws(jp);
		if (*jp->p == ',') {
			jp->p++;
			continue;
		}
		if (*jp->p == close) {
			jp->p++;
			return true;
		}
		fail(jp, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		return false;
	}
}

static bool value(struct jp *jp, struct jv *v, int depth)
{
	if (depth > JV_MAX_DEPTH) {
		fail(jp, "nested too deeply");
		return false;
	}
	ws(jp);
	switch (*jp->p) {
	case '{':
		return container(jp, v, depth, true);
	case '[':
		return container(jp, v, depth, false);
	case '"':
		v->type = JV_STR;
		v->str = string(jp);
		return v->str != NULL;
	case 't':
		if (strncmp(jp->p, "true", 4))
			break;
		v->type = JV_BOOL;
		v->b = true;
		jp->p += 4;
		return true;
	case 'f':
		if (strncmp(jp->p, "false", 5))
			break;
		v->type = JV_BOOL;
		jp->p += 5;
		return true;
	case 'n':
		if (strncmp(jp->p, "null", 4))
			break;
		v->type = JV_NULL;
		jp->p += 4;
		return true;
	default:
		if (*jp->p == '-' || (*jp->p >= '0' && *jp->p <= '9')) {
			char *end;

			v->type = JV_NUM;
			v->num = strtod(jp->p, &end);
			if (end == jp->p)
				break;
			jp->p = end;
			return true;
		}
	}
	fail(jp, "expected a value");
	return false;
}

static void jv_clear(struct jv *v)
{
	for (int i = 0; i < v->n; i++) {
		jv_clear(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
}

struct jv *jv_parse(const char *text, char *err, size_t len)
{
	struct jp jp = { .p = text, .start = text, .err = err, .len = len };
	struct jv *v = calloc(1, sizeof(*v));

	if (!v) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	if (value(&jp, v, 0)) {
		ws(&jp);
		if (*jp.p)
			fail(&jp, "text after the document");
	}
	if (jp.failed) {
		jv_free(v);
		return NULL;
	}
	return v;
}

void jv_free(struct jv *v)
{
	if (!v)
		return;
	jv_clear(v);
	free(v);
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
	if (!v || v->type != JV_OBJ)
		return NULL;
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

const struct jv *jv_path(const struct jv *v, const char *path)
{
	char part[128];

	while (v && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		v = jv_get(v, part);
		path += n;
		if (*path == '.')
			path++;
	}
	return v;
}

const struct jv *jv_at(const struct jv *v, int i)
{
	if (!v || v->type != JV_ARR || i < 0 || i >= v->n)
		return NULL;
	return &v->items[i];
}

double jv_num(const struct jv *v, double dflt)
{
	return v && v->type == JV_NUM ? v->num : dflt;
}

const char *jv_str(const struct jv *v)
{
	return v && v->type == JV_STR ? v->str : NULL;
}
