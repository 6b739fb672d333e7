/* SPDX-License-Identifier: MIT */
/*
 * Choosing a loader for a --topology spec: this machine (hwloc, else
 * sysfs), synthetic:"..." (hwloc, else the built-in parser) or an hwloc XML
 * file.  Layering, no cycle: placement.c -> this dispatcher -> the loaders
 * (topology-hwloc.c, -sysfs.c, -synthetic.c) -> the helpers (topology.c).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

/* The PUs of a synthetic description: the product of its levels' counts
 * ("pack:2 core:8 pu:2" = 32), saturating above the bound. */
#define UT_SYNTHETIC_MAX_PUS	(1 << 16)

static unsigned long synthetic_pus(const char *desc)
{
	unsigned long total = 1;

	for (const char *c = strchr(desc, ':'); c; c = strchr(c + 1, ':')) {
		unsigned long n = strtoul(c + 1, NULL, 10);

		if (n && total > UT_SYNTHETIC_MAX_PUS / n)
			return UT_SYNTHETIC_MAX_PUS + 1ul;
		total *= n ? n : 1;
	}
	return total;
}

/* Strip one pair of matching quotes around a synthetic description. */
static void unquote(const char *in, char *out, size_t len)
{
	size_t n;

	while (isspace((unsigned char)*in))
		in++;
	snprintf(out, len, "%s", in);
	n = strlen(out);
	while (n && isspace((unsigned char)out[n - 1]))
		out[--n] = '\0';
	if (n >= 2 && (out[0] == '"' || out[0] == '\'') && out[n - 1] == out[0]) {
		memmove(out, out + 1, n - 2);
		out[n - 2] = '\0';
	}
}

int ut_topology_load(const char *spec, struct ut_topology **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!spec || !*spec || !strcmp(spec, "this")) {
#ifdef UT_HAVE_HWLOC
		if (!ut_topo_load_hwloc(UT_TOPO_LOCAL, NULL, out, err, errlen))
			return 0;
		/* hwloc failed on this machine: sysfs still tells us enough. */
#endif
		return ut_topo_load_sysfs("/sys", out, err, errlen);
	}
	if (!strncmp(spec, "synthetic:", 10)) {
		char desc[sizeof((*out)->desc)];

		if (strlen(spec + 10) >= sizeof(desc)) {
			ut_set_err(err, errlen, "synthetic description longer than %zu characters",
				   sizeof(desc) - 1);
			return -1;
		}
		unquote(spec + 10, desc, sizeof(desc));
		if (!*desc) {
			ut_set_err(err, errlen, "empty synthetic description (example: synthetic:\"pack:2 numa:2 core:8 pu:2\")");
			return -1;
		}
		/* hwloc would build whatever it is given: bound the size first
		 * (the same message with or without hwloc). */
		if (synthetic_pus(desc) > UT_SYNTHETIC_MAX_PUS) {
			ut_set_err(err, errlen, "synthetic topology: more than %d PUs",
				   UT_SYNTHETIC_MAX_PUS);
			return -1;
		}
#ifdef UT_HAVE_HWLOC
		if (!ut_topo_load_hwloc(UT_TOPO_SYNTHETIC, desc, out, err, errlen))
			return 0;
		{
			/* hwloc does not say what is wrong; our parser usually can. */
			struct ut_topology *tmp = NULL;
			char berr[256] = "";

			if (ut_topo_load_synthetic_builtin(desc, &tmp, berr, sizeof(berr)))
				ut_set_err(err, errlen, "%s", berr);
			ut_topology_free(tmp);
		}
		return -1;
#else
		return ut_topo_load_synthetic_builtin(desc, out, err, errlen);
#endif
	}
#ifdef UT_HAVE_HWLOC
	return ut_topo_load_hwloc(UT_TOPO_XML, spec, out, err, errlen);
#else
	ut_set_err(err, errlen, "'%s': XML topologies need hwloc (this build has none); use synthetic:\"...\"",
		   spec);
	return -1;
#endif
}
