// SPDX-License-Identifier: MIT
/*
 * The bp (bullet-proof) flavor: prefixed API (urcu_bp_*).
 *
 * Threads need not register: the first read_lock registers the thread and
 * its exit unregisters it.  Ordering as memb.  Call urcu_bp_before_fork(),
 * urcu_bp_after_fork_parent() and urcu_bp_after_fork_child() around fork().
 *
 * This header declares prefixed names only, so it can be combined with other
 * flavors' direct headers in one translation unit.  <urcu-bp.h>
 * maps the generic names onto this flavor.
 * With _LGPL_SOURCE the read side is inlined.
 */
#ifndef URCU_URCU_BP_H
#define URCU_URCU_BP_H

/* The template pulls in what every flavor's API needs. */

#define URCU_I_FLAVOR(name) urcu_bp_##name
#define URCU_I_READER_MAY_FENCE 1
#define URCU_I_FLAVOR_HAS_FORK_HANDLERS 1
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
URCU_API int urcu_bp_membarrier_available(void);

#ifdef __cplusplus
}
#endif

#ifdef _LGPL_SOURCE
#define urcu_bp_read_lock		urcu_bp_i_read_lock
#define urcu_bp_read_unlock		urcu_bp_i_read_unlock
#define urcu_bp_read_ongoing		urcu_bp_i_read_ongoing
#endif

/* liburcu's other spellings: _urcu_bp_read_lock, rcu_read_lock_bp, ... */
#include <urcu/map/urcu-bp-compat.h>

#endif /* URCU_URCU_BP_H */
