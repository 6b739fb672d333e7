// SPDX-License-Identifier: MIT
/*
 * Bucket memory: the three backends and a custom allocator, in every flavor.
 *
 * Backends (through _cds_lfht_new): cds_lfht_mm_order (max 0 and 2^12),
 * cds_lfht_mm_chunk (max 2^12 and 2^20), cds_lfht_mm_mmap (max 2^20, 2^12,
 * and a "small" max of 128 that fits in one page).  For each: nodes found at
 * every size while the table is resized 1 -> max -> 1 (at most
 * 2^--max-order, 16 by default), a resize beyond a small max is clamped (no
 * memory for it appears), an AUTO_RESIZE table of the backend takes 2^13
 * nodes, and a destroyed table gives its heap memory back.
 *
 * Custom allocator (liburcu 0.15's struct cds_lfht_alloc, through
 * cds_lfht_new_with_flavor_alloc and _cds_lfht_new_with_alloc): it is
 * called, nothing of the table's comes from malloc behind its back, every
 * block is freed after destroy (also for each backend, and asynchronously
 * destroyed AUTO_RESIZE tables).  Out of memory (ours, CDS.md section 3):
 * creation returns NULL when any one of its allocations fails, without a
 * leak; a grow whose allocations fail leaves a correct table (every node
 * found, updates work), and a later grow with memory succeeds.
 */
#include "hash-test.h"
#include "hash-heap.h"

enum { N = 2000, NA = 1 << 13 };

/*
 * The meter's counters, read atomically: the table's worker thread may still
 * be freeing (a resize's old buckets, a destroy) while we read them.
 */
