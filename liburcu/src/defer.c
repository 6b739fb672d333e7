// SPDX-License-Identifier: MIT
/*
 * defer_rcu(): per-thread queues of deferred calls, drained by one defer
 * thread per flavor after a grace period.  Compiled once per flavor.
 *
 * Each registered thread owns a ring of DEFER_QUEUE_SIZE entries.  Only the
 * owner writes entries and advances head; only a drainer, holding defer.lock,
 * advances tail.  There is one drainer at a time: the defer thread, or a
 * thread in rcu_defer_barrier*() (directly, or because its ring was full).
 *
 * Drain: under defer.lock, snapshot every queue's head (acquire: pairs with
 * the owner's release store of head, so the entries below it are complete),
 * wait for ONE grace period if any queue holds entries, run the entries
 * below the snapshots, and publish the new tails (release: pairs with the
 * owner's acquire load of tail, so a slot is reused only after its entry
 * ran).  Every entry run was queued before its snapshot, hence before the
 * grace period began: it runs after a grace period that began after its
 * defer_rcu().
 *
 * Waking the defer thread (Dekker pattern, as for call_rcu workers):
 *   defer_rcu: (D1) store head; (D2) smp_mb; (D3) if sleep == -1: wake
 *   thread:    (T1) sleep = -1; (T2) smp_mb; (T3) scan heads; sleep if none
 * Either T3 sees the new head, or D3 sees -1 and wakes the thread.  The
 * fence costs one barrier per defer_rcu(); defer_rcu() may block anyway.
 *
 * defer_rcu() can block (full ring: the caller waits for a grace period and
 * drains its own ring), so it is not allowed inside a read-side critical
 * section.  Deferred functions must not call defer_rcu() or the barriers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <urcu/uatomic.h>
#include <urcu/list.h>

#include "call-rcu-internal.h"
#include "probes.h"
#include "urcu-steps.h"

#define DEFER_QUEUE_SIZE	4096UL	/* entries per thread; power of two */
#define DEFER_QUEUE_MASK	(DEFER_QUEUE_SIZE - 1)

_Static_assert((DEFER_QUEUE_SIZE & DEFER_QUEUE_MASK) == 0,
		"DEFER_QUEUE_SIZE must be a power of two");

struct defer_entry {
	void (*fct)(void *p);
	void *p;
};

struct defer_queue {
	unsigned long head;		/* next slot to fill; owner writes */
	/* Padding, not an aligned attribute (see struct call_rcu_data). */
	char pad[CAA_CACHE_LINE_SIZE - sizeof(unsigned long)];
	unsigned long tail;		/* next slot to run; drainer writes */
	unsigned long snap;		/* drainer's head snapshot, under lock */
	struct defer_entry *ring;
	struct cds_list_head node;	/* in defer.queues, under lock */
};

static struct {
	pthread_mutex_t lock;		/* queue list and draining */
	pthread_mutex_t thread_lock;	/* starting/stopping the thread */
	struct cds_list_head queues;
	int nr_queues;			/* under lock */
	pthread_t tid;			/* under thread_lock */
	bool running;			/* under thread_lock */
	int32_t sleep;			/* futex: -1 when the thread sleeps */
	int32_t stop;			/* set to stop the thread */
} defer = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.thread_lock = PTHREAD_MUTEX_INITIALIZER,
	.queues = CDS_LIST_HEAD_INIT(defer.queues),
};

static __thread struct defer_queue *my_queue __attribute__((tls_model("initial-exec")));

static void lock_quiescent(pthread_mutex_t *m)
{
	/* qsbr: do not hold up a drainer's grace period while waiting. */
	bool was_online = urcu_i_quiesce_begin();

	pthread_mutex_lock(m);
	urcu_i_quiesce_end(was_online);
}

/* Drain one queue (only) or all of them.  defer.lock held. */
static void drain_locked(struct defer_queue *only)
{
	struct defer_queue *q;
	bool any = false;

	cds_list_for_each_entry(q, &defer.queues, node) {
		if (only && q != only)
			continue;
		/* Acquire: pairs with the release store of head in defer_rcu(). */
		q->snap = uatomic_load(&q->head, CMM_ACQUIRE);
		if (q->snap != q->tail)
			any = true;
	}
	if (!any)
		return;
	URCU_I_STEP_DEFER_GP();
	cds_list_for_each_entry(q, &defer.queues, node) {
		unsigned long i;

		if (only && q != only)
			continue;
		for (i = q->tail; i != q->snap; i++) {
			struct defer_entry *e = &q->ring[i & DEFER_QUEUE_MASK];

			e->fct(e->p);
		}
		/* Release: pairs with the acquire load of tail in defer_rcu(). */
		uatomic_store(&q->tail, q->snap, CMM_RELEASE);
	}
}

