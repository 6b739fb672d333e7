/* SPDX-License-Identifier: MIT */
/*
 * urcutorture placement: plans on synthetic topologies this machine does
 * not have (exact CPU numbers), policy parsing and its error messages,
 * role avoidance, the built-in synthetic parser against hwloc's, XML and
 * fake-sysfs topologies, binding on this machine (checked with
 * sched_getcpu) and node-local allocation.  TAP output.
 *
 * Built twice by Meson: with hwloc/libnuma (when found) and without, so
 * both code paths run the same checks.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef UT_HAVE_NUMA
#include <numa.h>
#include <numaif.h>
#endif

#include "tap.h"
#include "topology.h"

static struct ut_topology *load(const char *spec)
{
	struct ut_topology *t = NULL;
	char err[256] = "";

	if (ut_topology_load(spec, &t, err, sizeof(err))) {
		tap_diag("load '%s' failed: %s", spec ? spec : "(this machine)", err);
		return NULL;
	}
	return t;
}

/* Plan with policies given as text; NULL text = none. */
static int plan(const struct ut_topology *t, const char *pr, int nr, const char *pu, int nu,
		const char *pw, int nw, struct ut_plan *out)
{
	struct ut_pin_policy pol[UT_ROLE_COUNT];
	const char *text[UT_ROLE_COUNT] = { pr, pu, pw };
	int n[UT_ROLE_COUNT] = { nr, nu, nw };
	char err[256] = "";
	int rc = 0;

	for (int r = 0; r < UT_ROLE_COUNT; r++)
		if (ut_pin_policy_parse(text[r] ? text[r] : "none", t, &pol[r], err, sizeof(err))) {
			tap_diag("policy '%s': %s", text[r], err);
			for (int q = 0; q < r; q++)
				ut_pin_policy_free(&pol[q]);
			memset(out, 0, sizeof(*out));
			return -1;
		}
	if (ut_plan_build(t, pol, n, out, err, sizeof(err))) {
		tap_diag("plan: %s", err);
		rc = -1;
	}
	for (int r = 0; r < UT_ROLE_COUNT; r++)
		ut_pin_policy_free(&pol[r]);
	return rc;
}

static int cpus_are(const struct ut_plan *p, enum ut_role r, const int *want, int n)
{
	if (p->n[r] != n)
		return 0;
	for (int i = 0; i < n; i++)
		if (p->cpu[r][i] != want[i]) {
			tap_diag("%s %d: CPU %d, expected %d", ut_role_name(r), i, p->cpu[r][i], want[i]);
			return 0;
		}
	return 1;
}

static int distinct(const int *v, int n, int (*key)(const struct ut_topology *, int),
		    const struct ut_topology *t)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (key(t, v[i]) == key(t, v[j]))
				return 0;
	return 1;
}

static int key_cpu(const struct ut_topology *t, int cpu) { (void)t; return cpu; }
static int key_pkg(const struct ut_topology *t, int cpu) { return t->pu[ut_topo_find(t, cpu)].pkg; }
static int key_node(const struct ut_topology *t, int cpu) { return t->pu[ut_topo_find(t, cpu)].node; }
static int key_core(const struct ut_topology *t, int cpu) { return t->pu[ut_topo_find(t, cpu)].core; }

/* Print a plan into a string (caller frees). */
static char *plan_text(const struct ut_plan *p, const struct ut_topology *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	ut_plan_print(p, t, f);
	fclose(f);
	return buf;
}

static const char *big = "synthetic:pack:2 numa:2 core:8 pu:2";

