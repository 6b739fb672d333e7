// SPDX-License-Identifier: MIT
/*
 * Circular doubly-linked lists with a sentinel head (cds_list_*).
 *
 * A list is a struct cds_list_head used as the head, linked through
 * struct cds_list_head members embedded in the elements; cds_list_entry()
 * turns a member pointer back into its element.  An empty list's head
 * points to itself both ways.
 *
 * None of these functions synchronises anything: callers serialise all
 * access to one list (a mutex, a single owner).  For lists that RCU readers
 * traverse while an updater changes them, see <urcu/rculist.h>.
 */
#ifndef URCU_LIST_H
#define URCU_LIST_H

#include <stddef.h>
#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cds_list_head {
	struct cds_list_head *next, *prev;
};

/* Define a list head called name, initialised to the empty list. */
#define CDS_LIST_HEAD(name) \
	struct cds_list_head name = { &(name), &(name) }

/* Static initialiser of a list head called name: the empty list. */
#define CDS_LIST_HEAD_INIT(name) { .next = &(name), .prev = &(name) }

/* Make the head at ptr an empty list (an expression). */
#define CDS_INIT_LIST_HEAD(ptr) \
	((ptr)->next = (ptr)->prev = (ptr))

/* Link newp between the adjacent entries before and after. */
static inline void urcu_i_list_link(struct cds_list_head *newp,
		struct cds_list_head *before, struct cds_list_head *after)
{
	newp->next = after;
	newp->prev = before;
	after->prev = newp;
	before->next = newp;
}

/* Join before and after, dropping whatever lay between them. */
static inline void urcu_i_list_join(struct cds_list_head *before,
		struct cds_list_head *after)
{
	before->next = after;
	after->prev = before;
}

/* Insert newp right after head: at the front when head is the list head. */
static inline
void cds_list_add(struct cds_list_head *newp, struct cds_list_head *head)
{
	urcu_i_list_link(newp, head, head->next);
}

/* Insert newp right before head: at the back when head is the list head. */
static inline
void cds_list_add_tail(struct cds_list_head *newp, struct cds_list_head *head)
{
	urcu_i_list_link(newp, head->prev, head);
}

/* liburcu's name for joining prev and next (what unlinking does). */
static inline
void __cds_list_del(struct cds_list_head *prev, struct cds_list_head *next)
{
	urcu_i_list_join(prev, next);
}

/*
 * Unlink elem from its list.  elem's own pointers are left as they were
 * (stale); use cds_list_del_init() to reuse it as an empty head.
 */
static inline
void cds_list_del(struct cds_list_head *elem)
{
	urcu_i_list_join(elem->prev, elem->next);
}

/* Unlink elem and make it an empty list of its own. */
static inline
void cds_list_del_init(struct cds_list_head *elem)
{
	cds_list_del(elem);
	CDS_INIT_LIST_HEAD(elem);
}

/* Unlink elem from its list and insert it right after head. */
static inline
void cds_list_move(struct cds_list_head *elem, struct cds_list_head *head)
{
	cds_list_del(elem);
	cds_list_add(elem, head);
}

/* Put newp where old is; old's own pointers are left stale. */
static inline
void cds_list_replace(struct cds_list_head *old, struct cds_list_head *newp)
{
	urcu_i_list_link(newp, old->prev, old->next);
}

/*
 * Move every element of the list add to the front of the list head, in
 * their order.  add itself is not reinitialised: it still points into the
 * elements, so re-initialise it before using it again.
 */
static inline
void cds_list_splice(struct cds_list_head *add, struct cds_list_head *head)
{
	struct cds_list_head *first = add->next, *last = add->prev;

	if (first == add)
		return;
	last->next = head->next;
	head->next->prev = last;
	first->prev = head;
	head->next = first;
}

/*
 * Move the elements of head from its first one up to and including entry
 * (an element of head) to the list list, which is overwritten (its previous
 * contents, if any, are dropped).  When entry is head itself, or head is
 * empty, list just becomes empty.  (An addition to liburcu's list.h, with
 * the Linux kernel's list_cut_position() semantics.)
 */
static inline
void cds_list_cut_position(struct cds_list_head *list,
		struct cds_list_head *head, struct cds_list_head *entry)
{
	struct cds_list_head *first = head->next;

