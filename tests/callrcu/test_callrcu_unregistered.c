// SPDX-License-Identifier: MIT
/*
 * What liburcu accepts from a thread that is not a registered reader (and,
 * for qsbr, from an offline one), done correctly here: one check per row of
 * the table in urcu(7), "Calls from unregistered threads".  main() never
 * registers; a registered helper thread provides a reader where a row needs
 * one.  The grace-period rows check protection, not just survival: a
 * callback queued by the unregistered thread must not run while a reader
 * that started before the call_rcu is still inside its critical section.
 * TAP output.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <urcu/uatomic.h>

#include "flavor-test.h"
#include "tap.h"

static int cb_runs;
static int reader_state;	/* 0 idle, 1 inside the section, 2 told to leave, 3 left */

static void count_cb(struct rcu_head *h)
{
	uatomic_inc(&cb_runs);
	free(h);
}

static void *reader(void *arg)
{
	(void) arg;
	F(register_thread)();
	F(read_lock)();
	uatomic_set(&reader_state, 1);
	while (uatomic_read(&reader_state) != 2)
		sleep_ms(1);
	F(read_unlock)();
	F(unregister_thread)();
	uatomic_set(&reader_state, 3);
	return NULL;
}

static void queue_one(void)
{
	struct rcu_head *h = malloc(sizeof(*h));

	if (!h)
		tap_bail("out of memory");
	F(call_rcu)(h, count_cb);
}

int main(void)
{
	pthread_t tid;
	struct call_rcu_data *crdp, *got;
	struct urcu_gp_poll_state st;
	int ret, before;

	tap_diag("flavor %s, main thread never registers", TEST_FLAVOR);

	/* call_rcu + rcu_barrier, and the grace period still protects readers. */
	if (pthread_create(&tid, NULL, reader, NULL))
		tap_bail("pthread_create failed");
	while (uatomic_read(&reader_state) != 1)
		sleep_ms(1);
	queue_one();
	sleep_ms(100);
	tap_ok(uatomic_read(&cb_runs) == 0,
		"call_rcu from an unregistered thread waits for a pre-existing reader");
	uatomic_set(&reader_state, 2);
	pthread_join(tid, NULL);
	F(barrier)();
	tap_ok(uatomic_read(&cb_runs) == 1, "rcu_barrier from an unregistered thread: the callback ran");

	/* synchronize_rcu. */
	F(synchronize_rcu)();
	tap_ok(1, "synchronize_rcu from an unregistered thread returns");

	/* The call_rcu thread-control functions. */
	crdp = F(create_call_rcu_data)(0, -1);
	tap_ok(crdp != NULL, "create_call_rcu_data from an unregistered thread");
	tap_ok(F(get_call_rcu_thread)(crdp) != 0, "get_call_rcu_thread");
	F(set_thread_call_rcu_data)(crdp);
	tap_ok(F(get_thread_call_rcu_data)() == crdp, "set/get_thread_call_rcu_data");
	tap_ok(F(get_call_rcu_data)() == crdp, "get_call_rcu_data returns the thread's worker");
	before = uatomic_read(&cb_runs);
	queue_one();
	F(barrier)();
	tap_ok(uatomic_read(&cb_runs) == before + 1, "call_rcu through the thread's own worker");
	F(set_thread_call_rcu_data)(NULL);
	F(call_rcu_data_free)(crdp);
	tap_ok(1, "call_rcu_data_free from an unregistered thread");
	tap_ok(F(get_default_call_rcu_data)() != NULL, "get_default_call_rcu_data");

	crdp = F(create_call_rcu_data)(0, 0);
	ret = F(set_cpu_call_rcu_data)(0, crdp);
	tap_ok(ret == 0, "set_cpu_call_rcu_data (ret %d)", ret);
	got = F(get_cpu_call_rcu_data)(0);
	tap_ok(got == crdp, "get_cpu_call_rcu_data");
	F(free_all_cpu_call_rcu_data)();
	tap_ok(F(get_cpu_call_rcu_data)(0) == NULL, "free_all_cpu_call_rcu_data");

	ret = F(create_all_cpu_call_rcu_data)(0);
	tap_ok(ret == 0 || ret == -EINVAL, "create_all_cpu_call_rcu_data (ret %d)", ret);
	before = uatomic_read(&cb_runs);
	for (int i = 0; i < 100; i++)
		queue_one();
	F(barrier)();
	tap_ok(uatomic_read(&cb_runs) == before + 100, "call_rcu through per-CPU workers");
	F(free_all_cpu_call_rcu_data)();

	/* Polled grace periods. */
	st = F(start_poll_synchronize_rcu)();
	while (!F(poll_state_synchronize_rcu)(st))
		sleep_ms(1);
	tap_ok(1, "start_poll/poll_state_synchronize_rcu from an unregistered thread");

#if TEST_IS_QSBR
	/* qsbr: a registered but offline thread, too. */
	F(register_thread)();
	F(thread_offline)();
	before = uatomic_read(&cb_runs);
	queue_one();
	F(barrier)();
	tap_ok(uatomic_read(&cb_runs) == before + 1, "qsbr: call_rcu from an offline thread");
	F(thread_online)();
	F(unregister_thread)();
#endif
	return tap_done();
}
