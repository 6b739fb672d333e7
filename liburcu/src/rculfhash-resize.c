// SPDX-License-Identifier: MIT
/*
 * RCU lock-free hash table: resizing.  Resizes of one table are serialised
 * by its resize lock; lookups and updates run concurrently throughout.
 *
 * Grow from S = 2^s to T = 2^t buckets, in ONE pass over the list:
 *  1. allocate the bucket memory of orders s+1 .. t (if an allocation
 *     fails, T becomes the last order allocated: the table grows less and
 *     stays correct; a later request tries again);
 *  2. make resize_seq odd (full barrier: lookups stop trusting TO_BUCKET);
 *  3. for each old bucket i (in index order: the ranges are independent,
 *     and neighbouring indices share cache lines), link the new bucket
 *     nodes of its range (indices i + m*S, 0 < m < T/S) in list order,
 *     each by the ordinary insertion walk starting from the bucket node
 *     linked just before it (so the pass walks the list once);
 *  4. publish size = T (release), make resize_seq even (release).
 * Until step 4 every operation uses S and starts at an old bucket; the new
 * bucket nodes are ordinary list members it walks through (I1, I3 of
 * rculfhash.c).  No grace period is needed: nothing is removed.
 *
 * Shrink from S to T, in one pass:
 *  1. make resize_seq odd, publish size = T;
 *  2. synchronize_rcu: afterwards no operation starts at a bucket >= T,
 *     so none of them is a walk's stable starting point any more (I3);
 *  3. for each remaining bucket i, walk its range, mark each bucket node
 *     of index >= T removed and unlink it (and any removed user node);
 *  4. synchronize_rcu: no reader stands on an unlinked bucket node;
 *  5. make resize_seq even, free the bucket memory of orders t+1 .. s.
 *
 * Splitting a pass (large passes; rculfhash-helpers.c says when, and how
 * the threads register).  Step 3 of both is a set of walks, one per range:
 * the run of the list from an old bucket (grow) or a remaining bucket
 * (shrink), included, to the next one, excluded.  A pass may cut the
 * ranges into parts by the index of their first bucket, contiguous blocks
 * of indices, and give each part to its own thread: the resizing thread
 * and helpers it starts for the pass and joins before step 4.  (By index,
 * not list position: the bucket nodes a part writes, i + m*S for its i,
 * are then blocks of memory of its own; cut in list order, two parts would
 * write alternate buckets of the same cache lines.)  Why concurrent parts
 * are safe:
 *  - Disjoint writes.  A walk writes only inside its range: a grow links
 *    bucket nodes of its range's indices, whose hashes lie between the
 *    range's bucket and the next one (I1), by a CAS on a node of its range;
 *    a shrink marks bucket nodes of its range and unlinks by a CAS on the
 *    predecessor, which is in its range too (the range's first node is a
 *    bucket that stays).  The range boundaries are bucket nodes that no
 *    part links, marks or unlinks, so no two parts CAS the same word, nor
 *    one node that another part removes, however the ranges are dealt
 *    out; each part meets only concurrent updates, exactly as a
 *    single-threaded walk (and the LFHT_LANES walks one thread
 *    interleaves) does.
 *  - Stable starts.  A part starts its walks at buckets that exist before
 *    the pass and that only the resizer removes, and no part removes a
 *    range's first bucket.  A grow from fewer buckets than parts need
 *    links the buckets [S, base) first, on the resizing thread alone; a
 *    shrink to fewer removes the buckets >= base in parts, then those in
 *    [T, base) alone (an unsplit pass does the same with LFHT_LANES as
 *    its base, so that its lanes have walks).  Both sub-passes lie inside
 *    one odd resize_seq and one published size, so operations see one
 *    resize, and each is a complete pass of its own sizes.
 *  - Ordering with the publication.  pthread_create orders what the
 *    resizing thread did before (bucket memory allocated, resize_seq odd
 *    with its full barrier, a shrink's size and first grace period) before
 *    every step of a helper, so a lookup that sees a helper's link (its
 *    full barrier CAS) and reads resize_seq again after its read barrier
 *    reads it odd, as for the resizer's own links.  pthread_join orders
 *    every CAS of a helper before the resizing thread's next step: the
 *    grow's release store of size (a lookup that acquires the new size
 *    finds every new bucket linked) and seq_end; the shrink's second grace
 *    period and the freeing of bucket memory.
 *  - Read side.  Helpers are registered readers of the table's flavor and
 *    walk inside its read-side critical sections, leaving them now and then
 *    as the resizing thread does, so I4 covers them, and they hold up
 *    grace periods no longer than it.  The resizing thread waits for them
 *    outside any read-side critical section (qsbr: offline); a resize
 *    called inside one (resize_in_section) is never split.
 *
 * liburcu resizes one order at a time (each pass walking half the list,
 * each shrink step with its grace periods); one pass per resize is what
 * makes ours faster.  The resizer works inside read-side critical
 * sections of the table's flavor (it loads user nodes that concurrent
 * removals may free) and leaves them now and then, at a node only it can
 * remove, so that it never holds up grace periods for long.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "common.h"
#include "probes.h"
#include "rculfhash-internal.h"

/* Nodes a resize walks between two quiescent points. */
#define LFHT_QUIESCE_STEPS	16384
/* Independent walks a resize interleaves (memory-level parallelism). */
#define LFHT_LANES		8

