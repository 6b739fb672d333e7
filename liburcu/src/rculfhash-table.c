// SPDX-License-Identifier: MIT
/*
 * RCU lock-free hash table: creation, destruction, node accounting and the
 * auto-resize policy.
 *
 * Accounting: what an update counts, by the table's flags.
 *  - CDS_LFHT_ACCOUNTING (with or without AUTO_RESIZE): every add and del,
 *    exactly, in split counters, one cache line per CPU slot (the slot of
 *    sched_getcpu(), or of the hash when the CPU is unknown), so that
 *    updates on different CPUs do not share a line: a sched_getcpu() and a
 *    relaxed atomic add per update.  cds_lfht_count_nodes() reports the
 *    sum.  The program asked for it.
 *  - CDS_LFHT_AUTO_RESIZE alone: a sample.  Only nodes whose hash is in it
 *    (urcu_i_lfht_sampled(): the top LFHT_SAMPLE_ORDER bits of the hash
 *    times 2^W/phi are zero, 1 hash in 16) are counted, in the slot the
 *    next bits of that product pick (no sched_getcpu()).  Every other
 *    update costs a multiply and a compare.  Membership depends on the
 *    hash alone, so a node's add and del are both counted or both not:
 *    the count of sampled nodes is exact (it never drifts), and 16 times it
 *    estimates the node count (binomial: a standard deviation of 4% at
 *    10,000 nodes, 12% at 1,000, for a hash that spreads its keys).
 *  - neither: nothing.
 * Every 2^LFHT_COMMIT_ORDER (1024) counted adds or removals on one slot
 * are committed to the table-wide count, ht->count, in nodes (a sampled
 * commit stands for 1024 * 16).  The counters are allocated at creation
 * (both counting kinds), so that no update ever allocates (or fails to).
 *
 * liburcu (0.13.2 to 0.15, src/rculfhash.c) allocates and updates split
 * counters only with ACCOUNTING; an AUTO_RESIZE table without it grows
 * from chain length alone (an add that walks past 3 distinct hashes in its
 * bucket asks for 4 times the size it loaded, 8 times from 5) and never
 * shrinks automatically.  Chain length alone, under churn at a constant
 * count, keeps growing the table: the chance of a long chain falls with
 * the load but never reaches zero (1,000 live keys under 200,000 adds and
 * removes reach 2^16 buckets there; tests/hash/test_hash_autoresize.c
 * "small").  The sample bounds both ways.
 *
 * Auto-resize (CDS_LFHT_AUTO_RESIZE), decided on the updater's thread and
 * carried out on the background thread (rculfhash-worker.c).  Every
 * decision compares the count with the size the table is heading for,
 * resize_target (equal to size unless a resize is queued or running),
 * not with the current size.  "large" below is large_count(): 1024
 * counted updates per slot, in nodes (2^10 * slots with ACCOUNTING,
 * 2^14 * slots with the sample), the most the committed count can be off:
 *  - when a commit brings the count to a power of two of at least
 *    LFHT_GROW_LOAD * resize_target and at least 2 * large, the table
 *    grows to count buckets (load 1);
 *  - when a commit brings it down to a power of two at most resize_target
 *    / LFHT_SHRINK_LOAD_INV and at least large, it shrinks to count
 *    buckets (with the sample too: a table without ACCOUNTING shrinks,
 *    which liburcu's never does by itself; below large it keeps its size);
 *  - small tables, committed count below 2 * large: an add that walked past
 *    at least LFHT_CHAIN_LEN distinct hashes in its bucket sums the split
 *    counters, and the table grows to that count (the sample: 16 times
 *    one more sampled node than found) rounded up to a power of two, only
 *    if it exceeds resize_target.  With ACCOUNTING every such add sums;
 *    with the sample only a sampled one, or one that walked past
 *    LFHT_CHAIN_LEN_UNSAMPLED (8) hashes, so that a table whose few nodes
 *    include none of the sample still grows.  A long chain alone (bad luck
 *    at a low load) never grows the table, so a small table stays small
 *    however long it is used.
 * A grow request raises resize_target, a shrink request lowers it; the
 * background thread resizes until size == resize_target, so the last
 * decision wins even over a resize still queued or running.  The request
 * itself is lock-free and waits for nothing (rculfhash-worker.c): the
 * updater is inside a read-side critical section, which must not wait for
 * anything that waits for a grace period (a fork in progress does).  The
 * thread is started when the table is created, not by a request.
 *
 * Why resize_target and not size: the background thread may run late (a
 * loaded machine; a fork parks it).  With the current size as the
 * reference, a shrink still queued (size 32768, resize_target 2048) made
 * every later add compare with 32768: 32,768 adds asked for no grow, then
 * the shrink ran and left 36,864 nodes in 2,048 buckets, and nothing asked
 * again until the count doubled (tests/hash/test_hash_autoresize.c
 * "queued"; seen as the intermittent failure of test_hash_fork.c).
 * Likewise a grow still queued hid the shrinks that deletions asked for.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "rculfhash-internal.h"
/* Only the hash table's steps: this unit has no flavor. */
#define URCU_I_STEPS_NO_FLAVOR
#include "urcu-steps.h"

