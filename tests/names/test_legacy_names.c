// SPDX-License-Identifier: MIT
/*
 * The legacy names liburcu programs still use work, not just compile: the
 * underscore inline names of the umbrella headers (_rcu_read_lock, ...) and
 * the flavor-suffixed aliases (rcu_read_lock_memb, synchronize_rcu_qsbr,
 * call_rcu_bp, rcu_flavor_sig, ...).  Compiled once per flavor through the
 * flavor's umbrella header (-DTEST_FLAVOR_<NAME>), with and without
 * _LGPL_SOURCE; check-names.py covers the existence of every name, this
 * test what a few representative ones do.
 */
#include <pthread.h>
#include <stddef.h>

#if defined(TEST_FLAVOR_MEMB)
# include <urcu.h>
# define SFX(name)	name##_memb
# define PFX(name)	urcu_memb_##name
# define SUFFIX	"memb"
#elif defined(TEST_FLAVOR_MB)
# define RCU_MB
# include <urcu.h>
# define SFX(name)	name##_mb
# define PFX(name)	urcu_mb_##name
# define SUFFIX	"mb"
#elif defined(TEST_FLAVOR_SIGNAL)
# define RCU_SIGNAL
# include <urcu.h>
# define SFX(name)	name##_sig
# define PFX(name)	urcu_signal_##name
# define SUFFIX	"sig"
#elif defined(TEST_FLAVOR_QSBR)
# include <urcu-qsbr.h>
# define SFX(name)	name##_qsbr
# define PFX(name)	urcu_qsbr_##name
# define SUFFIX	"qsbr"
# define IS_QSBR	1
#elif defined(TEST_FLAVOR_BP)
# include <urcu-bp.h>
# define SFX(name)	name##_bp
# define PFX(name)	urcu_bp_##name
# define SUFFIX	"bp"
#else
# error "compile with one of TEST_FLAVOR_{MEMB,MB,SIGNAL,QSBR,BP} defined"
#endif
#ifndef IS_QSBR
# define IS_QSBR	0
#endif

#include <string.h>

#include "tap.h"

/*
 * Programs written for liburcu may declare the read-side functions
 * themselves; with the read side inline (function-like macros) such a
 * declaration must still compile, and the calls below go through it.
 */
void PFX(read_lock)(void);
void PFX(read_unlock)(void);
int PFX(read_ongoing)(void);
void PFX(quiescent_state)(void);
void PFX(thread_offline)(void);
void PFX(thread_online)(void);

/* The text a name expands to: compares two names' expansions at run time. */
#define STR2(x)		#x
#define STR(x)		STR2(x)
#define SAME(a, b)	(strcmp(STR(a), STR(b)) == 0)

struct item {
	struct rcu_head head;
	int value;
};

static int callbacks_run;
static int deferred_run;

static void item_cb(struct rcu_head *head)
{
	struct item *it = caa_container_of(head, struct item, head);

	uatomic_add(&callbacks_run, it->value);
}

static void deferred(void *arg)
{
	uatomic_add(&deferred_run, *(int *) arg);
}

int main(void)
{
	static struct item a = { .value = 1 }, b = { .value = 2 };
	static int x, y;
	static int *gp;
	static int defer_arg = 5;
	int *old;

	/* The generic and suffixed names expand to the prefixed ones. */
	tap_ok(SAME(rcu_flavor, PFX(flavor)) && SAME(SFX(rcu_flavor), PFX(flavor)),
	       "rcu_flavor and rcu_flavor_" SUFFIX " are " STR(PFX(flavor)));
	tap_ok(SAME(SFX(synchronize_rcu), PFX(synchronize_rcu))
	       && SAME(SFX(call_rcu), PFX(call_rcu))
	       && SAME(SFX(rcu_barrier), PFX(barrier))
	       && SAME(SFX(rcu_read_lock), PFX(read_lock)),
	       "suffixed aliases name the prefixed functions");
	tap_ok(SFX(rcu_flavor).barrier == PFX(barrier),
	       "rcu_flavor_" SUFFIX " is the flavor's table");

	SFX(rcu_register_thread)();

	/* Underscore inline names, generic and suffixed, nest with the others. */
	_rcu_read_lock();
	tap_ok(_rcu_read_ongoing() && SFX(rcu_read_ongoing)()
	       && SFX(_rcu_read_ongoing)(),
	       "_rcu_read_lock: inside a read-side critical section");
	SFX(_rcu_read_lock)();
	SFX(rcu_read_lock)();
	SFX(rcu_read_unlock)();
	SFX(_rcu_read_unlock)();
	tap_ok(_rcu_read_ongoing(), "nested _rcu_read_lock_" SUFFIX
	       ": still inside after two unlocks");
	_rcu_read_unlock();
	/* qsbr: "ongoing" means online, as in liburcu. */
	tap_ok(IS_QSBR ? _rcu_read_ongoing() : !_rcu_read_ongoing(),
	       "_rcu_read_unlock: %s", IS_QSBR ? "still online (qsbr)" : "outside again");
	_rcu_quiescent_state();

	/* Pointer aliases. */
	SFX(rcu_set_pointer)(&gp, &x);
	tap_ok(SFX(rcu_dereference)(gp) == &x, "rcu_set_pointer/rcu_dereference aliases");
	old = SFX(rcu_xchg_pointer)(&gp, &y);
	tap_ok(old == &x && gp == &y, "rcu_xchg_pointer alias returns the old pointer");
	old = SFX(rcu_cmpxchg_pointer)(&gp, &y, &x);
	tap_ok(old == &y && gp == &x, "rcu_cmpxchg_pointer alias swaps on a match");

	/* Grace periods and callbacks through the suffixed names. */
	SFX(synchronize_rcu)();
	SFX(call_rcu)(&a.head, item_cb);
	call_rcu(&b.head, item_cb);
	SFX(rcu_barrier)();
	tap_ok(uatomic_read(&callbacks_run) == 3,
	       "call_rcu_" SUFFIX " and call_rcu callbacks ran by rcu_barrier_" SUFFIX);
	tap_ok(SFX(get_default_call_rcu_data)() != NULL
	       && SFX(get_default_call_rcu_data)() == get_default_call_rcu_data(),
	       "get_default_call_rcu_data alias");

	/* defer_rcu through the suffixed names (never inside a critical section). */
	tap_ok(SFX(rcu_defer_register_thread)() == 0, "rcu_defer_register_thread alias");
	SFX(defer_rcu)(deferred, &defer_arg);
	SFX(rcu_defer_barrier)();
	tap_ok(uatomic_read(&deferred_run) == 5, "defer_rcu alias ran by rcu_defer_barrier");
	SFX(rcu_defer_unregister_thread)();

#if defined(TEST_FLAVOR_BP)
	tap_ok(SAME(rcu_bp_before_fork, urcu_bp_before_fork)
	       && SAME(rcu_bp_after_fork_parent, urcu_bp_after_fork_parent)
	       && SAME(rcu_bp_after_fork_child, urcu_bp_after_fork_child),
	       "rcu_bp_*_fork aliases name bp's fork handlers");
	tap_ok(urcu_bp_dereference(gp) == &x, "urcu_bp_dereference");
#endif

	SFX(rcu_unregister_thread)();
	return tap_done();
}
