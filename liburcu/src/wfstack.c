// SPDX-License-Identifier: MIT
/*
 * Exported (non-inline) versions of the stack with wait-free push
 * (urcu/wfstack.h), for programs built without _LGPL_SOURCE.  Part of
 * liburcu-common, as in liburcu, so that -lurcu-common alone links them.
 *
 * Proof sketch (in full in urcu/static/wfstack.h): push is an exchange of
 * the head with the new node, its linearization point, followed by one store
 * linking the node to the previous top: wait-free.  A pop that finds the top
 * not linked yet waits for that store (or reports CDS_WFS_WOULDBLOCK), then
 * commits with a compare-and-swap of the head; consumers exclude each other
 * (RCU plus grace periods, a mutex, or a single consumer), which rules out
 * use-after-free and ABA on the top node.  Pop-all is one exchange with the
 * empty marker.
 *
 * Each function has the ordering contract and progress guarantee documented
 * in urcu/wfstack.h.
 */
/* The exported definitions below must not be renamed to the inline ones. */
#undef _LGPL_SOURCE
#include <urcu/wfstack.h>
#include <urcu/static/wfstack.h>

void cds_wfs_node_init(struct cds_wfs_node *node)
{
	_cds_wfs_node_init(node);
}

void cds_wfs_init(struct cds_wfs_stack *s)
{
	_cds_wfs_init(s);
}

void cds_wfs_destroy(struct cds_wfs_stack *s)
{
	_cds_wfs_destroy(s);
}

void __cds_wfs_init(struct __cds_wfs_stack *s)
{
	___cds_wfs_init(s);
}

bool cds_wfs_empty(cds_wfs_stack_const_ptr_t u_stack)
{
	return _cds_wfs_empty(u_stack);
}

int cds_wfs_push(cds_wfs_stack_ptr_t u_stack, struct cds_wfs_node *node)
{
	return _cds_wfs_push(u_stack, node);
}

struct cds_wfs_node *cds_wfs_pop_blocking(struct cds_wfs_stack *s)
{
	return _cds_wfs_pop_blocking(s);
}

struct cds_wfs_node *cds_wfs_pop_with_state_blocking(struct cds_wfs_stack *s, int *state)
{
	return _cds_wfs_pop_with_state_blocking(s, state);
}

struct cds_wfs_head *cds_wfs_pop_all_blocking(struct cds_wfs_stack *s)
{
	return _cds_wfs_pop_all_blocking(s);
}

struct cds_wfs_node *cds_wfs_first(struct cds_wfs_head *head)
{
	return _cds_wfs_first(head);
}

struct cds_wfs_node *cds_wfs_next_blocking(struct cds_wfs_node *node)
{
	return _cds_wfs_next_blocking(node);
}

struct cds_wfs_node *cds_wfs_next_nonblocking(struct cds_wfs_node *node)
{
	return _cds_wfs_next_nonblocking(node);
}

void cds_wfs_pop_lock(struct cds_wfs_stack *s)
{
	_cds_wfs_pop_lock(s);
}

void cds_wfs_pop_unlock(struct cds_wfs_stack *s)
{
	_cds_wfs_pop_unlock(s);
}

struct cds_wfs_node *__cds_wfs_pop_blocking(cds_wfs_stack_ptr_t u_stack)
{
	return ___cds_wfs_pop_blocking(u_stack);
}

struct cds_wfs_node *__cds_wfs_pop_with_state_blocking(cds_wfs_stack_ptr_t u_stack, int *state)
{
	return ___cds_wfs_pop_with_state_blocking(u_stack, state);
}

struct cds_wfs_node *__cds_wfs_pop_nonblocking(cds_wfs_stack_ptr_t u_stack)
{
	return ___cds_wfs_pop_nonblocking(u_stack);
}

struct cds_wfs_node *__cds_wfs_pop_with_state_nonblocking(cds_wfs_stack_ptr_t u_stack,
		int *state)
{
	return ___cds_wfs_pop_with_state_nonblocking(u_stack, state);
}

struct cds_wfs_head *__cds_wfs_pop_all(cds_wfs_stack_ptr_t u_stack)
{
	return ___cds_wfs_pop_all(u_stack);
}
