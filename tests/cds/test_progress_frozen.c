// SPDX-License-Identifier: MIT
/*
 * Progress of the stacks and queues with a thread frozen mid-operation
 * (the guarantees of CDS.md: wfstack and wfcqueue pushes wait-free,
 * lfstack lock-free).  A stress test, not a benchmark.  Three parts, each run
 * ROUNDS times:
 *
 *  wfstack  The main thread pushes node F by hand and stops between the
 *           exchange of the head and the link (W2 and W3 of
 *           urcu/static/wfstack.h), as a pusher preempted there.  While it
 *           is stopped, PUSHERS threads must complete MIN_OPS pushes each
 *           within DEADLINE_MS, and a consumer doing cds_wfs_pop_blocking()
 *           pops what they push but never gets F (F is not linked, nothing
 *           below it is reachable); once the main thread links F, the
 *           consumer must pop F within DEADLINE_MS.
 *  wfcqueue The same with an enqueue stopped between the exchange of the
 *           tail and the link (E2 and E3 of urcu/static/wfcqueue.h), and a
 *           consumer doing cds_wfcq_dequeue_blocking(): it gets every node
 *           enqueued before F, never F while F is unlinked, and F within
 *           DEADLINE_MS once linked.
 *  lfstack  PUSHERS threads push and POPPERS threads pop with the RCU
 *           discipline (__cds_lfs_pop() in a read-side section; popped
 *           nodes are never reused, so nothing waits for a grace period).
 *           The main thread freezes popper 0 with a signal whose handler
 *           blocks until thawed, aimed at the moment it is inside its pop
 *           (between its read of the head and its compare-and-swap, for
 *           most of the freezes); the other threads must complete MIN_OPS
 *           operations each within DEADLINE_MS.
 *
 * The seeded control (TEST_SEED_LOCK, test progress-frozen-seeded-lock,
 * must fail): the operations take a lock, as lock-based structures would:
 * the hand-made push and enqueue hold a global mutex across their stop,
 * which the pushers take too, and the lfstack poppers use
 * cds_lfs_pop_blocking() (the stack's mutex), which the frozen one holds.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <urcu/urcu-memb.h>
#include <urcu/wfstack.h>
#include <urcu/wfcqueue.h>
#include <urcu/lfstack.h>

#include "tap.h"
#include "test-time.h"

enum {
	PUSHERS = 2,
	POPPERS = 2,
	ROUNDS = 20,
	MIN_OPS = 50,
	DEADLINE_MS = 5000,	/* generous: the bound of a wait that ends on progress */
	START_MS = T_START_LIMIT_MS,	/* threads' first operation (load, emulation) */
	POOL = 1 << 20,		/* nodes per thread per part: never reused */
	PUSH_NS = 1000,		/* a pusher's pushes are at least this far apart */
};

struct item {
	union {
		struct cds_wfs_node wfs;
		struct cds_wfcq_node wfcq;
		struct cds_lfs_node lfs;
	} u;
};

static int stop;		/* the current part is over */
static long ops[PUSHERS + POPPERS];	/* completed, relaxed */
static int fails;

#ifdef TEST_SEED_LOCK
static pthread_mutex_t seed_lock = PTHREAD_MUTEX_INITIALIZER;
# define SEED_LOCK()	pthread_mutex_lock(&seed_lock)
# define SEED_UNLOCK()	pthread_mutex_unlock(&seed_lock)
#else
# define SEED_LOCK()	do { } while (0)
# define SEED_UNLOCK()	do { } while (0)
#endif

static struct item *pool_of(int t)
{
	static struct item *pools[PUSHERS + POPPERS];

	if (!pools[t]) {
		pools[t] = calloc(POOL, sizeof(struct item));
		if (!pools[t])
			tap_bail("out of memory");
	}
	return pools[t];
}

/*
 * Wait until *next, then set the next slot PUSH_NS later.  Pushers are paced
 * so that none monopolises the head: under qemu-user on a loaded host an
 * unpaced pusher made a million pushes in the 1000 ms while the other made
 * none -- a measure of the emulator's and the scheduler's fairness, not of
 * the stopped push.  The pool then lasts the part.
 */
