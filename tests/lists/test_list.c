// SPDX-License-Identifier: MIT
/*
 * Single-threaded checks of every <urcu/list.h> and <urcu/rculist.h>
 * primitive: the element order after each update (read front to back with
 * one iterator and back to front with another), emptiness, iteration with
 * removal, and that the _rcu updates leave the same lists as the plain ones.
 * Every list is also checked for consistent next/prev links.
 */
#include <stdlib.h>
#include <string.h>
#include <urcu/list.h>
#include <urcu/rculist.h>
#define LIST_ITEM_NODE struct cds_list_head
#include "list-items.h"

/*
 * Keys front to back as "k k k" (or "-" when empty), or "BROKEN" when a
 * next/prev pair disagrees or the walk does not come back to the head.
 */
static const char *keys(struct cds_list_head *head)
{
	static char buf[256];
	struct cds_list_head *pos;
	size_t len = 0;
	int steps = 0;

	buf[0] = '\0';
	for (pos = head->next; pos != head; pos = pos->next) {
		if (pos->next->prev != pos || pos->prev->next != pos || ++steps > 32)
			return "BROKEN";
		len = key_append(buf, sizeof(buf), len,
				cds_list_entry(pos, struct item, node)->key);
	}
	if (head->next->prev != head || head->prev->next != head)
		return "BROKEN";
	return len ? buf : "-";
}

/* Keys back to front with cds_list_for_each_entry_reverse(). */
static const char *keys_reverse(struct cds_list_head *head)
{
	static char buf[256];
	struct item *it;
	size_t len = 0;

	buf[0] = '\0';
	cds_list_for_each_entry_reverse(it, head, node)
		len = key_append(buf, sizeof(buf), len, it->key);
	return len ? buf : "-";
}

/* Append items[k] for each k in the -1 terminated list. */
static void fill(struct cds_list_head *head, const int *k)
{
	CDS_INIT_LIST_HEAD(head);
	for (; *k >= 0; k++)
		cds_list_add_tail(&items[*k].node, head);
}

static CDS_LIST_HEAD(static_head);

static void test_init_add(void)
{
	struct cds_list_head init_head = CDS_LIST_HEAD_INIT(init_head);
	struct cds_list_head head;

	init_items();
	tap_ok(cds_list_empty(&static_head) && static_head.prev == &static_head,
	       "CDS_LIST_HEAD defines an empty list");
	tap_ok(cds_list_empty(&init_head) && init_head.prev == &init_head,
	       "CDS_LIST_HEAD_INIT initialises an empty list");
	CDS_INIT_LIST_HEAD(&head);
	tap_ok(cds_list_empty(&head) && head.prev == &head,
	       "CDS_INIT_LIST_HEAD makes an empty list");

	cds_list_add(&items[1].node, &head);
	tap_ok(!cds_list_empty(&head), "not empty after cds_list_add");
	cds_list_add(&items[2].node, &head);
	cds_list_add(&items[3].node, &head);
	CHECK_KEYS(&head, "3 2 1", "cds_list_add inserts at the front");
	cds_list_add_tail(&items[4].node, &head);
	cds_list_add_tail(&items[5].node, &head);
	CHECK_KEYS(&head, "3 2 1 4 5", "cds_list_add_tail appends");
	tap_ok(strcmp(keys_reverse(&head), "5 4 1 2 3") == 0,
	       "cds_list_for_each_entry_reverse walks back to front");
	/* cds_list_add after an element inserts in the middle */
	cds_list_add(&items[6].node, &items[1].node);
	CHECK_KEYS(&head, "3 2 1 6 4 5", "cds_list_add after an element");
	tap_ok(cds_list_first_entry(&head, struct item, node) == &items[3],
	       "cds_list_first_entry is the front element");
	tap_ok(cds_list_entry(&items[6].node, struct item, node) == &items[6],
	       "cds_list_entry recovers the element");
}

