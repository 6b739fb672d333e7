// SPDX-License-Identifier: MIT
/*
 * Automatic resizing, observed from outside, in every flavor.
 *
 * The observable is the table's bucket memory: with our library, the live
 * bytes of a counting allocator the table is created with (struct
 * cds_lfht_alloc); against a liburcu without that API, the growth of the
 * heap (its order backend allocates buckets with calloc; the test's nodes
 * are allocated before the measurement starts).  Sizes below are in
 * buckets of 16 bytes.
 *
 *   grow:   an AUTO_RESIZE | ACCOUNTING table takes 100,000 adds in bounded
 *           time, and soon (T_START_LIMIT_MS at most) holds at least N/16
 *           buckets (at most 4 N) while a reader thread's lookups of the
 *           keys added so far never miss;
 *   shrink: deleting every node of that table brings it back, as soon, to
 *           at most 1/8 of its peak (or 4,096 buckets), plus 8 KiB for
 *           the table's own structure;
 *   chain:  an AUTO_RESIZE table without ACCOUNTING also grows under load;
 *   small:  1,000 live keys under a long add/remove loop (200,000 keys in
 *           all) stay in at most 8,192 buckets, with ACCOUNTING and (ours,
 *           CDS.md section 3) without;
 *   fixed:  without AUTO_RESIZE (flags 0 or ACCOUNTING alone) 2,000 adds
 *           resize nothing;
 *   queued: (ours) a grow decided while a shrink of the same table is still
 *           queued for the background thread is not lost: with the thread
 *           held up, deleting every node asks for a shrink, then 5 U adds
 *           follow; once the thread runs, the table must hold at least 2 U
 *           buckets (the policy asks for 4 U; the lost grow left U).
 *           See test_queued() for U and how the thread is held up.
 */
#include "hash-test.h"

enum { BIG = 100000, WINDOW = 1000, RING = 2 * WINDOW, OPS = 200000 };

#define BUCKET	((long) sizeof(struct cds_lfht_node))

static struct tnode *nodes;		/* BIG nodes, key k in nodes[k] */

/* ----------------------------------------------------- bucket-memory probe */

struct probe {
	struct cds_lfht *ht;
	long base;
#if HT_HAVE_ALLOC
	struct t_meter m;
	struct cds_lfht_alloc a;
#endif
};

static long probe_raw(struct probe *p)
{
#if HT_HAVE_ALLOC
	return __atomic_load_n(&p->m.live_bytes, __ATOMIC_RELAXED);
#else
	(void) p;
	return t_heap_bytes();
#endif
}

/*
 * The probes live as long as the program: an AUTO_RESIZE table is destroyed
 * asynchronously, and its last frees reach the allocator's state later.
 */
static struct probe probes[8];
static int nprobes;

static struct probe *probe_create(int flags)
{
	struct probe *p;

	if (nprobes == 8)
		tap_bail("too many probes");
	p = &probes[nprobes++];
#if HT_HAVE_ALLOC
	p->a = t_meter_alloc(&p->m);
	p->ht = cds_lfht_new_with_flavor_alloc(1, 1, 0, flags, HT_FLAVOR, &p->a, NULL);
#else
	p->ht = cds_lfht_new_flavor(1, 1, 0, flags, HT_FLAVOR, NULL);
#endif
	if (!p->ht)
		tap_bail("cds_lfht_new (flags %d) failed", flags);
	p->base = probe_raw(p);
	return p;
}

/* Bucket bytes the table gained since it was created. */
static long probe_bytes(struct probe *p)
{
	return probe_raw(p) - p->base;
}

/*
 * Wait until cond(bytes) holds, at most T_START_LIMIT_MS (generous: the
 * background thread resizes when a loaded machine runs it); returns the last
 * reading.
 */