static void pace(unsigned long long *next)
{
	unsigned long long now;

	while ((now = t_now_ns()) < *next)
		caa_cpu_relax();
	*next = now + PUSH_NS;
}

/* Every thread in ids[0..n) completes MIN_OPS operations after *base within DEADLINE_MS. */
static bool others_progress(const long *base, const int *ids, int n, const char *what)
{
	unsigned long long t0 = t_now_ns();
	int i, done;

	for (;;) {
		done = 0;
		for (i = 0; i < n; i++)
			done += uatomic_read(&ops[ids[i]]) - base[ids[i]] >= MIN_OPS;
		if (done == n)
			return true;
		if (t_ms_since(t0) > DEADLINE_MS)
			break;
		t_sleep_ms(1);
	}
	for (i = 0; i < n; i++)
		tap_diag("%s: thread %d completed %ld operations in %d ms", what, ids[i],
			uatomic_read(&ops[ids[i]]) - base[ids[i]], DEADLINE_MS);
	return false;
}

/*
 * Every thread in ids[0..n) has completed an operation: the deadlines above
 * then measure progress, not how long threads take to start (long under
 * qemu-user on a loaded machine).  Not starting in START_MS is a failure.
 */
static void wait_started(const int *ids, int n)
{
	unsigned long long t0 = t_now_ns();
	int i;

	for (i = 0; i < n; i++) {
		while (!uatomic_read(&ops[ids[i]])) {
			if (t_ms_since(t0) > START_MS)
				tap_bail("thread %d did no operation in %d ms", ids[i], START_MS);
			t_sleep_ms(1);
		}
	}
}

static void snapshot(long *base)
{
	int i;

	for (i = 0; i < PUSHERS + POPPERS; i++)
		base[i] = uatomic_read(&ops[i]);
}

/* ---- wfstack ------------------------------------------------------------- */

static struct cds_wfs_stack wfs;

static void *wfs_pusher(void *arg)
{
	int t = (int) (long) arg;
	struct item *pool = pool_of(t);
	unsigned long long next = 0;
	long n = 0;

	while (!uatomic_load(&stop, CMM_RELAXED) && n < POOL) {
		pace(&next);
		SEED_LOCK();
		cds_wfs_node_init(&pool[n].u.wfs);
		cds_wfs_push(&wfs, &pool[n++].u.wfs);
		SEED_UNLOCK();
		uatomic_set(&ops[t], n);
		if (!(n & 63))
			sched_yield();	/* 2 CPUs: let the others run */
	}
	return NULL;
}

static struct cds_wfs_node *wfs_target;
static int wfs_got_target;

static void *wfs_consumer(void *arg caa_unused)
{
	struct cds_wfs_node *n;

	while (!uatomic_load(&wfs_got_target, CMM_RELAXED)) {
		n = cds_wfs_pop_blocking(&wfs);
		if (n && n == uatomic_read(&wfs_target))
			uatomic_set(&wfs_got_target, 1);
		if (!n)
			t_sleep_ms(0);
	}
	return NULL;
}