static void test_iterators(void)
{
	static const int k[] = { 1, 2, 3, 4, -1 };
	struct cds_list_head head, *pos, *p;
	struct item *it, *tmp;
	int sum, order_ok, n;

	init_items();
	fill(&head, k);

	sum = 0;
	order_ok = 1;
	n = 0;
	cds_list_for_each(pos, &head) {
		n++;
		order_ok &= cds_list_entry(pos, struct item, node)->key == n;
		sum++;
	}
	tap_ok(sum == 4 && order_ok, "cds_list_for_each visits 1..4 in order");

	n = 5;
	order_ok = 1;
	cds_list_for_each_prev(pos, &head)
		order_ok &= cds_list_entry(pos, struct item, node)->key == --n;
	tap_ok(n == 1 && order_ok, "cds_list_for_each_prev visits 4..1");

	n = 0;
	order_ok = 1;
	cds_list_for_each_entry(it, &head, node)
		order_ok &= it->key == ++n;
	tap_ok(n == 4 && order_ok, "cds_list_for_each_entry visits 1..4");

	/* removal of every odd key while iterating forward */
	cds_list_for_each_safe(pos, p, &head) {
		if (cds_list_entry(pos, struct item, node)->key & 1) {
			cds_list_del(pos);
			pos->next = pos->prev = NULL;	/* a stale read would crash */
		}
	}
	CHECK_KEYS(&head, "2 4", "cds_list_for_each_safe with deletion");

	fill(&head, k);
	cds_list_for_each_prev_safe(pos, p, &head) {
		if (!(cds_list_entry(pos, struct item, node)->key & 1)) {
			cds_list_del(pos);
			pos->next = pos->prev = NULL;
		}
	}
	CHECK_KEYS(&head, "1 3", "cds_list_for_each_prev_safe with deletion");

	fill(&head, k);
	n = 0;
	cds_list_for_each_entry_safe(it, tmp, &head, node) {
		n++;
		cds_list_del(&it->node);
		it->node.next = it->node.prev = NULL;
	}
	tap_ok(n == 4 && cds_list_empty(&head),
	       "cds_list_for_each_entry_safe deletes every element");

	fill(&head, k);
	it = &items[3];
	n = 0;
	cds_list_for_each_entry_safe_from(it, tmp, &head, node) {
		n += it->key;
		cds_list_del(&it->node);
		it->node.next = it->node.prev = NULL;
	}
	tap_ok(n == 3 + 4, "cds_list_for_each_entry_safe_from starts at its element");
	CHECK_KEYS(&head, "1 2", "cds_list_for_each_entry_safe_from with deletion");

	CDS_INIT_LIST_HEAD(&head);
	n = 0;
	cds_list_for_each_entry(it, &head, node)
		n++;
	cds_list_for_each_entry_reverse(it, &head, node)
		n++;
	tap_ok(n == 0, "iterating an empty list runs no body");
}

static void test_del_move_replace(void)
{
	static const int k[] = { 1, 2, 3, 4, -1 };
	static const int k2[] = { 7, 8, -1 };
	struct cds_list_head head, other;

	init_items();
	fill(&head, k);
	cds_list_del(&items[2].node);
	CHECK_KEYS(&head, "1 3 4", "cds_list_del of a middle element");
	cds_list_del(&items[1].node);
	cds_list_del(&items[4].node);
	CHECK_KEYS(&head, "3", "cds_list_del of the first and last");
	cds_list_del_init(&items[3].node);
	tap_ok(cds_list_empty(&head), "list empty after deleting all");
	tap_ok(cds_list_empty(&items[3].node),
	       "cds_list_del_init leaves the element an empty list");

	fill(&head, k);
	fill(&other, k2);
	cds_list_move(&items[3].node, &other);
	CHECK_KEYS(&head, "1 2 4", "cds_list_move removes from the source");
	CHECK_KEYS(&other, "3 7 8", "cds_list_move inserts at the target's front");
	cds_list_move(&items[4].node, &items[8].node);
	CHECK_KEYS(&other, "3 7 8 4", "cds_list_move after an element");

	fill(&head, k);
	cds_list_replace(&items[2].node, &items[9].node);
	CHECK_KEYS(&head, "1 9 3 4", "cds_list_replace in the middle");
	cds_list_replace(&items[1].node, &items[10].node);
	cds_list_replace(&items[4].node, &items[11].node);
	CHECK_KEYS(&head, "10 9 3 11", "cds_list_replace at both ends");
	cds_list_replace_init(&items[3].node, &items[12].node);
	CHECK_KEYS(&head, "10 9 12 11", "cds_list_replace_init");
	tap_ok(cds_list_empty(&items[3].node),
	       "cds_list_replace_init leaves the old element an empty list");

	CDS_INIT_LIST_HEAD(&head);
	cds_list_add(&items[1].node, &head);
	cds_list_replace(&items[1].node, &items[2].node);
	CHECK_KEYS(&head, "2", "cds_list_replace of the only element");
}