/* ---- the resize lock: a futex word (0 free, 1 held, 2 held + waiters) -- */

void urcu_i_lfht_resize_lock(struct cds_lfht *ht)
{
	/* Acquire (full barrier RMW): pairs with the release in unlock. */
	int32_t c = uatomic_cmpxchg(&ht->resize_lock, 0, 1);

	if (!c)
		return;
	if (c != 2)
		c = uatomic_xchg(&ht->resize_lock, 2);
	while (c) {
		urcu_common_futex_wait(&ht->resize_lock, 2);
		c = uatomic_xchg(&ht->resize_lock, 2);
	}
}

bool urcu_i_lfht_resize_trylock(struct cds_lfht *ht)
{
	/* Full barrier RMW: as in urcu_i_lfht_resize_lock. */
	return uatomic_cmpxchg(&ht->resize_lock, 0, 1) == 0;
}

void urcu_i_lfht_resize_unlock(struct cds_lfht *ht)
{
	/* Release (full barrier RMW): pairs with the lock's RMW. */
	if (uatomic_xchg(&ht->resize_lock, 0) == 2)
		urcu_common_futex_wake(&ht->resize_lock, 1);
}

/* ---- read side of the resizer ------------------------------------------- */

/* qsbr: online for the walk; the other flavors' online/offline are no-ops. */
static void resizer_enter(const struct cds_lfht *ht)
{
	ht->flavor->thread_online();
	ht->flavor->read_lock();
}

static void resizer_exit(const struct cds_lfht *ht)
{
	ht->flavor->read_unlock();
	ht->flavor->thread_offline();
}

/* A quiescent point: lets grace periods end.  False if destroy began. */
static bool resizer_quiesce(const struct cds_lfht *ht)
{
	resizer_exit(ht);
	resizer_enter(ht);
	return !(uatomic_read(&ht->state) & LFHT_DESTROYING);
}

static void seq_begin(struct cds_lfht *ht)
{
	/*
	 * Full barrier (add_return): the odd value is visible before any
	 * bucket node is linked or unpublished; pairs with the read barrier
	 * before a lookup's second read of resize_seq (rculfhash.c).
	 */
	(void) uatomic_add_return(&ht->resize_seq, 1);
}

static void seq_end(struct cds_lfht *ht)
{
	/*
	 * Release: everything the resize did (size, bucket links) before the
	 * even value; pairs with the acquire load at the start of a lookup.
	 */
	uatomic_store(&ht->resize_seq, ht->resize_seq + 1, CMM_RELEASE);
}

/* ---- creation --------------------------------------------------------------- */

void urcu_i_lfht_init_buckets(struct cds_lfht *ht, unsigned long size)
{
	unsigned int order = urcu_i_lfht_order(size);
	struct cds_lfht_node *prev = NULL, *node;
	unsigned long u, idx;

	/* No other thread sees the table yet: plain stores, in list order. */
	for (u = 0; u < size; u++) {
		idx = urcu_i_lfht_rev_bits(u, order);
		node = urcu_i_lfht_bucket(ht, idx);
		node->reverse_hash = idx;
		if (prev)
			prev->next = (struct cds_lfht_node *)
				((uintptr_t) node | LFHT_TO_BUCKET | LFHT_BUCKET);
		prev = node;
	}
	prev->next = (struct cds_lfht_node *) (LFHT_TO_BUCKET | LFHT_BUCKET);	/* I6 */
}

/* ---- grow -------------------------------------------------------------------- */

