// SPDX-License-Identifier: MIT
/*
 * Inline implementation of the lock-free stack (urcu/lfstack.h): used by the
 * library always and by programs that define _LGPL_SOURCE.
 *
 * Representation.  s->head is the top node (as a struct cds_lfs_head *) or
 * NULL when the stack is empty; each node's next is the node below it, NULL
 * at the bottom.  Only push writes a node's next, and only while the node is
 * still private to the pusher; after that the field is read-only until the
 * node leaves the stack.
 *
 * Push (Treiber):
 *   (P1) old = a guess of s->head (NULL: no load; see the code)
 *   (P2) node->next = old                         (node still private)
 *   (P3) cmpxchg(&s->head, old, node)             full barrier; retry from P2
 *                                                 with the value seen if it
 *                                                 was not old
 * P3's success is the linearization point.  A failed P3 returns the actual
 * head; the first failure may just mean the guess was wrong, every later one
 * means another push or pop changed the head since the previous P3, so every
 * retry but one follows someone else's success: push is lock-free.  Push has no ABA problem: if the head went from old
 * to something else and back to old between P1 and P3, old is again the top
 * node and node->next == old is exactly what a push onto it must write.
 *
 * Pop:
 *   (Q1) top = s->head; if NULL: empty, done
 *   (Q2) next = top->next
 *   (Q3) cmpxchg(&s->head, top, next)             full barrier; retry from Q1
 * Q3's success is the linearization point.  Two hazards, and why the
 * disciplines of urcu/lfstack.h remove them:
 *   - Existence: between Q1 and Q2 another consumer may pop top and free it;
 *     Q2 then reads freed memory.  (1) RCU: the popper is inside a read-side
 *     critical section and top is freed only after a grace period, so it is
 *     still allocated at Q2.  (2)/(3): no other consumer runs.
 *   - ABA: between Q1 and Q3 top may be popped and pushed again with a
 *     different next; Q3 then succeeds and installs a stale next, losing or
 *     resurrecting nodes.  Pushes alone cannot cause it (a node pushed after
 *     Q1 lies above top, and top returns to the head only after it is popped
 *     again).  (1) RCU: a popped node is pushed again only after a grace
 *     period, which cannot end while this pop's critical section lasts.
 *     (2)/(3): top can be popped only by this thread.
 * Pop-all is one exchange of the head with NULL: nothing is read through a
 * node, so it has neither hazard itself; it counts as a consumer for the
 * pops that run concurrently.
 *
 * Ordering.  P3 is a full barrier: the node's contents and next are visible
 * before the node is reachable from the head.  Q1 loads the head with
 * acquire ordering (it pairs with P3), so Q2 and the caller's reads of the
 * node see what the pusher wrote; Q3 and the pop-all exchange are full
 * barriers, which orders the popper's later accesses to the node after its
 * removal.  The nodes a pop-all returns were all published by such a P3 and
 * are read after the exchange, so walking them needs no barrier.
 */
#ifndef URCU_STATIC_LFSTACK_H
#define URCU_STATIC_LFSTACK_H

#include <assert.h>	/* as liburcu's static/lfstack.h */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/assert.h>
#include <urcu/lfstack.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Cost: nothing; the field is written by push. */
static inline void _cds_lfs_node_init(struct cds_lfs_node *node)
{
	(void) node;
}

static inline void ___cds_lfs_init(struct __cds_lfs_stack *s)
{
	s->head = NULL;
}

static inline void _cds_lfs_init(struct cds_lfs_stack *s)
{
	int ret;

	s->head = NULL;
	ret = pthread_mutex_init(&s->lock, NULL);
	urcu_posix_assert(!ret);
	(void) ret;
}

static inline void _cds_lfs_destroy(struct cds_lfs_stack *s)
{
	int ret;

	ret = pthread_mutex_destroy(&s->lock);
	urcu_posix_assert(!ret);
	(void) ret;
}

/* Kept from liburcu's inline API: true if head (a pop_all result) is empty. */
static inline bool ___cds_lfs_empty_head(const struct cds_lfs_head *head)
{
	return head == NULL;
}

