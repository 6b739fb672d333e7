// SPDX-License-Identifier: MIT
/*
 * Allocation and thread-creation failures in rcu_defer_register_thread()
 * (compiled per flavor).  defer_rcu(3), RETURN VALUE: 0, or -ENOMEM when
 * the thread's queue cannot be allocated; the defer thread is started by the
 * first registration, and its creation failing gives -ENOMEM as well
 * (defer.c).  A failed registration leaves the thread unregistered: it may
 * register again, and a defer_rcu() before that is the documented misuse
 * "urcu: defer_rcu: calling thread is not registered ...".  Nothing the
 * library allocated survives a failure, or a successful register/unregister
 * pair.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "flavor-select.h"
#include "faults-common.h"

static int ran;

static void count_call(void *p)
{
	(void) p;
	ran++;
}

/* Child: registration failed (no defer thread), then defer_rcu anyway. */
static void defer_after_failed_register(void)
{
	int ret;

	fi_fail_thread(1, 1, EAGAIN);
	ret = T_FN(defer_register_thread)();
	fi_disarm();
	if (ret != -ENOMEM)
		_exit(3);
	T_FN(defer_rcu)(count_call, NULL);
}

/* One registration with a fault armed; returns whether one was injected. */
static int register_once(int nth, int thread, int *bad)
{
	int ret, injected;

	fi_track_begin();
	if (thread)
		fi_fail_thread(nth, 1, EAGAIN);
	else
		fi_fail_alloc(nth, FI_LIB_ONLY);
	ret = T_FN(defer_register_thread)();
	injected = fi_injected();
	fi_disarm();
	if (!injected) {
		/* It worked: it must really work, and clean up completely. */
		if (ret != 0) {
			tap_diag("no fault: rcu_defer_register_thread returned %d", ret);
			(*bad)++;
			return 0;
		}
		ran = 0;
		T_FN(defer_rcu)(count_call, NULL);
		T_FN(defer_barrier)();
		if (ran != 1) {
			tap_diag("no fault: the deferred call ran %d times after defer_barrier", ran);
			(*bad)++;
		}
		T_FN(defer_unregister_thread)();
		if (fi_track_live()) {
			tap_diag("no fault: %ld library blocks left after unregister", fi_track_live());
			(*bad)++;
		}
		return 0;
	}
	if (ret != -ENOMEM) {
		tap_diag("%s %d failing: returned %d", thread ? "thread" : "allocation", nth, ret);
		(*bad)++;
		if (ret == 0)
			T_FN(defer_unregister_thread)();
	}
	if (fi_track_live()) {
		tap_diag("%s %d failing: %ld library blocks left", thread ? "thread" : "allocation",
			nth, fi_track_live());
		(*bad)++;
	}
	return 1;
}

int main(void)
{
	int bad, points, nth;

	alarm(60);
	fi_scan_libs();
	tap_diag("flavor %s", T_FLAVOR);

	faults_expect_death(defer_after_failed_register,
		"urcu: defer_rcu: calling thread is not registered",
		"defer_rcu after a registration that failed to start the defer thread");

	for (int thread = 0; thread <= 1; thread++) {
		bad = 0;
		points = 0;
		for (nth = 1; nth < 16; nth++) {
			if (!register_once(nth, thread, &bad))
				break;
			points++;
		}
		tap_ok(!bad && points == (thread ? 1 : 2),
			"rcu_defer_register_thread: each %s failing (%d points) gives -ENOMEM and leaves nothing; then it registers, runs a deferred call, unregisters without a leak",
			thread ? "pthread_create (the defer thread)" : "allocation (queue, ring)", points);
	}

	return tap_done();
}