/*
 * Link bucket node `node' (reverse hash set) after `start', a bucket node
 * that precedes it and that only the resizer could remove.
 */
static unsigned int link_bucket(struct cds_lfht_node *start, struct cds_lfht_node *node)
{
	struct urcu_i_lfht_pos pos;
	unsigned int steps = 0;

	for (;;) {
		if (urcu_i_lfht_find_pos(start, node->reverse_hash, POS_BEFORE_EQUAL, &pos)) {
			steps += pos.steps;
			node->next = (struct cds_lfht_node *)
				((pos.prev_next & LFHT_LINK_MASK) | LFHT_BUCKET);
			if (urcu_i_lfht_cas_next(pos.prev, pos.prev_next,
					(uintptr_t) node | LFHT_TO_BUCKET
					| (pos.prev_next & LFHT_OWN_FLAGS)) == pos.prev_next)
				return steps;
		}
		steps++;
	}
}

/*
 * Step 3 of a grow (see the top), for the old buckets of indices [from,
 * to) (all of them, or one part of a split pass).  The old buckets'
 * ranges are independent,
 * so LFHT_LANES of them are worked on in turn, one bucket insertion each:
 * after a lane's step the node its next walk starts with, and the bucket
 * memory it writes next, are prefetched, and the other lanes' steps hide
 * that latency (a single walk would wait for each cache miss in turn).
 * Every lane's position is a bucket node of this grow, which only the
 * resizer could remove, so the pass may leave its read-side critical
 * section at any step.  False if a destroy cut it short.
 */
static bool grow_pass(struct cds_lfht *ht, unsigned long old_size, unsigned long new_size,
		unsigned long from, unsigned long to)
{
	unsigned int s = urcu_i_lfht_order(old_size);
	unsigned int d = urcu_i_lfht_order(new_size) - s;
	unsigned long nfine = 1UL << d, ci = from, idx;
	struct grow_lane {
		struct cds_lfht_node *start;	/* last bucket node linked */
		unsigned long i, m;		/* old bucket, next new one in its range */
	} lane[LFHT_LANES], *l;
	struct cds_lfht_node *node;
	unsigned int nl = 0, k, steps = 0;
	bool ok = true;

	resizer_enter(ht);
	while (nl < LFHT_LANES && ci < to) {
		l = &lane[nl++];
		l->i = ci++;
		l->start = urcu_i_lfht_bucket(ht, l->i);
		l->m = 1;
	}
	while (nl && ok) {
		for (k = 0; k < nl; ) {
			l = &lane[k];
			idx = l->i | (urcu_i_lfht_rev_bits(l->m, d) << s);
			node = urcu_i_lfht_bucket(ht, idx);
			node->reverse_hash = idx;
			steps += link_bucket(l->start, node);
			l->start = node;
			if (++l->m == nfine) {
				if (ci == to) {
					*l = lane[--nl];
					continue;
				}
				l->i = ci++;
				l->start = urcu_i_lfht_bucket(ht, l->i);
				l->m = 1;
			}
			/* Prefetches (hints only; a stale pointer is harmless). */
			__builtin_prefetch(urcu_i_lfht_ptr((uintptr_t) CMM_LOAD_SHARED(l->start->next)));
			__builtin_prefetch(urcu_i_lfht_bucket(ht,
				l->i | (urcu_i_lfht_rev_bits(l->m, d) << s)), 1);
			k++;
		}
		if (steps >= LFHT_QUIESCE_STEPS) {
			steps = 0;
			ok = resizer_quiesce(ht);
		}
	}
	resizer_exit(ht);
	return ok;
}

/* ---- splitting a pass across threads -------------------------------------- */

/*
 * The ranges a split pass cuts into parts: at least LFHT_LANES per part
 * (each thread interleaves as many walks as one thread alone would), or
 * all of them (size: the old size of a grow, the new one of a shrink) if
 * there are more.
 */
static unsigned long split_base(unsigned int n, unsigned long size)
{
	unsigned long b = 1UL << urcu_i_lfht_order((unsigned long) n * LFHT_LANES);

	return b > size ? b : size;
}

/*
 * Do fn over the ranges [0, nranges) of the pass old_size -> new_size in n
 * contiguous parts, part 0 in this thread, the others on helpers
 * (rculfhash-helpers.c).  False if a part was cut short by a destroy.
 */
