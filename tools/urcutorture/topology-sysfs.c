/* SPDX-License-Identifier: MIT */
/*
 * Topology of this machine from Linux sysfs, for builds without hwloc (and
 * as the fallback when hwloc cannot load the local topology).  Order of
 * the table: package id, then NUMA node, then core id, then CPU number,
 * which is the order hwloc's logical indexes follow on ordinary machines.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topology.h"

/* First line of a small sysfs file into buf; 0 or -1. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static long read_long(const char *path, long dflt)
{
	char buf[64], *end;
	long v;

	if (read_line(path, buf, sizeof(buf)))
		return dflt;
	v = strtol(buf, &end, 10);
	return end == buf ? dflt : v;
}

/*
 * NUMA node of each CPU in cpus[0..n-1] from <root>/devices/system/node;
 * CPUs listed by no node stay -1.
 */
static void read_nodes(const char *root, const int *cpus, int n, int *node)
{
	char path[512];
	DIR *d;
	struct dirent *de;

	for (int i = 0; i < n; i++)
		node[i] = -1;
	snprintf(path, sizeof(path), "%s/devices/system/node", root);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char line[4096];
		int *list, cnt, id;
		char *end;

		if (strncmp(de->d_name, "node", 4))
			continue;
		id = (int)strtol(de->d_name + 4, &end, 10);
		if (end == de->d_name + 4 || *end)
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/node/%s/cpulist", root, de->d_name);
		if (read_line(path, line, sizeof(line)) || ut_cpulist_parse(line, &list, &cnt))
			continue;
		for (int k = 0; k < cnt; k++)
			for (int i = 0; i < n; i++)
				if (cpus[i] == list[k])
					node[i] = id;
		free(list);
	}
	closedir(d);
}

static int cmp_raw(const void *a, const void *b)
{
	const struct ut_topo_raw *x = a, *y = b;

	if (x->pkg_key != y->pkg_key)
		return x->pkg_key < y->pkg_key ? -1 : 1;
	if (x->node_os != y->node_os)
		return x->node_os < y->node_os ? -1 : 1;
	if (x->core_key != y->core_key)
		return x->core_key < y->core_key ? -1 : 1;
	return (x->os > y->os) - (x->os < y->os);
}

int ut_topo_load_sysfs(const char *root, struct ut_topology **out, char *err, size_t errlen)
{
	char path[512], line[4096];
	int *cpus = NULL, *node = NULL, n = 0, rc;
	struct ut_topo_raw *raw;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", root);
	if (read_line(path, line, sizeof(line)) || ut_cpulist_parse(line, &cpus, &n) || !n) {
		long cnt = sysconf(_SC_NPROCESSORS_ONLN);

		if (strcmp(root, "/sys") || cnt < 1) {
			ut_set_err(err, errlen, "cannot read the online CPUs from %s", path);
			return -1;
		}
		free(cpus);
		cpus = malloc(cnt * sizeof(int));
		if (!cpus) {
			ut_set_err(err, errlen, "out of memory");
			return -1;
		}
		for (n = 0; n < cnt; n++)
			cpus[n] = n;
	}
	raw = calloc(n, sizeof(*raw));
	node = calloc(n, sizeof(int));
	if (!raw || !node) {
		free(cpus);
		free(raw);
		free(node);
		ut_set_err(err, errlen, "out of memory");
		return -1;
	}
	read_nodes(root, cpus, n, node);
	for (int i = 0; i < n; i++) {
		long pkg, core;

		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/physical_package_id",
			 root, cpus[i]);
		pkg = read_long(path, 0);
		if (pkg < 0)
			pkg = 0;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/core_id", root,
			 cpus[i]);
		core = read_long(path, -1);
		raw[i].os = cpus[i];
		raw[i].pkg_key = pkg;
		raw[i].node_os = node[i] < 0 ? 0 : node[i];
		/*
		 * core_id is only unique inside a package.  Unknown: one core
		 * per CPU, with a negative key (known keys are >= 0) that fits
		 * a 32-bit long too and keeps those CPUs in OS order.
		 */
		raw[i].core_key = core < 0 ? LONG_MIN + cpus[i] : (pkg << 24) + core;
	}
	qsort(raw, n, sizeof(*raw), cmp_raw);
	rc = ut_topo_build(raw, n, strcmp(root, "/sys") ? UT_TOPO_SYSFS_TREE : UT_TOPO_LOCAL,
			   strcmp(root, "/sys") ? root : "", "sysfs", out, err, errlen);
	free(raw);
	free(node);
	free(cpus);
	return rc;
}

int ut_cpu_node(int cpu)
{
	char path[128];
	DIR *d;
	struct dirent *de;
	int node = -1;

	if (cpu < 0)
		return -1;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char *end;
		long v;

		if (strncmp(de->d_name, "node", 4))
			continue;
		v = strtol(de->d_name + 4, &end, 10);
		if (end != de->d_name + 4 && !*end) {
			node = (int)v;
			break;
		}
	}
	closedir(d);
	return node;
}
