// SPDX-License-Identifier: MIT
/*
 * The stack with wait-free push (urcu/wfstack.h), one thread: every function,
 * return value and state flag, both stack types, pop_all with first/next and
 * the iteration macros, and the non-blocking forms facing a push left half
 * done (its exchange made, its link not yet stored -- done by hand on the
 * public structure).  Built as C and as C++, with and without _LGPL_SOURCE;
 * written in the common subset of C and C++.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <urcu/wfstack.h>
#include <urcu/compiler.h>
#include <urcu/uatomic.h>

#include "tap.h"
#include "cds-test.h"

#if defined(cds_wfs_push) != T_CDS_MAPPED || defined(__cds_wfs_pop_blocking) != T_CDS_MAPPED \
	|| defined(cds_wfs_next_nonblocking) != T_CDS_MAPPED \
	|| defined(__cds_wfs_pop_all) != T_CDS_MAPPED
#error "_LGPL_SOURCE does not select the inline wfstack functions"
#endif

struct item {
	int value;
	struct cds_wfs_node node;
};

static struct item *to_item(struct cds_wfs_node *node)
{
	return caa_container_of(node, struct item, node);
}

static void test_unlocked(void)
{
	struct __cds_wfs_stack s;
	struct item it[4];
	struct cds_wfs_node *node, *n;
	struct cds_wfs_head *head;
	int state = -1, i, count, order_ok;

	__cds_wfs_init(&s);
	tap_ok(cds_wfs_empty(&s), "__cds_wfs_init: empty");
	tap_ok(__cds_wfs_pop_blocking(&s) == NULL, "blocking pop of an empty stack is NULL");
	tap_ok(__cds_wfs_pop_nonblocking(&s) == NULL, "non-blocking pop of an empty stack is NULL");
	node = __cds_wfs_pop_with_state_blocking(&s, &state);
	tap_ok(node == NULL && state == 0, "pop with state of an empty stack: NULL, state 0");
	tap_ok(__cds_wfs_pop_all(&s) == NULL, "pop_all of an empty stack is NULL");
	tap_ok(cds_wfs_first(NULL) == NULL, "cds_wfs_first(NULL) is NULL");

	for (i = 0; i < 4; i++) {
		it[i].value = i;
		cds_wfs_node_init(&it[i].node);
	}
	tap_ok(cds_wfs_push(&s, &it[0].node) == 0, "push onto an empty stack returns 0");
	tap_ok(cds_wfs_push(&s, &it[1].node) != 0, "push onto a non-empty stack returns non-zero");
	cds_wfs_push(&s, &it[2].node);
	node = __cds_wfs_pop_with_state_blocking(&s, &state);
	tap_ok(node == &it[2].node && state == 0, "pop with state: top node, not last");
	node = __cds_wfs_pop_with_state_nonblocking(&s, &state);
	tap_ok(node == &it[1].node && state == 0, "non-blocking pop with state: next node");
	node = __cds_wfs_pop_with_state_nonblocking(&s, &state);
	tap_ok(node == &it[0].node && state == CDS_WFS_STATE_LAST,
		"popping the last node reports CDS_WFS_STATE_LAST");
	tap_ok(cds_wfs_empty(&s), "empty again");
	/* Push does not require cds_wfs_node_init() again: it resets next. */
	tap_ok(cds_wfs_push(&s, &it[2].node) == 0, "a popped node pushed again without init");
	tap_ok(__cds_wfs_pop_nonblocking(&s) == &it[2].node, "and popped once more");

	for (i = 0; i < 4; i++)
		cds_wfs_push(&s, &it[i].node);
	head = __cds_wfs_pop_all(&s);
	tap_ok(head != NULL && cds_wfs_empty(&s), "pop_all takes everything");
	count = 0;
	order_ok = 1;
	cds_wfs_for_each_blocking(head, node) {
		if (to_item(node)->value != 3 - count)
			order_ok = 0;
		count++;
	}
	tap_ok(count == 4 && order_ok, "cds_wfs_for_each_blocking: 4 nodes top first");
	count = 0;
	cds_wfs_for_each_blocking_safe(head, node, n) {
		node->next = NULL;	/* the next node was read before */
		count++;
	}
	tap_ok(count == 4, "cds_wfs_for_each_blocking_safe visits 4 while unlinking");
	count = 0;
	cds_wfs_for_each_blocking((struct cds_wfs_head *) NULL, node)
		count++;
	tap_ok(count == 0, "the iteration macros accept a NULL pop_all result");
}

/*
 * A pusher preempted between its exchange and its link: build that state by
 * hand (the head points to the new node, whose next is still NULL) and check
 * what each consumer-side function does, then finish the push.
 */