static void part_wfstack(void)
{
	static struct item f[ROUNDS];
	struct cds_wfs_head *old;
	pthread_t p[PUSHERS], c;
	long base[PUSHERS + POPPERS];
	int ids[PUSHERS], r, i, bad_push = 0, early = 0, late = 0;
	unsigned long long t0;

	for (r = 0; r < ROUNDS && !(bad_push + early + late); r++) {
		cds_wfs_init(&wfs);
		memset(ops, 0, sizeof(ops));
		uatomic_set(&stop, 0);
		uatomic_set(&wfs_got_target, 0);
		uatomic_set(&wfs_target, &f[r].u.wfs);
		for (i = 0; i < PUSHERS; i++) {
			ids[i] = i;
			if (pthread_create(&p[i], NULL, wfs_pusher, (void *) (long) i))
				tap_bail("pthread_create");
		}
		wait_started(ids, PUSHERS);
		/* The stopped push: W1, W2 ... */
		SEED_LOCK();
		f[r].u.wfs.next = NULL;
		old = uatomic_xchg(&wfs.head, (struct cds_wfs_head *) &f[r].u.wfs);
		snapshot(base);
		if (pthread_create(&c, NULL, wfs_consumer, NULL))
			tap_bail("pthread_create");
		if (!others_progress(base, ids, PUSHERS, "wfstack, a push stopped"))
			bad_push++;
		if (uatomic_read(&wfs_got_target))
			early++;
		/*
		 * The pushers have shown their progress: stop them before the
		 * link.  The stack is LIFO, so the pop reaches the node only
		 * after every node pushed above it; pushers still running
		 * would make the deadline below measure a race between them
		 * and the consumer (lost by the consumer under emulation),
		 * not whether the pop waiting on the node returns it.
		 */
		uatomic_set(&stop, 1);
		/* ... W3 (release: pairs with the pop's acquire load of next). */
		uatomic_store(&f[r].u.wfs.next, &old->node, CMM_RELEASE);
		SEED_UNLOCK();
		for (i = 0; i < PUSHERS; i++)
			pthread_join(p[i], NULL);
		t0 = t_now_ns();
		while (!uatomic_read(&wfs_got_target) && t_ms_since(t0) < DEADLINE_MS)
			t_sleep_ms(0);
		if (!uatomic_read(&wfs_got_target))
			late++;
		uatomic_set(&wfs_got_target, 1);	/* let the consumer go in any case */
		pthread_join(c, NULL);
		cds_wfs_destroy(&wfs);
	}
	fails += bad_push + early + late;
	tap_ok(!bad_push, "wfstack: with a push stopped between its exchange and its link, "
		"the other pushers completed %d pushes each within %d ms (%d rounds; a part stops "
		"at its first failure)", MIN_OPS, DEADLINE_MS, r);
	tap_ok(!early, "wfstack: the blocking pop never returned the unlinked node");
	tap_ok(!late, "wfstack: once linked, the blocking pop returned it within %d ms",
		DEADLINE_MS);
}

/* ---- wfcqueue --------------------------------------------------------------- */

static struct cds_wfcq_head wq_head;
static struct cds_wfcq_tail wq_tail;

static void *wfcq_enqueuer(void *arg)
{
	int t = (int) (long) arg;
	struct item *pool = pool_of(t);
	unsigned long long next = 0;
	long n = 0;

	while (!uatomic_load(&stop, CMM_RELAXED) && n < POOL) {
		pace(&next);
		SEED_LOCK();
		cds_wfcq_node_init(&pool[n].u.wfcq);
		cds_wfcq_enqueue(&wq_head, &wq_tail, &pool[n++].u.wfcq);
		SEED_UNLOCK();
		uatomic_set(&ops[t], n);
		if (!(n & 63))
			sched_yield();	/* 2 CPUs: let the others run */
	}
	return NULL;
}

static struct cds_wfcq_node *wfcq_target;
static int wfcq_got_target;

static void *wfcq_consumer(void *arg caa_unused)
{
	struct cds_wfcq_node *n;

	while (!uatomic_load(&wfcq_got_target, CMM_RELAXED)) {
		n = cds_wfcq_dequeue_blocking(&wq_head, &wq_tail);
		if (n && n == uatomic_read(&wfcq_target))
			uatomic_set(&wfcq_got_target, 1);
		if (!n)
			t_sleep_ms(0);
	}
	return NULL;
}

