// SPDX-License-Identifier: MIT
/*
 * Misuse of rcu_barrier, call_rcu_data_free and defer_rcu, both kinds
 * (docs/DESIGN.md, "Misuse: what aborts and what runs"): where liburcu would
 * deadlock or crash, one clear line naming the function, then abort();
 * where liburcu runs, the child runs to its end and exits 0 with nothing on
 * stderr.  Also the teardown a liburcu program may do: call_rcu, rcu_barrier
 * and read-side sections in an atexit handler and in a destructor, after the
 * main thread unregistered.  Each case runs in a child process.  TAP output.
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

/* Only a full queue waits for a grace period, which would never end here. */
static int defer_in_cs_full(void)
{
	unsigned long i;

	T_FN(register_thread)();
	if (T_FN(defer_register_thread)())
		return 3;
	T_FN(read_lock)();
	for (i = 0; i < 100000; i++)
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

/* ---- teardown: what a library destructor of a liburcu program does ------- */

static int teardown_armed;
static int teardown_runs;
static struct rcu_head teardown_heads[3];

static void teardown_cb(struct rcu_head *h)
{
	(void) h;
	__atomic_add_fetch(&teardown_runs, 1, __ATOMIC_SEQ_CST);
}

/* Read under RCU, queue a callback, wait for it: each step must run. */
static void teardown_step(int n, int code)
{
	T_FN(read_lock)();
	T_FN(read_unlock)();
	T_FN(call_rcu)(&teardown_heads[n], teardown_cb);
	T_FN(barrier)();
	if (__atomic_load_n(&teardown_runs, __ATOMIC_SEQ_CST) != n + 1)
		_exit(code);
	T_FN(synchronize_rcu)();
}

static void teardown_atexit(void)
{
	T_FN(barrier)();
	T_FN(unregister_thread)();
	teardown_step(1, 5);
}

static void __attribute__((destructor)) teardown_destructor(void)
{
	static const char done[] = "teardown done\n";

	if (!teardown_armed)
		return;
	teardown_step(2, 6);
	if (write(STDERR_FILENO, done, sizeof(done) - 1) < 0)
		_exit(7);
}

static int teardown(void)
{
	T_FN(register_thread)();
	T_FN(call_rcu)(&teardown_heads[0], teardown_cb);
	T_FN(barrier)();
	if (atexit(teardown_atexit))
		return 3;
	teardown_armed = 1;
	exit(0);
}

static void expect_runs(int (*fn)(void), const char *want_err, const char *what)
{
	struct child_result r = run_child(fn, 20.0);

	if (!tap_ok(r.exited && r.status == 0 && strcmp(r.err, want_err) == 0,
			"%s: runs to its end (exit 0, %s)", what,
			want_err[0] ? "its last step's line on stderr" : "nothing on stderr"))
		tap_diag("exited=%d signaled=%d status=%d timed_out=%d stderr: %s",
			r.exited, r.signaled, r.status, r.timed_out, r.err);
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
	if (!T_IS_QSBR) {
		expect_runs(barrier_in_cs, "",
			"rcu_barrier inside a read-side critical section (returns, as liburcu's)");
		expect_runs(defer_in_cs, "", "defer_rcu inside a read-side critical section");
		expect_death(defer_in_cs_full, "urcu: defer_rcu: queue full inside a read-side critical section",
			"defer_rcu with a full queue inside a read-side critical section");
	}
	expect_runs(teardown, "teardown done\n",
		"call_rcu, rcu_barrier and read-side sections in atexit and a destructor, unregistered");
	expect_death(barrier_in_callback, "urcu: rcu_barrier: called from a call_rcu callback",
		"rcu_barrier from a callback");
	expect_death(free_from_own_callback, "urcu: call_rcu_data_free:",
		"call_rcu_data_free from the worker's own callback");
	expect_death(defer_unregistered, "urcu: defer_rcu: calling thread is not registered",
		"defer_rcu without rcu_defer_register_thread");
	expect_death(defer_register_twice, "urcu: rcu_defer_register_thread: thread is already registered",
		"rcu_defer_register_thread twice");
	return tap_done();
}
