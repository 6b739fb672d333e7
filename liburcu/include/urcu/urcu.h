// SPDX-License-Identifier: MIT
/*
 * Compatibility name kept from older liburcu releases: the umbrella header of the memb/mb/signal flavors.
 * New code includes <urcu.h>.
 */
#ifndef URCU_COMPAT_URCU_H
#define URCU_COMPAT_URCU_H

#include <urcu.h>

#endif /* URCU_COMPAT_URCU_H */
