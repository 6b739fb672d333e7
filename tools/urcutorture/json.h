/* SPDX-License-Identifier: MIT */
/* Streaming JSON writer used by the report (json.c). */
#ifndef UT_JSON_H
#define UT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define UJ_MAX_DEPTH 32

struct uj {
	FILE *f;
	int depth;
	unsigned int count[UJ_MAX_DEPTH];	/* members written at each level */
	bool compact;		/* no newlines or indentation, "key":value */
};

void uj_init(struct uj *j, FILE *f);
/* A writer for one compact value on one line (no newline after it), e.g.
 * inside the value of a uj_raw member. */
void uj_init_compact(struct uj *j, FILE *f);
void uj_string(FILE *f, const char *s);
/* key is NULL for array elements and for the top-level value. */
void uj_obj(struct uj *j, const char *key);
void uj_end_obj(struct uj *j);
void uj_arr(struct uj *j, const char *key);
void uj_end_arr(struct uj *j);
void uj_str(struct uj *j, const char *key, const char *v);
void uj_u64(struct uj *j, const char *key, uint64_t v);
void uj_i64(struct uj *j, const char *key, int64_t v);
void uj_dbl(struct uj *j, const char *key, double v);
void uj_bool(struct uj *j, const char *key, bool v);
void uj_null(struct uj *j, const char *key);
/* A value written by another module straight to the stream. */
void uj_raw(struct uj *j, const char *key, void (*emit)(const void *arg, FILE *f), const void *arg);

#endif /* UT_JSON_H */
