// SPDX-License-Identifier: MIT
/*
 * call_rcu, for one flavor (TEST_FLAVOR_<NAME>):
 * every callback runs exactly once: several enqueuers, one of them
 * inside read-side critical sections.
 * TAP output.
 */
#include "callrcu-common.h"

/* ---- exactly once, several enqueuers, inside critical sections ------------- */

#define PER_ENQUEUER	20000

static void *enqueuer(void *arg)
{
	bool in_cs = arg != NULL;

	T_FN(register_thread)();
	for (int i = 0; i < PER_ENQUEUER; i++) {
		if (in_cs)
			T_FN(read_lock)();
		queue_one(count_cb);
		if (in_cs)
			T_FN(read_unlock)();
		if (!(i % 64))
			T_FN(quiescent_state)();
	}
	T_FN(unregister_thread)();
	return NULL;
}

static void test_exactly_once(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, enqueuer, NULL);
	pthread_create(&b, NULL, enqueuer, (void *) 1);
	T_FN(thread_offline)();
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	T_FN(thread_online)();
	/* From inside a read-side critical section, on this thread too. */
	T_FN(read_lock)();
	for (int i = 0; i < 100; i++)
		queue_one(count_cb);
	T_FN(read_unlock)();
	T_FN(barrier)();
	check_all_once("two enqueuers (one inside read-side critical sections)");
}

int main(void)
{
	callrcu_test_begin();
	test_exactly_once();
	return callrcu_test_end();
}
