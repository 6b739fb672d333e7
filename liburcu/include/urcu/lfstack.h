// SPDX-License-Identifier: MIT
/*
 * Lock-free stack (Treiber stack): the cds_lfs_* API of liburcu.
 *
 * Push is lock-free and needs no exclusion and no RCU.  Pop and pop-all are
 * lock-free too, but a pop reads the next pointer of a node that another
 * thread may pop, free or push again at the same moment, so every
 * __cds_lfs_pop() caller must use one of these three disciplines:
 *
 *   1. RCU: each __cds_lfs_pop() runs inside a read-side critical section of
 *      some flavor, and a popped node is freed or pushed again only after a
 *      grace period of that flavor (the rest of the element may be
 *      overwritten before; leave its struct cds_lfs_node alone).
 *   2. Mutex: __cds_lfs_pop() and __cds_lfs_pop_all() callers hold a common
 *      mutex (cds_lfs_pop_lock(), or cds_lfs_pop_blocking() and
 *      cds_lfs_pop_all_blocking(), which take the stack's own).
 *   3. Single consumer: one thread does every __cds_lfs_pop() and
 *      __cds_lfs_pop_all().
 *
 * __cds_lfs_pop_all() is one atomic exchange: it may run concurrently with
 * pushes and other pop-alls, and needs no read-side critical section; it only
 * has to follow the discipline chosen for __cds_lfs_pop() (with 1., a node it
 * returned may be pushed again only after a grace period).
 *
 *                    push   pop_all   __cds_lfs_pop
 *   push              -        -           -
 *   pop_all           -        -        1, 2 or 3
 *   __cds_lfs_pop     -     1, 2 or 3   1, 2 or 3
 *
 * Two stack types: struct cds_lfs_stack carries the mutex of discipline 2,
 * struct __cds_lfs_stack has none.  Functions that accept both take a
 * cds_lfs_stack_ptr_t (or, read-only, a cds_lfs_stack_const_ptr_t): a
 * transparent union in C, so either pointer converts implicitly; in C++ the
 * overloaded templates at the end of this header do the conversion.
 *
 * Memory ordering: a push is a full memory barrier; whoever pops the node
 * (or gets it from pop_all) sees everything the pusher wrote before pushing
 * it.  Walking the list returned by pop_all needs no further barrier.
 *
 * Reserved names.  struct __cds_lfs_stack and the __cds_lfs_*() functions,
 * and the ___cds_lfs_*() inline versions, are liburcu's public API and are
 * kept, reserved prefixes and all, for source compatibility.
 */
#ifndef URCU_LFSTACK_H
#define URCU_LFSTACK_H

#include <stdbool.h>
#include <pthread.h>
#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Embed in the element to push. */
struct cds_lfs_node {
	struct cds_lfs_node *next;
};

/* What pop_all returns: the former top node, which links the rest. */
struct cds_lfs_head {
	struct cds_lfs_node node;
};

/* A stack without mutex (disciplines 1 and 3, or the caller's own lock). */
struct __cds_lfs_stack {
	struct cds_lfs_head *head;
};

/* A stack with the mutex used by the _blocking functions and pop_lock. */
struct cds_lfs_stack {
	struct cds_lfs_head *head;
	pthread_mutex_t lock;
};

/*
 * Both stack types start with the head pointer, the only field the lock-free
 * functions touch.  clang warns that it ignores the attribute in C++; the
 * union still has the layout of one pointer there.
 */
#if defined(__cplusplus) && defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wignored-attributes"
#endif
typedef union {
	struct __cds_lfs_stack *_s;
	struct cds_lfs_stack *s;
} __attribute__((__transparent_union__)) cds_lfs_stack_ptr_t;

typedef union {
	const struct __cds_lfs_stack *_s;
	const struct cds_lfs_stack *s;
} __attribute__((__transparent_union__)) cds_lfs_stack_const_ptr_t;
#if defined(__cplusplus) && defined(__clang__)
#pragma clang diagnostic pop
#endif

#ifdef __cplusplus
}
#endif

#ifdef _LGPL_SOURCE

#include <urcu/static/lfstack.h>

#define cds_lfs_node_init		_cds_lfs_node_init
#define cds_lfs_init			_cds_lfs_init
#define cds_lfs_destroy			_cds_lfs_destroy
#define __cds_lfs_init			___cds_lfs_init
#define cds_lfs_empty			_cds_lfs_empty
#define cds_lfs_push			_cds_lfs_push
#define cds_lfs_pop_blocking		_cds_lfs_pop_blocking
#define cds_lfs_pop_all_blocking	_cds_lfs_pop_all_blocking
#define cds_lfs_pop_lock		_cds_lfs_pop_lock
#define cds_lfs_pop_unlock		_cds_lfs_pop_unlock
#define __cds_lfs_pop			___cds_lfs_pop
#define __cds_lfs_pop_all		___cds_lfs_pop_all

#else /* !_LGPL_SOURCE */