static void test_big_topology(void)
{
	struct ut_topology *t = load(big);
	char buf[256];
	struct ut_plan p;

	tap_ok(t != NULL, "load %s", big);
	if (!t)
		return;
	ut_topology_summary(t, buf, sizeof(buf));
	tap_ok(ut_topology_ncpus(t) == 64 && t->npkg == 2 && t->nnode == 4 && t->ncore == 32 &&
	       t->smt_max == 2, "2x2x8x2: 64 PUs, 2 packages, 4 nodes, 32 cores, SMT 2 (%s)", buf);
	tap_ok(!strncmp(buf, "2 packages, 4 NUMA nodes, 32 cores, 64 PUs", 42), "summary text");
	tap_ok(!ut_topology_is_local(t), "a synthetic topology is not local (never bound)");
	ut_topology_cpulist(t, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "0-63"), "CPU numbers are the PU os indexes 0-63 (%s)", buf);

	/* scatter */
	tap_ok(!plan(t, "scatter", 2, NULL, 0, NULL, 0, &p) &&
	       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 32 }, 2) &&
	       distinct(p.cpu[0], 2, key_pkg, t), "scatter 2: CPUs 0 and 32, two packages");
	ut_plan_free(&p);
	tap_ok(!plan(t, "scatter", 4, NULL, 0, NULL, 0, &p) &&
	       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 32, 16, 48 }, 4) &&
	       distinct(p.cpu[0], 4, key_node, t), "scatter 4: four different NUMA nodes (0,32,16,48)");
	ut_plan_free(&p);
	tap_ok(!plan(t, "scatter", 8, NULL, 0, NULL, 0, &p) &&
	       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 32, 16, 48, 2, 34, 18, 50 }, 8),
	       "scatter 8: packages alternate, then nodes, then next core");
	ut_plan_free(&p);
	tap_ok(!plan(t, "scatter", 32, NULL, 0, NULL, 0, &p) && distinct(p.cpu[0], 32, key_core, t),
	       "scatter 32: 32 distinct cores (no SMT sibling while a core is idle)");
	ut_plan_free(&p);
	tap_ok(!plan(t, "scatter", 34, NULL, 0, NULL, 0, &p) && p.cpu[0][32] == 1 && p.cpu[0][33] == 33,
	       "scatter 33rd/34th: SMT siblings last, still alternating packages (1, 33)");
	ut_plan_free(&p);
	tap_ok(!plan(t, "scatter", 64, NULL, 0, NULL, 0, &p) && distinct(p.cpu[0], 64, key_cpu, t),
	       "scatter 64: every PU once");
	ut_plan_free(&p);

	/* compact */
	tap_ok(!plan(t, "compact", 4, NULL, 0, NULL, 0, &p) &&
	       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 1, 2, 3 }, 4) &&
	       key_core(t, 0) == key_core(t, 1) && key_core(t, 2) == key_core(t, 3) &&
	       key_core(t, 1) != key_core(t, 2), "compact 4: PUs 0,1 of core 0 then 2,3 of core 1");
	ut_plan_free(&p);

	/* numa */
	tap_ok(!plan(t, "numa", 4, NULL, 0, NULL, 0, &p) &&
	       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 16, 32, 48 }, 4) &&
	       p.node[0][0] == 0 && p.node[0][1] == 1 && p.node[0][2] == 2 && p.node[0][3] == 3,
	       "numa 4: one thread per node, nodes 0-3 recorded in the plan");
	ut_plan_free(&p);
	tap_ok(!plan(t, "numa", 8, NULL, 0, NULL, 0, &p) &&
	       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 16, 32, 48, 2, 18, 34, 50 }, 8),
	       "numa 8: round-robin over nodes, distinct cores inside a node");
	ut_plan_free(&p);

	/* lists */
	tap_ok(!plan(t, "list:0,2-3", 5, NULL, 0, NULL, 0, &p) &&
	       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 2, 3, 0, 2 }, 5),
	       "list:0,2-3 in order, cycling for 5 threads");
	ut_plan_free(&p);
	tap_ok(!plan(t, "list:40,7", 2, NULL, 0, NULL, 0, &p) && p.node[0][0] == 2 && p.node[0][1] == 0,
	       "list: nodes of listed CPUs (40 -> node 2, 7 -> node 0)");
	ut_plan_free(&p);

	/* roles avoid each other */
	tap_ok(!plan(t, "compact", 4, "compact", 2, "compact", 1, &p) &&
	       cpus_are(&p, UT_ROLE_UPDATER, (int[]){ 4, 5 }, 2) &&
	       cpus_are(&p, UT_ROLE_WORKER, (int[]){ 6 }, 1),
	       "compact readers 0-3, updaters 4-5, worker 6: later roles avoid earlier PUs");
	ut_plan_free(&p);
	tap_ok(!plan(t, "scatter", 8, "compact", 2, "numa", 2, &p) &&
	       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 32, 16, 48, 2, 34, 18, 50 }, 8) &&
	       cpus_are(&p, UT_ROLE_UPDATER, (int[]){ 1, 3 }, 2) &&
	       cpus_are(&p, UT_ROLE_WORKER, (int[]){ 4, 20 }, 2),
	       "8 scatter readers + 2 compact updaters (1,3) + 2 numa workers (4,20)");
	{
		char *txt = plan_text(&p, t);

		tap_ok(txt && strstr(txt, "reader    0 -> CPU 0") && strstr(txt, "updater   1 -> CPU 3") &&
		       strstr(txt, "core 0   (package 0, node 0):  CPU 0=R0  CPU 1=U0\n") &&
		       strstr(txt, "no CPU is shared") && strstr(txt, "dry run only"),
		       "plan print: thread lines, per-core occupancy, avoidance note, dry-run note");
		if (txt && getenv("UT_SHOW_PLAN"))
			fputs(txt, stdout);
		free(txt);
	}
	ut_plan_free(&p);
	tap_ok(!plan(t, "compact", 64, "compact", 2, NULL, 0, &p) &&
	       cpus_are(&p, UT_ROLE_UPDATER, (int[]){ 0, 1 }, 2), "all PUs taken: updaters share 0,1");
	{
		char *txt = plan_text(&p, t);

		tap_ok(txt && strstr(txt, "updater   0 -> CPU 0") && strstr(txt, "shares the CPU with reader 0") &&
		       strstr(txt, "2 threads share a CPU"), "plan print says when PUs are shared");
		free(txt);
	}
	ut_plan_free(&p);
	tap_ok(!plan(t, "none", 3, "scatter", 1, NULL, 2, &p) && p.cpu[0][0] == -1 && p.node[0][2] == -1 &&
	       p.cpu[1][0] == 0 && p.cpu[2][1] == -1, "none: cpu -1 and node -1");
	ut_plan_free(&p);

	/* JSON views */
	{
		char *buf2 = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf2, &len);

		ut_topology_json(t, f);
		fclose(f);
		tap_ok(buf2 && strstr(buf2, "\"packages\":2") && strstr(buf2, "\"numa_nodes\":4") &&
		       strstr(buf2, "\"pus\":64") && strstr(buf2, "\"smt\":2") &&
		       strstr(buf2, "{\"node\":1,\"cpus\":\"16-31\",\"ncpus\":16}") && buf2[0] == '{' &&
		       buf2[len - 1] == '}', "topology JSON: counts and per-node CPU lists");
		free(buf2);
		plan(t, "list:5", 1, NULL, 0, NULL, 1, &p);
		buf2 = NULL;
		f = open_memstream(&buf2, &len);
		ut_plan_json(&p, f);
		fclose(f);
		tap_ok(buf2 && !strcmp(buf2, "{\"readers\":[{\"cpu\":5,\"node\":0}],\"updaters\":[],"
				   "\"workers\":[{\"cpu\":-1,\"node\":-1}]}"), "plan JSON: %s", buf2);
		free(buf2);
		ut_plan_free(&p);
	}
	ut_topology_free(t);
}

