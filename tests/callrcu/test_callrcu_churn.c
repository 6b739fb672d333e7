// SPDX-License-Identifier: MIT
/*
 * call_rcu, for one flavor (TEST_FLAVOR_<NAME>):
 * layout changes while a thread keeps enqueueing.
 * TAP output.
 */
#include "callrcu-common.h"

/* ---- layout changes while a thread keeps enqueueing ------------------------ */

#define CHURN_MAX	60000

static int churn_stop;

static void *churn_enqueuer(void *arg)
{
	unsigned long i = 0;

	(void) arg;
	T_FN(register_thread)();
	/* At least 1000 callbacks, at most CHURN_MAX (the id space is finite). */
	while ((!uatomic_load(&churn_stop, CMM_ACQUIRE) || i < 1000) && i < CHURN_MAX) {
		T_FN(read_lock)();
		queue_one(count_cb);
		T_FN(read_unlock)();
		if (!(++i % 32)) {
			T_FN(quiescent_state)();
			usleep(50);
		}
	}
	T_FN(unregister_thread)();
	return NULL;
}

static void test_layout_churn(void)
{
	pthread_t tid;

	pthread_create(&tid, NULL, churn_enqueuer, NULL);
	for (int round = 0; round < 8; round++) {
		struct call_rcu_data *x;

		if (T_FN(create_all_cpu_call_rcu_data)(round & 1 ? URCU_CALL_RCU_RT : 0))
			tap_diag("create_all_cpu_call_rcu_data: %s", strerror(errno));
		T_QUIESCENT_SLEEP_MS(3);
		T_FN(free_all_cpu_call_rcu_data)();
		x = T_FN(create_call_rcu_data)(0, -1);
		T_FN(set_cpu_call_rcu_data)(0, x);
		T_QUIESCENT_SLEEP_MS(3);
		T_FN(set_cpu_call_rcu_data)(0, NULL);
		T_FN(synchronize_rcu)();
		T_FN(call_rcu_data_free)(x);
	}
	uatomic_store(&churn_stop, 1, CMM_RELEASE);
	T_FN(thread_offline)();
	pthread_join(tid, NULL);
	T_FN(thread_online)();
	T_FN(barrier)();
	check_all_once("layout changes while enqueueing");
}

int main(void)
{
	callrcu_test_begin();
	test_layout_churn();
	return callrcu_test_end();
}
