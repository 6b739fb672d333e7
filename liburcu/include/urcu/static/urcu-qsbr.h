// SPDX-License-Identifier: MIT
/*
 * Inline read side of the qsbr flavor.
 *
 * A registered qsbr thread is "online": its reader word holds the global
 * word's value as of its last quiescent state.  Read-side critical sections
 * are free (read_lock/read_unlock compile to nothing, or to a depth counter in
 * debug builds); what costs is announcing a quiescent state, and even that is
 * two loads and a compare while no grace period is waiting for this thread.
 * Offline, the word is 0 and the updater ignores the thread.
 */
#ifndef URCU_STATIC_URCU_QSBR_H
#define URCU_STATIC_URCU_QSBR_H

#include <limits.h>		/* as liburcu's static/urcu-qsbr.h, which */
#include <urcu/static/urcu-common.h>	/* also includes urcu-common.h */
#include <urcu/static/urcu-gp.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

#ifdef __cplusplus
extern "C" {
#endif

URCU_API extern struct urcu_i_gp urcu_qsbr_i_gp;
URCU_API extern __thread struct urcu_i_reader urcu_qsbr_i_reader URCU_I_TLS_MODEL;
/* Out of line: announce a new quiescent state, wake a sleeping updater. */
URCU_API void urcu_qsbr_i_quiescent_state_slow(unsigned long g);
/* Out of line (debug checks): report (not abort) a misuse the depth count found. */
URCU_API void urcu_qsbr_i_debug_misuse(const char *func);

static inline void urcu_qsbr_i_read_lock(void)
{
#ifdef URCU_I_DEBUG_CHECKS
	if (urcu_qsbr_i_reader.ctr == URCU_READER_UNREGISTERED)
		urcu_qsbr_i_debug_misuse("rcu_read_lock");
	urcu_qsbr_i_reader.debug_nest++;
#endif
}

static inline void urcu_qsbr_i_read_unlock(void)
{
#ifdef URCU_I_DEBUG_CHECKS
	if (urcu_qsbr_i_reader.debug_nest == 0)
		urcu_qsbr_i_debug_misuse("rcu_read_unlock");	/* reported, then ignored */
	else
		urcu_qsbr_i_reader.debug_nest--;
#endif
}

/* qsbr: "ongoing" means online, as in liburcu. */
static inline int urcu_qsbr_i_read_ongoing(void)
{
	unsigned long c = urcu_qsbr_i_reader.ctr;

	return c != 0 && c != URCU_READER_UNREGISTERED;
}

/*
 * Announce a quiescent state.  Ordering: when a grace period is waiting for
 * this thread, every access before the call is ordered before the grace
 * period's end and every access after it after the grace period's start
 * (full fences in the slow path).  When none waits, there is nothing to order.
 */
static inline void urcu_qsbr_i_quiescent_state(void)
{
	unsigned long c = urcu_qsbr_i_reader.ctr;
	unsigned long g = CMM_LOAD_SHARED(urcu_qsbr_i_gp.ctr);

#ifdef URCU_I_DEBUG_CHECKS
	if (urcu_qsbr_i_reader.debug_nest)
		urcu_qsbr_i_debug_misuse("rcu_quiescent_state");
#endif
	/* Offline or unregistered threads, and up-to-date ones, skip. */
	if (caa_unlikely((c ^ g) & URCU_GP_SEQ_MASK) && c != 0
			&& c != URCU_READER_UNREGISTERED)
		urcu_qsbr_i_quiescent_state_slow(g);
}

#ifdef __cplusplus
}
#endif

/*
 * liburcu's names for the inline fast paths: for programs that include this
 * header by name with _LGPL_SOURCE, and what the legacy _rcu_read_lock()
 * and friends expand to (urcu/map/urcu-qsbr.h, urcu/map/urcu-qsbr-compat.h).
 */
#define _urcu_qsbr_read_lock		urcu_qsbr_i_read_lock
#define _urcu_qsbr_read_unlock		urcu_qsbr_i_read_unlock
#define _urcu_qsbr_read_ongoing		urcu_qsbr_i_read_ongoing
#define _urcu_qsbr_quiescent_state	urcu_qsbr_i_quiescent_state
/* Going offline or online may wake or wait for the updater: out of line. */
#define _urcu_qsbr_thread_offline	urcu_qsbr_i_thread_offline
#define _urcu_qsbr_thread_online	urcu_qsbr_i_thread_online

/*
 * Included by name, this header also brings the flavor's API, which
 * declares urcu_qsbr_thread_offline() and urcu_qsbr_thread_online().
 * (Included by <urcu/urcu-qsbr.h>, this is a no-op: that header's guard is
 * already defined, and it has declared them already.)
 */
#include <urcu/urcu-qsbr.h>

/*
 * The underscore names are the implementation and never expand to the plain
 * ones (as in liburcu), so a program may redefine urcu_qsbr_thread_offline
 * or rcu_thread_offline on top of _urcu_qsbr_thread_offline() without
 * calling itself: these shells, compiled here before any such definition,
 * call the library's functions.
 */
static inline void urcu_qsbr_i_thread_offline(void)
{
	urcu_qsbr_thread_offline();
}

static inline void urcu_qsbr_i_thread_online(void)
{
	urcu_qsbr_thread_online();
}

#endif /* URCU_STATIC_URCU_QSBR_H */
