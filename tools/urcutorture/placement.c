/* SPDX-License-Identifier: MIT */
/*
 * Placement: parsing --pin policies, building the per-thread CPU plan on a
 * topology, printing it, binding threads and node-local allocation.
 *
 * How the plan is built (semantics in placement.h).  Roles are planned in
 * order; an occupancy table counts threads per PU and per core over all
 * roles, and per package / node / core for the role being planned.  Each
 * pinned thread takes a PU among the least-occupied PUs (so free PUs are
 * used before any PU is shared, and a later role avoids earlier ones), and
 * among those the policy chooses:
 *   compact  the first in topology order;
 *   scatter  the one minimising (threads on its core, this role's threads
 *            on its package, this role's threads on its node, all threads
 *            on its package, all threads on its node, order): a core with
 *            a thread is used only when no idle core remains, the role's
 *            threads take turns over packages then nodes, and ties go to
 *            the package / node least used by earlier roles;
 *   numa     the next node in round-robin order that still has a
 *            candidate, and inside it the least-occupied core, in order.
 * Everything is deterministic; nothing here binds or allocates on nodes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef UT_HAVE_NUMA
#include <numa.h>
#endif

#include "json.h"
#include "topology.h"

static const char *const role_names[UT_ROLE_COUNT] = { "reader", "updater", "worker" };
static const char *const role_plural[UT_ROLE_COUNT] = { "readers", "updaters", "workers" };
static const char role_letter[UT_ROLE_COUNT] = { 'R', 'U', 'W' };

const char *ut_role_name(enum ut_role r)
{
	return (unsigned)r < UT_ROLE_COUNT ? role_names[r] : "?";
}

/* ---- policies ---- */

static void cpus_of(const struct ut_topology *t, char *buf, size_t len)
{
	char list[256];

	ut_topology_cpulist(t, list, sizeof(list));
	snprintf(buf, len, "%s has CPUs %s", ut_topology_is_local(t) ? "this machine" : "the topology",
		 list);
}

int ut_pin_policy_parse(const char *text, const struct ut_topology *t,
			struct ut_pin_policy *out, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		enum ut_pin_kind kind;
	} kinds[] = {
		{ "none", UT_PIN_NONE }, { "compact", UT_PIN_COMPACT },
		{ "scatter", UT_PIN_SCATTER }, { "numa", UT_PIN_NUMA },
	};
	const char *list;
	int *cpus, n;

	memset(out, 0, sizeof(*out));
	if (!text)
		text = "none";
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcasecmp(text, kinds[i].name)) {
			out->kind = kinds[i].kind;
			return 0;
		}
	if (!strncasecmp(text, "list:", 5))
		list = text + 5;
	else if (isdigit((unsigned char)text[0]))
		list = text;	/* a bare CPU list means list:<it> */
	else {
		ut_set_err(err, errlen, "unknown pin policy '%s' (expected none, compact, scatter, numa "
			   "or list:CPUS such as list:0,2-3)", text);
		return -1;
	}
	if (!*list) {
		ut_set_err(err, errlen, "empty CPU list in '%s' (example: list:0,2-3)", text);
		return -1;
	}
	if (ut_cpulist_parse(list, &cpus, &n) || !n) {
		ut_set_err(err, errlen, "'%s' is not a CPU list (example: list:0,2-3)", list);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (ut_topo_find(t, cpus[i]) < 0) {
			char have[300];

			cpus_of(t, have, sizeof(have));
			ut_set_err(err, errlen, "CPU %d does not exist (%s)", cpus[i], have);
			free(cpus);
			return -1;
		}
	out->kind = UT_PIN_LIST;
	out->cpus = cpus;
	out->ncpus = n;
	return 0;
}

void ut_pin_policy_free(struct ut_pin_policy *pol)
{
	if (!pol)
		return;
	free(pol->cpus);
	memset(pol, 0, sizeof(*pol));
}