static void test_parse_errors(void)
{
	struct ut_topology *t = load(big);
	struct ut_pin_policy pol;
	char err[256];

	if (!t) {
		tap_ok(0, "load for parse tests");
		return;
	}
	err[0] = '\0';
	tap_ok(ut_pin_policy_parse("list:99", t, &pol, err, sizeof(err)) == -1 && strstr(err, "99") &&
	       strstr(err, "0-63") && !strchr(err, '\n'), "list:99 rejected: %s", err);
	err[0] = '\0';
	tap_ok(ut_pin_policy_parse("list:a", t, &pol, err, sizeof(err)) == -1 && *err,
	       "list:a rejected: %s", err);
	err[0] = '\0';
	tap_ok(ut_pin_policy_parse("list:", t, &pol, err, sizeof(err)) == -1 && *err,
	       "list: (empty) rejected: %s", err);
	err[0] = '\0';
	tap_ok(ut_pin_policy_parse("list:3-1", t, &pol, err, sizeof(err)) == -1 && *err,
	       "list:3-1 rejected: %s", err);
	err[0] = '\0';
	tap_ok(ut_pin_policy_parse("list:1,,2", t, &pol, err, sizeof(err)) == -1 && *err,
	       "list:1,,2 rejected: %s", err);
	err[0] = '\0';
	tap_ok(ut_pin_policy_parse("sideways", t, &pol, err, sizeof(err)) == -1 &&
	       strstr(err, "sideways") && strstr(err, "scatter"), "unknown policy rejected: %s", err);
	tap_ok(!ut_pin_policy_parse("list:0,2-3", t, &pol, err, sizeof(err)) && pol.kind == UT_PIN_LIST &&
	       pol.ncpus == 3 && pol.cpus[0] == 0 && pol.cpus[1] == 2 && pol.cpus[2] == 3,
	       "list:0,2-3 parses to 0,2,3");
	ut_pin_policy_format(&pol, err, sizeof(err));
	tap_ok(!strcmp(err, "list:0,2,3"), "format: %s", err);
	ut_pin_policy_free(&pol);
	tap_ok(!ut_pin_policy_parse("SCATTER", t, &pol, err, sizeof(err)) && pol.kind == UT_PIN_SCATTER &&
	       !ut_pin_policy_parse("none", t, &pol, err, sizeof(err)) && pol.kind == UT_PIN_NONE &&
	       !ut_pin_policy_parse("numa", t, &pol, err, sizeof(err)) && pol.kind == UT_PIN_NUMA &&
	       !ut_pin_policy_parse("compact", t, &pol, err, sizeof(err)) && pol.kind == UT_PIN_COMPACT,
	       "policy names");
	{
		struct ut_pin_policy pols[UT_ROLE_COUNT] = { { UT_PIN_COMPACT, 0, NULL } };
		int n[UT_ROLE_COUNT] = { -1, 0, 0 };
		struct ut_plan p;

		err[0] = '\0';
		tap_ok(ut_plan_build(t, pols, n, &p, err, sizeof(err)) == -1 && strstr(err, "readers"),
		       "negative thread count rejected: %s", err);
	}
	ut_topology_free(t);

	/* Topology specs */
	{
		struct ut_topology *t2 = NULL;
		const char *bad[] = { "synthetic:", "synthetic:pack:2 core:2", "synthetic:pack:x pu:2",
				      "synthetic:bogus:2 pu:1", "synthetic:pu:0" };

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			err[0] = '\0';
			tap_ok(ut_topology_load(bad[i], &t2, err, sizeof(err)) == -1 && !t2 && *err,
			       "'%s' rejected: %s", bad[i], err);
		}
		err[0] = '\0';
		tap_ok(ut_topology_load("/nonexistent/topo.xml", &t2, err, sizeof(err)) == -1 &&
		       strstr(err, "/nonexistent/topo.xml"), "missing XML file: %s", err);
	}
}

