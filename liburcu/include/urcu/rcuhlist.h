// SPDX-License-Identifier: MIT
/*
 * RCU-safe updates and traversals of struct cds_hlist_head lists.
 *
 * Same rules as <urcu/rculist.h>: updaters serialise among themselves,
 * readers traverse inside an RCU read-side critical section concurrently
 * with the _rcu updates, following next pointers only.  Publication is a
 * release store paired with rcu_dereference() on the reader side; a removed
 * node keeps its next pointer and may be freed or reused only after a grace
 * period.
 */
#ifndef URCU_RCUHLIST_H
#define URCU_RCUHLIST_H

#include <urcu/hlist.h>
#include <urcu/arch.h>
#include <urcu/pointer.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Insert newp at the front of head.  Ordering: release. */
static inline
void cds_hlist_add_head_rcu(struct cds_hlist_node *newp,
		struct cds_hlist_head *head)
{
	struct cds_hlist_node *first = head->next;

	newp->next = first;
	newp->prev = (struct cds_hlist_node *) (void *) head;
	if (first)
		first->prev = newp;
	/* Publish: pairs with rcu_dereference() in the traversals. */
	rcu_assign_pointer(head->next, newp);
}

/*
 * Unlink elem, leaving its next pointer intact for readers standing on it.
 * Ordering: release.
 */
static inline
void cds_hlist_del_rcu(struct cds_hlist_node *elem)
{
	if (elem->next)
		elem->next->prev = elem->prev;
	/* Pairs with rcu_dereference() in the traversals. */
	rcu_set_pointer(urcu_i_hlist_link(elem->prev), elem->next);
}

/* pos (a struct cds_hlist_node *) visits each node; read side. */
#define cds_hlist_for_each_rcu(pos, head)				\
	for (pos = rcu_dereference((head)->next);			\
	     (pos) != NULL;						\
	     pos = rcu_dereference((pos)->next))

/*
 * liburcu's four-argument form: entry is the element, pos the node cursor.
 * entry is computed only for non-NULL pos.
 */
#define cds_hlist_for_each_entry_rcu(entry, pos, head, member)		\
	for (pos = rcu_dereference((head)->next);			\
	     (pos) != NULL &&						\
	     ((entry = cds_hlist_entry(pos, __typeof__(*(entry)), member)), 1); \
	     pos = rcu_dereference((pos)->next))

/* The Linux kernel's three-argument form; entry is NULL at the end. */
#define cds_hlist_for_each_entry_rcu_2(entry, head, member)		\
	for (entry = cds_hlist_entry_safe(rcu_dereference((head)->next), \
				__typeof__(*(entry)), member);		\
	     (entry) != NULL;						\
	     entry = cds_hlist_entry_safe(				\
				rcu_dereference((entry)->member.next),	\
				__typeof__(*(entry)), member))

#ifdef __cplusplus
}
#endif

#endif /* URCU_RCUHLIST_H */