	if (head->next == head || entry == head) {
		CDS_INIT_LIST_HEAD(list);
		return;
	}
	urcu_i_list_join(head, entry->next);
	list->next = first;
	first->prev = list;
	entry->next = list;
	list->prev = entry;
}

/* The element containing the list member at ptr. */
#define cds_list_entry(ptr, type, member) \
	caa_container_of(ptr, type, member)

/* The first element of the list at ptr, which must not be empty. */
#define cds_list_first_entry(ptr, type, member) \
	cds_list_entry((ptr)->next, type, member)

/* pos visits each member of the list head, front to back. */
#define cds_list_for_each(pos, head) \
	for (pos = (head)->next; (pos) != (head); pos = (pos)->next)

/* The same, back to front. */
#define cds_list_for_each_prev(pos, head) \
	for (pos = (head)->prev; (pos) != (head); pos = (pos)->prev)

/*
 * Front to back, fetching the next member into p before the body runs, so
 * the body may remove (or free) pos.
 */
#define cds_list_for_each_safe(pos, p, head)				\
	for (pos = (head)->next, p = (pos)->next;			\
	     (pos) != (head);						\
	     pos = (p), p = (pos)->next)

/* Back to front; the body may remove pos. */
#define cds_list_for_each_prev_safe(pos, p, head)			\
	for (pos = (head)->prev, p = (pos)->prev;			\
	     (pos) != (head);						\
	     pos = (p), p = (pos)->prev)

/*
 * &pos->member computed without a member access through pos: at the end of
 * an iteration pos is the head's "container", which is not an object of
 * pos's type and may lack its alignment (UBSan rightly objects otherwise).
 */
#define urcu_i_list_node(pos, member)					\
	((struct cds_list_head *) ((char *) (pos) +			\
		offsetof(__typeof__(*(pos)), member)))

/* pos (an element pointer) visits each element, front to back. */
#define cds_list_for_each_entry(pos, head, member)			\
	for (pos = cds_list_entry((head)->next, __typeof__(*(pos)), member); \
	     urcu_i_list_node(pos, member) != (head);					\
	     pos = cds_list_entry(urcu_i_list_node(pos, member)->next, __typeof__(*(pos)), member))

/* The same, back to front. */
#define cds_list_for_each_entry_reverse(pos, head, member)		\
	for (pos = cds_list_entry((head)->prev, __typeof__(*(pos)), member); \
	     urcu_i_list_node(pos, member) != (head);					\
	     pos = cds_list_entry(urcu_i_list_node(pos, member)->prev, __typeof__(*(pos)), member))

/* Elements front to back; p holds the next one so the body may remove pos. */
#define cds_list_for_each_entry_safe(pos, p, head, member)		\
	for (pos = cds_list_entry((head)->next, __typeof__(*(pos)), member), \
	     p = cds_list_entry(urcu_i_list_node(pos, member)->next, __typeof__(*(pos)), member); \
	     urcu_i_list_node(pos, member) != (head);					\
	     pos = (p),							\
	     p = cds_list_entry(urcu_i_list_node(pos, member)->next, __typeof__(*(pos)), member))

/*
 * Like cds_list_for_each_entry_safe(), but starting at the element pos
 * already points to (which must be in the list head) instead of the first.
 */
#define cds_list_for_each_entry_safe_from(pos, p, head, member)	\
	for (p = cds_list_entry(urcu_i_list_node(pos, member)->next, __typeof__(*(pos)), member); \
	     urcu_i_list_node(pos, member) != (head);					\
	     pos = (p),							\
	     p = cds_list_entry(urcu_i_list_node(pos, member)->next, __typeof__(*(pos)), member))

/* Nonzero if the list head has no element. */
static inline
int cds_list_empty(struct cds_list_head *head)
{
	return head->next == head;
}

/* Put newp where old is, and make old an empty list of its own. */
static inline
void cds_list_replace_init(struct cds_list_head *old,
		struct cds_list_head *newp)
{
	cds_list_replace(old, newp);
	CDS_INIT_LIST_HEAD(old);
}

#ifdef __cplusplus
}
#endif

#endif /* URCU_LIST_H */
