/* SPDX-License-Identifier: MIT */
/*
 * A small JSON reader: the whole document into a tree, enough to read a
 * baseline report back (--compare).  Numbers are doubles (counts up to 2^53
 * exactly).  A leaf: includes nothing of the tool.
 */
#ifndef UT_JREAD_H
#define UT_JREAD_H

#include <stdbool.h>
#include <stddef.h>

enum jv_type { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ };

struct jv {
	enum jv_type type;
	bool b;
	double num;
	char *str;
	int n;			/* array elements / object members */
	struct jv *items;	/* n values */
	char **keys;		/* objects: n keys */
};

/* Parse text; NULL with "line N: problem" in err on a syntax error. */
struct jv *jv_parse(const char *text, char *err, size_t len);
void jv_free(struct jv *v);
/* Member of an object (NULL if v is not an object or has no such key). */
const struct jv *jv_get(const struct jv *v, const char *key);
/* Dotted path of members: "callbacks.latency_ns.p50". */
const struct jv *jv_path(const struct jv *v, const char *path);
/* Element i of an array, or NULL. */
const struct jv *jv_at(const struct jv *v, int i);
/* The number (dflt when v is not a number), the string (NULL when not one). */
double jv_num(const struct jv *v, double dflt);
const char *jv_str(const struct jv *v);

#endif /* UT_JREAD_H */
