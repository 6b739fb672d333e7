// SPDX-License-Identifier: MIT
/*
 * A liburcu-style program: generic names from the umbrella header (<urcu.h>
 * for memb, or <urcu-qsbr.h> / <urcu-bp.h> with TEST_UMBRELLA_QSBR / _BP),
 * the compatibility headers, the flavor table and the fork-hook registration,
 * exactly as programs written for liburcu use them.  TAP output.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdlib.h>

#if defined(TEST_UMBRELLA_QSBR)
# include <urcu-qsbr.h>
#elif defined(TEST_UMBRELLA_BP)
# include <urcu-bp.h>
#else
# include <urcu.h>
#endif
#include <urcu/call-rcu.h>
#include <urcu-call-rcu.h>
#include <urcu-defer.h>
#include <urcu-flavor.h>
#include <urcu/rculist.h>

#include "tap.h"

struct item {
	int value;
	struct cds_list_head node;
	struct rcu_head rcu;
};

static CDS_LIST_HEAD(items);
static int freed, deferred;

static void free_item(struct rcu_head *head)
{
	free(caa_container_of(head, struct item, rcu));
	uatomic_add(&freed, 1);
}

static void deferred_fn(void *p)
{
	free(p);
	uatomic_add(&deferred, 1);
}

static int hook_calls;

static void hook(void *priv)
{
	(void) priv;
	hook_calls++;
}

static struct urcu_atfork hooks = { hook, hook, hook, NULL };

int main(void)
{
	struct item *it, *tmp;
	struct call_rcu_data *crdp;
	int sum = 0;

	rcu_register_thread();
	for (int i = 1; i <= 10; i++) {
		it = malloc(sizeof(*it));
		it->value = i;
		cds_list_add_rcu(&it->node, &items);
	}
	rcu_read_lock();
	cds_list_for_each_entry_rcu(it, &items, node)
		sum += it->value;
	rcu_read_unlock();
	tap_ok(sum == 55, "list built and read");

	cds_list_for_each_entry_safe(it, tmp, &items, node) {
		cds_list_del_rcu(&it->node);
		call_rcu(&it->rcu, free_item);
	}
	rcu_barrier();
	tap_ok(freed == 10, "call_rcu + rcu_barrier through the generic names");

	crdp = create_call_rcu_data(0, -1);
	set_thread_call_rcu_data(crdp);
	tap_ok(get_thread_call_rcu_data() == crdp && get_call_rcu_data() == crdp,
		"thread-control functions through the generic names");
	it = malloc(sizeof(*it));
	rcu_flavor.update_call_rcu(&it->rcu, free_item);
	rcu_flavor.barrier();
	tap_ok(freed == 11, "rcu_flavor.update_call_rcu and rcu_flavor.barrier");
	tap_ok(rcu_flavor.update_synchronize_rcu == synchronize_rcu
		&& rcu_flavor.read_lock != NULL && rcu_flavor.update_defer_rcu != NULL
		&& rcu_flavor.update_start_poll_synchronize_rcu != NULL,
		"flavor table entries are set");
	set_thread_call_rcu_data(NULL);
	call_rcu_data_free(crdp);

	tap_ok(rcu_defer_register_thread() == 0, "rcu_defer_register_thread");
	for (int i = 0; i < 100; i++)
		defer_rcu(deferred_fn, malloc(8));
	rcu_defer_barrier();
	tap_ok(deferred == 100, "defer_rcu + rcu_defer_barrier");
	rcu_defer_unregister_thread();

	urcu_register_rculfhash_atfork(&hooks);
	call_rcu_before_fork();
	call_rcu_after_fork_parent();
	urcu_unregister_rculfhash_atfork(&hooks);
	tap_ok(hook_calls == 2, "urcu_register_rculfhash_atfork hooks run by the fork functions");

	rcu_unregister_thread();
	return tap_done();
}
