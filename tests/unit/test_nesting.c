// SPDX-License-Identifier: MIT
/*
 * Nested read-side critical sections.
 *
 * 1. read_ongoing() is zero outside a critical section and non-zero at every
 *    nesting depth, down to the outermost unlock (qsbr: read_ongoing() means
 *    "online", so it stays non-zero while registered and is only checked
 *    for that).
 * 2. A grace period that starts while a reader is nested waits for the
 *    OUTERMOST unlock: the reader drops the inner level while the updater
 *    is already waiting, keeps the object for a while at depth 1, checks it
 *    is alive, then leaves.  An implementation that ends the critical section
 *    at the inner unlock lets synchronize_rcu return early, which the updater
 *    sees.  (qsbr has no nesting to get wrong: the reader is online until its
 *    quiescent state, so this part checks only the quiescent-state rule.)
 * 3. Deep nesting (1000 levels) keeps the section open until the last unlock.
 */
#include <stdbool.h>

#include "flavor-select.h"
#include "test-util.h"

static struct t_obj *shared;

struct nest_reader {
	int in;			/* nested twice, holding the object */
	int go_inner;		/* updater is waiting: drop the inner level */
	int inner_dropped;
	int outer_leaving;
	int live_after_inner;
	int ongoing_after_inner;
};

static void check_depths(void)
{
	int d;
	bool all = true;

	if (T_IS_QSBR)
		tap_ok(T_FN(read_ongoing)() != 0, "%s/%s: read_ongoing() != 0 when registered "
			"(online)", T_FLAVOR, T_MODE);
	else
		tap_ok(T_FN(read_ongoing)() == 0, "%s/%s: read_ongoing() == 0 outside a "
			"critical section", T_FLAVOR, T_MODE);
	T_FN(read_lock)();
	tap_ok(T_FN(read_ongoing)() != 0, "%s/%s: read_ongoing() != 0 at depth 1",
		T_FLAVOR, T_MODE);
	T_FN(read_lock)();
	tap_ok(T_FN(read_ongoing)() != 0, "%s/%s: read_ongoing() != 0 at depth 2",
		T_FLAVOR, T_MODE);
	T_FN(read_lock)();
	tap_ok(T_FN(read_ongoing)() != 0, "%s/%s: read_ongoing() != 0 at depth 3",
		T_FLAVOR, T_MODE);
	T_FN(read_unlock)();
	tap_ok(T_FN(read_ongoing)() != 0, "%s/%s: read_ongoing() != 0 back at depth 2",
		T_FLAVOR, T_MODE);
	T_FN(read_unlock)();
	tap_ok(T_FN(read_ongoing)() != 0, "%s/%s: read_ongoing() != 0 back at depth 1",
		T_FLAVOR, T_MODE);
	T_FN(read_unlock)();
	if (T_IS_QSBR)
		tap_ok(T_FN(read_ongoing)() != 0, "%s/%s: read_ongoing() != 0 after the "
			"outermost unlock (still online)", T_FLAVOR, T_MODE);
	else
		tap_ok(T_FN(read_ongoing)() == 0, "%s/%s: read_ongoing() == 0 after the "
			"outermost unlock", T_FLAVOR, T_MODE);

	/* Deep nesting: every level but the last leaves the section open. */
	for (d = 0; d < 1000; d++)
		T_FN(read_lock)();
	for (d = 1000; d > 0; d--) {
		if (!T_FN(read_ongoing)())
			all = false;
		T_FN(read_unlock)();
	}
	tap_ok(all, "%s/%s: read_ongoing() != 0 at every depth from 1000 down to 1",
		T_FLAVOR, T_MODE);
	if (!T_IS_QSBR)
		tap_ok(T_FN(read_ongoing)() == 0, "%s/%s: read_ongoing() == 0 after 1000 unlocks",
			T_FLAVOR, T_MODE);
}

static void *nest_thread(void *arg)
{
	struct nest_reader *nr = (struct nest_reader *) arg;
	struct t_obj *p;

	T_FN(register_thread)();
	T_FN(read_lock)();
	T_FN(read_lock)();
	p = rcu_dereference(shared);
	t_store(&nr->in, 1);
	t_wait_for(&nr->go_inner, 1, 10000, "the updater to start waiting");
	/* Drop the inner level while the updater is (most likely) waiting. */
	t_sleep_ms(20);
	T_FN(read_unlock)();
	t_store(&nr->inner_dropped, 1);
	nr->ongoing_after_inner = T_FN(read_ongoing)() != 0;
	/* Depth 1: the object must stay alive. */
	t_sleep_ms(100);
	nr->live_after_inner = t_obj_alive(p);
	t_store(&nr->outer_leaving, 1);
	t_reader_exit();
	T_FN(unregister_thread)();
	return NULL;
}

static void outermost_unlock_ends_section(void)
{
	struct nest_reader nr;
	struct t_obj *old;
	pthread_t rtid;
	unsigned long long t0;
	double waited_ms;
	int outer_left;

	memset(&nr, 0, sizeof(nr));
	rtid = t_thread_start(nest_thread, &nr);
	t_wait_for(&nr.in, 1, 10000, "the nested reader");
	old = rcu_xchg_pointer(&shared, t_obj_new(1));
	t0 = t_now_ns();
	t_store(&nr.go_inner, 1);
	T_FN(synchronize_rcu)();
	waited_ms = t_ms_since(t0);
	outer_left = t_load(&nr.outer_leaving);
	t_obj_kill(old);
	t_thread_join(rtid);
	free(old);

	tap_ok(nr.ongoing_after_inner, "%s/%s: read_ongoing() != 0 after the inner unlock",
		T_FLAVOR, T_MODE);
	tap_ok(t_load(&nr.inner_dropped) && outer_left,
		"%s/%s: synchronize_rcu waited past the inner unlock for the outermost one "
		"(waited %.1f ms)", T_FLAVOR, T_MODE, waited_ms);
	tap_ok(nr.live_after_inner, "%s/%s: object still alive at depth 1 after the inner unlock",
		T_FLAVOR, T_MODE);
}

int main(void)
{
	shared = t_obj_new(0);
	T_FN(register_thread)();
	check_depths();
	T_FN(unregister_thread)();
	tap_ok(T_FN(read_ongoing)() == 0, "%s/%s: read_ongoing() == 0 after unregister",
		T_FLAVOR, T_MODE);
	outermost_unlock_ends_section();
	free(shared);
	return tap_done();
}
