// SPDX-License-Identifier: MIT
/*
 * Compatibility name kept from older liburcu releases: futex wrappers.
 * New code includes <urcu/futex.h>.
 */
#ifndef URCU_COMPAT_URCU_FUTEX_H
#define URCU_COMPAT_URCU_FUTEX_H

#include <urcu/futex.h>

#endif /* URCU_COMPAT_URCU_FUTEX_H */
