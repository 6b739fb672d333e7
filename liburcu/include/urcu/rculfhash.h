// SPDX-License-Identifier: MIT
/*
 * RCU lock-free resizable hash table: the cds_lfht_* API of liburcu
 * (0.13 to 0.15), exported by liburcu-cds (-lurcu-common -lurcu-cds).
 *
 * One table works with one RCU flavor, chosen at creation by the
 * struct rcu_flavor_struct passed to cds_lfht_new_flavor() (or &rcu_flavor
 * through cds_lfht_new() under an umbrella header such as <urcu.h>).  The
 * table calls that flavor for its own needs (grace periods while shrinking,
 * registration of its resize thread); every caller works inside the
 * flavor's read-side critical sections as described below.
 *
 * Rules that hold for every function (each doc comment adds its own):
 *
 *  - Reads (lookup, next_duplicate, first, next, count_nodes) and updates
 *    (add, add_unique, add_replace, replace, del) must be called by a thread
 *    registered with the table's flavor (bp: registration is automatic),
 *    inside a read-side critical section of that flavor (qsbr: the thread is
 *    online), and an iterator or node pointer they return stays usable only
 *    until that critical section ends.
 *  - Progress: reads are wait-free (they never retry; their length is the
 *    number of nodes they pass), updates are lock-free (a retry happens only
 *    because another thread's update succeeded).  Neither takes a lock,
 *    allocates memory or waits for another thread.  With
 *    CDS_LFHT_AUTO_RESIZE, an update whose count (what is counted when:
 *    at the creation functions below) crosses a resize threshold also asks
 *    the background resize thread for a resize: a few CASes and at most
 *    one futex wake-up system call, never a wait, so it is safe
 *    while another thread forks (call_rcu_before_fork() waits for grace
 *    periods, hence for the caller's read-side critical section).  One
 *    exception: in a child forked without the flavor's fork functions
 *    (call_rcu_before_fork() etc.), or after the background thread failed
 *    to start there, the first such request creates the thread
 *    (pthread_create).
 *  - Ordering: every successful update (add, a successful add_unique or
 *    add_replace, replace or del that returns 0) is a full memory barrier
 *    before and after the moment it takes effect.  A read that starts after
 *    an update returned sees it or a later update of the same node
 *    (read-after-write); a read that ended before an update started never
 *    sees it; an update concurrent with a read may or may not be seen.
 *  - Uniqueness: if every insertion of a key goes through add_unique or
 *    add_replace, no lookup, duplicate walk or traversal ever meets two
 *    nodes of that key, even while nodes of that key are being replaced,
 *    removed and added again (two concurrent lookups may see different
 *    nodes, never two at once).
 *  - Removal: after del, replace or add_replace removed a node, a lookup or
 *    traversal that starts after the caller's critical section ended and a
 *    grace period of the table's flavor elapsed can no longer reach it.  The
 *    node may be freed or re-inserted only after that grace period
 *    (call_rcu() or synchronize_rcu() of the same flavor); never earlier.
 *  - Resizing never changes the order in which a traversal meets nodes: a
 *    traversal running across any number of resizes meets every node that
 *    stays in the table throughout exactly once.
 *
 * Node memory: a struct cds_lfht_node is embedded in the caller's object,
 * 16 bytes, 8-byte aligned (its three low pointer bits are flags).  The
 * table never allocates or frees nodes.
 */
#ifndef URCU_RCULFHASH_H
#define URCU_RCULFHASH_H

#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <urcu/config.h>
#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The table (opaque). */
struct cds_lfht;

/*
 * A node of the table, embedded in the caller's object.  next holds the
 * successor and, in its low bits, the node's own state (removed, bucket);
 * reverse_hash (liburcu's name) holds the key that orders the table's
 * list; this implementation stores the hash itself there.  Both fields are
 * the table's business:
 * the caller only hands the node over (cds_lfht_node_init() is a no-op and
 * may be skipped; cds_lfht_node_init_deleted() makes
 * cds_lfht_is_node_deleted() true for a node never inserted).
 */
struct cds_lfht_node {
	struct cds_lfht_node *next;
	unsigned long reverse_hash;
} __attribute__((__aligned__(8)));

/*
 * Position of a lookup or traversal: the node found (NULL at the end) and
 * its successor as the walk saw it.  Filled by the table, read through
 * cds_lfht_iter_get_node(); valid inside one read-side critical section.
 */
struct cds_lfht_iter {
	struct cds_lfht_node *node, *next;
#ifdef CONFIG_CDS_LFHT_ITER_DEBUG
	struct cds_lfht *lfht;	/* liburcu's layout option; not checked here */
#endif
};

