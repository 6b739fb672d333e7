// SPDX-License-Identifier: MIT
/*
 * Lock-free FIFO queue protected by RCU (Michael and Scott's queue): the
 * cds_lfq_*_rcu API of liburcu.
 *
 * Any number of threads may enqueue and dequeue at the same time, with no
 * lock, provided that:
 *   - every cds_lfq_enqueue_rcu() and cds_lfq_dequeue_rcu() call runs inside
 *     a read-side critical section of the RCU flavor whose call_rcu was given
 *     to cds_lfq_init_rcu() (qsbr: an online thread; bp needs no
 *     registration);
 *   - a dequeued node is freed, or enqueued again, only after a grace period
 *     of that flavor (call_rcu, synchronize_rcu).  The rest of the element
 *     may be read or overwritten at once, but the struct cds_lfq_node_rcu
 *     must stay untouched until then (q->tail may still point to it).
 * Both rules exist for the same reason: a concurrent operation may still
 * hold a pointer to a node it read before the node left the queue.
 *
 * The queue always holds at least one node.  When the last real node is
 * dequeued, a dummy node takes its place; dummies are allocated with
 * malloc() and, once dequeued, freed through the call_rcu function given to
 * cds_lfq_init_rcu().  A new queue starts with a dummy embedded in the
 * queue itself, so cds_lfq_init_rcu() allocates nothing it needs.
 *
 * Progress: enqueue and dequeue are lock-free (a retry happens only when
 * another operation made progress).  Dequeue allocates a dummy when it takes
 * the last real node; if malloc() fails it falls back to a dummy reserved at
 * init, and only if that reserve is already spent does it return NULL with
 * errno set to ENOMEM, leaving the queue unchanged.
 *
 * Ordering: an enqueue is a full memory barrier before the node becomes
 * reachable; whoever dequeues it sees everything the enqueuer wrote before.
 * FIFO: two enqueues ordered by happens-before (in particular, two enqueues by
 * one thread) are dequeued in that order.
 */
#ifndef URCU_RCULFQUEUE_H
#define URCU_RCULFQUEUE_H

#include <assert.h>	/* as liburcu's rculfqueue.h: programs use assert/static_assert */
#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rcu_head;

/*
 * Embed in the element to enqueue.  dummy is 0 for user nodes (set by
 * cds_lfq_node_init_rcu() and by enqueue), 1 for the queue's own dummies.
 */
struct cds_lfq_node_rcu {
	struct cds_lfq_node_rcu *next;
	int dummy;
};

/*
 * The queue.  head, tail and queue_call_rcu are liburcu's fields; the two
 * after them are ours (private): a reserve dummy for out-of-memory, and the
 * dummy a new queue starts with.
 */
struct cds_lfq_queue_rcu {
	struct cds_lfq_node_rcu *head, *tail;
	void (*queue_call_rcu)(struct rcu_head *head,
		void (*func)(struct rcu_head *head));
	struct cds_lfq_node_rcu *spare_dummy;
	struct cds_lfq_node_rcu init_dummy;
};

#ifdef __cplusplus
}
#endif

#ifdef _LGPL_SOURCE

#include <urcu/static/rculfqueue.h>

#define cds_lfq_node_init_rcu		_cds_lfq_node_init_rcu
#define cds_lfq_init_rcu		_cds_lfq_init_rcu
#define cds_lfq_destroy_rcu		_cds_lfq_destroy_rcu
#define cds_lfq_enqueue_rcu		_cds_lfq_enqueue_rcu
#define cds_lfq_dequeue_rcu		_cds_lfq_dequeue_rcu

#else /* !_LGPL_SOURCE */

#ifdef __cplusplus
extern "C" {
#endif

/* Set node->next to NULL and node->dummy to 0.  Optional: enqueue does it. */
URCU_API void cds_lfq_node_init_rcu(struct cds_lfq_node_rcu *node);

/*
 * Initialize an empty queue whose dummies are reclaimed with queue_call_rcu
 * (normally the call_rcu of the flavor the queue's users read under).
 * Cannot fail: the first dummy is embedded in q; a reserve dummy is
 * allocated if memory allows.
 */
URCU_API void cds_lfq_init_rcu(struct cds_lfq_queue_rcu *q,
		void queue_call_rcu(struct rcu_head *head,
				void (*func)(struct rcu_head *head)));

/*
 * Release what the queue allocated.  Returns 0, or -EPERM (and changes
 * nothing) if the queue still holds a node.  No operation may be running on
 * q or start on it; dummies already handed to call_rcu are freed by their
 * callbacks, which do not touch q, so q may be freed at once.
 */
URCU_API int cds_lfq_destroy_rcu(struct cds_lfq_queue_rcu *q);

/*
 * Append node.  Call inside a read-side critical section.  Full memory
 * barrier before node becomes reachable.  Lock-free.
 */
URCU_API void cds_lfq_enqueue_rcu(struct cds_lfq_queue_rcu *q,
		struct cds_lfq_node_rcu *node);

/*
 * Remove and return the first node, or NULL if the queue is empty (or, with
 * errno == ENOMEM, if no dummy could be allocated to take the place of the
 * last node; the queue is then unchanged).  Call inside a read-side critical
 * section; free or re-enqueue the node only after a grace period.  Full
 * memory barrier when a node is returned.  Lock-free.
 */
URCU_API struct cds_lfq_node_rcu *cds_lfq_dequeue_rcu(struct cds_lfq_queue_rcu *q);

#ifdef __cplusplus
}
#endif

#endif /* !_LGPL_SOURCE */

#endif /* URCU_RCULFQUEUE_H */
