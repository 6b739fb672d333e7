// SPDX-License-Identifier: MIT
/*
 * Inline implementation of the RCU lock-free queue (urcu/rculfqueue.h): used
 * by the library always and by programs that define _LGPL_SOURCE.  It needs
 * struct rcu_head (urcu/call-rcu.h) and rcu_dereference (urcu/pointer.h),
 * both flavor-independent; the flavor comes in through q->queue_call_rcu and
 * the caller's read-side critical sections.
 *
 * Representation (Michael and Scott, PODC 1996, with the dequeued node being
 * the old head rather than its successor).  A singly linked list from
 * q->head to the last node, whose next is NULL; q->tail is the last node or
 * lags behind it by some nodes.  The list is never empty: its first node is
 * either the next user node to dequeue or a dummy.  A node's next goes from
 * NULL to non-NULL once while the node is in the queue, and nothing else
 * changes in a node until it has been out of the queue for a grace period.
 *
 * Enqueue of node (inside a read-side critical section):
 *   (E1) t = q->tail
 *   (E2) cmpxchg(&t->next, NULL, node)            full barrier
 *        success: (E3) cmpxchg(&q->tail, t, node), done
 *        failure (t was not last): help, cmpxchg(&q->tail, t, t->next), retry
 * E2's success is the linearization point; a failed E2 means another enqueue
 * succeeded at its E2, so enqueue is lock-free.
 *
 * Dequeue (inside a read-side critical section):
 *   (D1) h = q->head; n = h->next
 *   (D2) n == NULL and h is a dummy: empty, return NULL (linearized at D1's
 *        read of n)
 *   (D3) n == NULL and h is a user node: h is the last node, and removing it
 *        would leave no node; enqueue a dummy first, then reread n (now
 *        non-NULL: our dummy, or whatever was enqueued after h meanwhile)
 *   (D4) cmpxchg(&q->head, h, n)                  full barrier; retry if it
 *        fails (another dequeue took h)
 *   (D5) h a dummy: hand it to call_rcu, retry; else return h
 * D4's success is the linearization point.
 *
 * Why RCU makes this safe.  Existence: D1 and E1 read a node that may leave
 * the queue at once; it is freed only after a grace period, which waits for
 * the caller's read-side critical section, so the reads of h->next, t->next
 * and the compare-and-swaps on them touch live memory.  ABA: D4 could
 * succeed wrongly only if h left the head and came back, which needs h to be
 * enqueued again; E2 and E3 likewise need t to be re-enqueued with a NULL
 * next.  A node is enqueued again only after a grace period (the user's
 * rule; dummies are never recycled), so neither can happen within one
 * critical section.  Tail lag: D4 moves the head past h only when h->next is
 * non-NULL, so some enqueue linked after h and will move q->tail past h at
 * its E3 (or a helper will) before its critical section ends; hence q->tail
 * no longer points to h once a grace period has passed since D4, and the
 * user may free h.
 *
 * FIFO: enqueues are linearized by E2 on a single list and dequeues take
 * nodes from its head in list order, so two enqueues ordered by
 * happens-before come out in that order.
 *
 * Dummies.  A new queue starts with q->init_dummy, embedded in q: once
 * dequeued it is simply left behind (never reused, never freed).  Every other
 * dummy is malloc()ed at D3 and handed to q->queue_call_rcu once dequeued;
 * its callback only calls free(), so it may run after q itself is gone.  If
 * malloc() fails at D3, the reserve q->spare_dummy (allocated at init, and
 * replenished by the next D3 whose malloc() succeeds) is used; if the reserve
 * is spent too, and nothing was enqueued after h meanwhile, dequeue returns
 * NULL with errno = ENOMEM and the queue unchanged.
 *
 * Ordering.  E2 is a full barrier: the element's contents and node->next ==
 * NULL are visible before the node is reachable.  Every pointer followed
 * (q->head, q->tail, next) is read with rcu_dereference(), which pairs with
 * E2 (and with the release of E3 and of the tail helps).  D4 is a full
 * barrier: the caller's later accesses to the dequeued node come after its
 * removal.
 */
#ifndef URCU_STATIC_RCULFQUEUE_H
#define URCU_STATIC_RCULFQUEUE_H

#include <assert.h>	/* as liburcu's static/rculfqueue.h */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/pointer.h>
#include <urcu/call-rcu.h>
#include <urcu/rculfqueue.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A dummy the queue allocates: the node, and its rcu_head for call_rcu. */
struct cds_lfq_i_dummy {
	struct cds_lfq_node_rcu node;
	struct rcu_head rcu;
};

static inline struct cds_lfq_i_dummy *cds_lfq_i_dummy_of(struct cds_lfq_node_rcu *node)
{
	return caa_container_of(node, struct cds_lfq_i_dummy, node);
}

/* call_rcu callback of a dequeued dummy.  Must not touch the queue. */
static inline void cds_lfq_i_free_dummy(struct rcu_head *head)
{
	free(caa_container_of(head, struct cds_lfq_i_dummy, rcu));
}

static inline struct cds_lfq_node_rcu *cds_lfq_i_alloc_dummy(void)
{
	struct cds_lfq_i_dummy *d = (struct cds_lfq_i_dummy *) malloc(sizeof(*d));

	if (d == NULL)
		return NULL;
	d->node.next = NULL;
	d->node.dummy = 1;
	return &d->node;
}

/*
 * A dummy for D3: a fresh one, or the reserve if malloc() fails; NULL if
 * both are gone.  A successful allocation also refills a spent reserve.
 */
