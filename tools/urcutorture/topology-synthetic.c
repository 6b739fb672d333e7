/* SPDX-License-Identifier: MIT */
/*
 * Built-in parser for hwloc-style synthetic topology descriptions, so that
 * --topology=synthetic:"..." and the placement tests behave the same in a
 * build without hwloc.  It understands the common form: a list of
 * "<level>:<count>" from the outside in, ending with pu, optionally with
 * "[numa]" after a level (each object of that level gets one NUMA node),
 * e.g. "pack:2 numa:2 core:8 pu:2" or "pack:2 [numa] core:4 pu:2".  Level
 * attributes in parentheses are hwloc-only and rejected with a message.
 *
 * Numbering matches hwloc: PU i (in depth-first order) has OS number i,
 * NUMA nodes are numbered in depth-first order, and without any NUMA level
 * the whole machine is one node.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "topology.h"

#define MAX_LEVELS 16
/* Refuse descriptions that would allocate absurd tables. */
#define MAX_PUS (1 << 16)

enum lvl_kind { LVL_PACKAGE, LVL_NUMA, LVL_CORE, LVL_PU, LVL_OTHER };

struct lvl {
	enum lvl_kind kind;
	long count;		/* objects per parent object */
	long pus_per_obj;	/* PUs below one object of this level */
	bool numa_attached;	/* "[numa]" after this level */
};

static int level_kind(const char *name, size_t len, enum lvl_kind *kind)
{
	static const struct {
		const char *name;
		enum lvl_kind kind;
	} names[] = {
		{ "pack", LVL_PACKAGE }, { "package", LVL_PACKAGE }, { "socket", LVL_PACKAGE },
		{ "numa", LVL_NUMA }, { "node", LVL_NUMA }, { "numanode", LVL_NUMA },
		{ "core", LVL_CORE }, { "pu", LVL_PU }, { "die", LVL_OTHER },
		{ "group", LVL_OTHER }, { "machine", LVL_OTHER },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == len && !strncasecmp(name, names[i].name, len)) {
			*kind = names[i].kind;
			return 0;
		}
	/* Caches: l1..l5 with an optional d/i/u and "cache" suffix (l3, l2d, l1icache). */
	if (len >= 2 && tolower((unsigned char)name[0]) == 'l' && name[1] >= '1' && name[1] <= '5') {
		size_t i = 2;

		if (i < len && strchr("diuDIU", name[i]))
			i++;
		if (i == len || (len - i == 5 && !strncasecmp(name + i, "cache", 5))) {
			*kind = LVL_OTHER;
			return 0;
		}
	}
	return -1;
}

/* A description as parsed: its levels from the outside in, and the special ones. */
struct synth {
	struct lvl lv[MAX_LEVELS];
	int nlv;
	int numa_level;		/* -2: no NUMA level; -1: the machine itself */
	int pkg_level, core_level;	/* -1: none */
	long total;		/* PUs */
};

/* The count after "<level>:" at *pp, which must end at a blank or the end. */
static int parse_count(const char **pp, const char *name, size_t nlen, long *cnt, char *err,
		       size_t errlen)
{
	const char *p = *pp;
	char *end;

	errno = 0;
	*cnt = strtol(p, &end, 10);
	if (end == p || errno || *cnt < 1 || *cnt > MAX_PUS) {
		ut_set_err(err, errlen, "synthetic topology: bad count after '%.*s:'",
			   (int)nlen, name);
		return -1;
	}
	p = end;
	if (*p == '(') {
		ut_set_err(err, errlen, "synthetic topology: level attributes '(...)' need hwloc");
		return -1;
	}
	if (*p && !isspace((unsigned char)*p)) {
		ut_set_err(err, errlen, "synthetic topology: unexpected '%c' after '%.*s:%ld'",
			   *p, (int)nlen, name, *cnt);
		return -1;
	}
	*pp = p;
	return 0;
}

