/* SPDX-License-Identifier: MIT */
/*
 * busted-freeze: a test-only flavor for the watchdog's grace-period checks
 * (issue 11, item 1).  It is its base flavor (busted's: memb when built),
 * except that about one second into a combination its grace periods stop
 * completing: synchronize_rcu and rcu_barrier block (also those that began
 * just before and would return after), and poll_state reports every cookie
 * taken since as pending.  They stay stuck until the combination's duration is over and
 * the stop-time check has passed, then they complete normally, as a real
 * grace period blocked by a reader state would once teardown stops and
 * unregisters the readers.  Nothing is reclaimed early, so the readers find
 * no error: only the stall checks can catch it, and the run must end in
 * STALL (exit 2) within its duration + 10 s.  call_rcu and defer_rcu keep
 * the base flavor's own grace periods (the library's threads wait for them,
 * not the tool's threads).  Not part of --flavor=all.
 */
#include <pthread.h>

#include "ut.h"

/* When the grace periods stop, from the start of a combination's threads. */
#define FREEZE_AFTER_NS		1000000000ull
/* How often a frozen call looks at the clock again. */
#define FREEZE_POLL_NS		1000000ull

/* busted's base flavor (ut_flavor_base, flavors.c), set by the getter. */
static const struct ut_flavor_ops *freeze_base;

static bool frozen(void)
{
	bool stopping;
	uint64_t elapsed = ut_run_elapsed_ns(&stopping);

	return !stopping && elapsed >= FREEZE_AFTER_NS;
}

static void wait_thaw(void)
{
	while (frozen())
		ut_sleep_ns(FREEZE_POLL_NS);
}

static void freeze_sync(void)
{
	wait_thaw();
	freeze_base->synchronize_rcu();
	wait_thaw();	/* a grace period that ends after the freeze is frozen too */
}

static void freeze_barrier(void)
{
	wait_thaw();
	freeze_base->barrier();
	wait_thaw();
}

/*
 * The newest cookie taken before the freeze: its grace period, and every
 * earlier one, may still complete, so that a synchronize_rcu that returned
 * just before the freeze is not contradicted by its own cookie (the
 * libraries' cookies count up).  The lock only keeps the maximum exact.
 */
static pthread_mutex_t freeze_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long freeze_last_cookie;
static bool freeze_have_cookie;

static unsigned long freeze_start_poll(void)
{
	unsigned long cookie = freeze_base->start_poll();

	if (!frozen()) {
		pthread_mutex_lock(&freeze_lock);
		if (!freeze_have_cookie || (long)(cookie - freeze_last_cookie) > 0)
			freeze_last_cookie = cookie;
		freeze_have_cookie = true;
		pthread_mutex_unlock(&freeze_lock);
	}
	return cookie;
}

static bool freeze_poll_state(unsigned long cookie)
{
	bool old;

	if (frozen()) {
		pthread_mutex_lock(&freeze_lock);
		old = freeze_have_cookie && (long)(cookie - freeze_last_cookie) <= 0;
		pthread_mutex_unlock(&freeze_lock);
		if (!old)
			return false;
	}
	return freeze_base->poll_state(cookie);
}

const struct ut_flavor_ops *ut_busted_freeze_ops(const char *name)
{
	/* Filled on first use, which is option parsing in the main thread. */
	static struct ut_flavor_ops freeze;

	if (!freeze.name) {
		freeze_base = ut_flavor_base();
		if (!freeze_base)
			return NULL;
		freeze = *freeze_base;
		freeze.name = "busted-freeze";
		freeze.is_busted = true;
		freeze.synchronize_rcu = freeze_sync;
		freeze.barrier = freeze_barrier;
		if (freeze_base->start_poll && freeze_base->poll_state) {
			freeze.start_poll = freeze_start_poll;
			freeze.poll_state = freeze_poll_state;
		}
		freeze.call_rcu_stats = NULL;
		/* Its synchronize_rcu is not the library's alone: no statistics checks. */
		freeze.gp_stats = NULL;
		freeze.set_stall_timeout = NULL;
		freeze.set_stall_handler = NULL;
	}
	return &freeze;
}
