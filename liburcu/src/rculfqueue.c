// SPDX-License-Identifier: MIT
/*
 * Exported (non-inline) versions of the RCU lock-free queue
 * (urcu/rculfqueue.h), for programs built without _LGPL_SOURCE.  Part of
 * liburcu-cds; flavor-independent: the flavor comes in through the call_rcu
 * function given to cds_lfq_init_rcu() and the callers' read-side critical
 * sections.
 *
 * Proof sketch (in full in urcu/static/rculfqueue.h): Michael and Scott's
 * queue.  Enqueue links the node after the last one with a compare-and-swap
 * on its next pointer (the linearization point), then swings the tail;
 * dequeue swings the head past the first node with a compare-and-swap (the
 * linearization point), first appending a dummy when that node is the last
 * one.  Every failed compare-and-swap follows another operation's success:
 * lock-free.  RCU supplies what the original's tagged pointers and free lists
 * did: nodes read during an operation stay allocated (existence) and are not
 * enqueued again (no ABA) until the operation's read-side critical section
 * has ended, because nodes, user nodes and dummies alike, are reused or
 * freed only after a grace period.
 *
 * Each function has the ordering contract and progress guarantee documented
 * in urcu/rculfqueue.h.
 */
/* The exported definitions below must not be renamed to the inline ones. */
#undef _LGPL_SOURCE
#include <urcu/rculfqueue.h>
#include <urcu/static/rculfqueue.h>

void cds_lfq_node_init_rcu(struct cds_lfq_node_rcu *node)
{
	_cds_lfq_node_init_rcu(node);
}

void cds_lfq_init_rcu(struct cds_lfq_queue_rcu *q,
		void queue_call_rcu(struct rcu_head *head,
				void (*func)(struct rcu_head *head)))
{
	_cds_lfq_init_rcu(q, queue_call_rcu);
}

int cds_lfq_destroy_rcu(struct cds_lfq_queue_rcu *q)
{
	return _cds_lfq_destroy_rcu(q);
}

void cds_lfq_enqueue_rcu(struct cds_lfq_queue_rcu *q, struct cds_lfq_node_rcu *node)
{
	_cds_lfq_enqueue_rcu(q, node);
}

struct cds_lfq_node_rcu *cds_lfq_dequeue_rcu(struct cds_lfq_queue_rcu *q)
{
	return _cds_lfq_dequeue_rcu(q);
}