static long live(const long *counter)
{
	return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

static struct tnode nodes[1 << 14];

static void fill(struct cds_lfht *ht, unsigned long n)
{
	unsigned long k;

	for (k = 0; k < n; k++) {
		nodes[k].key = k;
		nodes[k].hash = t_hash(k);
		nodes[k].magic = T_LIVE;
		cds_lfht_node_init(&nodes[k].node);
		t_add(ht, &nodes[k]);
	}
}

static int all_found(struct cds_lfht *ht, unsigned long n)
{
	unsigned long k;

	if (t_count(ht, NULL, NULL) != n)
		return 0;
	for (k = 0; k < n; k++)
		if (t_lookup(ht, k) != &nodes[k])
			return 0;
	return 1;
}

/* Delete nodes [0, n) and wait a grace period: the array is reused. */
static void drain(struct cds_lfht *ht, unsigned long n)
{
	unsigned long k;

	for (k = 0; k < n; k++)
		t_del(ht, &nodes[k]);
	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();
	T_FN(thread_online)();
}

static int log2_of(unsigned long v)
{
	int o = 0;

	while ((1UL << o) < v)
		o++;
	return o;
}

struct backend {
	const char *name;
	const struct cds_lfht_mm_type *mm;
	unsigned long max;
};

/* Largest size the resize cycles reach (--max-order, 16 by default). */
static int max_order = 16;

static void test_backend(const struct backend *b)
{
	unsigned long max = b->max ? b->max : 1UL << max_order;
	long heap0 = t_heap_bytes();
	struct cds_lfht *ht;
	int o, ok = 1, top = log2_of(max);

	if (top > max_order) {
		top = max_order;
		max = 1UL << top;
	}

	ht = _cds_lfht_new(1, 1, b->max, 0, b->mm, HT_FLAVOR, NULL);
	tap_ok(ht != NULL, "%s: _cds_lfht_new", b->name);
	if (!ht)
		return;
	fill(ht, N);
	for (o = 1; o <= top; o += (top > 12 ? 3 : 1)) {
		t_resize(ht, 1UL << o);
		ok &= all_found(ht, N);
	}
	t_resize(ht, max);
	ok &= all_found(ht, N);
	for (o = top; o >= 0; o -= (top > 12 ? 3 : 1)) {
		t_resize(ht, 1UL << o);
		ok &= all_found(ht, N);
	}
	t_resize(ht, 1);
	ok &= all_found(ht, N);
	tap_ok(ok, "%s: every node found at each size from 1 to %lu and back", b->name, max);
	t_resize(ht, 1UL << 12);
	if (b->max && b->max <= (1UL << max_order)) {
		long before = t_heap_bytes();

		t_resize(ht, b->max << 4);
		tap_ok(all_found(ht, N) && t_heap_bytes() - before < (long) (b->max * 16),
			"%s: resize to 16 x max_nr_buckets is clamped, nodes found", b->name);
	}
	drain(ht, N);
	tap_ok(t_destroy(ht, NULL) == 0, "%s: destroy", b->name);
	tap_ok(t_heap_bytes() - heap0 < 64 * 1024, "%s: the heap is back where it was "
		"(%ld bytes more)", b->name, t_heap_bytes() - heap0);

	ht = _cds_lfht_new(1, 1, b->max, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, b->mm,
		HT_FLAVOR, NULL);
	ok = ht != NULL;
	if (ht) {
		fill(ht, NA);
		ok = all_found(ht, NA);
		drain(ht, NA);
		ok &= t_destroy(ht, NULL) == 0;
	}
	tap_ok(ok, "%s: an AUTO_RESIZE | ACCOUNTING table takes and finds 2^13 nodes", b->name);
}

#if HT_HAVE_ALLOC
/*
 * Wait for the meter to hold no block (asynchronous destroy by the
 * background thread), at most T_START_LIMIT_MS: generous under load.
 */
static long wait_freed(struct t_meter *m)
{
	int i;

	for (i = 0; i < T_START_LIMIT_MS / 10 && __atomic_load_n(&m->live_blocks, __ATOMIC_RELAXED); i++)
		t_quiet_sleep_ms(10);
	return __atomic_load_n(&m->live_blocks, __ATOMIC_RELAXED);
}

static void test_alloc_everything(void)
{
	struct t_meter m;
	struct cds_lfht_alloc a = t_meter_alloc(&m);
	struct cds_lfht *ht, *warm;
	long heap0, stray, left;
	int ok;

	/* the shared resize worker exists before the measurement */
	warm = cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_AUTO_RESIZE, HT_FLAVOR, NULL);

	heap0 = t_settled_heap();	/* earlier tables are destroyed asynchronously */
	ht = cds_lfht_new_with_flavor_alloc(1, 1, 0, CDS_LFHT_ACCOUNTING, HT_FLAVOR, &a, NULL);
	tap_ok(ht != NULL && t_meter_allocs(&m) > 0, "alloc: the table is allocated through it "
		"(%ld calls)", t_meter_allocs(&m));
	if (!ht)
		return;
	fill(ht, N);
	t_resize(ht, 4096);
	ok = all_found(ht, N);
	stray = t_heap_bytes() - heap0 - live(&m.live_bytes);
	tap_ok(ok, "alloc: the table works, resized to 4096");
	tap_ok(labs(stray) < 2048, "alloc: nothing of the table comes from malloc "
		"(heap grew %ld bytes beyond what the allocator holds)", stray);
	drain(ht, N);
	tap_ok(t_destroy(ht, NULL) == 0 && live(&m.live_blocks) == 0 && live(&m.live_bytes) == 0,
		"alloc: destroy frees every block (%ld left)", live(&m.live_blocks));
	tap_ok(m.calls_free > 0 && m.calls_free <= t_meter_allocs(&m),
		"alloc: %ld frees for %ld allocations", m.calls_free, t_meter_allocs(&m));

	/* AUTO_RESIZE: destroyed asynchronously, but all of it */
	a = t_meter_alloc(&m);
	ht = cds_lfht_new_with_flavor_alloc(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
		HT_FLAVOR, &a, NULL);
	ok = ht != NULL;
	if (ht) {
		fill(ht, 1 << 14);
		ok = all_found(ht, 1 << 14);
		drain(ht, 1 << 14);
		ok &= t_destroy(ht, NULL) == 0;
	}
	left = wait_freed(&m);
	tap_ok(ok && left == 0, "alloc: an AUTO_RESIZE table, grown and destroyed, "
		"frees every block (%ld left)", left);
	t_destroy(warm, NULL);
}

