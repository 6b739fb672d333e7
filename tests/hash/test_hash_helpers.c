// SPDX-License-Identifier: MIT
/*
 * Large resizes split across helper threads (rculfhash-helpers.c): every key stays findable during and after grows
 * and shrinks whose passes run in parts on several threads, with lookups,
 * updates and grace periods running concurrently; and the helpers really
 * ran, or, when they could not be started, the resizing thread did their
 * parts itself.
 *
 * The observable: the program defines pthread_create(), which the library
 * reaches through its PLT, so this definition interposes on it (the real
 * one through dlsym(RTLD_NEXT)).  It counts the threads that the main
 * thread creates inside cds_lfht_resize() (only helpers: an explicit
 * resize of a table without AUTO_RESIZE starts no other thread) and those
 * that threads other than the test's create (the background thread's
 * helpers), counts those of them that ran to their end, and, when told,
 * fails a creation with EAGAIN (the library must then do the part
 * inline).
 *
 * Threads: READERS readers look up stable keys (never deleted) as fast as
 * they can, each must be found, live; an updater adds, finds, deletes and
 * no longer finds keys of its own, and reclaims with call_rcu (so grace
 * periods run during the passes: with the signal flavor, a helper that
 * blocked SIGRCU would stall them and deadlock its own unregistration);
 * the main thread resizes a table without AUTO_RESIZE:
 *   auto:     2^10 -> 2^16 -> 2^10 buckets (work >= 2^13: split where the main
 *             thread may run on 2 CPUs or more), twice; after each resize
 *             every stable key is found and a traversal counts the nodes;
 *   fail:     the same with every helper creation failing (all inline),
 *             then with every second one failing (helpers and inline parts
 *             in one pass);
 *   worker:   an AUTO_RESIZE table filled with 2^15 nodes grows on the
 *             background thread (its helpers are counted too).
 * --forced=N: run under URCU_LFHT_RESIZE_THREADS=N (meson sets it): every
 * pass uses N parts, also between 4 and 2^10 buckets.  N = 3 (test
 * hash-helpers-forced-*): split base 32 (a grow from 4 links buckets 4..31
 * alone first, a shrink to 4 removes those last), uneven parts (32 ranges
 * in 3).  N = 1 (hash-helpers-unsplit-*): no helper may start, and the
 * unsplit pass's base of 8 lanes is used the same way.  2^10 stable keys.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "hash-test.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

enum {
	READERS = 2,
	STABLE = 1 << 14,	/* keys 0 .. nstable-1, never deleted (--forced: 2^10) */
	CHURN = 256,		/* updater's keys: STABLE .. STABLE+CHURN-1 */
	CYCLES = 2,
};

/* ---- pthread_create, observed -------------------------------------------------- */

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static __thread int in_resize;		/* main thread: inside cds_lfht_resize */
static __thread int test_thread;	/* one of this test's threads */
static long resize_created, other_created, helpers_done, create_failed;
static int fail_mode;			/* 0 none, 1 every creation, 2 every second */
static long create_seq;

struct tramp {
	void *(*start)(void *);
	void *arg;
};

static void *trampoline(void *p)
{
	struct tramp t = *(struct tramp *) p;
	void *ret;

	free(p);
	ret = t.start(t.arg);
	uatomic_inc(&helpers_done);
	return ret;
}

int pthread_create(pthread_t *tid, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
	static create_fn real;
	struct tramp *t;
	int helper = in_resize || !test_thread, err;

	if (!real)
		real = (create_fn) dlsym(RTLD_NEXT, "pthread_create");
	if (!helper)
		return real(tid, attr, start, arg);
	if (in_resize && fail_mode && (fail_mode == 1 || (uatomic_add_return(&create_seq, 1) & 1) == 0)) {
		uatomic_inc(&create_failed);
		return EAGAIN;
	}
	t = (struct tramp *) malloc(sizeof(*t));
	if (!t)
		return EAGAIN;
	t->start = start;
	t->arg = arg;
	err = real(tid, attr, trampoline, t);
	if (err) {
		free(t);
		return err;
	}
	uatomic_inc(in_resize ? &resize_created : &other_created);
	return 0;
}

/* ---- the table and its users ------------------------------------------------------- */

static struct cds_lfht *ht;
static struct tnode *stable[STABLE];
static unsigned long nstable = STABLE;
static int stop;
static long lookups, missing, updates, update_errors;
static int running;			/* start gate: readers and updater past their first round */