static bool all_empty_locked(void)
{
	struct defer_queue *q;

	cds_list_for_each_entry(q, &defer.queues, node) {
		if (uatomic_read(&q->head) != q->tail)
			return false;
	}
	return true;
}

/*
 * The defer thread is offline (qsbr) except while it drains: a thread that
 * waits for defer.lock must never be what holds up the drainer's grace
 * period.
 */
static void *defer_thread(void *arg)
{
	(void) arg;
	URCU_FN(register_thread)();
	URCU_FN(thread_offline)();
	for (;;) {
		bool idle;

		pthread_mutex_lock(&defer.lock);
		URCU_FN(thread_online)();
		drain_locked(NULL);
		URCU_FN(thread_offline)();
		pthread_mutex_unlock(&defer.lock);
		uatomic_set(&defer.sleep, -1);			/* T1 */
		/* T2: pairs with D2 in defer_rcu() and with stop_thread(). */
		cmm_smp_mb();
		pthread_mutex_lock(&defer.lock);
		idle = all_empty_locked();			/* T3 */
		pthread_mutex_unlock(&defer.lock);
		if (uatomic_read(&defer.stop))
			break;
		if (idle)
			urcu_common_futex_wait(&defer.sleep, -1);
		uatomic_set(&defer.sleep, 0);
	}
	/* A last pass: nothing registered is left, but be thorough. */
	pthread_mutex_lock(&defer.lock);
	URCU_FN(thread_online)();
	drain_locked(NULL);
	pthread_mutex_unlock(&defer.lock);
	URCU_FN(unregister_thread)();
	return NULL;
}

static void wake_thread(void)
{
	/* cmpxchg (full barrier): one waker per sleep, as for call_rcu workers. */
	if (uatomic_read(&defer.sleep) == -1
			&& uatomic_cmpxchg(&defer.sleep, -1, 0) == -1)
		urcu_common_futex_wake(&defer.sleep, 1);
}

static void stop_thread(void)
{
	/* Our earlier work (the last queue's drain) precedes the stop request. */
	cmm_smp_mb();
	uatomic_set(&defer.stop, 1);
	/* Pairs with T2: the thread sees stop, or we see it sleeping. */
	cmm_smp_mb();
	uatomic_set(&defer.sleep, 0);
	urcu_common_futex_wake(&defer.sleep, 1);
}

/*
 * rcu_defer_barrier_thread: run every call the calling thread deferred, after
 * a grace period.  Blocks; not inside a read-side critical section.
 */
void URCU_FN(defer_barrier_thread)(void)
{
	if (!my_queue)
		return;
	lock_quiescent(&defer.lock);
	drain_locked(my_queue);
	pthread_mutex_unlock(&defer.lock);
}

/*
 * rcu_defer_barrier: run every call deferred by any thread so far, after a
 * grace period.  Blocks; not inside a read-side critical section.
 */
void URCU_FN(defer_barrier)(void)
{
#if !URCU_FLAVOR_IS_QSBR
	if (URCU_FN(i_read_ongoing)())
		urcu_common_die("rcu_defer_barrier",
			"called inside a read-side critical section: it waits for a grace period");
#endif
	lock_quiescent(&defer.lock);
	drain_locked(NULL);
	pthread_mutex_unlock(&defer.lock);
}

/*
 * defer_rcu: fct(p) runs after a grace period that begins after this call,
 * on the defer thread (or in a barrier).  Everything the caller did before is
 * visible to fct.  The calling thread must be registered with
 * rcu_defer_register_thread().  May block waiting for a grace period when the
 * thread's queue is full: inside a read-side critical section that aborts
 * with a message (it would deadlock); qsbr: the caller may be online, it
 * goes offline while waiting.
 */
