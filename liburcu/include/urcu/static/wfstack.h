// SPDX-License-Identifier: MIT
/*
 * Inline implementation of the stack with wait-free push (urcu/wfstack.h):
 * used by the library always and by programs that define _LGPL_SOURCE.
 *
 * Representation.  s->head is the top node, or CDS_WFS_END when the stack is
 * empty.  A node's next is the node below it (CDS_WFS_END at the bottom), or
 * NULL while its pusher has not linked it yet.
 *
 * Push of node:
 *   (W1) node->next = NULL                        (node still private)
 *   (W2) old = xchg(&s->head, node)               full barrier
 *   (W3) node->next = old                         release
 * W2 is the linearization point: from then on node is the top, and old (the
 * previous top) is below it.  No step waits or retries: wait-free.  The
 * return value (old != CDS_WFS_END) says whether the stack was non-empty.
 *
 * Pop (exclusion among consumers by one of the three disciplines):
 *   (R1) top = s->head; CDS_WFS_END: empty, done
 *   (R2) next = top->next, waiting while it is NULL (top's pusher is between
 *        W2 and W3; the _nonblocking forms return CDS_WFS_WOULDBLOCK instead)
 *   (R3) cmpxchg(&s->head, top, next)             full barrier
 * R3's success is the linearization point.  If it fails, pushes (or, under
 * the RCU discipline, another pop) moved the head: retry from R1 (blocking)
 * or give up with CDS_WFS_WOULDBLOCK (non-blocking).  The existence and ABA
 * arguments are the lock-free stack's (urcu/static/lfstack.h): R2 reads a
 * node that no other consumer can free, and top cannot come back to the head
 * with another next before R3, because only a consumer can remove it and
 * under each discipline none can (or not without a grace period, which this
 * pop's critical section holds back).  A pusher's W3 writes the next of its
 * own node only, never the head, so it cannot interfere with R3.
 *
 * Pop-all: head = xchg(&s->head, CDS_WFS_END).  Nodes of the result whose
 * pushers are still between W2 and W3 get linked later in place;
 * cds_wfs_next_blocking() waits for them like R2.
 *
 * Counting: the head leaves CDS_WFS_END only at a W2 that returns
 * CDS_WFS_END (a push that returns 0) and comes back to it only at an R3 whose
 * next is CDS_WFS_END (a pop that reports CDS_WFS_STATE_LAST) or at a pop-all
 * that returns non-NULL.  So once the stack is quiet, pushes that returned 0
 * equal last pops plus non-empty pop-alls.
 *
 * Ordering.  W2's full barrier publishes the element's contents and W1
 * before the node is reachable; R1 loads the head with acquire ordering
 * (pairs with W2).  R2 loads next with acquire ordering and pairs with W3's
 * release: W3 follows the pusher's W2, which read old's publication, so a
 * consumer that reaches old through node->next sees old's contents too.
 * R3 and the pop-all exchange are full barriers.
 *
 * Waiting (R2 and the blocking next).  The window between W2 and W3 is a
 * few instructions, so first spin; a pusher still not done was preempted,
 * so yield (it may be waiting for this CPU), then sleep 1 us, 2 us, ...
 * capped at 50 us.  Once the pusher runs again, the waiter notices within
 * one sleep (plus the kernel's timer slack) -- tens of microseconds, where
 * liburcu sleeps 10 ms.  No push pays anything for this (no wake-up call).
 */
#ifndef URCU_STATIC_WFSTACK_H
#define URCU_STATIC_WFSTACK_H

#include <assert.h>
#include <limits.h>
#include <poll.h>		/* as liburcu's static/wfstack.h (its waits poll()) */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/assert.h>
#include <urcu/wfstack.h>

#ifndef __cplusplus
/* <time.h> declares nanosleep() only with POSIX names: not under -std=c99. */
int nanosleep(const struct timespec *, struct timespec *);
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The empty stack's head and the bottom node's next. */
#define CDS_WFS_END			((struct cds_wfs_head *) 0x1UL)

/*
 * liburcu's waiting constants (spin 10 times, then sleep 10 ms), with
 * liburcu's values, for programs that name them; the back-off below, much
 * shorter, does not use them.
 */
#define CDS_WFS_ADAPT_ATTEMPTS		10
#define CDS_WFS_WAIT			10

/* Back-off of a consumer waiting for a pusher (see "Waiting" above). */
#define CDS_WFS_I_SPIN_ATTEMPTS		128
#define CDS_WFS_I_YIELD_ATTEMPTS	8
#define CDS_WFS_I_SLEEP_MIN_NS		1000L
#define CDS_WFS_I_SLEEP_MAX_NS		50000L

/*
 * One step of waiting; *attempt counts the steps (start at 0).  Also used by
 * the deprecated wfqueue.  Cost: one pause instruction for the first 128
 * steps.
 */
