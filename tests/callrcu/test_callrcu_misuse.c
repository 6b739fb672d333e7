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

#include "flavor-test.h"
#include "child-check.h"
#include "tap.h"

static struct rcu_head head;

static void nop_cb(struct rcu_head *h)
{
	(void) h;
}

static int barrier_in_cs(void)
{
	F(register_thread)();
	F(call_rcu)(&head, nop_cb);	/* a worker exists */
	F(read_lock)();
	F(barrier)();
	F(read_unlock)();
	return 0;
}

static void barrier_cb(struct rcu_head *h)
{
	(void) h;
	F(barrier)();
}

static int barrier_in_callback(void)
{
	F(register_thread)();
	F(call_rcu)(&head, barrier_cb);
	F(barrier)();
	return 0;
}

static struct call_rcu_data *victim;

static void free_self_cb(struct rcu_head *h)
{
	(void) h;
	F(call_rcu_data_free)(victim);
}

static int free_from_own_callback(void)
{
	F(register_thread)();
	victim = F(create_call_rcu_data)(0, -1);
	F(set_thread_call_rcu_data)(victim);
	F(call_rcu)(&head, free_self_cb);
	F(thread_offline)();
	sleep_ms(10000);	/* not sleep(): the signal flavor interrupts it */
	return 0;
}

static void defer_fn(void *p)
{
	(void) p;
}

static int defer_unregistered(void)
{
	F(register_thread)();
	F(defer_rcu)(defer_fn, NULL);
	return 0;
}

static int defer_in_cs(void)
{
	F(register_thread)();
	if (F(defer_register_thread)())
		return 3;
	F(read_lock)();
	F(defer_rcu)(defer_fn, NULL);
	F(read_unlock)();
	return 0;
}

static int defer_register_twice(void)
{
	F(register_thread)();
	if (F(defer_register_thread)())
		return 3;
	F(defer_register_thread)();
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
	tap_diag("flavor %s", TEST_FLAVOR);
	if (!TEST_IS_QSBR)
		expect_death(barrier_in_cs, "urcu: rcu_barrier: called inside a read-side critical section",
			"rcu_barrier inside a read-side critical section");
	expect_death(barrier_in_callback, "urcu: rcu_barrier: called from a call_rcu callback",
		"rcu_barrier from a callback");
	expect_death(free_from_own_callback, "urcu: call_rcu_data_free:",
		"call_rcu_data_free from the worker's own callback");
	expect_death(defer_unregistered, "urcu: defer_rcu: calling thread is not registered",
		"defer_rcu without rcu_defer_register_thread");
	if (!TEST_IS_QSBR)
		expect_death(defer_in_cs, "urcu: defer_rcu: called inside a read-side critical section",
			"defer_rcu inside a read-side critical section");
	expect_death(defer_register_twice, "urcu: rcu_defer_register_thread: thread is already registered",
		"rcu_defer_register_thread twice");
	return tap_done();
}
