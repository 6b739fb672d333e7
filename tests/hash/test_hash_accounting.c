// SPDX-License-Identifier: MIT
/*
 * What an update counts, by the table's flags (rculfhash.h, "Accounting").
 *
 * The observable: the program defines sched_getcpu(), which the library
 * calls to pick the split counter of a counted update, and which a
 * definition in the executable interposes on (the library reaches it
 * through its PLT).  The definition counts the calls of each thread, so
 * what the main thread's adds and dels cost is exact whatever the
 * library's other threads do.
 *
 *   percpu:  N adds and N dels cost exactly 2 N calls on a CDS_LFHT_ACCOUNTING
 *            table (with and without AUTO_RESIZE: the control, which shows
 *            the probe sees per-update counting), none on a table with
 *            flags 0, and none on a CDS_LFHT_AUTO_RESIZE table without
 *            ACCOUNTING (such a table counts a fixed sample of the hash
 *            values, which needs no sched_getcpu(): rculfhash.h);
 *   exact:   cds_lfht_count_nodes reports the exact split count of an
 *            ACCOUNTING table, 0 for an AUTO_RESIZE table without it;
 *   grow:    an AUTO_RESIZE table without ACCOUNTING created with one bucket
 *            still grows under load: 100,000 adds leave it soon
 *            (T_START_LIMIT_MS at most) with at least N/16 buckets and at
 *            most 4 N, and 64 adds with at least 16 buckets (a sample of 1
 *            in 16 may hold none of them);
 *   shrink:  (ours) deleting every node of such a table, grown to 5 * 2^14
 *            nodes per split slot, shrinks it as soon to at most half its
 *            peak (skipped where slots > 8: too many nodes).
 * Bucket memory is read from a counting allocator (struct cds_lfht_alloc),
 * so growth and shrink are checked only where the library has one.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "hash-test.h"

#include <sys/syscall.h>

enum { N = 4096, BIG = 100000, TINY = 64 };

#define BUCKET	((long) sizeof(struct cds_lfht_node))

static __thread long getcpu_calls;

int sched_getcpu(void);

int sched_getcpu(void)
{
	unsigned int cpu;

	getcpu_calls++;
	if (syscall(SYS_getcpu, &cpu, NULL, NULL))
		return -1;
	return (int) cpu;
}

static struct tnode *nodes;

static void init_nodes(unsigned long n)
{
	unsigned long k;

	for (k = 0; k < n; k++) {
		nodes[k].key = k;
		nodes[k].hash = t_hash(k);
		nodes[k].magic = T_LIVE;
		cds_lfht_node_init(&nodes[k].node);
	}
}

/* sched_getcpu calls of n adds then n dels on a fresh table of flags. */
static long update_calls(int flags, unsigned long n, long *split)
{
	struct cds_lfht *ht = cds_lfht_new_flavor(1024, 1024, 1024, flags, HT_FLAVOR, NULL);
	unsigned long k;
	long calls, before;

	if (!ht)
		tap_bail("cds_lfht_new_flavor (flags %d) failed", flags);
	init_nodes(n);
	getcpu_calls = 0;
	for (k = 0; k < n; k++)
		t_add(ht, &nodes[k]);
	calls = getcpu_calls;
	(void) t_count(ht, &before, NULL);
	*split = before;
	getcpu_calls = 0;
	for (k = 0; k < n; k++)
		if (t_del(ht, &nodes[k]))
			tap_diag("del of key %lu failed", k);
	calls += getcpu_calls;
	if (t_destroy(ht, NULL))
		tap_diag("destroy (flags %d) failed", flags);
	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();	/* the nodes are reused after */
	T_FN(thread_online)();
	return calls;
}

static void test_percpu(void)
{
	static const struct { int flags; const char *name; } sets[] = {
		{ CDS_LFHT_ACCOUNTING, "ACCOUNTING" },
		{ CDS_LFHT_ACCOUNTING | CDS_LFHT_AUTO_RESIZE, "ACCOUNTING | AUTO_RESIZE" },
		{ 0, "0" },
		{ CDS_LFHT_AUTO_RESIZE, "AUTO_RESIZE" },
	};
	unsigned int i;
	long calls, split;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		int acct = sets[i].flags & CDS_LFHT_ACCOUNTING;
		long want = acct ? 2L * N : 0;

		calls = update_calls(sets[i].flags, N, &split);
		tap_ok(calls == want, "percpu: %d adds and %d dels, flags %s: %ld sched_getcpu "
			"calls (want %ld)", N, N, sets[i].name, calls, want);
		tap_ok(split == (acct ? N : 0), "exact: flags %s, split count %ld after %d adds "
			"(want %d)", sets[i].name, split, N, acct ? N : 0);
	}
}

#if HT_HAVE_ALLOC
static struct t_meter meters[4];
static struct cds_lfht_alloc allocs[4];
static int nmeters;

static struct cds_lfht *metered_table(struct t_meter **m, long *base)
{
	int i = nmeters++;

