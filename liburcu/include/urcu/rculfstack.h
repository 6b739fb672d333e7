// SPDX-License-Identifier: MIT
/*
 * Deprecated lock-free stack with RCU-protected pop: the cds_lfs_*_rcu API of
 * liburcu, kept so that old programs build.  New code uses urcu/lfstack.h,
 * whose __cds_lfs_pop() under an RCU read-side critical section is the same
 * algorithm.
 *
 * Every function is declared deprecated: a program that calls one gets a
 * compile-time deprecation warning, as with liburcu.  A program that must
 * build warning-free defines CDS_LFS_RCU_DEPRECATED (empty) before including
 * this header.
 *
 * Push needs no exclusion and no RCU.  cds_lfs_pop_rcu() must run inside a
 * read-side critical section, and a popped node may be freed or pushed again
 * only after a grace period of that flavor.  Both are lock-free.  A push is
 * a full memory barrier; the popper sees what the pusher wrote before it.
 */
#ifndef URCU_RCULFSTACK_H
#define URCU_RCULFSTACK_H

#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CDS_LFS_RCU_DEPRECATED
#define CDS_LFS_RCU_DEPRECATED \
	CDS_DEPRECATED("urcu/rculfstack.h is deprecated; use urcu/lfstack.h")
#endif

/* Embed in the element to push. */
struct cds_lfs_node_rcu {
	struct cds_lfs_node_rcu *next;
};

/* The stack: its top node, NULL when empty. */
struct cds_lfs_stack_rcu {
	struct cds_lfs_node_rcu *head;
};

#ifdef __cplusplus
}
#endif

#ifdef _LGPL_SOURCE

#include <urcu/static/rculfstack.h>

/* The deprecated inline wrappers are at the end of the static header. */

#else /* !_LGPL_SOURCE */

#ifdef __cplusplus
extern "C" {
#endif

/* Prepare a node for its first push (nothing to do; kept for the API). */
URCU_API CDS_LFS_RCU_DEPRECATED
void cds_lfs_node_init_rcu(struct cds_lfs_node_rcu *node);

/* Initialize an empty stack. */
URCU_API CDS_LFS_RCU_DEPRECATED
void cds_lfs_init_rcu(struct cds_lfs_stack_rcu *s);

/*
 * Push node.  No exclusion, no read-side critical section needed.  Full
 * memory barrier.  Lock-free.  Returns non-zero if the stack was non-empty
 * just before, 0 if it was empty.
 */
URCU_API CDS_LFS_RCU_DEPRECATED
int cds_lfs_push_rcu(struct cds_lfs_stack_rcu *s, struct cds_lfs_node_rcu *node);

/*
 * Pop the top node, or NULL if empty.  Inside a read-side critical section;
 * free or push the node again only after a grace period.  Full memory barrier
 * when a node is returned.  Lock-free.
 */
URCU_API CDS_LFS_RCU_DEPRECATED
struct cds_lfs_node_rcu *cds_lfs_pop_rcu(struct cds_lfs_stack_rcu *s);

#ifdef __cplusplus
}
#endif

#endif /* !_LGPL_SOURCE */

#endif /* URCU_RCULFSTACK_H */
