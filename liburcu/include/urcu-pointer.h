// SPDX-License-Identifier: MIT
/*
 * Compatibility name of <urcu/pointer.h> (the RCU pointer primitives), as
 * included by the umbrella headers <urcu.h>, <urcu-qsbr.h> and <urcu-bp.h>.
 */
#ifndef URCU_POINTER_COMPAT_H
#define URCU_POINTER_COMPAT_H

#include <urcu/pointer.h>

#endif /* URCU_POINTER_COMPAT_H */
