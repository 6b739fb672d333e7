// SPDX-License-Identifier: MIT
/*
 * Concurrent queue with wait-free enqueue and blocking (or non-blocking)
 * dequeue: the cds_wfcq_* API of liburcu.
 *
 * Any number of threads may enqueue at once; each enqueue is one atomic
 * exchange and one store, whatever the other threads do.  Any number may
 * splice from the same source at once.  Dequeue needs mutual exclusion with
 * dequeue, splice and iteration of the same queue (see the table below); a
 * dequeuer may have to wait for an enqueuer that was preempted between its
 * exchange and its store ("blocking"), or may be told to retry later
 * ("non-blocking": CDS_WFCQ_WOULDBLOCK / CDS_WFCQ_RET_WOULDBLOCK).
 *
 * Two head types: struct cds_wfcq_head carries a mutex used by the
 * cds_wfcq_*_blocking() functions; struct __cds_wfcq_head has none and is
 * used with the __cds_wfcq_*() functions under the caller's own exclusion.
 * Functions that accept either take a cds_wfcq_head_ptr_t (a transparent
 * union in C; in C++ wrap the pointer with cds_wfcq_head_cast() or
 * __cds_wfcq_head_cast()).
 *
 * Reserved names.  The type struct __cds_wfcq_head, the functions
 * __cds_wfcq_*() and the macros __cds_wfcq_for_each_blocking*() begin with two
 * underscores, which ISO C reserves.  They are liburcu's documented public
 * API (the lock-free head and the caller-synchronized operations), so this
 * header provides them unchanged for source compatibility; everything new in
 * this project uses unreserved names.
 *
 * Exclusion table: "X" means the two operations on the same queue need
 * external mutual exclusion, "-" means they may run concurrently.
 *
 *                              enqueue  splice(dest)  dequeue  splice(src)  first/next
 *   enqueue                       -         -            -          -           -
 *   splice (as destination)       -         -            -          -           -
 *   dequeue                       -         -            X          X           X
 *   splice (as source)            -         -            X          -           X
 *   first/next (iteration)        -         -            X          X           -
 *
 * (liburcu's table, as of 0.13-0.15.)  Two splices from one source each take
 * a separate part of it, possibly nothing; together they take every node
 * enqueued before the first of them started.
 *
 * The cds_wfcq_*_blocking() functions (no leading underscores) take the
 * head's mutex themselves; cds_wfcq_dequeue_lock()/unlock() take it for a
 * sequence of __cds_wfcq_*() calls.
 *
 * Memory ordering: an enqueue is a full memory barrier (before and after the
 * node becomes reachable).  A dequeuer sees everything the enqueuer wrote to
 * the node before enqueueing it; nothing more is promised.
 */
#ifndef URCU_WFCQUEUE_H
#define URCU_WFCQUEUE_H

#include <assert.h>	/* as liburcu's wfcqueue.h: programs use assert/static_assert */
#include <pthread.h>
#include <stdbool.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returned by the non-blocking dequeue/first/next instead of waiting. */
#define CDS_WFCQ_WOULDBLOCK	((struct cds_wfcq_node *) -1UL)

enum cds_wfcq_ret {
	CDS_WFCQ_RET_WOULDBLOCK =	-1,	/* non-blocking splice must retry */
	CDS_WFCQ_RET_DEST_EMPTY =	0,	/* spliced into an empty dest */
	CDS_WFCQ_RET_DEST_NON_EMPTY =	1,	/* spliced into a non-empty dest */
	CDS_WFCQ_RET_SRC_EMPTY =	2,	/* nothing to splice */
};

enum cds_wfcq_state {
	CDS_WFCQ_STATE_LAST =		(1U << 0),	/* dequeued the last node */
};

struct cds_wfcq_node {
	struct cds_wfcq_node *next;
};

/*
 * Keep a head and its tail on different cache lines when enqueuers and the
 * dequeuer run on different CPUs: enqueuers write the tail, the dequeuer
 * the head.
 */
struct __cds_wfcq_head {
	struct cds_wfcq_node node;
};

struct cds_wfcq_head {
	struct cds_wfcq_node node;
	pthread_mutex_t lock;
};

struct cds_wfcq_tail {
	struct cds_wfcq_node *p;
};

/*
 * Both head types start with the dummy node; the functions use only it.
 * cds_wfcq_head_const_ptr_t (liburcu 0.15) is the read-only form, taken by
 * cds_wfcq_empty().  The unions are transparent in C++ too, as in
 * lfstack.h, wfstack.h and liburcu 0.14+: g++ does not convert to them
 * implicitly, but the attribute makes a union argument travel like a
 * pointer, so C++ callers and the C library agree on the calling convention
 * on every ABI (32-bit PowerPC passes a plain union in memory).  clang++
 * ignores the attribute and says so; that warning is silenced here.
 */
