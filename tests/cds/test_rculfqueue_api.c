// SPDX-License-Identifier: MIT
/*
 * The RCU lock-free queue (urcu/rculfqueue.h), one thread: every function and
 * return value (FIFO order, NULL when empty, cds_lfq_destroy_rcu's -EPERM),
 * dummies reclaimed through the queue's call_rcu, and -- in the inline build,
 * where the test can make malloc() fail -- the out-of-memory path: the
 * reserve dummy first, then NULL with errno == ENOMEM and the queue intact.
 * Built per flavor (-DTEST_FLAVOR_<X>), as C and as C++, with and without
 * _LGPL_SOURCE; written in the common subset of C and C++.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/*
 * Inline build: route the queue's malloc() calls to a wrapper that fails on
 * demand.  stdlib.h is included first so that the real declaration stays.
 */
#ifdef _LGPL_SOURCE
static int t_malloc_fail;
static inline void *t_malloc(size_t size)
{
	return t_malloc_fail ? NULL : malloc(size);
}
# define malloc t_malloc
#endif
#include <urcu/rculfqueue.h>
#ifdef _LGPL_SOURCE
# undef malloc
#endif

#include "flavor-select.h"
#include "tap.h"
#include "cds-test.h"

#if defined(cds_lfq_enqueue_rcu) != T_CDS_MAPPED || defined(cds_lfq_dequeue_rcu) != T_CDS_MAPPED \
	|| defined(cds_lfq_destroy_rcu) != T_CDS_MAPPED
#error "_LGPL_SOURCE does not select the inline rculfqueue functions"
#endif

struct item {
	int value;
	struct cds_lfq_node_rcu node;
};

static struct item *to_item(struct cds_lfq_node_rcu *node)
{
	return node ? caa_container_of(node, struct item, node) : NULL;
}

static void enqueue(struct cds_lfq_queue_rcu *q, struct item *it)
{
	T_FN(read_lock)();
	cds_lfq_enqueue_rcu(q, &it->node);
	t_reader_exit();
}

static struct item *dequeue(struct cds_lfq_queue_rcu *q)
{
	struct cds_lfq_node_rcu *node;

	T_FN(read_lock)();
	node = cds_lfq_dequeue_rcu(q);
	t_reader_exit();
	return to_item(node);
}

static void test_fifo(void)
{
	struct cds_lfq_queue_rcu q;
	struct item it[5];
	struct item *got;
	int i, in_order = 1;

	cds_lfq_init_rcu(&q, T_FN(call_rcu));
	tap_ok(dequeue(&q) == NULL, "dequeue of a new queue is NULL");
	tap_ok(cds_lfq_destroy_rcu(&q) == 0, "destroy of an empty queue returns 0");

	cds_lfq_init_rcu(&q, T_FN(call_rcu));
	for (i = 0; i < 5; i++) {
		it[i].value = i;
		cds_lfq_node_init_rcu(&it[i].node);
		tap_ok(it[i].node.next == NULL && it[i].node.dummy == 0,
			"cds_lfq_node_init_rcu clears next and dummy (%d)", i);
		enqueue(&q, &it[i]);
	}
	tap_ok(cds_lfq_destroy_rcu(&q) == -EPERM, "destroy of a non-empty queue returns -EPERM");
	for (i = 0; i < 5; i++) {
		got = dequeue(&q);
		if (got != &it[i])
			in_order = 0;
	}
	tap_ok(in_order, "five nodes come out in FIFO order, after the refused destroy");
	tap_ok(dequeue(&q) == NULL, "then the queue is empty");

	/*
	 * Each empty-to-non-empty cycle through the last node costs a dummy,
	 * handed to call_rcu; enqueue needs no node_init for a reused node.
	 */
	for (i = 0; i < 100; i++) {
		enqueue(&q, &it[i % 5]);
		got = dequeue(&q);
		if (got != &it[i % 5])
			break;
		T_FN(synchronize_rcu)();	/* before the node is enqueued again */
	}
	tap_ok(i == 100, "100 enqueue/dequeue cycles of a single node (%d)", i);
	enqueue(&q, &it[0]);
	enqueue(&q, &it[1]);
	tap_ok(dequeue(&q) == &it[0], "a reused node keeps its place");
	tap_ok(dequeue(&q) == &it[1] && dequeue(&q) == NULL, "and the queue drains");
	tap_ok(cds_lfq_destroy_rcu(&q) == 0, "destroy after draining returns 0");
	T_FN(barrier)();	/* the dummies' callbacks have run (ASan: no leak) */
}

#ifdef _LGPL_SOURCE
static void test_out_of_memory(void)
{
	struct cds_lfq_queue_rcu q;
	struct item a, b, c;
	struct item *got;

	cds_lfq_init_rcu(&q, T_FN(call_rcu));
	tap_ok(q.spare_dummy != NULL, "init allocates a reserve dummy");
	cds_lfq_node_init_rcu(&a.node);
	cds_lfq_node_init_rcu(&b.node);
	cds_lfq_node_init_rcu(&c.node);

	enqueue(&q, &a);
	t_malloc_fail = 1;
	got = dequeue(&q);
	tap_ok(got == &a && q.spare_dummy == NULL,
		"malloc fails: the last node is dequeued with the reserve dummy");
	enqueue(&q, &b);
	errno = 0;
	got = dequeue(&q);
	tap_ok(got == NULL && errno == ENOMEM,
		"malloc fails, reserve spent: NULL with errno ENOMEM");
	enqueue(&q, &c);
	got = dequeue(&q);
	tap_ok(got == &b, "a node enqueued after the last one lets dequeue proceed without a dummy");
	t_malloc_fail = 0;
	got = dequeue(&q);
	tap_ok(got == &c && q.spare_dummy != NULL,
		"malloc works again: the node comes out and the reserve is refilled");
	tap_ok(dequeue(&q) == NULL && cds_lfq_destroy_rcu(&q) == 0, "empty, destroyed");
	T_FN(barrier)();
}
#endif

int main(void)
{
	tap_diag("rculfqueue API, %s flavor, %s, %s", T_FLAVOR, T_CDS_LANG, T_CDS_MODE);
	T_FN(register_thread)();
	test_fifo();
#ifdef _LGPL_SOURCE
	test_out_of_memory();
#else
	tap_skip("out-of-memory path: tested in the inline build, where malloc can be made to fail");
#endif
	T_FN(unregister_thread)();
	return tap_done();
}
