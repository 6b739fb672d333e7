// SPDX-License-Identifier: MIT
/*
 * Compatibility name kept from older liburcu releases: reference counts.
 * New code includes <urcu/ref.h>.
 */
#ifndef URCU_COMPAT_URCU_REF_H
#define URCU_COMPAT_URCU_REF_H

#include <urcu/ref.h>

#endif /* URCU_COMPAT_URCU_REF_H */