static void test_quotes_and_small(void)
{
	const char *forms[] = { "synthetic:\"pack:2 numa:2 core:8 pu:2\"",
				"synthetic:'pack:2 numa:2 core:8 pu:2'",
				"synthetic: pack:2 numa:2 core:8 pu:2 " };
	struct ut_plan p;

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct ut_topology *t = load(forms[i]);

		tap_ok(t && t->npu == 64 && t->nnode == 4, "quoting accepted: %s", forms[i]);
		ut_topology_free(t);
	}

	/* One package, no SMT, one node. */
	{
		struct ut_topology *t = load("synthetic:pack:1 core:4 pu:1");
		char buf[128];

		tap_ok(t && t->npkg == 1 && t->nnode == 1 && t->ncore == 4 && t->npu == 4 && t->smt_max == 1,
		       "pack:1 core:4 pu:1: 1 package, 1 node, 4 cores, 4 PUs");
		if (!t)
			return;
		ut_topology_summary(t, buf, sizeof(buf));
		tap_ok(!strncmp(buf, "1 package, 1 NUMA node, 4 cores, 4 PUs", 38), "singular summary: %s",
		       buf);
		tap_ok(!plan(t, "scatter", 4, NULL, 0, NULL, 0, &p) &&
		       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 1, 2, 3 }, 4),
		       "no SMT: scatter 4 takes each core in order");
		ut_plan_free(&p);
		tap_ok(!plan(t, "scatter", 6, NULL, 0, NULL, 0, &p) && p.cpu[0][4] == 0 && p.cpu[0][5] == 1,
		       "no SMT: scatter 6 wraps around (5th on CPU 0)");
		ut_plan_free(&p);
		tap_ok(!plan(t, "numa", 3, "compact", 2, NULL, 0, &p) &&
		       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 1, 2 }, 3) &&
		       cpus_are(&p, UT_ROLE_UPDATER, (int[]){ 3, 0 }, 2),
		       "one node: numa uses distinct cores; updaters take the free CPU 3 then share 0");
		ut_plan_free(&p);
		ut_topology_free(t);
	}

	/* NUMA attached with [numa] and caches in between. */
	{
		struct ut_topology *t = load("synthetic:pack:2 [numa] l3:2 core:2 pu:2");

		tap_ok(t && t->npkg == 2 && t->nnode == 2 && t->ncore == 8 && t->npu == 16,
		       "pack:2 [numa] l3:2 core:2 pu:2: 2 packages, 2 nodes, 8 cores, 16 PUs");
		if (t && !plan(t, "scatter", 3, NULL, 0, NULL, 0, &p)) {
			tap_ok(cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 8, 2 }, 3),
			       "scatter on it: 0, 8, 2");
			ut_plan_free(&p);
		} else {
			tap_ok(0, "scatter on pack:2 [numa] ...");
		}
		ut_topology_free(t);
	}
}