/* The node an iterator stands on, NULL past the end or after a miss. */
static inline struct cds_lfht_node *cds_lfht_iter_get_node(const struct cds_lfht_iter *iter)
{
	return iter->node;
}

struct rcu_flavor_struct;

/*
 * Key comparison: returns nonzero when node holds key.  Called only on
 * nodes whose hash equals the hash given to the lookup, inside the
 * caller's read-side critical section; it must not block or modify the
 * table.
 */
typedef int (*cds_lfht_match_fct)(struct cds_lfht_node *node, const void *key);

/* Nodes need no initialisation; kept for source compatibility. */
static inline void cds_lfht_node_init(struct cds_lfht_node *node caa_unused)
{
}

/* Creation flags. */
enum {
	CDS_LFHT_AUTO_RESIZE = (1U << 0),	/* grow/shrink on a background thread */
	CDS_LFHT_ACCOUNTING = (1U << 1),	/* count every add/del exactly, per CPU */
};

/*
 * Memory allocator for the table's own memory (struct cds_lfht, bucket
 * arrays, counters), liburcu 0.15.  Each function receives state as its
 * first argument; all five must be set.  NULL where an allocator is asked
 * for means libc's malloc family.
 */
struct cds_lfht_alloc {
	void *(*malloc)(void *state, size_t size);
	void *(*calloc)(void *state, size_t nmemb, size_t size);
	void *(*realloc)(void *state, void *ptr, size_t size);
	void *(*aligned_alloc)(void *state, size_t alignment, size_t size);
	void (*free)(void *state, void *ptr);
	void *state;
};

/*
 * Bucket memory backend (liburcu 0.15 form).  Only the three exported
 * backends below create tables; a backend passed to _cds_lfht_new() may
 * wrap one of them (its alloc_cds_lfht must return what the wrapped
 * backend returned).  "order" 0 is the first min_nr_alloc_buckets buckets,
 * order i > 0 the buckets [2^(i-1), 2^i).
 */
struct cds_lfht_mm_type {
	struct cds_lfht *(*alloc_cds_lfht)(unsigned long min_nr_alloc_buckets,
			unsigned long max_nr_buckets, const struct cds_lfht_alloc *alloc);
	void (*alloc_bucket_table)(struct cds_lfht *ht, unsigned long order);
	void (*free_bucket_table)(struct cds_lfht *ht, unsigned long order);
	struct cds_lfht_node *(*bucket_at)(struct cds_lfht *ht, unsigned long index);
};

/*
 * order: one array per power of two of buckets, allocated as the table
 *        grows (default on 32-bit, and on 64-bit when max_nr_buckets is 0
 *        or above 2^32; max_nr_buckets 0 means no limit).
 * chunk: equal chunks of max_nr_buckets/1024 buckets (raises
 *        min_nr_alloc_buckets to that).
 * mmap:  address space for max_nr_buckets buckets reserved at creation,
 *        made accessible as the table grows and given back as it shrinks
 *        (default on 64-bit when 0 < max_nr_buckets <= 2^32).
 */
URCU_API extern const struct cds_lfht_mm_type cds_lfht_mm_order;
URCU_API extern const struct cds_lfht_mm_type cds_lfht_mm_chunk;
URCU_API extern const struct cds_lfht_mm_type cds_lfht_mm_mmap;

