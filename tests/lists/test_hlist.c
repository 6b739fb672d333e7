// SPDX-License-Identifier: MIT
/*
 * Single-threaded checks of every <urcu/hlist.h> and <urcu/rcuhlist.h>
 * primitive: order after insertions, removal of the first, a middle and the
 * last node, each iterator form (liburcu's 4/5-argument ones and the
 * kernel-style _2 ones), iteration with removal, and the _rcu updates
 * including the removed node's intact next pointer.  Every list is also
 * checked for consistent prev links.
 */
#include <stdlib.h>
#include <string.h>
#include <urcu/hlist.h>
#include <urcu/rcuhlist.h>
#define LIST_ITEM_NODE struct cds_hlist_node
#include "list-items.h"

/* Keys front to back, "-" when empty, "BROKEN" when a prev link is wrong. */
static const char *keys(struct cds_hlist_head *head)
{
	static char buf[256];
	struct cds_hlist_node *pos, *prev = (struct cds_hlist_node *) (void *) head;
	size_t len = 0;
	int steps = 0;

	buf[0] = '\0';
	for (pos = head->next; pos; prev = pos, pos = pos->next) {
		if (pos->prev != prev || ++steps > 32)
			return "BROKEN";
		len = key_append(buf, sizeof(buf), len,
				cds_hlist_entry(pos, struct item, node)->key);
	}
	return len ? buf : "-";
}

/* Build the list k[0] k[1] ... (front to back) from a -1 terminated array. */
static void fill(struct cds_hlist_head *head, const int *k)
{
	int n = 0;

	CDS_INIT_HLIST_HEAD(head);
	while (k[n] >= 0)
		n++;
	while (n--)
		cds_hlist_add_head(&items[k[n]].node, head);
}

static CDS_HLIST_HEAD(static_head);

static void test_basic(void)
{
	struct cds_hlist_head init_head = CDS_HLIST_HEAD_INIT(init_head);
	struct cds_hlist_head head;
	struct cds_hlist_node *no_node = NULL;

	init_items();
	tap_ok(static_head.next == NULL, "CDS_HLIST_HEAD defines an empty list");
	tap_ok(init_head.next == NULL, "CDS_HLIST_HEAD_INIT initialises an empty list");
	head.next = &items[0].node;
	CDS_INIT_HLIST_HEAD(&head);
	tap_ok(head.next == NULL, "CDS_INIT_HLIST_HEAD empties a head");

	cds_hlist_add_head(&items[1].node, &head);
	cds_hlist_add_head(&items[2].node, &head);
	cds_hlist_add_head(&items[3].node, &head);
	CHECK_KEYS(&head, "3 2 1", "cds_hlist_add_head inserts at the front");
	tap_ok(items[3].node.prev == (struct cds_hlist_node *) (void *) &head,
	       "the first node's prev is the head");

	cds_hlist_del(&items[2].node);
	CHECK_KEYS(&head, "3 1", "cds_hlist_del of a middle node");
	cds_hlist_del(&items[3].node);
	CHECK_KEYS(&head, "1", "cds_hlist_del of the first node");
	cds_hlist_add_head(&items[4].node, &head);
	cds_hlist_del(&items[1].node);
	CHECK_KEYS(&head, "4", "cds_hlist_del of the last node");
	cds_hlist_del(&items[4].node);
	tap_ok(head.next == NULL, "deleting the only node empties the list");

	tap_ok(cds_hlist_entry(&items[5].node, struct item, node) == &items[5],
	       "cds_hlist_entry recovers the element");
	tap_ok(cds_hlist_entry_safe(&items[5].node, struct item, node) == &items[5]
	       && cds_hlist_entry_safe(no_node, struct item, node) == NULL,
	       "cds_hlist_entry_safe maps NULL to NULL");
}

