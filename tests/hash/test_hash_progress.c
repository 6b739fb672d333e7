// SPDX-License-Identifier: MIT
/*
 * Progress of the hash table with a thread frozen mid-operation (the
 * guarantees of CDS.md: lookups wait-free, updates lock-free, resizes
 * concurrent with both).  A stress test, not a benchmark.
 *
 * Threads: a resizer (cds_lfht_resize between 2^3 and 2^13 buckets, in a
 * loop: one pass links or unlinks thousands of bucket nodes), and UPDATERS
 * updaters, each looking up keys of every updater as fast as it can, and
 * adding or deleting a node of its own keys at most once per UPDATE_NS.
 * The main thread freezes a victim again and again for --ms (default 1500
 * ms, longer until each victim was caught MIN_MID times inside its
 * operation unless a round already failed, MAX_RUN_MS at most): it sends the victim SIGUSR2, whose handler blocks until thawed, so
 * the victim stops wherever it was: inside a grow or shrink pass (holding
 * the resize lock, resize_seq odd, some bucket nodes linked or unlinked),
 * or an updater inside its read-side section between any two instructions
 * of an add, a del or a lookup (the signal is sent once the victim says it
 * is inside its operation, and mostly lands there).  Victims alternate between the resizer and
 * updater 0.  While the victim is frozen, every other updater must complete
 * MIN_LOOKUPS lookups and MIN_UPDATES updates within DEADLINE_MS, or the
 * run fails, naming the victim and where it stood.  Each victim says whether
 * the freeze caught it inside its operation (inside cds_lfht_resize, inside
 * a read-side section); the run needs at least MIN_MID such freezes of each.
 *
 * A frozen victim inside a read-side section (or the resizer frozen in a
 * grace period) holds up grace periods, so nothing here waits for one: a
 * deleted node is never reused (each updater has a fresh node for every add
 * the run can make, POOL_PER_MS per millisecond), and freed at the end.
 *
 * The seeded control (TEST_SEED_LOCK, test hash-progress-seeded-lock-*,
 * must fail): every table operation and every resize takes one global mutex,
 * as a table that locked on those paths would; a victim frozen inside
 * one stops everybody.
 */
#include <stdint.h>

#include "hash-test.h"

#include <linux/futex.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>

enum {
	UPDATERS = 3,
	KEYS = 512,		/* per updater */
	UPDATE_NS = 10000,	/* an updater's updates are this far apart */
	POOL_PER_MS = 60,	/* adds an updater may make per ms of the run */
	MIN_LOOKUPS = 100,
	MIN_UPDATES = 20,
	DEADLINE_MS = 5000,	/* generous: the bound of a wait that ends on progress */
	MIN_MID = 5,
	/* The run goes on past --ms until each victim has MIN_MID freezes
	 * inside its operation (a slow machine or an emulator does fewer
	 * rounds per second), but never past this. */
	MAX_RUN_MS = 20000,
};

struct pnode {
	struct cds_lfht_node node;
	unsigned long key;
};

struct updater {
	pthread_t tid;
	int id;
	struct pnode *pool;		/* never reused: see the top */
	long pool_size, pool_used;
	struct pnode *present[KEYS];
	long lookups, updates;		/* completed, relaxed */
	int in_op;
};

static struct cds_lfht *ht;
static struct updater upd[UPDATERS];
static pthread_t resizer_tid;
static int resizer_in_op;
static long resizes;
static int stop;
static int running;		/* start gate: first update of each updater, first resize */

#ifdef TEST_SEED_LOCK
static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
# define SEED_LOCK()	pthread_mutex_lock(&big_lock)
# define SEED_UNLOCK()	pthread_mutex_unlock(&big_lock)
#else
# define SEED_LOCK()	do { } while (0)
# define SEED_UNLOCK()	do { } while (0)
#endif

/* ---- freezing ------------------------------------------------------------ */

static int thaw;		/* futex word: 1 lets the victim go */
static int frozen;		/* the victim is in the handler */
static int frozen_mid;		/* its in_op flag when it stopped */
static __thread int *my_in_op;

static void freeze_handler(int sig)
{
	int saved = errno;

	(void) sig;
	uatomic_set(&frozen_mid, my_in_op ? uatomic_read(my_in_op) : 0);
	uatomic_store(&frozen, 1, CMM_RELEASE);
	while (!uatomic_load(&thaw, CMM_ACQUIRE))
		(void) syscall(SYS_futex, &thaw, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	uatomic_store(&frozen, 0, CMM_RELEASE);
	errno = saved;
}

/* ---- updaters ------------------------------------------------------------- */

static int pmatch(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct pnode, node)->key == *(const unsigned long *) key;
}