static void test_alloc_backends(void)
{
	static const struct backend b[] = {
		{ "order", &cds_lfht_mm_order, 0 },
		{ "chunk", &cds_lfht_mm_chunk, 1UL << 16 },
		{ "mmap", &cds_lfht_mm_mmap, 1UL << 16 },
		{ "mmap (small)", &cds_lfht_mm_mmap, 128 },
	};
	int i;

	for (i = 0; i < 4; i++) {
		struct t_meter m;
		struct cds_lfht_alloc a = t_meter_alloc(&m);
		struct cds_lfht *ht;
		int ok;

		ht = _cds_lfht_new_with_alloc(1, 1, b[i].max, 0, b[i].mm, HT_FLAVOR, &a, NULL);
		ok = ht != NULL && t_meter_allocs(&m) > 0;
		if (ht) {
			fill(ht, N);
			t_resize(ht, b[i].max ? b[i].max : 1UL << 16);
			ok &= all_found(ht, N);
			t_resize(ht, 2);
			ok &= all_found(ht, N);
			drain(ht, N);
			ok &= t_destroy(ht, NULL) == 0;
		}
		tap_ok(ok && live(&m.live_blocks) == 0, "alloc, %s backend: allocates through it, "
			"works, frees everything (%ld blocks left)", b[i].name, live(&m.live_blocks));
	}
}

#if HT_OURS
static void test_oom_create(void)
{
	struct t_meter m;
	struct cds_lfht_alloc a = t_meter_alloc(&m);
	struct cds_lfht *ht;
	long needed, k;
	int ok = 1, flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING;

	/* how many allocations creation makes */
	ht = cds_lfht_new_with_flavor_alloc(64, 1, 0, flags, HT_FLAVOR, &a, NULL);
	needed = t_meter_allocs(&m);
	if (ht)
		t_destroy(ht, NULL);
	wait_freed(&m);
	tap_ok(ht != NULL && needed > 0, "oom: creation needs %ld allocations", needed);

	for (k = 0; k < needed; k++) {
		a = t_meter_alloc(&m);
		m.fail_after = k;
		ht = cds_lfht_new_with_flavor_alloc(64, 1, 0, flags, HT_FLAVOR, &a, NULL);
		if (ht) {
			tap_diag("creation succeeded with allocation %ld failing", k + 1);
			ok = 0;
			m.fail_after = -1;
			t_destroy(ht, NULL);
			wait_freed(&m);
		} else if (live(&m.live_blocks)) {
			tap_diag("creation with allocation %ld failing leaked %ld blocks", k + 1,
				live(&m.live_blocks));
			ok = 0;
		}
	}
	tap_ok(ok, "oom: creation returns NULL, without a leak, whichever of its %ld "
		"allocations fails", needed);
}