static bool split_pass(struct cds_lfht *ht, void (*fn)(struct urcu_i_lfht_part *),
		unsigned long old_size, unsigned long new_size, unsigned long nranges,
		unsigned int n)
{
	struct urcu_i_lfht_part part[LFHT_MAX_PARTS];
	unsigned long q = nranges / n, r = nranges % n;
	unsigned int k;
	bool ok = true;

	for (k = 0; k < n; k++) {
		part[k].ht = ht;
		part[k].fn = fn;
		part[k].old_size = old_size;
		part[k].new_size = new_size;
		/* Sizes q or q + 1, back to back: [0, nranges) exactly once. */
		part[k].from = k * q + caa_min((unsigned long) k, r);
		part[k].to = part[k].from + q + (k < r);
		part[k].ok = true;
	}
	urcu_i_lfht_run_parts(part, n);
	for (k = 0; k < n; k++)
		ok = ok && part[k].ok;
	return ok;
}

static void grow_part(struct urcu_i_lfht_part *p)
{
	p->ok = grow_pass(p->ht, p->old_size, p->new_size, p->from, p->to);
}

/*
 * Step 3 of a grow S -> T, split into n parts when large ("Splitting" at
 * the top).  The parts cut the old buckets' ranges; with fewer than
 * split_base() old buckets, the buckets below that base are linked first
 * by this thread alone, and the parts cut the base's ranges.  Unsplit
 * (n = 1) the same holds with a base of LFHT_LANES: a grow from fewer
 * buckets would have fewer walks than lanes (from 1 bucket: one walk, no
 * memory-level parallelism; bench-hash -m regrow20-empty1 took 2.5x the
 * time).  The sub-pass costs one walk of the list on one lane, which a
 * table with many nodes per old bucket pays twice over; such a table
 * (chains of thousands) is rare, an empty table sized up before a bulk
 * load is not.
 */
static bool grow_split(struct cds_lfht *ht, unsigned long old_size, unsigned long new_size,
		bool helpers)
{
	unsigned int n = helpers ? urcu_i_lfht_parts(new_size - old_size) : 1;
	unsigned long base = split_base(n, old_size);

	if (base >= new_size)
		return grow_pass(ht, old_size, new_size, 0, old_size);
	if (base > old_size && !grow_pass(ht, old_size, base, 0, old_size))
		return false;
	if (n < 2)
		return grow_pass(ht, base, new_size, 0, base);
	return split_pass(ht, grow_part, base, new_size, base, n);
}

/*
 * Grow towards new_size; returns the size reached.  helpers: the caller is
 * in no read-side critical section, so a large pass may be split (see
 * split_pass()).
 */
static unsigned long grow(struct cds_lfht *ht, unsigned long old_size, unsigned long new_size,
		bool helpers)
{
	unsigned int k, s = urcu_i_lfht_order(old_size), t = urcu_i_lfht_order(new_size);

	for (k = s + 1; k <= t; k++) {
		if (ht->alloc_order < (int) k)
			ht->mm->alloc_bucket_table(ht, k);
		if (ht->alloc_order < (int) k)
			break;		/* out of memory: grow as far as allocated */
	}
	new_size = 1UL << (k - 1);
	if (new_size <= old_size)
		return old_size;
	URCU_PROBE(lfht_resize_start, ht, old_size, new_size);
	seq_begin(ht);
	if (!grow_split(ht, old_size, new_size, helpers))
		return old_size;	/* being destroyed: nobody looks any more */
	/*
	 * Release: the new buckets are linked (by this thread, or by helpers
	 * it joined: pthread_join orders their CASes before this store);
	 * pairs with load_size().
	 */
	uatomic_store(&ht->size, new_size, CMM_RELEASE);
	seq_end(ht);
	URCU_PROBE(lfht_resize_end, ht, old_size, new_size);
	return new_size;
}

/* ---- shrink ------------------------------------------------------------------- */

/* A walk of step 3 of a shrink, through the range of one remaining bucket. */
struct shrink_lane {
	struct cds_lfht_node *start;	/* the remaining bucket: stable */
	struct cds_lfht_node *prev;
	uintptr_t prev_next;
};

static void shrink_lane_start(struct cds_lfht *ht, struct shrink_lane *l, unsigned long i)
{
	l->start = l->prev = urcu_i_lfht_bucket(ht, i);
	l->prev_next = urcu_i_lfht_load_next(l->prev);
}

/*
 * One node of the walk: mark a bucket node >= new_size removed, unlink any
 * removed node.  Returns false once the range is done (the next remaining
 * bucket node, or the end of the list).
 */
