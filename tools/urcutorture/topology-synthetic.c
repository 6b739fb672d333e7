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

int ut_topo_load_synthetic_builtin(const char *desc, struct ut_topology **out,
				   char *err, size_t errlen)
{
	struct lvl lv[MAX_LEVELS];
	int nlv = 0, numa_level = -2, pkg_level = -1, core_level = -1;
	long total = 1;
	const char *p = desc;
	struct ut_topo_raw *raw;
	int rc;

	*out = NULL;
	while (*p) {
		const char *name;
		size_t nlen;
		char *end;
		long cnt;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (!strncasecmp(p, "[numa]", 6)) {
			/* Attach one NUMA node to each object of the previous level. */
			if (nlv)
				lv[nlv - 1].numa_attached = true;
			numa_level = nlv - 1; /* -1: the machine itself */
			p += 6;
			continue;
		}
		if (nlv == MAX_LEVELS) {
			ut_set_err(err, errlen, "synthetic topology: more than %d levels", MAX_LEVELS);
			return -1;
		}
		name = p;
		while (*p && *p != ':' && !isspace((unsigned char)*p))
			p++;
		nlen = (size_t)(p - name);
		if (*p != ':') {
			ut_set_err(err, errlen, "synthetic topology: '%.*s' is not <level>:<count>",
				   (int)nlen, name);
			return -1;
		}
		if (level_kind(name, nlen, &lv[nlv].kind)) {
			ut_set_err(err, errlen, "synthetic topology: unknown level '%.*s' "
				   "(known: pack, numa, die, group, l1-l5, core, pu)", (int)nlen, name);
			return -1;
		}
		p++;
		errno = 0;
		cnt = strtol(p, &end, 10);
		if (end == p || errno || cnt < 1 || cnt > MAX_PUS) {
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
				   *p, (int)nlen, name, cnt);
			return -1;
		}
		if (nlv && lv[nlv - 1].kind == LVL_PU) {
			ut_set_err(err, errlen, "synthetic topology: nothing may follow the pu level");
			return -1;
		}
		lv[nlv].count = cnt;
		lv[nlv].numa_attached = false;
		if (lv[nlv].kind == LVL_NUMA)
			numa_level = nlv;
		if (lv[nlv].kind == LVL_PACKAGE && pkg_level < 0)
			pkg_level = nlv;
		if (lv[nlv].kind == LVL_CORE)
			core_level = nlv;
		total *= cnt;
		if (total > MAX_PUS) {
			ut_set_err(err, errlen, "synthetic topology: more than %d PUs", MAX_PUS);
			return -1;
		}
		nlv++;
	}
	if (!nlv || lv[nlv - 1].kind != LVL_PU) {
		ut_set_err(err, errlen, "synthetic topology: the last level must be pu:<count>");
		return -1;
	}
	for (int i = nlv - 1, below = 1; i >= 0; i--) {
		lv[i].pus_per_obj = below;
		below *= (int)lv[i].count;
	}

	raw = calloc(total, sizeof(*raw));
	if (!raw) {
		ut_set_err(err, errlen, "out of memory");
		return -1;
	}
	for (long i = 0; i < total; i++) {
		raw[i].os = (int)i;
		raw[i].pkg_key = pkg_level >= 0 ? i / lv[pkg_level].pus_per_obj : 0;
		raw[i].node_os = numa_level >= 0 ? (int)(i / lv[numa_level].pus_per_obj) : 0;
		/* Without a core level every PU is its own core, as hwloc reports it. */
		raw[i].core_key = core_level >= 0 ? i / lv[core_level].pus_per_obj : i;
	}
	rc = ut_topo_build(raw, (int)total, UT_TOPO_SYNTHETIC, desc, "builtin", out, err, errlen);
	free(raw);
	return rc;
}
