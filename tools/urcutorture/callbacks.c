/* SPDX-License-Identifier: MIT */
/*
 * Callback accounting shared by the modes.  Every callback carries a
 * sequence number and a state word: posting moves it IDLE -> POSTED, the
 * invocation moves it POSTED -> INVOKED with an atomic exchange, so a second
 * invocation of the same post is seen as a duplicate.  The run's posted and
 * invoked totals must meet after the final rcu_barrier drain, otherwise
 * callbacks were lost.
 *
 * Also the other helpers the modes share: pausing a thread (offline for
 * qsbr) and the plain reader loop of the measuring modes.
 */
#define _LGPL_SOURCE
#include <urcu/pointer.h>

#include "callbacks.h"
#include "ut.h"

static uint64_t next_seq;

void ut_cb_post(struct ut_run *run, struct ut_thread *t, struct ut_cb *cb,
		void (*func)(struct rcu_head *head))
{
	int w = ut_worker_target(run, t);

	cb->seq = __atomic_add_fetch(&next_seq, 1, __ATOMIC_RELAXED);
	cb->worker = w;
	__atomic_store_n(&cb->state, UT_CB_POSTED, __ATOMIC_RELAXED);
	/*
	 * Count the post before it can be invoked: pairs with the acquire
	 * loads in ut_drain_callbacks, which must never see invoked == posted
	 * while this callback is still pending.
	 */
	__atomic_add_fetch(&run->cb_posted, 1, __ATOMIC_RELEASE);
	ut_worker_queued(run, w);
	cb->enqueue_ns = ut_now_ns();
	run->ops->call_rcu(&cb->head, func);
}

bool ut_cb_begin(struct ut_run *run, struct ut_cb *cb)
{
	/* Relaxed: the call_rcu hand-off already orders the callback after its post. */
	int old = __atomic_exchange_n(&cb->state, UT_CB_INVOKED, __ATOMIC_RELAXED);

	if (old != UT_CB_POSTED) {
		__atomic_add_fetch(&run->cb_errors[UT_ERR_CB_DUP], 1, __ATOMIC_RELAXED);
		return false;
	}
	ut_worker_invoked(run, cb->enqueue_ns);
	return true;
}

void ut_cb_end(struct ut_run *run)
{
	/*
	 * Release: everything the callback did (including re-posting, whose
	 * posted count is already up) happens before the drain can see this
	 * invocation; pairs with the acquire loads in ut_drain_callbacks.
	 */
	__atomic_add_fetch(&run->cb_invoked, 1, __ATOMIC_RELEASE);
}

void ut_cb_check_lost(struct ut_run *run)
{
	uint64_t posted = __atomic_load_n(&run->cb_posted, __ATOMIC_ACQUIRE); /* pairs with ut_cb_post */
	uint64_t inv = __atomic_load_n(&run->cb_invoked, __ATOMIC_ACQUIRE);  /* pairs with ut_cb_end */

	if (posted > inv)
		run->res->errors[UT_ERR_CB_LOST] += posted - inv;
}

void ut_cbs_stat(struct ut_run *run, char *buf, size_t len)
{
	snprintf(buf, len, "cbs posted/invoked %llu/%llu",
		 (unsigned long long)__atomic_load_n(&run->cb_posted, __ATOMIC_RELAXED),
		 (unsigned long long)__atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED));
}

void ut_outstanding_note(struct ut_run *run)
{
	uint64_t posted = __atomic_load_n(&run->cb_posted, __ATOMIC_RELAXED);
	uint64_t inv = __atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED);
	uint64_t out = posted > inv ? posted - inv : 0;
	uint64_t old = __atomic_load_n(&run->outstanding_max, __ATOMIC_RELAXED);

	while (out > old &&
	       !__atomic_compare_exchange_n(&run->outstanding_max, &old, out, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

uint64_t ut_outstanding(struct ut_run *run)
{
	uint64_t posted = __atomic_load_n(&run->cb_posted, __ATOMIC_RELAXED);
	uint64_t inv = __atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED);

	return posted > inv ? posted - inv : 0;
}

void ut_rcu_pause(struct ut_thread *t, uint64_t ns)
{
	const struct ut_flavor_ops *ops = t->run->ops;

	/* A qsbr thread must not hold up grace periods while it sleeps. */
	if (ops->is_qsbr)
		ops->thread_offline();
	ut_sleep_ns(ns);
	if (ops->is_qsbr)
		ops->thread_online();
}

/* What plain readers dereference: any published pointer will do. */
static int plain_target;
static void *reader_target = &plain_target;

void *ut_plain_reader(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	uint64_t delay = run->cfg->read_delay_ns;
	unsigned long acc = 0;

	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		for (int i = 0; i < 64; i++) {
			ops->read_lock();
			acc += (unsigned long)rcu_dereference(reader_target);
			if (delay)
				ut_spin_ns(delay);
			ops->read_unlock();
			ops->quiescent_state();
		}
		ut_count(&t->reads, 64);
		ut_count(&t->progress, 1);
	}
	ut_thread_end(t);
	(void)acc;
	return NULL;
}
