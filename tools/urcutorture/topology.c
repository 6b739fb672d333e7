/* SPDX-License-Identifier: MIT */
/*
 * Topology helpers: building the flat PU table all loaders produce (see
 * topology.h), CPU lists, and the summary / JSON views of a table.  The
 * loaders (topology-hwloc.c, -sysfs.c, -synthetic.c) call these; choosing a
 * loader for a --topology spec is topology-load.c's, so that the helpers
 * never call back into a loader (no cycle).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "topology.h"

void ut_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Index of key in keys[0..*n-1], appending it when new. */
static int rank_of(long *keys, int *n, long key)
{
	for (int i = 0; i < *n; i++)
		if (keys[i] == key)
			return i;
	keys[*n] = key;
	return (*n)++;
}

int ut_topo_build(const struct ut_topo_raw *raw, int n, enum ut_topo_source source,
		  const char *desc, const char *loader, struct ut_topology **out,
		  char *err, size_t errlen)
{
	struct ut_topology *t;
	long *pkg_keys = NULL, *node_keys = NULL, *core_keys = NULL;
	int *core_fill = NULL;

	if (n <= 0) {
		ut_set_err(err, errlen, "the topology has no CPUs");
		return -1;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		goto nomem;
	t->source = source;
	t->loader = loader;
	snprintf(t->desc, sizeof(t->desc), "%s", desc ? desc : "");
	t->npu = n;
	t->pu = calloc(n, sizeof(*t->pu));
	pkg_keys = calloc(n, sizeof(long));
	node_keys = calloc(n, sizeof(long));
	core_keys = calloc(n, sizeof(long));
	core_fill = calloc(n, sizeof(int));
	if (!t->pu || !pkg_keys || !node_keys || !core_keys || !core_fill)
		goto nomem;

	t->max_os = -1;
	for (int i = 0; i < n; i++) {
		struct ut_pu *pu = &t->pu[i];

		if (raw[i].os < 0 || raw[i].os > (1 << 20)) {
			ut_set_err(err, errlen, "CPU number %d out of range", raw[i].os);
			goto fail;
		}
		pu->os = raw[i].os;
		pu->pkg = rank_of(pkg_keys, &t->npkg, raw[i].pkg_key);
		pu->node = rank_of(node_keys, &t->nnode, raw[i].node_os < 0 ? 0 : raw[i].node_os);
		pu->core = rank_of(core_keys, &t->ncore, raw[i].core_key);
		pu->smt = core_fill[pu->core]++;
		if (core_fill[pu->core] > t->smt_max)
			t->smt_max = core_fill[pu->core];
		if (pu->os > t->max_os)
			t->max_os = pu->os;
	}

	t->node_os = calloc(t->nnode, sizeof(int));
	t->os_to_pu = malloc((t->max_os + 1) * sizeof(int));
	if (!t->node_os || !t->os_to_pu)
		goto nomem;
	for (int i = 0; i < t->nnode; i++)
		t->node_os[i] = (int)node_keys[i];
	for (int i = 0; i <= t->max_os; i++)
		t->os_to_pu[i] = -1;
	for (int i = 0; i < n; i++) {
		if (t->os_to_pu[t->pu[i].os] >= 0) {
			ut_set_err(err, errlen, "CPU %d appears twice in the topology", t->pu[i].os);
			goto fail;
		}
		t->os_to_pu[t->pu[i].os] = i;
	}
	free(pkg_keys);
	free(node_keys);
	free(core_keys);
	free(core_fill);
	*out = t;
	return 0;

nomem:
	ut_set_err(err, errlen, "out of memory building the topology");
fail:
	free(pkg_keys);
	free(node_keys);
	free(core_keys);
	free(core_fill);
	ut_topology_free(t);
	return -1;
}

int ut_topo_find(const struct ut_topology *t, int cpu)
{
	if (!t || cpu < 0 || cpu > t->max_os)
		return -1;
	return t->os_to_pu[cpu];
}

void ut_topology_free(struct ut_topology *t)
{
	if (!t)
		return;
	free(t->pu);
	free(t->node_os);
	free(t->os_to_pu);
	free(t);
}

int ut_topology_ncpus(const struct ut_topology *t)
{
	return t ? t->npu : 0;
}

bool ut_topology_is_local(const struct ut_topology *t)
{
	return t && t->source == UT_TOPO_LOCAL;
}

static const char *plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void ut_topology_summary(const struct ut_topology *t, char *buf, size_t len)
{
	if (!t) {
		snprintf(buf, len, "unknown topology");
		return;
	}
	snprintf(buf, len, "%d %s, %d NUMA %s, %d %s, %d %s%s%s%s", t->npkg,
		 plural(t->npkg, "package", "packages"), t->nnode, plural(t->nnode, "node", "nodes"),
		 t->ncore, plural(t->ncore, "core", "cores"), t->npu, plural(t->npu, "PU", "PUs"),
		 t->source == UT_TOPO_SYNTHETIC ? " (synthetic \"" :
		 t->source == UT_TOPO_XML ? " (XML " :
		 t->source == UT_TOPO_SYSFS_TREE ? " (sysfs tree " : "",
		 t->source == UT_TOPO_LOCAL ? "" : t->desc,
		 t->source == UT_TOPO_SYNTHETIC ? "\")" : t->source == UT_TOPO_LOCAL ? "" : ")");
}

/* Sorted copy helper for ut_cpulist_format. */
static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

void ut_cpulist_format(const int *cpus, int n, char *buf, size_t len)
{
	int *s;
	size_t off = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (n <= 0)
		return;
	s = malloc(n * sizeof(int));
	if (!s) {
		snprintf(buf, len, "?");
		return;
	}
	memcpy(s, cpus, n * sizeof(int));
	qsort(s, n, sizeof(int), cmp_int);
	for (int i = 0; i < n && off < len;) {
		int j = i;
		int w;

		while (j + 1 < n && s[j + 1] <= s[j] + 1)
			j++;
		if (s[j] == s[i])
			w = snprintf(buf + off, len - off, "%s%d", off ? "," : "", s[i]);
		else
			w = snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", s[i], s[j]);
		if (w < 0)
			break;
		off += (size_t)w;
		i = j + 1;
	}
	free(s);
}

void ut_topology_cpulist(const struct ut_topology *t, char *buf, size_t len)
{
	int *cpus;

	if (!len)
		return;
	buf[0] = '\0';
	if (!t)
		return;
	cpus = malloc(t->npu * sizeof(int));
	if (!cpus)
		return;
	for (int i = 0; i < t->npu; i++)
		cpus[i] = t->pu[i].os;
	ut_cpulist_format(cpus, t->npu, buf, len);
	free(cpus);
}

int ut_cpulist_parse(const char *text, int **cpus, int *n)
{
	int cap = 16, cnt = 0;
	int *v = malloc(cap * sizeof(int));
	const char *p = text;

	if (!v)
		return -1;
	while (*p && *p != '\n') {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*p))
			goto bad;
		errno = 0;
		a = strtol(p, &end, 10);
		if (errno || a > INT_MAX)
			goto bad;
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtol(p, &end, 10);
			if (errno || b < a || b - a > (1 << 20))
				goto bad;
			p = end;
		}
		for (long c = a; c <= b; c++) {
			if (cnt == cap) {
				int *nv;

				cap *= 2;
				nv = realloc(v, cap * sizeof(int));
				if (!nv)
					goto bad;
				v = nv;
			}
			v[cnt++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	*cpus = v;
	*n = cnt;
	return 0;
bad:
	free(v);
	return -1;
}

void ut_topology_json(const struct ut_topology *t, FILE *out)
{
	static const char *const src[] = { "local", "synthetic", "xml", "sysfs" };
	char buf[1024];
	struct uj j;
	int *cpus;

	uj_init_compact(&j, out);
	if (!t) {
		uj_null(&j, NULL);
		return;
	}
	uj_obj(&j, NULL);
	uj_str(&j, "source", src[t->source]);
	uj_str(&j, "description", t->desc);
	uj_str(&j, "loader", t->loader);
	uj_i64(&j, "packages", t->npkg);
	uj_i64(&j, "numa_nodes", t->nnode);
	uj_i64(&j, "cores", t->ncore);
	uj_i64(&j, "pus", t->npu);
	uj_i64(&j, "smt", t->smt_max);
	uj_arr(&j, "nodes");
	cpus = malloc(t->npu * sizeof(int));
	for (int nd = 0; nd < t->nnode; nd++) {
		int k = 0;

		for (int i = 0; cpus && i < t->npu; i++)
			if (t->pu[i].node == nd)
				cpus[k++] = t->pu[i].os;
		ut_cpulist_format(cpus, k, buf, sizeof(buf));
		uj_obj(&j, NULL);
		uj_i64(&j, "node", t->node_os[nd]);
		uj_str(&j, "cpus", buf);
		uj_i64(&j, "ncpus", k);
		uj_end_obj(&j);
	}
	free(cpus);
	uj_end_arr(&j);
	uj_end_obj(&j);
}
