// SPDX-License-Identifier: MIT
/*
 * The hash table under concurrent readers, writers and resizes, in every
 * flavor (threads registered with it; qsbr threads report a quiescent state
 * after each operation and go offline to resize).  Not a benchmark: the
 * checks are what matters, the rates are printed as diagnostics.
 *
 * Phase 1, stable keys survive churn and resizes.  Keys [0, S) are added
 * once and never removed; writers add_unique / add_replace / del keys of
 * [S, S+C), reclaiming what they take out with the flavor's call_rcu (the
 * callback poisons the node, then frees it); the main thread resizes the
 * table 1 -> 2 -> ... -> 2^max-order -> ... -> 1, --cycles times.
 * Checks: a lookup of a stable key never misses; every node reached (by a
 * lookup of a churned key held for a while, or by a traversal) is live and
 * carries the key it was found under; each traversal sees every stable key
 * exactly once and no churned key twice; once quiet, count_nodes and a
 * traversal agree and the split counters add up.
 *
 * Phase 2, uniqueness with racing writers: writers add_unique, add_replace
 * and del a small key set while the table is resized; a reader's traversal
 * never sees a key twice and a lookup's next_duplicate never finds a second
 * node (CDS.md section 2.1, guarantee F).
 *
 * Phase 3, two threads delete the same node, many times: exactly one of the
 * two cds_lfht_del calls returns 0, the other -ENOENT.
 *
 * -DTEST_SEED_BUG builds the detector's control: writers "free" (poison) a
 * removed node at once, without a grace period.  Phase 1 must then fail;
 * Meson runs that build as a should_fail test.  The poisoned nodes are kept
 * in memory until the end, so the bug shows as a detected poison rather
 * than as a crash.
 *
 * Arguments (--name=N): max-order (16), cycles (1), stable (2048),
 * churn (2048), readers (2), writers (2), min-ms (300), unique-ms (300),
 * del-iters (10000), auto (0: explicit resizes only; 1: the table also has
 * CDS_LFHT_AUTO_RESIZE), phases (7: a bit mask of the phases to run).
 */
#include "hash-test.h"

#include <sched.h>

struct params {
	int max_order, cycles, readers, writers, auto_resize;
	unsigned long stable, churn;
	long min_ms, unique_ms, del_iters;
};

static struct params P;
static struct cds_lfht *ht;
static int stop;

/* what the threads detected (atomic counters) */
static unsigned long stable_misses, bad_nodes, trav_stable_bad, trav_dups;
static unsigned long n_lookups, n_traversals, n_updates, n_holds;
static int traversing;		/* start gate: reader 0 finished its first traversal */

static void count(unsigned long *c, unsigned long n)
{
	if (n)
		__atomic_add_fetch(c, n, __ATOMIC_RELAXED);
}

static void flag_stop_on_failure(void)
{
	t_store(&stop, 1);
}

/* ---------------------------------------------------------------- reclaim */

#ifdef TEST_SEED_BUG
/*
 * The bug: poison as soon as del returns, with no grace period.  The node
 * stays allocated (on this list) so that readers see the poison, not a crash.
 */
static pthread_mutex_t quarantine_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tnode *quarantine;

static void writer_reclaim(struct tnode *t)
{
	__atomic_store_n(&t->magic, (unsigned long) T_POISON, __ATOMIC_RELAXED);
	pthread_mutex_lock(&quarantine_lock);
	t->owner = (unsigned long) quarantine;
	quarantine = t;
	pthread_mutex_unlock(&quarantine_lock);
}

static void quarantine_free(void)
{
	while (quarantine) {
		struct tnode *t = quarantine;

		quarantine = (struct tnode *) t->owner;
		free(t);
	}
}
#else
static void writer_reclaim(struct tnode *t)
{
	tnode_reclaim(t);
}

static void quarantine_free(void)
{
}
#endif

/* --------------------------------------------------------------- phase 1 */