void URCU_FN(defer_rcu)(void (*fct)(void *p), void *p)
{
	struct defer_queue *q = my_queue;
	unsigned long head;

	if (caa_unlikely(!q))
		urcu_common_die("defer_rcu",
			"calling thread is not registered (call rcu_defer_register_thread() first)");
#if !URCU_FLAVOR_IS_QSBR
	if (caa_unlikely(URCU_FN(i_read_ongoing)()))
		urcu_common_misuse("defer_rcu", "called inside a read-side critical section "
			"(urcu_%s flavor): it waits for a grace period when the queue is full; "
			"use call_rcu", URCU_FLAVOR_NAME);
#endif
	head = q->head;
	/* Acquire: pairs with the drainer's release store of tail. */
	if (caa_unlikely(head - uatomic_load(&q->tail, CMM_ACQUIRE) >= DEFER_QUEUE_SIZE)) {
#if !URCU_FLAVOR_IS_QSBR
		/*
		 * Only a full queue waits for a grace period: inside a
		 * read-side section that wait never ends (liburcu hangs
		 * here); otherwise defer_rcu runs inside one, as in liburcu.
		 */
		if (caa_unlikely(URCU_FN(i_read_ongoing)()))
			urcu_common_die("defer_rcu",
				"queue full inside a read-side critical section: waiting for a grace "
				"period would deadlock (use call_rcu)");
#endif
		URCU_FN(defer_barrier_thread)();
	}
	q->ring[head & DEFER_QUEUE_MASK].fct = fct;
	q->ring[head & DEFER_QUEUE_MASK].p = p;
	/* D1, release: the entry (and the caller's prior work) before head. */
	uatomic_store(&q->head, head + 1, CMM_RELEASE);
	/* D2: pairs with T2 in defer_thread(). */
	cmm_smp_mb();
	wake_thread();						/* D3 */
	URCU_PROBE(defer_rcu, URCU_PROBE_FLAVOR, fct, p);
}

/*
 * rcu_defer_register_thread: give the calling thread a defer queue (and
 * start the defer thread with the first one).  Returns 0, or -ENOMEM.
 * Registering a thread twice aborts with a message.
 */
int URCU_FN(defer_register_thread)(void)
{
	struct defer_queue *q;
	bool first;
	int ret;

	if (my_queue)
		urcu_common_die("rcu_defer_register_thread", "thread is already registered");
	ret = posix_memalign((void **) &q, CAA_CACHE_LINE_SIZE, sizeof(*q));
	if (ret)
		return -ENOMEM;
	memset(q, 0, sizeof(*q));
	q->ring = calloc(DEFER_QUEUE_SIZE, sizeof(*q->ring));
	if (!q->ring) {
		free(q);
		return -ENOMEM;
	}
	lock_quiescent(&defer.thread_lock);
	lock_quiescent(&defer.lock);
	cds_list_add_tail(&q->node, &defer.queues);
	first = defer.nr_queues++ == 0;
	pthread_mutex_unlock(&defer.lock);
	if (first && !defer.running) {
		uatomic_set(&defer.stop, 0);
		ret = pthread_create(&defer.tid, NULL, defer_thread, NULL);
		if (ret) {
			lock_quiescent(&defer.lock);
			cds_list_del(&q->node);
			defer.nr_queues--;
			pthread_mutex_unlock(&defer.lock);
			pthread_mutex_unlock(&defer.thread_lock);
			free(q->ring);
			free(q);
			return -ENOMEM;
		}
		defer.running = true;
	}
	pthread_mutex_unlock(&defer.thread_lock);
	my_queue = q;
	return 0;
}

/*
 * rcu_defer_unregister_thread: run the calling thread's deferred calls
 * (after a grace period), drop its queue, and stop the defer thread with the
 * last queue.  Blocks; not inside a read-side critical section.
 */
void URCU_FN(defer_unregister_thread)(void)
{
	struct defer_queue *q = my_queue;
	bool last;

	if (!q)
		urcu_common_die("rcu_defer_unregister_thread", "thread is not registered");
	lock_quiescent(&defer.thread_lock);
	lock_quiescent(&defer.lock);
	drain_locked(q);
	cds_list_del(&q->node);
	last = --defer.nr_queues == 0;
	pthread_mutex_unlock(&defer.lock);
	my_queue = NULL;
	if (last && defer.running) {
		bool was_online;

		stop_thread();
		was_online = urcu_i_quiesce_begin();
		(void) pthread_join(defer.tid, NULL);
		urcu_i_quiesce_end(was_online);
		defer.running = false;
	}
	pthread_mutex_unlock(&defer.thread_lock);
	free(q->ring);
	free(q);
}

/*
 * rcu_defer_exit: kept for compatibility.  The defer thread already stops
 * with the last rcu_defer_unregister_thread(); nothing is left to release.
 */
void URCU_FN(defer_exit)(void)
{
}