#define LFHT_GROW_LOAD		2	/* grow at count >= 2 * size */
#define LFHT_SHRINK_LOAD_INV	4	/* shrink at count <= size / 4 */

static bool is_pow2(unsigned long v)
{
	return v && !(v & (v - 1));
}

/* Split counter slots: CPUs configured, rounded up, at most LFHT_MAX_SPLIT. */
static unsigned int split_slots(void)
{
	static unsigned int cached;
	unsigned int n = uatomic_read(&cached);
	long cpus;

	if (n)
		return n;
	cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (cpus < 1)
		cpus = 16;	/* unknown: a modest default */
	if (cpus > LFHT_MAX_SPLIT)
		cpus = LFHT_MAX_SPLIT;
	n = 1U << urcu_i_lfht_order((unsigned long) cpus);
	uatomic_set(&cached, n);
	return n;
}

/* The split counters of a counting table, zeroed; NULL if out of memory. */
static struct urcu_i_lfht_split *alloc_split(struct cds_lfht *ht)
{
	struct urcu_i_lfht_split *split;
	size_t bytes = (ht->split_mask + 1U) * sizeof(*split);

	if (ht->alloc->aligned_alloc) {
		split = ht->alloc->aligned_alloc(ht->alloc->state, CAA_CACHE_LINE_SIZE, bytes);
		if (split)
			memset(split, 0, bytes);
		return split;
	}
	return ht->alloc->calloc(ht->alloc->state, 1, bytes);
}

struct cds_lfht *_cds_lfht_new_with_alloc(unsigned long init_size,
		unsigned long min_nr_alloc_buckets, unsigned long max_nr_buckets,
		int flags, const struct cds_lfht_mm_type *mm,
		const struct rcu_flavor_struct *flavor,
		const struct cds_lfht_alloc *alloc, pthread_attr_t *attr)
{
	struct cds_lfht *ht;
	unsigned int order, k;

	if (!is_pow2(init_size) || !is_pow2(min_nr_alloc_buckets) || !flavor)
		return NULL;
	if (!mm) {
#if CAA_BITS_PER_LONG > 32
		if (max_nr_buckets && max_nr_buckets <= (1UL << 32))
			mm = &cds_lfht_mm_mmap;
		else
#endif
			mm = &cds_lfht_mm_order;
	}
	if (!max_nr_buckets && mm == &cds_lfht_mm_order)
		max_nr_buckets = 1UL << (CAA_BITS_PER_LONG - 1);
	if (!is_pow2(max_nr_buckets))
		return NULL;
	if (max_nr_buckets < min_nr_alloc_buckets)
		max_nr_buckets = min_nr_alloc_buckets;
	if (init_size > max_nr_buckets)
		init_size = max_nr_buckets;

	ht = mm->alloc_cds_lfht(min_nr_alloc_buckets, max_nr_buckets, alloc);
	if (!ht)
		return NULL;
	ht->mm = mm;
	ht->flavor = flavor;
	ht->flags = (unsigned char) (flags & (CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING));
	ht->attr = attr;
	ht->split_mask = (unsigned char) (split_slots() - 1);
	order = urcu_i_lfht_order(init_size);
	for (k = 0; k <= order; k++) {
		mm->alloc_bucket_table(ht, k);
		if (ht->alloc_order < (int) k) {
			urcu_i_lfht_free(ht);
			return NULL;
		}
	}
	if (ht->flags & (CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING)) {
		ht->split = alloc_split(ht);
		if (!ht->split) {
			urcu_i_lfht_free(ht);
			return NULL;
		}
	}
	if ((ht->flags & CDS_LFHT_AUTO_RESIZE) && !urcu_i_lfht_worker_attach(flavor)) {
		urcu_i_lfht_free(ht);
		return NULL;
	}
	urcu_i_lfht_init_buckets(ht, init_size);
	ht->size = init_size;
	ht->resize_target = init_size;
	return ht;
}

struct cds_lfht *_cds_lfht_new(unsigned long init_size,
		unsigned long min_nr_alloc_buckets, unsigned long max_nr_buckets,
		int flags, const struct cds_lfht_mm_type *mm,
		const struct rcu_flavor_struct *flavor, pthread_attr_t *attr)
{
	return _cds_lfht_new_with_alloc(init_size, min_nr_alloc_buckets,
			max_nr_buckets, flags, mm, flavor, NULL, attr);
}

