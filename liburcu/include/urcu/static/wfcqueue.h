// SPDX-License-Identifier: MIT
/*
 * Inline implementation of the wait-free concurrent queue (urcu/wfcqueue.h).
 * Used by the library always and by users that define _LGPL_SOURCE, under
 * liburcu's names (_cds_wfcq_*, ___cds_wfcq_*: at the end of this file).
 *
 * Representation.  The head holds a dummy node; head->node.next is the first
 * real node (NULL when none is linked from the head) and tail->p the last
 * node (&head->node when the queue is empty).  Every node's next is NULL
 * until its successor is linked.
 *
 * Enqueue of a chain first..last (one node: first == last):
 *   (E1) last->next = NULL                       (private, not yet reachable)
 *   (E2) prev = xchg(&tail->p, last)             full barrier
 *   (E3) prev->next = first
 * E2 is the linearization point: the chain is in the queue from then on, even
 * though it is reachable from the head only after E3.  Between E2 and E3 the
 * queue is "being linked": prev->next is NULL while tail->p != prev.  A
 * dequeuer that finds a NULL next pointer on a node that is not the tail knows
 * an enqueuer sits between E2 and E3 and must wait for E3 (blocking) or give
 * up (non-blocking).  No enqueuer ever waits: enqueue is wait-free.
 *
 * Ordering.  E2 is a full barrier, so the node's contents written before the
 * enqueue are visible to anyone who reaches the node through E3's store; the
 * dequeuer loads next pointers with acquire ordering (pairs with E2's
 * barrier followed by E3).  The empty test reads head->node.next and tail->p
 * without barriers: the queue is empty iff both say so.
 *
 * Dequeue of the first node n (single dequeuer, see the exclusion table):
 *   if n->next != NULL: head->node.next = n->next, done.
 *   else n may be the last node.  Set head->node.next = NULL, then try
 *   cmpxchg(&tail->p, n, &head->node).  Success: the queue is empty and the
 *   next enqueue's E3 writes head->node.next (the NULL store is ordered before
 *   it by the cmpxchg's full barrier, so it cannot overwrite that E3).
 *   Failure: an enqueuer already did E2 with prev == n; wait for its E3 on
 *   n->next and move head->node.next to it.  No enqueuer writes
 *   head->node.next in that case because the tail was never &head->node.
 *
 * Splice src into dest (several splicers of one src may run at once, as in
 * liburcu's table; dequeue and iteration of src still exclude them):
 *   (S1) first = xchg(&src head->node.next, NULL)     full barrier
 *   (S2) last = xchg(&src_tail->p, &src_head->node)   full barrier
 *   (S3) append first..last to dest with E2/E3.
 * S1 claims the chain: of the splicers that run S1 between two links of
 * the head, exactly one reads it non-NULL (the exchange is atomic), and it
 * alone goes on to S2; the others read NULL.  A splicer that reads NULL
 * looks at the tail: if it is the dummy node, src is empty (SRC_EMPTY);
 * otherwise either an enqueuer sits between E2 and E3 of the first node,
 * or another splicer sits between S1 and S2, and it waits (blocking) or
 * returns WOULDBLOCK (having changed nothing: it exchanged NULL for NULL).
 * Between S1 and S2 the head link is NULL and no enqueuer writes it: an
 * enqueuer writes it (E3) only after an E2 that returned the dummy node,
 * i.e. after an S2 or a dequeue made src empty.  S2 comes after S1 (full
 * barrier), so the enqueuer whose E2 follows S2 writes a head link that
 * no stale S1 can erase (same argument as for dequeue).  Links inside the
 * chain that concurrent src enqueuers have not finished yet are completed
 * later in place; dest's dequeuer waits for them like for any other E3.
 */
#ifndef URCU_STATIC_WFCQUEUE_H
#define URCU_STATIC_WFCQUEUE_H

#include <assert.h>
#include <poll.h>		/* as liburcu's static/wfcqueue.h (its waits poll()) */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <time.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/assert.h>
#include <urcu/wfcqueue.h>

