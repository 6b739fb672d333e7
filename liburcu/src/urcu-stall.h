// SPDX-License-Identifier: MIT
/*
 * Grace-period statistics and stall reports (urcu-stall.c), as the
 * grace-period engine (urcu-gp.c) drives them.  Hidden: internal to one
 * flavor library.  The i_watch_* functions other than i_watch_waiter and
 * i_watch_no_reader are called by the grace-period leader only.
 */
#ifndef URCU_SRC_URCU_STALL_H
#define URCU_SRC_URCU_STALL_H

#include <stddef.h>
#include <stdint.h>
#include <urcu/call-rcu-stats.h>

#include "flavor.h"

/* A grace period numbered seq starts / has ended. */
void URCU_FN(i_watch_begin)(unsigned long seq);
void URCU_FN(i_watch_end)(void);
/* It waits for n readers now (statistics). */
void URCU_FN(i_watch_holdouts)(size_t n);
/* How long its next sleep on readers may last, in ns; -1: no limit. */
int64_t URCU_FN(i_watch_sleep_ns)(void);
/*
 * After a sleep, registry lock held: report a stall if one is due (drops
 * and retakes the lock around the report; the caller rescans anyway).
 */
void URCU_FN(i_watch_check)(unsigned long g);
/* A synchronize_rcu found no registered thread: a grace period of 0 ns. */
void URCU_FN(i_watch_no_reader)(void);
/* A caller enters (+1) or leaves (-1) synchronize_rcu. */
void URCU_FN(i_watch_waiter)(int delta);

/* call-rcu.c: the workers' statistics, or -1 when the call_rcu lock is busy. */
int URCU_FN(i_callrcu_stats_try)(struct urcu_call_rcu_stats *out, int max);

#endif /* URCU_SRC_URCU_STALL_H */