	allocs[i] = t_meter_alloc(&meters[i]);
	*m = &meters[i];
	struct cds_lfht *ht = cds_lfht_new_with_flavor_alloc(1, 1, 0, CDS_LFHT_AUTO_RESIZE,
			HT_FLAVOR, &allocs[i], NULL);
	if (!ht)
		tap_bail("cds_lfht_new_with_flavor_alloc failed");
	*base = __atomic_load_n(&meters[i].live_bytes, __ATOMIC_RELAXED);
	return ht;
}

static long live(struct t_meter *m, long base)
{
	return __atomic_load_n(&m->live_bytes, __ATOMIC_RELAXED) - base;
}

/*
 * Wait until the bucket bytes are >= lo (or <= hi when lo < 0): the
 * background thread resizes when a loaded machine runs it, so the bound is
 * the generous start limit (T_START_LIMIT_MS), reached only on a failure.
 */
static long wait_bytes(struct t_meter *m, long base, long lo, long hi)
{
	long b = live(m, base);
	int i;

	for (i = 0; i < T_START_LIMIT_MS / 10; i++) {
		if (lo >= 0 ? b >= lo : b <= hi)
			break;
		t_quiet_sleep_ms(10);
		b = live(m, base);
	}
	/* then let it settle: what the thread still has queued */
	t_quiet_sleep_ms(100);
	return live(m, base);
}

static void drop_table(struct cds_lfht *ht, unsigned long n)
{
	unsigned long k;

	for (k = 0; k < n; k++)
		t_del(ht, &nodes[k]);
	if (t_destroy(ht, NULL))
		tap_diag("destroy failed");
	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();
	T_FN(thread_online)();
}

static void test_grow(void)
{
	struct t_meter *m;
	struct cds_lfht *ht;
	unsigned long k;
	long base, b;

	ht = metered_table(&m, &base);
	init_nodes(BIG);
	for (k = 0; k < BIG; k++)
		t_add(ht, &nodes[k]);
	b = wait_bytes(m, base, BIG / 16 * BUCKET, 0);
	tap_ok(b >= BIG / 16 * BUCKET && b <= 4L * BIG * BUCKET, "grow: %d adds to an "
		"AUTO_RESIZE table without ACCOUNTING: %ld buckets (want %d .. %d)",
		BIG, b / BUCKET, BIG / 16, 4 * BIG);
	drop_table(ht, BIG);

	ht = metered_table(&m, &base);
	init_nodes(TINY);
	for (k = 0; k < TINY; k++)
		t_add(ht, &nodes[k]);
	b = wait_bytes(m, base, 16 * BUCKET, 0);
	tap_ok(b >= 16 * BUCKET && b <= 256 * BUCKET, "grow: %d adds to a one-bucket table: "
		"%ld buckets (want 16 .. 256)", TINY, b / BUCKET);
	drop_table(ht, TINY);
}

static void test_shrink(unsigned long slots)
{
	unsigned long n = 5 * (slots << 14), k;
	struct t_meter *m;
	struct cds_lfht *ht;
	long base, peak, b;

	ht = metered_table(&m, &base);
	init_nodes(n);
	for (k = 0; k < n; k++)
		t_add(ht, &nodes[k]);
	peak = wait_bytes(m, base, (long) (n / 2) * BUCKET, 0);
	for (k = 0; k < n; k++)
		t_del(ht, &nodes[k]);
	b = wait_bytes(m, base, -1, peak / 2);
	tap_ok(peak >= (long) (n / 2) * BUCKET && b <= peak / 2, "shrink: %lu nodes added "
		"then deleted, AUTO_RESIZE without ACCOUNTING: %ld buckets at the peak, %ld "
		"after (want <= %ld)", n, peak / BUCKET, b / BUCKET, peak / 2 / BUCKET);
	drop_table(ht, 0);
}
#endif

int main(void)
{
	unsigned long slots = 1;

	(void) slots;
#if HT_HAVE_ALLOC
	slots = t_split_slots();
#endif
	nodes = (struct tnode *) calloc(slots <= 8 ? 5 * (slots << 14) + BIG : BIG,
			sizeof(*nodes));
	if (!nodes)
		tap_bail("out of memory");
	T_FN(register_thread)();
	tap_diag("flavor %s, %s", T_FLAVOR, T_MODE);
	test_percpu();
#if HT_HAVE_ALLOC
	test_grow();
	if (!HT_OURS)
		tap_skip("shrink: liburcu never shrinks a table without ACCOUNTING");
	else if (slots <= 8)
		test_shrink(slots);
	else
		tap_skip("shrink: %lu split slots would need %lu nodes", slots,
			5 * (slots << 14));
#else
	tap_skip("grow: no struct cds_lfht_alloc to read bucket memory from");
	tap_skip("shrink: no struct cds_lfht_alloc to read bucket memory from");
#endif
	t_barrier();
	T_FN(unregister_thread)();
	free(nodes);
	return tap_done();
}
