// SPDX-License-Identifier: MIT
/*
 * The wait-free concurrent queue (urcu/wfcqueue.h): single-thread semantics
 * of every operation, the non-blocking forms facing a half-linked enqueue,
 * and a short multi-producer / single-consumer stress run that checks that
 * every node arrives exactly once and in per-producer order.  Built twice:
 * with and without _LGPL_SOURCE (inline and exported implementations).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <urcu/wfcqueue.h>
#include <urcu/compiler.h>
#include <urcu/uatomic.h>

#include "tap.h"

struct item {
	struct cds_wfcq_node node;
	int producer;
	long seq;
};

static struct item *to_item(struct cds_wfcq_node *node)
{
	return caa_container_of(node, struct item, node);
}

static void test_basic(void)
{
	struct __cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct item it[4];
	struct cds_wfcq_node *node;
	int state, i, n;
	bool order_ok;

	__cds_wfcq_init(&head, &tail);
	tap_ok(cds_wfcq_empty(&head, &tail), "new queue is empty");
	tap_ok(__cds_wfcq_first_blocking(&head, &tail) == NULL, "first of empty queue is NULL");
	tap_ok(__cds_wfcq_dequeue_blocking(&head, &tail) == NULL, "dequeue of empty queue is NULL");
	tap_ok(__cds_wfcq_dequeue_nonblocking(&head, &tail) == NULL,
		"non-blocking dequeue of empty queue is NULL");

	for (i = 0; i < 4; i++) {
		cds_wfcq_node_init(&it[i].node);
		it[i].seq = i;
	}
	tap_ok(!cds_wfcq_enqueue(&head, &tail, &it[0].node), "enqueue into empty queue returns false");
	tap_ok(cds_wfcq_enqueue(&head, &tail, &it[1].node), "enqueue into non-empty queue returns true");
	cds_wfcq_enqueue(&head, &tail, &it[2].node);
	tap_ok(!cds_wfcq_empty(&head, &tail), "queue with nodes is not empty");

	n = 0;
	order_ok = true;
	__cds_wfcq_for_each_blocking(&head, &tail, node) {
		if (to_item(node)->seq != n)
			order_ok = false;
		n++;
	}
	tap_ok(n == 3 && order_ok, "iteration visits 3 nodes in FIFO order (got %d)", n);
	tap_ok(__cds_wfcq_next_blocking(&head, &tail, &it[2].node) == NULL, "next of last node is NULL");
	tap_ok(__cds_wfcq_next_nonblocking(&head, &tail, &it[0].node) == &it[1].node,
		"non-blocking next of a linked node");

	node = __cds_wfcq_dequeue_with_state_blocking(&head, &tail, &state);
	tap_ok(node == &it[0].node && !(state & CDS_WFCQ_STATE_LAST), "dequeue first, not last");
	node = __cds_wfcq_dequeue_with_state_nonblocking(&head, &tail, &state);
	tap_ok(node == &it[1].node && !(state & CDS_WFCQ_STATE_LAST), "non-blocking dequeue second");
	node = __cds_wfcq_dequeue_with_state_blocking(&head, &tail, &state);
	tap_ok(node == &it[2].node && (state & CDS_WFCQ_STATE_LAST), "dequeue third, state LAST");
	tap_ok(cds_wfcq_empty(&head, &tail), "empty after dequeuing everything");
	tap_ok(!cds_wfcq_enqueue(&head, &tail, &it[3].node), "enqueue after drain sees empty queue");
	tap_ok(__cds_wfcq_dequeue_blocking(&head, &tail) == &it[3].node, "node enqueued after drain");
	tap_ok(cds_wfcq_empty(&head, &tail), "empty again");
}

static void fill(struct __cds_wfcq_head *head, struct cds_wfcq_tail *tail,
		struct item *it, int from, int to)
{
	for (int i = from; i < to; i++) {
		it[i].seq = i;
		cds_wfcq_enqueue(head, tail, &it[i].node);
	}
}

static bool drain_in_order(struct __cds_wfcq_head *head, struct cds_wfcq_tail *tail,
		int from, int to)
{
	struct cds_wfcq_node *node;
	int expect = from;

	while ((node = __cds_wfcq_dequeue_blocking(head, tail)) != NULL) {
		if (to_item(node)->seq != expect)
			return false;
		expect++;
	}
	return expect == to;
}

static void test_splice(void)
{
	struct __cds_wfcq_head src, dest;
	struct cds_wfcq_tail src_tail, dest_tail;
	struct item it[10];

	__cds_wfcq_init(&src, &src_tail);
	__cds_wfcq_init(&dest, &dest_tail);
	tap_ok(__cds_wfcq_splice_blocking(&dest, &dest_tail, &src, &src_tail)
		== CDS_WFCQ_RET_SRC_EMPTY, "splice from empty source");
	fill(&src, &src_tail, it, 0, 3);
	tap_ok(__cds_wfcq_splice_blocking(&dest, &dest_tail, &src, &src_tail)
		== CDS_WFCQ_RET_DEST_EMPTY, "splice into empty destination");
	tap_ok(cds_wfcq_empty(&src, &src_tail), "source empty after splice");
	fill(&src, &src_tail, it, 3, 6);
	tap_ok(__cds_wfcq_splice_nonblocking(&dest, &dest_tail, &src, &src_tail)
		== CDS_WFCQ_RET_DEST_NON_EMPTY, "non-blocking splice into non-empty destination");
	fill(&src, &src_tail, it, 6, 10);
	tap_ok(drain_in_order(&dest, &dest_tail, 0, 6), "destination holds 0..5 in order");
	tap_ok(drain_in_order(&src, &src_tail, 6, 10), "source reused after splice holds 6..9");
}

/*
 * An enqueuer preempted between its tail exchange and its link store leaves
 * the queue half-linked.  Build that state by hand and check that the
 * non-blocking operations refuse without changing anything.
 */
