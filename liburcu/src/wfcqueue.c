// SPDX-License-Identifier: MIT
/*
 * Exported (non-inline) versions of the wait-free concurrent queue, for
 * programs built without _LGPL_SOURCE.  The algorithm and its proof sketch are
 * in urcu/static/wfcqueue.h; each function here is a thin wrapper with the
 * ordering contract of its inline version.
 *
 * The __cds_wfcq_* names are liburcu's public API; they are defined here,
 * reserved prefix and all, so that programs written for liburcu link.
 */
/* The exported definitions below must not be renamed to the inline ones. */
#undef _LGPL_SOURCE
#include <urcu/wfcqueue.h>
#include <urcu/static/wfcqueue.h>

void cds_wfcq_node_init(struct cds_wfcq_node *node)
{
	cds_wfcq_i_node_init(node);
}

void cds_wfcq_init(struct cds_wfcq_head *head, struct cds_wfcq_tail *tail)
{
	cds_wfcq_i_init(head, tail);
}

void cds_wfcq_destroy(struct cds_wfcq_head *head, struct cds_wfcq_tail *tail)
{
	cds_wfcq_i_destroy(head, tail);
}

void __cds_wfcq_init(struct __cds_wfcq_head *head, struct cds_wfcq_tail *tail)
{
	cds_wfcq_i_init_nolock(head, tail);
}

bool cds_wfcq_empty(cds_wfcq_head_const_ptr_t head, const struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_empty(head, tail);
}

void cds_wfcq_dequeue_lock(struct cds_wfcq_head *head, struct cds_wfcq_tail *tail)
{
	cds_wfcq_i_dequeue_lock(head, tail);
}

void cds_wfcq_dequeue_unlock(struct cds_wfcq_head *head, struct cds_wfcq_tail *tail)
{
	cds_wfcq_i_dequeue_unlock(head, tail);
}

bool cds_wfcq_enqueue(cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node)
{
	return cds_wfcq_i_enqueue(head, tail, node);
}

struct cds_wfcq_node *cds_wfcq_dequeue_blocking(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_dequeue_blocking_locked(head, tail);
}

struct cds_wfcq_node *cds_wfcq_dequeue_with_state_blocking(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail, int *state)
{
	return cds_wfcq_i_dequeue_with_state_blocking_locked(head, tail, state);
}

enum cds_wfcq_ret cds_wfcq_splice_blocking(
		struct cds_wfcq_head *dest_q_head, struct cds_wfcq_tail *dest_q_tail,
		struct cds_wfcq_head *src_q_head, struct cds_wfcq_tail *src_q_tail)
{
	return cds_wfcq_i_splice_blocking_locked(dest_q_head, dest_q_tail,
			src_q_head, src_q_tail);
}

struct cds_wfcq_node *__cds_wfcq_dequeue_blocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_dequeue_blocking(head, tail);
}

struct cds_wfcq_node *__cds_wfcq_dequeue_with_state_blocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, int *state)
{
	return cds_wfcq_i_dequeue_with_state_blocking(head, tail, state);
}

struct cds_wfcq_node *__cds_wfcq_dequeue_nonblocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_dequeue_nonblocking(head, tail);
}

struct cds_wfcq_node *__cds_wfcq_dequeue_with_state_nonblocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, int *state)
{
	return cds_wfcq_i_dequeue_with_state_nonblocking(head, tail, state);
}

enum cds_wfcq_ret __cds_wfcq_splice_blocking(
		cds_wfcq_head_ptr_t dest_q_head, struct cds_wfcq_tail *dest_q_tail,
		cds_wfcq_head_ptr_t src_q_head, struct cds_wfcq_tail *src_q_tail)
{
	return cds_wfcq_i_splice_blocking(dest_q_head, dest_q_tail, src_q_head, src_q_tail);
}

enum cds_wfcq_ret __cds_wfcq_splice_nonblocking(
		cds_wfcq_head_ptr_t dest_q_head, struct cds_wfcq_tail *dest_q_tail,
		cds_wfcq_head_ptr_t src_q_head, struct cds_wfcq_tail *src_q_tail)
{
	return cds_wfcq_i_splice_nonblocking(dest_q_head, dest_q_tail, src_q_head, src_q_tail);
}

struct cds_wfcq_node *__cds_wfcq_first_blocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_first_blocking(head, tail);
}

struct cds_wfcq_node *__cds_wfcq_first_nonblocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return cds_wfcq_i_first_nonblocking(head, tail);
}

struct cds_wfcq_node *__cds_wfcq_next_blocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return cds_wfcq_i_next_blocking(head, tail, node);
}

struct cds_wfcq_node *__cds_wfcq_next_nonblocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return cds_wfcq_i_next_nonblocking(head, tail, node);
}