void urcu_i_lfht_free(struct cds_lfht *ht)
{
	struct cds_lfht_alloc alloc = *ht->alloc;	/* may live in *ht */
	int k;

	for (k = ht->alloc_order; k >= 0; k--)
		ht->mm->free_bucket_table(ht, (unsigned long) k);
	if (ht->split)
		alloc.free(alloc.state, ht->split);
	alloc.free(alloc.state, ht);
}

/*
 * Does the table hold no user node?  Runs in a read-side critical section
 * of the table's flavor, entered here if the caller is not in one (qsbr:
 * online for the walk, offline again after).
 */
static bool table_empty(struct cds_lfht *ht)
{
	const struct rcu_flavor_struct *fl = ht->flavor;
	bool enter = !fl->read_ongoing();
	struct cds_lfht_node *node;
	bool empty = true;
	uintptr_t next;

	if (enter) {
		fl->thread_online();
		fl->read_lock();
	}
	for (node = urcu_i_lfht_bucket(ht, 0); node; node = urcu_i_lfht_ptr(next)) {
		next = urcu_i_lfht_load_next(node);
		if (!(next & LFHT_OWN_FLAGS)) {
			empty = false;
			break;
		}
	}
	if (enter) {
		fl->read_unlock();
		fl->thread_offline();
	}
	return empty;
}

int cds_lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr)
{
	if (!table_empty(ht))
		return -EPERM;
	if (ht->flags & CDS_LFHT_AUTO_RESIZE) {
		/*
		 * Asynchronous: the background thread frees the table after
		 * the resize of it in progress, if any, which the flag cuts
		 * short.  Read attr first: the table may be gone on return
		 * from urcu_i_lfht_queue_work().
		 */
		if (attr)
			*attr = ht->attr;
		uatomic_or(&ht->state, LFHT_DESTROYING);
		URCU_I_STEP_LFHT_DESTROY_QUEUE(ht);
		return 0;
	}
	if (!urcu_i_lfht_resize_trylock(ht))
		return -EBUSY;
	if (attr)
		*attr = ht->attr;
	urcu_i_lfht_free(ht);
	return 0;
}

/* ---- accounting ------------------------------------------------------------ */

static unsigned int split_index(const struct cds_lfht *ht, unsigned long hash)
{
	int cpu = sched_getcpu();

	return (cpu < 0 ? (unsigned int) hash : (unsigned int) cpu) & ht->split_mask;
}

long urcu_i_lfht_split_sum(struct cds_lfht *ht)
{
	struct urcu_i_lfht_split *split = ht->split;	/* set before the table was published */
	unsigned long sum = 0;
	unsigned int i;

	if (!split)
		return 0;
	for (i = 0; i <= ht->split_mask; i++)
		sum += uatomic_read(&split[i].add) - uatomic_read(&split[i].del);
	return (long) sum;
}

/*
 * The size the table is heading for.  Relaxed: a policy input; a stale
 * value costs one resize more or less, never correctness (requests are
 * CASes on the current value, and the background thread resizes to the
 * value it reads last).
 */
static unsigned long heading(struct cds_lfht *ht)
{
	return uatomic_read(&ht->resize_target);
}

/*
 * Move resize_target to target (a power of two, capped at the maximum) and
 * queue the table: grow, raise it if lower (never lower a target another
 * updater raised further meanwhile); !grow, lower it if higher.
 */
static void request_resize(struct cds_lfht *ht, unsigned long target, bool grow)
{
	unsigned long max = 1UL << ht->max_order, cur, found;

	if (target > max)
		target = max;
	cur = uatomic_read(&ht->resize_target);
	while (grow ? cur < target : cur > target) {
		/*
		 * Full barrier CAS, of which only atomicity is needed (a
		 * plain store could undo a concurrent request's target).  No
		 * pairing of its own: the request below is a full barrier
		 * CAS (or, when the table is queued already, a read of
		 * ht->work after this barrier) paired with the background
		 * thread's xchg of ht->work, after which it reads
		 * resize_target (rculfhash-worker.c, R1/R2).
		 */
		found = uatomic_cmpxchg(&ht->resize_target, cur, target);
		if (found == cur) {
			urcu_i_lfht_queue_work(ht, LFHT_WORK_RESIZE);
			return;
		}
		cur = found;
	}
}

/* log2 of the nodes one counted update stands for (see the top). */
static unsigned int unit_order(const struct cds_lfht *ht)
{
	return (ht->flags & CDS_LFHT_ACCOUNTING) ? 0 : LFHT_SAMPLE_ORDER;
}

/*
 * 1024 counted updates per slot, in nodes: how far the committed count may
 * be from the true one (each slot's adds, or dels, may cross a commit point
 * before the other's).  A shrink needs a count at least this large, a
 * grow from a commit twice this (the true count is then at least half the
 * committed one); below that the small-table check decides.
 */