static bool shrink_step(struct shrink_lane *l, unsigned long new_size)
{
	struct cds_lfht_node *cur = urcu_i_lfht_ptr(l->prev_next);
	uintptr_t w, v;

	if (!cur)
		return false;
	w = urcu_i_lfht_load_next(cur);
	if ((w & LFHT_OWN_FLAGS) == LFHT_BUCKET) {
		if (cur->reverse_hash < new_size)
			return false;	/* the next remaining bucket: range done */
		/* Mark it removed (full barrier CAS, I2); on a race, next time. */
		if (urcu_i_lfht_cas_next(cur, w, w | LFHT_REMOVED) != w)
			return true;
		w |= LFHT_REMOVED;
	}
	if (w & LFHT_REMOVED) {
		v = (w & LFHT_LINK_MASK) | (l->prev_next & LFHT_OWN_FLAGS);
		if (urcu_i_lfht_cas_next(l->prev, l->prev_next, v) != l->prev_next) {
			/* Lost a race on prev: start again from the stable bucket. */
			l->prev = l->start;
			l->prev_next = urcu_i_lfht_load_next(l->start);
			return true;
		}
		l->prev_next = v;
	} else {
		l->prev = cur;
		l->prev_next = w;
	}
	__builtin_prefetch(urcu_i_lfht_ptr(l->prev_next));	/* hint */
	return true;
}

/*
 * Step 3 of a shrink, for the remaining buckets of indices [from, to),
 * LFHT_LANES ranges at a time as in grow_pass().  The
 * only stable positions are the remaining buckets, so the pass leaves its
 * read-side critical section only between ranges: when due, it stops
 * starting new ranges, lets the lanes finish theirs, and quiesces.
 */
static void shrink_pass(struct cds_lfht *ht, unsigned long new_size, unsigned long from,
		unsigned long to)
{
	unsigned int nl = 0, k, steps = 0;
	struct shrink_lane lane[LFHT_LANES];
	unsigned long ci = from;

	resizer_enter(ht);
	while (ci < to || nl) {
		while (nl < LFHT_LANES && ci < to && steps < LFHT_QUIESCE_STEPS)
			shrink_lane_start(ht, &lane[nl++], ci++);
		if (!nl) {
			steps = 0;
			(void) resizer_quiesce(ht);	/* a shrink runs to its end */
			continue;
		}
		for (k = 0; k < nl; ) {
			steps++;
			if (shrink_step(&lane[k], new_size))
				k++;
			else
				lane[k] = lane[--nl];
		}
	}
	resizer_exit(ht);
}

static void shrink_part_fn(struct urcu_i_lfht_part *p)
{
	shrink_pass(p->ht, p->new_size, p->from, p->to);	/* runs to its end */
}

/*
 * Step 3 of a shrink S -> T, split into n parts when large ("Splitting" at
 * the top).  The parts cut the remaining buckets' ranges; with fewer than
 * split_base() remaining buckets, the parts remove the bucket nodes of the
 * base and above, each range ending at a bucket node below the base, and
 * then this thread alone removes those of [T, base).  Unsplit, the same
 * with a base of LFHT_LANES, as in grow_split() (a shrink to 1 bucket:
 * 5x the time on one walk).
 */
static void shrink_split(struct cds_lfht *ht, unsigned long old_size, unsigned long new_size)
{
	unsigned int n = urcu_i_lfht_parts(old_size - new_size);
	unsigned long base = split_base(n, new_size);

	if (base < old_size) {
		if (n < 2)
			shrink_pass(ht, base, 0, base);
		else
			(void) split_pass(ht, shrink_part_fn, old_size, base, base, n);
		if (base == new_size)
			return;
	}
	shrink_pass(ht, new_size, 0, new_size);
}

static void shrink(struct cds_lfht *ht, unsigned long old_size, unsigned long new_size)
{
	unsigned int k, t = urcu_i_lfht_order(new_size), s = urcu_i_lfht_order(old_size);

	URCU_PROBE(lfht_resize_start, ht, old_size, new_size);
	seq_begin(ht);
	/* Release: pairs with load_size(); nothing new to publish but order. */
	uatomic_store(&ht->size, new_size, CMM_RELEASE);
	ht->flavor->update_synchronize_rcu();
	shrink_split(ht, old_size, new_size);
	/* Also after the helpers' unlinks: they were joined (pthread_join) before. */
	ht->flavor->update_synchronize_rcu();
	seq_end(ht);
	for (k = s; k > t; k--)
		ht->mm->free_bucket_table(ht, k);
	URCU_PROBE(lfht_resize_end, ht, old_size, new_size);
}