static void part_wfcqueue(void)
{
	static struct item f[ROUNDS];
	struct cds_wfcq_node *prev;
	pthread_t p[PUSHERS], c;
	long base[PUSHERS + POPPERS];
	int ids[PUSHERS], r, i, bad_push = 0, early = 0, late = 0;
	unsigned long long t0;

	for (r = 0; r < ROUNDS && !(bad_push + early + late); r++) {
		cds_wfcq_init(&wq_head, &wq_tail);
		memset(ops, 0, sizeof(ops));
		uatomic_set(&stop, 0);
		uatomic_set(&wfcq_got_target, 0);
		uatomic_set(&wfcq_target, &f[r].u.wfcq);
		if (pthread_create(&c, NULL, wfcq_consumer, NULL))
			tap_bail("pthread_create");
		for (i = 0; i < PUSHERS; i++) {
			ids[i] = i;
			if (pthread_create(&p[i], NULL, wfcq_enqueuer, (void *) (long) i))
				tap_bail("pthread_create");
		}
		wait_started(ids, PUSHERS);
		/* The stopped enqueue: E1, E2 ... */
		SEED_LOCK();
		f[r].u.wfcq.next = NULL;
		prev = uatomic_xchg(&wq_tail.p, &f[r].u.wfcq);
		snapshot(base);
		if (!others_progress(base, ids, PUSHERS, "wfcqueue, an enqueue stopped"))
			bad_push++;
		if (uatomic_read(&wfcq_got_target))
			early++;
		/* ... E3 (release: pairs with the dequeuer's acquire load of next). */
		uatomic_store(&prev->next, &f[r].u.wfcq, CMM_RELEASE);
		SEED_UNLOCK();
		t0 = t_now_ns();
		while (!uatomic_read(&wfcq_got_target) && t_ms_since(t0) < DEADLINE_MS)
			t_sleep_ms(0);
		if (!uatomic_read(&wfcq_got_target))
			late++;
		uatomic_set(&stop, 1);
		for (i = 0; i < PUSHERS; i++)
			pthread_join(p[i], NULL);
		uatomic_set(&wfcq_got_target, 1);	/* let the consumer go in any case */
		pthread_join(c, NULL);
		cds_wfcq_destroy(&wq_head, &wq_tail);
	}
	fails += bad_push + early + late;
	tap_ok(!bad_push, "wfcqueue: with an enqueue stopped between its exchange and its "
		"link, the other enqueuers completed %d enqueues each within %d ms (%d rounds; a "
		"part stops at its first failure)", MIN_OPS, DEADLINE_MS, r);
	tap_ok(!early, "wfcqueue: the blocking dequeue never returned the unlinked node");
	tap_ok(!late, "wfcqueue: once linked, the blocking dequeue returned it within %d ms",
		DEADLINE_MS);
}

/* ---- lfstack ------------------------------------------------------------------ */

static struct cds_lfs_stack lfs;
static int popper0_in_pop;
static int thaw, frozen, frozen_mid;