void ut_pin_policy_format(const struct ut_pin_policy *pol, char *buf, size_t len)
{
	static const char *const names[] = { "none", "compact", "scatter", "numa", "list" };
	size_t off;

	if (pol->kind != UT_PIN_LIST) {
		snprintf(buf, len, "%s", (unsigned)pol->kind < 5 ? names[pol->kind] : "?");
		return;
	}
	/* Lists keep their written order, which is the order threads take them. */
	snprintf(buf, len, "list:");
	off = strlen(buf);
	for (int i = 0; i < pol->ncpus && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%d", i ? "," : "", pol->cpus[i]);

		if (w < 0)
			break;
		off += (size_t)w;
	}
}

/* ---- the plan ---- */

/* Threads per PU, core, package and NUMA node of a topology. */
struct load {
	int *pu, *core, *pkg, *node;
};

/* Tables for topology t, zeroed; -1 when out of memory (release anyway). */
static int load_init(struct load *l, const struct ut_topology *t)
{
	l->pu = calloc(t->npu, sizeof(int));
	l->core = calloc(t->ncore, sizeof(int));
	l->pkg = calloc(t->npkg, sizeof(int));
	l->node = calloc(t->nnode, sizeof(int));
	return l->pu && l->core && l->pkg && l->node ? 0 : -1;
}

static void load_release(struct load *l)
{
	free(l->pu);
	free(l->core);
	free(l->pkg);
	free(l->node);
}

/* One more thread on PU idx. */
static void load_add(struct load *l, const struct ut_topology *t, int idx)
{
	l->pu[idx]++;
	l->core[t->pu[idx].core]++;
	l->pkg[t->pu[idx].pkg]++;
	l->node[t->pu[idx].node]++;
}

struct occupancy {
	struct load all;	/* threads of all roles so far */
	int *role_pkg;		/* threads of the current role per package */
	int *role_node;		/* ... per NUMA node */
	int next_node;		/* numa policy: round-robin cursor */
};

/* Lexicographic comparison of two score vectors of length n. */
static int score_less(const long *a, const long *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i];
	return 0;
}

/* The PU index for the next thread under kind, or -1. */
static int pick(const struct ut_topology *t, enum ut_pin_kind kind, struct occupancy *o)
{
	int minload = -1, best = -1;
	long best_score[6] = { 0 };

	for (int i = 0; i < t->npu; i++)
		if (minload < 0 || o->all.pu[i] < minload)
			minload = o->all.pu[i];

	if (kind == UT_PIN_NUMA) {
		/* First node at or after the cursor that has a least-occupied PU. */
		int node = -1;

		for (int step = 0; step < t->nnode && node < 0; step++) {
			int nd = (o->next_node + step) % t->nnode;

			for (int i = 0; i < t->npu; i++)
				if (t->pu[i].node == nd && o->all.pu[i] == minload) {
					node = nd;
					break;
				}
		}
		o->next_node = (node + 1) % t->nnode;
		for (int i = 0; i < t->npu; i++) {
			long s[2] = { o->all.core[t->pu[i].core], i };

			if (t->pu[i].node != node || o->all.pu[i] != minload)
				continue;
			if (best < 0 || score_less(s, best_score, 2)) {
				best = i;
				memcpy(best_score, s, sizeof(s));
			}
		}
		return best;
	}

	for (int i = 0; i < t->npu; i++) {
		long s[6];

		if (o->all.pu[i] != minload)
			continue;
		if (kind == UT_PIN_COMPACT)
			return i;
		s[0] = o->all.core[t->pu[i].core];
		s[1] = o->role_pkg[t->pu[i].pkg];
		s[2] = o->role_node[t->pu[i].node];
		s[3] = o->all.pkg[t->pu[i].pkg];
		s[4] = o->all.node[t->pu[i].node];
		s[5] = i;
		if (best < 0 || score_less(s, best_score, 6)) {
			best = i;
			memcpy(best_score, s, sizeof(s));
		}
	}
	return best;
}