static void test_half_linked(void)
{
	struct __cds_wfcq_head head, dest;
	struct cds_wfcq_tail tail, dest_tail;
	struct item a, b, c;
	struct cds_wfcq_node *node;

	__cds_wfcq_init(&head, &tail);
	__cds_wfcq_init(&dest, &dest_tail);

	/* Only the tail moved: nothing is reachable from the head yet. */
	cds_wfcq_node_init(&a.node);
	tail.p = &a.node;
	tap_ok(!cds_wfcq_empty(&head, &tail), "half-linked first node: queue not empty");
	tap_ok(__cds_wfcq_first_nonblocking(&head, &tail) == CDS_WFCQ_WOULDBLOCK,
		"non-blocking first would block");
	tap_ok(__cds_wfcq_dequeue_nonblocking(&head, &tail) == CDS_WFCQ_WOULDBLOCK,
		"non-blocking dequeue would block on the head link");
	tap_ok(__cds_wfcq_splice_nonblocking(&dest, &dest_tail, &head, &tail)
		== CDS_WFCQ_RET_WOULDBLOCK, "non-blocking splice would block");
	head.node.next = &a.node;	/* the enqueuer's link store */

	/* a is linked; b's enqueuer moved the tail but did not link a->b. */
	cds_wfcq_node_init(&b.node);
	tail.p = &b.node;
	tap_ok(__cds_wfcq_next_nonblocking(&head, &tail, &a.node) == CDS_WFCQ_WOULDBLOCK,
		"non-blocking next would block");
	tap_ok(__cds_wfcq_dequeue_nonblocking(&head, &tail) == CDS_WFCQ_WOULDBLOCK,
		"non-blocking dequeue of a half-linked last node would block");
	tap_ok(head.node.next == &a.node && tail.p == &b.node, "queue unchanged after refusal");
	a.node.next = &b.node;
	cds_wfcq_node_init(&c.node);
	cds_wfcq_enqueue(&head, &tail, &c.node);
	node = __cds_wfcq_dequeue_nonblocking(&head, &tail);
	tap_ok(node == &a.node, "dequeue a once linked");
	tap_ok(__cds_wfcq_dequeue_blocking(&head, &tail) == &b.node
		&& __cds_wfcq_dequeue_blocking(&head, &tail) == &c.node
		&& cds_wfcq_empty(&head, &tail), "then b, c, empty");
}

