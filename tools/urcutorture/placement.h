/* SPDX-License-Identifier: MIT */
/*
 * urcutorture thread placement: machine topology, pinning policies, the
 * placement plan, binding the calling thread and node-local memory.
 *
 * Backends.  With hwloc (UT_HAVE_HWLOC) the topology comes from hwloc and
 * binding goes through hwloc_set_cpubind(HWLOC_CPUBIND_THREAD).  Without it
 * the topology is read from sysconf() and /sys/devices/system/{cpu,node}
 * and binding uses sched_setaffinity().  libnuma (UT_HAVE_NUMA) only adds
 * node-local allocation.  Synthetic topologies ("synthetic:pack:2 numa:2
 * core:8 pu:2") work in both builds: hwloc parses them when present, a small
 * parser of our own handles the "<level>:<count> ..." form otherwise.  CPU
 * numbers are always OS indexes (for a synthetic topology: the PU
 * os_index values hwloc assigns, 0..N-1 in topology order).
 *
 * Policies (one per role; roles are placed in the order readers, updaters,
 * workers):
 *   none      the thread is not pinned (cpu -1).
 *   compact   fill PUs in topology order: every PU of core 0, then every
 *             PU of core 1, and so on (SMT siblings share a core first).
 *   scatter   consecutive threads as far apart as possible: round-robin
 *             over packages, then over NUMA nodes inside a package, then
 *             over cores inside a node; a second PU (SMT sibling) of a core
 *             is used only once every core has one thread.  Ties go to the
 *             package / node with the fewest threads of earlier roles.
 *   numa      round-robin over NUMA nodes (in node order); inside a node,
 *             distinct cores first, SMT siblings last.
 *   list:L    the CPUs of L ("0,2-3,8") in the order written, cycling when
 *             there are more threads than CPUs.
 * A later role avoids the PUs an earlier role already occupies as long as
 * free PUs remain; once all are taken it shares them (ut_plan_print says
 * so).  Explicit lists are honoured as written (no avoidance).
 *
 * Thread safety: a topology and a plan are immutable once built and may be
 * read from any thread; building/freeing is single-threaded.  None of these
 * functions has memory-ordering side effects beyond what the system calls
 * they make imply; ut_pin_self() affects only the calling thread.
 */
#ifndef UT_PLACEMENT_H
#define UT_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum ut_role { UT_ROLE_READER, UT_ROLE_UPDATER, UT_ROLE_WORKER, UT_ROLE_COUNT };

enum ut_pin_kind { UT_PIN_NONE, UT_PIN_COMPACT, UT_PIN_SCATTER, UT_PIN_NUMA, UT_PIN_LIST };

struct ut_pin_policy {
	enum ut_pin_kind kind;
	int ncpus;	/* UT_PIN_LIST: number of entries in cpus */
	int *cpus;	/* UT_PIN_LIST: OS CPU numbers, in order (malloc'ed) */
};

struct ut_topology;

/*
 * Load a topology.  spec NULL (or "" or "this") = this machine; a
 * "synthetic:<description>" spec, the description optionally in single or
 * double quotes, e.g. synthetic:"pack:2 numa:2 core:8 pu:2"; anything else
 * is the path of an hwloc XML file (needs hwloc).  Returns 0 and *out, or
 * -1 with a one-line message in err.
 */
int ut_topology_load(const char *spec, struct ut_topology **out, char *err, size_t errlen);
void ut_topology_free(struct ut_topology *t);
/* Number of PUs (logical CPUs) in the topology. */
int ut_topology_ncpus(const struct ut_topology *t);
/* True when the topology describes the machine we run on (threads may be
 * bound to its CPUs); false for synthetic and XML topologies (dry-run only). */
bool ut_topology_is_local(const struct ut_topology *t);
/* "2 packages, 4 NUMA nodes, 16 cores, 32 PUs" (plus "synthetic"/"xml" tag). */
void ut_topology_summary(const struct ut_topology *t, char *buf, size_t len);
/* Writes one JSON object value (no trailing newline): source, packages,
 * numa_nodes, cores, pus, smt (PUs per core, max), nodes: [{node, cpus}]. */