#if defined(__cplusplus) && defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wignored-attributes"
#endif
typedef union {
	struct __cds_wfcq_head *_h;
	struct cds_wfcq_head *h;
} __attribute__((__transparent_union__)) cds_wfcq_head_ptr_t;

typedef union {
	const struct __cds_wfcq_head *_h;
	const struct cds_wfcq_head *h;
} __attribute__((__transparent_union__)) cds_wfcq_head_const_ptr_t;
#if defined(__cplusplus) && defined(__clang__)
#pragma clang diagnostic pop
#endif

#ifndef __cplusplus
/* Identity in C; exists so that code written for C++ compiles as C too. */
static inline struct __cds_wfcq_head *__cds_wfcq_head_cast(struct __cds_wfcq_head *head)
{
	return head;
}

static inline struct cds_wfcq_head *cds_wfcq_head_cast(struct cds_wfcq_head *head)
{
	return head;
}

static inline const struct __cds_wfcq_head *__cds_wfcq_head_const_cast(
		const struct __cds_wfcq_head *head)
{
	return head;
}
#else
/* C++ converts to the unions only explicitly. */
static inline cds_wfcq_head_ptr_t __cds_wfcq_head_cast(struct __cds_wfcq_head *head)
{
	cds_wfcq_head_ptr_t ret;

	ret._h = head;
	return ret;
}

static inline cds_wfcq_head_ptr_t cds_wfcq_head_cast(struct cds_wfcq_head *head)
{
	cds_wfcq_head_ptr_t ret;

	ret.h = head;
	return ret;
}

static inline cds_wfcq_head_const_ptr_t __cds_wfcq_head_const_cast(
		const struct __cds_wfcq_head *head)
{
	cds_wfcq_head_const_ptr_t ret;

	ret._h = head;
	return ret;
}
#endif

#ifdef _LGPL_SOURCE

#include <urcu/static/wfcqueue.h>

/* As liburcu: name -> _name, __name -> ___name (urcu/static/wfcqueue.h). */
#define cds_wfcq_node_init			_cds_wfcq_node_init
#define cds_wfcq_init				_cds_wfcq_init
#define cds_wfcq_destroy			_cds_wfcq_destroy
#define __cds_wfcq_init				___cds_wfcq_init
#define cds_wfcq_empty				_cds_wfcq_empty
#define cds_wfcq_enqueue			_cds_wfcq_enqueue
#define cds_wfcq_dequeue_lock			_cds_wfcq_dequeue_lock
#define cds_wfcq_dequeue_unlock			_cds_wfcq_dequeue_unlock
#define cds_wfcq_dequeue_blocking		_cds_wfcq_dequeue_blocking
#define cds_wfcq_dequeue_with_state_blocking	_cds_wfcq_dequeue_with_state_blocking
#define cds_wfcq_splice_blocking		_cds_wfcq_splice_blocking
#define __cds_wfcq_dequeue_blocking		___cds_wfcq_dequeue_blocking
#define __cds_wfcq_dequeue_with_state_blocking	___cds_wfcq_dequeue_with_state_blocking
#define __cds_wfcq_dequeue_nonblocking		___cds_wfcq_dequeue_nonblocking
#define __cds_wfcq_dequeue_with_state_nonblocking ___cds_wfcq_dequeue_with_state_nonblocking
#define __cds_wfcq_splice_blocking		___cds_wfcq_splice_blocking
#define __cds_wfcq_splice_nonblocking		___cds_wfcq_splice_nonblocking
#define __cds_wfcq_first_blocking		___cds_wfcq_first_blocking
#define __cds_wfcq_first_nonblocking		___cds_wfcq_first_nonblocking
#define __cds_wfcq_next_blocking		___cds_wfcq_next_blocking
#define __cds_wfcq_next_nonblocking		___cds_wfcq_next_nonblocking

#else /* !_LGPL_SOURCE */

/* Set node->next to NULL.  Needed once before a node's first enqueue. */
URCU_API void cds_wfcq_node_init(struct cds_wfcq_node *node);

/* Initialize an empty queue with a dequeue mutex; undo with cds_wfcq_destroy. */
URCU_API void cds_wfcq_init(struct cds_wfcq_head *head, struct cds_wfcq_tail *tail);

/* Destroy the mutex of a queue set up by cds_wfcq_init. */
URCU_API void cds_wfcq_destroy(struct cds_wfcq_head *head, struct cds_wfcq_tail *tail);

/* Initialize an empty queue without mutex; nothing to destroy. */
URCU_API void __cds_wfcq_init(struct __cds_wfcq_head *head, struct cds_wfcq_tail *tail);

/*
 * True if the queue holds no node.  Two plain loads, no barrier, no
 * exclusion needed; a concurrent enqueue may make the answer stale at once.
 */