/* The PU index for thread k of role r under p (-1: unpinned); -1 returned: err set. */
static int place_thread(const struct ut_topology *t, const struct ut_pin_policy *p, enum ut_role r,
			int k, struct occupancy *o, int *idx, char *err, size_t errlen)
{
	switch (p->kind) {
	case UT_PIN_NONE:
		*idx = -1;
		return 0;
	case UT_PIN_LIST:
		*idx = ut_topo_find(t, p->cpus[k % p->ncpus]);
		if (*idx < 0) {
			char have[300];

			cpus_of(t, have, sizeof(have));
			ut_set_err(err, errlen, "CPU %d does not exist (%s)", p->cpus[k % p->ncpus],
				   have);
			return -1;
		}
		return 0;
	case UT_PIN_COMPACT:
	case UT_PIN_SCATTER:
	case UT_PIN_NUMA:
		*idx = pick(t, p->kind, o);
		return 0;
	default:
		ut_set_err(err, errlen, "unknown pin policy kind %d for the %s", (int)p->kind,
			   role_plural[r]);
		return -1;
	}
}

/* Role r's n threads under p, into out; 1: the role's fault (err set), -1: out of memory. */
static int plan_role(const struct ut_topology *t, const struct ut_pin_policy *p, enum ut_role r,
		     int n, struct ut_plan *out, struct occupancy *o, char *err, size_t errlen)
{
	if (n < 0) {
		ut_set_err(err, errlen, "negative number of %s (%d)", role_plural[r], n);
		return 1;
	}
	out->n[r] = n;
	out->cpu[r] = calloc(n ? n : 1, sizeof(int));
	out->node[r] = calloc(n ? n : 1, sizeof(int));
	if (!out->cpu[r] || !out->node[r])
		return -1;
	if (p->kind == UT_PIN_LIST && p->ncpus <= 0) {
		ut_set_err(err, errlen, "empty CPU list for the %s", role_plural[r]);
		return 1;
	}
	memset(o->role_pkg, 0, t->npkg * sizeof(int));
	memset(o->role_node, 0, t->nnode * sizeof(int));
	o->next_node = 0;
	for (int k = 0; k < n; k++) {
		int idx;

		if (place_thread(t, p, r, k, o, &idx, err, errlen))
			return 1;
		if (idx < 0) {
			out->cpu[r][k] = -1;
			out->node[r][k] = -1;
			continue;
		}
		out->cpu[r][k] = t->pu[idx].os;
		out->node[r][k] = t->node_os[t->pu[idx].node];
		load_add(&o->all, t, idx);
		o->role_pkg[t->pu[idx].pkg]++;
		o->role_node[t->pu[idx].node]++;
	}
	return 0;
}

int ut_plan_build(const struct ut_topology *t, const struct ut_pin_policy pol[UT_ROLE_COUNT],
		  const int n[UT_ROLE_COUNT], struct ut_plan *out, char *err, size_t errlen)
{
	struct occupancy o = { 0 };
	enum ut_role bad = UT_ROLE_COUNT;
	int rc;

	memset(out, 0, sizeof(*out));
	out->failed = UT_ROLE_COUNT;
	if (!t) {
		ut_set_err(err, errlen, "no topology to plan on");
		return -1;
	}
	o.role_pkg = calloc(t->npkg, sizeof(int));
	o.role_node = calloc(t->nnode, sizeof(int));
	rc = load_init(&o.all, t) || !o.role_pkg || !o.role_node ? -1 : 0;
	for (int r = 0; !rc && r < UT_ROLE_COUNT; r++) {
		rc = plan_role(t, &pol[r], (enum ut_role)r, n[r], out, &o, err, errlen);
		if (rc > 0)
			bad = (enum ut_role)r;
	}
	if (rc < 0)
		ut_set_err(err, errlen, "out of memory building the placement plan");
	if (rc) {
		ut_plan_free(out);
		out->failed = bad;
	}
	load_release(&o.all);
	free(o.role_pkg);
	free(o.role_node);
	return rc ? -1 : 0;
}

