// SPDX-License-Identifier: MIT
/*
 * call_rcu, for one flavor (TEST_FLAVOR_<NAME>):
 * the default worker, and per-thread workers (normal and RT): which
 * worker a thread uses and which worker runs its callbacks.
 * TAP output.
 */
#include "callrcu-common.h"

/* ---- layouts --------------------------------------------------------------- */

static void test_default_layout(void)
{
	struct call_rcu_data *def = T_FN(get_default_call_rcu_data)();

	tap_ok(def != NULL && def == T_FN(get_default_call_rcu_data)(), "default worker exists and is stable");
	tap_ok(T_FN(get_thread_call_rcu_data)() == NULL, "no per-thread worker by default");
	tap_ok(T_FN(get_call_rcu_data)() == def, "get_call_rcu_data falls back to the default");
	queue_one(count_cb);
	T_FN(barrier)();
	tap_ok(pthread_equal(last_thread, T_FN(get_call_rcu_thread)(def)), "callback ran on the default worker");
	T_FN(call_rcu_data_free)(def);	/* the default is never freed */
	tap_ok(T_FN(get_default_call_rcu_data)() == def, "call_rcu_data_free(default) is ignored");
}

static void test_thread_layout(unsigned long flags, const char *name)
{
	struct call_rcu_data *crdp = T_FN(create_call_rcu_data)(flags, -1);
	struct urcu_call_rcu_stats st;
	int ret;

	tap_ok(crdp != NULL, "%s: create_call_rcu_data", name);
	T_FN(set_thread_call_rcu_data)(crdp);
	tap_ok(T_FN(get_thread_call_rcu_data)() == crdp && T_FN(get_call_rcu_data)() == crdp,
		"%s: per-thread worker beats the default", name);
	for (int i = 0; i < 1000; i++)
		queue_one(count_cb);
	T_FN(barrier)();
	tap_ok(pthread_equal(last_thread, T_FN(get_call_rcu_thread)(crdp)),
		"%s: callbacks ran on the thread's worker", name);
	memset(&st, 0, sizeof(st));
	ret = T_FN(call_rcu_data_stats)(crdp, &st);
	tap_ok(ret == 0 && st.queued >= 1000 && st.invoked >= 1000
		&& st.grace_periods >= 1 && st.flags == (flags & URCU_CALL_RCU_RT)
		&& st.cpu_affinity == -1 && pthread_equal(st.thread, T_FN(get_call_rcu_thread)(crdp)),
		"%s: stats queued=%llu invoked=%llu gps=%llu max_backlog=%lu", name,
		st.queued, st.invoked, st.grace_periods, st.max_backlog);
	T_FN(set_thread_call_rcu_data)(NULL);
	tap_ok(T_FN(get_thread_call_rcu_data)() == NULL, "%s: set_thread_call_rcu_data(NULL) detaches", name);
	T_FN(call_rcu_data_free)(crdp);
	check_all_once(name);
}

int main(void)
{
	callrcu_test_begin();
	test_default_layout();
	test_thread_layout(0, "per-thread worker");
	test_thread_layout(URCU_CALL_RCU_RT, "RT per-thread worker");
	return callrcu_test_end();
}
