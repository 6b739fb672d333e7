// SPDX-License-Identifier: MIT
/*
 * The elements test_list.c and test_hlist.c build their lists from, and how
 * both spell a list in a check.  Define LIST_ITEM_NODE, the node type of the
 * list under test (struct cds_list_head, struct cds_hlist_node), before
 * including this.  Each test defines its own keys(head): the list's keys
 * front to back, built with key_append(), "-" when empty, "BROKEN" when the
 * links disagree; CHECK_KEYS compares that text with the expected one.
 */
#ifndef LIST_ITEMS_H
#define LIST_ITEMS_H

#include <stdio.h>
#include <string.h>
#include "tap.h"

#define LIST_ITEMS 16

struct item {
	int key;
	LIST_ITEM_NODE node;
};

static struct item items[LIST_ITEMS];

/* Every item unlinked (its node zeroed), with items[i].key == i. */
static void init_items(void)
{
	int i;

	memset(items, 0, sizeof(items));
	for (i = 0; i < LIST_ITEMS; i++)
		items[i].key = i;
}

/*
 * Appends KEY to the text in BUF (SIZE bytes, LEN characters so far), after
 * a space unless it is the first key; returns the new length.
 */
static size_t key_append(char *buf, size_t size, size_t len, int key)
{
	return len + (size_t) snprintf(buf + len, size - len, "%s%d", len ? " " : "", key);
}

#define CHECK_KEYS(head, expect, what)					\
	tap_ok(strcmp(keys(head), expect) == 0,				\
	       "%s: \"%s\" (expected \"%s\")", what, keys(head), expect)

#endif /* LIST_ITEMS_H */
