// SPDX-License-Identifier: MIT
/*
 * Inline implementation of the deprecated RCU lock-free stack
 * (urcu/rculfstack.h).
 *
 * A Treiber stack, the same algorithm as urcu/static/lfstack.h under its RCU
 * discipline; the proof sketch there applies unchanged:
 *   push: node->next = old; cmpxchg(&s->head, old, node), retried with the
 *         value seen (full barrier; no ABA for push);
 *   pop:  top = s->head; next = top->next; cmpxchg(&s->head, top, next),
 *         retried; the caller's read-side critical section keeps top
 *         allocated (existence) and keeps it from being pushed again before
 *         the compare-and-swap (no ABA), because a popped node is reused or
 *         freed only after a grace period.
 * Both linearize at their successful compare-and-swap and are lock-free.
 */
#ifndef URCU_STATIC_RCULFSTACK_H
#define URCU_STATIC_RCULFSTACK_H

#include <stddef.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/pointer.h>
#include <urcu/rculfstack.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline void _cds_lfs_node_init_rcu(struct cds_lfs_node_rcu *node)
{
	(void) node;
}

static inline void _cds_lfs_init_rcu(struct cds_lfs_stack_rcu *s)
{
	s->head = NULL;
}

static inline int _cds_lfs_push_rcu(struct cds_lfs_stack_rcu *s,
		struct cds_lfs_node_rcu *node)
{
	struct cds_lfs_node_rcu *old, *seen;

	/* Guess "empty"; a wrong guess costs one failed cmpxchg (lfstack.h, P1). */
	old = NULL;
	for (;;) {
		node->next = old;
		/*
		 * Full barrier: node->next and the element's contents are
		 * visible before node is reachable; pairs with the
		 * rcu_dereference() of the head in pop.
		 */
		seen = uatomic_cmpxchg(&s->head, old, node);
		if (seen == old)
			return old != NULL;
		old = seen;
	}
}

static inline struct cds_lfs_node_rcu *_cds_lfs_pop_rcu(struct cds_lfs_stack_rcu *s)
{
	struct cds_lfs_node_rcu *top, *next;

	for (;;) {
		/* Consume/acquire: pairs with push's cmpxchg. */
		top = rcu_dereference(s->head);
		if (top == NULL)
			return NULL;
		next = CMM_LOAD_SHARED(top->next);
		/* Full barrier: the caller's later accesses follow the removal. */
		if (uatomic_cmpxchg(&s->head, top, next) == top)
			return top;
	}
}

/*
 * The public names under _LGPL_SOURCE: deprecated inline wrappers, here
 * rather than in the public header so that including this header first
 * works too.
 */
#ifdef _LGPL_SOURCE

static inline CDS_LFS_RCU_DEPRECATED
void cds_lfs_node_init_rcu(struct cds_lfs_node_rcu *node)
{
	_cds_lfs_node_init_rcu(node);
}

static inline CDS_LFS_RCU_DEPRECATED
void cds_lfs_init_rcu(struct cds_lfs_stack_rcu *s)
{
	_cds_lfs_init_rcu(s);
}

static inline CDS_LFS_RCU_DEPRECATED
int cds_lfs_push_rcu(struct cds_lfs_stack_rcu *s, struct cds_lfs_node_rcu *node)
{
	return _cds_lfs_push_rcu(s, node);
}

static inline CDS_LFS_RCU_DEPRECATED
struct cds_lfs_node_rcu *cds_lfs_pop_rcu(struct cds_lfs_stack_rcu *s)
{
	return _cds_lfs_pop_rcu(s);
}

#endif /* _LGPL_SOURCE */

#ifdef __cplusplus
}
#endif

#endif /* URCU_STATIC_RCULFSTACK_H */