static inline void cds_wfs_i_backoff(unsigned int *attempt)
{
	unsigned int a = *attempt;

	if (a < UINT_MAX)
		*attempt = a + 1;
	if (a < CDS_WFS_I_SPIN_ATTEMPTS) {
		caa_cpu_relax();
	} else if (a < CDS_WFS_I_SPIN_ATTEMPTS + CDS_WFS_I_YIELD_ATTEMPTS) {
		(void) sched_yield();
	} else {
		unsigned int doublings = a - CDS_WFS_I_SPIN_ATTEMPTS - CDS_WFS_I_YIELD_ATTEMPTS;
		long ns = CDS_WFS_I_SLEEP_MAX_NS;
		struct timespec ts;

		if (doublings < 6)
			ns = caa_min(CDS_WFS_I_SLEEP_MIN_NS << doublings, CDS_WFS_I_SLEEP_MAX_NS);
		ts.tv_sec = 0;
		ts.tv_nsec = ns;
		(void) nanosleep(&ts, NULL);
	}
}

static inline bool cds_wfs_i_end(const void *p)
{
	return p == (const void *) CDS_WFS_END;
}

static inline void _cds_wfs_node_init(struct cds_wfs_node *node)
{
	node->next = NULL;
}

static inline void ___cds_wfs_init(struct __cds_wfs_stack *s)
{
	s->head = CDS_WFS_END;
}

static inline void _cds_wfs_init(struct cds_wfs_stack *s)
{
	int ret;

	s->head = CDS_WFS_END;
	ret = pthread_mutex_init(&s->lock, NULL);
	urcu_posix_assert(!ret);
	(void) ret;
}

static inline void _cds_wfs_destroy(struct cds_wfs_stack *s)
{
	int ret;

	ret = pthread_mutex_destroy(&s->lock);
	urcu_posix_assert(!ret);
	(void) ret;
}

static inline bool _cds_wfs_empty(cds_wfs_stack_const_ptr_t u_stack)
{
	/* Relaxed: a snapshot that orders nothing. */
	return cds_wfs_i_end(uatomic_load(&u_stack._s->head, CMM_RELAXED));
}

static inline int _cds_wfs_push(cds_wfs_stack_ptr_t u_stack, struct cds_wfs_node *node)
{
	struct __cds_wfs_stack *s = u_stack._s;
	struct cds_wfs_head *old;

	/*
	 * W1: node is private until W2.  A node prepared with
	 * cds_wfs_node_init(), as liburcu requires, already has a NULL next:
	 * only store when it does not, which keeps a store out of the
	 * exchange's way in the usual case and still makes a node pushed
	 * again without init safe (a stale next would let a pop skip the wait
	 * for W3).
	 */
	if (node->next != NULL)
		node->next = NULL;
	/*
	 * W2.  Full barrier: W1 and the element's contents are visible before
	 * node is reachable; pairs with the acquire load of the head in pop
	 * (R1) and with the pop-all exchange.
	 */
	old = uatomic_xchg(&s->head, (struct cds_wfs_head *) node);
	/*
	 * W3.  Release: pairs with the acquire loads of next in R2 and in
	 * cds_wfs_i_wait_next(), so that whoever follows the link also sees
	 * old's contents (published to us by old's W2, read by our W2).
	 */
	uatomic_store(&node->next, (struct cds_wfs_node *) old, CMM_RELEASE);
	return !cds_wfs_i_end(old);
}

/*
 * The wait of R2, out of line: keeping the back-off's calls and registers
 * out of the pops' fast path.  (unused: not every includer pops.)
 */
static __attribute__((noinline, unused))
struct cds_wfs_node *cds_wfs_i_wait_next_slow(struct cds_wfs_node *node)
{
	struct cds_wfs_node *next;
	unsigned int attempt = 0;

	/* Acquire: pairs with the pusher's release store W3. */
	while ((next = uatomic_load(&node->next, CMM_ACQUIRE)) == NULL)
		cds_wfs_i_backoff(&attempt);
	return next;
}

/*
 * R2: node's next once linked; CDS_WFS_WOULDBLOCK if !blocking and not yet.
 * Cost when linked (the usual case): one load.
 */
static inline struct cds_wfs_node *cds_wfs_i_wait_next(struct cds_wfs_node *node,
		bool blocking)
{
	/* Acquire: pairs with the pusher's release store W3. */
	struct cds_wfs_node *next = uatomic_load(&node->next, CMM_ACQUIRE);

	if (caa_likely(next != NULL))
		return next;
	if (!blocking)
		return CDS_WFS_WOULDBLOCK;
	return cds_wfs_i_wait_next_slow(node);
}

