// SPDX-License-Identifier: MIT
/*
 * Compatibility name kept from older liburcu releases: atomic operations.
 * New code includes <urcu/uatomic.h>.
 */
#ifndef URCU_COMPAT_UATOMIC_ARCH_H
#define URCU_COMPAT_UATOMIC_ARCH_H

#include <urcu/uatomic.h>

#endif /* URCU_COMPAT_UATOMIC_ARCH_H */
