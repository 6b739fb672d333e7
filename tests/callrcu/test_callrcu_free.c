// SPDX-License-Identifier: MIT
/*
 * call_rcu, for one flavor (TEST_FLAVOR_<NAME>):
 * call_rcu_data_free with callbacks in flight and pending.
 * TAP output.
 */
#include "callrcu-common.h"

/* ---- call_rcu_data_free with callbacks in flight and pending --------------- */

static int free_done;

static void *freer(void *arg)
{
	T_FN(call_rcu_data_free)(arg);
	uatomic_store(&free_done, 1, CMM_RELEASE);
	return NULL;
}

static void test_free_with_pending(void)
{
	struct call_rcu_data *crdp = T_FN(create_call_rcu_data)(0, -1);
	struct guarded *g = calloc(1, sizeof(*g));
	pthread_t reader, ft;
	int first_id;

	uatomic_set(&gate_open, 0);
	uatomic_set(&reader_holding, 0);
	uatomic_set(&reader_release, 0);
	g->valid = 1;
	rcu_assign_pointer(shared, g);
	pthread_create(&reader, NULL, holding_reader, NULL);
	while (!uatomic_load(&reader_holding, CMM_ACQUIRE))
		T_QUIESCENT_SLEEP_MS(1);

	T_FN(set_thread_call_rcu_data)(crdp);
	first_id = uatomic_read(&next_id);
	for (int i = 0; i < 10; i++)		/* the worker's batch, waiting */
		queue_one(gated_cb);
	/* The worker records its backlog when it takes a batch. */
	for (int t = 0; t < 5000; t++) {
		struct urcu_call_rcu_stats st;

		if (T_FN(call_rcu_data_stats)(crdp, &st) == 0 && st.max_backlog >= 10)
			break;
		T_QUIESCENT_SLEEP_MS(1);
	}
	for (int i = 0; i < 10; i++)		/* still in its queue */
		queue_one(gated_cb);
	T_FN(set_thread_call_rcu_data)(NULL);

	pthread_create(&ft, NULL, freer, crdp);
	T_QUIESCENT_SLEEP_MS(50);
	tap_ok(!uatomic_load(&free_done, CMM_ACQUIRE),
		"call_rcu_data_free waits for the worker's batch in flight");
	tap_ok(uatomic_read(&counts[first_id]) == 0, "no callback ran while the reader holds");
	uatomic_store(&gate_open, 1, CMM_RELEASE);
	uatomic_store(&reader_release, 1, CMM_RELEASE);
	T_FN(thread_offline)();
	pthread_join(reader, NULL);
	pthread_join(ft, NULL);
	T_FN(thread_online)();
	T_FN(barrier)();
	tap_ok(uatomic_read(&gate_violations) == 0, "no callback ran before its grace period");
	check_all_once("call_rcu_data_free with pending callbacks");
	rcu_assign_pointer(shared, NULL);
	T_FN(synchronize_rcu)();
	free(g);
}

int main(void)
{
	callrcu_test_begin();
	test_free_with_pending();
	return callrcu_test_end();
}
