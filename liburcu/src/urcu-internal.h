// SPDX-License-Identifier: MIT
/*
 * Declarations shared by the per-flavor sources of the grace-period engine.
 * Everything here is hidden (no URCU_API): internal to one flavor library.
 */
#ifndef URCU_SRC_URCU_INTERNAL_H
#define URCU_SRC_URCU_INTERNAL_H

#include <pthread.h>
#include <urcu/list.h>

#include "flavor.h"

/*
 * The registered readers, protected by lock, newest first (a registration
 * adds at the head; nothing reorders the list).  gen changes (under lock)
 * with every change of the list, so that the grace-period leader knows when
 * its dense copy of the list (urcu-gp.c, struct scan_set) must be rebuilt.
 */
struct urcu_i_registry {
	pthread_mutex_t lock;
	struct cds_list_head readers;
	unsigned long gen;
	/*
	 * Records on readers, written under lock; synchronize_rcu() reads it
	 * without the lock (its fast path, urcu-gp.c "No reader").
	 */
	unsigned long count;
};

extern struct urcu_i_registry URCU_FN(i_registry);

/* urcu-order.c: make readers' earlier stores visible and order them (B1). */
void URCU_FN(i_force_order)(void);
/* urcu-order.c: set up / tear down the ordering mechanism (init/exit). */
void URCU_FN(i_order_init)(void);
void URCU_FN(i_order_exit)(void);

/* urcu-gp.c: wake a grace period sleeping on readers (slow path). */
void URCU_FN(i_wake_updater)(void);
/* urcu-gp.c: the same, only if that grace period waits for reader r. */
void URCU_FN(i_wake_updater_for)(struct urcu_i_reader *r);
/* urcu-gp.c: fork support (bp handlers). */
void URCU_FN(i_gp_fork_prepare)(void);
void URCU_FN(i_gp_fork_parent)(void);
void URCU_FN(i_gp_fork_child)(void);

/* urcu-reader.c: fork support (bp handlers and the call_rcu fork functions). */
void URCU_FN(i_fork_prepare)(void);
void URCU_FN(i_fork_parent)(void);
void URCU_FN(i_fork_child)(void);

void URCU_FN(i_lock)(pthread_mutex_t *m);
void URCU_FN(i_unlock)(pthread_mutex_t *m);

#endif /* URCU_SRC_URCU_INTERNAL_H */