static unsigned long large_count(const struct cds_lfht *ht)
{
	return ((unsigned long) ht->split_mask + 1) << (LFHT_COMMIT_ORDER + unit_order(ht));
}

/* Commit delta (+-1024 counted updates, in nodes) to the count; apply the policy. */
static void commit_count(struct cds_lfht *ht, long delta)
{
	long count = uatomic_add_return_mo(&ht->count, delta, CMM_RELAXED);
	unsigned long c = (unsigned long) count;

	if (!(ht->flags & CDS_LFHT_AUTO_RESIZE) || count <= 0 || !is_pow2(c))
		return;
	if (uatomic_read(&ht->state) & LFHT_DESTROYING)
		return;
	if (delta > 0) {
		if (c >= LFHT_GROW_LOAD * heading(ht) && c >= 2 * large_count(ht))
			request_resize(ht, c, true);
	} else if (c * LFHT_SHRINK_LOAD_INV <= heading(ht) && c >= large_count(ht)) {
		request_resize(ht, c, false);
	}
}

/*
 * Small-table check after an add that met a long chain (see the top): the
 * counted nodes, summed over the slots, in nodes.  Without ACCOUNTING the
 * estimate counts one sampled node more than found, so that a table whose
 * few nodes include none of the sample still grows to 2^LFHT_SAMPLE_ORDER
 * buckets.
 */
static void check_chain(struct cds_lfht *ht)
{
	unsigned int unit = unit_order(ht);
	unsigned long est;
	long n;

	if ((unsigned long) uatomic_read(&ht->count) >= 2 * large_count(ht))
		return;		/* large: the committed count decides */
	n = urcu_i_lfht_split_sum(ht);
	if (unit)
		n = n < 0 ? 1 : n + 1;
	if (n <= 0)
		return;
	est = (unsigned long) n << unit;
	if (est <= heading(ht))
		return;
	if (uatomic_read(&ht->state) & LFHT_DESTROYING)
		return;
	request_resize(ht, 1UL << urcu_i_lfht_order(est), true);
}

/* Count an add on a slot; unit: log2 of the nodes it stands for. */
static void count_add_at(struct cds_lfht *ht, unsigned int slot, unsigned int unit,
		bool check)
{
	unsigned long v;

	/* Relaxed: a statistic; the policy tolerates any interleaving. */
	v = uatomic_add_return_mo(&ht->split[slot].add, 1, CMM_RELAXED);
	if (caa_unlikely(!(v & ((1UL << LFHT_COMMIT_ORDER) - 1))))
		commit_count(ht, 1L << (LFHT_COMMIT_ORDER + unit));
	else if (caa_unlikely(check))
		check_chain(ht);
}

static void count_del_at(struct cds_lfht *ht, unsigned int slot, unsigned int unit)
{
	unsigned long v;

	/* Relaxed: as in count_add_at. */
	v = uatomic_add_return_mo(&ht->split[slot].del, 1, CMM_RELAXED);
	if (caa_unlikely(!(v & ((1UL << LFHT_COMMIT_ORDER) - 1))))
		commit_count(ht, -(1L << (LFHT_COMMIT_ORDER + unit)));
}

void urcu_i_lfht_count_add(struct cds_lfht *ht, unsigned long hash, unsigned int chain)
{
	count_add_at(ht, split_index(ht, hash), 0,
		chain >= LFHT_CHAIN_LEN && (ht->flags & CDS_LFHT_AUTO_RESIZE));
}

void urcu_i_lfht_count_del(struct cds_lfht *ht, unsigned long hash)
{
	count_del_at(ht, split_index(ht, hash), 0);
}

/*
 * The slot of a sampled hash: the bits of the mixed hash below those that
 * chose the sample.  No sched_getcpu(): a sampled update is rare enough
 * that two CPUs sharing a slot now and then cost little.
 */
static unsigned int sample_slot(const struct cds_lfht *ht, unsigned long hash)
{
	return (unsigned int) (urcu_i_lfht_mix(hash)
		>> (CAA_BITS_PER_LONG - LFHT_SAMPLE_ORDER - 8)) & ht->split_mask;
}

void urcu_i_lfht_sample_add(struct cds_lfht *ht, unsigned long hash, unsigned int chain)
{
	count_add_at(ht, sample_slot(ht, hash), LFHT_SAMPLE_ORDER, chain >= LFHT_CHAIN_LEN);
}

void urcu_i_lfht_sample_del(struct cds_lfht *ht, unsigned long hash)
{
	count_del_at(ht, sample_slot(ht, hash), LFHT_SAMPLE_ORDER);
}

void urcu_i_lfht_chain_check(struct cds_lfht *ht)
{
	check_chain(ht);
}
