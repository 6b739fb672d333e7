// SPDX-License-Identifier: MIT
/*
 * Per-flavor compilation: which flavor this translation unit is built for,
 * and the small set of hooks in which the flavors differ.
 *
 * Every per-flavor source is compiled once per flavor with one of
 * URCU_FLAVOR_{MEMB,MB,SIGNAL,QSBR,BP} defined (liburcu/meson.build).
 *
 * Hooks:
 *   URCU_FLAVOR_ORDER      how the updater forces ordering on readers
 *                          before scanning them: MEMBARRIER (membarrier(2),
 *                          fenced readers as fallback), FENCE (readers fence
 *                          themselves; the updater needs a plain fence), or
 *                          SIGNAL (a signal round: every reader fences in a
 *                          handler).
 *   URCU_FLAVOR_GP_INIT    initial flags of the global word: URCU_GP_FENCE
 *                          until init proves membarrier(2) works.
 *   URCU_FLAVOR_IS_QSBR    readers announce quiescent states instead of
 *                          critical sections.
 *   URCU_FLAVOR_IS_BP      read_lock registers unregistered threads.
 */
#ifndef URCU_SRC_FLAVOR_H
#define URCU_SRC_FLAVOR_H

#define URCU_ORDER_MEMBARRIER	1
#define URCU_ORDER_FENCE	2
#define URCU_ORDER_SIGNAL	3

#if defined(URCU_FLAVOR_MEMB)
# include <urcu/urcu-memb.h>
# define URCU_FN(name)		urcu_memb_##name
# define URCU_FLAVOR_NAME	"memb"
# define URCU_FLAVOR_ORDER	URCU_ORDER_MEMBARRIER
# define URCU_FLAVOR_GP_INIT	URCU_GP_FENCE
# define URCU_FLAVOR_IS_QSBR	0
# define URCU_FLAVOR_IS_BP	0
#elif defined(URCU_FLAVOR_MB)
# include <urcu/urcu-mb.h>
# define URCU_FN(name)		urcu_mb_##name
# define URCU_FLAVOR_NAME	"mb"
# define URCU_FLAVOR_ORDER	URCU_ORDER_FENCE
# define URCU_FLAVOR_GP_INIT	URCU_GP_FENCE
# define URCU_FLAVOR_IS_QSBR	0
# define URCU_FLAVOR_IS_BP	0
#elif defined(URCU_FLAVOR_SIGNAL)
# include <urcu/urcu-signal.h>
# define URCU_FN(name)		urcu_signal_##name
# define URCU_FLAVOR_NAME	"signal"
# ifndef URCU_I_TSAN
#  define URCU_FLAVOR_ORDER	URCU_ORDER_SIGNAL
#  define URCU_FLAVOR_GP_INIT	0UL
# else
/*
 * ThreadSanitizer builds only (docs/VERIFICATION.md): TSan runs a signal
 * handler only when the thread leaves an intercepted call, so a reader
 * blocked in pthread_mutex_lock on the registry lock, which the updater
 * holds while it waits for the acknowledgements, never acknowledges (a
 * deadlock seen in unit-gp_waits_reader-signal).  Readers fence
 * themselves instead, as in mb, with fences TSan models (urcu/arch.h).
 */
#  define URCU_FLAVOR_ORDER	URCU_ORDER_FENCE
#  define URCU_FLAVOR_GP_INIT	URCU_GP_FENCE
# endif
# define URCU_FLAVOR_IS_QSBR	0
# define URCU_FLAVOR_IS_BP	0
#elif defined(URCU_FLAVOR_QSBR)
# include <urcu/urcu-qsbr.h>
# define URCU_FN(name)		urcu_qsbr_##name
# define URCU_FLAVOR_NAME	"qsbr"
# define URCU_FLAVOR_ORDER	URCU_ORDER_FENCE
# define URCU_FLAVOR_GP_INIT	0UL
# define URCU_FLAVOR_IS_QSBR	1
# define URCU_FLAVOR_IS_BP	0
#elif defined(URCU_FLAVOR_BP)
# include <urcu/urcu-bp.h>
# define URCU_FN(name)		urcu_bp_##name
# define URCU_FLAVOR_NAME	"bp"
# define URCU_FLAVOR_ORDER	URCU_ORDER_MEMBARRIER
# define URCU_FLAVOR_GP_INIT	URCU_GP_FENCE
# define URCU_FLAVOR_IS_QSBR	0
# define URCU_FLAVOR_IS_BP	1
#else
# error "compile with one of URCU_FLAVOR_{MEMB,MB,SIGNAL,QSBR,BP} defined"
#endif

#include "common.h"

/* Calling thread is a registered reader (bp: always true: it registers lazily). */
int URCU_FN(i_registered)(void);
/* qsbr: calling thread is registered and online; other flavors: registered. */
int URCU_FN(i_online)(void);

#endif /* URCU_SRC_FLAVOR_H */
