// SPDX-License-Identifier: MIT
/*
 * call_rcu(): types shared by every flavor.
 *
 * The functions themselves are per flavor (urcu_memb_call_rcu,
 * urcu_qsbr_call_rcu, ...) and are declared by the flavor headers
 * (urcu/urcu-<flavor>.h); an umbrella header (<urcu.h>, <urcu-qsbr.h>,
 * <urcu-bp.h>) maps the generic names call_rcu, rcu_barrier, ... to one
 * flavor.  Keeping prototypes out of this header is what lets several flavors
 * share one translation unit.
 *
 * A callback is queued with call_rcu(head, func): func(head) runs on a
 * callback worker thread after a grace period that began after the call.
 * Embed struct rcu_head in the object to free and recover the object with
 * caa_container_of() in the callback.
 */
#ifndef URCU_CALL_RCU_H
#define URCU_CALL_RCU_H

#include <stdlib.h>
#include <pthread.h>
#include <urcu/wfcqueue.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A callback worker and its queue.  Opaque: use the accessor functions. */
struct call_rcu_data;

/*
 * Flags of create_call_rcu_data().  URCU_CALL_RCU_RT is the only one a user
 * passes: the worker polls its queue instead of sleeping, so call_rcu() never
 * enters the kernel to wake it (at the price of a CPU kept busy).  The other
 * values name worker states; they exist for source compatibility and are
 * ignored when passed in.
 */
#define URCU_CALL_RCU_RT	(1U << 0)
#define URCU_CALL_RCU_RUNNING	(1U << 1)
#define URCU_CALL_RCU_STOP	(1U << 2)
#define URCU_CALL_RCU_STOPPED	(1U << 3)
#define URCU_CALL_RCU_PAUSE	(1U << 4)
#define URCU_CALL_RCU_PAUSED	(1U << 5)

/*
 * One pending callback.  Embed it in the object the callback frees.  The
 * fields belong to the library from call_rcu() until func is invoked.
 */
struct rcu_head {
	struct cds_wfcq_node next;
	void (*func)(struct rcu_head *head);
};

#ifdef __cplusplus
}
#endif

#endif /* URCU_CALL_RCU_H */
