// SPDX-License-Identifier: MIT
/*
 * The mb flavor: prefixed API (urcu_mb_*).
 *
 * Readers issue full fences; the updater needs no help from the kernel.
 *
 * This header declares prefixed names only, so it can be combined with other
 * flavors' direct headers in one translation unit.  <urcu.h>
 * (with RCU_MB defined) maps the generic names onto this flavor.
 * The read side (read_lock, read_unlock, read_ongoing) is inline unless
 * URCU_NO_INLINE_READ_SIDE is defined without _LGPL_SOURCE.
 */
#ifndef URCU_URCU_MB_H
#define URCU_URCU_MB_H

/* The template pulls in what every flavor's API needs. */

#define URCU_I_FLAVOR(name) urcu_mb_##name
#define URCU_I_READER_MAY_FENCE 1
#include <urcu/static/urcu-flavor-api.h>
#include <urcu/static/urcu-reader.h>
#undef URCU_I_FLAVOR
#undef URCU_I_FLAVOR_HAS_FORK_HANDLERS
#undef URCU_I_READER_MAY_FENCE

#ifdef __cplusplus
extern "C" {
#endif

/* The inline quiescent_state, thread_offline, thread_online (below). */
static inline void urcu_mb_i_qsbr_only_noop(void)
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
#define urcu_mb_read_lock(...)		urcu_mb_i_read_lock(__VA_ARGS__)
#define urcu_mb_read_unlock(...)		urcu_mb_i_read_unlock(__VA_ARGS__)
#define urcu_mb_read_ongoing(...)		urcu_mb_i_read_ongoing(__VA_ARGS__)
/* qsbr-only operations, no-ops in this flavor: nothing to call. */
#define urcu_mb_quiescent_state(...)	urcu_mb_i_qsbr_only_noop(__VA_ARGS__)
#define urcu_mb_thread_offline(...)	urcu_mb_i_qsbr_only_noop(__VA_ARGS__)
#define urcu_mb_thread_online(...)		urcu_mb_i_qsbr_only_noop(__VA_ARGS__)
#endif

/* liburcu's other spellings: _urcu_mb_read_lock, rcu_read_lock_mb, ... */
#include <urcu/map/urcu-mb-compat.h>

#endif /* URCU_URCU_MB_H */
