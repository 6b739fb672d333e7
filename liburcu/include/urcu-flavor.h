// SPDX-License-Identifier: MIT
/* Compatibility header: liburcu programs include <urcu-flavor.h>. */
#ifndef URCU_COMPAT_URCU_FLAVOR_H
#define URCU_COMPAT_URCU_FLAVOR_H

#include <urcu/flavor.h>

#endif
