// SPDX-License-Identifier: MIT
/*
 * Umbrella header of the bp flavor: its API plus the generic names
 * (rcu_read_lock, synchronize_rcu, call_rcu, ...) mapped onto it.
 * Link with `pkg-config --libs liburcu-bp`.
 */
#ifndef URCU_BP_H
#define URCU_BP_H

#include <urcu/urcu-bp.h>
#include <urcu/map/urcu-bp.h>
#include <urcu-pointer.h>

#endif /* URCU_BP_H */
