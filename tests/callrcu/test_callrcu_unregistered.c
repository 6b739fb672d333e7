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

#include "flavor-select.h"
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
	T_FN(register_thread)();
	T_FN(read_lock)();
	uatomic_set(&reader_state, 1);
	while (uatomic_read(&reader_state) != 2)
		t_sleep_ms(1);
	T_FN(read_unlock)();
	T_FN(unregister_thread)();
	uatomic_set(&reader_state, 3);
	return NULL;
}

static void queue_one(void)
{
	struct rcu_head *h = malloc(sizeof(*h));

	if (!h)
		tap_bail("out of memory");
	T_FN(call_rcu)(h, count_cb);
}

int main(void)
{
	pthread_t tid;
	struct call_rcu_data *crdp, *got;
	struct urcu_gp_poll_state st;
	int ret, before;

	tap_diag("flavor %s, main thread never registers", T_FLAVOR);

	/* call_rcu + rcu_barrier, and the grace period still protects readers. */
	if (pthread_create(&tid, NULL, reader, NULL))
		tap_bail("pthread_create failed");
	while (uatomic_read(&reader_state) != 1)
		t_sleep_ms(1);
	queue_one();
	t_sleep_ms(100);
	tap_ok(uatomic_read(&cb_runs) == 0,
		"call_rcu from an unregistered thread waits for a pre-existing reader");
	uatomic_set(&reader_state, 2);
	pthread_join(tid, NULL);
	T_FN(barrier)();
	tap_ok(uatomic_read(&cb_runs) == 1, "rcu_barrier from an unregistered thread: the callback ran");

	/* synchronize_rcu. */
	T_FN(synchronize_rcu)();
	tap_ok(1, "synchronize_rcu from an unregistered thread returns");

	/* The call_rcu thread-control functions. */
	crdp = T_FN(create_call_rcu_data)(0, -1);
	tap_ok(crdp != NULL, "create_call_rcu_data from an unregistered thread");
	tap_ok(T_FN(get_call_rcu_thread)(crdp) != 0, "get_call_rcu_thread");
	T_FN(set_thread_call_rcu_data)(crdp);
	tap_ok(T_FN(get_thread_call_rcu_data)() == crdp, "set/get_thread_call_rcu_data");
	tap_ok(T_FN(get_call_rcu_data)() == crdp, "get_call_rcu_data returns the thread's worker");
	before = uatomic_read(&cb_runs);
	queue_one();
	T_FN(barrier)();
	tap_ok(uatomic_read(&cb_runs) == before + 1, "call_rcu through the thread's own worker");
	T_FN(set_thread_call_rcu_data)(NULL);
	T_FN(call_rcu_data_free)(crdp);
	tap_ok(1, "call_rcu_data_free from an unregistered thread");
	tap_ok(T_FN(get_default_call_rcu_data)() != NULL, "get_default_call_rcu_data");

	crdp = T_FN(create_call_rcu_data)(0, 0);
	ret = T_FN(set_cpu_call_rcu_data)(0, crdp);
	tap_ok(ret == 0, "set_cpu_call_rcu_data (ret %d)", ret);
	got = T_FN(get_cpu_call_rcu_data)(0);
	tap_ok(got == crdp, "get_cpu_call_rcu_data");
	T_FN(free_all_cpu_call_rcu_data)();
	tap_ok(T_FN(get_cpu_call_rcu_data)(0) == NULL, "free_all_cpu_call_rcu_data");

	ret = T_FN(create_all_cpu_call_rcu_data)(0);
	tap_ok(ret == 0 || ret == -EINVAL, "create_all_cpu_call_rcu_data (ret %d)", ret);
	before = uatomic_read(&cb_runs);
	for (int i = 0; i < 100; i++)
		queue_one();
	T_FN(barrier)();
	tap_ok(uatomic_read(&cb_runs) == before + 100, "call_rcu through per-CPU workers");
	T_FN(free_all_cpu_call_rcu_data)();

	/* Polled grace periods. */
	st = T_FN(start_poll_synchronize_rcu)();
	while (!T_FN(poll_state_synchronize_rcu)(st))
		t_sleep_ms(1);
	tap_ok(1, "start_poll/poll_state_synchronize_rcu from an unregistered thread");

#if T_IS_QSBR
	/* qsbr: a registered but offline thread, too. */
	T_FN(register_thread)();
	T_FN(thread_offline)();
	before = uatomic_read(&cb_runs);
	queue_one();
	T_FN(barrier)();
	tap_ok(uatomic_read(&cb_runs) == before + 1, "qsbr: call_rcu from an offline thread");
	T_FN(thread_online)();
	T_FN(unregister_thread)();
#endif
	return tap_done();
}
