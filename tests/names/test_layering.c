// SPDX-License-Identifier: MIT
/*
 * The underscore names are the implementation, the plain names map onto
 * them, as in liburcu: a program may #undef a plain name and rebuild it on
 * the underscore one.  Knot DNS's qsbr build does exactly that with
 * rcu_dereference; against headers where _rcu_dereference(p) expanded to
 * rcu_dereference(p), the wrapper's own name was left unexpanded inside its
 * expansion and the build failed with "implicit declaration of function
 * 'rcu_dereference'".
 *
 * Every plain name below is replaced by a wrapper that counts its uses and
 * then calls the underscore name; the checks use the plain names and
 * verify that the wrapper ran (the counter) and that the primitive did its
 * job.  Two shapes of wrapper:
 *   - function-like macros on the generic names (rcu_dereference,
 *     rcu_read_lock, ...) and the flavor-prefixed read side
 *     (urcu_<flavor>_read_lock, ...): an underscore name that expanded
 *     through the plain one would leave the plain name unexpanded, a
 *     compile error (implicit declaration) or a call of a function that
 *     does not exist (link error);
 *   - object-like redirects of the prefixed quiescent_state (and qsbr's
 *     thread_offline/thread_online) to a function of the program that
 *     calls the underscore name: an underscore name that expanded to the
 *     plain one would land in the program's function again, which the
 *     recursion guard reports.
 * Compiled once per flavor through its umbrella header (-DTEST_FLAVOR_<NAME>),
 * with and without _LGPL_SOURCE, warnings as errors.
 */
#include <pthread.h>
#include <stddef.h>

#if defined(TEST_FLAVOR_MEMB)
# include <urcu.h>
# define FLAVOR	"memb"
#elif defined(TEST_FLAVOR_MB)
# define RCU_MB
# include <urcu.h>
# define FLAVOR	"mb"
#elif defined(TEST_FLAVOR_SIGNAL)
# define RCU_SIGNAL
# include <urcu.h>
# define FLAVOR	"signal"
#elif defined(TEST_FLAVOR_QSBR)
# include <urcu-qsbr.h>
# define FLAVOR	"qsbr"
# define IS_QSBR	1
#elif defined(TEST_FLAVOR_BP)
# include <urcu-bp.h>
# define FLAVOR	"bp"
#else
# error "compile with one of TEST_FLAVOR_{MEMB,MB,SIGNAL,QSBR,BP} defined"
#endif
#ifndef IS_QSBR
# define IS_QSBR	0
#endif

#include <urcu/rculist.h>

#include "tap.h"

#ifdef _LGPL_SOURCE
# define MODE	"_LGPL_SOURCE"
#else
# define MODE	"no _LGPL_SOURCE"
#endif

/* Uses of each wrapper. */
static int n_deref, n_set, n_assign, n_xchg, n_cmpxchg;
static int n_lock, n_unlock, n_ongoing, n_qs;
static int n_plock, n_punlock, n_pongoing, n_pqs;
#if IS_QSBR
static int n_offline, n_online;
#endif
/* Depth of the program's redirect functions: more than 1 is a recursion. */
static int redirect_depth, redirect_recursed;

/* ---- The generic pointer primitives (urcu/pointer.h) ---- */

#undef rcu_dereference
#define rcu_dereference(p)						\
	__extension__ ({ n_deref++; _rcu_dereference(p); })
#undef rcu_set_pointer
#define rcu_set_pointer(pp, v)						\
	do { n_set++; _rcu_set_pointer(pp, v); } while (0)
#undef rcu_assign_pointer
#define rcu_assign_pointer(p, v)					\
	do { n_assign++; _rcu_assign_pointer(p, v); } while (0)
#undef rcu_xchg_pointer
#define rcu_xchg_pointer(pp, v)						\
	__extension__ ({ n_xchg++; _rcu_xchg_pointer(pp, v); })
#undef rcu_cmpxchg_pointer
#define rcu_cmpxchg_pointer(pp, old, newv)				\
	__extension__ ({ n_cmpxchg++; _rcu_cmpxchg_pointer(pp, old, newv); })

/* ---- The generic read side (urcu/map/urcu-<flavor>.h) ---- */

#undef rcu_read_lock
#define rcu_read_lock()		do { n_lock++; _rcu_read_lock(); } while (0)
#undef rcu_read_unlock
#define rcu_read_unlock()	do { n_unlock++; _rcu_read_unlock(); } while (0)
#undef rcu_read_ongoing
#define rcu_read_ongoing()	(n_ongoing++, _rcu_read_ongoing())
#undef rcu_quiescent_state
#define rcu_quiescent_state()	do { n_qs++; _rcu_quiescent_state(); } while (0)

/* ---- The flavor-prefixed read side (urcu/static/urcu-<flavor>.h) ---- */

static void my_quiescent_state(void);