/* ---- driver --------------------------------------------------------------- */

void urcu_i_lfht_do_resize(struct cds_lfht *ht)
{
	unsigned long target, size, reached;

	for (;;) {
		if (uatomic_read(&ht->state) & LFHT_DESTROYING)
			return;
		target = uatomic_read(&ht->resize_target);
		size = ht->size;	/* only resizes write it, and we hold the lock */
		if (target == size)
			return;
		if (target > size) {
			reached = grow(ht, size, target, true);
			if (reached < target) {
				/* Out of memory (or destroyed): stop here. */
				(void) uatomic_cmpxchg(&ht->resize_target, target, reached);
				return;
			}
		} else {
			shrink(ht, size, target);
		}
	}
}

static void locked_resize(void *arg)
{
	struct cds_lfht *ht = (struct cds_lfht *) arg;

	urcu_i_lfht_resize_lock(ht);
	urcu_i_lfht_do_resize(ht);
	urcu_i_lfht_resize_unlock(ht);
}

/* The background thread's resize, or an unregistered caller's. */
void urcu_i_lfht_background_resize(struct cds_lfht *ht)
{
	urcu_i_lfht_as_reader(ht, locked_resize, ht);
}

/*
 * Inside a read-side critical section of a flavor other than qsbr: a grow
 * needs no grace period, so it runs (as in liburcu), on this thread alone
 * (helpers would register with the flavor, whose registry lock a grace
 * period waiting for this very section may hold, while this thread waits
 * for them inside the section); a shrink would wait for
 * this very section, so it aborts with a message.  The resize lock is only
 * tried: its holder may be waiting for a grace period that waits for us,
 * and it reads the raised target before it lets go.
 */
static void resize_in_section(struct cds_lfht *ht, unsigned long new_size)
{
	unsigned long t = uatomic_read(&ht->resize_target);

	if (new_size < uatomic_read(&ht->size))	/* a snapshot suffices: only compared */
		urcu_common_die("cds_lfht_resize", "a shrink called inside a read-side critical "
			"section would wait for that section (deadlock)");
	/* Raise the target, never lower it (full barrier CAS: as in grow requests). */
	while (t < new_size) {
		unsigned long old = uatomic_cmpxchg(&ht->resize_target, t, new_size);

		if (old == t)
			break;
		t = old;
	}
	if (!urcu_i_lfht_resize_trylock(ht))
		return;
	if (ht->size < new_size)	/* only resizes write it, and we hold the lock */
		(void) grow(ht, ht->size, new_size, false);	/* no helpers: see above */
	urcu_i_lfht_resize_unlock(ht);
}

/*
 * cds_lfht_resize: resize ht to new_size buckets (rounded to a power of two,
 * at most the table's maximum) and return once done.  The caller need not
 * be registered: an unregistered thread is registered for the duration, as
 * the background resizer is.  qsbr: an online caller goes offline for the
 * duration (as liburcu 0.15's does through synchronize_rcu).  Other flavors:
 * inside a read-side critical section only a grow runs (see
 * resize_in_section).  Ordering: the resize's effects are visible to lookups
 * that start after it returns (release publication of the size).
 */
void cds_lfht_resize(struct cds_lfht *ht, unsigned long new_size)
{
	const struct rcu_flavor_struct *fl = ht->flavor;
	unsigned long max = 1UL << ht->max_order;
	bool was_online;

	if (new_size > max)
		new_size = max;
	new_size = new_size ? 1UL << urcu_i_lfht_order(new_size) : 1;
	if (fl->urcu_i_thread_registered && !fl->urcu_i_thread_registered()) {
		urcu_common_misuse("cds_lfht_resize", "calling thread is not registered with the "
			"table's flavor; registered it for the resize");
		uatomic_set(&ht->resize_target, new_size);
		urcu_i_lfht_background_resize(ht);
		return;
	}
	was_online = fl->read_ongoing();
	if (was_online)
		fl->thread_offline();	/* qsbr only: the others' offline is empty */
	if (fl->read_ongoing()) {
		resize_in_section(ht, new_size);
		return;
	}
	uatomic_set(&ht->resize_target, new_size);
	urcu_i_lfht_resize_lock(ht);
	urcu_i_lfht_do_resize(ht);
	urcu_i_lfht_resize_unlock(ht);
	if (was_online)
		fl->thread_online();
}
