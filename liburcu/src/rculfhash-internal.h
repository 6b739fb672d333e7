// SPDX-License-Identifier: MIT
/*
 * Internals of the RCU lock-free hash table shared by its source files:
 * the table structure, the flag bits of a node's next word, bit reversal,
 * and the inline bucket lookup every operation starts with.  The algorithm
 * and its proof sketch are at the top of rculfhash.c.
 *
 * Files:
 *   rculfhash.c         the split-ordered list: lookup, traversal, updates
 *   rculfhash-table.c   creation, destruction, counting, auto-resize policy
 *   rculfhash-resize.c  growing and shrinking (one pass over the list)
 *   rculfhash-helpers.c helper threads of large passes, resizer registration
 *   rculfhash-worker.c  the process-wide background resize thread, fork
 *   rculfhash-mm.c      the three bucket memory backends
 */
#ifndef URCU_SRC_RCULFHASH_INTERNAL_H
#define URCU_SRC_RCULFHASH_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/compiler.h>
#include <urcu/flavor.h>
#include <urcu/pointer.h>
#include <urcu/rculfhash.h>
#include <urcu/uatomic.h>

/*
 * The low bits of a next word.  REMOVED and BUCKET describe the node that
 * holds the word ("own" flags): REMOVED is set once, by the thread that
 * removes the node, and freezes the word (no later CAS on it can succeed);
 * BUCKET marks the table's bucket nodes.  TO_BUCKET describes the node the
 * word points to: it travels with the pointer (every store of a pointer
 * copies it or sets it from the target's kind) and lets a lookup that
 * meets a bucket node end without loading it.
 */
#define LFHT_REMOVED		1UL
#define LFHT_BUCKET		2UL
#define LFHT_TO_BUCKET		4UL
#define LFHT_OWN_FLAGS		(LFHT_REMOVED | LFHT_BUCKET)
#define LFHT_PTR_MASK		(~(uintptr_t) 7)
/* A link: the pointer and what it points to, without the holder's flags. */
#define LFHT_LINK_MASK		(LFHT_PTR_MASK | LFHT_TO_BUCKET)

urcu_static_assert(sizeof(struct cds_lfht_node) == 2 * sizeof(void *),
	"a node is two words", lfht_node_two_words);
urcu_static_assert(__alignof__(struct cds_lfht_node) >= 8,
	"three flag bits need 8-byte aligned nodes", lfht_node_aligned_8);

/* Bucket memory backends (the kind field). */
enum {
	LFHT_MM_ORDER = 0,
	LFHT_MM_CHUNK = 1,
	LFHT_MM_MMAP = 2,
};

/* Table state bits (the state field). */
#define LFHT_DESTROYING		1U	/* destroy requested: resizes stop early */

/*
 * Requests to the background thread (the work field, atomic; the protocol
 * is at the top of rculfhash-worker.c).  The bits above the flags hold the
 * fork generation of LFHT_WORK_QUEUED.
 */
#define LFHT_WORK_QUEUED	1U	/* on the request stack, or taken from it */
#define LFHT_WORK_RESIZE	2U
#define LFHT_WORK_DESTROY	4U
#define LFHT_WORK_GEN_SHIFT	3

/* Auto-resize policy (rculfhash-table.c). */
#define LFHT_COMMIT_ORDER	10	/* split counters commit every 1024 */
#define LFHT_MAX_SPLIT		64	/* most split counters per table */
#define LFHT_SAMPLE_ORDER	4	/* AUTO_RESIZE alone: 1 node in 16 counted */
#define LFHT_CHAIN_LEN		3	/* small tables: chain that triggers a check */
#define LFHT_CHAIN_LEN_UNSAMPLED 8	/* the same for an add that is not sampled */

/*
 * One split counter per CPU slot, each on its own cache line: adds and
 * removals on different CPUs do not share a line.
 */
struct urcu_i_lfht_split {
	unsigned long add;
	unsigned long del;
} __attribute__((aligned(CAA_CACHE_LINE_SIZE)));