/*
 * _cds_lfht_new_with_alloc: create a table.
 *
 * init_size: buckets at creation; min_nr_alloc_buckets: buckets allocated
 * (and never freed) at creation, the smallest bucket allocation; both must
 * be powers of two, else NULL.  max_nr_buckets: the most buckets the table
 * may ever have, a power of two (0: no limit with the order backend).
 * Then min_nr_alloc_buckets is raised to at least 1, max_nr_buckets to at
 * least min_nr_alloc_buckets, and init_size is lowered to at most
 * max_nr_buckets.  flags: CDS_LFHT_AUTO_RESIZE, CDS_LFHT_ACCOUNTING.
 * mm: a backend, or NULL for the default (see cds_lfht_mm_order).  flavor:
 * the RCU flavor all users of the table use.  alloc: NULL for libc, else
 * copied.  attr: kept and returned by cds_lfht_destroy(); the helper
 * threads of the table's large resizes are created with it unless it makes
 * threads detached (the background resize thread is shared by all tables
 * and does not use it).
 *
 * What an update counts (the cost of the flags):
 *  - CDS_LFHT_ACCOUNTING: every add and del (a sched_getcpu() and a
 *    relaxed atomic add on that CPU's counter line); cds_lfht_count_nodes()
 *    reports the exact sum.  With CDS_LFHT_AUTO_RESIZE too, the table grows
 *    and shrinks from that count.
 *  - CDS_LFHT_AUTO_RESIZE alone: a sample, the nodes whose hash falls in a
 *    fixed 1/16 of hash values (same for a node's add and its del); other
 *    updates cost a multiply and a compare.  The table grows from 16 times
 *    the sampled count (and, while small, when an add meets a long chain
 *    and the estimate exceeds the size), and shrinks when the estimate
 *    falls to a quarter of the size, once it is at least 2^14 per CPU slot.
 *    liburcu counts nothing here, grows from chain length alone and never
 *    shrinks such a table by itself.
 *  - neither: nothing is counted and the size changes only by
 *    cds_lfht_resize().
 * With either flag the node counters (one cache line per CPU slot, at most
 * 64) are allocated here, so that no update ever allocates.  A
 * CDS_LFHT_AUTO_RESIZE table needs the
 * process's background resize thread (one for every table and flavor):
 * the first such table starts it (pthread_create, every signal blocked in
 * it), and the first of each flavor registers the table's fork hooks with
 * the flavor (register_rculfhash_atfork(), which takes no lock that a fork
 * holds).
 *
 * Returns the table, or NULL for bad sizes, a NULL flavor, when memory
 * runs out, or when the background thread cannot be started (never
 * aborts).  Needs no registration and no read-side critical section, and
 * may be called inside one or in a call_rcu callback: it takes no lock and
 * never waits for a grace period or for a fork in progress.  The only
 * wait: while another thread creates the first CDS_LFHT_AUTO_RESIZE table
 * (of the process, or of the same flavor) at the same moment, creation
 * waits for that thread's pthread_create and hook registration to finish.
 * Ordering: none of its own; the table is visible to other threads only
 * once the caller publishes the pointer (e.g. with rcu_assign_pointer()).
 */
URCU_API struct cds_lfht *_cds_lfht_new_with_alloc(unsigned long init_size,
		unsigned long min_nr_alloc_buckets,
		unsigned long max_nr_buckets,
		int flags,
		const struct cds_lfht_mm_type *mm,
		const struct rcu_flavor_struct *flavor,
		const struct cds_lfht_alloc *alloc,
		pthread_attr_t *attr);

/* _cds_lfht_new: _cds_lfht_new_with_alloc() with libc's allocator. */
URCU_API struct cds_lfht *_cds_lfht_new(unsigned long init_size,
		unsigned long min_nr_alloc_buckets,
		unsigned long max_nr_buckets,
		int flags,
		const struct cds_lfht_mm_type *mm,
		const struct rcu_flavor_struct *flavor,
		pthread_attr_t *attr);

/* cds_lfht_new_flavor: a table for flavor, with the default backend. */
static inline struct cds_lfht *cds_lfht_new_flavor(unsigned long init_size,
		unsigned long min_nr_alloc_buckets,
		unsigned long max_nr_buckets,
		int flags,
		const struct rcu_flavor_struct *flavor,
		pthread_attr_t *attr)
{
	return _cds_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets,
			flags, NULL, flavor, attr);
}

/* cds_lfht_new_with_flavor_alloc: as cds_lfht_new_flavor, with alloc. */
static inline struct cds_lfht *cds_lfht_new_with_flavor_alloc(unsigned long init_size,
		unsigned long min_nr_alloc_buckets,
		unsigned long max_nr_buckets,
		int flags,
		const struct rcu_flavor_struct *flavor,
		const struct cds_lfht_alloc *alloc,
		pthread_attr_t *attr)
{
	return _cds_lfht_new_with_alloc(init_size, min_nr_alloc_buckets,
			max_nr_buckets, flags, NULL, flavor, alloc, attr);
}

#ifdef URCU_API_MAP
/*
 * cds_lfht_new: a table for the flavor of the umbrella header included
 * before this one (<urcu.h>, <urcu-qsbr.h>, <urcu-bp.h>, which define
 * rcu_flavor); with the direct headers use cds_lfht_new_flavor().
 */
static inline struct cds_lfht *cds_lfht_new(unsigned long init_size,
		unsigned long min_nr_alloc_buckets,
		unsigned long max_nr_buckets,
		int flags,
		pthread_attr_t *attr)
{
	return _cds_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets,
			flags, NULL, &rcu_flavor, attr);
}
#endif /* URCU_API_MAP */

