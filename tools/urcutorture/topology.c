/* SPDX-License-Identifier: MIT */
/*
 * Topology: choosing a loader for a --topology spec, the flat PU table all
 * loaders produce (see topology.h), and the summary / JSON views of it.
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

/* JSON string body with the escapes JSON requires. */
static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void ut_topology_json(const struct ut_topology *t, FILE *out)
{
	static const char *const src[] = { "local", "synthetic", "xml", "sysfs" };
	char buf[1024];
	int *cpus;

	if (!t) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"source\":\"%s\",\"description\":", src[t->source]);
	json_str(out, t->desc);
	fprintf(out, ",\"loader\":\"%s\",\"packages\":%d,\"numa_nodes\":%d,\"cores\":%d,\"pus\":%d,"
		"\"smt\":%d,\"nodes\":[", t->loader, t->npkg, t->nnode, t->ncore, t->npu, t->smt_max);
	cpus = malloc(t->npu * sizeof(int));
	for (int nd = 0; nd < t->nnode; nd++) {
		int k = 0;

		for (int i = 0; cpus && i < t->npu; i++)
			if (t->pu[i].node == nd)
				cpus[k++] = t->pu[i].os;
		ut_cpulist_format(cpus, k, buf, sizeof(buf));
		fprintf(out, "%s{\"node\":%d,\"cpus\":\"%s\",\"ncpus\":%d}", nd ? "," : "",
			t->node_os[nd], buf, k);
	}
	free(cpus);
	fputs("]}", out);
}