static void *reader(void *arg)
{
	unsigned long long r = 0x9e3779b97f4a7c15ULL * (unsigned long long) ((long) arg + 1);
	unsigned long key;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;
	long done = 0, bad = 0;

	test_thread = 1;
	T_FN(register_thread)();
	while (!uatomic_load(&stop, CMM_RELAXED)) {
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		key = (unsigned long) (r >> 33) % nstable;
		t_lock();
		cds_lfht_lookup(ht, t_hash(key), t_match, &key, &iter);
		n = cds_lfht_iter_get_node(&iter);
		if (!n || !tnode_live(to_tnode(n)))
			bad++;
		t_reader_exit();
		if (!done++)
			t_gate_pass(&running);
	}
	T_FN(unregister_thread)();
	uatomic_add(&lookups, done);
	uatomic_add(&missing, bad);
	return NULL;
}

/* add, find, del, no longer find: one key of the updater's own. */
static void *updater(void *arg caa_unused)
{
	unsigned long key, k = 0, sk;
	struct tnode *t, dup;
	struct cds_lfht_node *got;
	long done = 0, bad = 0;

	test_thread = 1;
	T_FN(register_thread)();
	while (!uatomic_load(&stop, CMM_RELAXED)) {
		key = STABLE + k++ % CHURN;
		t = tnode_new(key);
		t_add(ht, t);
		if (t_lookup(ht, key) != t)
			bad++;
		/* A stable key again: add_unique must find the node there. */
		sk = k * 7919 % nstable;
		cds_lfht_node_init(&dup.node);
		t_lock();
		got = cds_lfht_add_unique(ht, t_hash(sk), t_match, &sk, &dup.node);
		t_reader_exit();
		if (got == &dup.node)
			tap_bail("add_unique added a second node of stable key %lu", sk);
		if (got != &stable[sk]->node)
			bad++;
		if (t_del(ht, t))
			bad++;
		else
			tnode_reclaim(t);
		if (t_lookup(ht, key))
			bad++;
		if (!done++)
			t_gate_pass(&running);
	}
	T_FN(unregister_thread)();
	uatomic_add(&updates, done);
	uatomic_add(&update_errors, bad);
	return NULL;
}

/* After a resize: every stable key found, a traversal sees them all. */
static int table_whole(void)
{
	unsigned long key, count;
	long lost = 0;

	for (key = 0; key < nstable; key++)
		if (t_lookup(ht, key) != stable[key])
			lost++;
	count = t_count(ht, NULL, NULL);
	/*
	 * The traversal is no snapshot: besides the stable keys, it may see
	 * one node of each churn key (a deleted node's key added again lands
	 * behind it).
	 */
	if (lost || count < nstable || count > nstable + CHURN)
		tap_diag("%ld stable keys not found, traversal counted %lu nodes (%lu expected)",
			lost, count, nstable);
	return !lost && count >= nstable && count <= nstable + CHURN;
}

static int resize_check(unsigned long size)
{
	in_resize = 1;
	t_resize(ht, size);
	in_resize = 0;
	return table_whole();
}

/* Grow and shrink CYCLES times between lo and hi buckets; 1 if the table stayed whole. */
static int cycles(unsigned long lo, unsigned long hi)
{
	int c, ok = 1;

	for (c = 0; c < CYCLES; c++) {
		ok &= resize_check(hi);
		ok &= resize_check(lo);
	}
	return ok;
}

/* ---- phases --------------------------------------------------------------------- */

static unsigned long cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 1 : (unsigned long) CPU_COUNT(&set);
}

static void phase_auto(int forced, unsigned long lo, unsigned long hi)
{
	long c0 = resize_created;
	int ok = cycles(lo, hi);

	tap_ok(ok, "%lu <-> %lu buckets, %d times: every key found after each resize", lo, hi,
		CYCLES);
	if (forced > 1)
		tap_ok(resize_created - c0 >= (forced - 1L) * 2 * CYCLES, "forced %d parts: %ld "
			"helpers started by %d resizes (%d each)", forced, resize_created - c0,
			2 * CYCLES, forced - 1);
	else if (forced)
		tap_ok(resize_created == c0, "forced 1 part: %ld helpers started",
			resize_created - c0);
	else if (cpus() >= 2)
		tap_ok(resize_created - c0 >= 2 * CYCLES, "%lu CPUs: %ld helpers started by "
			"%d resizes of >= 2^13 buckets", cpus(), resize_created - c0, 2 * CYCLES);
	else
		tap_skip("one CPU: no helpers expected");
}

static void phase_fail(int forced, unsigned long lo, unsigned long hi)
{
	long c0 = resize_created, f0 = create_failed;
	int ok;

	fail_mode = 1;
	ok = cycles(lo, hi);
	tap_ok(ok, "every helper creation failing: every key found after each resize");
	tap_ok(resize_created == c0 && (create_failed > f0 || cpus() < 2 || forced == 1),
		"%ld creations failed, no helper started: the parts ran inline",
		create_failed - f0);
	fail_mode = 2;
	c0 = resize_created;
	f0 = create_failed;
	ok = cycles(lo, hi);
	fail_mode = 0;
	tap_ok(ok, "every second helper creation failing: every key found after each resize");
	tap_diag("%ld helpers started, %ld creations failed", resize_created - c0,
		create_failed - f0);
}