static void test_locked(void)
{
	struct cds_wfcq_head head, dest;
	struct cds_wfcq_tail tail, dest_tail;
	struct item it[4];
	struct cds_wfcq_node *node;
	int state;

	cds_wfcq_init(&head, &tail);
	cds_wfcq_init(&dest, &dest_tail);
	for (int i = 0; i < 4; i++) {
		it[i].seq = i;
		cds_wfcq_node_init(&it[i].node);
		cds_wfcq_enqueue(&head, &tail, &it[i].node);
	}
	node = cds_wfcq_dequeue_blocking(&head, &tail);
	tap_ok(node == &it[0].node, "locked dequeue returns the first node");
	tap_ok(cds_wfcq_splice_blocking(&dest, &dest_tail, &head, &tail) == CDS_WFCQ_RET_DEST_EMPTY,
		"locked splice");
	cds_wfcq_dequeue_lock(&dest, &dest_tail);
	node = __cds_wfcq_first_blocking(&dest, &dest_tail);
	cds_wfcq_dequeue_unlock(&dest, &dest_tail);
	tap_ok(node == &it[1].node, "first under explicit lock");
	cds_wfcq_dequeue_blocking(&dest, &dest_tail);
	cds_wfcq_dequeue_blocking(&dest, &dest_tail);
	node = cds_wfcq_dequeue_with_state_blocking(&dest, &dest_tail, &state);
	tap_ok(node == &it[3].node && (state & CDS_WFCQ_STATE_LAST), "locked dequeue with state");
	cds_wfcq_destroy(&head, &tail);
	cds_wfcq_destroy(&dest, &dest_tail);
}

/* Stress: producers enqueue numbered items; one consumer checks them. */
#define NR_PRODUCERS	3
#define PER_PRODUCER	100000

static struct __cds_wfcq_head stress_head;
static struct cds_wfcq_tail stress_tail __attribute__((aligned(64)));
static int producers_done;

static void *producer(void *arg)
{
	struct item *items = arg;

	for (long i = 0; i < PER_PRODUCER; i++)
		cds_wfcq_enqueue(&stress_head, &stress_tail, &items[i].node);
	uatomic_add(&producers_done, 1);
	return NULL;
}

static void test_stress(void)
{
	pthread_t tid[NR_PRODUCERS];
	struct item *items[NR_PRODUCERS];
	long next_seq[NR_PRODUCERS] = { 0 };
	struct __cds_wfcq_head local;
	struct cds_wfcq_tail local_tail;
	struct cds_wfcq_node *node;
	long received = 0, splices = 0;
	bool in_order = true;
	int p;

	__cds_wfcq_init(&stress_head, &stress_tail);
	__cds_wfcq_init(&local, &local_tail);
	for (p = 0; p < NR_PRODUCERS; p++) {
		items[p] = calloc(PER_PRODUCER, sizeof(struct item));
		if (!items[p]) {
			tap_ok(0, "allocation");
			return;
		}
		for (long i = 0; i < PER_PRODUCER; i++) {
			items[p][i].producer = p;
			items[p][i].seq = i;
		}
		pthread_create(&tid[p], NULL, producer, items[p]);
	}
	for (;;) {
		bool done = uatomic_load(&producers_done, CMM_ACQUIRE) == NR_PRODUCERS;

		/* Alternate single dequeues and whole-queue splices. */
		if (received & 1) {
			if (__cds_wfcq_splice_blocking(&local, &local_tail,
					&stress_head, &stress_tail) != CDS_WFCQ_RET_SRC_EMPTY)
				splices++;
		} else {
			node = __cds_wfcq_dequeue_blocking(&stress_head, &stress_tail);
			if (node)
				cds_wfcq_enqueue(&local, &local_tail, node);
		}
		while ((node = __cds_wfcq_dequeue_blocking(&local, &local_tail)) != NULL) {
			struct item *it = to_item(node);

			if (it->seq != next_seq[it->producer])
				in_order = false;
			next_seq[it->producer] = it->seq + 1;
			received++;
		}
		if (done && cds_wfcq_empty(&stress_head, &stress_tail))
			break;
	}
	for (p = 0; p < NR_PRODUCERS; p++) {
		pthread_join(tid[p], NULL);
		free(items[p]);
	}
	tap_ok(received == (long) NR_PRODUCERS * PER_PRODUCER,
		"stress: received %ld of %ld nodes", received, (long) NR_PRODUCERS * PER_PRODUCER);
	tap_ok(in_order, "stress: per-producer FIFO order kept (%ld splices)", splices);
}

int main(void)
{
#ifdef _LGPL_SOURCE
	tap_diag("inline implementation (_LGPL_SOURCE)");
#else
	tap_diag("exported implementation");
#endif
	test_basic();
	test_splice();
	test_half_linked();
	test_locked();
	test_stress();
	return tap_done();
}