static void test_splice_cut(void)
{
	static const int ka[] = { 1, 2, 3, -1 };
	static const int kb[] = { 4, 5, -1 };
	static const int k5[] = { 1, 2, 3, 4, 5, -1 };
	struct cds_list_head a, b, cut, empty;

	init_items();
	fill(&a, ka);
	fill(&b, kb);
	cds_list_splice(&a, &b);
	CHECK_KEYS(&b, "1 2 3 4 5", "cds_list_splice puts add in front of head");
	tap_ok(strcmp(keys_reverse(&b), "5 4 3 2 1") == 0,
	       "spliced list walks back correctly");

	CDS_INIT_LIST_HEAD(&empty);
	cds_list_splice(&empty, &b);
	CHECK_KEYS(&b, "1 2 3 4 5", "splicing an empty list changes nothing");
	CHECK_KEYS(&empty, "-", "the empty list spliced stays empty");

	fill(&a, ka);
	CDS_INIT_LIST_HEAD(&b);
	cds_list_splice(&a, &b);
	CHECK_KEYS(&b, "1 2 3", "splicing into an empty list");

	fill(&a, k5);
	cds_list_cut_position(&cut, &a, &items[3].node);
	CHECK_KEYS(&cut, "1 2 3", "cds_list_cut_position: the cut part");
	CHECK_KEYS(&a, "4 5", "cds_list_cut_position: what remains");
	cds_list_cut_position(&cut, &a, &items[5].node);
	CHECK_KEYS(&cut, "4 5", "cutting at the last element takes everything");
	tap_ok(cds_list_empty(&a), "...and leaves the source empty");
	fill(&a, ka);
	cds_list_cut_position(&cut, &a, &a);
	tap_ok(cds_list_empty(&cut), "cutting at the head itself yields an empty list");
	CHECK_KEYS(&a, "1 2 3", "...and leaves the source whole");
	cds_list_cut_position(&cut, &empty, &empty);
	tap_ok(cds_list_empty(&cut) && cds_list_empty(&empty),
	       "cutting an empty list");
}

static void test_rcu_updates(void)
{
	struct cds_list_head head, *pos;
	struct item *it;
	int n, order_ok;

	init_items();
	CDS_INIT_LIST_HEAD(&head);
	cds_list_add_rcu(&items[2].node, &head);
	cds_list_add_rcu(&items[1].node, &head);
	cds_list_add_tail_rcu(&items[3].node, &head);
	cds_list_add_tail_rcu(&items[4].node, &head);
	CHECK_KEYS(&head, "1 2 3 4", "cds_list_add_rcu / cds_list_add_tail_rcu");

	cds_list_replace_rcu(&items[3].node, &items[7].node);
	CHECK_KEYS(&head, "1 2 7 4", "cds_list_replace_rcu");
	tap_ok(items[3].node.next == &items[4].node,
	       "the replaced element still leads on into the list");

	cds_list_del_rcu(&items[2].node);
	CHECK_KEYS(&head, "1 7 4", "cds_list_del_rcu");
	tap_ok(items[2].node.next == &items[7].node,
	       "cds_list_del_rcu keeps the removed element's next pointer");
	cds_list_del_rcu(&items[1].node);
	cds_list_del_rcu(&items[4].node);
	CHECK_KEYS(&head, "7", "cds_list_del_rcu of first and last");

	cds_list_add_tail_rcu(&items[8].node, &head);
	n = 0;
	cds_list_for_each_rcu(pos, &head)
		n++;
	tap_ok(n == 2, "cds_list_for_each_rcu counts 2 elements");
	n = 0;
	order_ok = 1;
	cds_list_for_each_entry_rcu(it, &head, node) {
		static const int expect[] = { 7, 8 };

		order_ok &= n < 2 && it->key == expect[n];
		n++;
	}
	tap_ok(n == 2 && order_ok, "cds_list_for_each_entry_rcu visits 7 8");
}

int main(void)
{
	test_init_add();
	test_iterators();
	test_del_move_replace();
	test_splice_cut();
	test_rcu_updates();
	return tap_done();
}
