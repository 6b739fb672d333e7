// SPDX-License-Identifier: MIT
/*
 * Threads and processes that end with callbacks still queued: no crash, no
 * hang.  Each case runs in a child process that must exit normally (status
 * 0) within a few seconds:
 *  - main returns right after queueing many callbacks;
 *  - a reader thread sits in a read-side critical section forever, so the
 *    worker is stuck in its grace period, and main calls exit();
 *  - a thread with its own worker queues callbacks and exits, then main
 *    waits for them with rcu_barrier and returns;
 *  - a thread registered with defer_rcu exits the process with deferred
 *    calls pending.
 * TAP output.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "flavor-select.h"
#include "child-check.h"
#include "tap.h"

struct obj {
	struct rcu_head head;
};

static int invoked;

static void free_cb(struct rcu_head *head)
{
	uatomic_add(&invoked, 1);
	free(caa_container_of(head, struct obj, head));
}

static void queue_many(int n)
{
	for (int i = 0; i < n; i++)
		T_FN(call_rcu)(&((struct obj *) malloc(sizeof(struct obj)))->head, free_cb);
}

static int return_with_queue(void)
{
	T_FN(register_thread)();
	queue_many(50000);
	return 0;		/* still registered, callbacks pending */
}

static void *stuck_reader(void *arg)
{
	(void) arg;
	T_FN(register_thread)();
	T_FN(read_lock)();
	for (;;)
		pause();
	return NULL;
}

static int exit_with_stuck_gp(void)
{
	pthread_t tid;

	T_FN(register_thread)();
	pthread_create(&tid, NULL, stuck_reader, NULL);
	usleep(10000);
	queue_many(1000);
	T_FN(thread_offline)();
	usleep(20000);		/* the worker now waits for the reader */
	exit(0);
}

static void *own_worker_thread(void *arg)
{
	T_FN(register_thread)();
	T_FN(set_thread_call_rcu_data)(arg);
	queue_many(5000);
	T_FN(unregister_thread)();
	return NULL;		/* exits with callbacks queued */
}

static int thread_exit_with_queue(void)
{
	struct call_rcu_data *crdp;
	pthread_t tid;

	T_FN(register_thread)();
	crdp = T_FN(create_call_rcu_data)(0, -1);
	pthread_create(&tid, NULL, own_worker_thread, crdp);
	pthread_join(tid, NULL);
	T_FN(barrier)();
	if (uatomic_read(&invoked) != 5000)
		return 2;
	T_FN(call_rcu_data_free)(crdp);
	T_FN(unregister_thread)();
	return 0;
}

static void defer_fn(void *p)
{
	free(p);
}

static int exit_with_deferred(void)
{
	T_FN(register_thread)();
	if (T_FN(defer_register_thread)())
		return 3;
	for (int i = 0; i < 3000; i++)
		T_FN(defer_rcu)(defer_fn, malloc(16));
	return 0;
}

static void expect_clean_exit(int (*fn)(void), const char *what)
{
	struct child_result r = run_child(fn, 10.0);

	if (!tap_ok(r.exited && r.status == 0, "%s: clean exit (%.2f s)", what, r.seconds))
		tap_diag("exited=%d signaled=%d status=%d timed_out=%d stderr: %s",
			r.exited, r.signaled, r.status, r.timed_out, r.err);
}

int main(void)
{
	tap_diag("flavor %s", T_FLAVOR);
	expect_clean_exit(return_with_queue, "return from main with 50000 callbacks queued");
	expect_clean_exit(exit_with_stuck_gp, "exit() while a reader blocks the worker's grace period");
	expect_clean_exit(thread_exit_with_queue, "thread exits with callbacks on its own worker");
	expect_clean_exit(exit_with_deferred, "return from main with deferred calls pending");
	return tap_done();
}
