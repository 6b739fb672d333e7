/* SPDX-License-Identifier: MIT */
/*
 * The flavor registry (every name --flavor accepts), the flavors compiled
 * into this binary, and the deliberately broken "busted" and "busted-hang"
 * flavors that prove the detectors work.
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

/*
 * The flavor registry: every name --flavor accepts, in the order --help,
 * --list-flavors and urcutorture(1) show them (tests/torture/check.py
 * "registry" checks that the three agree).  Adding a flavor adds one line
 * here, its getter, its paragraph in the man page and its test.
 *
 * Kinds:
 *   real    a flavor of the library under test, compiled into this binary
 *           by flavor-ops.c (NULL from its getter when not built).
 *   busted  a copy of its base flavor's table with some operations replaced
 *           inside this binary (flavors.c, freeze.c, libstats.c,
 *           stress-busted.c).
 *   seeded  the base flavor's real grace-period engine rebuilt with one
 *           URCU_I_SEED_* step removed, in a module that seeded.c dlopen()s
 *           (tools/meson.build builds it; the library's own -Dseeded_bug
 *           builds use the same seeds, but for the library's tests).
 *
 * The base of a broken flavor, one rule: a busted flavor (base column NULL)
 * copies ut_flavor_base(): memb when built, else the first built of mb,
 * qsbr, bp (signal is never a base: a copied table's grace periods would
 * not send the signals its readers wait for).  A seeded flavor's base is
 * the engine its module is compiled from, fixed at build time: its base
 * column, which must match tools/meson.build's ut_seeded dictionary
 * (seeded.c compares it with the loaded module's engine: exit 3 if not, so
 * the urcutorture-litmus-busted-order-* tests fail).
 */
static const struct ut_flavor_ops *get_real(const char *name);
/* seeded.c: the seeded ordering-bug flavors, loaded from their modules. */
const struct ut_flavor_ops *ut_seeded_ops(const char *name);
/* stress-busted.c: busted-defer and busted-early (the stress mode's exact checks). */
const struct ut_flavor_ops *ut_stress_busted_ops(const char *name);

const struct ut_flavor_entry ut_flavor_registry[] = {
	{ "memb", UT_KIND_REAL, NULL, get_real,
	  "urcu-memb: sys_membarrier() grace periods" },
	{ "mb", UT_KIND_REAL, NULL, get_real,
	  "urcu-mb: a full fence in each read-side section" },
	{ "signal", UT_KIND_REAL, NULL, get_real,
	  "urcu-signal: readers fenced by a signal per grace period" },
	{ "qsbr", UT_KIND_REAL, NULL, get_real,
	  "urcu-qsbr: quiescent-state-based readers" },
	{ "bp", UT_KIND_REAL, NULL, get_real,
	  "urcu-bp: readers registered on first use" },
	{ "busted", UT_KIND_BUSTED, NULL, ut_busted_ops,
	  "grace periods end and callbacks run at once; must FAIL" },
	{ "busted-hang", UT_KIND_BUSTED, NULL, ut_busted_hang_ops,
	  "grace periods never end; must STALL (exit 2)" },
	{ "busted-freeze", UT_KIND_BUSTED, NULL, ut_busted_freeze_ops,
	  "grace periods stop 1 s into the run until it stops; must STALL (exit 2)" },
	{ "busted-stats", UT_KIND_BUSTED, NULL, ut_busted_stats_ops,
	  "grace-period statistics that count nothing; must FAIL (gp_stats_mismatch)" },
	{ "busted-defer", UT_KIND_BUSTED, NULL, ut_stress_busted_ops,
	  "defer_rcu runs the function at once; --mode=stress must FAIL" },
	{ "busted-early", UT_KIND_BUSTED, NULL, ut_stress_busted_ops,
	  "synchronize_rcu waits only for the grace period its previous call started; --mode=stress must FAIL" },
	{ "busted-order-updater", UT_KIND_SEEDED, "memb", ut_seeded_ops,
	  "memb without the fence before the flip (a module); --mode=litmus must FAIL" },
	{ "busted-order-reader", UT_KIND_SEEDED, "mb", ut_seeded_ops,
	  "mb without the reader's fence after publishing its word (a module); --mode=litmus must FAIL" },
	{ NULL, 0, NULL, NULL, NULL }
};

const char *ut_flavor_kind_name(enum ut_flavor_kind kind)
{
	return kind == UT_KIND_REAL ? "real" : kind == UT_KIND_BUSTED ? "busted" : "seeded";
}

static const struct ut_flavor_ops *get_real(const char *name)
{
	for (int i = 0; ut_flavors[i]; i++)
		if (!strcmp(ut_flavors[i]->name, name))
			return ut_flavors[i];
	return NULL;
}

const struct ut_flavor_entry *ut_flavor_entry_find(const char *name)
{
	for (int i = 0; ut_flavor_registry[i].name; i++)
		if (!strcmp(ut_flavor_registry[i].name, name))
			return &ut_flavor_registry[i];
	return NULL;
}

const struct ut_flavor_ops *ut_flavor_find(const char *name)
{
	const struct ut_flavor_entry *e = ut_flavor_entry_find(name);

	return e ? e->get(name) : NULL;
}

/* The base of the busted flavors (see the registry's comment above). */
const struct ut_flavor_ops *ut_flavor_base(void)
{
	static const char *const order[] = { "memb", "mb", "qsbr", "bp" };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const struct ut_flavor_ops *ops = get_real(order[i]);

		if (ops)
			return ops;
	}
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

const struct ut_flavor_ops *ut_busted_ops(const char *name)
{
	/* Filled on first use, which is option parsing in the main thread. */
	static struct ut_flavor_ops busted;

	if (!busted.name) {
		if (!ut_flavor_base())
			return NULL;
		busted = *ut_flavor_base();
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

const struct ut_flavor_ops *ut_busted_hang_ops(const char *name)
{
	/* Filled on first use, which is option parsing in the main thread. */
	static struct ut_flavor_ops hang;

	if (!hang.name) {
		if (!ut_flavor_base())
			return NULL;
		hang = *ut_flavor_base();
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