/* A node reached through the table must be live and carry the key. */
static int node_ok(struct cds_lfht_node *n, unsigned long key)
{
	struct tnode *t = to_tnode(n);

	return tnode_live(t) && t->key == key;
}

/* Keep a found node for a while inside the read-side section, then recheck. */
static int hold_and_check(struct cds_lfht_node *n, unsigned long key, unsigned long r)
{
	int i;

	if (!node_ok(n, key))
		return 0;
	for (i = 0; i < 200; i++)
		caa_cpu_relax();
	if (!(r & 63))
		sched_yield();
	return node_ok(n, key);
}

struct reader_arg {
	int id;
	unsigned long long rng;
	unsigned int *seen;	/* per traversal: generation stamp per key */
};

/* One traversal: stable keys exactly once, churned keys at most once. */
static void traverse_once(struct reader_arg *a, unsigned int gen)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;
	unsigned long total = P.stable + P.churn, stable_seen = 0, bad = 0, dups = 0;

	t_lock();
	cds_lfht_for_each(ht, &iter, n) {
		struct tnode *t = to_tnode(n);
		unsigned long k = t->key;

		if (!tnode_live(t) || k >= total) {
			bad++;
			continue;
		}
		if (a->seen[k] == gen) {
			dups++;
			continue;
		}
		a->seen[k] = gen;
		if (k < P.stable)
			stable_seen++;
	}
	t_reader_exit();
	count(&bad_nodes, bad);
	count(&trav_dups, dups);
	if (stable_seen != P.stable)
		count(&trav_stable_bad, 1);
	if (bad || dups || stable_seen != P.stable) {
		tap_diag("reader %d: traversal saw %lu of %lu stable keys, %lu duplicates, "
			"%lu bad nodes", a->id, stable_seen, P.stable, dups, bad);
		flag_stop_on_failure();
	}
}

static void *reader_thread(void *arg)
{
	struct reader_arg *a = (struct reader_arg *) arg;
	unsigned long lookups = 0, misses = 0, bad = 0, holds = 0, travs = 0;
	unsigned int gen = 0;

	T_FN(register_thread)();
	while (!t_load(&stop)) {
		unsigned long r = t_rand(&a->rng), key;
		struct cds_lfht_iter iter;
		struct cds_lfht_node *n;

		if (a->id == 0 && (r & 255) == 0) {
			traverse_once(a, ++gen);
			if (!travs++)
				t_gate_pass(&traversing);
			continue;
		}
		if (r & 1) {
			key = (r >> 8) % P.stable;
			t_lock();
			cds_lfht_lookup(ht, t_hash(key), t_match, &key, &iter);
			n = cds_lfht_iter_get_node(&iter);
			if (!n)
				misses++;
			else if (!node_ok(n, key))
				bad++;
			t_reader_exit();
		} else {
			key = P.stable + (r >> 8) % P.churn;
			t_lock();
			cds_lfht_lookup(ht, t_hash(key), t_match, &key, &iter);
			n = cds_lfht_iter_get_node(&iter);
			if (n) {
				holds++;
				if (!hold_and_check(n, key, r >> 20))
					bad++;
			}
			t_reader_exit();
		}
		lookups++;
		if (misses || bad) {
			flag_stop_on_failure();
			break;
		}
	}
	T_FN(unregister_thread)();
	count(&stable_misses, misses);
	count(&bad_nodes, bad);
	count(&n_lookups, lookups);
	count(&n_holds, holds);
	count(&n_traversals, travs);
	return NULL;
}

struct writer_arg {
	int id;
	unsigned long long rng;
};