static long probe_wait(struct probe *p, int (*cond)(long bytes, long arg), long arg)
{
	long b = probe_bytes(p);
	int i;

	for (i = 0; i < T_START_LIMIT_MS / 10 && !cond(b, arg); i++) {
		t_quiet_sleep_ms(10);
		b = probe_bytes(p);
	}
	return b;
}

/* The reading once it stopped moving for 100 ms (at most 3 s). */
static long probe_settle(struct probe *p)
{
	long prev = probe_bytes(p), cur;
	int i;

	for (i = 0; i < 30; i++) {
		t_quiet_sleep_ms(100);
		cur = probe_bytes(p);
		if (cur == prev)
			break;
		prev = cur;
	}
	return prev;
}

static int at_least(long bytes, long arg)
{
	return bytes >= arg;
}

static int at_most(long bytes, long arg)
{
	return bytes <= arg;
}

/*
 * Delete nodes [0, n) of p's table and destroy it; the nodes are reusable
 * after.  Returns destroy's value, or -1 if (with a counting allocator) the
 * table's memory was not all given back within T_START_LIMIT_MS.
 */
static int probe_finish(struct probe *p, unsigned long n)
{
	unsigned long k;
	int ret, i;

	for (k = 0; k < n; k++)
		t_del(p->ht, &nodes[k]);
	ret = t_destroy(p->ht, NULL);
	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();
	T_FN(thread_online)();
#if HT_HAVE_ALLOC
	for (i = 0; i < T_START_LIMIT_MS / 10 &&
			__atomic_load_n(&p->m.live_blocks, __ATOMIC_RELAXED); i++)
		t_quiet_sleep_ms(10);
	/* Atomic loads: the destroy worker may still be freeing blocks. */
	if (!ret && __atomic_load_n(&p->m.live_blocks, __ATOMIC_RELAXED)) {
		tap_diag("destroyed table still holds %ld blocks after %d ms",
			__atomic_load_n(&p->m.live_blocks, __ATOMIC_RELAXED), T_START_LIMIT_MS);
		ret = -1;
	}
#else
	(void) i;
#endif
	return ret;
}

/* ------------------------------------------------------------------ grow */

static struct cds_lfht *reader_ht;
static unsigned long published;		/* keys [0, published) are in the table */
static int reader_stop;
static int reader_running;		/* start gate: the reader did its first lookup */
static unsigned long reader_misses, reader_lookups;

static void *lookup_reader(void *arg)
{
	unsigned long long rng = 99;
	unsigned long misses = 0, lookups = 0;

	(void) arg;
	T_FN(register_thread)();
	while (!t_load(&reader_stop)) {
		unsigned long upto = __atomic_load_n(&published, __ATOMIC_ACQUIRE), key;
		struct cds_lfht_iter iter;
		struct cds_lfht_node *n;

		if (!upto) {
			T_FN(quiescent_state)();
			continue;
		}
		key = t_rand(&rng) % upto;
		t_lock();
		cds_lfht_lookup(reader_ht, t_hash(key), t_match, &key, &iter);
		n = cds_lfht_iter_get_node(&iter);
		if (!n || to_tnode(n)->key != key)
			misses++;
		t_reader_exit();
		if (!lookups++)
			t_gate_pass(&reader_running);
	}
	T_FN(unregister_thread)();
	reader_misses = misses;
	reader_lookups = lookups;
	return NULL;
}

/*
 * Add keys [0, n) to p's table, publishing each for the reader; gives up
 * (returns 0) after 20 s: a table that never grows makes adds quadratic.
 */
static int add_keys(struct probe *p, unsigned long n, double *ms)
{
	unsigned long long start = t_now_ns();
	unsigned long k;

	for (k = 0; k < n; k++) {
		nodes[k].key = k;
		nodes[k].hash = t_hash(k);
		nodes[k].magic = T_LIVE;
		cds_lfht_node_init(&nodes[k].node);
		t_add(p->ht, &nodes[k]);
		/* pairs with the reader's acquire load: node k is linked before */
		__atomic_store_n(&published, k + 1, __ATOMIC_RELEASE);
		if (!(k & 4095) && t_ms_since(start) > 20000) {
			tap_diag("gave up after %lu of %lu adds in 20 s", k, n);
			*ms = t_ms_since(start);
			return 0;
		}
	}
	*ms = t_ms_since(start);
	return 1;
}

