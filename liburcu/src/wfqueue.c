// SPDX-License-Identifier: MIT
/*
 * Exported versions of the deprecated wait-free queue (urcu/wfqueue.h), for
 * programs built without _LGPL_SOURCE.  Part of liburcu-common, as in liburcu.
 *
 * Proof sketch (in full in urcu/static/wfqueue.h): enqueue exchanges the
 * queue's tail link with its own node's link (the linearization point), then
 * stores its node into the previous link: wait-free.  The single dequeuer
 * keeps one node in the list at all times, putting the queue's dummy node
 * behind a last user node before taking it, and waits for an enqueuer that
 * has exchanged the tail but not linked yet.
 */
/* The exported definitions below must not be renamed to the inline ones. */
#undef _LGPL_SOURCE
/* Defining the deprecated functions is not using them. */
#define CDS_WFQ_DEPRECATED
#include <urcu/wfqueue.h>
#include <urcu/static/wfqueue.h>

void cds_wfq_node_init(struct cds_wfq_node *node)
{
	_cds_wfq_node_init(node);
}

void cds_wfq_init(struct cds_wfq_queue *q)
{
	_cds_wfq_init(q);
}

void cds_wfq_destroy(struct cds_wfq_queue *q)
{
	_cds_wfq_destroy(q);
}

void cds_wfq_enqueue(struct cds_wfq_queue *q, struct cds_wfq_node *node)
{
	_cds_wfq_enqueue(q, node);
}

struct cds_wfq_node *__cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	return ___cds_wfq_dequeue_blocking(q);
}

struct cds_wfq_node *cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	return _cds_wfq_dequeue_blocking(q);
}
