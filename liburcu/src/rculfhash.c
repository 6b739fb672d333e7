// SPDX-License-Identifier: MIT
/*
 * RCU lock-free resizable hash table: the split-ordered list.
 *
 * Structure (Shalev & Shavit, "Split-ordered lists", J. ACM 53(3), 2006).
 * Every node of the table, user nodes and the table's own bucket nodes, is
 * on ONE singly linked list sorted by bitrev(hash), the "split order".
 * Bucket node i has hash i and comes before every user node with hash i.
 * With size = 2^s buckets, the user nodes whose hash has low bits i are
 * exactly the nodes between bucket node i and the next bucket node of an
 * index < size: their bit-reversed hashes lie in [bitrev(i), bitrev(i) +
 * 2^(W-s)), W the bits of a long.  An operation on hash h loads size once
 * and starts at bucket node h & (size - 1).  The list order does not
 * depend on size, so a resize only adds or removes bucket nodes; user
 * nodes never move.
 *
 * A node's reverse_hash field (liburcu's name) holds its hash itself, not
 * reversed: hash a comes after hash b in the split order exactly when a
 * has a 1 at the lowest bit where they differ (urcu_i_lfht_after), a few
 * instructions per comparison instead of a bit reversal per operation.
 *
 * Removal (Michael, "High performance dynamic lock-free hash tables and
 * list-based sets", SPAA 2002).  A node is removed logically by the CAS
 * that sets LFHT_REMOVED in its own next word, physically by a CAS on its
 * predecessor's next word that skips it.  The flags in a next word (see
 * rculfhash-internal.h) describe the node holding it, except TO_BUCKET,
 * which describes the target and travels with the pointer.
 *
 * Invariants (I1-I5), each kept by every CAS below:
 *  I1 The list is in split order; bucket node i precedes the user nodes
 *     with hash i.  An insertion CAS links a node between prev and cur
 *     with prev < node <= cur in split order (add: after equal ones); it
 *     expects prev->next == cur with prev not removed, so the pair it
 *     examined is still adjacent when it succeeds.
 *  I2 A removed node's next word never changes again (every CAS on a next
 *     word expects the REMOVED bit clear).  So a reader standing on a
 *     removed, even unlinked, node follows a frozen pointer back into the
 *     list at or after its old position, never before it.
 *  I3 Bucket nodes of an index < size are never removed while size is
 *     published; only a resize (one at a time, under resize_lock) inserts
 *     or removes bucket nodes (rculfhash-resize.c).
 *  I4 A node is freed or reused only after a grace period that began after
 *     it was unlinked (the caller's rule for user nodes; the resizer's
 *     synchronize_rcu for bucket nodes).  Every walk runs inside a
 *     read-side critical section, so every pointer it loaded stays valid
 *     and no CAS can suffer ABA: a node it saw cannot be unlinked, freed
 *     and linked again before it finishes.
 *  I5 del and replace return only once their node is unlinked (they walk
 *     from the bucket until past the node's position, unlinking every
 *     removed node they meet).  Hence the caller's grace period after
 *     del/replace makes the node unreachable (CDS.md E).
 *  I6 The last link of the list (NULL) carries TO_BUCKET: it is set when
 *     the buckets are first linked and, like every hint, copied with the
 *     pointer, so a walk tests one bit for "bucket node or end".
 *
 * Why the guarantees hold:
 *  - Read-after-write: an insertion is the CAS that makes the node
 *    reachable from its predecessor (a full barrier after the node's
 *    fields are written); a lookup walking from any bucket node at or
 *    before the node's position (I1, whatever size it loaded) meets it.
 *  - One winner per removal: only the CAS that sets REMOVED succeeds (I2);
 *    every other del or replace sees the bit and returns -ENOENT.
 *  - Replace: one CAS sets old->next = new | REMOVED with new->next = old's
 *    successor.  A reader that read old's word before the CAS sees old and
 *    continues past new's position; one that reads it after skips old and
 *    meets new.  Never both, never neither.
 *  - Uniqueness (only add_unique/add_replace): add_unique links its node
 *    FIRST in the run of equal hashes, by a CAS expecting the run's
 *    head, after checking that no live node of the run matches.  A racing
 *    add_unique of the same key changes that head, so one of the two fails
 *    and rescans.  A traversal that passed a node of the key has passed the
 *    head of its run, so a node added again later (at the head) is behind
 *    it; with replace (one CAS, above) the traversal sees one node.
 *  - Wait-free reads: a lookup or traversal never retries, never writes.
 *  - Lock-free updates: a retry is caused by a failed CAS on a word another
 *    thread changed, i.e. by another thread's completed step.
 *
 * The lookup shortcut.  A lookup that meets a link with TO_BUCKET would
 * normally load the bucket node to compare its hash.  While no
 * resize runs, the only bucket nodes are those of indices < size, and the
 * first one after the start bucket begins the next bucket's range, so the
 * walk can stop without loading it (one cache miss less on most misses).
 * The resizer makes resize_seq odd, with a full barrier, before it links or
 * unpublishes any bucket node, and even again when done; the lookup reads
 * resize_seq before size and again (after a read barrier) before taking
 * the shortcut, and takes it only if both reads returned the same even
 * value.  A grace period sits inside every shrink, and a lookup runs in a
 * read-side critical section, so the 64-bit sequence cannot wrap back.
 */
