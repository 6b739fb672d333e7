// SPDX-License-Identifier: MIT
/*
 * call_rcu, for one flavor (TEST_FLAVOR_<NAME>):
 * per-CPU workers (the bound worker runs on its CPU) and the error
 * codes of set_cpu_call_rcu_data.
 * TAP output.
 */
#include "callrcu-common.h"

struct pinned_arg {
	int cpu;
	int ran_cpu;
	pthread_t ran_thread;
	pthread_t expect_thread;
};


static void *pinned_enqueuer(void *arg)
{
	struct pinned_arg *pa = arg;
	struct call_rcu_data *crdp;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(pa->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return NULL;
	T_FN(register_thread)();
	T_FN(read_lock)();
	crdp = T_FN(get_call_rcu_data)();
	pa->expect_thread = T_FN(get_call_rcu_thread)(crdp);
	T_FN(read_unlock)();
	queue_one(count_cb);
	T_FN(thread_offline)();
	T_FN(barrier)();
	T_FN(thread_online)();
	pa->ran_cpu = last_cpu;
	pa->ran_thread = last_thread;
	T_FN(unregister_thread)();
	return NULL;
}

static void test_cpu_layout(void)
{
	cpu_set_t allowed;
	int ncpu = (int) sysconf(_SC_NPROCESSORS_CONF);
	unsigned long long def_before;
	struct urcu_call_rcu_stats st;
	int good_cpu = 0, tested = 0, bound_ok = 0;

	tap_ok(T_FN(create_all_cpu_call_rcu_data)(0) == 0, "create_all_cpu_call_rcu_data");
	T_FN(call_rcu_data_stats)(T_FN(get_default_call_rcu_data)(), &st);
	def_before = st.invoked;
	sched_getaffinity(0, sizeof(allowed), &allowed);
	for (int cpu = 0; cpu < ncpu && cpu < CPU_SETSIZE; cpu++) {
		struct pinned_arg pa = { .cpu = cpu, .ran_cpu = -1 };
		struct call_rcu_data *crdp;
		pthread_t tid;

		T_FN(read_lock)();
		crdp = T_FN(get_cpu_call_rcu_data)(cpu);
		T_FN(read_unlock)();
		if (!CPU_ISSET(cpu, &allowed))
			continue;	/* its worker cannot be bound there */
		if (crdp && T_FN(call_rcu_data_stats)(crdp, &st) == 0 && st.cpu_affinity == cpu)
			bound_ok++;
		tested++;
		pthread_create(&tid, NULL, pinned_enqueuer, &pa);
		T_FN(thread_offline)();
		pthread_join(tid, NULL);
		T_FN(thread_online)();
		if (pa.ran_cpu == cpu && pthread_equal(pa.ran_thread, pa.expect_thread)
				&& crdp && pthread_equal(pa.expect_thread, T_FN(get_call_rcu_thread)(crdp)))
			good_cpu++;
		else
			tap_diag("cpu %d: callback ran on cpu %d", cpu, pa.ran_cpu);
	}
	tap_ok(tested > 0 && bound_ok == tested, "every usable CPU has a worker bound to it (%d/%d)",
		bound_ok, tested);
	tap_ok(tested > 0 && good_cpu == tested,
		"a thread on CPU n uses CPU n's worker, which runs on CPU n (%d/%d)", good_cpu, tested);
	T_FN(call_rcu_data_stats)(T_FN(get_default_call_rcu_data)(), &st);
	tap_ok(st.invoked - def_before <= (unsigned long long) ncpu,
		"the default worker only ran barrier callbacks meanwhile");
	T_FN(free_all_cpu_call_rcu_data)();
	T_FN(read_lock)();
	tap_ok(T_FN(get_cpu_call_rcu_data)(0) == NULL, "free_all_cpu_call_rcu_data detaches every CPU");
	T_FN(read_unlock)();
	check_all_once("per-CPU layout");
}

static void test_set_cpu_errors(void)
{
	struct call_rcu_data *a = T_FN(create_call_rcu_data)(0, -1);
	struct call_rcu_data *b = T_FN(create_call_rcu_data)(0, -1);

	errno = 0;
	tap_ok(T_FN(set_cpu_call_rcu_data)(-1, a) == -EINVAL && errno == EINVAL,
		"set_cpu_call_rcu_data(-1): -EINVAL, errno EINVAL");
	errno = 0;
	tap_ok(T_FN(set_cpu_call_rcu_data)(1 << 20, a) == -EINVAL && errno == EINVAL,
		"set_cpu_call_rcu_data(huge cpu): -EINVAL");
	tap_ok(T_FN(set_cpu_call_rcu_data)(0, a) == 0, "set_cpu_call_rcu_data(0, a)");
	errno = 0;
	tap_ok(T_FN(set_cpu_call_rcu_data)(0, b) == -EEXIST && errno == EEXIST,
		"second worker for CPU 0: -EEXIST, errno EEXIST");
	T_FN(read_lock)();
	tap_ok(T_FN(get_cpu_call_rcu_data)(0) == a, "CPU 0 keeps its first worker");
	tap_ok(T_FN(get_cpu_call_rcu_data)(-5) == NULL && T_FN(get_cpu_call_rcu_data)(1 << 20) == NULL,
		"get_cpu_call_rcu_data of a bad CPU is NULL");
	T_FN(read_unlock)();
	tap_ok(T_FN(set_cpu_call_rcu_data)(0, NULL) == 0, "set_cpu_call_rcu_data(0, NULL) detaches");
	tap_ok(T_FN(set_cpu_call_rcu_data)(0, b) == 0, "then another worker may be set");
	tap_ok(T_FN(set_cpu_call_rcu_data)(0, NULL) == 0, "and detached");
	T_FN(synchronize_rcu)();
	T_FN(call_rcu_data_free)(a);
	T_FN(call_rcu_data_free)(b);
}

int main(void)
{
	callrcu_test_begin();
	test_cpu_layout();
	test_set_cpu_errors();
	return callrcu_test_end();
}