static inline bool _cds_lfs_empty(cds_lfs_stack_const_ptr_t s)
{
	/* Relaxed: the answer is a snapshot and orders nothing. */
	return uatomic_load(&s._s->head, CMM_RELAXED) == NULL;
}

static inline bool _cds_lfs_push(cds_lfs_stack_ptr_t u_s, struct cds_lfs_node *node)
{
	struct __cds_lfs_stack *s = u_s._s;
	struct cds_lfs_head *head = (struct cds_lfs_head *) node;
	struct cds_lfs_head *old, *seen;

	/*
	 * P1: guess that the stack is empty instead of loading the head.  If
	 * the guess is wrong, P3 fails and returns the real head: the cache
	 * line is fetched once, for writing, rather than read and then
	 * upgraded -- one coherence transaction less on a contended stack.
	 */
	old = NULL;
	for (;;) {
		/* P2: node is private until P3 succeeds. */
		node->next = old ? &old->node : NULL;
		/*
		 * P3.  Full barrier: node->next and the caller's writes to the
		 * element are visible before the node is reachable; pairs with
		 * the acquire load of the head in pop (Q1) and with the
		 * pop-all exchange.
		 */
		seen = uatomic_cmpxchg(&s->head, old, head);
		if (seen == old)
			return old != NULL;
		old = seen;
	}
}

static inline struct cds_lfs_node *___cds_lfs_pop(cds_lfs_stack_ptr_t u_s)
{
	struct __cds_lfs_stack *s = u_s._s;
	struct cds_lfs_head *top, *next;

	for (;;) {
		/* Q1.  Acquire: pairs with P3, so top's fields are visible. */
		top = uatomic_load(&s->head, CMM_ACQUIRE);
		if (top == NULL)
			return NULL;
		/* Q2.  top cannot be freed or re-pushed here (discipline). */
		next = (struct cds_lfs_head *) CMM_LOAD_SHARED(top->node.next);
		/*
		 * Q3.  Full barrier: the caller's later writes to the node (or
		 * its reuse) are ordered after its removal, and pairs with P3
		 * of concurrent pushers like Q1.
		 */
		if (uatomic_cmpxchg(&s->head, top, next) == top)
			return &top->node;
	}
}

static inline struct cds_lfs_head *___cds_lfs_pop_all(cds_lfs_stack_ptr_t u_s)
{
	/*
	 * Full barrier: pairs with P3 of every push of the nodes taken, so
	 * the caller may walk them with plain loads.
	 */
	return uatomic_xchg(&u_s._s->head, (struct cds_lfs_head *) NULL);
}

static inline void _cds_lfs_pop_lock(struct cds_lfs_stack *s)
{
	int ret;

	ret = pthread_mutex_lock(&s->lock);
	urcu_posix_assert(!ret);
	(void) ret;
}

static inline void _cds_lfs_pop_unlock(struct cds_lfs_stack *s)
{
	int ret;

	ret = pthread_mutex_unlock(&s->lock);
	urcu_posix_assert(!ret);
	(void) ret;
}

/* The union for a locked stack (the C++ cast overloads come later). */
static inline cds_lfs_stack_ptr_t cds_lfs_i_locked(struct cds_lfs_stack *s)
{
	cds_lfs_stack_ptr_t u;

	u.s = s;
	return u;
}

static inline struct cds_lfs_node *_cds_lfs_pop_blocking(struct cds_lfs_stack *s)
{
	struct cds_lfs_node *node;

	_cds_lfs_pop_lock(s);
	node = ___cds_lfs_pop(cds_lfs_i_locked(s));
	_cds_lfs_pop_unlock(s);
	return node;
}

static inline struct cds_lfs_head *_cds_lfs_pop_all_blocking(struct cds_lfs_stack *s)
{
	struct cds_lfs_head *head;

	_cds_lfs_pop_lock(s);
	head = ___cds_lfs_pop_all(cds_lfs_i_locked(s));
	_cds_lfs_pop_unlock(s);
	return head;
}

#ifdef __cplusplus
}
#endif

#endif /* URCU_STATIC_LFSTACK_H */