#ifndef __cplusplus
/* <time.h> declares nanosleep() only with POSIX names: not under -std=c99. */
int nanosleep(const struct timespec *, struct timespec *);
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Waiting for an enqueuer between E2 and E3: that window is two instructions
 * long, so spin first; if the enqueuer was preempted, yield the CPU to it,
 * and after many yields sleep briefly so that a descheduled enqueuer on a
 * busy machine does not cost a whole CPU.
 *
 * CDS_WFCQ_WAIT_SLEEP(msec), liburcu's hook: a program that defines it
 * before including this header (directly, or through <urcu/wfcqueue.h>
 * with _LGPL_SOURCE; without _LGPL_SOURCE the library's own code runs, as
 * in liburcu) has it called in place of each sleep, with liburcu's 10 ms, to
 * log, run background work or wait its own way; ___cds_wfcq_wait_sleep(msec)
 * is the default it may chain to.  Left undefined, the header defines it as
 * that default, and the sleep step stays this header's 100 us.
 */
#define CDS_WFCQ_I_SPIN_ATTEMPTS	256
#define CDS_WFCQ_I_YIELD_ATTEMPTS	64
#define CDS_WFCQ_I_SLEEP_NS		100000L
#define CDS_WFCQ_I_HOOK_MSEC		10

#ifdef CDS_WFCQ_WAIT_SLEEP
#define CDS_WFCQ_I_USER_SLEEP	1
#else
#define CDS_WFCQ_WAIT_SLEEP(msec)	___cds_wfcq_wait_sleep(msec)
#endif

/* Sleep msec ms, as liburcu's poll(NULL, 0, msec); a signal may end it. */
static inline void ___cds_wfcq_wait_sleep(int msec)
{
	struct timespec ts;

	ts.tv_sec = msec / 1000;
	ts.tv_nsec = (long) (msec % 1000) * 1000000L;
	(void) nanosleep(&ts, NULL);
}

static inline void cds_wfcq_i_backoff(unsigned int *attempt)
{
	unsigned int a = (*attempt)++;

	if (a < CDS_WFCQ_I_SPIN_ATTEMPTS) {
		caa_cpu_relax();
	} else if (a < CDS_WFCQ_I_SPIN_ATTEMPTS + CDS_WFCQ_I_YIELD_ATTEMPTS) {
		(void) sched_yield();
	} else {
#ifdef CDS_WFCQ_I_USER_SLEEP
		CDS_WFCQ_WAIT_SLEEP(CDS_WFCQ_I_HOOK_MSEC);
#else
		struct timespec ts = { 0, CDS_WFCQ_I_SLEEP_NS };

		(void) nanosleep(&ts, NULL);
#endif
	}
}

static inline void cds_wfcq_i_node_init(struct cds_wfcq_node *node)
{
	node->next = NULL;
}

static inline void cds_wfcq_i_init_nolock(struct __cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	head->node.next = NULL;
	tail->p = &head->node;
}

static inline void cds_wfcq_i_init(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	int ret;

	head->node.next = NULL;
	tail->p = &head->node;
	ret = pthread_mutex_init(&head->lock, NULL);
	urcu_posix_assert(!ret);
	(void) ret;
}

static inline void cds_wfcq_i_destroy(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	int ret;

	(void) tail;
	ret = pthread_mutex_destroy(&head->lock);
	urcu_posix_assert(!ret);
	(void) ret;
}

/* Empty test on the head's dummy node (the two head types share it). */
static inline bool cds_wfcq_i_empty_node(const struct cds_wfcq_node *hnode,
		const struct cds_wfcq_tail *tail)
{
	/*
	 * Both loads are needed: between E2 and E3 of the first enqueue the
	 * head's next is still NULL but the tail has moved.
	 */
	return CMM_LOAD_SHARED(hnode->next) == NULL
		&& CMM_LOAD_SHARED(tail->p) == hnode;
}

static inline bool cds_wfcq_i_empty(cds_wfcq_head_const_ptr_t head,
		const struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_empty_node(&head._h->node, tail);
}

static inline void cds_wfcq_i_dequeue_lock(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	int ret;

	(void) tail;
	ret = pthread_mutex_lock(&head->lock);
	urcu_posix_assert(!ret);
	(void) ret;
}