/* One random update of a key in [first, first + range). */
static void random_update(unsigned long long *rng, unsigned long first, unsigned long range)
{
	unsigned long r = t_rand(rng), key = first + (r >> 8) % range;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;
	struct tnode *t;

	switch (r & 3) {
	case 0:
	case 1:		/* add_unique */
		t = tnode_new(key);
		t_lock();
		n = cds_lfht_add_unique(ht, t->hash, t_match, &key, &t->node);
		t_reader_exit();
		if (n != &t->node)
			free(t);	/* never published */
		break;
	case 2:		/* add_replace */
		t = tnode_new(key);
		t_lock();
		n = cds_lfht_add_replace(ht, t->hash, t_match, &key, &t->node);
		t_reader_exit();
		if (n)
			writer_reclaim(to_tnode(n));
		break;
	default:	/* del */
		t_lock();
		cds_lfht_lookup(ht, t_hash(key), t_match, &key, &iter);
		n = cds_lfht_iter_get_node(&iter);
		if (n && cds_lfht_del(ht, n) == 0) {
			t_reader_exit();
			writer_reclaim(to_tnode(n));
		} else {
			t_reader_exit();
		}
		break;
	}
}

static void *writer_thread(void *arg)
{
	struct writer_arg *a = (struct writer_arg *) arg;
	unsigned long ops = 0;

	T_FN(register_thread)();
	while (!t_load(&stop)) {
		random_update(&a->rng, P.stable, P.churn);
		ops++;
	}
	T_FN(unregister_thread)();
	count(&n_updates, ops);
	return NULL;
}

/*
 * Resize 1 -> 2 -> ... -> 2^max_order -> ... -> 1; stop early on a failure
 * or once deadline_ns (0: none) has passed.  Returns whether it got through.
 */
static int resize_cycle(int max_order, unsigned long long deadline_ns)
{
	int o;

	for (o = 1; o <= max_order; o++) {
		if (t_load(&stop) || (deadline_ns && t_now_ns() > deadline_ns))
			return 0;
		t_resize(ht, 1UL << o);
	}
	for (o = max_order - 1; o >= 0; o--) {
		if (t_load(&stop) || (deadline_ns && t_now_ns() > deadline_ns))
			return 0;
		t_resize(ht, 1UL << o);
	}
	return 1;
}

/* Once quiet: traversal, count_nodes and the split counters agree. */
static void check_quiet_table(const char *phase, int accounting)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;
	unsigned long counted, walked = 0, bad = 0;
	long before, after;

	t_lock();
	cds_lfht_for_each(ht, &iter, n) {
		walked++;
		if (!tnode_live(to_tnode(n)))
			bad++;
	}
	cds_lfht_count_nodes(ht, &before, &counted, &after);
	t_reader_exit();
	tap_ok(counted == walked && bad == 0,
		"%s, quiet: count_nodes %lu == traversal %lu, %lu bad nodes", phase, counted,
		walked, bad);
	if (accounting)
		tap_ok(before == (long) counted && after == (long) counted,
			"%s, quiet: split counters add up (%ld, %ld)", phase, before, after);
}