struct cds_lfht {
	/* ---- read by every operation: one cache line ---- */
	unsigned long size;		/* buckets, a power of two; release/acquire */
	unsigned long resize_seq;	/* odd while a resize runs; see rculfhash.c */
	struct cds_lfht_node *flat;	/* buckets [0, flat_limit) are flat[index] */
	unsigned long flat_limit;
	uintptr_t *tbl;			/* biased bases of the other buckets */
	const struct rcu_flavor_struct *flavor;
	struct urcu_i_lfht_split *split;	/* counters (ACCOUNTING or AUTO_RESIZE), from creation */
	unsigned char kind;		/* LFHT_MM_* */
	unsigned char min_alloc_order;	/* order 0 holds 2^min_alloc_order buckets */
	unsigned char max_order;	/* at most 2^max_order buckets */
	unsigned char chunk_order;	/* chunk backend: 2^chunk_order buckets a chunk */
	unsigned char split_mask;	/* split counter slots - 1 */
	unsigned char flags;		/* CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING */
	signed char alloc_order;	/* highest order allocated, -1 for none */
	unsigned char small;		/* mmap backend: calloc'd, nothing reserved */

	/* ---- written by updaters now and then, and by resizes ---- */
	long count;			/* committed node count (estimate without ACCOUNTING) */
	unsigned long resize_target;	/* size the resizes are heading for */
	const struct cds_lfht_mm_type *mm;
	const struct cds_lfht_alloc *alloc;
	pthread_attr_t *attr;
	struct cds_lfht *work_next;	/* request stack link (rculfhash-worker.c) */
	int32_t resize_lock;		/* futex lock serialising resizes */
	uint32_t work;			/* LFHT_WORK_* and generation, atomic */
	uint32_t state;			/* LFHT_DESTROYING */
	uint32_t pad;
	/*
	 * backend data (inline buckets, chunk table, allocator copy); 8-byte
	 * aligned for the inline buckets' flag bits, also where long is 4
	 * bytes (-m32: a 4-aligned bucket lost address bit 2 to LFHT_TO_BUCKET)
	 */
	unsigned long tail[] __attribute__((aligned(8)));
};

/* libc's malloc family behind the struct cds_lfht_alloc interface. */
extern const struct cds_lfht_alloc urcu_i_lfht_libc_alloc;

/* ---- bit helpers ---------------------------------------------------------- */

/* Bit-reversal of a whole unsigned long: the order of the list. */
static inline unsigned long urcu_i_lfht_bitrev(unsigned long v)
{
#if defined(__clang__) && CAA_BITS_PER_LONG == 64
	return __builtin_bitreverse64(v);
#elif defined(__clang__) && CAA_BITS_PER_LONG == 32
	return __builtin_bitreverse32(v);
#elif defined(__aarch64__)
	__asm__ ("rbit %0, %1" : "=r" (v) : "r" (v));
	return v;
#elif CAA_BITS_PER_LONG == 64
	/* Bytes by bswap, then nibbles, pairs and bits by masks: no memory. */
	v = __builtin_bswap64(v);
	v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FUL) | ((v & 0x0F0F0F0F0F0F0F0FUL) << 4);
	v = ((v >> 2) & 0x3333333333333333UL) | ((v & 0x3333333333333333UL) << 2);
	v = ((v >> 1) & 0x5555555555555555UL) | ((v & 0x5555555555555555UL) << 1);
	return v;
#else
	v = __builtin_bswap32(v);
	v = ((v >> 4) & 0x0F0F0F0FUL) | ((v & 0x0F0F0F0FUL) << 4);
	v = ((v >> 2) & 0x33333333UL) | ((v & 0x33333333UL) << 2);
	v = ((v >> 1) & 0x55555555UL) | ((v & 0x55555555UL) << 1);
	return v;
#endif
}

/*
 * Does hash a come after hash b in the split order (bitrev(a) > bitrev(b))?
 * The lowest differing bit decides: it is the highest bit reversed.
 * False when a == b.  Five instructions, no bit reversal.
 */
static inline bool urcu_i_lfht_after(unsigned long a, unsigned long b)
{
	unsigned long d = a ^ b;

	return (a & d & (0UL - d)) != 0;
}

/* The low nbits bits of v, reversed (nbits 0 gives 0). */
static inline unsigned long urcu_i_lfht_rev_bits(unsigned long v, unsigned int nbits)
{
	if (!nbits)
		return 0;
	return urcu_i_lfht_bitrev(v) >> (CAA_BITS_PER_LONG - nbits);
}

