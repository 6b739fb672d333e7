// SPDX-License-Identifier: MIT
/*
 * RCU-safe updates and traversals of struct cds_list_head lists.
 *
 * Updaters still serialise among themselves (a mutex, a single updater);
 * what these functions add is that readers may traverse the list at the same
 * time, inside an RCU read-side critical section, with
 * cds_list_for_each_rcu() / cds_list_for_each_entry_rcu().  Readers only
 * follow next pointers, so only next pointers that a reader can reach are
 * written with atomic stores; prev pointers belong to the updaters.
 *
 * A reader sees every element either fully initialised or not at all: each
 * store that makes an element reachable is a release (rcu_assign_pointer()),
 * paired with the consume load in rcu_dereference() on the traversal side.
 * A removed element keeps its next pointer, so a reader standing on it
 * continues into the list; the element may be freed or reused only after a
 * grace period (synchronize_rcu() or call_rcu()).
 */
#ifndef URCU_RCULIST_H
#define URCU_RCULIST_H

#include <urcu/list.h>
#include <urcu/arch.h>
#include <urcu/pointer.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Insert newp after head.  Ordering: release; readers that find newp see
 * its contents as initialised before this call.
 */
static inline
void cds_list_add_rcu(struct cds_list_head *newp, struct cds_list_head *head)
{
	newp->next = head->next;
	newp->prev = head;
	head->next->prev = newp;
	/* Publish: pairs with rcu_dereference() in the traversals. */
	rcu_assign_pointer(head->next, newp);
}

/* Insert newp before head (at the tail of the list).  Ordering: release. */
static inline
void cds_list_add_tail_rcu(struct cds_list_head *newp,
		struct cds_list_head *head)
{
	struct cds_list_head *last = head->prev;

	newp->next = head;
	newp->prev = last;
	/* Publish: pairs with rcu_dereference() in the traversals. */
	rcu_assign_pointer(last->next, newp);
	head->prev = newp;
}

/*
 * Put newp where old is, atomically for readers: each one sees either old
 * or newp at that position, never neither.  old keeps its next pointer.
 * Ordering: release.
 */
static inline
void cds_list_replace_rcu(struct cds_list_head *old,
		struct cds_list_head *newp)
{
	newp->next = old->next;
	newp->prev = old->prev;
	/* Publish: pairs with rcu_dereference() in the traversals. */
	rcu_assign_pointer(newp->prev->next, newp);
	newp->next->prev = newp;
}

/*
 * Unlink elem.  Its next pointer is left intact so that readers currently
 * on elem carry on into the list; free or reuse elem only after a grace
 * period.  Ordering: release (the successor becomes reachable from a new
 * place, and must look initialised there too).
 */
static inline
void cds_list_del_rcu(struct cds_list_head *elem)
{
	elem->next->prev = elem->prev;
	/* Pairs with rcu_dereference() in the traversals. */
	rcu_assign_pointer(elem->prev->next, elem->next);
}

/*
 * pos visits each member of the list head, front to back.  Inside an RCU
 * read-side critical section; may run concurrently with the _rcu updates.
 */
#define cds_list_for_each_rcu(pos, head)				\
	for (pos = rcu_dereference((head)->next);			\
	     (pos) != (head);						\
	     pos = rcu_dereference((pos)->next))

/* pos (an element pointer) visits each element.  Same rules. */
#define cds_list_for_each_entry_rcu(pos, head, member)			\
	for (pos = cds_list_entry(rcu_dereference((head)->next),	\
				  __typeof__(*(pos)), member);		\
	     urcu_i_list_node(pos, member) != (head);					\
	     pos = cds_list_entry(rcu_dereference(urcu_i_list_node(pos, member)->next), \
				  __typeof__(*(pos)), member))

#ifdef __cplusplus
}
#endif

#endif /* URCU_RCULIST_H */