#define WRAP_LOCK(f)		do { n_plock++; f(); } while (0)
#define WRAP_UNLOCK(f)		do { n_punlock++; f(); } while (0)
#define WRAP_ONGOING(f)		(n_pongoing++, f())

#if defined(TEST_FLAVOR_MEMB)
# undef urcu_memb_read_lock
# define urcu_memb_read_lock()		WRAP_LOCK(_urcu_memb_read_lock)
# undef urcu_memb_read_unlock
# define urcu_memb_read_unlock()	WRAP_UNLOCK(_urcu_memb_read_unlock)
# undef urcu_memb_read_ongoing
# define urcu_memb_read_ongoing()	WRAP_ONGOING(_urcu_memb_read_ongoing)
# undef urcu_memb_quiescent_state
# define urcu_memb_quiescent_state	my_quiescent_state
# define PFX(name)			urcu_memb_##name
# define UNDERSCORE_QS()		_urcu_memb_quiescent_state()
#elif defined(TEST_FLAVOR_MB)
# undef urcu_mb_read_lock
# define urcu_mb_read_lock()		WRAP_LOCK(_urcu_mb_read_lock)
# undef urcu_mb_read_unlock
# define urcu_mb_read_unlock()		WRAP_UNLOCK(_urcu_mb_read_unlock)
# undef urcu_mb_read_ongoing
# define urcu_mb_read_ongoing()		WRAP_ONGOING(_urcu_mb_read_ongoing)
# undef urcu_mb_quiescent_state
# define urcu_mb_quiescent_state	my_quiescent_state
# define PFX(name)			urcu_mb_##name
# define UNDERSCORE_QS()		_urcu_mb_quiescent_state()
#elif defined(TEST_FLAVOR_SIGNAL)
# undef urcu_signal_read_lock
# define urcu_signal_read_lock()	WRAP_LOCK(_urcu_signal_read_lock)
# undef urcu_signal_read_unlock
# define urcu_signal_read_unlock()	WRAP_UNLOCK(_urcu_signal_read_unlock)
# undef urcu_signal_read_ongoing
# define urcu_signal_read_ongoing()	WRAP_ONGOING(_urcu_signal_read_ongoing)
# undef urcu_signal_quiescent_state
# define urcu_signal_quiescent_state	my_quiescent_state
# define PFX(name)			urcu_signal_##name
# define UNDERSCORE_QS()		_urcu_signal_quiescent_state()
#elif defined(TEST_FLAVOR_QSBR)
static void my_thread_offline(void);
static void my_thread_online(void);
# undef urcu_qsbr_read_lock
# define urcu_qsbr_read_lock()		WRAP_LOCK(_urcu_qsbr_read_lock)
# undef urcu_qsbr_read_unlock
# define urcu_qsbr_read_unlock()	WRAP_UNLOCK(_urcu_qsbr_read_unlock)
# undef urcu_qsbr_read_ongoing
# define urcu_qsbr_read_ongoing()	WRAP_ONGOING(_urcu_qsbr_read_ongoing)
# undef urcu_qsbr_quiescent_state
# define urcu_qsbr_quiescent_state	my_quiescent_state
# undef urcu_qsbr_thread_offline
# define urcu_qsbr_thread_offline	my_thread_offline
# undef urcu_qsbr_thread_online
# define urcu_qsbr_thread_online	my_thread_online
# define PFX(name)			urcu_qsbr_##name
# define UNDERSCORE_QS()		_urcu_qsbr_quiescent_state()
#elif defined(TEST_FLAVOR_BP)
# undef urcu_bp_read_lock
# define urcu_bp_read_lock()		WRAP_LOCK(_urcu_bp_read_lock)
# undef urcu_bp_read_unlock
# define urcu_bp_read_unlock()		WRAP_UNLOCK(_urcu_bp_read_unlock)
# undef urcu_bp_read_ongoing
# define urcu_bp_read_ongoing()		WRAP_ONGOING(_urcu_bp_read_ongoing)
# undef urcu_bp_quiescent_state
# define urcu_bp_quiescent_state	my_quiescent_state
# define PFX(name)			urcu_bp_##name
# define UNDERSCORE_QS()		_urcu_bp_quiescent_state()
#endif

/*
 * The redirect targets.  Each calls the underscore name; if that expanded
 * to the prefixed name, it would call this function again.
 */
#define REDIRECT(counter, call)						\
	do {								\
		counter++;						\
		if (redirect_depth++ == 0)				\
			call;						\
		else							\
			redirect_recursed = 1;				\
		redirect_depth--;					\
	} while (0)

static void my_quiescent_state(void)
{
	REDIRECT(n_pqs, UNDERSCORE_QS());
}

#if IS_QSBR
static void my_thread_offline(void)
{
	REDIRECT(n_offline, _urcu_qsbr_thread_offline());
}

static void my_thread_online(void)
{
	REDIRECT(n_online, _urcu_qsbr_thread_online());
}
#endif