/* The built-in parser must agree with whichever loader synthetic: uses. */
static void test_builtin_parser(void)
{
	const char *descs[] = { "pack:2 numa:2 core:8 pu:2", "pack:1 core:4 pu:1", "core:3 pu:2",
				"pack:2 [numa] core:2 pu:2", "numa:2 pack:2 core:2 pu:1",
				"pack:2 l3:2 l2:2 core:1 pu:2", "pu:5" };

	for (size_t i = 0; i < sizeof(descs) / sizeof(descs[0]); i++) {
		struct ut_topology *a = NULL, *b = NULL;
		char spec[128], err[256] = "";
		int same;

		snprintf(spec, sizeof(spec), "synthetic:%s", descs[i]);
		if (ut_topo_load_synthetic_builtin(descs[i], &a, err, sizeof(err)))
			tap_diag("builtin '%s': %s", descs[i], err);
		b = load(spec);
		same = a && b && a->npu == b->npu && a->npkg == b->npkg && a->nnode == b->nnode &&
		       a->ncore == b->ncore && a->smt_max == b->smt_max;
		for (int k = 0; same && k < a->npu; k++)
			same = !memcmp(&a->pu[k], &b->pu[k], sizeof(a->pu[k]));
		for (int k = 0; same && k < a->nnode; k++)
			same = a->node_os[k] == b->node_os[k];
		tap_ok(same, "built-in parser matches the %s loader on '%s'", b ? b->loader : "?", descs[i]);
		ut_topology_free(a);
		ut_topology_free(b);
	}
}