#include <errno.h>
#include <stddef.h>
#include <urcu/rculfhash.h>

#include "common.h"
#include "rculfhash-internal.h"

#define cas_next	urcu_i_lfht_cas_next
#define find_pos	urcu_i_lfht_find_pos

static inline unsigned long load_size(struct cds_lfht *ht)
{
	/* Acquire: pairs with the release publication in rculfhash-resize.c,
	 * after which the buckets of the new size are linked and their
	 * memory (tbl entries) visible. */
	return uatomic_load(&ht->size, CMM_ACQUIRE);
}

#ifdef DEBUG_RCU
#define check_read_side(ht, fn)						\
	do {								\
		if (!(ht)->flavor->read_ongoing())			\
			urcu_common_misuse(fn, "called outside a read-side critical section " \
				"of the table's flavor");		\
	} while (0)
#else
#define check_read_side(ht, fn)	do { } while (0)
#endif

/*
 * Walk from start (a node that cannot be removed during the walk: a bucket
 * node of the size loaded, or a bucket node the resizer owns) to the
 * position of hash h, unlinking removed nodes on the way.
 * POS_BEFORE_EQUAL stops before the first user node with hash h,
 * POS_AFTER_EQUAL after the last one.  Returns false when an unlink CAS
 * lost a race (the caller restarts).
 */
bool urcu_i_lfht_find_pos(struct cds_lfht_node *start, unsigned long h, int where,
		struct urcu_i_lfht_pos *pos)
{
	struct cds_lfht_node *prev = start, *cur;
	uintptr_t prev_next = urcu_i_lfht_load_next(start), w, v;
	unsigned long r, last = start->reverse_hash;
	unsigned int chain = 0, steps = 0;

	if (caa_unlikely(prev_next & LFHT_REMOVED))
		return false;	/* a stale bucket: reload the size (see I3) */
	for (;;) {
		cur = urcu_i_lfht_ptr(prev_next);
		if (!cur)
			break;
		w = urcu_i_lfht_load_next(cur);
		steps++;
		if (w & LFHT_REMOVED) {
			/* Help: unlink cur (Michael's physical deletion). */
			v = (w & LFHT_LINK_MASK) | (prev_next & LFHT_OWN_FLAGS);
			if (cas_next(prev, prev_next, v) != prev_next)
				return false;
			prev_next = v;
			continue;
		}
		r = cur->reverse_hash;
		if (r == h) {
			if (where == POS_BEFORE_EQUAL && !(w & LFHT_BUCKET))
				break;
		} else if (urcu_i_lfht_after(r, h)) {
			break;
		}
		if (!(w & LFHT_BUCKET) && r != last) {
			chain++;
			last = r;
		}
		prev = cur;
		prev_next = w;
	}
	pos->prev = prev;
	pos->prev_next = prev_next;
	pos->chain = chain;
	pos->steps = steps;
	return true;
}

/*
 * Unlink the removed node (I5): walk from its bucket at the current size,
 * unlinking every removed node met, until the node is unlinked by us or
 * the walk passes its position (someone else unlinked it).
 */
