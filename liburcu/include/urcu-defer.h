// SPDX-License-Identifier: MIT
/* Compatibility header: liburcu programs include <urcu-defer.h>. */
#ifndef URCU_COMPAT_URCU_DEFER_H
#define URCU_COMPAT_URCU_DEFER_H

#include <urcu/defer.h>

#endif
