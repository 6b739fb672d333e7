// SPDX-License-Identifier: MIT
/*
 * call_rcu internals shared by call-rcu.c (the API and the worker layout),
 * call-rcu-workers.c (the worker threads) and call-rcu-fork.c.  Compiled per
 * flavor; every name here is hidden and flavor-prefixed (URCU_FN) so that
 * several flavors' static libraries can be linked into one program.
 */
#ifndef URCU_SRC_CALL_RCU_INTERNAL_H
#define URCU_SRC_CALL_RCU_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <urcu/list.h>
#include <urcu/wfcqueue.h>
#include <urcu/call-rcu.h>
#include <urcu/call-rcu-stats.h>

#include "flavor.h"

/*
 * Worker state bits (crdp->state, a futex word).  Requests are set by other
 * threads, acknowledgements by the worker; every change is followed by a
 * futex wake of all waiters on the word.
 */
#define CRDP_STOP	(1 << 0)	/* request: leave the loop and exit */
#define CRDP_STOPPED	(1 << 1)	/* ack: the thread has unregistered */
#define CRDP_PAUSE	(1 << 2)	/* request: park at a safe point (fork) */
#define CRDP_PAUSED	(1 << 3)	/* ack: parked, offline, holds no lock */

/* crdp->sleep: the worker sleeps on it, or is about to, when it reads -1. */
#define CRDP_AWAKE	0
#define CRDP_SLEEPING	(-1)

struct call_rcu_data {
	/*
	 * Enqueue side: written by every call_rcu() to this worker.  queued
	 * shares the tail's cache line, which enqueuers write anyway.
	 */
	struct cds_wfcq_tail cbs_tail;
	unsigned long queued;		/* relaxed; callbacks handed over */
	/*
	 * Padding rather than an aligned attribute: list iteration computes
	 * a struct pointer from the list head, which must not be flagged as
	 * misaligned.  Allocated on a cache-line boundary.
	 */
	char pad[CAA_CACHE_LINE_SIZE - sizeof(struct cds_wfcq_tail) - sizeof(unsigned long)];

	/* Worker side. */
	struct __cds_wfcq_head cbs_head;
	int32_t sleep;			/* futex: CRDP_SLEEPING / CRDP_AWAKE */
	int32_t state;			/* futex: CRDP_* request/ack bits */
	unsigned long flags;		/* URCU_CALL_RCU_RT or 0; constant */
	int cpu_affinity;		/* bound CPU or -1; constant */
	pthread_t tid;
	unsigned long invoked;		/* relaxed; written by the worker only */
	unsigned long grace_periods;	/* relaxed; written by the worker only */
	unsigned long max_backlog;	/* relaxed; written by the worker only */

	/* All workers of the flavor, under callrcu.lock. */
	struct cds_list_head node;
};

/* Per-flavor call_rcu state. */
struct urcu_i_callrcu {
	/*
	 * Protects the worker list, the per-CPU array's contents, default_crdp
	 * creation and every layout change; rcu_barrier() enqueues under it.
	 * Held from call_rcu_before_fork() to the after_fork functions.
	 */
	pthread_mutex_t lock;
	struct cds_list_head workers;
	struct call_rcu_data *default_crdp;	/* RCU-read with uatomic_load */
	struct call_rcu_data **per_cpu;		/* allocated once, never freed */
	int nr_cpus;				/* size of per_cpu */
	/* Bumped (and futex-woken) by each worker that parks or stops. */
	int32_t park_seq;
};

extern struct urcu_i_callrcu URCU_FN(i_callrcu);

/* call-rcu-workers.c */
struct call_rcu_data *URCU_FN(i_crdp_create)(unsigned long flags, int cpu);
void URCU_FN(i_crdp_enqueue)(struct call_rcu_data *crdp, struct cds_wfcq_node *node);
void URCU_FN(i_crdp_request)(struct call_rcu_data *crdp, int32_t bits);
void URCU_FN(i_crdp_clear)(struct call_rcu_data *crdp, int32_t bits);
void URCU_FN(i_crdp_wait_state)(struct call_rcu_data *crdp, int32_t bits);
void URCU_FN(i_crdp_move_all)(struct call_rcu_data *dest, struct call_rcu_data *src,
		bool blocking);
void URCU_FN(i_crdp_destroy)(struct call_rcu_data *crdp);
void URCU_FN(i_crdp_stats)(struct call_rcu_data *crdp, struct urcu_call_rcu_stats *out);

/* call-rcu.c */
struct call_rcu_data *URCU_FN(i_default_locked)(void);
void URCU_FN(i_thread_crdp_reset)(void);

/*
 * Block in a way that never holds up a grace period: a qsbr thread that is
 * online goes offline for the duration (the worker it waits for may need a
 * grace period, which would wait for this thread).  Other flavors: callers
 * are outside read-side critical sections, nothing to do.
 */
static inline bool urcu_i_quiesce_begin(void)
{
#if URCU_FLAVOR_IS_QSBR
	if (URCU_FN(i_online)()) {
		URCU_FN(thread_offline)();
		return true;
	}
#endif
	return false;
}

static inline void urcu_i_quiesce_end(bool was_online)
{
	if (was_online)
		URCU_FN(thread_online)();
}

static inline void urcu_i_callrcu_lock(void)
{
	int ret = pthread_mutex_lock(&URCU_FN(i_callrcu).lock);

	if (ret)
		urcu_common_die("call_rcu", "cannot take the call_rcu lock (error %d)", ret);
}

static inline void urcu_i_callrcu_unlock(void)
{
	int ret = pthread_mutex_unlock(&URCU_FN(i_callrcu).lock);

	if (ret)
		urcu_common_die("call_rcu", "cannot release the call_rcu lock (error %d)", ret);
}

#endif /* URCU_SRC_CALL_RCU_INTERNAL_H */