void ut_topology_json(const struct ut_topology *t, FILE *out);
/* OS CPU numbers as a compact list "0-3,8" (all PUs of the topology). */
void ut_topology_cpulist(const struct ut_topology *t, char *buf, size_t len);

/*
 * Parse "none", "compact", "scatter", "numa" or "list:0,2-3" against t
 * (CPU numbers must exist in t).  Returns 0, or -1 with one line in err,
 * e.g. "CPU 9 does not exist (this machine has CPUs 0-1)".  out->cpus is
 * allocated for lists; release with ut_pin_policy_free().
 */
int ut_pin_policy_parse(const char *text, const struct ut_topology *t,
			struct ut_pin_policy *out, char *err, size_t errlen);
void ut_pin_policy_free(struct ut_pin_policy *pol);
/* Canonical text of a policy ("scatter", "list:0,2-3") into buf. */
void ut_pin_policy_format(const struct ut_pin_policy *pol, char *buf, size_t len);

/* The plan: for each role, n threads; cpu -1 = unpinned, node -1 = unknown. */
struct ut_plan {
	int n[UT_ROLE_COUNT];
	int *cpu[UT_ROLE_COUNT];
	int *node[UT_ROLE_COUNT];
	/* After ut_plan_build() failed: the role whose count or policy could
	 * not be planned, UT_ROLE_COUNT when no single role is at fault (no
	 * topology, out of memory).  UT_ROLE_COUNT after a success. */
	enum ut_role failed;
	/* Optional: each slot's thread as the run names it ("fake-updater 0"),
	 * for the printed plan (ut_plan_label); NULL: the placement role's. */
	char (*label[UT_ROLE_COUNT])[32];
};

/*
 * Build the plan for n[role] threads of each role under pol[role].
 * Deterministic: the same topology, policies and counts always give the
 * same plan.  Never binds anything.  Returns 0, or -1 with err.
 * Release with ut_plan_free() (also safe on a zeroed plan).
 */
int ut_plan_build(const struct ut_topology *t, const struct ut_pin_policy pol[UT_ROLE_COUNT],
		  const int n[UT_ROLE_COUNT], struct ut_plan *out, char *err, size_t errlen);
/* Human-readable dry-run plan: one line per thread, "reader 0 -> CPU 5
 * (package 0, node 1, core 2, pu 1)", then per-core occupancy. */
void ut_plan_print(const struct ut_plan *p, const struct ut_topology *t, FILE *out);
/* One JSON object value: {"readers":[{"cpu":..,"node":..},..],"updaters":..,"workers":..}. */
void ut_plan_json(const struct ut_plan *p, FILE *out);
void ut_plan_free(struct ut_plan *p);
/* Role names: "reader", "updater", "worker". */
const char *ut_role_name(enum ut_role r);

/*
 * Bind the calling thread to OS CPU cpu and verify: the binding is read
 * back and must be exactly {cpu}, and after a sched_yield() sched_getcpu()
 * must report cpu.  Returns 0, or -1 with a one-line message (the binding
 * is left in place on a verification failure).  Only meaningful for a
 * local topology; callers must not bind for synthetic/XML plans.
 */
int ut_pin_self(int cpu, char *err, size_t errlen);
/* CPU the calling thread runs on now (sched_getcpu()), -1 if unknown. */
int ut_current_cpu(void);
/* NUMA node of OS CPU cpu on this machine, -1 if unknown. */
int ut_cpu_node(int cpu);

/*
 * Memory for per-thread data: on NUMA node `node` (numa_alloc_onnode) when
 * libnuma is available, the machine has NUMA and node >= 0; otherwise a
 * zeroed cache-line-aligned allocation.  Memory is zero-filled either way.
 * Returns NULL on failure.  Free with ut_free_local() and the same size.
 */
void *ut_alloc_local(size_t size, int node);
void ut_free_local(void *p, size_t size);

/* "hwloc+libnuma", "hwloc", "libnuma" or "sched_setaffinity". */
const char *ut_placement_backend(void);

#endif /* UT_PLACEMENT_H */
