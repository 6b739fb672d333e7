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
 * The read side (read_lock, read_unlock, read_ongoing) is inline unless
 * URCU_NO_INLINE_READ_SIDE is defined without _LGPL_SOURCE.
 */
#ifndef URCU_URCU_SIGNAL_H
#define URCU_URCU_SIGNAL_H

/* The template pulls in what every flavor's API needs. */
#include <signal.h>

#define URCU_I_FLAVOR(name) urcu_signal_##name
#include <urcu/compiler.h>
#ifndef URCU_I_TSAN
#define URCU_I_READER_MAY_FENCE 0
#else
/* ThreadSanitizer builds only: readers fence as mb's do (liburcu/src/flavor.h). */
#define URCU_I_READER_MAY_FENCE 1
#endif
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

/* The inline quiescent_state, thread_offline, thread_online (below). */
static inline void urcu_signal_i_qsbr_only_noop(void)
{
}

#ifdef __cplusplus
}
#endif

/*
 * The read side is inline in every program, with or without _LGPL_SOURCE
 * (URCU_I_INLINE_READ_SIDE, urcu/static/urcu-gp.h): its layout is versioned
 * ABI (docs/DESIGN.md, "Reader ABI").  Function-like macros: a call is
 * inlined, while the bare name (a function pointer, a flavor table's entry)
 * is still the library's function, as in liburcu without _LGPL_SOURCE.
 */
#if defined(_LGPL_SOURCE) || defined(URCU_I_INLINE_READ_SIDE)
#define urcu_signal_read_lock(...)		urcu_signal_i_read_lock(__VA_ARGS__)
#define urcu_signal_read_unlock(...)		urcu_signal_i_read_unlock(__VA_ARGS__)
#define urcu_signal_read_ongoing(...)		urcu_signal_i_read_ongoing(__VA_ARGS__)
/* qsbr-only operations, no-ops in this flavor: nothing to call. */
#define urcu_signal_quiescent_state(...)	urcu_signal_i_qsbr_only_noop(__VA_ARGS__)
#define urcu_signal_thread_offline(...)	urcu_signal_i_qsbr_only_noop(__VA_ARGS__)
#define urcu_signal_thread_online(...)	urcu_signal_i_qsbr_only_noop(__VA_ARGS__)
#endif

/* liburcu's other spellings: _urcu_signal_read_lock, rcu_read_lock_sig, ... */
#include <urcu/map/urcu-signal-compat.h>

#endif /* URCU_URCU_SIGNAL_H */
