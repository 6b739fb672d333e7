/* SPDX-License-Identifier: MIT */
/*
 * The flavors compiled into this binary and the deliberately broken "busted"
 * flavor that proves the detectors work.
 */
#include <string.h>

#include "ut.h"

extern const struct ut_flavor_ops ut_flavor_memb, ut_flavor_mb, ut_flavor_signal,
	ut_flavor_qsbr, ut_flavor_bp;

const struct ut_flavor_ops *const ut_flavors[] = {
#ifdef UT_HAVE_FLAVOR_MEMB
	&ut_flavor_memb,
#endif
#ifdef UT_HAVE_FLAVOR_MB
	&ut_flavor_mb,
#endif
#ifdef UT_HAVE_FLAVOR_SIGNAL
	&ut_flavor_signal,
#endif
#ifdef UT_HAVE_FLAVOR_QSBR
	&ut_flavor_qsbr,
#endif
#ifdef UT_HAVE_FLAVOR_BP
	&ut_flavor_bp,
#endif
	NULL
};

static const char *const known_names[] = {
	"memb", "mb", "signal", "qsbr", "bp", "busted", "busted-hang", "busted-freeze",
	"busted-order-updater", "busted-order-reader", "busted-defer", "busted-early",
	"busted-stats", NULL
};

/* seeded.c: the seeded ordering-bug flavors, loaded from their modules. */
const struct ut_flavor_ops *ut_seeded_ops(const char *name);
/* stress-busted.c: busted-defer and busted-early (the stress mode's exact checks). */
const struct ut_flavor_ops *ut_stress_busted_ops(const char *name);

bool ut_flavor_name_known(const char *name)
{
	for (int i = 0; known_names[i]; i++)
		if (!strcmp(known_names[i], name))
			return true;
	return false;
}

const struct ut_flavor_ops *ut_flavor_find(const char *name)
{
	if (!strcmp(name, "busted"))
		return ut_busted_ops();
	if (!strcmp(name, "busted-hang"))
		return ut_busted_hang_ops();
	if (!strcmp(name, "busted-freeze"))	/* freeze.c */
		return ut_busted_freeze_ops();
	if (!strcmp(name, "busted-stats"))	/* libstats.c */
		return ut_busted_stats_ops();
	if (!strcmp(name, "busted-defer") || !strcmp(name, "busted-early"))
		return ut_stress_busted_ops(name);
	if (!strncmp(name, "busted-order-", 13))
		return ut_seeded_ops(name);
	for (int i = 0; ut_flavors[i]; i++)
		if (!strcmp(ut_flavors[i]->name, name))
			return ut_flavors[i];
	return NULL;
}

/*
 * busted: memb's read side and callback plumbing, but grace periods that end
 * at once.  synchronize_rcu returns immediately, call_rcu and defer_rcu invoke
 * the callback on the spot, rcu_barrier has nothing to wait for, and every
 * polled cookie reports complete.  A correct torture run must catch this.
 */
static void busted_sync(void)
{
}

static void busted_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	func(head);
}

static void busted_barrier(void)
{
}

static void busted_defer(void (*fct)(void *p), void *p)
{
	fct(p);
}

static unsigned long busted_start_poll(void)
{
	return 0;
}

static bool busted_poll_state(unsigned long cookie)
{
	return true;
}

#ifdef UT_HAVE_FLAVOR_MEMB
# define UT_BUSTED_BASE ut_flavor_memb
#elif defined(UT_HAVE_FLAVOR_MB)
# define UT_BUSTED_BASE ut_flavor_mb
#elif defined(UT_HAVE_FLAVOR_QSBR)
# define UT_BUSTED_BASE ut_flavor_qsbr
#else
# define UT_BUSTED_BASE ut_flavor_bp
#endif

const struct ut_flavor_ops *ut_busted_ops(void)
{
	/* Filled on first use, which is option parsing in the main thread. */
	static struct ut_flavor_ops busted;

	if (!busted.name) {
		busted = UT_BUSTED_BASE;
		busted.name = "busted";
		busted.is_busted = true;
		busted.synchronize_rcu = busted_sync;
		busted.call_rcu = busted_call_rcu;
		busted.barrier = busted_barrier;
		busted.defer_rcu = busted_defer;
		busted.start_poll = busted_start_poll;
		busted.poll_state = busted_poll_state;
		busted.call_rcu_stats = NULL;
		busted.gp_stats = NULL;
		busted.set_stall_timeout = NULL;
		busted.set_stall_handler = NULL;
	}
	return &busted;
}

/*
 * busted-hang: a grace period that never ends.  synchronize_rcu and
 * rcu_barrier block forever; everything else is the real flavor.  The
 * watchdog must turn this into a thread-state report and exit 2.
 */
static void hang_forever(void)
{
	for (;;)
		ut_sleep_ns(1000000000ull);
}

const struct ut_flavor_ops *ut_busted_hang_ops(void)
{
	/* Filled on first use, which is option parsing in the main thread. */
	static struct ut_flavor_ops hang;

	if (!hang.name) {
		hang = UT_BUSTED_BASE;
		hang.name = "busted-hang";
		hang.is_busted = true;
		hang.synchronize_rcu = hang_forever;
		hang.barrier = hang_forever;
		hang.call_rcu_stats = NULL;
		hang.gp_stats = NULL;
		hang.set_stall_timeout = NULL;
		hang.set_stall_handler = NULL;
	}
	return &hang;
}