static inline void cds_wfcq_i_dequeue_unlock(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	int ret;

	(void) tail;
	ret = pthread_mutex_unlock(&head->lock);
	urcu_posix_assert(!ret);
	(void) ret;
}

/* E2 + E3 for the chain first..last, whose last->next is already NULL. */
static inline bool cds_wfcq_i_append(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *first, struct cds_wfcq_node *last)
{
	struct cds_wfcq_node *prev;

	/*
	 * E2.  uatomic_xchg is a full barrier: the chain's contents (and
	 * last->next == NULL) are ordered before E3 makes them reachable, which
	 * pairs with the acquire loads of next in cds_wfcq_i_wait_next() and
	 * cds_wfcq_i_next().  Callers such as call_rcu also rely on the barrier
	 * after it (a store to the queue, then a load of a "worker sleeps" flag).
	 */
	prev = uatomic_xchg(&tail->p, last);
	/* E3.  Ordered after E2 by the barrier above. */
	CMM_STORE_SHARED(prev->next, first);
	return prev != &head._h->node;
}

static inline bool cds_wfcq_i_enqueue(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	node->next = NULL;	/* E1 */
	return cds_wfcq_i_append(head, tail, node, node);
}

/*
 * Wait until node->next is linked (E3 of the enqueuer that followed node).
 * Non-blocking: return CDS_WFCQ_WOULDBLOCK instead of waiting.
 */
static inline struct cds_wfcq_node *cds_wfcq_i_wait_next(struct cds_wfcq_node *node,
		bool blocking)
{
	struct cds_wfcq_node *next;
	unsigned int attempt = 0;

	/* Acquire: pairs with the enqueuer's full barrier at E2 before E3. */
	while ((next = uatomic_load(&node->next, CMM_ACQUIRE)) == NULL) {
		if (!blocking)
			return CDS_WFCQ_WOULDBLOCK;
		cds_wfcq_i_backoff(&attempt);
	}
	return next;
}

static inline struct cds_wfcq_node *cds_wfcq_i_first(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, bool blocking)
{
	if (cds_wfcq_i_empty_node(&head._h->node, tail))
		return NULL;
	/* Not empty: the first node is linked from the head or about to be. */
	return cds_wfcq_i_wait_next(&head._h->node, blocking);
}

static inline struct cds_wfcq_node *cds_wfcq_i_next(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, struct cds_wfcq_node *node, bool blocking)
{
	struct cds_wfcq_node *next;

	(void) head;
	/* Acquire: pairs with the enqueuer's full barrier at E2 before E3. */
	next = uatomic_load(&node->next, CMM_ACQUIRE);
	if (next != NULL)
		return next;
	/*
	 * node is the last node unless an enqueuer moved the tail past it; in
	 * that case its E3 will fill node->next.  If the tail is read before
	 * the next pointer, "last" is still the truth at the time of that read.
	 */
	if (CMM_LOAD_SHARED(tail->p) == node)
		return NULL;
	return cds_wfcq_i_wait_next(node, blocking);
}

static inline struct cds_wfcq_node *cds_wfcq_i_dequeue_with_state(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail, int *state,
		bool blocking)
{
	struct cds_wfcq_node *node, *next;

	if (state)
		*state = 0;
	if (cds_wfcq_i_empty_node(&head._h->node, tail))
		return NULL;
	node = cds_wfcq_i_wait_next(&head._h->node, blocking);
	if (node == CDS_WFCQ_WOULDBLOCK)
		return node;
	/* Acquire: pairs with the enqueuer's full barrier at E2 before E3. */
	next = uatomic_load(&node->next, CMM_ACQUIRE);
	if (next == NULL) {
		/* node looks last: detach it from the head, then the tail. */
		CMM_STORE_SHARED(head._h->node.next, NULL);
		/*
		 * Full barrier: the NULL store above is visible before the tail
		 * says "empty", so it cannot overwrite the head link (E3) of the
		 * next enqueuer, which does E2 after seeing this tail.
		 */
		if (uatomic_cmpxchg(&tail->p, node, &head._h->node) == node) {
			if (state)
				*state |= CDS_WFCQ_STATE_LAST;
			return node;
		}
		/* An enqueuer did E2 after node; wait for its E3. */
		next = cds_wfcq_i_wait_next(node, blocking);
		if (next == CDS_WFCQ_WOULDBLOCK) {
			/* Undo: the tail is not the head, so nobody else writes it. */
			CMM_STORE_SHARED(head._h->node.next, node);
			return CDS_WFCQ_WOULDBLOCK;
		}
	}
	CMM_STORE_SHARED(head._h->node.next, next);
	return node;
}

