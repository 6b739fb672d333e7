// SPDX-License-Identifier: MIT
/*
 * The polled grace-period helper thread cannot be created (compiled per
 * flavor).  start_poll_synchronize_rcu(3), ERRORS: it prints
 * "urcu: start_poll_synchronize_rcu: cannot create the grace-period thread:
 * <strerror>" and aborts (it returns a cookie, there is no error to return).
 * The child times out instead of hanging if the library ever waited for a
 * helper that does not exist.
 */
#include <errno.h>
#include <unistd.h>

#include "flavor-select.h"
#include "faults-common.h"

static void poll_no_thread(void)
{
	fi_fail_thread(1, 1, EAGAIN);
	(void) T_FN(start_poll_synchronize_rcu)();
}

/* Creation works the second time: a later cookie completes. */
static void poll_then_works(void)
{
	struct urcu_gp_poll_state s = T_FN(start_poll_synchronize_rcu)();

	while (!T_FN(poll_state_synchronize_rcu)(s))
		t_sleep_ms(1);
	_exit(0);
}

int main(void)
{
	alarm(60);
	fi_scan_libs();
	tap_diag("flavor %s", T_FLAVOR);
	faults_expect_death(poll_no_thread,
		"urcu: start_poll_synchronize_rcu: cannot create the grace-period thread: Resource temporarily unavailable",
		"start_poll_synchronize_rcu, pthread_create failing");
	(void) poll_then_works;
	return tap_done();
}