/*
 * cds_lfht_node_init_deleted: mark a node that is not in any table as
 * removed, so that cds_lfht_is_node_deleted() returns true until it is
 * added.  A plain store; no ordering, no critical section needed.
 */
URCU_API void cds_lfht_node_init_deleted(struct cds_lfht_node *node);

/*
 * cds_lfht_destroy: free an empty table.
 *
 * Nothing may use the table any more, concurrently or later (readers
 * included: wait for a grace period after unpublishing it).  The caller is
 * registered with the table's flavor; it may be inside a read-side
 * critical section or in a call_rcu callback.
 *
 * Returns 0 on success (*attr, if attr is non-NULL, receives the attr given
 * at creation), -EPERM if the table still holds nodes (nothing freed),
 * -EBUSY if a cds_lfht_resize() of a table without CDS_LFHT_AUTO_RESIZE
 * is running in another thread (nothing freed).  A CDS_LFHT_AUTO_RESIZE
 * table is freed asynchronously by the background resize thread, after any
 * resize of it still in progress; the call itself never waits, so it
 * cannot deadlock.  Blocking: never.
 */
URCU_API int cds_lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr);

/*
 * cds_lfht_count_nodes: count the nodes.  Inside a read-side critical
 * section.  *count is the number of nodes a traversal met (wait-free, as
 * a traversal); *split_count_before / *split_count_after are the
 * count kept by CDS_LFHT_ACCOUNTING (adds minus dels, exact once the
 * updates counted have returned), read before and after the traversal;
 * 0 without CDS_LFHT_ACCOUNTING, whatever CDS_LFHT_AUTO_RESIZE samples.
 */
URCU_API void cds_lfht_count_nodes(struct cds_lfht *ht,
		long *split_count_before,
		unsigned long *count,
		long *split_count_after);

/*
 * cds_lfht_lookup: find the first node with this hash for which
 * match(node, key) is true; cds_lfht_iter_get_node(iter) is that node or
 * NULL.  Inside a read-side critical section; wait-free; read-after-write
 * as described at the top.  Loads only: no barrier beyond what the
 * returned node's publication needs (dependency order).
 */
URCU_API void cds_lfht_lookup(struct cds_lfht *ht, unsigned long hash,
		cds_lfht_match_fct match, const void *key,
		struct cds_lfht_iter *iter);

/*
 * cds_lfht_next_duplicate: move iter, positioned on a node by
 * cds_lfht_lookup() or a previous call, to the next node with the same
 * hash that matches key (NULL when none).  Same critical section as the
 * lookup; wait-free.  Nodes added concurrently may or may not be met.
 */
URCU_API void cds_lfht_next_duplicate(struct cds_lfht *ht,
		cds_lfht_match_fct match, const void *key,
		struct cds_lfht_iter *iter);

/*
 * cds_lfht_first / cds_lfht_next: traverse every node, in an order that
 * does not depend on the table size (so concurrent resizes are harmless).
 * Inside one read-side critical section for the whole traversal;
 * wait-free per step.  Nodes present throughout are met exactly once;
 * nodes added or removed during the traversal may or may not be met.
 */
URCU_API void cds_lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter);
URCU_API void cds_lfht_next(struct cds_lfht *ht, struct cds_lfht_iter *iter);

/*
 * cds_lfht_add: insert node with hash; nodes with an equal key may already
 * be there (duplicates are kept, the new node after them).  Inside a
 * read-side critical section; lock-free; full barrier before and after.
 * The node must not be in any table (a node removed earlier only after a
 * grace period).  Never fails.
 */
URCU_API void cds_lfht_add(struct cds_lfht *ht, unsigned long hash,
		struct cds_lfht_node *node);

/*
 * cds_lfht_add_unique: insert node unless a node with this hash matching
 * key is present.  Returns node if it was inserted, else the node found
 * (then nothing changed: the call was a lookup, and the caller may free
 * its own node at once).  Inside a read-side critical section; lock-free;
 * full barrier before and after a successful insertion.  See the
 * uniqueness rule at the top.
 */
URCU_API struct cds_lfht_node *cds_lfht_add_unique(struct cds_lfht *ht,
		unsigned long hash,
		cds_lfht_match_fct match,
		const void *key,
		struct cds_lfht_node *node);

/*
 * cds_lfht_add_replace: insert node, atomically replacing a node with this
 * hash matching key if there is one.  Returns the node replaced (free or
 * reuse it only after a grace period) or NULL if none was.  Readers see
 * either the old or the new node, never both, never neither.  Inside a
 * read-side critical section; lock-free; full barrier before and after.
 */
