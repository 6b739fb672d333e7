// SPDX-License-Identifier: MIT
/*
 * The two deprecated headers, one thread: urcu/wfqueue.h (FIFO order,
 * empty, the dummy node's round trips, locked and unlocked dequeue) and
 * urcu/rculfstack.h (push return values, LIFO pops under a read-side
 * critical section).  The deprecation warnings are silenced the documented
 * way, by defining the two macros empty; that the warnings appear otherwise
 * is checked by check_cds_headers.py.  Built per flavor (rculfstack's pops
 * need one), as C and as C++, with and without _LGPL_SOURCE.
 */
#define CDS_WFQ_DEPRECATED
#define CDS_LFS_RCU_DEPRECATED
#include <stddef.h>
#include <urcu/wfqueue.h>
#include <urcu/rculfstack.h>
#include <urcu/compiler.h>

#include "flavor-select.h"
#include "tap.h"
#include "cds-test.h"

struct qitem {
	int value;
	struct cds_wfq_node node;
};

struct sitem {
	int value;
	struct cds_lfs_node_rcu node;
};

static int qvalue(struct cds_wfq_node *node)
{
	return node ? caa_container_of(node, struct qitem, node)->value : -1;
}

static void test_wfqueue(void)
{
	struct cds_wfq_queue q;
	struct qitem it[4];
	int i, ok;

	cds_wfq_init(&q);
	tap_ok(cds_wfq_dequeue_blocking(&q) == NULL, "wfqueue: dequeue of a new queue is NULL");
	tap_ok(__cds_wfq_dequeue_blocking(&q) == NULL, "wfqueue: unlocked dequeue too");
	for (i = 0; i < 4; i++) {
		it[i].value = i;
		cds_wfq_node_init(&it[i].node);
		cds_wfq_enqueue(&q, &it[i].node);
	}
	ok = 1;
	for (i = 0; i < 4; i++)
		ok &= qvalue(i % 2 ? cds_wfq_dequeue_blocking(&q) : __cds_wfq_dequeue_blocking(&q)) == i;
	tap_ok(ok, "wfqueue: 4 nodes in FIFO order (locked and unlocked dequeues)");
	tap_ok(cds_wfq_dequeue_blocking(&q) == NULL, "wfqueue: empty after draining");

	/* The last node goes out behind the re-enqueued dummy, many times. */
	ok = 1;
	for (i = 0; i < 50; i++) {
		cds_wfq_enqueue(&q, &it[i % 4].node);
		if (i % 3 == 0)
			cds_wfq_enqueue(&q, &it[(i + 1) % 4].node);
		ok &= qvalue(cds_wfq_dequeue_blocking(&q)) == i % 4;
		if (i % 3 == 0)
			ok &= qvalue(cds_wfq_dequeue_blocking(&q)) == (i + 1) % 4;
		ok &= cds_wfq_dequeue_blocking(&q) == NULL;
	}
	tap_ok(ok, "wfqueue: 50 rounds of one or two nodes through an emptied queue");
	cds_wfq_destroy(&q);
}

static struct sitem *pop(struct cds_lfs_stack_rcu *s)
{
	struct cds_lfs_node_rcu *node;

	T_FN(read_lock)();
	node = cds_lfs_pop_rcu(s);
	t_reader_exit();
	return node ? caa_container_of(node, struct sitem, node) : NULL;
}

static void test_rculfstack(void)
{
	struct cds_lfs_stack_rcu s;
	struct sitem it[3];
	int i;

	cds_lfs_init_rcu(&s);
	tap_ok(pop(&s) == NULL, "rculfstack: pop of an empty stack is NULL");
	for (i = 0; i < 3; i++) {
		it[i].value = i;
		cds_lfs_node_init_rcu(&it[i].node);
		tap_ok((cds_lfs_push_rcu(&s, &it[i].node) != 0) == (i != 0),
			"rculfstack: push %d returns %s", i, i ? "non-zero" : "0 (was empty)");
	}
	tap_ok(pop(&s) == &it[2] && pop(&s) == &it[1] && pop(&s) == &it[0] && pop(&s) == NULL,
		"rculfstack: LIFO pops, then empty");
	T_FN(synchronize_rcu)();
	tap_ok(cds_lfs_push_rcu(&s, &it[1].node) == 0 && pop(&s) == &it[1],
		"rculfstack: a node pushed again after a grace period");
}

int main(void)
{
	tap_diag("deprecated wfqueue/rculfstack, %s flavor, %s, %s",
		T_FLAVOR, T_CDS_LANG, T_CDS_MODE);
	T_FN(register_thread)();
	test_wfqueue();
	test_rculfstack();
	T_FN(unregister_thread)();
	return tap_done();
}