static void test_xml(void)
{
	char dir[] = "/tmp/ut-placement-XXXXXX", path[128], cmd[512];
	struct ut_topology *t = NULL;
	char err[256] = "";
	struct ut_plan p;
	int rc;

	if (!mkdtemp(dir)) {
		tap_skip("XML: cannot create a temporary directory");
		return;
	}
	snprintf(path, sizeof(path), "%s/topo.xml", dir);
	snprintf(cmd, sizeof(cmd),
		 "lstopo-no-graphics -i 'pack:2 numa:2 core:2 pu:2' --of xml '%s' >/dev/null 2>&1",
		 path);
	if (system(cmd) != 0 || access(path, R_OK)) {
		tap_skip("XML: lstopo-no-graphics unavailable");
		rmdir(dir);
		return;
	}
	rc = ut_topology_load(path, &t, err, sizeof(err));
#ifdef UT_HAVE_HWLOC
	tap_ok(!rc && t && t->npkg == 2 && t->nnode == 4 && t->ncore == 8 && t->npu == 16 &&
	       !ut_topology_is_local(t), "XML written by lstopo: 2 packages, 4 nodes, 8 cores, 16 PUs %s",
	       err);
	tap_ok(t && !plan(t, "scatter", 4, NULL, 0, NULL, 0, &p) &&
	       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 8, 4, 12 }, 4), "scatter 4 on the XML topology");
	ut_plan_free(&p);
	ut_topology_free(t);

	/* This machine as XML: same PUs as the local topology. */
	snprintf(cmd, sizeof(cmd), "lstopo-no-graphics -f --of xml '%s' >/dev/null 2>&1", path);
	if (system(cmd) == 0) {
		struct ut_topology *local = load(NULL);

		t = load(path);
		tap_ok(t && local && t->npu == local->npu && t->nnode == local->nnode,
		       "XML of this machine has its %d PUs", local ? local->npu : -1);
		ut_topology_free(t);
		ut_topology_free(local);
	} else {
		tap_skip("XML of this machine: lstopo failed");
	}
	/* Garbage is refused with a message. */
	{
		FILE *f = fopen(path, "w");

		if (f) {
			fputs("not xml at all\n", f);
			fclose(f);
		}
		t = NULL;
		err[0] = '\0';
		tap_ok(ut_topology_load(path, &t, err, sizeof(err)) == -1 && !t && strstr(err, path),
		       "non-XML file rejected: %s", err);
	}
#else
	(void)p;
	tap_ok(rc == -1 && !t && strstr(err, "hwloc"), "XML without hwloc: clear error (%s)", err);
#endif
	unlink(path);
	rmdir(dir);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A fake sysfs tree for a machine we do not have: 2 packages x 2 cores x 2
 * threads, Intel-style numbering (siblings are N and N+4), node per package. */
static void test_sysfs_tree(void)
{
	char root[] = "/tmp/ut-sysfs-XXXXXX", cmd[128];
	struct ut_topology *t = NULL;
	char err[256] = "";
	struct ut_plan p;

	if (!mkdtemp(root)) {
		tap_skip("sysfs tree: cannot create a temporary directory");
		return;
	}
	put(root, "devices/system/cpu/online", "0-7\n");
	for (int c = 0; c < 8; c++) {
		char rel[128], val[16];
		int pkg = (c % 4) / 2, core = c % 2;

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id", c);
		snprintf(val, sizeof(val), "%d\n", pkg);
		put(root, rel, val);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/core_id", c);
		snprintf(val, sizeof(val), "%d\n", core);
		put(root, rel, val);
	}
	put(root, "devices/system/node/node0/cpulist", "0-1,4-5\n");
	put(root, "devices/system/node/node1/cpulist", "2-3,6-7\n");
	if (ut_topo_load_sysfs(root, &t, err, sizeof(err)))
		tap_diag("sysfs tree: %s", err);
	tap_ok(t && t->npkg == 2 && t->nnode == 2 && t->ncore == 4 && t->npu == 8 && t->smt_max == 2 &&
	       !ut_topology_is_local(t), "fake sysfs: 2 packages, 2 nodes, 4 cores, 8 PUs");
	tap_ok(t && t->pu[0].os == 0 && t->pu[1].os == 4 && t->pu[2].os == 1 && t->pu[3].os == 5 &&
	       t->pu[4].os == 2, "fake sysfs: SMT siblings 0/4 ordered together, package 1 after");
	tap_ok(t && !plan(t, "compact", 2, "scatter", 2, NULL, 0, &p) &&
	       cpus_are(&p, UT_ROLE_READER, (int[]){ 0, 4 }, 2) &&
	       cpus_are(&p, UT_ROLE_UPDATER, (int[]){ 2, 1 }, 2) && p.node[1][0] == 1,
	       "fake sysfs: compact 0,4 (one core); scatter 2 (package 1, node 1) then 1");
	ut_plan_free(&p);
	ut_topology_free(t);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", root);
}