static void phase_stable(void)
{
	pthread_t tid[64];
	struct reader_arg ra[32];
	struct writer_arg wa[32];
	unsigned long k, found;
	unsigned long long start;
	int i, nthreads = 0, flags = CDS_LFHT_ACCOUNTING, cycles = 0;

	if (P.auto_resize)
		flags |= CDS_LFHT_AUTO_RESIZE;
	ht = cds_lfht_new_flavor(1, 1, 0, flags, HT_FLAVOR, NULL);
	if (!ht)
		tap_bail("cds_lfht_new_flavor failed");
	/* sized for the keys while they go in (a 1-bucket table is quadratic) */
	for (k = 1; k < P.stable + P.churn; k <<= 1)
		;
	t_resize(ht, k);
	for (k = 0; k < P.stable; k++)
		t_add(ht, tnode_new(k));

	t_store(&stop, 0);
	for (i = 0; i < P.readers; i++) {
		ra[i].id = i;
		ra[i].rng = 0x9e3779b97f4a7c15ULL * (i + 1);
		ra[i].seen = (unsigned int *) calloc(P.stable + P.churn, sizeof(unsigned int));
		tid[nthreads++] = t_thread_start(reader_thread, &ra[i]);
	}
	for (i = 0; i < P.writers; i++) {
		wa[i].id = i;
		wa[i].rng = 0xda942042e4dd58b5ULL * (i + 7);
		tid[nthreads++] = t_thread_start(writer_thread, &wa[i]);
	}

	start = t_now_ns();
	/*
	 * The traversals are checked during resizes: the cycles go on until
	 * reader 0 has done one, however late a loaded machine runs it.
	 */
	while (!t_load(&stop) && (cycles < P.cycles || t_ms_since(start) < P.min_ms ||
			(!t_gate_count(&traversing) && t_ms_since(start) < T_START_LIMIT_MS))) {
		if (!resize_cycle(P.max_order, 0))
			break;
		cycles++;
	}
	t_store(&stop, 1);
	T_FN(thread_offline)();
	for (i = 0; i < nthreads; i++)
		t_thread_join(tid[i]);
	T_FN(thread_online)();
	tap_diag("phase 1: %.0f ms, %d resize cycles to 2^%d, %lu lookups (%lu held churned "
		"nodes), %lu traversals, %lu updates", t_ms_since(start), cycles, P.max_order,
		n_lookups, n_holds, n_traversals, n_updates);

	tap_ok(stable_misses == 0, "phase 1: no lookup of a stable key missed (%lu misses)",
		stable_misses);
	tap_ok(bad_nodes == 0, "phase 1: every node reached was live, under its key "
		"(%lu poisoned or wrong nodes)", bad_nodes);
	tap_ok(trav_stable_bad == 0 && trav_dups == 0 && n_traversals > 0,
		"phase 1: %lu traversals during resizes saw every stable key exactly once, "
		"no key twice (%lu short, %lu duplicates)", n_traversals, trav_stable_bad,
		trav_dups);
	tap_ok(cycles >= P.cycles, "phase 1: %d full resize cycles 1 -> 2^%d -> 1", cycles,
		P.max_order);

	/* the cycles end at one bucket: make the quiet lookups cheap again */
	for (k = 1; k < 2 * (P.stable + P.churn); k <<= 1)
		;
	t_resize(ht, k);
	found = 0;
	for (k = 0; k < P.stable; k++)
		found += t_lookup(ht, k) != NULL;
	tap_ok(found == P.stable, "phase 1, quiet: all %lu stable keys present", P.stable);
	check_quiet_table("phase 1", 1);

	start = t_now_ns();
	t_empty_table(ht);
	t_barrier();
	quarantine_free();
	tap_ok(t_destroy(ht, NULL) == 0, "phase 1: destroy");
	tap_diag("phase 1: emptied and destroyed in %.0f ms", t_ms_since(start));
	for (i = 0; i < P.readers; i++)
		free(ra[i].seen);
}

/* --------------------------------------------------------------- phase 2 */

enum { UNIQUE_KEYS = 64 };

static unsigned long uniq_dups, uniq_next_dup, uniq_bad;

static void *unique_reader(void *arg)
{
	unsigned long long rng = 12345;
	unsigned long dups = 0, nextdup = 0, bad = 0;

	(void) arg;
	T_FN(register_thread)();
	while (!t_load(&stop)) {
		unsigned char seen[UNIQUE_KEYS];
		struct cds_lfht_iter iter;
		struct cds_lfht_node *n;
		unsigned long key = t_rand(&rng) % UNIQUE_KEYS;

		memset(seen, 0, sizeof(seen));
		t_lock();
		cds_lfht_for_each(ht, &iter, n) {
			struct tnode *t = to_tnode(n);

			if (!tnode_live(t) || t->key >= UNIQUE_KEYS)
				bad++;
			else if (seen[t->key]++)
				dups++;
		}
		cds_lfht_lookup(ht, t_hash(key), t_match, &key, &iter);
		if (cds_lfht_iter_get_node(&iter)) {
			cds_lfht_next_duplicate(ht, t_match, &key, &iter);
			if (cds_lfht_iter_get_node(&iter))
				nextdup++;
		}
		t_reader_exit();
		if (dups || nextdup || bad) {
			flag_stop_on_failure();
			break;
		}
	}
	T_FN(unregister_thread)();
	count(&uniq_dups, dups);
	count(&uniq_next_dup, nextdup);
	count(&uniq_bad, bad);
	return NULL;
}