static inline struct cds_wfs_node *cds_wfs_i_pop(cds_wfs_stack_ptr_t u_stack, int *state,
		bool blocking)
{
	struct __cds_wfs_stack *s = u_stack._s;
	struct cds_wfs_head *top;
	struct cds_wfs_node *next;

	if (state)
		*state = 0;
	for (;;) {
		/* R1.  Acquire: pairs with W2, top's contents are visible. */
		top = uatomic_load(&s->head, CMM_ACQUIRE);
		if (cds_wfs_i_end(top))
			return NULL;
		/* R2. */
		next = cds_wfs_i_wait_next(&top->node, blocking);
		if (!blocking && next == CDS_WFS_WOULDBLOCK)
			return CDS_WFS_WOULDBLOCK;
		/*
		 * R3.  Full barrier: the caller's later accesses to the node are
		 * ordered after its removal; pairs with W2 like R1.
		 */
		if (uatomic_cmpxchg(&s->head, top, (struct cds_wfs_head *) next) == top) {
			if (state && cds_wfs_i_end(next))
				*state |= CDS_WFS_STATE_LAST;
			return &top->node;
		}
		if (!blocking)
			return CDS_WFS_WOULDBLOCK;
	}
}

static inline struct cds_wfs_node *___cds_wfs_pop_with_state_blocking(
		cds_wfs_stack_ptr_t u_stack, int *state)
{
	return cds_wfs_i_pop(u_stack, state, true);
}

static inline struct cds_wfs_node *___cds_wfs_pop_blocking(cds_wfs_stack_ptr_t u_stack)
{
	return cds_wfs_i_pop(u_stack, NULL, true);
}

static inline struct cds_wfs_node *___cds_wfs_pop_with_state_nonblocking(
		cds_wfs_stack_ptr_t u_stack, int *state)
{
	return cds_wfs_i_pop(u_stack, state, false);
}

static inline struct cds_wfs_node *___cds_wfs_pop_nonblocking(cds_wfs_stack_ptr_t u_stack)
{
	return cds_wfs_i_pop(u_stack, NULL, false);
}

static inline struct cds_wfs_head *___cds_wfs_pop_all(cds_wfs_stack_ptr_t u_stack)
{
	struct cds_wfs_head *head;

	/*
	 * Full barrier: pairs with W2 of every node taken, so their contents
	 * are visible to the walk that follows.
	 */
	head = uatomic_xchg(&u_stack._s->head, CDS_WFS_END);
	if (cds_wfs_i_end(head))
		return NULL;
	return head;
}

static inline struct cds_wfs_node *_cds_wfs_first(struct cds_wfs_head *head)
{
	if (head == NULL || cds_wfs_i_end(head))
		return NULL;
	return &head->node;
}

static inline struct cds_wfs_node *cds_wfs_i_next(struct cds_wfs_node *node, bool blocking)
{
	struct cds_wfs_node *next;

	next = cds_wfs_i_wait_next(node, blocking);
	if (cds_wfs_i_end(next))
		return NULL;
	return next;
}

static inline struct cds_wfs_node *_cds_wfs_next_blocking(struct cds_wfs_node *node)
{
	return cds_wfs_i_next(node, true);
}

static inline struct cds_wfs_node *_cds_wfs_next_nonblocking(struct cds_wfs_node *node)
{
	return cds_wfs_i_next(node, false);
}

static inline void _cds_wfs_pop_lock(struct cds_wfs_stack *s)
{
	int ret;

	ret = pthread_mutex_lock(&s->lock);
	urcu_posix_assert(!ret);
	(void) ret;
}

static inline void _cds_wfs_pop_unlock(struct cds_wfs_stack *s)
{
	int ret;

	ret = pthread_mutex_unlock(&s->lock);
	urcu_posix_assert(!ret);
	(void) ret;
}

/* The union for a locked stack (the C++ cast overloads come later). */
static inline cds_wfs_stack_ptr_t cds_wfs_i_locked(struct cds_wfs_stack *s)
{
	cds_wfs_stack_ptr_t u;

	u.s = s;
	return u;
}

static inline struct cds_wfs_node *_cds_wfs_pop_with_state_blocking(struct cds_wfs_stack *s,
		int *state)
{
	struct cds_wfs_node *node;

	_cds_wfs_pop_lock(s);
	node = cds_wfs_i_pop(cds_wfs_i_locked(s), state, true);
	_cds_wfs_pop_unlock(s);
	return node;
}

static inline struct cds_wfs_node *_cds_wfs_pop_blocking(struct cds_wfs_stack *s)
{
	return _cds_wfs_pop_with_state_blocking(s, NULL);
}

static inline struct cds_wfs_head *_cds_wfs_pop_all_blocking(struct cds_wfs_stack *s)
{
	struct cds_wfs_head *head;

	_cds_wfs_pop_lock(s);
	head = ___cds_wfs_pop_all(cds_wfs_i_locked(s));
	_cds_wfs_pop_unlock(s);
	return head;
}

#ifdef __cplusplus
}
#endif

#endif /* URCU_STATIC_WFSTACK_H */
