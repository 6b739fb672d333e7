// SPDX-License-Identifier: MIT
/* Compatibility header: liburcu programs include <urcu-call-rcu.h>. */
#ifndef URCU_COMPAT_URCU_CALL_RCU_H
#define URCU_COMPAT_URCU_CALL_RCU_H

#include <urcu/call-rcu.h>

#endif
