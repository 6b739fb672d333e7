// SPDX-License-Identifier: MIT
/*
 * Umbrella header of the qsbr flavor: its API plus the generic names
 * (rcu_read_lock, synchronize_rcu, call_rcu, ...) mapped onto it.
 * Link with `pkg-config --libs liburcu-qsbr`.
 */
#ifndef URCU_QSBR_H
#define URCU_QSBR_H

#include <urcu/urcu-qsbr.h>
#include <urcu/map/urcu-qsbr.h>
#include <urcu-pointer.h>

#endif /* URCU_QSBR_H */