static inline struct cds_wfcq_node *cds_wfcq_i_dequeue_with_state_blocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail, int *state)
{
	return cds_wfcq_i_dequeue_with_state(head, tail, state, true);
}

static inline struct cds_wfcq_node *cds_wfcq_i_dequeue_blocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_dequeue_with_state(head, tail, NULL, true);
}

static inline struct cds_wfcq_node *cds_wfcq_i_dequeue_with_state_nonblocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail, int *state)
{
	return cds_wfcq_i_dequeue_with_state(head, tail, state, false);
}

static inline struct cds_wfcq_node *cds_wfcq_i_dequeue_nonblocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_dequeue_with_state(head, tail, NULL, false);
}

static inline enum cds_wfcq_ret cds_wfcq_i_splice(
		cds_wfcq_head_ptr_t dest_head, struct cds_wfcq_tail *dest_tail,
		cds_wfcq_head_ptr_t src_head, struct cds_wfcq_tail *src_tail,
		bool blocking)
{
	struct cds_wfcq_node *first, *last;
	unsigned int attempt = 0;

	/* Splicing a queue into itself would lose every node. */
	urcu_assert(dest_head._h != src_head._h);
	/* Cheap test first: an empty src costs two loads, no write. */
	if (cds_wfcq_i_empty_node(&src_head._h->node, src_tail))
		return CDS_WFCQ_RET_SRC_EMPTY;
	for (;;) {
		/*
		 * S1 (see the top of the file).  Full barrier (xchg): claims
		 * the chain against other splicers, and its acquire side pairs
		 * with the enqueuer's full barrier at E2 before E3 (the chain's
		 * contents are seen).
		 */
		first = uatomic_xchg(&src_head._h->node.next, (struct cds_wfcq_node *) NULL);
		if (first)
			break;
		if (CMM_LOAD_SHARED(src_tail->p) == &src_head._h->node)
			return CDS_WFCQ_RET_SRC_EMPTY;
		/* A link (E3) or another splicer's S2 is coming. */
		if (!blocking)
			return CDS_WFCQ_RET_WOULDBLOCK;
		cds_wfcq_i_backoff(&attempt);
	}
	/*
	 * S2.  Full barrier: S1's NULL is visible before src looks empty to
	 * enqueuers (same pairing as in cds_wfcq_i_dequeue_with_state), and
	 * the chain's contents are ordered before the append below publishes
	 * them in dest.
	 */
	last = uatomic_xchg(&src_tail->p, &src_head._h->node);
	if (cds_wfcq_i_append(dest_head, dest_tail, first, last))
		return CDS_WFCQ_RET_DEST_NON_EMPTY;
	return CDS_WFCQ_RET_DEST_EMPTY;
}

static inline enum cds_wfcq_ret cds_wfcq_i_splice_blocking(
		cds_wfcq_head_ptr_t dest_head, struct cds_wfcq_tail *dest_tail,
		cds_wfcq_head_ptr_t src_head, struct cds_wfcq_tail *src_tail)
{
	return cds_wfcq_i_splice(dest_head, dest_tail, src_head, src_tail, true);
}

static inline enum cds_wfcq_ret cds_wfcq_i_splice_nonblocking(
		cds_wfcq_head_ptr_t dest_head, struct cds_wfcq_tail *dest_tail,
		cds_wfcq_head_ptr_t src_head, struct cds_wfcq_tail *src_tail)
{
	return cds_wfcq_i_splice(dest_head, dest_tail, src_head, src_tail, false);
}