struct item {
	int key;
	struct cds_list_head node;
};

static void check_pointers(void)
{
	static int x, y, z;
	static int *gp;
	int *p, *old;

	rcu_set_pointer(&gp, &x);
	tap_ok(n_set == 1 && gp == &x, "rcu_set_pointer on _rcu_set_pointer");
	p = rcu_dereference(gp);
	tap_ok(n_deref == 1 && p == &x, "rcu_dereference on _rcu_dereference");
	rcu_assign_pointer(gp, &y);
	tap_ok(n_assign == 1 && n_set == 1 && gp == &y,
	       "rcu_assign_pointer on _rcu_assign_pointer");
	old = rcu_xchg_pointer(&gp, &z);
	tap_ok(n_xchg == 1 && old == &y && gp == &z,
	       "rcu_xchg_pointer on _rcu_xchg_pointer");
	old = rcu_cmpxchg_pointer(&gp, &z, &x);
	tap_ok(n_cmpxchg == 1 && old == &z && gp == &x,
	       "rcu_cmpxchg_pointer on _rcu_cmpxchg_pointer (match)");
	old = rcu_cmpxchg_pointer(&gp, &z, &y);
	tap_ok(n_cmpxchg == 2 && old == &x && gp == &x,
	       "rcu_cmpxchg_pointer on _rcu_cmpxchg_pointer (mismatch)");
	/* An expression use: the wrapper yields the primitive's value. */
	tap_ok(*rcu_dereference(gp) == 0 && n_deref == 2,
	       "rcu_dereference(gp) usable as an expression");
}

static void check_read_side(void)
{
	static struct item items[3] = { { .key = 1 }, { .key = 2 }, { .key = 3 } };
	static CDS_LIST_HEAD(list);
	struct item *it;
	int sum = 0, i, deref_before;

	for (i = 0; i < 3; i++)
		cds_list_add_tail_rcu(&items[i].node, &list);

	rcu_read_lock();
	tap_ok(n_lock == 1, "rcu_read_lock on _rcu_read_lock");
	tap_ok(rcu_read_ongoing() && n_ongoing == 1,
	       "rcu_read_ongoing on _rcu_read_ongoing: inside");
	/* The list iterators expand at the use site: they take the wrapper. */
	deref_before = n_deref;
	cds_list_for_each_entry_rcu(it, &list, node)
		sum += it->key;
	tap_ok(sum == 6 && n_deref - deref_before == 4,
	       "cds_list_for_each_entry_rcu uses the program's rcu_dereference "
	       "(%d loads)", n_deref - deref_before);
	rcu_read_unlock();
	tap_ok(n_unlock == 1, "rcu_read_unlock on _rcu_read_unlock");
	/* qsbr: "ongoing" means online, as in liburcu. */
	tap_ok((IS_QSBR ? rcu_read_ongoing() : !rcu_read_ongoing()) && n_ongoing == 2,
	       "rcu_read_ongoing on _rcu_read_ongoing: %s",
	       IS_QSBR ? "online" : "outside");
	rcu_quiescent_state();
	tap_ok(n_qs == 1, "rcu_quiescent_state on _rcu_quiescent_state");

	/* The prefixed names, wrapped on the _urcu_<flavor>_* ones. */
	PFX(read_lock)();
	PFX(read_lock)();
	tap_ok(PFX(read_ongoing)() && n_plock == 2 && n_pongoing == 1,
	       "urcu_" FLAVOR "_read_lock/read_ongoing on _urcu_" FLAVOR "_*");
	PFX(read_unlock)();
	PFX(read_unlock)();
	tap_ok(n_punlock == 2 && (IS_QSBR ? PFX(read_ongoing)() : !PFX(read_ongoing)()),
	       "urcu_" FLAVOR "_read_unlock on _urcu_" FLAVOR "_read_unlock");
	PFX(quiescent_state)();
	tap_ok(n_pqs == 1 && !redirect_recursed,
	       "urcu_" FLAVOR "_quiescent_state redirected to a function that "
	       "calls _urcu_" FLAVOR "_quiescent_state: no recursion");
#if IS_QSBR
	/* The generic names reach the redirect through the prefixed ones. */
	rcu_thread_offline();
	tap_ok(n_offline == 1 && !redirect_recursed && !rcu_read_ongoing(),
	       "urcu_qsbr_thread_offline redirected on _urcu_qsbr_thread_offline: offline");
	rcu_thread_online();
	tap_ok(n_online == 1 && !redirect_recursed && rcu_read_ongoing(),
	       "urcu_qsbr_thread_online redirected on _urcu_qsbr_thread_online: online");
#endif
	/* A grace period still completes with this thread registered. */
	synchronize_rcu();
	tap_ok(1, "synchronize_rcu after the wrapped read side (" MODE ")");
}

int main(void)
{
	rcu_register_thread();
	check_pointers();
	check_read_side();
	rcu_unregister_thread();
	return tap_done();
}