/* One "<level>:<count>" at *pp, appended to t's levels. */
static int parse_level(struct synth *t, const char **pp, char *err, size_t errlen)
{
	struct lvl *l = &t->lv[t->nlv];
	const char *name = *pp, *p = *pp;
	size_t nlen;
	long cnt;

	while (*p && *p != ':' && !isspace((unsigned char)*p))
		p++;
	nlen = (size_t)(p - name);
	if (*p != ':') {
		ut_set_err(err, errlen, "synthetic topology: '%.*s' is not <level>:<count>",
			   (int)nlen, name);
		return -1;
	}
	if (level_kind(name, nlen, &l->kind)) {
		ut_set_err(err, errlen, "synthetic topology: unknown level '%.*s' "
			   "(known: pack, numa, die, group, l1-l5, core, pu)", (int)nlen, name);
		return -1;
	}
	p++;
	if (parse_count(&p, name, nlen, &cnt, err, errlen))
		return -1;
	if (t->nlv && t->lv[t->nlv - 1].kind == LVL_PU) {
		ut_set_err(err, errlen, "synthetic topology: nothing may follow the pu level");
		return -1;
	}
	l->count = cnt;
	l->numa_attached = false;
	if (l->kind == LVL_NUMA)
		t->numa_level = t->nlv;
	if (l->kind == LVL_PACKAGE && t->pkg_level < 0)
		t->pkg_level = t->nlv;
	if (l->kind == LVL_CORE)
		t->core_level = t->nlv;
	t->total *= cnt;
	if (t->total > MAX_PUS) {
		ut_set_err(err, errlen, "synthetic topology: more than %d PUs", MAX_PUS);
		return -1;
	}
	t->nlv++;
	*pp = p;
	return 0;
}

/* The whole description into t, with each level's PUs per object. */
static int parse_desc(const char *desc, struct synth *t, char *err, size_t errlen)
{
	const char *p = desc;

	*t = (struct synth){ .numa_level = -2, .pkg_level = -1, .core_level = -1, .total = 1 };
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (!strncasecmp(p, "[numa]", 6)) {
			/* Attach one NUMA node to each object of the previous level. */
			if (t->nlv)
				t->lv[t->nlv - 1].numa_attached = true;
			t->numa_level = t->nlv - 1; /* -1: the machine itself */
			p += 6;
			continue;
		}
		if (t->nlv == MAX_LEVELS) {
			ut_set_err(err, errlen, "synthetic topology: more than %d levels", MAX_LEVELS);
			return -1;
		}
		if (parse_level(t, &p, err, errlen))
			return -1;
	}
	if (!t->nlv || t->lv[t->nlv - 1].kind != LVL_PU) {
		ut_set_err(err, errlen, "synthetic topology: the last level must be pu:<count>");
		return -1;
	}
	for (int i = t->nlv - 1, below = 1; i >= 0; i--) {
		t->lv[i].pus_per_obj = below;
		below *= (int)t->lv[i].count;
	}
	return 0;
}

int ut_topo_load_synthetic_builtin(const char *desc, struct ut_topology **out,
				   char *err, size_t errlen)
{
	struct synth t;
	struct ut_topo_raw *raw;
	int rc;

	*out = NULL;
	if (parse_desc(desc, &t, err, errlen))
		return -1;
	raw = calloc(t.total, sizeof(*raw));
	if (!raw) {
		ut_set_err(err, errlen, "out of memory");
		return -1;
	}
	for (long i = 0; i < t.total; i++) {
		raw[i].os = (int)i;
		raw[i].pkg_key = t.pkg_level >= 0 ? i / t.lv[t.pkg_level].pus_per_obj : 0;
		raw[i].node_os = t.numa_level >= 0 ? (int)(i / t.lv[t.numa_level].pus_per_obj) : 0;
		/* Without a core level every PU is its own core, as hwloc reports it. */
		raw[i].core_key = t.core_level >= 0 ? i / t.lv[t.core_level].pus_per_obj : i;
	}
	rc = ut_topo_build(raw, (int)t.total, UT_TOPO_SYNTHETIC, desc, "builtin", out, err, errlen);
	free(raw);
	return rc;
}
