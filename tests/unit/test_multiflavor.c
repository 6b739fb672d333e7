// SPDX-License-Identifier: MIT
/*
 * Every flavor in one program and one translation unit.
 *
 * All five direct headers are included together with the <urcu.h> umbrella
 * (generic names -> memb), before them or after them depending on
 * TEST_UMBRELLA_LAST, so both include orders are compiled: the umbrella's
 * maps must not disturb the other flavors' declarations (liburcu itself
 * gets the call_rcu prototypes wrong here).  Then, per flavor:
 * register, read_lock + rcu_dereference + read_unlock, synchronize_rcu,
 * a polled grace period, through the prefixed names and through the
 * runtime flavor table; and call_rcu of memb (by its generic name) and of
 * qsbr (prefixed) side by side, each flushed by its own rcu_barrier.
 */
#include <stdbool.h>

#ifndef TEST_UMBRELLA_LAST
#include <urcu.h>
#endif
#include <urcu/urcu-memb.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-bp.h>
#include <urcu/urcu-signal.h>
#ifdef TEST_UMBRELLA_LAST
#include <urcu.h>
#endif

#include "test-util.h"

#ifdef _LGPL_SOURCE
# define MODE	"inline"
#else
# define MODE	"call"
#endif

static struct t_obj *shared;

/* One flavor's calls, spelled with its prefix. */
#define EXERCISE(flavor)							\
	do {									\
		struct t_obj *p;						\
		struct urcu_gp_poll_state c;					\
		bool inside, done = false;					\
		unsigned long long t0;						\
										\
		urcu_##flavor##_register_thread();				\
		urcu_##flavor##_read_lock();					\
		p = rcu_dereference(shared);					\
		inside = urcu_##flavor##_read_ongoing() != 0;			\
		tap_ok(p && p->magic == T_LIVE && inside,			\
			"%s: " #flavor ": read_lock + rcu_dereference", MODE);	\
		urcu_##flavor##_read_unlock();					\
		urcu_##flavor##_quiescent_state();				\
		urcu_##flavor##_synchronize_rcu();				\
		tap_ok(1, "%s: " #flavor ": synchronize_rcu returned", MODE);	\
		c = urcu_##flavor##_start_poll_synchronize_rcu();		\
		t0 = t_now_ns();						\
		while (t_ms_since(t0) < T_START_LIMIT_MS && !done) {		\
			done = urcu_##flavor##_poll_state_synchronize_rcu(c);	\
			urcu_##flavor##_quiescent_state();			\
			if (!done)						\
				t_sleep_ms(1);					\
		}								\
		tap_ok(done, "%s: " #flavor ": polled grace period completes", MODE); \
		urcu_##flavor##_unregister_thread();				\
	} while (0)

static void through_table(const char *name, const struct rcu_flavor_struct *fl)
{
	struct t_obj *p;
	struct urcu_gp_poll_state c;
	bool inside;

	fl->register_thread();
	fl->read_lock();
	p = rcu_dereference(shared);
	inside = fl->read_ongoing() != 0;
	fl->read_unlock();
	fl->read_quiescent_state();
	fl->thread_offline();
	fl->update_synchronize_rcu();
	c = fl->update_start_poll_synchronize_rcu();
	fl->update_synchronize_rcu();
	fl->thread_online();
	tap_ok(p && inside && fl->update_poll_state_synchronize_rcu(c),
		"%s: %s: read side, synchronize_rcu and polling through the flavor table",
		MODE, name);
	fl->unregister_thread();
}

struct cb_obj {
	struct rcu_head head;
	int *counter;
};

static void cb_count(struct rcu_head *head)
{
	struct cb_obj *o = caa_container_of(head, struct cb_obj, head);

	__atomic_add_fetch(o->counter, 1, __ATOMIC_RELAXED);
	free(o);
}

static struct cb_obj *cb_new(int *counter)
{
	struct cb_obj *o = (struct cb_obj *) malloc(sizeof(*o));

	if (!o)
		tap_bail("out of memory");
	o->counter = counter;
	return o;
}

static void call_rcu_side_by_side(void)
{
	int memb_count = 0, qsbr_count = 0;

	/* memb through its generic names (the umbrella), qsbr prefixed. */
	rcu_register_thread();
	urcu_qsbr_register_thread();
	call_rcu(&cb_new(&memb_count)->head, cb_count);
	urcu_qsbr_call_rcu(&cb_new(&qsbr_count)->head, cb_count);
	urcu_memb_call_rcu(&cb_new(&memb_count)->head, cb_count);
	rcu_barrier();
	/* From an online qsbr thread, as liburcu allows. */
	urcu_qsbr_barrier();
	tap_ok(__atomic_load_n(&memb_count, __ATOMIC_RELAXED) == 2,
		"%s: memb call_rcu (generic and prefixed): both callbacks ran after rcu_barrier "
		"(%d)", MODE, memb_count);
	tap_ok(__atomic_load_n(&qsbr_count, __ATOMIC_RELAXED) == 1,
		"%s: qsbr call_rcu next to memb: callback ran after urcu_qsbr_barrier (%d)",
		MODE, qsbr_count);
	urcu_qsbr_unregister_thread();
	rcu_unregister_thread();
}

int main(void)
{
	shared = t_obj_new(0);
	EXERCISE(memb);
	EXERCISE(mb);
	EXERCISE(qsbr);
	EXERCISE(bp);
	EXERCISE(signal);
	through_table("memb", &urcu_memb_flavor);
	through_table("mb", &urcu_mb_flavor);
	through_table("qsbr", &urcu_qsbr_flavor);
	through_table("bp", &urcu_bp_flavor);
	through_table("signal", &urcu_signal_flavor);
	/* Each table points at its own flavor's functions. */
	tap_ok(rcu_flavor.update_synchronize_rcu == urcu_memb_synchronize_rcu
		&& urcu_mb_flavor.update_synchronize_rcu == urcu_mb_synchronize_rcu
		&& urcu_qsbr_flavor.update_synchronize_rcu == urcu_qsbr_synchronize_rcu
		&& urcu_bp_flavor.update_synchronize_rcu == urcu_bp_synchronize_rcu
		&& urcu_signal_flavor.update_synchronize_rcu == urcu_signal_synchronize_rcu,
		"%s: rcu_flavor (memb under <urcu.h>) and every urcu_<flavor>_flavor table "
		"point at their own synchronize_rcu", MODE);
	call_rcu_side_by_side();
	free(shared);
	return tap_done();
}