/* The background thread grows an AUTO_RESIZE table filled by the main thread. */
static void phase_worker(void)
{
	struct cds_lfht *aht = cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_AUTO_RESIZE,
			HT_FLAVOR, NULL);
	struct tnode **nodes = (struct tnode **) calloc(2 * nstable, sizeof(*nodes));
	unsigned long key, lost = 0;
	unsigned long long t0;
	long o0 = other_created;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;

	if (!aht || !nodes)
		tap_bail("cds_lfht_new_flavor or calloc failed");
	for (key = 0; key < 2 * nstable; key++) {
		nodes[key] = tnode_new(key);
		t_add(aht, nodes[key]);
	}
	/*
	 * Wait (2 CPUs or more) for a split pass of the background thread,
	 * however late a loaded machine runs it: up to T_START_LIMIT_MS.
	 */
	t0 = t_now_ns();
	while (cpus() >= 2 && uatomic_read(&other_created) == o0 &&
			t_ms_since(t0) < T_START_LIMIT_MS)
		T_QUIESCENT_SLEEP_MS(5);
	for (key = 0; key < 2 * nstable; key++) {
		t_lock();
		cds_lfht_lookup(aht, t_hash(key), t_match, &key, &iter);
		n = cds_lfht_iter_get_node(&iter);
		t_reader_exit();
		if (n != &nodes[key]->node)
			lost++;
	}
	tap_ok(!lost, "AUTO_RESIZE table of %lu nodes grown by the background thread: "
		"every key found (%lu not)", 2 * nstable, lost);
	tap_ok(cpus() < 2 || other_created > o0, "the background thread started %ld helpers",
		uatomic_read(&other_created) - o0);
	for (key = 0; key < 2 * nstable; key++)
		(void) t_del(aht, nodes[key]);
	t_barrier();
	T_FN(synchronize_rcu)();
	for (key = 0; key < 2 * nstable; key++)
		tnode_kill(nodes[key]);
	free(nodes);
	if (t_destroy(aht, NULL))
		tap_bail("destroy of the AUTO_RESIZE table failed");
}

int main(int argc, char **argv)
{
	int forced = (int) t_arg(argc, argv, "forced", 0);
	unsigned long lo = forced ? 4 : 1UL << 10, hi = forced ? 1UL << 10 : 1UL << 16;
	pthread_t rd[READERS], up;
	unsigned long key;
	long i;

	test_thread = 1;
	if (forced)
		nstable = 1UL << 10;
	if (forced)
		tap_diag("flavor %s, URCU_LFHT_RESIZE_THREADS=%d, %lu CPUs", T_FLAVOR, forced,
			cpus());
	else
		tap_diag("flavor %s, automatic split, %lu CPUs", T_FLAVOR, cpus());
	T_FN(register_thread)();
	ht = cds_lfht_new_flavor(lo, 1, 0, 0, HT_FLAVOR, NULL);
	if (!ht)
		tap_bail("cds_lfht_new_flavor failed");
	for (key = 0; key < nstable; key++) {
		stable[key] = tnode_new(key);
		t_add(ht, stable[key]);
	}
	for (i = 0; i < READERS; i++)
		rd[i] = t_thread_start(reader, (void *) i);
	up = t_thread_start(updater, NULL);
	/* The resizes below are checked against readers and an updater that run. */
	T_FN(thread_offline)();
	t_gate_wait(&running, READERS + 1, "readers and updater");
	T_FN(thread_online)();

	phase_auto(forced, lo, hi);
	phase_fail(forced, lo, hi);

	uatomic_set(&stop, 1);
	for (i = 0; i < READERS; i++)
		t_thread_join(rd[i]);
	t_thread_join(up);
	tap_ok(!missing && lookups > 0, "readers: %ld lookups during the resizes, %ld missed "
		"a stable key", lookups, missing);
	tap_ok(!update_errors && updates > 0, "updater: %ld add/find/add_unique/del/miss "
		"rounds, %ld wrong answers", updates, update_errors);
	tap_ok(helpers_done == resize_created + other_created, "all %ld helpers ran to "
		"their end", helpers_done);
	if (!forced)
		phase_worker();
	for (key = 0; key < nstable; key++)
		(void) t_del(ht, stable[key]);
	t_barrier();
	T_FN(synchronize_rcu)();
	for (key = 0; key < nstable; key++)
		tnode_kill(stable[key]);
	if (t_destroy(ht, NULL))
		tap_bail("destroy failed");
	T_FN(unregister_thread)();
	return tap_done();
}