static inline struct cds_lfq_node_rcu *cds_lfq_i_get_dummy(struct cds_lfq_queue_rcu *q)
{
	struct cds_lfq_node_rcu *d, *reserve;

	d = cds_lfq_i_alloc_dummy();
	if (caa_unlikely(d == NULL)) {
		/*
		 * Full barrier (xchg): pairs with the cmpxchg that published
		 * the reserve, whose fields are then visible.
		 */
		return uatomic_xchg(&q->spare_dummy, (struct cds_lfq_node_rcu *) NULL);
	}
	/* Relaxed: only a hint; the cmpxchg below decides. */
	if (caa_unlikely(uatomic_load(&q->spare_dummy, CMM_RELAXED) == NULL)) {
		reserve = cds_lfq_i_alloc_dummy();
		/* Full barrier: publishes the reserve's fields (pairs above). */
		if (reserve != NULL
				&& uatomic_cmpxchg(&q->spare_dummy,
					(struct cds_lfq_node_rcu *) NULL, reserve) != NULL)
			free(cds_lfq_i_dummy_of(reserve));
	}
	return d;
}

static inline void _cds_lfq_node_init_rcu(struct cds_lfq_node_rcu *node)
{
	node->next = NULL;
	node->dummy = 0;
}

static inline void _cds_lfq_init_rcu(struct cds_lfq_queue_rcu *q,
		void queue_call_rcu(struct rcu_head *head,
				void (*func)(struct rcu_head *head)))
{
	q->init_dummy.next = NULL;
	q->init_dummy.dummy = 1;
	q->head = &q->init_dummy;
	q->tail = &q->init_dummy;
	q->queue_call_rcu = queue_call_rcu;
	/* NULL if out of memory: the queue works, without a reserve. */
	q->spare_dummy = cds_lfq_i_alloc_dummy();
}

static inline int _cds_lfq_destroy_rcu(struct cds_lfq_queue_rcu *q)
{
	struct cds_lfq_node_rcu *node, *next;

	/* No concurrent operation (precondition): plain loads suffice. */
	for (node = q->head; node != NULL; node = node->next) {
		if (!node->dummy)
			return -EPERM;
	}
	/*
	 * Only dummies left: free them now.  No operation runs or will run
	 * on q, so no reader can still reach them.
	 */
	for (node = q->head; node != NULL; node = next) {
		next = node->next;
		if (node != &q->init_dummy)
			free(cds_lfq_i_dummy_of(node));
	}
	if (q->spare_dummy != NULL)
		free(cds_lfq_i_dummy_of(q->spare_dummy));
	q->head = NULL;
	q->tail = NULL;
	q->spare_dummy = NULL;
	return 0;
}

/* E1-E3 for node, whose next is NULL and dummy set. */
static inline void cds_lfq_i_append(struct cds_lfq_queue_rcu *q,
		struct cds_lfq_node_rcu *node)
{
	struct cds_lfq_node_rcu *tail, *next;

	for (;;) {
		/* E1.  Consume/acquire: pairs with E2 and the tail updates. */
		tail = rcu_dereference(q->tail);
		/*
		 * E2.  Full barrier: node's fields and the element's contents
		 * are visible before node is reachable; pairs with the
		 * rcu_dereference() of next in dequeue (D1) and in E1's helpers.
		 */
		next = uatomic_cmpxchg(&tail->next, (struct cds_lfq_node_rcu *) NULL, node);
		if (next == NULL) {
			/*
			 * E3.  Release: whoever reads node from q->tail sees
			 * its fields (node was published by E2 anyway).  May
			 * fail if a helper moved the tail already.
			 */
			(void) uatomic_cmpxchg_mo(&q->tail, tail, node, CMM_RELEASE, CMM_RELAXED);
			return;
		}
		/*
		 * Help the enqueue that linked next finish its E3.  Release,
		 * as E3 (next was read from tail->next, which E2 published).
		 */
		(void) uatomic_cmpxchg_mo(&q->tail, tail, next, CMM_RELEASE, CMM_RELAXED);
	}
}

static inline void _cds_lfq_enqueue_rcu(struct cds_lfq_queue_rcu *q,
		struct cds_lfq_node_rcu *node)
{
	/* node is private until E2 (and any earlier use ended a grace period ago). */
	node->next = NULL;
	node->dummy = 0;
	cds_lfq_i_append(q, node);
}

static inline struct cds_lfq_node_rcu *_cds_lfq_dequeue_rcu(struct cds_lfq_queue_rcu *q)
{
	struct cds_lfq_node_rcu *head, *next, *dummy;

	for (;;) {
		/* D1.  Consume/acquire: pairs with E2 (and D4's full barrier). */
		head = rcu_dereference(q->head);
		next = rcu_dereference(head->next);
		if (next == NULL) {
			/* D2. */
			if (head->dummy)
				return NULL;
			/* D3: head is the last node; a dummy takes its place. */
			dummy = cds_lfq_i_get_dummy(q);
			if (dummy != NULL)
				cds_lfq_i_append(q, dummy);
			next = rcu_dereference(head->next);
			if (caa_unlikely(next == NULL)) {
				/* No dummy, and nothing was enqueued after head. */
				errno = ENOMEM;
				return NULL;
			}
		}
		/*
		 * D4.  Full barrier: the caller's later accesses to head come
		 * after its removal; the dequeued node's contents were made
		 * visible by D1 (pairs with its E2).
		 */
		if (uatomic_cmpxchg(&q->head, head, next) != head)
			continue;
		/* D5. */
		if (!head->dummy)
			return head;
		if (head != &q->init_dummy)
			q->queue_call_rcu(&cds_lfq_i_dummy_of(head)->rcu, cds_lfq_i_free_dummy);
	}
}

#ifdef __cplusplus
}
#endif

#endif /* URCU_STATIC_RCULFQUEUE_H */
