// SPDX-License-Identifier: MIT
/*
 * The polled grace-period helper thread cannot be created (compiled per
 * flavor).  start_poll_synchronize_rcu(3), ERRORS: it prints
 * "urcu: start_poll_synchronize_rcu: cannot create the grace-period thread:
 * <strerror>" and aborts (it returns a cookie, there is no error to return).
 * The child times out instead of hanging if the library ever waited for a
 * helper that does not exist.  Then, without a fault, the helper starts and
 * a cookie completes.
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

/* Without a fault the helper starts and a cookie completes (bounded wait). */
static void poll_works(void)
{
	struct urcu_gp_poll_state s;
	unsigned long long t0 = t_now_ns();
	int done = 0;

	fi_fail_thread(1 << 30, 1, 0);		/* count only */
	s = T_FN(start_poll_synchronize_rcu)();
	tap_ok(fi_thread_calls() == 1, "start_poll_synchronize_rcu: the first call starts the helper (%d threads)",
		fi_thread_calls());
	fi_disarm();
	while (!(done = T_FN(poll_state_synchronize_rcu)(s)) &&
			t_ms_since(t0) < T_START_LIMIT_MS)
		t_sleep_ms(1);
	tap_ok(done, "start_poll_synchronize_rcu: the cookie completes without a fault (%.1f ms)",
		t_ms_since(t0));
}

int main(void)
{
	alarm(60);
	fi_scan_libs();
	tap_diag("flavor %s", T_FLAVOR);
	faults_expect_death(poll_no_thread,
		"urcu: start_poll_synchronize_rcu: cannot create the grace-period thread: Resource temporarily unavailable",
		"start_poll_synchronize_rcu, pthread_create failing");
	poll_works();
	return tap_done();
}
