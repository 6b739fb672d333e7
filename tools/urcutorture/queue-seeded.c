/* SPDX-License-Identifier: MIT */
/*
 * The queue mode's seeded wfstack bug (test-only): the structure
 * busted-wfstack of --structures is the library's wfstack with this pop in
 * place of __cds_wfs_pop_blocking.  Like the busted flavors it lives in the
 * tool, not in the library: the library and its installed headers stay as
 * they are, and only a run that names it uses it.
 *
 * The bug.  A push is an exchange of the head (the node becomes the top)
 * followed by a store of the node's next (the link to the node below);
 * between the two, next is NULL.  The library's pop waits there (or, in the
 * nonblocking form, says "would block").  This pop takes a NULL next for the
 * bottom of the stack: its compare-and-swap sets the head to the end marker
 * and returns the half-pushed node, so every node that was below it is cut
 * off the stack for good (the pusher's late store links them to a node that
 * is no longer in the stack).  The queue mode's final drain then finds fewer
 * nodes than were pushed and not popped: lost_node.
 *
 * (The half-pushed node itself goes to a consumer, which retires it through
 * call_rcu while its pusher may not have stored its link yet: the queue mode
 * pushes to busted-wfstack inside a read-side section, so that late store
 * never lands in freed memory and the bug stays a lost-node failure rather
 * than a crash.)
 *
 * Reaching the bug needs a pop between a pusher's exchange and its store, a
 * few instructions; producers and consumers running on several CPUs hit it
 * within a second or two (tests/torture/check-cds.py, check "seeded").
 */
#include <urcu/wfstack.h>
#include <urcu/static/wfstack.h>	/* CDS_WFS_END: the library's bottom marker */

#include "queue-seeded.h"

bool ut_wfs_is_end(const void *p)
{
	return p == (const void *)CDS_WFS_END;
}

struct cds_wfs_node *ut_seeded_wfs_pop(struct __cds_wfs_stack *s)
{
	for (;;) {
		/* Acquire: pairs with the push's exchange (its full barrier). */
		struct cds_wfs_head *top = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
		/* Acquire: pairs with the pusher's release store of next. */
		struct cds_wfs_node *next;

		if (ut_wfs_is_end(top))
			return NULL;
		next = __atomic_load_n(&top->node.next, __ATOMIC_ACQUIRE);
		if (!next)
			next = (struct cds_wfs_node *)CDS_WFS_END;	/* THE BUG: no wait */
		/* Full barrier, as the library's pop. */
		if (__atomic_compare_exchange_n(&s->head, &top, (struct cds_wfs_head *)next, false,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			return &top->node;
	}
}