static void test_local(void)
{
	struct ut_topology *t = load(NULL);
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	char buf[256], err[256] = "";
	struct ut_pin_policy pol;
	cpu_set_t saved;

	/* hwloc leaves out CPUs a cpuset forbids; sysconf counts every online CPU. */
	tap_ok(t && ut_topology_is_local(t) && ut_topology_ncpus(t) >= 1 &&
	       ut_topology_ncpus(t) <= online, "this machine: %d PUs, sysconf says %ld online",
	       t ? t->npu : -1, online);
	if (!t)
		return;
	ut_topology_summary(t, buf, sizeof(buf));
	tap_diag("this machine: %s (loader %s, backend %s)", buf, t->loader, ut_placement_backend());
	tap_ok(ut_pin_policy_parse("list:9999", t, &pol, err, sizeof(err)) == -1 &&
	       strstr(err, "CPU 9999 does not exist (this machine has CPUs "),
	       "list:9999 on this machine: %s", err);

	if (sched_getaffinity(0, sizeof(saved), &saved)) {
		tap_skip("cannot read this thread's affinity");
		ut_topology_free(t);
		return;
	}
	for (int cpu = 0; cpu <= 1; cpu++) {
		if (!CPU_ISSET(cpu, &saved) || ut_topo_find(t, cpu) < 0) {
			tap_skip("ut_pin_self(%d): CPU %d not available here", cpu, cpu);
			continue;
		}
		err[0] = '\0';
		tap_ok(!ut_pin_self(cpu, err, sizeof(err)) && sched_getcpu() == cpu &&
		       ut_current_cpu() == cpu, "ut_pin_self(%d): now running on CPU %d %s", cpu,
		       sched_getcpu(), err);
	}
	err[0] = '\0';
	tap_ok(ut_pin_self(CPU_SETSIZE - 1, err, sizeof(err)) == -1 && strstr(err, "CPU"),
	       "binding to a CPU that does not exist fails: %s", err);
	err[0] = '\0';
	tap_ok(ut_pin_self(-3, err, sizeof(err)) == -1 && *err, "ut_pin_self(-3) fails: %s", err);
	sched_setaffinity(0, sizeof(saved), &saved);
	ut_topology_free(t);
}

static void test_alloc(void)
{
	unsigned char *a = ut_alloc_local(1000, 0);
	unsigned char *b = ut_alloc_local(24, -1);
	int zero = 1;

	tap_ok(a && b && ((uintptr_t)a % 64) == 0 && ((uintptr_t)b % 64) == 0,
	       "ut_alloc_local: cache-line aligned blocks");
	for (int i = 0; a && i < 1000; i++)
		zero &= a[i] == 0;
	for (int i = 0; b && i < 24; i++)
		zero &= b[i] == 0;
	tap_ok(a && b && zero, "ut_alloc_local: zero-filled");
	if (a)
		memset(a, 0xa5, 1000);
#ifdef UT_HAVE_NUMA
	if (numa_available() >= 0 && a) {
		int node = -1;

		/* Which node backs the page we just touched? */
		if (get_mempolicy(&node, NULL, 0, a, MPOL_F_NODE | MPOL_F_ADDR) == 0)
			tap_ok(node == 0, "ut_alloc_local(.., 0): page on node %d", node);
		else
			tap_skip("get_mempolicy: %s", strerror(errno));
	} else {
		tap_skip("libnuma: NUMA not available on this kernel");
	}
#else
	tap_skip("node placement check needs libnuma");
#endif
	ut_free_local(a, 1000);
	ut_free_local(b, 24);
	ut_free_local(NULL, 0);
}

static void test_backend(void)
{
	const char *b = ut_placement_backend();

#if defined(UT_HAVE_HWLOC) && defined(UT_HAVE_NUMA)
	tap_ok(!strcmp(b, "hwloc+libnuma"), "backend %s", b);
#elif defined(UT_HAVE_HWLOC)
	tap_ok(!strcmp(b, "hwloc"), "backend %s", b);
#elif defined(UT_HAVE_NUMA)
	tap_ok(!strcmp(b, "libnuma"), "backend %s", b);
#else
	tap_ok(!strcmp(b, "sched_setaffinity"), "backend %s", b);
#endif
}

int main(void)
{
	test_backend();
	test_big_topology();
	test_parse_errors();
	test_quotes_and_small();
	test_builtin_parser();
	test_xml();
	test_sysfs_tree();
	test_local();
	test_alloc();
	return tap_done();
}
