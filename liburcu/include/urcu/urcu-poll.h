// SPDX-License-Identifier: MIT
/*
 * Polled grace periods: the cookie type shared by every flavor.
 *
 * start_poll_synchronize_rcu() returns a cookie; poll_state_synchronize_rcu()
 * later says, without blocking, whether a full grace period has elapsed since.
 */
#ifndef URCU_URCU_POLL_H
#define URCU_URCU_POLL_H

#include <stdbool.h>

struct urcu_gp_poll_state {
	/* Number of the grace period that must complete; opaque to users. */
	unsigned long grace_period_id;
};

#endif /* URCU_URCU_POLL_H */
