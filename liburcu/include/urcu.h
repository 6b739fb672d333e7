// SPDX-License-Identifier: MIT
/*
 * Umbrella header of the memb, mb and signal flavors: includes one flavor's
 * API and maps the generic names (rcu_read_lock, synchronize_rcu, call_rcu,
 * ...) onto it.  memb by default; define RCU_MB or RCU_SIGNAL (or
 * RCU_MEMBARRIER, the default) before including to choose.  Link with
 * `pkg-config --libs liburcu` (memb), liburcu-mb or liburcu-signal.
 */
#ifndef URCU_H
#define URCU_H

#if defined(RCU_MB)
#include <urcu/urcu-mb.h>
#include <urcu/map/urcu-mb.h>
#elif defined(RCU_SIGNAL)
#include <urcu/urcu-signal.h>
#include <urcu/map/urcu-signal.h>
#else
#include <urcu/urcu-memb.h>
#include <urcu/map/urcu-memb.h>
#endif

#include <urcu-pointer.h>

#endif /* URCU_H */