static void *unique_writer(void *arg)
{
	struct writer_arg *a = (struct writer_arg *) arg;
	unsigned long ops = 0;

	T_FN(register_thread)();
	while (!t_load(&stop)) {
		random_update(&a->rng, 0, UNIQUE_KEYS);
		ops++;
	}
	T_FN(unregister_thread)();
	count(&n_updates, ops);
	return NULL;
}

static void phase_unique(void)
{
	pthread_t tid[64];
	struct writer_arg wa[32];
	unsigned long long start;
	unsigned char seen[UNIQUE_KEYS];
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;
	unsigned long dups = 0;
	int i, nthreads = 0, rounds = 0, flags = CDS_LFHT_ACCOUNTING;

	if (P.auto_resize)
		flags |= CDS_LFHT_AUTO_RESIZE;
	ht = cds_lfht_new_flavor(1, 1, 0, flags, HT_FLAVOR, NULL);
	if (!ht)
		tap_bail("cds_lfht_new_flavor failed");
	n_updates = 0;
	t_store(&stop, 0);
	tid[nthreads++] = t_thread_start(unique_reader, NULL);
	for (i = 0; i < (P.writers > 1 ? P.writers : 2); i++) {
		wa[i].id = i;
		wa[i].rng = 0x51ed270b27a3f1c9ULL * (i + 3);
		tid[nthreads++] = t_thread_start(unique_writer, &wa[i]);
	}
	start = t_now_ns();
	while (resize_cycle(8, start + (unsigned long long) P.unique_ms * 1000000ULL))
		rounds++;
	t_store(&stop, 1);
	T_FN(thread_offline)();
	for (i = 0; i < nthreads; i++)
		t_thread_join(tid[i]);
	T_FN(thread_online)();
	tap_diag("phase 2: %.0f ms, %lu updates on %d keys, %d resize cycles to 2^8",
		t_ms_since(start), n_updates, UNIQUE_KEYS, rounds);

	tap_ok(uniq_dups == 0, "phase 2: no traversal saw a key twice (%lu)", uniq_dups);
	tap_ok(uniq_next_dup == 0, "phase 2: next_duplicate never found a second node (%lu)",
		uniq_next_dup);
	tap_ok(uniq_bad == 0, "phase 2: every node reached was live (%lu bad)", uniq_bad);

	memset(seen, 0, sizeof(seen));
	t_lock();
	cds_lfht_for_each(ht, &iter, n)
		if (seen[to_tnode(n)->key % UNIQUE_KEYS]++)
			dups++;
	t_reader_exit();
	tap_ok(dups == 0, "phase 2, quiet: each key at most once in the table");
	check_quiet_table("phase 2", 1);
	t_empty_table(ht);
	t_barrier();
	quarantine_free();
	tap_ok(t_destroy(ht, NULL) == 0, "phase 2: destroy");
}

/* --------------------------------------------------------------- phase 3 */

static struct tnode **race_nodes;
static int *race_result[2];
static int race_gate[2];	/* iteration each thread has reached */

/* Spin until the other thread reached iteration i, yielding now and then. */
static void race_meet(int self, int i)
{
	unsigned long spins = 0;

	t_store(&race_gate[self], i);
	while (t_load(&race_gate[!self]) < i) {
		if (++spins % 256 == 0)
			sched_yield();
		else
			caa_cpu_relax();
	}
}

static void *race_thread(void *arg)
{
	int self = (int) (long) arg, i;

	T_FN(register_thread)();
	for (i = 1; i <= P.del_iters; i++) {
		race_meet(self, i);
		t_lock();
		race_result[self][i - 1] = cds_lfht_del(ht, &race_nodes[i - 1]->node);
		t_reader_exit();
	}
	T_FN(unregister_thread)();
	return NULL;
}

