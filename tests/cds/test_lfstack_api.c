// SPDX-License-Identifier: MIT
/*
 * The lock-free stack (urcu/lfstack.h), one thread: every function, its
 * return value, both stack types, the iteration macros (on NULL too), and
 * the 0.15 const / cast forms.  Built as C and as C++ (test_cxx.cpp), each
 * with and without _LGPL_SOURCE, so that the exported functions, the inline
 * ones and the C++ overloads all run.  Written in the common subset of C and
 * C++.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <urcu/lfstack.h>
#include <urcu/compiler.h>

#include "tap.h"
#include "cds-test.h"

/* _LGPL_SOURCE maps every name to its inline version, and only then. */
#if defined(cds_lfs_push) != T_CDS_MAPPED || defined(__cds_lfs_pop) != T_CDS_MAPPED \
	|| defined(cds_lfs_pop_all_blocking) != T_CDS_MAPPED \
	|| defined(__cds_lfs_init) != T_CDS_MAPPED
#error "_LGPL_SOURCE does not select the inline lfstack functions"
#endif

struct item {
	int value;
	struct cds_lfs_node node;
};

static struct item *to_item(struct cds_lfs_node *node)
{
	return caa_container_of(node, struct item, node);
}

/* Values of a pop_all result, top first, into out[]; returns how many. */
static int walk(struct cds_lfs_head *head, int *out, int max)
{
	struct cds_lfs_node *node;
	int n = 0;

	cds_lfs_for_each(head, node) {
		if (n < max)
			out[n] = to_item(node)->value;
		n++;
	}
	return n;
}

/* The same walk with the _safe form, unlinking each node as it goes. */
static int walk_safe(struct cds_lfs_head *head, int *out, int max)
{
	struct cds_lfs_node *node, *n;
	int count = 0;

	cds_lfs_for_each_safe(head, node, n) {
		node->next = NULL;	/* allowed: the next node was read first */
		if (count < max)
			out[count] = to_item(node)->value;
		count++;
	}
	return count;
}

static void test_unlocked(void)
{
	struct __cds_lfs_stack s;
	struct item it[4];
	struct cds_lfs_node *node;
	struct cds_lfs_head *head;
	int out[4] = { 0 };
	int i;

	__cds_lfs_init(&s);
	tap_ok(cds_lfs_empty(&s), "__cds_lfs_init: empty");
	tap_ok(__cds_lfs_pop(&s) == NULL, "__cds_lfs_pop of an empty stack is NULL");
	tap_ok(__cds_lfs_pop_all(&s) == NULL, "__cds_lfs_pop_all of an empty stack is NULL");
	for (i = 0; i < 4; i++) {
		it[i].value = i;
		cds_lfs_node_init(&it[i].node);
	}
	tap_ok(cds_lfs_push(&s, &it[0].node) == false, "push onto an empty stack returns false");
	tap_ok(cds_lfs_push(&s, &it[1].node) == true, "push onto a non-empty stack returns true");
	tap_ok(!cds_lfs_empty(&s), "not empty after pushes");
	node = __cds_lfs_pop(&s);
	tap_ok(node == &it[1].node, "pop returns the last pushed node (LIFO)");
	node = __cds_lfs_pop(&s);
	tap_ok(node == &it[0].node && cds_lfs_empty(&s), "then the first, and the stack is empty");
	tap_ok(cds_lfs_push(&s, &it[0].node) == false, "a popped node can be pushed again");

	for (i = 1; i < 4; i++)
		cds_lfs_push(&s, &it[i].node);
	head = __cds_lfs_pop_all(&s);
	tap_ok(head != NULL && cds_lfs_empty(&s), "pop_all takes everything");
	tap_ok(walk(head, out, 4) == 4 && out[0] == 3 && out[1] == 2 && out[2] == 1
		&& out[3] == 0, "cds_lfs_for_each walks top first: %d %d %d %d",
		out[0], out[1], out[2], out[3]);
	tap_ok(walk_safe(head, out, 4) == 4 && out[0] == 3 && out[3] == 0,
		"cds_lfs_for_each_safe walks all 4 while unlinking");
	tap_ok(walk(NULL, out, 4) == 0 && walk_safe(NULL, out, 4) == 0,
		"the iteration macros accept a NULL (empty) pop_all result");
}

static void test_locked(void)
{
	struct cds_lfs_stack s;
	struct item it[3];
	struct cds_lfs_node *node;
	struct cds_lfs_head *head;
	int out[3] = { 0 };
	int i;

	cds_lfs_init(&s);
	tap_ok(cds_lfs_empty(&s), "cds_lfs_init: empty");
	tap_ok(cds_lfs_pop_blocking(&s) == NULL, "cds_lfs_pop_blocking of an empty stack is NULL");
	tap_ok(cds_lfs_pop_all_blocking(&s) == NULL,
		"cds_lfs_pop_all_blocking of an empty stack is NULL");
	for (i = 0; i < 3; i++) {
		it[i].value = 10 + i;
		cds_lfs_node_init(&it[i].node);
		tap_ok(cds_lfs_push(&s, &it[i].node) == (i != 0),
			"push %d onto the locked stack returns %s", i, i ? "true" : "false");
	}
	node = cds_lfs_pop_blocking(&s);
	tap_ok(node == &it[2].node, "cds_lfs_pop_blocking returns the top");

	cds_lfs_pop_lock(&s);
	node = __cds_lfs_pop(&s);
	cds_lfs_pop_unlock(&s);
	tap_ok(node == &it[1].node, "__cds_lfs_pop under cds_lfs_pop_lock");
	cds_lfs_push(&s, &it[1].node);
	head = cds_lfs_pop_all_blocking(&s);
	tap_ok(walk(head, out, 3) == 2 && out[0] == 11 && out[1] == 10,
		"cds_lfs_pop_all_blocking returns both remaining nodes");
	tap_ok(cds_lfs_empty(&s), "empty at the end");
	cds_lfs_destroy(&s);
}

/*
 * liburcu 0.15 forms: a const stack for cds_lfs_empty, and the cast helpers
 * (C++ overloads; identity macros in C) in a program shared with C++.
 */
static void test_const_and_casts(void)
{
	struct cds_lfs_stack s;
	struct __cds_lfs_stack us;
	const struct cds_lfs_stack *cs = &s;
	const struct __cds_lfs_stack *cus = &us;
	struct item a, b;

	cds_lfs_init(&s);
	__cds_lfs_init(&us);
	tap_ok(cds_lfs_empty(cs) && cds_lfs_empty(cus), "cds_lfs_empty accepts const stacks");
	tap_ok(cds_lfs_empty(cds_lfs_stack_const_cast(cs))
		&& cds_lfs_empty(cds_lfs_stack_const_cast(cus)), "cds_lfs_stack_const_cast");
	cds_lfs_node_init(&a.node);
	cds_lfs_node_init(&b.node);
	tap_ok(!cds_lfs_push(cds_lfs_stack_cast(&s), &a.node)
		&& !cds_lfs_push(cds_lfs_stack_cast(&us), &b.node), "cds_lfs_stack_cast for push");
	tap_ok(__cds_lfs_pop(cds_lfs_stack_cast(&s)) == &a.node
		&& __cds_lfs_pop_all(cds_lfs_stack_cast(&us)) == (struct cds_lfs_head *) &b.node,
		"cds_lfs_stack_cast for pop and pop_all");
	cds_lfs_destroy(&s);
}

int main(void)
{
	tap_diag("lfstack API, %s, %s", T_CDS_LANG, T_CDS_MODE);
	test_unlocked();
	test_locked();
	test_const_and_casts();
	return tap_done();
}
