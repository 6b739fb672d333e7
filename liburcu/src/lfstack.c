// SPDX-License-Identifier: MIT
/*
 * Exported (non-inline) versions of the lock-free stack (urcu/lfstack.h),
 * for programs built without _LGPL_SOURCE.  Part of liburcu-cds.
 *
 * Proof sketch (in full in urcu/static/lfstack.h): a Treiber stack.  Push
 * and pop each commit with one compare-and-swap on the head, which is their
 * linearization point; a failed compare-and-swap means another operation
 * committed, so both are lock-free.  Push is immune to ABA.  Pop reads the
 * next pointer of the top node before its compare-and-swap, which is safe
 * only if that node can be neither freed nor pushed again meanwhile: the
 * caller guarantees it with an RCU read-side critical section plus a grace
 * period before reuse, with a mutex shared by all consumers, or by being the
 * only consumer.  Pop-all is one exchange with NULL.
 *
 * Each function below has the ordering contract and progress guarantee
 * documented in urcu/lfstack.h for its inline version.
 */
/* The exported definitions below must not be renamed to the inline ones. */
#undef _LGPL_SOURCE
#include <urcu/lfstack.h>
#include <urcu/static/lfstack.h>

void cds_lfs_node_init(struct cds_lfs_node *node)
{
	_cds_lfs_node_init(node);
}

void cds_lfs_init(struct cds_lfs_stack *s)
{
	_cds_lfs_init(s);
}

void cds_lfs_destroy(struct cds_lfs_stack *s)
{
	_cds_lfs_destroy(s);
}

void __cds_lfs_init(struct __cds_lfs_stack *s)
{
	___cds_lfs_init(s);
}

bool cds_lfs_empty(cds_lfs_stack_const_ptr_t s)
{
	return _cds_lfs_empty(s);
}

bool cds_lfs_push(cds_lfs_stack_ptr_t s, struct cds_lfs_node *node)
{
	return _cds_lfs_push(s, node);
}

struct cds_lfs_node *cds_lfs_pop_blocking(struct cds_lfs_stack *s)
{
	return _cds_lfs_pop_blocking(s);
}

struct cds_lfs_head *cds_lfs_pop_all_blocking(struct cds_lfs_stack *s)
{
	return _cds_lfs_pop_all_blocking(s);
}

void cds_lfs_pop_lock(struct cds_lfs_stack *s)
{
	_cds_lfs_pop_lock(s);
}

void cds_lfs_pop_unlock(struct cds_lfs_stack *s)
{
	_cds_lfs_pop_unlock(s);
}

struct cds_lfs_node *__cds_lfs_pop(cds_lfs_stack_ptr_t s)
{
	return ___cds_lfs_pop(s);
}

struct cds_lfs_head *__cds_lfs_pop_all(cds_lfs_stack_ptr_t s)
{
	return ___cds_lfs_pop_all(s);
}