static void phase_del_race(void)
{
	pthread_t tid[2];
	unsigned long both = 0, neither = 0, other = 0;
	unsigned long long start;
	long i;

	ht = cds_lfht_new_flavor(1UL << 14, 1, 0, CDS_LFHT_ACCOUNTING, HT_FLAVOR, NULL);
	race_nodes = (struct tnode **) calloc(P.del_iters, sizeof(*race_nodes));
	race_result[0] = (int *) calloc(P.del_iters, sizeof(int));
	race_result[1] = (int *) calloc(P.del_iters, sizeof(int));
	if (!ht || !race_nodes || !race_result[0] || !race_result[1])
		tap_bail("phase 3: out of memory");
	for (i = 0; i < P.del_iters; i++) {
		race_nodes[i] = tnode_new(i);
		t_add(ht, race_nodes[i]);
	}
	race_gate[0] = race_gate[1] = 0;
	start = t_now_ns();
	tid[0] = t_thread_start(race_thread, (void *) 0L);
	tid[1] = t_thread_start(race_thread, (void *) 1L);
	T_FN(thread_offline)();
	t_thread_join(tid[0]);
	t_thread_join(tid[1]);
	T_FN(thread_online)();
	for (i = 0; i < P.del_iters; i++) {
		int a = race_result[0][i], b = race_result[1][i];

		if (a == 0 && b == 0)
			both++;
		else if (a == -ENOENT && b == -ENOENT)
			neither++;
		else if (!((a == 0 && b == -ENOENT) || (a == -ENOENT && b == 0)))
			other++;
		tnode_reclaim(race_nodes[i]);
	}
	tap_diag("phase 3: %ld racing pairs of del in %.0f ms", P.del_iters, t_ms_since(start));
	tap_ok(both == 0 && neither == 0 && other == 0,
		"phase 3: two threads deleting one node: exactly one gets 0 (both: %lu, "
		"neither: %lu, other results: %lu)", both, neither, other);
	tap_ok(t_count(ht, NULL, NULL) == 0, "phase 3: the table is empty afterwards");
	t_barrier();
	tap_ok(t_destroy(ht, NULL) == 0, "phase 3: destroy");
	free(race_nodes);
	free(race_result[0]);
	free(race_result[1]);
}

int main(int argc, char **argv)
{
	int phases;

	P.max_order = (int) t_arg(argc, argv, "max-order", 16);
	P.cycles = (int) t_arg(argc, argv, "cycles", 1);
	P.stable = (unsigned long) t_arg(argc, argv, "stable", 2048);
	P.churn = (unsigned long) t_arg(argc, argv, "churn", 2048);
	P.readers = (int) t_arg(argc, argv, "readers", 2);
	P.writers = (int) t_arg(argc, argv, "writers", 2);
	P.min_ms = t_arg(argc, argv, "min-ms", 300);
	P.unique_ms = t_arg(argc, argv, "unique-ms", 300);
	P.del_iters = t_arg(argc, argv, "del-iters", 10000);
	P.auto_resize = (int) t_arg(argc, argv, "auto", 0);
	phases = (int) t_arg(argc, argv, "phases", 7);
	if (P.readers < 1 || P.readers > 32 || P.writers < 0 || P.writers > 32 || P.stable < 1
			|| P.churn < 1)
		tap_bail("bad arguments");

	T_FN(register_thread)();
	tap_diag("flavor %s, %s%s: %d readers, %d writers, %lu stable + %lu churned keys, "
		"resizes to 2^%d%s", T_FLAVOR, T_MODE,
#ifdef TEST_SEED_BUG
		" (SEEDED BUG: no grace period before reclaim; must fail)",
#else
		"",
#endif
		P.readers, P.writers, P.stable, P.churn, P.max_order,
		P.auto_resize ? ", AUTO_RESIZE" : "");

	if (phases & 1)
		phase_stable();
	if (phases & 2)
		phase_unique();
	if (phases & 4)
		phase_del_race();
	T_FN(unregister_thread)();
	return tap_done();
}
