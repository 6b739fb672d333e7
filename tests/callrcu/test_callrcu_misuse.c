// SPDX-License-Identifier: MIT
/*
 * Misuse of rcu_barrier, call_rcu_data_free and defer_rcu is
 * reported with one clear line naming the function, then abort().  Each case
 * runs in a child process; the test checks the message and the SIGABRT.
 * TAP output.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdlib.h>

#include "flavor-select.h"
#include "child-check.h"
#include "tap.h"

static struct rcu_head head;

static void nop_cb(struct rcu_head *h)
{
	(void) h;
}

static int barrier_in_cs(void)
{
	T_FN(register_thread)();
	T_FN(call_rcu)(&head, nop_cb);	/* a worker exists */
	T_FN(read_lock)();
	T_FN(barrier)();
	T_FN(read_unlock)();
	return 0;
}

static void barrier_cb(struct rcu_head *h)
{
	(void) h;
	T_FN(barrier)();
}

static int barrier_in_callback(void)
{
	T_FN(register_thread)();
	T_FN(call_rcu)(&head, barrier_cb);
	T_FN(barrier)();
	return 0;
}

static struct call_rcu_data *victim;

static void free_self_cb(struct rcu_head *h)
{
	(void) h;
	T_FN(call_rcu_data_free)(victim);
}

static int free_from_own_callback(void)
{
	T_FN(register_thread)();
	victim = T_FN(create_call_rcu_data)(0, -1);
	T_FN(set_thread_call_rcu_data)(victim);
	T_FN(call_rcu)(&head, free_self_cb);
	T_FN(thread_offline)();
	t_sleep_ms(10000);	/* not sleep(): the signal flavor interrupts it */
	return 0;
}

static void defer_fn(void *p)
{
	(void) p;
}

static int defer_unregistered(void)
{
	T_FN(register_thread)();
	T_FN(defer_rcu)(defer_fn, NULL);
	return 0;
}

static int defer_in_cs(void)
{
	T_FN(register_thread)();
	if (T_FN(defer_register_thread)())
		return 3;
	T_FN(read_lock)();
	T_FN(defer_rcu)(defer_fn, NULL);
	T_FN(read_unlock)();
	return 0;
}

static int defer_register_twice(void)
{
	T_FN(register_thread)();
	if (T_FN(defer_register_thread)())
		return 3;
	T_FN(defer_register_thread)();
	return 0;
}

static void expect_death(int (*fn)(void), const char *msg, const char *what)
{
	struct child_result r = run_child(fn, 20.0);

	if (!tap_ok(died_with(&r, msg), "%s: aborts with \"%s...\"", what, msg))
		tap_diag("exited=%d signaled=%d status=%d timed_out=%d stderr: %s",
			r.exited, r.signaled, r.status, r.timed_out, r.err);
}

int main(void)
{
	tap_diag("flavor %s", T_FLAVOR);
	if (!T_IS_QSBR)
		expect_death(barrier_in_cs, "urcu: rcu_barrier: called inside a read-side critical section",
			"rcu_barrier inside a read-side critical section");
	expect_death(barrier_in_callback, "urcu: rcu_barrier: called from a call_rcu callback",
		"rcu_barrier from a callback");
	expect_death(free_from_own_callback, "urcu: call_rcu_data_free:",
		"call_rcu_data_free from the worker's own callback");
	expect_death(defer_unregistered, "urcu: defer_rcu: calling thread is not registered",
		"defer_rcu without rcu_defer_register_thread");
	if (!T_IS_QSBR)
		expect_death(defer_in_cs, "urcu: defer_rcu: called inside a read-side critical section",
			"defer_rcu inside a read-side critical section");
	expect_death(defer_register_twice, "urcu: rcu_defer_register_thread: thread is already registered",
		"rcu_defer_register_thread twice");
	return tap_done();
}
