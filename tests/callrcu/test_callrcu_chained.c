// SPDX-License-Identifier: MIT
/*
 * call_rcu, for one flavor (TEST_FLAVOR_<NAME>):
 * callbacks that queue callbacks.
 * TAP output.
 */
#include "callrcu-common.h"

/* ---- callbacks that queue callbacks ---------------------------------------- */

struct chained {
	struct rcu_head head;
	int depth;
};

static int chain_done;
static pthread_t chain_thread;
static int chain_other_thread;

static void chain_cb(struct rcu_head *head)
{
	struct chained *c = caa_container_of(head, struct chained, head);

	if (!pthread_equal(pthread_self(), chain_thread))
		uatomic_set(&chain_other_thread, 1);
	if (c->depth-- > 0) {
		/* The worker is a registered thread: call_rcu works here. */
		T_FN(call_rcu)(&c->head, chain_cb);
		return;
	}
	free(c);
	uatomic_store(&chain_done, 1, CMM_RELEASE);
}

static void test_chained(void)
{
	struct chained *c = malloc(sizeof(*c));
	struct call_rcu_data *def = T_FN(get_default_call_rcu_data)();
	int rounds = 0;

	chain_thread = T_FN(get_call_rcu_thread)(def);
	c->depth = 5;
	T_FN(call_rcu)(&c->head, chain_cb);
	/* Each rcu_barrier covers the links queued before it. */
	while (!uatomic_load(&chain_done, CMM_ACQUIRE) && rounds++ < 100)
		T_FN(barrier)();
	tap_ok(uatomic_read(&chain_done) && rounds <= 7,
		"a callback may call call_rcu; links run one per barrier (%d barriers)", rounds);
	tap_ok(!uatomic_read(&chain_other_thread), "re-queued callbacks stay on the worker that ran them");
}

int main(void)
{
	callrcu_test_begin();
	test_chained();
	return callrcu_test_end();
}