static inline struct cds_wfcq_node *cds_wfcq_i_first_blocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_first(head, tail, true);
}

static inline struct cds_wfcq_node *cds_wfcq_i_first_nonblocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_first(head, tail, false);
}

static inline struct cds_wfcq_node *cds_wfcq_i_next_blocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node)
{
	return cds_wfcq_i_next(head, tail, node, true);
}

static inline struct cds_wfcq_node *cds_wfcq_i_next_nonblocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node)
{
	return cds_wfcq_i_next(head, tail, node, false);
}

/* The locking forms: exclusion among dequeuers through the head's mutex. */
static inline struct cds_wfcq_node *cds_wfcq_i_dequeue_with_state_blocking_locked(
		struct cds_wfcq_head *head, struct cds_wfcq_tail *tail, int *state)
{
	struct cds_wfcq_node *node;

	cds_wfcq_i_dequeue_lock(head, tail);
	node = cds_wfcq_i_dequeue_with_state(cds_wfcq_head_cast(head), tail, state, true);
	cds_wfcq_i_dequeue_unlock(head, tail);
	return node;
}

static inline struct cds_wfcq_node *cds_wfcq_i_dequeue_blocking_locked(
		struct cds_wfcq_head *head, struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_dequeue_with_state_blocking_locked(head, tail, NULL);
}

static inline enum cds_wfcq_ret cds_wfcq_i_splice_blocking_locked(
		struct cds_wfcq_head *dest_head, struct cds_wfcq_tail *dest_tail,
		struct cds_wfcq_head *src_head, struct cds_wfcq_tail *src_tail)
{
	enum cds_wfcq_ret ret;

	/* Only the source is dequeued from; the destination gets an enqueue. */
	cds_wfcq_i_dequeue_lock(src_head, src_tail);
	ret = cds_wfcq_i_splice(cds_wfcq_head_cast(dest_head), dest_tail,
			cds_wfcq_head_cast(src_head), src_tail, true);
	cds_wfcq_i_dequeue_unlock(src_head, src_tail);
	return ret;
}

/*
 * liburcu's spellings of the inline versions.  With _LGPL_SOURCE,
 * urcu/wfcqueue.h maps every public name onto one of these, adding one
 * underscore (cds_wfcq_enqueue -> _cds_wfcq_enqueue, __cds_wfcq_init ->
 * ___cds_wfcq_init), and programs written for liburcu may call them by
 * name.  Each behaves exactly as the public function it stands for, whose
 * comment in urcu/wfcqueue.h gives the details:
 *
 *   - ordering: an enqueue, and the append half of a splice, is a full memory
 *     barrier; dequeue, first and next read each next pointer with acquire
 *     ordering (pairs with the enqueuer's barrier), so the caller sees what
 *     the enqueuer wrote to the node; empty orders nothing; the lock and
 *     unlock functions have the mutex's acquire and release;
 *   - exclusion: as the table in urcu/wfcqueue.h says; the one-underscore
 *     dequeue and splice forms take the head's mutex themselves, the
 *     three-underscore ones need the caller's exclusion;
 *   - progress: node_init, the inits, destroy, empty and enqueue are
 *     wait-free; the _nonblocking forms never wait (they return
 *     CDS_WFCQ_WOULDBLOCK or CDS_WFCQ_RET_WOULDBLOCK and leave the queue as
 *     it was); the _blocking forms wait for an enqueuer preempted between its
 *     exchange and its store, so they are blocking, and so are the mutex
 *     forms.
 */
static inline void _cds_wfcq_node_init(struct cds_wfcq_node *node)
{
	cds_wfcq_i_node_init(node);
}

/*
 * liburcu 0.15: the same as one relaxed atomic store, for a node that
 * other threads may be reading (a head being reset).  Wait-free.
 */
static inline void _cds_wfcq_node_init_atomic(struct cds_wfcq_node *node)
{
	uatomic_store(&node->next, NULL, CMM_RELAXED);
}