static void test_grow_shrink(void)
{
	struct probe *p;
	pthread_t reader;
	long grown, shrunk, floor_bytes;
	double ms;
	int ok;

	p = probe_create(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	reader_ht = p->ht;
	published = 0;
	t_store(&reader_stop, 0);
	reader_running = 0;
	reader = t_thread_start(lookup_reader, NULL);

	ok = add_keys(p, BIG, &ms);
	tap_ok(ok, "grow: %d adds to an AUTO_RESIZE | ACCOUNTING table in %.0f ms", BIG, ms);
	grown = probe_wait(p, at_least, BIG / 16 * BUCKET);
	if (grown >= BIG / 16 * BUCKET)
		grown = probe_settle(p);	/* the peak, once the worker is done */
	T_FN(thread_offline)();
	/* the lookups checked below need a reader that ran (keys are published by now) */
	t_gate_wait(&reader_running, 1, "lookup reader");
	t_store(&reader_stop, 1);
	t_thread_join(reader);
	T_FN(thread_online)();
	tap_ok(grown >= BIG / 16 * BUCKET && grown <= 4L * BIG * BUCKET,
		"grow: the table grew to %ld buckets for %d nodes (between N/16 and 4 N)",
		grown / BUCKET, BIG);
	tap_ok(reader_misses == 0 && reader_lookups > 0, "grow: %lu concurrent lookups of "
		"added keys, %lu misses", reader_lookups, reader_misses);

	/* shrink: delete everything, wait for the worker */
	{
		unsigned long k;

		for (k = 0; k < BIG; k++)
			t_del(p->ht, &nodes[k]);
	}
	/* 1/8 of the peak or 4096 buckets, plus 8 KiB for the table's own struct */
	floor_bytes = (grown / 8 > 4096 * BUCKET ? grown / 8 : 4096 * BUCKET) + 8192;
	shrunk = probe_wait(p, at_most, floor_bytes);
	tap_ok(shrunk <= floor_bytes, "shrink: after deleting every node the table holds %ld "
		"buckets (peak %ld; at most %ld)", shrunk / BUCKET, grown / BUCKET,
		floor_bytes / BUCKET);
	tap_ok(probe_finish(p, 0) == 0, "grow/shrink: destroy (all memory given back)");
}

static void test_chain_growth(void)
{
	struct probe *p;
	long grown;
	double ms;
	int ok;

	p = probe_create(CDS_LFHT_AUTO_RESIZE);
	published = 0;
	ok = add_keys(p, BIG / 4, &ms);
	grown = probe_wait(p, at_least, BIG / 4 / 16 * BUCKET);
	tap_ok(ok && grown >= BIG / 4 / 16 * BUCKET, "chain: an AUTO_RESIZE table without "
		"ACCOUNTING grew to %ld buckets for %d nodes (%.0f ms)", grown / BUCKET, BIG / 4, ms);
	tap_ok(probe_finish(p, BIG / 4) == 0, "chain: destroy (all memory given back)");
}

/* ----------------------------------------------------------------- small */

/*
 * WINDOW live keys; each step deletes the oldest and adds a new key, OPS
 * steps.  Nodes come from a ring of RING slots: a slot is reused WINDOW
 * steps after its node was deleted, and a grace period passes every WINDOW
 * steps, so each reuse follows a grace period.
 */
static long small_loop(int flags)
{
	struct probe *p;
	unsigned long i, next_key = 0;
	long bytes;

	p = probe_create(flags);
	for (i = 0; i < OPS + WINDOW; i++) {
		struct tnode *t = &nodes[i % RING];

		if (i % WINDOW == 0) {
			T_FN(thread_offline)();
			T_FN(synchronize_rcu)();
			T_FN(thread_online)();
		}
		if (i >= WINDOW)
			t_del(p->ht, &nodes[(i - WINDOW) % RING]);
		t->key = next_key++;
		t->hash = t_hash(t->key);
		t->magic = T_LIVE;
		cds_lfht_node_init(&t->node);
		t_add(p->ht, t);
	}
	/* let the worker finish what the loop queued */
	bytes = probe_settle(p);
	for (i = OPS; i < OPS + WINDOW; i++)
		t_del(p->ht, &nodes[i % RING]);
	if (t_destroy(p->ht, NULL))
		tap_diag("small: destroy failed");
	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();
	T_FN(thread_online)();
	return bytes;
}

static void test_small(void)
{
	long b;

	b = small_loop(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	tap_ok(b <= 8192 * BUCKET, "small: %d live keys, %d adds and removes, ACCOUNTING: "
		"%ld buckets (at most 8192)", WINDOW, OPS, b / BUCKET);
#if HT_OURS
	b = small_loop(CDS_LFHT_AUTO_RESIZE);
	tap_ok(b <= 8192 * BUCKET, "small: %d live keys, %d adds and removes, no ACCOUNTING: "
		"%ld buckets (at most 8192)", WINDOW, OPS, b / BUCKET);
#else
	tap_skip("small table without ACCOUNTING stays small: our improvement "
		"(liburcu grows it to 2^16 buckets)");
#endif
}

/* ----------------------------------------------------------------- fixed */

static void test_fixed(void)
{
	static const int flag_sets[] = { 0, CDS_LFHT_ACCOUNTING };
	int i;

	for (i = 0; i < 2; i++) {
		struct probe *p;
		double ms;
		long b;

		p = probe_create(flag_sets[i]);
		published = 0;
		add_keys(p, 2000, &ms);
		t_quiet_sleep_ms(100);
		b = probe_bytes(p);
		tap_ok(b < 64 * BUCKET, "fixed: flags %s, 2000 adds to 1 bucket: no resize (%ld bytes)",
			i ? "ACCOUNTING" : "0", b);
		tap_ok(probe_finish(p, 2000) == 0, "fixed: destroy (all memory given back)");
	}
}

/* ---------------------------------------------------------------- queued */

#if HT_OURS && HT_HAVE_ALLOC
/*
 * U: the smallest count at which an ACCOUNTING table shrinks, 1024 per
 * split counter slot, the slots being the configured CPUs rounded up to a
 * power of two, at most 64 (rculfhash-table.c, split_slots()).
 */
static unsigned long shrink_unit(void)
{
	return t_split_slots() << 10;
}

/* A thread inside a read-side critical section until told to leave. */
static int holder_in, holder_release;

static void *section_holder(void *arg)
{
	(void) arg;
	T_FN(register_thread)();
	T_FN(read_lock)();	/* qsbr: online without quiescent states */
	t_store(&holder_in, 1);
	while (!t_load(&holder_release))
		t_sleep_ms(1);
	T_FN(read_unlock)();
	T_FN(unregister_thread)();
	return NULL;
}

/* Keys [first, first + n) from arr[] into p's table. */
static void add_nodes(struct probe *p, struct tnode *arr, unsigned long first, unsigned long n)
{
	unsigned long k;

	for (k = 0; k < n; k++) {
		struct tnode *t = &arr[k];

		t->key = first + k;
		t->hash = t_hash(t->key);
		t->magic = T_LIVE;
		cds_lfht_node_init(&t->node);
		t_add(p->ht, t);
	}
}

static void del_nodes(struct probe *p, struct tnode *arr, unsigned long n)
{
	unsigned long k;

	for (k = 0; k < n; k++)
		t_del(p->ht, &arr[k]);
}

/*
 * The one background thread serves every table in request order.  Hold it
 * up: a reader thread stays inside a read-side critical section, and a
 * shrink of a first table (stall) is requested, which waits for a grace
 * period.  Then on the table under test, explicitly sized to 8 U buckets:
 * 2 U adds and their deletion (the shrink request, queued behind the
 * stalled one), then 5 U adds (the count ends between 4 U and 6 U: every
 * grow decision is made while the shrink is still queued).  Then the
 * reader leaves and the thread catches up.
 *
 * Counts are committed 1024 per slot, so the table-wide count is off by
 * less than U: 2 U adds bring it above U, deleting them brings it below,
 * and 5 U more bring it above 4 U.
 */
static void test_queued(void)
{
	unsigned long u = shrink_unit();
	struct tnode *arr = (struct tnode *) calloc(9 * u, sizeof(*arr));
	struct tnode *stall_nodes = arr, *first = arr + 2 * u, *second = arr + 4 * u;
	struct probe *stall, *p;
	pthread_t holder;
	long held, after, cap;

	if (!arr)
		tap_bail("out of memory");
	stall = probe_create(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	p = probe_create(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	t_resize(stall->ht, 8 * u);
	t_resize(p->ht, 8 * u);
	add_nodes(stall, stall_nodes, 0, 2 * u);
	add_nodes(p, first, 0, 2 * u);

	t_store(&holder_in, 0);
	t_store(&holder_release, 0);
	holder = t_thread_start(section_holder, NULL);
	T_FN(thread_offline)();
	t_wait_for(&holder_in, 1, 10000, "the reader to enter its critical section");
	T_FN(thread_online)();

	del_nodes(stall, stall_nodes, 2 * u);	/* its shrink waits for the reader */
	del_nodes(p, first, 2 * u);		/* shrink of p: queued behind it */
	add_nodes(p, second, 2 * u, 5 * u);	/* grow decisions of p */
	held = probe_bytes(p);
	tap_ok(held >= 8 * (long) u * BUCKET, "queued: with the background thread held up, "
		"the table still holds %ld buckets (8 U = %lu)", held / BUCKET, 8 * u);

	t_store(&holder_release, 1);
	T_FN(thread_offline)();
	t_thread_join(holder);
	T_FN(thread_online)();

	/* Wait for the queued resize: it brings p to at most 4 U either way. */
	cap = 4 * (long) u * BUCKET + 8192;
	after = probe_wait(p, at_most, cap);
	tap_ok(after <= cap, "queued: the queued resize ran (%ld buckets, at most 4 U = %lu)",
		after / BUCKET, 4 * u);
	after = probe_settle(p);
	tap_ok(after >= 2 * (long) u * BUCKET, "queued: a grow decided while a shrink was "
		"queued is kept: %lu nodes in %ld buckets (at least 2 U = %lu)", 5 * u,
		after / BUCKET, 2 * u);

	del_nodes(p, second, 5 * u);
	tap_ok(probe_finish(p, 0) == 0 && probe_finish(stall, 0) == 0,
		"queued: destroy both tables (all memory given back)");
	free(arr);	/* probe_finish waited for a grace period */
}
#else
static void test_queued(void)
{
	tap_skip("queued: needs our policy and struct cds_lfht_alloc");
}
#endif

int main(void)
{
	nodes = (struct tnode *) calloc(BIG, sizeof(*nodes));
	if (!nodes)
		tap_bail("out of memory");
	T_FN(register_thread)();
	tap_diag("flavor %s, %s; bucket memory from %s", T_FLAVOR, T_MODE,
		HT_HAVE_ALLOC ? "a counting cds_lfht_alloc" : "the heap");

	test_grow_shrink();
	test_chain_growth();
	test_small();
	test_fixed();
	test_queued();

	t_barrier();
	T_FN(unregister_thread)();
	free(nodes);
	return tap_done();
}