static void test_oom_grow(void)
{
	struct t_meter m;
	struct cds_lfht_alloc a = t_meter_alloc(&m);
	struct cds_lfht *ht;
	long bytes0, bytes1, k;
	int ok;

	ht = cds_lfht_new_with_flavor_alloc(1, 1, 0, CDS_LFHT_ACCOUNTING, HT_FLAVOR, &a, NULL);
	if (!ht)
		tap_bail("cds_lfht_new_with_flavor_alloc failed");
	k = t_meter_allocs(&m);
	fill(ht, N);
	/* Updates run inside read-side sections, so they must not allocate. */
	tap_ok(t_meter_allocs(&m) == k, "updates allocate nothing: the counters come with "
		"the table (%ld allocations during %d adds)", t_meter_allocs(&m) - k, N);
	bytes0 = live(&m.live_bytes);
	for (k = 0; k < 6; k++) {
		/* let k allocations succeed, then fail: a grow stopped part way */
		m.fail_after = k;
		t_resize(ht, 1UL << 14);
		m.fail_after = -1;
		if (!all_found(ht, N))
			break;
		t_resize(ht, 1);
	}
	tap_ok(k == 6, "oom: explicit grows whose allocations fail (after 0..5 successes) "
		"return and leave every node found");
	m.fail_after = 0;
	t_resize(ht, 1UL << 14);
	ok = all_found(ht, N) && m.failed > 0;
	/* updates keep working while out of memory */
	drain(ht, N / 2);
	ok &= t_count(ht, NULL, NULL) == N - N / 2;
	for (k = 0; k < N / 2; k++) {
		nodes[k].magic = T_LIVE;
		t_add(ht, &nodes[k]);
	}
	ok &= all_found(ht, N);
	tap_ok(ok, "oom: with every allocation failing, the table stays correct and updatable "
		"(%ld failed allocations)", m.failed);
	m.fail_after = -1;
	t_resize(ht, 1UL << 14);
	bytes1 = live(&m.live_bytes);
	tap_ok(all_found(ht, N) && bytes1 - bytes0 >= (long) ((1UL << 13) * sizeof(struct cds_lfht_node)),
		"oom: once memory is back, a grow succeeds (%ld -> %ld bytes)", bytes0, bytes1);
	drain(ht, N);
	tap_ok(t_destroy(ht, NULL) == 0 && live(&m.live_blocks) == 0, "oom: destroy frees everything");

	/* AUTO_RESIZE: lazy grows fail, adds go on; later they succeed */
	a = t_meter_alloc(&m);
	ht = cds_lfht_new_with_flavor_alloc(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
		HT_FLAVOR, &a, NULL);
	if (!ht)
		tap_bail("cds_lfht_new_with_flavor_alloc failed");
	bytes0 = live(&m.live_bytes);
	m.fail_after = 0;
	fill(ht, 4096);
	t_quiet_sleep_ms(50);
	ok = all_found(ht, 4096);
	m.fail_after = -1;
	tap_ok(ok, "oom: an AUTO_RESIZE table whose grows fail takes 4096 adds, finds them "
		"(%ld failed allocations)", m.failed);
	for (k = 4096; k < (1 << 14); k++) {
		nodes[k].key = (unsigned long) k;
		nodes[k].hash = t_hash((unsigned long) k);
		nodes[k].magic = T_LIVE;
		t_add(ht, &nodes[k]);
	}
	for (k = 0; k < T_START_LIMIT_MS / 10 && live(&m.live_bytes) - bytes0 < 1024 * (long) sizeof(struct cds_lfht_node); k++)
		t_quiet_sleep_ms(10);
	tap_ok(all_found(ht, 1 << 14) && live(&m.live_bytes) - bytes0 >= 1024 * (long) sizeof(struct cds_lfht_node),
		"oom: with memory back, the AUTO_RESIZE table grows (%ld bytes of buckets)",
		live(&m.live_bytes) - bytes0);
	drain(ht, 1 << 14);
	t_destroy(ht, NULL);
	tap_ok(wait_freed(&m) == 0, "oom: the AUTO_RESIZE table frees everything");
}
#endif /* HT_OURS */
#endif /* HT_HAVE_ALLOC */

int main(int argc, char **argv)
{
	static const struct backend backends[] = {
		{ "order (max 0)", &cds_lfht_mm_order, 0 },
		{ "order (max 2^12)", &cds_lfht_mm_order, 1UL << 12 },
		{ "chunk (max 2^12)", &cds_lfht_mm_chunk, 1UL << 12 },
		{ "chunk (max 2^20)", &cds_lfht_mm_chunk, 1UL << 20 },
		{ "mmap (max 2^20)", &cds_lfht_mm_mmap, 1UL << 20 },
		{ "mmap (max 2^12)", &cds_lfht_mm_mmap, 1UL << 12 },
		{ "mmap (max 128)", &cds_lfht_mm_mmap, 128 },
	};
	size_t i;

	max_order = (int) t_arg(argc, argv, "max-order", 16);
	T_FN(register_thread)();
	tap_diag("flavor %s, %s", T_FLAVOR, T_MODE);
	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		test_backend(&backends[i]);
#if HT_HAVE_ALLOC
	test_alloc_everything();
	test_alloc_backends();
# if HT_OURS
	test_oom_create();
	test_oom_grow();
# else
	tap_skip("out of memory returns NULL / stops growing: our improvement");
# endif
#else
	tap_skip("struct cds_lfht_alloc: liburcu 0.15+");
#endif
	t_barrier();
	T_FN(unregister_thread)();
	return tap_done();
}
