/* SPDX-License-Identifier: MIT */
/*
 * The busted flavors: test-only flavors, each its base flavor's table
 * (ut_flavor_base(): memb when built) with a few operations replaced, to
 * prove that a detector catches what it is meant to catch.  Each is one
 * line of UT_BUSTED_LIST in flavor-registry.c, naming its patch below; the
 * one function that derives them (ut_flavor_entry_ops, flavor-registry.c)
 * copies the base, renames the copy and applies the patch once, on first
 * use (option parsing, in the main thread).
 *
 * A patch gets the renamed copy and the base it was copied from, changes
 * the copy, and returns false when that base cannot carry the bug (the
 * flavor is then "not built into this binary").  A patch that keeps a
 * pointer to the base does so for its replacement operations, which call
 * the base's own.
 */
#include <pthread.h>
#include <string.h>

#include "ut.h"

/*
 * Grace periods that are not the library's alone: its statistics and stall
 * reports would not describe them, so the library's-view checks are off.
 */
static void no_lib_view(struct ut_flavor_ops *ops)
{
	ops->gp_stats = NULL;
	ops->gp_flipped = NULL;
	ops->set_stall_timeout = NULL;
	ops->set_stall_handler = NULL;
}

/*
 * A flavor whose synchronize_rcu and rcu_barrier are the patch's: broken on
 * purpose (is_busted), and none of the library's statistics describe it.
 */
static void replace_grace_periods(struct ut_flavor_ops *ops, void (*sync)(void),
				  void (*barrier)(void))
{
	ops->is_busted = true;
	ops->synchronize_rcu = sync;
	ops->barrier = barrier;
	ops->call_rcu_stats = NULL;
	no_lib_view(ops);
}

static void return_at_once(void)
{
}

static void defer_at_once(void (*fct)(void *p), void *p)
{
	fct(p);
}

/* ---- busted: grace periods that end at once; must FAIL ---- */

/*
 * The base's read side and callback plumbing, but synchronize_rcu returns
 * immediately, call_rcu and defer_rcu invoke the callback on the spot,
 * rcu_barrier has nothing to wait for, and every polled cookie reports
 * complete.  A correct torture run must catch this.
 */
static void call_at_once(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	func(head);
}

static unsigned long cookie_zero(void)
{
	return 0;
}

static bool cookie_done(unsigned long cookie)
{
	return true;
}

bool ut_patch_busted(struct ut_flavor_ops *ops, const struct ut_flavor_ops *base)
{
	replace_grace_periods(ops, return_at_once, return_at_once);
	ops->call_rcu = call_at_once;
	ops->defer_rcu = defer_at_once;
	ops->start_poll = cookie_zero;
	ops->poll_state = cookie_done;
	return true;
}

/* ---- busted-hang: grace periods that never end; must STALL ---- */

/*
 * synchronize_rcu and rcu_barrier block forever; everything else is the
 * base.  The watchdog must turn this into a thread-state report and exit 2.
 */
static void hang_forever(void)
{
	for (;;)
		ut_sleep_ns(1000000000ull);
}

bool ut_patch_hang(struct ut_flavor_ops *ops, const struct ut_flavor_ops *base)
{
	replace_grace_periods(ops, hang_forever, hang_forever);
	return true;
}

/* ---- busted-freeze: grace periods that stop 1 s in; must STALL ---- */

/*
 * Proves that the watchdog's grace-period checks catch a stall.  About one
 * second into a combination its grace periods stop completing: synchronize_rcu and rcu_barrier block
 * (also those that began just before and would return after), and
 * poll_state reports every cookie taken since as pending.  They stay stuck
 * until the combination's duration is over and the stop-time check has
 * passed, then they complete normally, as a real grace period blocked by a
 * reader state would once teardown stops and unregisters the readers.
 * Nothing is reclaimed early, so the readers find no error: only the stall
 * checks can catch it, and the run must end in STALL (exit 2) within its
 * duration + 10 s.  call_rcu and defer_rcu keep the base flavor's own grace
 * periods (the library's threads wait for them, not the tool's threads).
 * Not part of --flavor=all.
 */

/* When the grace periods stop, from the start of a combination's threads. */
#define FREEZE_AFTER_NS		1000000000ull
/* How often a frozen call looks at the clock again. */
#define FREEZE_POLL_NS		1000000ull

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

