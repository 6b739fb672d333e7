// SPDX-License-Identifier: MIT
/*
 * Several flavors in one translation unit, through their direct headers
 * only: each flavor's call_rcu, rcu_barrier and defer_rcu are distinct
 * functions with their own workers (liburcu's headers get the call_rcu and
 * defer prototypes of the second flavor wrong; ours must not).  TAP output.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdlib.h>
#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-bp.h>
#include <urcu/call-rcu-stats.h>

#include "tap.h"

static pthread_t ran_on[3];

struct obj {
	struct rcu_head head;
	int flavor;
};

static void cb(struct rcu_head *head)
{
	struct obj *o = caa_container_of(head, struct obj, head);

	ran_on[o->flavor] = pthread_self();
	free(o);
}

static struct obj *obj(int flavor)
{
	struct obj *o = malloc(sizeof(*o));

	o->flavor = flavor;
	return o;
}

int main(void)
{
	urcu_memb_register_thread();
	urcu_qsbr_register_thread();

	urcu_memb_call_rcu(&obj(0)->head, cb);
	urcu_qsbr_call_rcu(&obj(1)->head, cb);
	urcu_bp_call_rcu(&obj(2)->head, cb);
	urcu_memb_barrier();
	urcu_qsbr_barrier();
	urcu_bp_barrier();
	tap_ok(pthread_equal(ran_on[0], urcu_memb_get_call_rcu_thread(urcu_memb_get_default_call_rcu_data())),
		"memb callback ran on the memb worker");
	tap_ok(pthread_equal(ran_on[1], urcu_qsbr_get_call_rcu_thread(urcu_qsbr_get_default_call_rcu_data())),
		"qsbr callback ran on the qsbr worker");
	tap_ok(pthread_equal(ran_on[2], urcu_bp_get_call_rcu_thread(urcu_bp_get_default_call_rcu_data())),
		"bp callback ran on the bp worker");
	tap_ok(!pthread_equal(ran_on[0], ran_on[1]) && !pthread_equal(ran_on[1], ran_on[2]),
		"each flavor has its own default worker");
	tap_ok(urcu_memb_flavor.update_call_rcu == urcu_memb_call_rcu
		&& urcu_qsbr_flavor.update_call_rcu == urcu_qsbr_call_rcu
		&& urcu_bp_flavor.barrier == urcu_bp_barrier
		&& urcu_qsbr_flavor.read_quiescent_state == urcu_qsbr_quiescent_state
		&& urcu_memb_flavor.register_rculfhash_atfork == urcu_memb_register_rculfhash_atfork,
		"flavor tables point at their own flavor's functions");
	tap_ok(urcu_memb_call_rcu_stats(NULL, 0) == 1 && urcu_qsbr_call_rcu_stats(NULL, 0) == 1
		&& urcu_bp_call_rcu_stats(NULL, 0) == 1, "one worker per flavor in the stats");

	urcu_qsbr_unregister_thread();
	urcu_memb_unregister_thread();
	return tap_done();
}