static void *updater(void *arg)
{
	struct updater *u = (struct updater *) arg;
	/* 64-bit state on every target: the shifts below take its high bits. */
	uint64_t r = 0x9e3779b9ULL * (uint64_t) (u->id + 1);
	unsigned long k, key;
	unsigned long long next_update = 0, now;
	struct cds_lfht_iter iter;
	struct pnode *p;
	bool update;
	int i;

	T_FN(register_thread)();
	my_in_op = &u->in_op;
	while (!uatomic_load(&stop, CMM_RELAXED)) {
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		k = (unsigned long) ((r >> 33) % KEYS);
		now = t_now_ns();
		update = now >= next_update;
		if (update)
			next_update = now + UPDATE_NS;
		p = NULL;
		SEED_LOCK();
		uatomic_set(&u->in_op, 1);
		t_lock();
		/* A lookup of some updater's key. */
		key = (unsigned long) (((r >> 17) % UPDATERS) * KEYS + (r >> 40) % KEYS);
		cds_lfht_lookup(ht, t_hash(key), pmatch, &key, &iter);
		/* An update of one of ours, now and then. */
		key = (unsigned long) u->id * KEYS + k;
		if (update && (p = u->present[k]) != NULL) {
			if (cds_lfht_del(ht, &p->node))
				tap_bail("updater %d: del of its own node failed", u->id);
			u->present[k] = NULL;
		} else if (update && u->pool_used < u->pool_size) {
			p = &u->pool[u->pool_used++];
			p->key = key;
			cds_lfht_add(ht, t_hash(key), &p->node);
			u->present[k] = p;
		}
		t_reader_exit();
		uatomic_set(&u->in_op, 0);
		SEED_UNLOCK();
		uatomic_set(&u->lookups, u->lookups + 1);
		if (p) {
			uatomic_set(&u->updates, u->updates + 1);
			if (u->updates == 1)
				t_gate_pass(&running);
		}
	}
	/* Empty the table of ours (main frees the pool after a grace period). */
	t_lock();
	for (i = 0; i < KEYS; i++)
		if (u->present[i])
			(void) cds_lfht_del(ht, &u->present[i]->node);
	t_reader_exit();
	T_FN(unregister_thread)();
	return NULL;
}

static void *resizer(void *arg caa_unused)
{
	T_FN(register_thread)();
	my_in_op = &resizer_in_op;
	while (!uatomic_load(&stop, CMM_RELAXED)) {
		SEED_LOCK();
		uatomic_set(&resizer_in_op, 1);
		t_resize(ht, (resizes & 1) ? 1UL << 3 : 1UL << 13);
		uatomic_set(&resizer_in_op, 0);
		SEED_UNLOCK();
		uatomic_set(&resizes, resizes + 1);
		if (resizes == 1)
			t_gate_pass(&running);
	}
	T_FN(unregister_thread)();
	return NULL;
}

/* ---- the freezer ------------------------------------------------------------ */

/*
 * Freeze victim, check that every updater but skip makes progress, thaw.
 * Returns 1 if they did, 0 if not; *mid says where the victim stood.
 */
