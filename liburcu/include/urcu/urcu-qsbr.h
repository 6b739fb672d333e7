// SPDX-License-Identifier: MIT
/*
 * The qsbr (quiescent-state-based) flavor: prefixed API (urcu_qsbr_*).
 *
 * Read-side critical sections are free.  Each registered thread is online
 * and must announce quiescent states (urcu_qsbr_quiescent_state()) or go
 * offline around blocking; a grace period waits for every online thread to
 * pass a quiescent state.  <urcu-qsbr.h> maps the generic names onto this
 * flavor.  The read side and quiescent_state are inline unless
 * URCU_NO_INLINE_READ_SIDE is defined without _LGPL_SOURCE (or in debug builds).
 */
#ifndef URCU_URCU_QSBR_H
#define URCU_URCU_QSBR_H

/* The template pulls in what every flavor's API needs. */

#define URCU_I_FLAVOR(name) urcu_qsbr_##name
#include <urcu/static/urcu-flavor-api.h>
#undef URCU_I_FLAVOR
#include <urcu/static/urcu-qsbr.h>

/*
 * Inline for every program (URCU_I_INLINE_READ_SIDE, urcu/static/urcu-gp.h):
 * read_lock/read_unlock, which do nothing outside debug builds, and the two
 * that read the reader and global words, read_ongoing and quiescent_state
 * (two loads and a compare while no grace period waits for this thread, a
 * fraction of a call).  Their layout is versioned ABI (docs/DESIGN.md,
 * "Reader ABI").  Debug builds (debug_checks, DEBUG_RCU) call the library,
 * which counts nesting, unless _LGPL_SOURCE asks for the inline versions.
 * thread_offline and thread_online stay calls in every mode: each runs two
 * full fences, next to which a call costs nothing, and they check misuse.
 * Function-like macros: a call is inlined, while the bare name (a function
 * pointer, the flavor table's entry) is still the library's function.
 */
#if defined(_LGPL_SOURCE) \
	|| (defined(URCU_I_INLINE_READ_SIDE) && !defined(URCU_I_DEBUG_CHECKS))
#define urcu_qsbr_read_lock(...)		urcu_qsbr_i_read_lock(__VA_ARGS__)
#define urcu_qsbr_read_unlock(...)		urcu_qsbr_i_read_unlock(__VA_ARGS__)
#define urcu_qsbr_read_ongoing(...)		urcu_qsbr_i_read_ongoing(__VA_ARGS__)
#define urcu_qsbr_quiescent_state(...)	urcu_qsbr_i_quiescent_state(__VA_ARGS__)
#endif

/* liburcu's other spellings: _urcu_qsbr_read_lock, rcu_read_lock_qsbr, ... */
#include <urcu/map/urcu-qsbr-compat.h>

#endif /* URCU_URCU_QSBR_H */
