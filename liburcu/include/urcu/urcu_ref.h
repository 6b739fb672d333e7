// SPDX-License-Identifier: MIT
/*
 * Compatibility name kept from older liburcu releases: reference counts.
 * New code includes <urcu/ref.h>; including this one warns, as liburcu's
 * does.
 */
#ifndef URCU_COMPAT_URCU_REF_H
#define URCU_COMPAT_URCU_REF_H

#warning "urcu/urcu_ref.h is deprecated; include urcu/ref.h instead"

#include <urcu/ref.h>

#endif /* URCU_COMPAT_URCU_REF_H */
