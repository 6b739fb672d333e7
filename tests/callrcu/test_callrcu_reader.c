// SPDX-License-Identifier: MIT
/*
 * call_rcu, for one flavor (TEST_FLAVOR_<NAME>):
 * a callback waits for a reader that held the object at call_rcu time.
 * TAP output.
 */
#include "callrcu-common.h"

static void test_waits_for_reader(void)
{
	struct guarded *g = calloc(1, sizeof(*g));
	pthread_t tid;

	g->valid = 1;
	rcu_assign_pointer(shared, g);
	pthread_create(&tid, NULL, holding_reader, NULL);
	while (!uatomic_load(&reader_holding, CMM_ACQUIRE))
		T_QUIESCENT_SLEEP_MS(1);
	rcu_assign_pointer(shared, NULL);
	T_FN(call_rcu)(&g->head, poison_cb);
	T_QUIESCENT_SLEEP_MS(100);
	tap_ok(!uatomic_read(&poison_ran), "callback does not run while a pre-existing reader holds the object");
	uatomic_store(&reader_release, 1, CMM_RELEASE);
	T_FN(thread_offline)();
	pthread_join(tid, NULL);
	T_FN(thread_online)();
	T_FN(barrier)();
	tap_ok(uatomic_read(&poison_ran), "callback ran after the reader unlocked");
	tap_ok(!uatomic_read(&reader_saw_poison), "reader never saw the object reclaimed");
	free(g);
}

int main(void)
{
	callrcu_test_begin();
	test_waits_for_reader();
	return callrcu_test_end();
}
