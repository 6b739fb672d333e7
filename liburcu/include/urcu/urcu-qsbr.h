// SPDX-License-Identifier: MIT
/*
 * The qsbr (quiescent-state-based) flavor: prefixed API (urcu_qsbr_*).
 *
 * Read-side critical sections are free.  Each registered thread is online
 * and must announce quiescent states (urcu_qsbr_quiescent_state()) or go
 * offline around blocking; a grace period waits for every online thread to
 * pass a quiescent state.  <urcu-qsbr.h> maps the generic names onto this
 * flavor.  With _LGPL_SOURCE the read side and quiescent_state are inlined.
 */
#ifndef URCU_URCU_QSBR_H
#define URCU_URCU_QSBR_H

/* The template pulls in what every flavor's API needs. */

#define URCU_I_FLAVOR(name) urcu_qsbr_##name
#include <urcu/static/urcu-flavor-api.h>
#undef URCU_I_FLAVOR
#include <urcu/static/urcu-qsbr.h>

#ifdef _LGPL_SOURCE
#define urcu_qsbr_read_lock		urcu_qsbr_i_read_lock
#define urcu_qsbr_read_unlock		urcu_qsbr_i_read_unlock
#define urcu_qsbr_read_ongoing		urcu_qsbr_i_read_ongoing
#define urcu_qsbr_quiescent_state	urcu_qsbr_i_quiescent_state
#elif !defined(URCU_I_DEBUG_CHECKS) && !defined(URCU_I_BUILDING_LIBRARY)
/*
 * qsbr read_lock/read_unlock do nothing outside debug builds: calling a
 * function for that would be pure cost, so they are inline for every
 * program, as liburcu does.  Debug builds (debug_checks, DEBUG_RCU) call the
 * library, which counts nesting.
 */
#define urcu_qsbr_read_lock		urcu_qsbr_i_read_lock
#define urcu_qsbr_read_unlock		urcu_qsbr_i_read_unlock
#endif

/* liburcu's other spellings: _urcu_qsbr_read_lock, rcu_read_lock_qsbr, ... */
#include <urcu/map/urcu-qsbr-compat.h>

#endif /* URCU_URCU_QSBR_H */