bool ut_patch_freeze(struct ut_flavor_ops *ops, const struct ut_flavor_ops *base)
{
	freeze_base = base;
	replace_grace_periods(ops, freeze_sync, freeze_barrier);
	if (base->start_poll && base->poll_state) {
		ops->start_poll = freeze_start_poll;
		ops->poll_state = freeze_poll_state;
	}
	return true;
}

/* ---- busted-stats: statistics that count nothing; must FAIL ---- */

/*
 * Real grace periods, but statistics that say none ever ended: the
 * library's-view checks (libstats.c) must FAIL it (gp_stats_mismatch) in
 * every mode that runs synchronize_rcu.  Not built in when the base has no
 * statistics (another library).
 */
static const struct ut_flavor_ops *stats_base;

static int zero_stats(struct ut_gp_stats *out)
{
	int rc = stats_base->gp_stats(out);

	if (!rc) {
		out->completed = 0;
		out->wait_ns_total = 0;
		out->wait_ns_max = 0;
		memset(out->hist, 0, sizeof(out->hist));
	}
	return rc;
}

bool ut_patch_stats(struct ut_flavor_ops *ops, const struct ut_flavor_ops *base)
{
	if (!base->gp_stats)
		return false;
	stats_base = base;
	ops->gp_stats = zero_stats;
	return true;
}

/* ---- busted-stats-double: statistics that count each grace period twice ---- */

/*
 * Real grace periods, statistics that count each one twice (completed, the
 * histogram, wait_ns_total): a histogram that still adds up and a completed
 * above every lower bound, which only the upper bound (completed_max and
 * completed_max_live, libstats.c) catches.  Not built in when the base has
 * no statistics or no global word to bound them with.
 */
static const struct ut_flavor_ops *double_base;

static int double_stats(struct ut_gp_stats *out)
{
	int rc = double_base->gp_stats(out);

	if (!rc) {
		out->completed *= 2;
		out->wait_ns_total *= 2;
		for (int i = 0; i < out->nhist; i++)
			out->hist[i] *= 2;
	}
	return rc;
}

bool ut_patch_stats_double(struct ut_flavor_ops *ops, const struct ut_flavor_ops *base)
{
	if (!base->gp_stats || !base->gp_flipped)
		return false;
	double_base = base;
	ops->gp_stats = double_stats;
	return true;
}

/* ---- busted-defer and busted-early: one step early; --mode=stress must FAIL ---- */

/*
 * They prove the stress mode's exact checks (early_free_defer,
 * early_free_sync): each breaks one guarantee by only one step, which a
 * looser pipeline-age rule (age >= 2 seen by a reader) could not see.
 * call_rcu, rcu_barrier and the read side are the real ones (not
 * is_busted: the call_rcu layouts and the late-callback waits apply).
 *
 *   busted-defer  defer_rcu runs the function at once, with no grace period.
 *   busted-early  synchronize_rcu is one grace period behind: it starts a
 *                 polled grace period and waits only for the one the same
 *                 thread's previous call started, so readers that began
 *                 between the two calls are not waited for.  It offers no
 *                 polled API of its own (poll_late would catch it there, and
 *                 the flavor is meant for the age check).  Under the looser
 *                 rule an object retired before call k would reach age 1
 *                 after call k (tolerated) and age 2 only after call k + 1,
 *                 which does wait for its readers.
 */
bool ut_patch_defer(struct ut_flavor_ops *ops, const struct ut_flavor_ops *base)
{
	ops->defer_rcu = defer_at_once;
	return true;
}

static const struct ut_flavor_ops *early_base;

/* busted-early's state, per thread: the cookie its previous call started. */
static __thread unsigned long early_prev;
static __thread bool early_have;

static void early_sync(void)
{
	const struct ut_flavor_ops *b = early_base;
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

bool ut_patch_early(struct ut_flavor_ops *ops, const struct ut_flavor_ops *base)
{
	early_base = base;
	ops->synchronize_rcu = early_sync;
	ops->start_poll = NULL;
	ops->poll_state = NULL;
	/* Its synchronize_rcu waits for no grace period of its own. */
	no_lib_view(ops);
	return true;
}
