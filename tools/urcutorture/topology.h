/* SPDX-License-Identifier: MIT */
/*
 * Internal representation of a topology, shared by the loaders
 * (topology-hwloc.c, topology-sysfs.c, topology-synthetic.c) and the
 * planner (placement.c).  Not part of urcutorture's interface: use
 * placement.h.
 *
 * Every loader produces the same flat table: one entry per PU, in topology
 * order (hwloc logical order: package, then NUMA node, then core, then the
 * SMT siblings of a core).  Packages, NUMA nodes and cores are numbered
 * 0..n-1 in order of first appearance in that table ("logical" indexes);
 * node_os[] maps a logical NUMA node to its OS number (what libnuma takes).
 */
#ifndef UT_TOPOLOGY_H
#define UT_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#include "placement.h"

/* Where a topology came from; only UT_TOPO_LOCAL may be bound to. */
enum ut_topo_source { UT_TOPO_LOCAL, UT_TOPO_SYNTHETIC, UT_TOPO_XML, UT_TOPO_SYSFS_TREE };

struct ut_pu {
	int os;		/* OS CPU number (what binding and lists use) */
	int pkg;	/* logical package */
	int node;	/* logical NUMA node */
	int core;	/* logical core, unique across the machine */
	int smt;	/* rank among the PUs of its core, 0 first */
};

struct ut_topology {
	enum ut_topo_source source;
	char desc[160];		/* synthetic description, XML path or sysfs root; "" for local */
	const char *loader;	/* "hwloc", "sysfs" or "builtin" (synthetic parser) */
	int npu, npkg, nnode, ncore;
	int smt_max;		/* most PUs in one core */
	struct ut_pu *pu;	/* npu entries, topology order */
	int *node_os;		/* nnode entries */
	int max_os;		/* largest OS CPU number */
	int *os_to_pu;		/* max_os + 1 entries: index into pu[] or -1 */
};

/*
 * A loader's raw view of one PU: OS number plus opaque keys identifying
 * its package, NUMA node (the OS node number) and core.  Keys need only be
 * equal for PUs sharing the object; core keys must be unique machine-wide.
 */
struct ut_topo_raw {
	int os;
	long pkg_key;
	int node_os;		/* -1: not known (treated as node 0) */
	long core_key;
};

/*
 * Build *out from raw[0..n-1], which must already be in topology order.
 * Takes ownership of nothing; allocates the table.  0 or -1 + err.
 */
int ut_topo_build(const struct ut_topo_raw *raw, int n, enum ut_topo_source source,
		  const char *desc, const char *loader, struct ut_topology **out,
		  char *err, size_t errlen);

/* Index in t->pu of OS CPU cpu, or -1 when t has no such CPU. */
int ut_topo_find(const struct ut_topology *t, int cpu);

/*
 * The built-in synthetic parser: "pack:2 numa:2 core:8 pu:2", levels
 * package/pack/socket, die, group, numa/node/numanode, l1..l5 caches
 * (l2d, l3u, ...), core, pu; "[numa]" after a level gives each of its
 * objects one NUMA node.  PU OS numbers are 0..N-1 in topology order, as
 * hwloc numbers them.  Available in every build (tests compare it with
 * hwloc's own parser).
 */
int ut_topo_load_synthetic_builtin(const char *desc, struct ut_topology **out,
				   char *err, size_t errlen);

/*
 * Linux sysfs loader: online CPUs from <root>/devices/system/cpu/online,
 * packages from .../cpuN/topology/physical_package_id, cores from core_id,
 * nodes from <root>/devices/system/node/nodeK/cpulist.  root is "/sys" for
 * this machine; tests point it at a fake tree (the result is then marked
 * non-local: nothing may be bound to it).
 */
int ut_topo_load_sysfs(const char *root, struct ut_topology **out, char *err, size_t errlen);

#ifdef UT_HAVE_HWLOC
/* hwloc loaders: spec NULL = this machine; else synthetic description or XML path. */
int ut_topo_load_hwloc(enum ut_topo_source source, const char *spec, struct ut_topology **out,
		       char *err, size_t errlen);
/* Bind the calling thread with hwloc: 0; -1 (+err) when binding fails;
 * 1 when hwloc cannot load this machine's topology (use another way). */
int ut_topo_hwloc_bind_self(int cpu, char *err, size_t errlen);
#endif

/*
 * printf-style message into err[0..errlen-1] (truncated to fit); does
 * nothing when err is NULL or errlen is 0.  Shared by the loaders and the
 * planner for their "0 or -1 + err" results.
 */
void ut_set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Parse a cpulist ("0-3,8,10-11") into a malloc'ed array; count in *n. 0 or -1. */
int ut_cpulist_parse(const char *text, int **cpus, int *n);
/* Format sorted-or-not CPU numbers as a compact cpulist. */
void ut_cpulist_format(const int *cpus, int n, char *buf, size_t len);

#endif /* UT_TOPOLOGY_H */
