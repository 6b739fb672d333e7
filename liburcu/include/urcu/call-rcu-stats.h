// SPDX-License-Identifier: MIT
/*
 * call_rcu worker statistics (an extension of this library; liburcu has no
 * such interface).  Test for URCU_CALL_RCU_STATS before using it.
 *
 * Each call_rcu worker keeps its own counters, updated with relaxed atomics
 * (the enqueuer adds to the target worker's "queued" count; the worker owns
 * the rest), so reading them costs the hot paths nothing.  A snapshot is not
 * atomic across fields: invoked may momentarily exceed what queued - backlog
 * suggests.  Meant for monitoring and for urcutorture's reports.
 */
#ifndef URCU_CALL_RCU_STATS_H
#define URCU_CALL_RCU_STATS_H

#include <pthread.h>
#include <urcu/compiler.h>
#include <urcu/call-rcu.h>

#define URCU_CALL_RCU_STATS	1

#ifdef __cplusplus
extern "C" {
#endif

struct urcu_call_rcu_stats {
	unsigned long long queued;	/* callbacks handed to this worker */
	unsigned long long invoked;	/* callbacks it has run */
	unsigned long long grace_periods; /* grace periods it waited for */
	unsigned long backlog;		/* queued and not yet invoked, now */
	unsigned long max_backlog;	/* highest backlog seen at a batch start */
	int cpu_affinity;		/* CPU it is bound to, or -1 */
	unsigned long flags;		/* URCU_CALL_RCU_RT if it polls */
	pthread_t thread;		/* the worker thread */
};

/*
 * urcu_<flavor>_call_rcu_stats(out, max): fill out[0 .. min(n, max) - 1]
 * with one entry per live worker of the flavor (the default worker, per-CPU
 * and per-thread workers) and return n, the number of live workers (which may
 * exceed max; call again with a larger array).  out may be NULL when max is 0.
 *
 * urcu_<flavor>_call_rcu_data_stats(crdp, out): the counters of one worker.
 * Returns 0, or -1 with errno EINVAL when crdp or out is NULL.
 *
 * Both may be called from any thread, registered or not, and never block
 * waiting for a grace period.
 */
#define URCU_I_DECLARE_CALL_RCU_STATS(flavor)					\
	URCU_API int urcu_##flavor##_call_rcu_stats(struct urcu_call_rcu_stats *out, \
			int max);						\
	URCU_API int urcu_##flavor##_call_rcu_data_stats(struct call_rcu_data *crdp, \
			struct urcu_call_rcu_stats *out);

URCU_I_DECLARE_CALL_RCU_STATS(memb)
URCU_I_DECLARE_CALL_RCU_STATS(mb)
URCU_I_DECLARE_CALL_RCU_STATS(qsbr)
URCU_I_DECLARE_CALL_RCU_STATS(bp)
URCU_I_DECLARE_CALL_RCU_STATS(signal)

#undef URCU_I_DECLARE_CALL_RCU_STATS

#ifdef __cplusplus
}
#endif

#endif /* URCU_CALL_RCU_STATS_H */