void ut_plan_free(struct ut_plan *p)
{
	if (!p)
		return;
	for (int r = 0; r < UT_ROLE_COUNT; r++) {
		free(p->cpu[r]);
		free(p->node[r]);
		free(p->label[r]);
	}
	memset(p, 0, sizeof(*p));
	p->failed = UT_ROLE_COUNT;
}

/* Earlier thread (in plan order) on the same CPU as role r thread k, if any. */
static int earlier_on_cpu(const struct ut_plan *p, int r, int k, int *er, int *ek)
{
	int cpu = p->cpu[r][k];

	for (int rr = 0; rr <= r; rr++)
		for (int kk = 0; kk < (rr == r ? k : p->n[rr]); kk++)
			if (p->cpu[rr][kk] == cpu) {
				*er = rr;
				*ek = kk;
				return 1;
			}
	return 0;
}

/* What ut_plan_print counts while it lists the threads. */
struct plan_tally {
	int pinned, unpinned;
	int shared, cross_role;		/* threads on a CPU an earlier one has; of another role */
	int pus_used, cores_used;
	bool counted;			/* threads has its tables */
	struct load threads;		/* threads per PU, core, package and node */
};

/* One thread's line: its CPU, where that is in the topology, whom it shares it with. */
static void print_thread(const struct ut_plan *p, const struct ut_topology *t, int r, int k,
			 struct plan_tally *y, FILE *out)
{
	int cpu = p->cpu[r][k];
	int idx = t ? ut_topo_find(t, cpu) : -1;
	int er, ek;
	char who[48];

	/* The run's name for the thread when the plan has it, as the report names it. */
	if (p->label[r])
		snprintf(who, sizeof(who), "%-16s", p->label[r][k]);
	else
		snprintf(who, sizeof(who), "%-7s %3d", role_names[r], k);
	if (cpu < 0) {
		fprintf(out, "  %s -> unpinned\n", who);
		y->unpinned++;
		return;
	}
	y->pinned++;
	fprintf(out, "  %s -> CPU %-4d", who, cpu);
	if (idx >= 0) {
		const struct ut_pu *pu = &t->pu[idx];

		fprintf(out, " (package %d, node %d, core %d, pu %d)", pu->pkg,
			t->node_os[pu->node], pu->core, pu->smt);
		if (y->counted) {
			y->pus_used += !y->threads.pu[idx];
			y->cores_used += !y->threads.core[pu->core];
			load_add(&y->threads, t, idx);
		}
	} else {
		fprintf(out, " (not in the topology)");
	}
	if (earlier_on_cpu(p, r, k, &er, &ek) && p->label[er]) {
		fprintf(out, "  shares the CPU with %s", p->label[er][ek]);
		y->shared++;
		if (er != r)
			y->cross_role++;
	} else if (earlier_on_cpu(p, r, k, &er, &ek)) {
		fprintf(out, "  shares the CPU with %s %d", role_names[er], ek);
		y->shared++;
		if (er != r)
			y->cross_role++;
	}
	fputc('\n', out);
}

/* One core's line of the occupancy table: each of its CPUs and the threads on it. */
static void print_core(const struct ut_plan *p, const struct ut_topology *t, int c, FILE *out)
{
	int first = -1;

	for (int i = 0; i < t->npu; i++)
		if (t->pu[i].core == c) {
			first = i;
			break;
		}
	fprintf(out, "    core %-3d (package %d, node %d):", c, t->pu[first].pkg,
		t->node_os[t->pu[first].node]);
	for (int i = first; i < t->npu; i++) {
		int nth = 0;

		if (t->pu[i].core != c)
			continue;
		fprintf(out, "  CPU %d=", t->pu[i].os);
		for (int r = 0; r < UT_ROLE_COUNT; r++)
			for (int k = 0; k < p->n[r]; k++)
				if (p->cpu[r][k] == t->pu[i].os)
					fprintf(out, "%s%c%d", nth++ ? "+" : "", role_letter[r], k);
		if (!nth)
			fputc('-', out);
	}
	fputc('\n', out);
}

