// SPDX-License-Identifier: MIT
/*
 * Exported versions of the deprecated RCU lock-free stack
 * (urcu/rculfstack.h), for programs built without _LGPL_SOURCE.  Part of
 * liburcu-cds.
 *
 * Proof sketch (urcu/static/rculfstack.h, urcu/static/lfstack.h): a Treiber
 * stack.  Push and pop commit with one compare-and-swap on the head (their
 * linearization points; lock-free).  Pops run in read-side critical sections
 * and popped nodes are reused only after a grace period, which keeps the
 * node a pop reads allocated and prevents ABA on its compare-and-swap.
 */
/* The exported definitions below must not be renamed to the inline ones. */
#undef _LGPL_SOURCE
/* Defining the deprecated functions is not using them. */
#define CDS_LFS_RCU_DEPRECATED
#include <urcu/rculfstack.h>
#include <urcu/static/rculfstack.h>

void cds_lfs_node_init_rcu(struct cds_lfs_node_rcu *node)
{
	_cds_lfs_node_init_rcu(node);
}

void cds_lfs_init_rcu(struct cds_lfs_stack_rcu *s)
{
	_cds_lfs_init_rcu(s);
}

int cds_lfs_push_rcu(struct cds_lfs_stack_rcu *s, struct cds_lfs_node_rcu *node)
{
	return _cds_lfs_push_rcu(s, node);
}

struct cds_lfs_node_rcu *cds_lfs_pop_rcu(struct cds_lfs_stack_rcu *s)
{
	return _cds_lfs_pop_rcu(s);
}
