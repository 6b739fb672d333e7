// SPDX-License-Identifier: MIT
/*
 * call_rcu, for one flavor (TEST_FLAVOR_<NAME>):
 * rcu_barrier with callbacks on several workers, whose threads have
 * exited with callbacks queued.
 * TAP output.
 */
#include "callrcu-common.h"

/* ---- rcu_barrier across several workers ------------------------------------ */

static void slow_cb(struct rcu_head *head)
{
	struct obj *o = caa_container_of(head, struct obj, head);

	if (!(o->id % 200))
		usleep(1000);
	count_cb(head);
}

static void *worker_user(void *arg)
{
	T_FN(register_thread)();
	T_FN(set_thread_call_rcu_data)(arg);
	for (int i = 0; i < 1000; i++)
		queue_one(slow_cb);
	/* Exits with its callbacks still queued. */
	T_FN(unregister_thread)();
	return NULL;
}

static void test_barrier_many(void)
{
	struct call_rcu_data *w[3];
	pthread_t tid[3];

	w[0] = T_FN(create_call_rcu_data)(0, -1);
	w[1] = T_FN(create_call_rcu_data)(URCU_CALL_RCU_RT, -1);
	w[2] = T_FN(create_call_rcu_data)(0, 0);
	for (int i = 0; i < 3; i++)
		pthread_create(&tid[i], NULL, worker_user, w[i]);
	for (int i = 0; i < 500; i++)
		queue_one(slow_cb);
	T_FN(thread_offline)();
	for (int i = 0; i < 3; i++)
		pthread_join(tid[i], NULL);
	T_FN(thread_online)();
	T_FN(barrier)();
	check_all_once("rcu_barrier over default, normal, RT and bound workers (threads exited)");
	for (int i = 0; i < 3; i++)
		T_FN(call_rcu_data_free)(w[i]);
}

int main(void)
{
	callrcu_test_begin();
	test_barrier_many();
	return callrcu_test_end();
}