/* The occupancy table of the cores with threads, then threads per package and node. */
static void print_occupancy(const struct ut_plan *p, const struct ut_topology *t,
			    const struct plan_tally *y, FILE *out)
{
	fprintf(out, "  per-core occupancy (cores with threads; R reader, U updater, W worker, - idle):\n");
	for (int c = 0; c < t->ncore; c++)
		if (y->threads.core[c])
			print_core(p, t, c, out);
	fprintf(out, "  threads per package:");
	for (int i = 0; i < t->npkg; i++)
		fprintf(out, " %d", y->threads.pkg[i]);
	fprintf(out, "; per NUMA node:");
	for (int i = 0; i < t->nnode; i++)
		fprintf(out, " %d", y->threads.node[i]);
	fputc('\n', out);
}

/* The closing lines: how many threads are pinned, whether any share a CPU. */
static void print_plan_summary(const struct ut_topology *t, const struct plan_tally *y, FILE *out)
{
	fprintf(out, "  %d threads pinned, %d unpinned", y->pinned, y->unpinned);
	if (t && y->pinned)
		fprintf(out, "; %d of %d PUs and %d of %d cores used", y->pus_used, t->npu,
			y->cores_used, t->ncore);
	fputc('\n', out);
	if (y->shared)
		fprintf(out, "  %d thread%s share%s a CPU with an earlier thread%s: not enough free PUs\n",
			y->shared, y->shared == 1 ? "" : "s", y->shared == 1 ? "s" : "",
			y->cross_role ? " (including other roles)" : "");
	else if (y->pinned)
		fprintf(out, "  no CPU is shared: later roles avoided the PUs of earlier roles\n");
	if (t && !ut_topology_is_local(t))
		fprintf(out, "  dry run only: this topology is not this machine, nothing is bound\n");
}

void ut_plan_print(const struct ut_plan *p, const struct ut_topology *t, FILE *out)
{
	struct plan_tally y = { 0 };

	if (t)
		y.counted = !load_init(&y.threads, t);
	for (int r = 0; r < UT_ROLE_COUNT; r++)
		for (int k = 0; k < p->n[r]; k++)
			print_thread(p, t, r, k, &y, out);
	if (y.counted && y.pinned)
		print_occupancy(p, t, &y, out);
	print_plan_summary(t, &y, out);
	load_release(&y.threads);
}

void ut_plan_json(const struct ut_plan *p, FILE *out)
{
	struct uj j;

	uj_init_compact(&j, out);
	if (!p) {
		uj_null(&j, NULL);
		return;
	}
	uj_obj(&j, NULL);
	for (int r = 0; r < UT_ROLE_COUNT; r++) {
		uj_arr(&j, role_plural[r]);
		for (int k = 0; k < p->n[r]; k++) {
			uj_obj(&j, NULL);
			uj_i64(&j, "cpu", p->cpu[r][k]);
			uj_i64(&j, "node", p->node[r] ? p->node[r][k] : -1);
			uj_end_obj(&j);
		}
		uj_end_arr(&j);
	}
	uj_end_obj(&j);
}

/* ---- binding ---- */

int ut_current_cpu(void)
{
	int c = sched_getcpu();

	return c < 0 ? -1 : c;
}

