// SPDX-License-Identifier: MIT
/*
 * Stack with wait-free push: the cds_wfs_* API of liburcu.
 *
 * Push is one atomic exchange and one store, whatever the other threads do
 * (wait-free), and needs no exclusion.  Between those two steps the pushed
 * node is already the top of the stack but not yet linked to the node below
 * it; a pop that meets such a node either waits for the pusher to finish
 * (the _blocking forms) or returns CDS_WFS_WOULDBLOCK (the _nonblocking
 * forms).  Pop-all is one atomic exchange.
 *
 * Pops read the next pointer of a node that another consumer might pop and
 * free at the same moment, so the __cds_wfs_pop_*() callers use one of the
 * three disciplines of the lock-free stack (urcu/lfstack.h): an RCU read-side
 * critical section around each pop and a grace period before a popped node
 * is freed or pushed again; a mutex shared by every __cds_wfs_pop_*() and
 * __cds_wfs_pop_all() caller (cds_wfs_pop_lock(), or the cds_wfs_pop_*() and
 * cds_wfs_pop_all_blocking() functions that take the stack's own); or a
 * single consumer.  __cds_wfs_pop_all() may run concurrently with pushes and
 * other pop-alls.  Walking a pop-all result with cds_wfs_first() and
 * cds_wfs_next_*() needs no exclusion (the list is private), but the _blocking
 * next may wait for a pusher that has not linked its node yet.
 *
 *                    push   pop_all   __cds_wfs_pop_*
 *   push              -        -           -
 *   pop_all           -        -        1, 2 or 3
 *   __cds_wfs_pop_*   -     1, 2 or 3   1, 2 or 3
 *
 * Two stack types: struct cds_wfs_stack carries the mutex, struct
 * __cds_wfs_stack has none.  Functions that accept both take a
 * cds_wfs_stack_ptr_t (read-only: cds_wfs_stack_const_ptr_t), a transparent
 * union in C; in C++ the templates at the end of this header convert.
 *
 * Memory ordering: a push is a full memory barrier; whoever pops the node
 * (or reaches it from a pop-all result) sees everything the pusher wrote
 * before pushing it.
 *
 * Waiting.  A blocking pop or next that finds a node not yet linked spins
 * briefly, then yields the CPU, then sleeps for a few microseconds at a time
 * (doubling up to 50 us): a pusher that was merely preempted costs its
 * waiter tens of microseconds, never milliseconds.
 *
 * Reserved names: struct __cds_wfs_stack, __cds_wfs_*() and the inline
 * ___cds_wfs_*() are liburcu's public API, kept for source compatibility.
 */
#ifndef URCU_WFSTACK_H
#define URCU_WFSTACK_H

#include <assert.h>	/* as liburcu's wfstack.h: programs use assert/static_assert */
#include <pthread.h>
#include <stdbool.h>
#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returned by the _nonblocking functions instead of waiting. */
#define CDS_WFS_WOULDBLOCK	((struct cds_wfs_node *) -1UL)

enum cds_wfs_state {
	CDS_WFS_STATE_LAST =	(1U << 0),	/* the pop emptied the stack */
};

/* Embed in the element to push.  next is NULL only while a push links it. */
struct cds_wfs_node {
	struct cds_wfs_node *next;
};

/* What pop-all returns: the former top node, which links the rest. */
struct cds_wfs_head {
	struct cds_wfs_node node;
};

/* A stack without mutex. */
struct __cds_wfs_stack {
	struct cds_wfs_head *head;
};

/* A stack with the mutex of the cds_wfs_pop_*() functions. */
struct cds_wfs_stack {
	struct cds_wfs_head *head;
	pthread_mutex_t lock;
};

/* Both types start with the head, the only field the lock-free paths use. */
#if defined(__cplusplus) && defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wignored-attributes"
#endif
typedef union {
	struct __cds_wfs_stack *_s;
	struct cds_wfs_stack *s;
} __attribute__((__transparent_union__)) cds_wfs_stack_ptr_t;

typedef union {
	const struct __cds_wfs_stack *_s;
	const struct cds_wfs_stack *s;
} __attribute__((__transparent_union__)) cds_wfs_stack_const_ptr_t;
#if defined(__cplusplus) && defined(__clang__)
#pragma clang diagnostic pop
#endif

#ifdef __cplusplus
}
#endif

#ifdef _LGPL_SOURCE

#include <urcu/static/wfstack.h>