URCU_API bool cds_wfcq_empty(cds_wfcq_head_const_ptr_t head,
		const struct cds_wfcq_tail *tail);

/* Take / release the dequeue mutex of a struct cds_wfcq_head. */
URCU_API void cds_wfcq_dequeue_lock(struct cds_wfcq_head *head, struct cds_wfcq_tail *tail);
URCU_API void cds_wfcq_dequeue_unlock(struct cds_wfcq_head *head, struct cds_wfcq_tail *tail);

/*
 * Append node (wait-free, no exclusion needed).  Full memory barrier.
 * Returns false if the queue was empty just before, true otherwise.
 */
URCU_API bool cds_wfcq_enqueue(cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node);

/*
 * Remove and return the first node, or NULL if the queue is empty, taking the
 * dequeue mutex.  The node may be reused or freed at once.  The _with_state
 * form sets *state to CDS_WFCQ_STATE_LAST when the queue became empty.
 */
URCU_API struct cds_wfcq_node *cds_wfcq_dequeue_blocking(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail);
URCU_API struct cds_wfcq_node *cds_wfcq_dequeue_with_state_blocking(
		struct cds_wfcq_head *head, struct cds_wfcq_tail *tail, int *state);

/*
 * Move every node of src to the end of dest, taking src's dequeue mutex (dest
 * needs none: the append is an enqueue).  Returns CDS_WFCQ_RET_SRC_EMPTY,
 * CDS_WFCQ_RET_DEST_EMPTY or CDS_WFCQ_RET_DEST_NON_EMPTY.
 */
URCU_API enum cds_wfcq_ret cds_wfcq_splice_blocking(
		struct cds_wfcq_head *dest_q_head, struct cds_wfcq_tail *dest_q_tail,
		struct cds_wfcq_head *src_q_head, struct cds_wfcq_tail *src_q_tail);

/*
 * Caller-synchronized operations (see the exclusion table).  _blocking waits
 * for a preempted enqueuer to finish linking; _nonblocking returns
 * CDS_WFCQ_WOULDBLOCK (splice: CDS_WFCQ_RET_WOULDBLOCK) instead and leaves
 * the queue unchanged.
 */
URCU_API struct cds_wfcq_node *__cds_wfcq_dequeue_blocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail);
URCU_API struct cds_wfcq_node *__cds_wfcq_dequeue_with_state_blocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail, int *state);
URCU_API struct cds_wfcq_node *__cds_wfcq_dequeue_nonblocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail);
URCU_API struct cds_wfcq_node *__cds_wfcq_dequeue_with_state_nonblocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail, int *state);
URCU_API enum cds_wfcq_ret __cds_wfcq_splice_blocking(
		cds_wfcq_head_ptr_t dest_q_head, struct cds_wfcq_tail *dest_q_tail,
		cds_wfcq_head_ptr_t src_q_head, struct cds_wfcq_tail *src_q_tail);
URCU_API enum cds_wfcq_ret __cds_wfcq_splice_nonblocking(
		cds_wfcq_head_ptr_t dest_q_head, struct cds_wfcq_tail *dest_q_tail,
		cds_wfcq_head_ptr_t src_q_head, struct cds_wfcq_tail *src_q_tail);

/*
 * Iteration without removal: first returns the first node or NULL if empty;
 * next returns the node after node, or NULL if node is the last.
 */
URCU_API struct cds_wfcq_node *__cds_wfcq_first_blocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail);
URCU_API struct cds_wfcq_node *__cds_wfcq_first_nonblocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail);
URCU_API struct cds_wfcq_node *__cds_wfcq_next_blocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node);
URCU_API struct cds_wfcq_node *__cds_wfcq_next_nonblocking(
		cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node);

#endif /* !_LGPL_SOURCE */

/*
 * Iterate over the queue without removing nodes (caller-synchronized, like
 * __cds_wfcq_first_blocking).  The _safe form allows freeing node in the body
 * once it has been detached by other means (e.g. after a splice into a
 * private queue that is then walked and discarded).
 */
#define __cds_wfcq_for_each_blocking(head, tail, node)			\
	for (node = __cds_wfcq_first_blocking(head, tail);		\
		node != NULL;						\
		node = __cds_wfcq_next_blocking(head, tail, node))

#define __cds_wfcq_for_each_blocking_safe(head, tail, node, n)		\
	for (node = __cds_wfcq_first_blocking(head, tail),		\
			n = (node ? __cds_wfcq_next_blocking(head, tail, node) : NULL); \
		node != NULL;						\
		node = n,						\
			n = (node ? __cds_wfcq_next_blocking(head, tail, node) : NULL))

#ifdef __cplusplus
}