static void unlink_removed(struct cds_lfht *ht, struct cds_lfht_node *node)
{
	unsigned long h = node->reverse_hash, size;
	struct cds_lfht_node *prev, *cur;
	uintptr_t prev_next, w, v;

retry:
	size = load_size(ht);
	prev = urcu_i_lfht_bucket(ht, h & (size - 1));
	prev_next = urcu_i_lfht_load_next(prev);
	if (caa_unlikely(prev_next & LFHT_REMOVED)) {
		caa_cpu_relax();
		goto retry;
	}
	for (;;) {
		cur = urcu_i_lfht_ptr(prev_next);
		if (!cur)
			return;
		w = urcu_i_lfht_load_next(cur);
		if (w & LFHT_REMOVED) {
			v = (w & LFHT_LINK_MASK) | (prev_next & LFHT_OWN_FLAGS);
			if (cas_next(prev, prev_next, v) != prev_next)
				goto retry;
			if (cur == node)
				return;
			prev_next = v;
			continue;
		}
		if (urcu_i_lfht_after(cur->reverse_hash, h))
			return;
		prev = cur;
		prev_next = w;
	}
}

/* Link node at pos: true if the CAS won. */
static inline bool link_at(const struct urcu_i_lfht_pos *pos, struct cds_lfht_node *node)
{
	/* Not yet reachable: a plain store, published by the CAS below. */
	node->next = (struct cds_lfht_node *) (pos->prev_next & LFHT_LINK_MASK);
	return cas_next(pos->prev, pos->prev_next,
			(uintptr_t) node | (pos->prev_next & LFHT_OWN_FLAGS)) == pos->prev_next;
}

/*
 * What an update counts (rculfhash-table.c, top): a CDS_LFHT_ACCOUNTING
 * table every add and del; a CDS_LFHT_AUTO_RESIZE table without it only
 * the nodes of sampled hashes (1 in 16), the others at the cost of a
 * multiply and a compare (and an add that met a very long chain a check
 * of the small-table policy); a table with neither flag nothing.
 */
static inline void account_add(struct cds_lfht *ht, unsigned long hash, unsigned int chain)
{
	if (ht->flags & CDS_LFHT_ACCOUNTING)
		urcu_i_lfht_count_add(ht, hash, chain);
	else if (!(ht->flags & CDS_LFHT_AUTO_RESIZE))
		return;
	else if (caa_unlikely(urcu_i_lfht_sampled(hash)))
		urcu_i_lfht_sample_add(ht, hash, chain);
	else if (caa_unlikely(chain >= LFHT_CHAIN_LEN_UNSAMPLED))
		urcu_i_lfht_chain_check(ht);
}

static inline void account_del(struct cds_lfht *ht, unsigned long hash)
{
	if (ht->flags & CDS_LFHT_ACCOUNTING)
		urcu_i_lfht_count_del(ht, hash);
	else if ((ht->flags & CDS_LFHT_AUTO_RESIZE) && caa_unlikely(urcu_i_lfht_sampled(hash)))
		urcu_i_lfht_sample_del(ht, hash);
}

void cds_lfht_node_init_deleted(struct cds_lfht_node *node)
{
	node->next = (struct cds_lfht_node *) LFHT_REMOVED;
}

int cds_lfht_is_node_deleted(const struct cds_lfht_node *node)
{
	return ((uintptr_t) CMM_LOAD_SHARED(node->next) & LFHT_REMOVED) != 0;
}

/*
 * Lookup.  Cost: two loads from the table's first cache line, the bucket
 * node, then one node per step; a miss usually ends at a TO_BUCKET link
 * without loading the next bucket node (see the top of the file).
 */
void cds_lfht_lookup(struct cds_lfht *ht, unsigned long hash,
		cds_lfht_match_fct match, const void *key,
		struct cds_lfht_iter *iter)
{
	/* Acquire: read before size, compared again before the shortcut. */
	unsigned long seq = uatomic_load(&ht->resize_seq, CMM_ACQUIRE);
	unsigned long size = load_size(ht);
	struct cds_lfht_node *node;
	unsigned long r;
	uintptr_t next;

