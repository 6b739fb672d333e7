// SPDX-License-Identifier: MIT
/*
 * Doubly-linked lists with a one-pointer head (cds_hlist_*), the shape used
 * for hash-table buckets: the head costs a single pointer and the list ends
 * with NULL instead of returning to the head.
 *
 * A node's prev points to the node before it or, for the first node, to the
 * head itself cast to struct cds_hlist_node *.  That works because both
 * structures begin with their next pointer: the link to overwrite when a
 * node is removed is always the first pointer of whatever prev points to
 * (see urcu_i_hlist_link()).
 *
 * No synchronisation here: callers serialise all access to one list.  For
 * RCU readers traversing concurrently with updates see <urcu/rcuhlist.h>.
 */
#ifndef URCU_HLIST_H
#define URCU_HLIST_H

#include <stddef.h>
#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cds_hlist_head {
	struct cds_hlist_node *next;
};

struct cds_hlist_node {
	struct cds_hlist_node *next, *prev;
};

/* The head-as-node cast described above needs next first in both. */
#if defined(__cplusplus) && __cplusplus >= 201103L
static_assert(offsetof(struct cds_hlist_head, next) == 0
	      && offsetof(struct cds_hlist_node, next) == 0,
	      "cds_hlist: next must be the first member of head and node");
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(offsetof(struct cds_hlist_head, next) == 0
	       && offsetof(struct cds_hlist_node, next) == 0,
	       "cds_hlist: next must be the first member of head and node");
#endif

/* Make the head at ptr an empty list. */
static inline
void CDS_INIT_HLIST_HEAD(struct cds_hlist_head *ptr)
{
	ptr->next = NULL;
}

/* Define a head called name holding the empty list. */
#define CDS_HLIST_HEAD(name) \
	struct cds_hlist_head name = { NULL }

/* Static initialiser of a head called name: the empty list. */
#define CDS_HLIST_HEAD_INIT(name) \
	{ .next = NULL }

/*
 * The pointer that links to the node after prev: prev->next when prev is a
 * node, head->next when prev is the head in disguise.  Going through a
 * pointer to the first member (instead of prev->next) accesses a head only
 * as what it is, a struct cds_hlist_node * object.
 */
static inline struct cds_hlist_node **
urcu_i_hlist_link(struct cds_hlist_node *prev)
{
	return (struct cds_hlist_node **) (void *) prev;
}

/* The element containing the node at ptr. */
#define cds_hlist_entry(ptr, type, member) \
	caa_container_of(ptr, type, member)

/* As cds_hlist_entry(), but NULL stays NULL. */
#define cds_hlist_entry_safe(ptr, type, member)				\
	__extension__ ({						\
		__typeof__(ptr) urcu_i_hentry = (ptr);			\
		urcu_i_hentry ?						\
			cds_hlist_entry(urcu_i_hentry, type, member) : NULL; \
	})

/* Insert newp at the front of the list head. */
static inline
void cds_hlist_add_head(struct cds_hlist_node *newp,
		struct cds_hlist_head *head)
{
	struct cds_hlist_node *first = head->next;

	newp->next = first;
	newp->prev = (struct cds_hlist_node *) (void *) head;
	if (first)
		first->prev = newp;
	head->next = newp;
}

/* Unlink elem from its list; elem's own pointers are left stale. */
static inline
void cds_hlist_del(struct cds_hlist_node *elem)
{
	if (elem->next)
		elem->next->prev = elem->prev;
	*urcu_i_hlist_link(elem->prev) = elem->next;
}

/* pos (a struct cds_hlist_node *) visits each node, front to back. */
#define cds_hlist_for_each(pos, head) \
	for (pos = (head)->next; (pos) != NULL; pos = (pos)->next)

/* The same, with the next node fetched into p first so pos may be removed. */
#define cds_hlist_for_each_safe(pos, p, head)				\
	for (pos = (head)->next;					\
	     (pos) != NULL && ((p = (pos)->next), 1);			\
	     pos = (p))

/*
 * liburcu's four- and five-argument forms: entry is the element pointer,
 * pos a struct cds_hlist_node * cursor (and p its successor for _safe).
 * The _2 forms below take the Linux kernel's three and four arguments.
 * entry is only computed for a non-NULL pos, so it is never derived from
 * NULL; after the loop ends it still points to the last element visited.
 */
#define cds_hlist_for_each_entry(entry, pos, head, member)		\
	for (pos = (head)->next;					\
	     (pos) != NULL &&						\
	     ((entry = cds_hlist_entry(pos, __typeof__(*(entry)), member)), 1); \
	     pos = (pos)->next)

#define cds_hlist_for_each_entry_safe(entry, pos, p, head, member)	\
	for (pos = (head)->next;					\
	     (pos) != NULL && ((p = (pos)->next), 1) &&			\
	     ((entry = cds_hlist_entry(pos, __typeof__(*(entry)), member)), 1); \
	     pos = (p))

/* entry visits each element; NULL when the loop ends. */
#define cds_hlist_for_each_entry_2(entry, head, member)		\
	for (entry = cds_hlist_entry_safe((head)->next,			\
				__typeof__(*(entry)), member);		\
	     (entry) != NULL;						\
	     entry = cds_hlist_entry_safe((entry)->member.next,		\
				__typeof__(*(entry)), member))

/* The same, with the next element fetched into e so entry may be removed. */
#define cds_hlist_for_each_entry_safe_2(entry, e, head, member)	\
	for (entry = cds_hlist_entry_safe((head)->next,			\
				__typeof__(*(entry)), member);		\
	     (entry) != NULL &&						\
	     ((e = cds_hlist_entry_safe((entry)->member.next,		\
				__typeof__(*(entry)), member)), 1);	\
	     entry = (e))

#ifdef __cplusplus
}
#endif

#endif /* URCU_HLIST_H */