static inline void _cds_wfcq_init(struct cds_wfcq_head *head, struct cds_wfcq_tail *tail)
{
	cds_wfcq_i_init(head, tail);
}

static inline void _cds_wfcq_destroy(struct cds_wfcq_head *head, struct cds_wfcq_tail *tail)
{
	cds_wfcq_i_destroy(head, tail);
}

static inline void ___cds_wfcq_init(struct __cds_wfcq_head *head, struct cds_wfcq_tail *tail)
{
	cds_wfcq_i_init_nolock(head, tail);
}

static inline bool _cds_wfcq_empty(cds_wfcq_head_const_ptr_t head,
		const struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_empty(head, tail);
}

static inline void _cds_wfcq_dequeue_lock(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	cds_wfcq_i_dequeue_lock(head, tail);
}

static inline void _cds_wfcq_dequeue_unlock(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	cds_wfcq_i_dequeue_unlock(head, tail);
}

static inline bool _cds_wfcq_enqueue(cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node)
{
	return cds_wfcq_i_enqueue(head, tail, node);
}

static inline struct cds_wfcq_node *_cds_wfcq_dequeue_blocking(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_dequeue_blocking_locked(head, tail);
}

static inline struct cds_wfcq_node *_cds_wfcq_dequeue_with_state_blocking(
		struct cds_wfcq_head *head, struct cds_wfcq_tail *tail, int *state)
{
	return cds_wfcq_i_dequeue_with_state_blocking_locked(head, tail, state);
}

static inline enum cds_wfcq_ret _cds_wfcq_splice_blocking(
		struct cds_wfcq_head *dest_q_head, struct cds_wfcq_tail *dest_q_tail,
		struct cds_wfcq_head *src_q_head, struct cds_wfcq_tail *src_q_tail)
{
	return cds_wfcq_i_splice_blocking_locked(dest_q_head, dest_q_tail,
			src_q_head, src_q_tail);
}

static inline struct cds_wfcq_node *___cds_wfcq_dequeue_blocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_dequeue_blocking(head, tail);
}

static inline struct cds_wfcq_node *___cds_wfcq_dequeue_with_state_blocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail, int *state)
{
	return cds_wfcq_i_dequeue_with_state_blocking(head, tail, state);
}

static inline struct cds_wfcq_node *___cds_wfcq_dequeue_nonblocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_dequeue_nonblocking(head, tail);
}

static inline struct cds_wfcq_node *___cds_wfcq_dequeue_with_state_nonblocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail, int *state)
{
	return cds_wfcq_i_dequeue_with_state_nonblocking(head, tail, state);
}

static inline enum cds_wfcq_ret ___cds_wfcq_splice_blocking(
		cds_wfcq_head_ptr_t dest_q_head, struct cds_wfcq_tail *dest_q_tail,
		cds_wfcq_head_ptr_t src_q_head, struct cds_wfcq_tail *src_q_tail)
{
	return cds_wfcq_i_splice_blocking(dest_q_head, dest_q_tail, src_q_head, src_q_tail);
}

static inline enum cds_wfcq_ret ___cds_wfcq_splice_nonblocking(
		cds_wfcq_head_ptr_t dest_q_head, struct cds_wfcq_tail *dest_q_tail,
		cds_wfcq_head_ptr_t src_q_head, struct cds_wfcq_tail *src_q_tail)
{
	return cds_wfcq_i_splice_nonblocking(dest_q_head, dest_q_tail, src_q_head, src_q_tail);
}

static inline struct cds_wfcq_node *___cds_wfcq_first_blocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_first_blocking(head, tail);
}

static inline struct cds_wfcq_node *___cds_wfcq_first_nonblocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_first_nonblocking(head, tail);
}

static inline struct cds_wfcq_node *___cds_wfcq_next_blocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return cds_wfcq_i_next_blocking(head, tail, node);
}

static inline struct cds_wfcq_node *___cds_wfcq_next_nonblocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return cds_wfcq_i_next_nonblocking(head, tail, node);
}

#ifdef __cplusplus
}
#endif

#endif /* URCU_STATIC_WFCQUEUE_H */
