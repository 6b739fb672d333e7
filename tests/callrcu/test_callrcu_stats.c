// SPDX-License-Identifier: MIT
/*
 * call_rcu, for one flavor (TEST_FLAVOR_<NAME>):
 * the statistics extension
 * (call_rcu_stats, call_rcu_data_stats).
 * TAP output.
 */
#include "callrcu-common.h"

/* ---- statistics --------------------------------------------------------------- */

static void test_stats(void)
{
	struct urcu_call_rcu_stats st[16];
	int n = T_FN(call_rcu_stats)(NULL, 0);
	int m = T_FN(call_rcu_stats)(st, 16);
	unsigned long long invoked = 0;

	tap_ok(n >= 1 && m == n, "call_rcu_stats counts the live workers (%d)", n);
	for (int i = 0; i < m && i < 16; i++)
		invoked += st[i].invoked;
	tap_ok(invoked > 0, "workers report invoked callbacks (%llu)", invoked);
	errno = 0;
	tap_ok(T_FN(call_rcu_data_stats)(NULL, st) == -1 && errno == EINVAL, "call_rcu_data_stats(NULL): EINVAL");
}

int main(void)
{
	callrcu_test_begin();
	/* Something for the workers to have invoked (no check of its own). */
	for (int i = 0; i < 100; i++)
		queue_one(count_cb);
	T_FN(barrier)();
	test_stats();
	return callrcu_test_end();
}