/*
 * C++ (liburcu 0.14/0.15): cds_wfcq_head_cast() for both head types,
 * cds_wfcq_head_const_cast(), liburcu's overloaded spellings of the two,
 * cds_wfcq_head_cast_cpp() and cds_wfcq_head_const_cast_cpp(), and
 * templates that let the functions taking a head union be called with a
 * plain head pointer, as in C.
 */
static inline cds_wfcq_head_ptr_t cds_wfcq_head_cast(struct __cds_wfcq_head *head)
{
	return __cds_wfcq_head_cast(head);
}

static inline cds_wfcq_head_const_ptr_t cds_wfcq_head_const_cast(
		const struct __cds_wfcq_head *head)
{
	cds_wfcq_head_const_ptr_t ret;

	ret._h = head;
	return ret;
}

static inline cds_wfcq_head_const_ptr_t cds_wfcq_head_const_cast(
		const struct cds_wfcq_head *head)
{
	cds_wfcq_head_const_ptr_t ret;

	ret.h = head;
	return ret;
}

static inline cds_wfcq_head_ptr_t cds_wfcq_head_cast_cpp(struct __cds_wfcq_head *head)
{
	return cds_wfcq_head_cast(head);
}

static inline cds_wfcq_head_ptr_t cds_wfcq_head_cast_cpp(struct cds_wfcq_head *head)
{
	return cds_wfcq_head_cast(head);
}

static inline cds_wfcq_head_const_ptr_t cds_wfcq_head_const_cast_cpp(
		const struct __cds_wfcq_head *head)
{
	return cds_wfcq_head_const_cast(head);
}

static inline cds_wfcq_head_const_ptr_t cds_wfcq_head_const_cast_cpp(
		const struct cds_wfcq_head *head)
{
	return cds_wfcq_head_const_cast(head);
}

template<typename T> static inline bool cds_wfcq_empty(T head,
		const struct cds_wfcq_tail *tail)
{
	return cds_wfcq_empty(cds_wfcq_head_const_cast(head), tail);
}

template<typename T> static inline bool cds_wfcq_enqueue(T head,
		struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return cds_wfcq_enqueue(cds_wfcq_head_cast(head), tail, node);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_dequeue_blocking(
		T head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_dequeue_blocking(cds_wfcq_head_cast(head), tail);
}

template<typename T> static inline struct cds_wfcq_node *
__cds_wfcq_dequeue_with_state_blocking(T head, struct cds_wfcq_tail *tail, int *state)
{
	return __cds_wfcq_dequeue_with_state_blocking(cds_wfcq_head_cast(head), tail, state);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_dequeue_nonblocking(
		T head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_dequeue_nonblocking(cds_wfcq_head_cast(head), tail);
}

template<typename T> static inline struct cds_wfcq_node *
__cds_wfcq_dequeue_with_state_nonblocking(T head, struct cds_wfcq_tail *tail, int *state)
{
	return __cds_wfcq_dequeue_with_state_nonblocking(cds_wfcq_head_cast(head), tail, state);
}

template<typename T, typename U> static inline enum cds_wfcq_ret __cds_wfcq_splice_blocking(
		T dest_head, struct cds_wfcq_tail *dest_tail,
		U src_head, struct cds_wfcq_tail *src_tail)
{
	return __cds_wfcq_splice_blocking(cds_wfcq_head_cast(dest_head), dest_tail,
			cds_wfcq_head_cast(src_head), src_tail);
}

template<typename T, typename U> static inline enum cds_wfcq_ret __cds_wfcq_splice_nonblocking(
		T dest_head, struct cds_wfcq_tail *dest_tail,
		U src_head, struct cds_wfcq_tail *src_tail)
{
	return __cds_wfcq_splice_nonblocking(cds_wfcq_head_cast(dest_head), dest_tail,
			cds_wfcq_head_cast(src_head), src_tail);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_first_blocking(
		T head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_first_blocking(cds_wfcq_head_cast(head), tail);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_first_nonblocking(
		T head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_first_nonblocking(cds_wfcq_head_cast(head), tail);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_next_blocking(
		T head, struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return __cds_wfcq_next_blocking(cds_wfcq_head_cast(head), tail, node);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_next_nonblocking(
		T head, struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return __cds_wfcq_next_nonblocking(cds_wfcq_head_cast(head), tail, node);
}

#else /* !__cplusplus */

/*
 * Identity in C (the union converts implicitly); for code shared with C++.
 * The bare name is liburcu 0.15's function, for a const struct cds_wfcq_head;
 * a call goes through the macro, which takes either head type.
 */
static inline const struct cds_wfcq_head *(cds_wfcq_head_const_cast)(
		const struct cds_wfcq_head *head)
{
	return head;
}

#define cds_wfcq_head_const_cast(head)	(head)

#endif /* !__cplusplus */

#endif /* URCU_WFCQUEUE_H */