/* Index of the highest set bit, counting from 1; 0 for 0. */
static inline unsigned int urcu_i_lfht_fls(unsigned long v)
{
	return v ? CAA_BITS_PER_LONG - __builtin_clzl(v) : 0;
}

/* log2 of v rounded up (v >= 1). */
static inline unsigned int urcu_i_lfht_order(unsigned long v)
{
	return v <= 1 ? 0 : urcu_i_lfht_fls(v - 1);
}

/* The node a link points to. */
static inline struct cds_lfht_node *urcu_i_lfht_ptr(uintptr_t link)
{
	return (struct cds_lfht_node *) (link & LFHT_PTR_MASK);
}

/*
 * Load a next word.  Consume (address dependency): pairs with the full
 * barrier CAS that stored it, so the node it points to is seen initialised.
 */
static inline uintptr_t urcu_i_lfht_load_next(struct cds_lfht_node *node)
{
	return (uintptr_t) rcu_dereference(node->next);
}

/*
 * Bucket node of index idx (< the size the caller loaded).  The common
 * case is one compare and an address computation; other buckets take one
 * more load from the table.  Biased bases: tbl[slot] + idx * 16 is the
 * bucket, slot = fls(idx) (order backend) or idx >> chunk_order (chunk).
 */
static inline struct cds_lfht_node *urcu_i_lfht_bucket(const struct cds_lfht *ht,
		unsigned long idx)
{
	unsigned long slot;

	if (caa_likely(idx < ht->flat_limit))
		return &ht->flat[idx];
	slot = ht->kind == LFHT_MM_CHUNK ? idx >> ht->chunk_order : urcu_i_lfht_fls(idx);
	return (struct cds_lfht_node *) (ht->tbl[slot] + idx * sizeof(struct cds_lfht_node));
}

/*
 * CAS on a next word.  Full barrier (uatomic_cmpxchg): for an insertion it
 * orders the new node's fields before its publication (pairs with the
 * consume load in urcu_i_lfht_load_next) and gives updates their "full
 * barrier before and after" contract; the other CASes (unlink, mark
 * removed) keep the same contract.  Returns the value found.
 */
static inline uintptr_t urcu_i_lfht_cas_next(struct cds_lfht_node *node, uintptr_t old,
		uintptr_t newv)
{
	return (uintptr_t) uatomic_cmpxchg(&node->next, (struct cds_lfht_node *) old,
			(struct cds_lfht_node *) newv);
}

/* ---- shared between the files (hidden) ------------------------------------ */

/* rculfhash.c: the walk to an insertion position (see there). */
enum { POS_BEFORE_EQUAL = 0, POS_AFTER_EQUAL = 1 };

struct urcu_i_lfht_pos {
	struct cds_lfht_node *prev;	/* node to link after (not removed when read) */
	uintptr_t prev_next;		/* prev's next word as read: the CAS's expected value */
	unsigned int chain;		/* distinct user hashes passed (auto-resize) */
	unsigned int steps;		/* nodes loaded */
};

bool urcu_i_lfht_find_pos(struct cds_lfht_node *start, unsigned long rh, int where,
		struct urcu_i_lfht_pos *pos);

/*
 * Multiplicative mix of a hash (Fibonacci hashing: 2^W / golden ratio):
 * its top bits depend on every bit of the hash, also for hashes whose
 * low or high bits are constant.
 */
static inline unsigned long urcu_i_lfht_mix(unsigned long hash)
{
#if CAA_BITS_PER_LONG == 64
	return hash * 0x9E3779B97F4A7C15UL;
#else
	return hash * 0x9E3779B9UL;
#endif
}

/*
 * Is a node of this hash in the sample that an AUTO_RESIZE table without
 * CDS_LFHT_ACCOUNTING counts (rculfhash-table.c, top)?  The test depends
 * on the hash alone, so a node's add and its del are both counted or both
 * not.  Cost: a multiply and a compare.
 */
static inline bool urcu_i_lfht_sampled(unsigned long hash)
{
	return (urcu_i_lfht_mix(hash) >> (CAA_BITS_PER_LONG - LFHT_SAMPLE_ORDER)) == 0;
}