static int freeze_round(pthread_t victim, const int *in_op, int skip, const char *name,
		int *mid)
{
	long look0[UPDATERS], upd0[UPDATERS];
	unsigned long long t0;
	int i, ok = 0, all;

	uatomic_set(&thaw, 0);
	/* Aim: signal while it is inside its operation (it may leave before). */
	t0 = t_now_ns();
	while (!uatomic_read(in_op) && t_ms_since(t0) < 100)
		caa_cpu_relax();
	pthread_kill(victim, SIGUSR2);
	t0 = t_now_ns();
	while (!uatomic_load(&frozen, CMM_ACQUIRE)) {
		if (t_ms_since(t0) > T_START_LIMIT_MS)
			tap_bail("the %s did not take its freeze signal in %d ms", name,
				T_START_LIMIT_MS);
		t_sleep_ms(0);
	}
	*mid = uatomic_read(&frozen_mid);
	for (i = 0; i < UPDATERS; i++) {
		look0[i] = uatomic_read(&upd[i].lookups);
		upd0[i] = uatomic_read(&upd[i].updates);
	}
	t0 = t_now_ns();
	while (t_ms_since(t0) < DEADLINE_MS) {
		all = 1;
		for (i = 0; i < UPDATERS; i++) {
			if (i == skip)
				continue;
			if (uatomic_read(&upd[i].lookups) - look0[i] < MIN_LOOKUPS
					|| uatomic_read(&upd[i].updates) - upd0[i] < MIN_UPDATES)
				all = 0;
		}
		if (all) {
			ok = 1;
			break;
		}
		t_sleep_ms(1);
	}
	if (!ok) {
		for (i = 0; i < UPDATERS; i++)
			if (i != skip)
				tap_diag("with the %s frozen (%s its operation): updater %d did "
					"%ld lookups and %ld updates in %d ms", name,
					*mid ? "inside" : "outside", i,
					uatomic_read(&upd[i].lookups) - look0[i],
					uatomic_read(&upd[i].updates) - upd0[i], DEADLINE_MS);
	}
	/* Release: pairs with the handler's acquire. */
	uatomic_store(&thaw, 1, CMM_RELEASE);
	(void) syscall(SYS_futex, &thaw, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	while (uatomic_load(&frozen, CMM_ACQUIRE))
		t_sleep_ms(0);
	return ok;
}

int main(int argc, char **argv)
{
	long run_ms = t_arg(argc, argv, "ms", 1500);
	long rounds[2] = { 0, 0 }, mids[2] = { 0, 0 }, fails[2] = { 0, 0 };
	static const char *const names[2] = { "resizer", "updater 0" };
	unsigned long long start;
	struct sigaction sa;
	int i, v, mid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = freeze_handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR2, &sa, NULL);
	if (run_ms > MAX_RUN_MS)
		run_ms = MAX_RUN_MS;
	tap_diag("flavor %s: a resizer and %d updaters, freezing for %ld ms", T_FLAVOR,
		UPDATERS, run_ms);

	T_FN(register_thread)();
	ht = cds_lfht_new_flavor(1UL << 3, 1, 0, 0, HT_FLAVOR, NULL);
	if (!ht)
		tap_bail("cds_lfht_new_flavor failed");
	for (i = 0; i < UPDATERS; i++) {
		upd[i].id = i;
		upd[i].pool_size = (MAX_RUN_MS + 1000) * POOL_PER_MS;
		upd[i].pool = (struct pnode *) calloc((size_t) upd[i].pool_size, sizeof(struct pnode));
		if (!upd[i].pool)
			tap_bail("out of memory");
		upd[i].tid = t_thread_start(updater, &upd[i]);
	}
	resizer_tid = t_thread_start(resizer, NULL);

	T_FN(thread_offline)();
	/* Freeze threads that run: every one has made its first update or resize. */
	t_gate_wait(&running, UPDATERS + 1, "updaters and resizer");
	start = t_now_ns();
	for (v = 0; t_ms_since(start) < (double) run_ms ||
		    ((mids[0] < MIN_MID || mids[1] < MIN_MID || uatomic_read(&resizes) < 4) &&
		     !fails[0] && !fails[1] && t_ms_since(start) < MAX_RUN_MS);
	     v ^= 1) {
		if (!freeze_round(v ? upd[0].tid : resizer_tid, v ? &upd[0].in_op : &resizer_in_op,
				v ? 0 : -1, names[v], &mid))
			fails[v]++;
		rounds[v]++;
		mids[v] += mid;
	}
	uatomic_set(&stop, 1);
	t_thread_join(resizer_tid);
	for (i = 0; i < UPDATERS; i++)
		t_thread_join(upd[i].tid);
	T_FN(synchronize_rcu)();
	T_FN(thread_online)();
	for (i = 0; i < UPDATERS; i++)
		free(upd[i].pool);

	for (v = 0; v < 2; v++) {
		tap_ok(!fails[v], "%s frozen %ld times (%ld inside its operation): the other "
			"updaters completed %d lookups and %d updates each within %d ms every "
			"time (%ld times not)", names[v], rounds[v], mids[v], MIN_LOOKUPS,
			MIN_UPDATES, DEADLINE_MS, fails[v]);
		tap_ok(mids[v] >= MIN_MID, "%s: %ld freezes caught it inside its operation "
			"(at least %d)", names[v], mids[v], MIN_MID);
	}
	tap_ok(resizes >= 4, "the resizer completed %ld resizes", resizes);
	tap_ok(cds_lfht_destroy(ht, NULL) == 0, "the table ends empty and is destroyed");
	T_FN(unregister_thread)();
	return tap_done();
}
