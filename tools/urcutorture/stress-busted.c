/* SPDX-License-Identifier: MIT */
/*
 * Test-only flavors that prove the stress mode's exact checks (issue 11,
 * item 2): each is the busted flavors' base (ut_flavor_base, flavors.c: memb
 * in a full build) with one guarantee broken in a way the old pipeline-age rule (age >= 2 seen by a
 * reader) could not see, because the object was only one step early.
 *
 *   busted-defer  defer_rcu runs the function at once, with no grace period.
 *   busted-early  synchronize_rcu is one grace period behind: it starts a
 *                 polled grace period and waits only for the one the same
 *                 thread's previous call started, so readers that began
 *                 between the two calls are not waited for.  It offers no
 *                 polled API of its own (the old poll_late check would have
 *                 caught it).  Under the old rule an object retired before
 *                 call k reached age 1 after call k (tolerated) and age 2
 *                 only after call k + 1, which does wait for its readers.
 *
 * call_rcu, rcu_barrier and the read side are the real ones (is_busted is
 * false: the call_rcu layouts and the late-callback waits apply).
 */
#include <string.h>

#include "ut.h"

/* mode-stress's check that these flavors FAIL: tests/torture/check.py. */
const struct ut_flavor_ops *ut_stress_busted_ops(const char *name);

static const struct ut_flavor_ops *base_ops(void)
{
	return ut_flavor_base();
}

static void defer_at_once(void (*fct)(void *p), void *p)
{
	fct(p);
}

/* busted-early's state, per thread: the cookie its previous call started. */
static __thread unsigned long early_prev;
static __thread bool early_have;

static void early_sync(void)
{
	const struct ut_flavor_ops *b = base_ops();
	unsigned long cookie;

	if (!b->start_poll) {
		/* Without polling: every other call of a thread waits for nothing. */
		early_have = !early_have;
		if (!early_have)
			b->synchronize_rcu();
		return;
	}
	cookie = b->start_poll();
	while (early_have && !b->poll_state(early_prev))
		ut_sleep_ns(20000);
	early_prev = cookie;
	early_have = true;
}

const struct ut_flavor_ops *ut_stress_busted_ops(const char *name)
{
	/* Filled on first use, which is option parsing in the main thread. */
	static struct ut_flavor_ops defer_ops, early_ops;

	if (!base_ops())
		return NULL;
	if (!strcmp(name, "busted-defer")) {
		if (!defer_ops.name) {
			defer_ops = *base_ops();
			defer_ops.name = "busted-defer";
			defer_ops.defer_rcu = defer_at_once;
		}
		return &defer_ops;
	}
	if (!strcmp(name, "busted-early")) {
		if (!early_ops.name) {
			early_ops = *base_ops();
			early_ops.name = "busted-early";
			early_ops.synchronize_rcu = early_sync;
			early_ops.start_poll = NULL;
			early_ops.poll_state = NULL;
			/* Its synchronize_rcu waits for no grace period of its
			 * own: the statistics checks do not apply. */
			early_ops.gp_stats = NULL;
			early_ops.set_stall_timeout = NULL;
			early_ops.set_stall_handler = NULL;
		}
		return &early_ops;
	}
	return NULL;
}