/* rculfhash-table.c: accounting and the auto-resize policy. */
/* CDS_LFHT_ACCOUNTING tables: every add and del. */
void urcu_i_lfht_count_add(struct cds_lfht *ht, unsigned long hash, unsigned int chain);
void urcu_i_lfht_count_del(struct cds_lfht *ht, unsigned long hash);
/* CDS_LFHT_AUTO_RESIZE alone: the adds and dels of sampled hashes. */
void urcu_i_lfht_sample_add(struct cds_lfht *ht, unsigned long hash, unsigned int chain);
void urcu_i_lfht_sample_del(struct cds_lfht *ht, unsigned long hash);
/* AUTO_RESIZE alone: the small-table check after an add met a long chain. */
void urcu_i_lfht_chain_check(struct cds_lfht *ht);
long urcu_i_lfht_split_sum(struct cds_lfht *ht);
/* Free every allocation of a table (nothing may use it any more). */
void urcu_i_lfht_free(struct cds_lfht *ht);

/* rculfhash-resize.c */
void urcu_i_lfht_resize_lock(struct cds_lfht *ht);
bool urcu_i_lfht_resize_trylock(struct cds_lfht *ht);
void urcu_i_lfht_resize_unlock(struct cds_lfht *ht);
/* Resize to resize_target until it stops changing; resize lock held. */
void urcu_i_lfht_do_resize(struct cds_lfht *ht);
/* Link the buckets [0, size) of a new table (no concurrency yet). */
void urcu_i_lfht_init_buckets(struct cds_lfht *ht, unsigned long size);
/* The background thread's resize of ht (registers with its flavor). */
void urcu_i_lfht_background_resize(struct cds_lfht *ht);

/* rculfhash-helpers.c: splitting a large pass across threads. */
#define LFHT_PART_MIN_ORDER	12	/* buckets of work per part, at least (log2) */
#define LFHT_MAX_PARTS		16	/* threads of one pass, the resizer's included */

/*
 * One part of a pass: the ranges of the old or remaining buckets of
 * indices [from, to) of the pass old_size -> new_size.  fn does the part
 * and sets ok (false: cut short by a destroy).
 */
struct urcu_i_lfht_part {
	struct cds_lfht *ht;
	void (*fn)(struct urcu_i_lfht_part *part);
	unsigned long old_size, new_size;
	unsigned long from, to;
	bool ok;
	pthread_t tid;		/* its helper thread, if it has one */
};

/* Parts for a pass of this much work (buckets linked or unlinked), >= 1. */
unsigned int urcu_i_lfht_parts(unsigned long work);
/*
 * Run part[0] in this thread and part[1 .. n-1] on helper threads (or in
 * this thread where none could be started); returns once every part is
 * done and every helper joined.  The caller must be in no read-side
 * critical section (qsbr: offline): it waits for the helpers.
 */
void urcu_i_lfht_run_parts(struct urcu_i_lfht_part *part, unsigned int n);
/*
 * Call fn(arg) as a reader of ht's flavor: SIGRCU unblocked (signal
 * flavor), registered, offline (qsbr); unregistered afterwards.
 */
void urcu_i_lfht_as_reader(struct cds_lfht *ht, void (*fn)(void *), void *arg);

/* rculfhash-worker.c */
/*
 * Queue ht for the background thread (what: LFHT_WORK_RESIZE/_DESTROY).
 * Lock-free, never waits; a full barrier before the request (the caller's
 * resize_target or LFHT_DESTROYING are seen by the thread when it serves
 * it).  After a LFHT_WORK_DESTROY, ht may be freed at any time.
 */
void urcu_i_lfht_queue_work(struct cds_lfht *ht, uint32_t what);
/*
 * For a new CDS_LFHT_AUTO_RESIZE table of flavor: register the fork hooks
 * with flavor (once per flavor) and start the background thread if it is
 * not running.  False if the thread cannot be started.
 */
bool urcu_i_lfht_worker_attach(const struct rcu_flavor_struct *flavor);

/* rculfhash-mm.c: allocation through the table's allocator. */
void *urcu_i_lfht_calloc(const struct cds_lfht *ht, size_t nmemb, size_t size);
void urcu_i_lfht_dealloc(const struct cds_lfht *ht, void *ptr);

#endif /* URCU_SRC_RCULFHASH_INTERNAL_H */