URCU_API struct cds_lfht_node *cds_lfht_add_replace(struct cds_lfht *ht,
		unsigned long hash,
		cds_lfht_match_fct match,
		const void *key,
		struct cds_lfht_node *node);

/*
 * cds_lfht_replace: atomically replace the node old_iter stands on by
 * new_node (same hash; match(old, key) must hold).  Returns 0 on success
 * (free or reuse the old node only after a grace period), -ENOENT if the
 * old node is NULL or was already removed, -EINVAL if hash differs from
 * the old node's or match(old, key) is false.  Readers see either node,
 * never both or neither.  In the read-side critical section in which
 * old_iter was obtained; lock-free; full barrier before and after.
 */
URCU_API int cds_lfht_replace(struct cds_lfht *ht,
		struct cds_lfht_iter *old_iter,
		unsigned long hash,
		cds_lfht_match_fct match,
		const void *key,
		struct cds_lfht_node *new_node);

/*
 * cds_lfht_del: remove node.  Returns 0 if this call removed it, -ENOENT
 * if node is NULL or was already removed (of two threads removing one node
 * exactly one gets 0).  On return the node is unlinked: after a grace
 * period it is unreachable and may be freed or reused (not before).
 * Inside a read-side critical section; lock-free; full barrier before and
 * after.
 */
URCU_API int cds_lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node);

/*
 * cds_lfht_is_node_deleted: nonzero once node was removed by del, replace
 * or add_replace (or marked by cds_lfht_node_init_deleted()).  Inside a
 * read-side critical section if the node is in a table; a relaxed load.
 */
URCU_API int cds_lfht_is_node_deleted(const struct cds_lfht_node *node);

/*
 * cds_lfht_resize: resize to new_size buckets, rounded up to a power of two
 * and clamped to [1, max_nr_buckets].  Runs in the caller and returns when
 * done; it waits for grace periods when shrinking.  The caller is
 * registered with the table's flavor and outside any read-side critical
 * section (qsbr: offline); otherwise the process stops with a message
 * naming cds_lfht_resize.  Concurrent lookups and updates continue
 * throughout.  If memory runs out while growing, the table grows as far as
 * it could and stays correct.  A pass of 8192 buckets or more runs in parts
 * on helper threads started and joined inside the call (registered with
 * the flavor; URCU_LFHT_RESIZE_THREADS=1 turns them off; the call does a
 * part itself where a thread cannot be started).  Blocking: yes (grace
 * periods, and another resize of the same table).
 */
URCU_API void cds_lfht_resize(struct cds_lfht *ht, unsigned long new_size);

/*
 * Iteration.  cds_lfht_for_each: every node (first/next).
 * cds_lfht_for_each_duplicate: every node with hash matching key.  The
 * _entry forms give the enclosing object (NULL at the end, never computed
 * from a NULL node).  Inside one read-side critical section.
 */
#define cds_lfht_for_each(ht, iter, node)				\
	for (cds_lfht_first(ht, iter),					\
			node = cds_lfht_iter_get_node(iter);		\
		node != NULL;						\
		cds_lfht_next(ht, iter),				\
			node = cds_lfht_iter_get_node(iter))

#define cds_lfht_for_each_duplicate(ht, hash, match, key, iter, node)	\
	for (cds_lfht_lookup(ht, hash, match, key, iter),		\
			node = cds_lfht_iter_get_node(iter);		\
		node != NULL;						\
		cds_lfht_next_duplicate(ht, match, key, iter),		\
			node = cds_lfht_iter_get_node(iter))

/* The object containing node ptr (NULL for NULL). */
#define cds_lfht_entry(ptr, type, member)				\
	caa_container_of_check_null(ptr, type, member)

#define cds_lfht_for_each_entry(ht, iter, pos, member)			\
	for (cds_lfht_first(ht, iter),					\
			pos = cds_lfht_entry(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member);	\
		pos != NULL;						\
		cds_lfht_next(ht, iter),				\
			pos = cds_lfht_entry(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member))

#define cds_lfht_for_each_entry_duplicate(ht, hash, match, key,		\
				iter, pos, member)			\
	for (cds_lfht_lookup(ht, hash, match, key, iter),		\
			pos = cds_lfht_entry(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member);	\
		pos != NULL;						\
		cds_lfht_next_duplicate(ht, match, key, iter),		\
			pos = cds_lfht_entry(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member))

#ifdef __cplusplus
}
#endif

#endif /* URCU_RCULFHASH_H */
