// SPDX-License-Identifier: MIT
/*
 * Inline implementation of the deprecated wait-free queue (urcu/wfqueue.h).
 *
 * Representation.  A singly linked list from q->head; q->tail is the address
 * of the next field of the last node (where the next enqueue links).  The
 * queue always holds at least one node: when the dequeuer would take the
 * last one, it first enqueues q->dummy behind it, and it skips the dummy
 * when it reaches the head.  Empty: the dummy is the only node.
 *
 * Enqueue of node (any thread):
 *   (W1) node->next = NULL                        (node still private)
 *   (W2) prev = xchg(&q->tail, &node->next)       full barrier
 *   (W3) *prev = node                             release
 * W2 is the linearization point; no step waits: wait-free.  Between W2 and
 * W3 the node is in the queue but not reachable from the head.
 *
 * Dequeue (one dequeuer at a time; the head is private to it):
 *   node = q->head, next = node->next.  If next is NULL, either node is
 *   last (q->tail == &node->next) or an enqueuer is between W2 and W3 after
 *   it.  Last and node is the dummy: empty.  Last and node is a user node:
 *   enqueue the dummy (it cannot be in the queue: it would follow node) and
 *   then, as in the other case, wait for node->next.  Then q->head = next;
 *   return node unless it is the dummy, which is skipped (and may be
 *   enqueued again at once: only the dequeuer, which now holds no pointer to
 *   it, ever reads the dummy's next).
 *
 * Ordering: W2 publishes the node's contents; the dequeuer's acquire load of
 * next pairs with W3's release, which follows W2.
 */
#ifndef URCU_STATIC_WFQUEUE_H
#define URCU_STATIC_WFQUEUE_H

#include <assert.h>
#include <poll.h>		/* as liburcu's static/wfqueue.h (its waits poll()) */
#include <pthread.h>
#include <stddef.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/assert.h>
#include <urcu/wfqueue.h>
#include <urcu/static/wfstack.h>	/* cds_wfs_i_backoff() */

#ifdef __cplusplus
extern "C" {
#endif

static inline void _cds_wfq_node_init(struct cds_wfq_node *node)
{
	node->next = NULL;
}

static inline void _cds_wfq_init(struct cds_wfq_queue *q)
{
	int ret;

	q->dummy.next = NULL;
	q->head = &q->dummy;
	q->tail = &q->dummy.next;
	ret = pthread_mutex_init(&q->lock, NULL);
	urcu_posix_assert(!ret);
	(void) ret;
}

static inline void _cds_wfq_destroy(struct cds_wfq_queue *q)
{
	int ret;

	ret = pthread_mutex_destroy(&q->lock);
	urcu_posix_assert(!ret);
	(void) ret;
}

static inline void _cds_wfq_enqueue(struct cds_wfq_queue *q, struct cds_wfq_node *node)
{
	struct cds_wfq_node **prev;

	/* W1: node is private until W2. */
	node->next = NULL;
	/*
	 * W2.  Full barrier: W1 and the element's contents are visible
	 * before the node can be reached (through W3's link).
	 */
	prev = uatomic_xchg(&q->tail, &node->next);
	/* W3.  Release: pairs with the dequeuer's acquire load of next. */
	uatomic_store(prev, node, CMM_RELEASE);
}

/* Wait for an enqueuer's W3 on node->next, out of the fast path. */
static __attribute__((noinline, unused))
struct cds_wfq_node *cds_wfq_i_wait_next_slow(struct cds_wfq_node *node)
{
	struct cds_wfq_node *next;
	unsigned int attempt = 0;

	/* Acquire: pairs with W3 (which follows W2's publication). */
	while ((next = uatomic_load(&node->next, CMM_ACQUIRE)) == NULL)
		cds_wfs_i_backoff(&attempt);
	return next;
}

static inline struct cds_wfq_node *___cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	struct cds_wfq_node *node, *next;

	for (;;) {
		node = q->head;
		/* Acquire: pairs with W3 (which follows W2's publication). */
		next = uatomic_load(&node->next, CMM_ACQUIRE);
		if (next == NULL) {
			/* Relaxed: only says whether some enqueue passed W2 after node. */
			if (uatomic_load(&q->tail, CMM_RELAXED) == &node->next) {
				if (node == &q->dummy)
					return NULL;
				_cds_wfq_enqueue(q, &q->dummy);
			}
			next = cds_wfq_i_wait_next_slow(node);
		}
		q->head = next;
		if (node != &q->dummy)
			return node;
	}
}

static inline struct cds_wfq_node *_cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	struct cds_wfq_node *node;
	int ret;

	ret = pthread_mutex_lock(&q->lock);
	urcu_posix_assert(!ret);
	node = ___cds_wfq_dequeue_blocking(q);
	ret = pthread_mutex_unlock(&q->lock);
	urcu_posix_assert(!ret);
	(void) ret;
	return node;
}

/*
 * The public names under _LGPL_SOURCE: deprecated inline wrappers, here
 * rather than in the public header so that including this header first
 * works too.
 */
#ifdef _LGPL_SOURCE

static inline CDS_WFQ_DEPRECATED
void cds_wfq_node_init(struct cds_wfq_node *node)
{
	_cds_wfq_node_init(node);
}

static inline CDS_WFQ_DEPRECATED
void cds_wfq_init(struct cds_wfq_queue *q)
{
	_cds_wfq_init(q);
}

static inline CDS_WFQ_DEPRECATED
void cds_wfq_destroy(struct cds_wfq_queue *q)
{
	_cds_wfq_destroy(q);
}

static inline CDS_WFQ_DEPRECATED
void cds_wfq_enqueue(struct cds_wfq_queue *q, struct cds_wfq_node *node)
{
	_cds_wfq_enqueue(q, node);
}

static inline CDS_WFQ_DEPRECATED
struct cds_wfq_node *__cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	return ___cds_wfq_dequeue_blocking(q);
}

static inline CDS_WFQ_DEPRECATED
struct cds_wfq_node *cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	return _cds_wfq_dequeue_blocking(q);
}

#endif /* _LGPL_SOURCE */

#ifdef __cplusplus
}
#endif

#endif /* URCU_STATIC_WFQUEUE_H */