static void test_half_done_push(void)
{
	struct __cds_wfs_stack s;
	struct item a, b;
	struct cds_wfs_head *old, *head;
	struct cds_wfs_node *node;
	int state = -1;

	__cds_wfs_init(&s);
	cds_wfs_node_init(&a.node);
	cds_wfs_node_init(&b.node);
	cds_wfs_push(&s, &a.node);
	/* Step 1 of pushing b: the exchange. */
	old = uatomic_xchg(&s.head, (struct cds_wfs_head *) &b.node);
	tap_ok(!cds_wfs_empty(&s), "half-pushed: not empty");
	tap_ok(__cds_wfs_pop_nonblocking(&s) == CDS_WFS_WOULDBLOCK,
		"non-blocking pop returns CDS_WFS_WOULDBLOCK");
	node = __cds_wfs_pop_with_state_nonblocking(&s, &state);
	tap_ok(node == CDS_WFS_WOULDBLOCK && state == 0,
		"non-blocking pop with state: CDS_WFS_WOULDBLOCK, state 0");
	tap_ok(s.head == (struct cds_wfs_head *) &b.node, "the stack is unchanged after refusals");

	/* The same half-done push seen by an iteration over pop_all. */
	head = __cds_wfs_pop_all(&s);
	tap_ok(cds_wfs_first(head) == &b.node, "pop_all of a half-pushed stack: first is b");
	tap_ok(cds_wfs_next_nonblocking(&b.node) == CDS_WFS_WOULDBLOCK,
		"cds_wfs_next_nonblocking on the unlinked node: CDS_WFS_WOULDBLOCK");
	/* Step 2: the link. */
	uatomic_store(&b.node.next, (struct cds_wfs_node *) old, CMM_RELEASE);
	tap_ok(cds_wfs_next_nonblocking(&b.node) == &a.node, "once linked, next is a");
	tap_ok(cds_wfs_next_blocking(&a.node) == NULL
		&& cds_wfs_next_nonblocking(&a.node) == NULL, "next of the bottom node is NULL");
	tap_ok(cds_wfs_empty(&s), "the stack itself is empty after pop_all");
}

static void test_locked(void)
{
	struct cds_wfs_stack s;
	struct item it[3];
	struct cds_wfs_node *node;
	struct cds_wfs_head *head;
	int state = -1, i;

	cds_wfs_init(&s);
	tap_ok(cds_wfs_pop_blocking(&s) == NULL, "cds_wfs_pop_blocking of an empty stack is NULL");
	tap_ok(cds_wfs_pop_with_state_blocking(&s, &state) == NULL && state == 0,
		"cds_wfs_pop_with_state_blocking of an empty stack: NULL, state 0");
	tap_ok(cds_wfs_pop_all_blocking(&s) == NULL, "cds_wfs_pop_all_blocking of empty is NULL");
	for (i = 0; i < 3; i++) {
		it[i].value = i;
		cds_wfs_node_init(&it[i].node);
		cds_wfs_push(&s, &it[i].node);
	}
	tap_ok(cds_wfs_pop_blocking(&s) == &it[2].node, "cds_wfs_pop_blocking returns the top");
	cds_wfs_pop_lock(&s);
	node = __cds_wfs_pop_blocking(&s);
	cds_wfs_pop_unlock(&s);
	tap_ok(node == &it[1].node, "__cds_wfs_pop_blocking under cds_wfs_pop_lock");
	node = cds_wfs_pop_with_state_blocking(&s, &state);
	tap_ok(node == &it[0].node && state == CDS_WFS_STATE_LAST,
		"cds_wfs_pop_with_state_blocking reports the last node");
	cds_wfs_push(&s, &it[0].node);
	cds_wfs_push(&s, &it[1].node);
	head = cds_wfs_pop_all_blocking(&s);
	node = cds_wfs_first(head);
	tap_ok(node == &it[1].node && to_item(cds_wfs_next_blocking(node))->value == 0,
		"cds_wfs_pop_all_blocking, then first and next");
	cds_wfs_destroy(&s);
}

static void test_const_and_casts(void)
{
	struct cds_wfs_stack s;
	struct __cds_wfs_stack us;
	const struct cds_wfs_stack *cs = &s;
	const struct __cds_wfs_stack *cus = &us;
	struct item a, b;

	cds_wfs_init(&s);
	__cds_wfs_init(&us);
	tap_ok(cds_wfs_empty(cs) && cds_wfs_empty(cus), "cds_wfs_empty accepts const stacks");
	tap_ok(cds_wfs_empty(cds_wfs_stack_const_cast(cs))
		&& cds_wfs_empty(cds_wfs_stack_const_cast(cus)), "cds_wfs_stack_const_cast");
	cds_wfs_node_init(&a.node);
	cds_wfs_node_init(&b.node);
	tap_ok(cds_wfs_push(cds_wfs_stack_cast(&s), &a.node) == 0
		&& cds_wfs_push(cds_wfs_stack_cast(&us), &b.node) == 0, "cds_wfs_stack_cast");
	tap_ok(__cds_wfs_pop_nonblocking(cds_wfs_stack_cast(&s)) == &a.node
		&& __cds_wfs_pop_all(cds_wfs_stack_cast(&us)) == (struct cds_wfs_head *) &b.node,
		"cds_wfs_stack_cast for pop and pop_all");
	cds_wfs_destroy(&s);
}

int main(void)
{
	tap_diag("wfstack API, %s, %s", T_CDS_LANG, T_CDS_MODE);
	test_unlocked();
	test_half_done_push();
	test_locked();
	test_const_and_casts();
	return tap_done();
}