	check_read_side(ht, "cds_lfht_lookup");
	next = urcu_i_lfht_load_next(urcu_i_lfht_bucket(ht, hash & (size - 1)));
	for (;;) {
		node = urcu_i_lfht_ptr(next);
		/* The end of the list is a TO_BUCKET link too (I6): one test. */
		if (caa_unlikely(next & LFHT_TO_BUCKET)) {
			if (!node)
				break;
			/*
			 * Read barrier: the link read above is ordered before
			 * the second read of resize_seq; pairs with the full
			 * barrier after the resizer makes it odd.
			 */
			cmm_smp_rmb();
			if (!(seq & 1) && CMM_LOAD_SHARED(ht->resize_seq) == seq) {
				node = NULL;
				break;
			}
		}
		r = node->reverse_hash;
		next = urcu_i_lfht_load_next(node);
		if (r == hash) {
			if (!(next & LFHT_OWN_FLAGS) && match(node, key))
				break;
		} else if (urcu_i_lfht_after(r, hash)) {
			node = NULL;
			break;
		}
	}
	iter->node = node;
	iter->next = (struct cds_lfht_node *) next;
}

void cds_lfht_next_duplicate(struct cds_lfht *ht caa_unused,
		cds_lfht_match_fct match, const void *key,
		struct cds_lfht_iter *iter)
{
	struct cds_lfht_node *node;
	unsigned long h;
	uintptr_t next;

	if (!iter->node)
		return;
	h = iter->node->reverse_hash;
	next = (uintptr_t) iter->next;
	for (;;) {
		node = urcu_i_lfht_ptr(next);
		if (!node)
			break;
		/* Sorted: the first other hash ends the run (I1). */
		if (node->reverse_hash != h) {
			node = NULL;
			break;
		}
		next = urcu_i_lfht_load_next(node);
		if (!(next & LFHT_OWN_FLAGS) && match(node, key))
			break;
	}
	iter->node = node;
	iter->next = (struct cds_lfht_node *) next;
}

/* Position iter on the first live user node at or after node. */
static void first_live(struct cds_lfht_node *node, struct cds_lfht_iter *iter)
{
	uintptr_t next = 0;

	while (node) {
		next = urcu_i_lfht_load_next(node);
		if (!(next & LFHT_OWN_FLAGS))
			break;
		node = urcu_i_lfht_ptr(next);
	}
	iter->node = node;
	iter->next = (struct cds_lfht_node *) next;
}

void cds_lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	check_read_side(ht, "cds_lfht_first");
	/* Bucket 0 heads the list at every size. */
	first_live(urcu_i_lfht_ptr(urcu_i_lfht_load_next(urcu_i_lfht_bucket(ht, 0))), iter);
}

void cds_lfht_next(struct cds_lfht *ht caa_unused, struct cds_lfht_iter *iter)
{
	first_live(urcu_i_lfht_ptr((uintptr_t) iter->next), iter);
}

void cds_lfht_count_nodes(struct cds_lfht *ht, long *split_count_before,
		unsigned long *count, long *split_count_after)
{
	struct cds_lfht_node *node;
	unsigned long n = 0;
	uintptr_t next;

	check_read_side(ht, "cds_lfht_count_nodes");
	if (split_count_before)
		*split_count_before = (ht->flags & CDS_LFHT_ACCOUNTING) ?
			urcu_i_lfht_split_sum(ht) : 0;
	node = urcu_i_lfht_bucket(ht, 0);
	while (node) {
		next = urcu_i_lfht_load_next(node);
		if (!(next & LFHT_OWN_FLAGS))
			n++;
		node = urcu_i_lfht_ptr(next);
	}
	if (count)
		*count = n;
	if (split_count_after)
		*split_count_after = (ht->flags & CDS_LFHT_ACCOUNTING) ?
			urcu_i_lfht_split_sum(ht) : 0;
}

void cds_lfht_add(struct cds_lfht *ht, unsigned long hash, struct cds_lfht_node *node)
{
	struct urcu_i_lfht_pos pos;
	unsigned long size;

	check_read_side(ht, "cds_lfht_add");
	node->reverse_hash = hash;
	for (;;) {
		size = load_size(ht);
		if (find_pos(urcu_i_lfht_bucket(ht, hash & (size - 1)), hash,
				POS_AFTER_EQUAL, &pos) && link_at(&pos, node))
			break;
	}
	account_add(ht, hash, pos.chain);
}