static void test_iterators(void)
{
	static const int k[] = { 1, 2, 3, 4, -1 };
	struct cds_hlist_head head, empty;
	struct cds_hlist_node *pos, *p;
	struct item *it, *e;
	int n, order_ok;

	init_items();
	fill(&head, k);
	CHECK_KEYS(&head, "1 2 3 4", "test list built");
	CDS_INIT_HLIST_HEAD(&empty);

	n = 0;
	order_ok = 1;
	cds_hlist_for_each(pos, &head)
		order_ok &= cds_hlist_entry(pos, struct item, node)->key == ++n;
	tap_ok(n == 4 && order_ok, "cds_hlist_for_each visits 1..4");

	n = 0;
	order_ok = 1;
	cds_hlist_for_each_entry(it, pos, &head, node)
		order_ok &= it->key == ++n;
	tap_ok(n == 4 && order_ok, "cds_hlist_for_each_entry (4 args) visits 1..4");
	tap_ok(pos == NULL, "cds_hlist_for_each_entry ends with pos NULL");

	n = 0;
	order_ok = 1;
	cds_hlist_for_each_entry_2(it, &head, node)
		order_ok &= it->key == ++n;
	tap_ok(n == 4 && order_ok && it == NULL,
	       "cds_hlist_for_each_entry_2 visits 1..4 and ends NULL");

	n = 0;
	cds_hlist_for_each(pos, &empty)
		n++;
	cds_hlist_for_each_entry(it, pos, &empty, node)
		n++;
	cds_hlist_for_each_entry_2(it, &empty, node)
		n++;
	tap_ok(n == 0, "iterating an empty hlist runs no body");

	cds_hlist_for_each_safe(pos, p, &head) {
		if (cds_hlist_entry(pos, struct item, node)->key & 1) {
			cds_hlist_del(pos);
			pos->next = pos->prev = NULL;	/* a stale read would crash */
		}
	}
	CHECK_KEYS(&head, "2 4", "cds_hlist_for_each_safe with deletion");

	fill(&head, k);
	cds_hlist_for_each_entry_safe(it, pos, p, &head, node) {
		if (!(it->key & 1)) {
			cds_hlist_del(&it->node);
			it->node.next = it->node.prev = NULL;
		}
	}
	CHECK_KEYS(&head, "1 3", "cds_hlist_for_each_entry_safe (5 args) with deletion");

	fill(&head, k);
	n = 0;
	cds_hlist_for_each_entry_safe_2(it, e, &head, node) {
		n++;
		cds_hlist_del(&it->node);
		it->node.next = it->node.prev = NULL;
	}
	tap_ok(n == 4 && head.next == NULL,
	       "cds_hlist_for_each_entry_safe_2 deletes every node");
}

static void test_rcu(void)
{
	struct cds_hlist_head head;
	struct cds_hlist_node *pos;
	struct item *it;
	int n, order_ok;

	init_items();
	CDS_INIT_HLIST_HEAD(&head);
	cds_hlist_add_head_rcu(&items[3].node, &head);
	cds_hlist_add_head_rcu(&items[2].node, &head);
	cds_hlist_add_head_rcu(&items[1].node, &head);
	CHECK_KEYS(&head, "1 2 3", "cds_hlist_add_head_rcu inserts at the front");

	cds_hlist_del_rcu(&items[2].node);
	CHECK_KEYS(&head, "1 3", "cds_hlist_del_rcu of a middle node");
	tap_ok(items[2].node.next == &items[3].node,
	       "cds_hlist_del_rcu keeps the removed node's next pointer");
	cds_hlist_del_rcu(&items[1].node);
	CHECK_KEYS(&head, "3", "cds_hlist_del_rcu of the first node");
	cds_hlist_add_head_rcu(&items[5].node, &head);
	cds_hlist_del_rcu(&items[3].node);
	CHECK_KEYS(&head, "5", "cds_hlist_del_rcu of the last node");
	cds_hlist_add_head_rcu(&items[4].node, &head);

	n = 0;
	cds_hlist_for_each_rcu(pos, &head)
		n++;
	tap_ok(n == 2, "cds_hlist_for_each_rcu counts 2 nodes");
	n = 0;
	order_ok = 1;
	cds_hlist_for_each_entry_rcu(it, pos, &head, node)
		order_ok &= it->key == (n++ ? 5 : 4);
	tap_ok(n == 2 && order_ok && pos == NULL,
	       "cds_hlist_for_each_entry_rcu (4 args) visits 4 5");
	n = 0;
	order_ok = 1;
	cds_hlist_for_each_entry_rcu_2(it, &head, node)
		order_ok &= it->key == (n++ ? 5 : 4);
	tap_ok(n == 2 && order_ok && it == NULL,
	       "cds_hlist_for_each_entry_rcu_2 visits 4 5 and ends NULL");
}

int main(void)
{
	test_basic();
	test_iterators();
	test_rcu();
	return tap_done();
}