static int sched_bind_self(int cpu, char *err, size_t errlen)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		ut_set_err(err, errlen, "cannot bind to CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

int ut_pin_self(int cpu, char *err, size_t errlen)
{
	cpu_set_t got;
	int now = -1;

	if (cpu < 0 || cpu >= CPU_SETSIZE) {
		ut_set_err(err, errlen, "cannot bind to CPU %d: not a valid CPU number", cpu);
		return -1;
	}
#ifdef UT_HAVE_HWLOC
	{
		int rc = ut_topo_hwloc_bind_self(cpu, err, errlen);

		/* rc 1: hwloc unusable here (not a bind failure): plain affinity. */
		if (rc > 0)
			rc = sched_bind_self(cpu, err, errlen);
		if (rc)
			return -1;
	}
#else
	if (sched_bind_self(cpu, err, errlen))
		return -1;
#endif
	/* Verify independently of how we bound: the kernel's view of the mask... */
	if (sched_getaffinity(0, sizeof(got), &got)) {
		ut_set_err(err, errlen, "bound to CPU %d but cannot read the affinity back: %s", cpu,
			   strerror(errno));
		return -1;
	}
	if (CPU_COUNT(&got) != 1 || !CPU_ISSET(cpu, &got)) {
		ut_set_err(err, errlen, "asked for CPU %d, the affinity mask reads back with %d CPUs",
			   cpu, CPU_COUNT(&got));
		return -1;
	}
	/* ...and where the thread actually runs once the scheduler had a say. */
	for (int tries = 0; tries < 3; tries++) {
		sched_yield();
		now = sched_getcpu();
		if (now == cpu)
			return 0;
	}
	ut_set_err(err, errlen, "bound to CPU %d but running on CPU %d", cpu, now);
	return -1;
}

/* ---- node-local memory ---- */

/*
 * Every block starts with a cache-line header saying how it was obtained,
 * so ut_free_local() releases it the same way; callers see the memory
 * after the header, still cache-line aligned.
 */
#define UT_LOCAL_HDR 64
#define UT_LOCAL_MAGIC 0x75746c6fU

struct local_hdr {
	uint32_t magic;
	uint32_t numa;		/* 1: numa_alloc_onnode, 0: aligned_alloc */
	size_t total;
};

_Static_assert(sizeof(struct local_hdr) <= UT_LOCAL_HDR, "local allocation header too big");

void *ut_alloc_local(size_t size, int node)
{
	size_t total = size + UT_LOCAL_HDR;
	struct local_hdr *h = NULL;
	int numa = 0;

	if (total < size)
		return NULL;
#ifdef UT_HAVE_NUMA
	if (node >= 0 && numa_available() >= 0 && node <= numa_max_node()) {
		/* mmap-backed, hence zeroed; pages come from `node` when first touched. */
		h = numa_alloc_onnode(total, node);
		numa = h != NULL;
	}
#else
	(void)node;
#endif
	if (!h) {
		total = (total + UT_LOCAL_HDR - 1) / UT_LOCAL_HDR * UT_LOCAL_HDR;
		h = aligned_alloc(UT_LOCAL_HDR, total);
		if (!h)
			return NULL;
		memset(h, 0, total);
	}
	h->magic = UT_LOCAL_MAGIC;
	h->numa = (uint32_t)numa;
	h->total = total;
	return (char *)h + UT_LOCAL_HDR;
}

void ut_free_local(void *p, size_t size)
{
	struct local_hdr *h;

	(void)size;
	if (!p)
		return;
	h = (struct local_hdr *)((char *)p - UT_LOCAL_HDR);
	if (h->magic != UT_LOCAL_MAGIC) {
		fprintf(stderr, "urcutorture: ut_free_local: %p was not allocated by ut_alloc_local\n",
			p);
		return;
	}
	h->magic = 0;
#ifdef UT_HAVE_NUMA
	if (h->numa) {
		numa_free(h, h->total);
		return;
	}
#endif
	free(h);
}

const char *ut_placement_backend(void)
{
#if defined(UT_HAVE_HWLOC) && defined(UT_HAVE_NUMA)
	return "hwloc+libnuma";
#elif defined(UT_HAVE_HWLOC)
	return "hwloc";
#elif defined(UT_HAVE_NUMA)
	return "libnuma";
#else
	return "sched_setaffinity";
#endif
}