/*
 * add_unique's body: returns node if linked, else the live matching node.
 * The scan of the run does not help unlinking: it only reads.
 */
static struct cds_lfht_node *add_unique(struct cds_lfht *ht, unsigned long hash,
		cds_lfht_match_fct match, const void *key, struct cds_lfht_node *node)
{
	struct cds_lfht_node *cur;
	struct urcu_i_lfht_pos pos;
	unsigned long size;
	uintptr_t w;

	node->reverse_hash = hash;
	for (;;) {
		size = load_size(ht);
		if (!find_pos(urcu_i_lfht_bucket(ht, hash & (size - 1)), hash,
				POS_BEFORE_EQUAL, &pos))
			continue;
		for (cur = urcu_i_lfht_ptr(pos.prev_next); cur; cur = urcu_i_lfht_ptr(w)) {
			w = urcu_i_lfht_load_next(cur);
			if (cur->reverse_hash != hash)
				break;
			if (!(w & LFHT_OWN_FLAGS) && match(cur, key))
				return cur;
		}
		if (link_at(&pos, node))
			break;
	}
	account_add(ht, hash, pos.chain);
	return node;
}

struct cds_lfht_node *cds_lfht_add_unique(struct cds_lfht *ht, unsigned long hash,
		cds_lfht_match_fct match, const void *key, struct cds_lfht_node *node)
{
	check_read_side(ht, "cds_lfht_add_unique");
	return add_unique(ht, hash, match, key, node);
}

/*
 * Replace old by new_node (same hash already set in new_node): the
 * single CAS of the proof sketch, then unlink old.  -ENOENT if old was
 * removed first.
 */
static int replace_node(struct cds_lfht *ht, struct cds_lfht_node *old,
		struct cds_lfht_node *new_node)
{
	uintptr_t w = urcu_i_lfht_load_next(old), found;

	for (;;) {
		if (w & LFHT_OWN_FLAGS)
			return -ENOENT;	/* removed (or a bucket node: not the caller's) */
		new_node->next = (struct cds_lfht_node *) (w & LFHT_LINK_MASK);
		found = cas_next(old, w, (uintptr_t) new_node | LFHT_REMOVED);
		if (found == w)
			break;
		w = found;
	}
	unlink_removed(ht, old);
	return 0;
}

struct cds_lfht_node *cds_lfht_add_replace(struct cds_lfht *ht, unsigned long hash,
		cds_lfht_match_fct match, const void *key, struct cds_lfht_node *node)
{
	struct cds_lfht_node *old;

	check_read_side(ht, "cds_lfht_add_replace");
	for (;;) {
		old = add_unique(ht, hash, match, key, node);
		if (old == node)
			return NULL;
		if (!replace_node(ht, old, node))
			return old;
		/* old was removed meanwhile: try again. */
	}
}

int cds_lfht_replace(struct cds_lfht *ht, struct cds_lfht_iter *old_iter,
		unsigned long hash, cds_lfht_match_fct match, const void *key,
		struct cds_lfht_node *new_node)
{
	struct cds_lfht_node *old = old_iter->node;

	check_read_side(ht, "cds_lfht_replace");
	if (!old)
		return -ENOENT;
	if (old->reverse_hash != hash || !match(old, key))
		return -EINVAL;
	new_node->reverse_hash = hash;
	return replace_node(ht, old, new_node);
}

int cds_lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node)
{
	uintptr_t w, found;

	check_read_side(ht, "cds_lfht_del");
	if (!node)
		return -ENOENT;
	w = urcu_i_lfht_load_next(node);
	for (;;) {
		if (w & LFHT_OWN_FLAGS)
			return -ENOENT;	/* already removed (bucket nodes are not the caller's) */
		found = cas_next(node, w, w | LFHT_REMOVED);
		if (found == w)
			break;
		w = found;
	}
	unlink_removed(ht, node);
	account_del(ht, node->reverse_hash);
	return 0;
}