#ifdef __cplusplus
extern "C" {
#endif

/* Prepare a node for its first push (nothing to do; kept for the API). */
URCU_API void cds_lfs_node_init(struct cds_lfs_node *node);

/* Initialize an empty stack and its mutex; undo with cds_lfs_destroy(). */
URCU_API void cds_lfs_init(struct cds_lfs_stack *s);

/* Destroy the mutex of a stack set up by cds_lfs_init(). */
URCU_API void cds_lfs_destroy(struct cds_lfs_stack *s);

/* Initialize an empty stack without mutex; nothing to destroy. */
URCU_API void __cds_lfs_init(struct __cds_lfs_stack *s);

/*
 * True if the stack holds no node.  One relaxed load, orders nothing, needs
 * no exclusion; a concurrent push or pop may make the answer stale at once.
 * Wait-free.
 */
URCU_API bool cds_lfs_empty(cds_lfs_stack_const_ptr_t s);

/*
 * Push node.  Needs no exclusion and no read-side critical section.
 * Full memory barrier: the node's contents are visible to whoever pops it.
 * Lock-free (a compare-and-swap retried only when another push or pop
 * succeeded meanwhile).  Returns false if the stack was empty just before
 * the push, true otherwise.
 */
URCU_API bool cds_lfs_push(cds_lfs_stack_ptr_t s, struct cds_lfs_node *node);

/*
 * Pop the top node, or NULL if the stack is empty, under the stack's mutex
 * (discipline 2): the node may be freed or pushed again at once.  Full
 * memory barrier when a node is returned.  Blocking (takes the mutex).
 */
URCU_API struct cds_lfs_node *cds_lfs_pop_blocking(struct cds_lfs_stack *s);

/*
 * Take every node at once under the stack's mutex; NULL if it was empty.
 * Walk the result with cds_lfs_for_each(_safe).  Full memory barrier.
 * Blocking (takes the mutex).
 */
URCU_API struct cds_lfs_head *cds_lfs_pop_all_blocking(struct cds_lfs_stack *s);

/* Take / release the stack's mutex around __cds_lfs_pop()/_pop_all() calls. */
URCU_API void cds_lfs_pop_lock(struct cds_lfs_stack *s);
URCU_API void cds_lfs_pop_unlock(struct cds_lfs_stack *s);

/*
 * Pop the top node, or NULL if the stack is empty.  The caller follows one
 * of the three disciplines above.  Full memory barrier when a node is
 * returned.  Lock-free.
 */
URCU_API struct cds_lfs_node *__cds_lfs_pop(cds_lfs_stack_ptr_t s);

/*
 * Take every node at once (one atomic exchange); NULL if it was empty.
 * May run concurrently with push and pop_all; follows the discipline of
 * __cds_lfs_pop() towards pops.  Full memory barrier.  Wait-free.
 */
URCU_API struct cds_lfs_head *__cds_lfs_pop_all(cds_lfs_stack_ptr_t s);

#ifdef __cplusplus
}
#endif

#endif /* !_LGPL_SOURCE */

/*
 * Walk the nodes of a pop_all result (head may be NULL), top first.  The
 * _safe form reads the next node before the body runs, so the body may free
 * or push node elsewhere.
 */
#define cds_lfs_for_each(__head, __node)				\
	for (__node = (__head) ? &(__head)->node : NULL;		\
		__node != NULL;						\
		__node = __node->next)

#define cds_lfs_for_each_safe(__head, __node, __n)			\
	for (__node = (__head) ? &(__head)->node : NULL,		\
			__n = (__node ? __node->next : NULL);		\
		__node != NULL;						\
		__node = __n, __n = (__node ? __node->next : NULL))

#ifdef __cplusplus

/*
 * C++ has no transparent unions: these overloads convert either stack
 * pointer to the union, and the templates let a program call the functions
 * that take a union with a plain pointer, as in C.
 */
static inline cds_lfs_stack_ptr_t cds_lfs_stack_cast(struct __cds_lfs_stack *s)
{
	cds_lfs_stack_ptr_t ret;

	ret._s = s;
	return ret;
}

static inline cds_lfs_stack_ptr_t cds_lfs_stack_cast(struct cds_lfs_stack *s)
{
	cds_lfs_stack_ptr_t ret;

	ret.s = s;
	return ret;
}

static inline cds_lfs_stack_const_ptr_t cds_lfs_stack_const_cast(const struct __cds_lfs_stack *s)
{
	cds_lfs_stack_const_ptr_t ret;

	ret._s = s;
	return ret;
}

static inline cds_lfs_stack_const_ptr_t cds_lfs_stack_const_cast(const struct cds_lfs_stack *s)
{
	cds_lfs_stack_const_ptr_t ret;

	ret.s = s;
	return ret;
}

template<typename T> static inline bool cds_lfs_empty(T s)
{
	return cds_lfs_empty(cds_lfs_stack_const_cast(s));
}

template<typename T> static inline bool cds_lfs_push(T s, struct cds_lfs_node *node)
{
	return cds_lfs_push(cds_lfs_stack_cast(s), node);
}

template<typename T> static inline struct cds_lfs_node *__cds_lfs_pop(T s)
{
	return __cds_lfs_pop(cds_lfs_stack_cast(s));
}

template<typename T> static inline struct cds_lfs_head *__cds_lfs_pop_all(T s)
{
	return __cds_lfs_pop_all(cds_lfs_stack_cast(s));
}

#else /* !__cplusplus */

/* Identity in C (the union converts implicitly); for code shared with C++. */
#define cds_lfs_stack_cast(s)		(s)
#define cds_lfs_stack_const_cast(s)	(s)

#endif /* !__cplusplus */

#endif /* URCU_LFSTACK_H */