#define cds_wfs_node_init			_cds_wfs_node_init
#define cds_wfs_init				_cds_wfs_init
#define cds_wfs_destroy				_cds_wfs_destroy
#define __cds_wfs_init				___cds_wfs_init
#define cds_wfs_empty				_cds_wfs_empty
#define cds_wfs_push				_cds_wfs_push
#define cds_wfs_pop_blocking			_cds_wfs_pop_blocking
#define cds_wfs_pop_with_state_blocking		_cds_wfs_pop_with_state_blocking
#define cds_wfs_pop_all_blocking		_cds_wfs_pop_all_blocking
#define cds_wfs_first				_cds_wfs_first
#define cds_wfs_next_blocking			_cds_wfs_next_blocking
#define cds_wfs_next_nonblocking		_cds_wfs_next_nonblocking
#define cds_wfs_pop_lock			_cds_wfs_pop_lock
#define cds_wfs_pop_unlock			_cds_wfs_pop_unlock
#define __cds_wfs_pop_blocking			___cds_wfs_pop_blocking
#define __cds_wfs_pop_with_state_blocking	___cds_wfs_pop_with_state_blocking
#define __cds_wfs_pop_nonblocking		___cds_wfs_pop_nonblocking
#define __cds_wfs_pop_with_state_nonblocking	___cds_wfs_pop_with_state_nonblocking
#define __cds_wfs_pop_all			___cds_wfs_pop_all

#else /* !_LGPL_SOURCE */

#ifdef __cplusplus
extern "C" {
#endif

/* Set node->next to NULL.  Optional: push does it too. */
URCU_API void cds_wfs_node_init(struct cds_wfs_node *node);

/* Initialize an empty stack and its mutex; undo with cds_wfs_destroy(). */
URCU_API void cds_wfs_init(struct cds_wfs_stack *s);

/* Destroy the mutex of a stack set up by cds_wfs_init(). */
URCU_API void cds_wfs_destroy(struct cds_wfs_stack *s);

/* Initialize an empty stack without mutex; nothing to destroy. */
URCU_API void __cds_wfs_init(struct __cds_wfs_stack *s);

/*
 * True if the stack holds no node (a pushed node counts from the push's
 * exchange on, linked or not).  One relaxed load, orders nothing, needs no
 * exclusion.  Wait-free.
 */
URCU_API bool cds_wfs_empty(cds_wfs_stack_const_ptr_t u_stack);

/*
 * Push node; needs no exclusion.  Full memory barrier: the element's
 * contents are visible to whoever pops it.  Wait-free (one exchange, one
 * store).  Returns 0 if the stack was empty just before, non-zero otherwise.
 */
URCU_API int cds_wfs_push(cds_wfs_stack_ptr_t u_stack, struct cds_wfs_node *node);

/*
 * Pop the top node, or NULL if the stack is empty, under the stack's mutex:
 * the node may be freed or pushed again at once.  The _with_state form sets
 * *state to CDS_WFS_STATE_LAST when the pop emptied the stack (else 0).
 * Full memory barrier when a node is returned.  Blocking: takes the mutex and
 * may wait for a pusher to link the top node.
 */
URCU_API struct cds_wfs_node *cds_wfs_pop_blocking(struct cds_wfs_stack *s);
URCU_API struct cds_wfs_node *cds_wfs_pop_with_state_blocking(struct cds_wfs_stack *s,
		int *state);

/*
 * Take every node at once under the stack's mutex; NULL if it was empty.
 * Walk the result with cds_wfs_first()/cds_wfs_next_blocking() or
 * cds_wfs_for_each_blocking(_safe).  Full memory barrier.  Blocking (mutex).
 */
URCU_API struct cds_wfs_head *cds_wfs_pop_all_blocking(struct cds_wfs_stack *s);

/* The first node of a pop-all result, NULL if head is NULL.  Wait-free. */
URCU_API struct cds_wfs_node *cds_wfs_first(struct cds_wfs_head *head);

/*
 * The node below node in a pop-all result, or NULL at the bottom.  The
 * _blocking form waits if node's pusher has not linked it yet; the
 * _nonblocking form returns CDS_WFS_WOULDBLOCK then (and is wait-free).
 * Acquire ordering on the link read.
 */
URCU_API struct cds_wfs_node *cds_wfs_next_blocking(struct cds_wfs_node *node);
URCU_API struct cds_wfs_node *cds_wfs_next_nonblocking(struct cds_wfs_node *node);

/* Take / release the stack's mutex around __cds_wfs_pop_*() calls. */
URCU_API void cds_wfs_pop_lock(struct cds_wfs_stack *s);
URCU_API void cds_wfs_pop_unlock(struct cds_wfs_stack *s);

/*
 * Pop the top node, or NULL if empty, under one of the three disciplines.
 * Full memory barrier when a node is returned.  _blocking: waits for a
 * pusher to link the top node (blocking).  _nonblocking: returns
 * CDS_WFS_WOULDBLOCK instead, and also when a concurrent operation changed
 * the top meanwhile; the stack is then unchanged (wait-free).  The
 * _with_state forms set *state to CDS_WFS_STATE_LAST when the pop emptied the
 * stack, else 0.
 */
URCU_API struct cds_wfs_node *__cds_wfs_pop_blocking(cds_wfs_stack_ptr_t u_stack);
URCU_API struct cds_wfs_node *__cds_wfs_pop_with_state_blocking(cds_wfs_stack_ptr_t u_stack,
		int *state);
URCU_API struct cds_wfs_node *__cds_wfs_pop_nonblocking(cds_wfs_stack_ptr_t u_stack);
URCU_API struct cds_wfs_node *__cds_wfs_pop_with_state_nonblocking(cds_wfs_stack_ptr_t u_stack,
		int *state);

/*
 * Take every node at once (one exchange); NULL if it was empty.  May run
 * concurrently with push and pop-all; follows the pops' discipline towards
 * pops.  Full memory barrier.  Wait-free.
 */
URCU_API struct cds_wfs_head *__cds_wfs_pop_all(cds_wfs_stack_ptr_t u_stack);

#ifdef __cplusplus
}
#endif

