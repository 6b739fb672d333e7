// SPDX-License-Identifier: MIT
/*
 * <urcu/static/urcu.h>: the inline fast paths of the flavor <urcu.h> selects,
 * under liburcu's header name: memb unless RCU_MB or RCU_SIGNAL is defined
 * (RCU_MEMBARRIER, which names memb, is then defined, as liburcu does).
 */
#ifndef URCU_STATIC_URCU_H
#define URCU_STATIC_URCU_H

#if !defined(RCU_MEMBARRIER) && !defined(RCU_MB) && !defined(RCU_SIGNAL)
#define RCU_MEMBARRIER
#endif

#if defined(RCU_MB)
#include <urcu/static/urcu-mb.h>
#elif defined(RCU_SIGNAL)
#include <urcu/static/urcu-signal.h>
#else
#include <urcu/static/urcu-memb.h>
#endif

#endif /* URCU_STATIC_URCU_H */
