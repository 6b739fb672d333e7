// SPDX-License-Identifier: MIT
/*
 * The signal flavor (deprecated): prefixed API (urcu_signal_*).
 *
 * Readers use compiler barriers only; the updater forces ordering by
 * sending SIGRCU (SIGUSR1) to every registered reader.  Kept for programs
 * written for liburcu 0.13/0.14; new code should use memb.
 *
 * This header declares prefixed names only, so it can be combined with other
 * flavors' direct headers in one translation unit.  <urcu.h>
 * (with RCU_SIGNAL defined) maps the generic names onto this flavor.
 * With _LGPL_SOURCE the read side is inlined.
 */
#ifndef URCU_URCU_SIGNAL_H
#define URCU_URCU_SIGNAL_H

/* The template pulls in what every flavor's API needs. */
#include <signal.h>

#define URCU_I_FLAVOR(name) urcu_signal_##name
#define URCU_I_READER_MAY_FENCE 0
#include <urcu/static/urcu-flavor-api.h>
#include <urcu/static/urcu-reader.h>
#undef URCU_I_FLAVOR
#undef URCU_I_FLAVOR_HAS_FORK_HANDLERS
#undef URCU_I_READER_MAY_FENCE

#ifdef __cplusplus
extern "C" {
#endif

/* The signal the updater sends to readers; the application must leave it alone. */
#ifndef SIGRCU
#define SIGRCU SIGUSR1
#endif

#ifdef __cplusplus
}
#endif

#ifdef _LGPL_SOURCE
#define urcu_signal_read_lock		urcu_signal_i_read_lock
#define urcu_signal_read_unlock		urcu_signal_i_read_unlock
#define urcu_signal_read_ongoing		urcu_signal_i_read_ongoing
#endif

/* liburcu's other spellings: _urcu_signal_read_lock, rcu_read_lock_sig, ... */
#include <urcu/map/urcu-signal-compat.h>

#endif /* URCU_URCU_SIGNAL_H */
