// SPDX-License-Identifier: MIT
/*
 * Deprecated queue with wait-free enqueue and blocking dequeue: the
 * cds_wfq_* API of liburcu, kept so that old programs build.  New code uses
 * urcu/wfcqueue.h, which does the same with more operations (non-blocking
 * dequeue, splice, iteration).
 *
 * Every function is declared deprecated: a program that calls one gets a
 * compile-time deprecation warning, as with liburcu.  A program that must
 * build warning-free defines CDS_WFQ_DEPRECATED (empty) before including
 * this header.
 *
 * Enqueue needs no exclusion and is wait-free (one exchange, one store).
 * Dequeuers exclude each other: cds_wfq_dequeue_blocking() takes the queue's
 * mutex, __cds_wfq_dequeue_blocking() leaves that to the caller.  A dequeue
 * that meets an enqueue between its two steps waits for it (spinning, then
 * yielding, then sleeping a few microseconds at a time).
 *
 * Memory ordering: an enqueue is a full memory barrier before the node
 * becomes reachable; the dequeuer sees what the enqueuer wrote before it.
 */
#ifndef URCU_WFQUEUE_H
#define URCU_WFQUEUE_H

#include <assert.h>	/* as liburcu's wfqueue.h: programs use assert/static_assert */
#include <pthread.h>
#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CDS_WFQ_DEPRECATED
#define CDS_WFQ_DEPRECATED \
	CDS_DEPRECATED("urcu/wfqueue.h is deprecated; use urcu/wfcqueue.h")
#endif

/* Embed in the element to enqueue. */
struct cds_wfq_node {
	struct cds_wfq_node *next;
};

/*
 * head: the first node (possibly the dummy), touched by dequeuers only;
 * tail: the next field of the last node, where the next enqueue links.
 */
struct cds_wfq_queue {
	struct cds_wfq_node *head, **tail;
	struct cds_wfq_node dummy;
	pthread_mutex_t lock;
};

#ifdef __cplusplus
}
#endif

#ifdef _LGPL_SOURCE

#include <urcu/static/wfqueue.h>

/* The deprecated inline wrappers are at the end of the static header. */

#else /* !_LGPL_SOURCE */

#ifdef __cplusplus
extern "C" {
#endif

/* Set node->next to NULL.  Optional: enqueue does it. */
URCU_API CDS_WFQ_DEPRECATED
void cds_wfq_node_init(struct cds_wfq_node *node);

/* Initialize an empty queue and its mutex; undo with cds_wfq_destroy(). */
URCU_API CDS_WFQ_DEPRECATED
void cds_wfq_init(struct cds_wfq_queue *q);

/* Destroy the queue's mutex. */
URCU_API CDS_WFQ_DEPRECATED
void cds_wfq_destroy(struct cds_wfq_queue *q);

/*
 * Append node; no exclusion needed.  Full memory barrier before node becomes
 * reachable.  Wait-free.
 */
URCU_API CDS_WFQ_DEPRECATED
void cds_wfq_enqueue(struct cds_wfq_queue *q, struct cds_wfq_node *node);

/*
 * Remove and return the first node, or NULL if the queue is empty.  The
 * caller excludes other dequeuers.  Acquire ordering on the node taken.
 * Blocking: may wait for an enqueuer between its two steps.
 */
URCU_API CDS_WFQ_DEPRECATED
struct cds_wfq_node *__cds_wfq_dequeue_blocking(struct cds_wfq_queue *q);

/* The same under the queue's mutex. */
URCU_API CDS_WFQ_DEPRECATED
struct cds_wfq_node *cds_wfq_dequeue_blocking(struct cds_wfq_queue *q);

#ifdef __cplusplus
}
#endif

#endif /* !_LGPL_SOURCE */

#endif /* URCU_WFQUEUE_H */