#endif /* !_LGPL_SOURCE */

/*
 * Walk a pop-all result, top first (head may be NULL).  The _safe form reads
 * the next node before the body runs, so the body may free or push node.
 */
#define cds_wfs_for_each_blocking(head, node)				\
	for (node = cds_wfs_first(head);				\
		node != NULL;						\
		node = cds_wfs_next_blocking(node))

#define cds_wfs_for_each_blocking_safe(head, node, n)			\
	for (node = cds_wfs_first(head),				\
			n = (node ? cds_wfs_next_blocking(node) : NULL);	\
		node != NULL;						\
		node = n, n = (node ? cds_wfs_next_blocking(node) : NULL))

#ifdef __cplusplus

/* C++: convert either stack pointer to the union (no transparent unions). */
static inline cds_wfs_stack_ptr_t cds_wfs_stack_cast(struct __cds_wfs_stack *s)
{
	cds_wfs_stack_ptr_t ret;

	ret._s = s;
	return ret;
}

static inline cds_wfs_stack_ptr_t cds_wfs_stack_cast(struct cds_wfs_stack *s)
{
	cds_wfs_stack_ptr_t ret;

	ret.s = s;
	return ret;
}

static inline cds_wfs_stack_const_ptr_t cds_wfs_stack_const_cast(const struct __cds_wfs_stack *s)
{
	cds_wfs_stack_const_ptr_t ret;

	ret._s = s;
	return ret;
}

static inline cds_wfs_stack_const_ptr_t cds_wfs_stack_const_cast(const struct cds_wfs_stack *s)
{
	cds_wfs_stack_const_ptr_t ret;

	ret.s = s;
	return ret;
}

template<typename T> static inline bool cds_wfs_empty(T s)
{
	return cds_wfs_empty(cds_wfs_stack_const_cast(s));
}

template<typename T> static inline int cds_wfs_push(T s, struct cds_wfs_node *node)
{
	return cds_wfs_push(cds_wfs_stack_cast(s), node);
}

template<typename T> static inline struct cds_wfs_node *__cds_wfs_pop_blocking(T s)
{
	return __cds_wfs_pop_blocking(cds_wfs_stack_cast(s));
}

template<typename T> static inline struct cds_wfs_node *
__cds_wfs_pop_with_state_blocking(T s, int *state)
{
	return __cds_wfs_pop_with_state_blocking(cds_wfs_stack_cast(s), state);
}

template<typename T> static inline struct cds_wfs_node *__cds_wfs_pop_nonblocking(T s)
{
	return __cds_wfs_pop_nonblocking(cds_wfs_stack_cast(s));
}

template<typename T> static inline struct cds_wfs_node *
__cds_wfs_pop_with_state_nonblocking(T s, int *state)
{
	return __cds_wfs_pop_with_state_nonblocking(cds_wfs_stack_cast(s), state);
}

template<typename T> static inline struct cds_wfs_head *__cds_wfs_pop_all(T s)
{
	return __cds_wfs_pop_all(cds_wfs_stack_cast(s));
}

#else /* !__cplusplus */

/* Identity in C (the union converts implicitly); for code shared with C++. */
#define cds_wfs_stack_cast(s)		(s)
#define cds_wfs_stack_const_cast(s)	(s)

#endif /* !__cplusplus */

#endif /* URCU_WFSTACK_H */