static void freeze_handler(int sig)
{
	int saved = errno;

	(void) sig;
	uatomic_set(&frozen_mid, uatomic_read(&popper0_in_pop));
	uatomic_store(&frozen, 1, CMM_RELEASE);
	/* Acquire: pairs with the main thread's release of thaw. */
	while (!uatomic_load(&thaw, CMM_ACQUIRE))
		(void) syscall(SYS_futex, &thaw, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	uatomic_store(&frozen, 0, CMM_RELEASE);
	errno = saved;
}

static void *lfs_pusher(void *arg)
{
	int t = (int) (long) arg;
	struct item *pool = pool_of(t);
	unsigned long long next = 0;
	long n = 0;

	while (!uatomic_load(&stop, CMM_RELAXED) && n < POOL) {
		pace(&next);
		cds_lfs_node_init(&pool[n].u.lfs);
		cds_lfs_push(&lfs, &pool[n++].u.lfs);
		uatomic_set(&ops[t], n);
	}
	return NULL;
}

static void *lfs_popper(void *arg)
{
	int t = (int) (long) arg;
	long n = 0;

	urcu_memb_register_thread();
	while (!uatomic_load(&stop, CMM_RELAXED)) {
		if (t == PUSHERS)
			uatomic_set(&popper0_in_pop, 1);
#ifdef TEST_SEED_LOCK
		(void) cds_lfs_pop_blocking(&lfs);
#else
		urcu_memb_read_lock();
		(void) __cds_lfs_pop(&lfs);	/* never reused: no grace period needed */
		urcu_memb_read_unlock();
#endif
		if (t == PUSHERS)
			uatomic_set(&popper0_in_pop, 0);
		uatomic_set(&ops[t], ++n);
	}
	urcu_memb_unregister_thread();
	return NULL;
}

static void part_lfstack(void)
{
	pthread_t th[PUSHERS + POPPERS];
	long base[PUSHERS + POPPERS];
	int ids[PUSHERS + POPPERS - 1], r, i, bad = 0, mid = 0;
	unsigned long long t0;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = freeze_handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR2, &sa, NULL);

	cds_lfs_init(&lfs);
	memset(ops, 0, sizeof(ops));
	uatomic_set(&stop, 0);
	for (i = 0; i < PUSHERS; i++)
		if (pthread_create(&th[i], NULL, lfs_pusher, (void *) (long) i))
			tap_bail("pthread_create");
	for (i = 0; i < POPPERS; i++)
		if (pthread_create(&th[PUSHERS + i], NULL, lfs_popper, (void *) (long) (PUSHERS + i)))
			tap_bail("pthread_create");
	/* Checked: the pushers (0..) and the poppers but popper 0 (PUSHERS + 1..). */
	for (i = 0; i < PUSHERS + POPPERS - 1; i++)
		ids[i] = i < PUSHERS ? i : i + 1;
	wait_started(ids, PUSHERS + POPPERS - 1);
	/* Popper 0 too: the freezes below are aimed at a popper that runs. */
	{
		int p0 = PUSHERS;

		wait_started(&p0, 1);
	}
	for (r = 0; r < ROUNDS && !bad; r++) {
		uatomic_set(&thaw, 0);
		t0 = t_now_ns();
		while (!uatomic_read(&popper0_in_pop) && t_ms_since(t0) < 100)
			caa_cpu_relax();
		pthread_kill(th[PUSHERS], SIGUSR2);
		t0 = t_now_ns();
		while (!uatomic_load(&frozen, CMM_ACQUIRE)) {
			if (t_ms_since(t0) > START_MS)
				tap_bail("popper 0 did not take its freeze signal in %d ms", START_MS);
			t_sleep_ms(0);
		}
		mid += uatomic_read(&frozen_mid);
		snapshot(base);
		if (!others_progress(base, ids, PUSHERS + POPPERS - 1, "lfstack, a popper frozen"))
			bad++;
		/* Release: pairs with the handler's acquire. */
		uatomic_store(&thaw, 1, CMM_RELEASE);
		(void) syscall(SYS_futex, &thaw, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		while (uatomic_load(&frozen, CMM_ACQUIRE))
			t_sleep_ms(0);
	}
	uatomic_set(&stop, 1);
	for (i = 0; i < PUSHERS + POPPERS; i++)
		pthread_join(th[i], NULL);
	cds_lfs_destroy(&lfs);
	fails += bad;
	tap_ok(!bad, "lfstack: with popper 0 frozen (%d of %d times inside its pop), the "
		"pushers and the other poppers completed %d operations each within %d ms "
		"(a part stops at its first failure)", mid, r, MIN_OPS, DEADLINE_MS);
	tap_ok(bad || mid >= r / 4, "lfstack: %d of %d freezes caught the popper inside "
		"its pop", mid, r);
}

int main(void)
{
	unsigned long long t0 = t_now_ns();

	alarm(120);
	part_wfstack();
	tap_diag("wfstack part: %.0f ms", t_ms_since(t0));
	t0 = t_now_ns();
	part_wfcqueue();
	tap_diag("wfcqueue part: %.0f ms", t_ms_since(t0));
	t0 = t_now_ns();
	part_lfstack();
	tap_diag("lfstack part: %.0f ms", t_ms_since(t0));
	tap_diag("%d failed checks in all", fails);
	return tap_done();
}
