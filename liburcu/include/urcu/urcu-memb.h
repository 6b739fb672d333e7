// SPDX-License-Identifier: MIT
/*
 * The memb flavor (the default): prefixed API (urcu_memb_*).
 *
 * Readers use compiler barriers only; the updater forces ordering on them
 * with membarrier(2) (MEMBARRIER_CMD_PRIVATE_EXPEDITED), falling back to
 * fenced readers when the kernel lacks it (urcu_memb_membarrier_available()).
 *
 * This header declares prefixed names only, so it can be combined with other
 * flavors' direct headers in one translation unit.  <urcu.h>
 * maps the generic names onto this flavor.
 * The read side (read_lock, read_unlock, read_ongoing) is inline unless
 * URCU_NO_INLINE_READ_SIDE is defined without _LGPL_SOURCE.
 */
#ifndef URCU_URCU_MEMB_H
#define URCU_URCU_MEMB_H

/* The template pulls in what every flavor's API needs. */

#define URCU_I_FLAVOR(name) urcu_memb_##name
#define URCU_I_READER_MAY_FENCE 1
#include <urcu/static/urcu-flavor-api.h>
#include <urcu/static/urcu-reader.h>
#undef URCU_I_FLAVOR
#undef URCU_I_FLAVOR_HAS_FORK_HANDLERS
#undef URCU_I_READER_MAY_FENCE

#ifdef __cplusplus
extern "C" {
#endif

/*
 * 1 when membarrier(2) private expedited is in use, 0 when readers fall back
 * to full fences (decided once, at init).
 */
URCU_API int urcu_memb_membarrier_available(void);

/* The inline quiescent_state, thread_offline, thread_online (below). */
static inline void urcu_memb_i_qsbr_only_noop(void)
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
#define urcu_memb_read_lock(...)		urcu_memb_i_read_lock(__VA_ARGS__)
#define urcu_memb_read_unlock(...)		urcu_memb_i_read_unlock(__VA_ARGS__)
#define urcu_memb_read_ongoing(...)		urcu_memb_i_read_ongoing(__VA_ARGS__)
/* qsbr-only operations, no-ops in this flavor: nothing to call. */
#define urcu_memb_quiescent_state(...)	urcu_memb_i_qsbr_only_noop(__VA_ARGS__)
#define urcu_memb_thread_offline(...)	urcu_memb_i_qsbr_only_noop(__VA_ARGS__)
#define urcu_memb_thread_online(...)		urcu_memb_i_qsbr_only_noop(__VA_ARGS__)
#endif

/* liburcu's other spellings: _urcu_memb_read_lock, rcu_read_lock_memb, ... */
#include <urcu/map/urcu-memb-compat.h>

#endif /* URCU_URCU_MEMB_H */
