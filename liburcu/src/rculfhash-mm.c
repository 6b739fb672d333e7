// SPDX-License-Identifier: MIT
/*
 * RCU lock-free hash table: bucket memory.  The table structure and all of
 * its memory come from the table's struct cds_lfht_alloc (libc by
 * default), except the mmap backend's reserved address space.
 *
 * A backend's alloc_bucket_table(ht, order) makes the buckets of order
 * usable and then sets ht->alloc_order = order; when it cannot (out of
 * memory) it leaves alloc_order alone, and the caller stops growing.
 * free_bucket_table(ht, order) releases them and lowers alloc_order.
 * Orders 1 .. min_alloc_order live in order 0's memory.  Every backend
 * describes its buckets for urcu_i_lfht_bucket() by flat/flat_limit (the
 * first buckets, contiguous) and tbl (biased bases of the others), set
 * before the new size is published and cleared only after the grace
 * periods of a shrink (rculfhash-resize.c).
 *
 *  order: order 0 (min_nr_alloc_buckets buckets; at most 4 inside the
 *         table structure itself) is flat; order k > min is one array,
 *         tbl[k] its base biased by 2^(k-1) buckets.
 *  chunk: chunks of min_nr_alloc_buckets >= max_nr_buckets / 1024 buckets;
 *         chunk 0 is flat, tbl[c] is chunk c biased by c chunks.  The
 *         chunk table sits inside the table structure.
 *  mmap:  max_nr_buckets buckets of address space reserved PROT_NONE at
 *         creation, all flat; orders are made read-write as the table
 *         grows and handed back (MADV_DONTNEED + PROT_NONE) as it shrinks.
 *         Tables of at most a page of buckets are simply allocated whole.
 *
 * Arrays of 2 MiB or more are 2 MiB-aligned and marked MADV_HUGEPAGE: a
 * random lookup in a large table then rarely misses the TLB on its bucket.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rculfhash-internal.h"

#define NODE_SIZE		sizeof(struct cds_lfht_node)
#define LFHT_INLINE_BUCKETS	4
#define LFHT_MAX_CHUNKS		1024
#define LFHT_HUGE		(2UL << 20)

/* ---- libc allocator ---------------------------------------------------- */

static void *libc_malloc(void *state caa_unused, size_t size)
{
	return malloc(size);
}

static void *libc_calloc(void *state caa_unused, size_t nmemb, size_t size)
{
	return calloc(nmemb, size);
}

static void *libc_realloc(void *state caa_unused, void *ptr, size_t size)
{
	return realloc(ptr, size);
}

static void *libc_aligned_alloc(void *state caa_unused, size_t alignment, size_t size)
{
	void *p;

	return posix_memalign(&p, alignment, size) ? NULL : p;
}

static void libc_free(void *state caa_unused, void *ptr)
{
	free(ptr);
}

const struct cds_lfht_alloc urcu_i_lfht_libc_alloc = {
	.malloc = libc_malloc,
	.calloc = libc_calloc,
	.realloc = libc_realloc,
	.aligned_alloc = libc_aligned_alloc,
	.free = libc_free,
	.state = NULL,
};

void *urcu_i_lfht_calloc(const struct cds_lfht *ht, size_t nmemb, size_t size)
{
	return ht->alloc->calloc(ht->alloc->state, nmemb, size);
}

void urcu_i_lfht_dealloc(const struct cds_lfht *ht, void *ptr)
{
	ht->alloc->free(ht->alloc->state, ptr);
}

/*
 * An array of n buckets (huge-page friendly when large and ours).  The
 * large one is not zeroed: no bucket node is read before it is written
 * (init_buckets() writes [0, size) at creation; a grow writes each new
 * node's reverse_hash and next before the CAS that links it, and nothing
 * reaches a bucket >= size but that grow; rculfhash-resize.c), so zeroing
 * was a pass over up to max_nr_buckets * 16 bytes for nothing.
 */
static struct cds_lfht_node *buckets_alloc(const struct cds_lfht *ht, unsigned long n)
{
	size_t bytes = n * NODE_SIZE;
	void *p;

	if (bytes >= LFHT_HUGE && ht->alloc == &urcu_i_lfht_libc_alloc) {
		if (posix_memalign(&p, LFHT_HUGE, bytes))
			return NULL;
		(void) madvise(p, bytes, MADV_HUGEPAGE);	/* a hint only */
		return p;
	}
	return urcu_i_lfht_calloc(ht, n, NODE_SIZE);
}

/* A new table structure with tail_bytes of backend data (+ allocator copy). */
static struct cds_lfht *new_table(const struct cds_lfht_alloc *alloc, size_t tail_bytes,
		unsigned char kind, unsigned long min_alloc, unsigned long max)
{
	const struct cds_lfht_alloc *a = alloc ? alloc : &urcu_i_lfht_libc_alloc;
	size_t bytes = sizeof(struct cds_lfht) + tail_bytes + (alloc ? sizeof(*alloc) : 0);
	struct cds_lfht *ht;

	if (!a->calloc || !a->free)
		return NULL;
	ht = a->calloc(a->state, 1, bytes);
	if (!ht)
		return NULL;
	if (alloc) {
		struct cds_lfht_alloc *copy = (void *) ((char *) ht->tail + tail_bytes);

		*copy = *alloc;
		ht->alloc = copy;
	} else {
		ht->alloc = &urcu_i_lfht_libc_alloc;
	}
	ht->kind = kind;
	ht->min_alloc_order = (unsigned char) urcu_i_lfht_order(min_alloc);
	ht->max_order = (unsigned char) urcu_i_lfht_order(max);
	ht->alloc_order = -1;
	return ht;
}

static struct cds_lfht_node *mm_bucket_at(struct cds_lfht *ht, unsigned long index)
{
	return urcu_i_lfht_bucket(ht, index);
}

/* ---- order -------------------------------------------------------------------- */

static struct cds_lfht *order_alloc_cds_lfht(unsigned long min_nr_alloc_buckets,
		unsigned long max_nr_buckets, const struct cds_lfht_alloc *alloc)
{
	size_t tail = min_nr_alloc_buckets <= LFHT_INLINE_BUCKETS ?
		min_nr_alloc_buckets * NODE_SIZE : 0;

	return new_table(alloc, tail, LFHT_MM_ORDER, min_nr_alloc_buckets, max_nr_buckets);
}

static void order_alloc_bucket_table(struct cds_lfht *ht, unsigned long order)
{
	unsigned long len;
	struct cds_lfht_node *p;

	if (order == 0) {
		len = 1UL << ht->min_alloc_order;
		p = len <= LFHT_INLINE_BUCKETS ? (struct cds_lfht_node *) ht->tail
			: buckets_alloc(ht, len);
		if (!p)
			return;
		ht->flat = p;
		ht->flat_limit = len;
	} else if (order > ht->min_alloc_order) {
		if (!ht->tbl) {
			ht->tbl = urcu_i_lfht_calloc(ht, ht->max_order + 1U, sizeof(*ht->tbl));
			if (!ht->tbl)
				return;
		}
		len = 1UL << (order - 1);
		p = buckets_alloc(ht, len);
		if (!p)
			return;
		ht->tbl[order] = (uintptr_t) p - len * NODE_SIZE;
	}
	ht->alloc_order = (signed char) order;
}

static void order_free_bucket_table(struct cds_lfht *ht, unsigned long order)
{
	unsigned long len;

	if (order == 0) {
		if (ht->flat != (struct cds_lfht_node *) ht->tail)
			urcu_i_lfht_dealloc(ht, ht->flat);
		ht->flat = NULL;
		ht->flat_limit = 0;
		if (ht->tbl)
			urcu_i_lfht_dealloc(ht, ht->tbl);
		ht->tbl = NULL;
	} else if (order > ht->min_alloc_order) {
		len = 1UL << (order - 1);
		urcu_i_lfht_dealloc(ht, (void *) (ht->tbl[order] + len * NODE_SIZE));
		ht->tbl[order] = 0;
	}
	ht->alloc_order = (signed char) (order - 1);
}

const struct cds_lfht_mm_type cds_lfht_mm_order = {
	.alloc_cds_lfht = order_alloc_cds_lfht,
	.alloc_bucket_table = order_alloc_bucket_table,
	.free_bucket_table = order_free_bucket_table,
	.bucket_at = mm_bucket_at,
};

/* ---- chunk -------------------------------------------------------------------- */

static struct cds_lfht *chunk_alloc_cds_lfht(unsigned long min_nr_alloc_buckets,
		unsigned long max_nr_buckets, const struct cds_lfht_alloc *alloc)
{
	unsigned long nr_chunks;
	struct cds_lfht *ht;

	if (min_nr_alloc_buckets < max_nr_buckets / LFHT_MAX_CHUNKS)
		min_nr_alloc_buckets = max_nr_buckets / LFHT_MAX_CHUNKS;
	nr_chunks = max_nr_buckets / min_nr_alloc_buckets;
	ht = new_table(alloc, nr_chunks * sizeof(uintptr_t), LFHT_MM_CHUNK,
			min_nr_alloc_buckets, max_nr_buckets);
	if (!ht)
		return NULL;
	ht->chunk_order = ht->min_alloc_order;
	ht->tbl = (uintptr_t *) ht->tail;
	return ht;
}

static void chunk_alloc_bucket_table(struct cds_lfht *ht, unsigned long order)
{
	unsigned long len = 1UL << ht->chunk_order, first, c;
	struct cds_lfht_node *p;

	if (order == 0) {
		p = buckets_alloc(ht, len);
		if (!p)
			return;
		ht->tbl[0] = (uintptr_t) p;
		ht->flat = p;
		ht->flat_limit = len;
	} else if (order > ht->min_alloc_order) {
		first = (1UL << (order - 1)) >> ht->chunk_order;
		for (c = first; c < 2 * first; c++) {
			p = buckets_alloc(ht, len);
			if (!p) {
				while (c-- > first) {
					urcu_i_lfht_dealloc(ht, (void *) (ht->tbl[c] + c * len * NODE_SIZE));
					ht->tbl[c] = 0;
				}
				return;
			}
			ht->tbl[c] = (uintptr_t) p - c * len * NODE_SIZE;
		}
	}
	ht->alloc_order = (signed char) order;
}

static void chunk_free_bucket_table(struct cds_lfht *ht, unsigned long order)
{
	unsigned long len = 1UL << ht->chunk_order, first, c;

	if (order == 0) {
		urcu_i_lfht_dealloc(ht, ht->flat);
		ht->tbl[0] = 0;
		ht->flat = NULL;
		ht->flat_limit = 0;
	} else if (order > ht->min_alloc_order) {
		first = (1UL << (order - 1)) >> ht->chunk_order;
		for (c = first; c < 2 * first; c++) {
			urcu_i_lfht_dealloc(ht, (void *) (ht->tbl[c] + c * len * NODE_SIZE));
			ht->tbl[c] = 0;
		}
	}
	ht->alloc_order = (signed char) (order - 1);
}

const struct cds_lfht_mm_type cds_lfht_mm_chunk = {
	.alloc_cds_lfht = chunk_alloc_cds_lfht,
	.alloc_bucket_table = chunk_alloc_bucket_table,
	.free_bucket_table = chunk_free_bucket_table,
	.bucket_at = mm_bucket_at,
};

/* ---- mmap --------------------------------------------------------------------- */

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t) p : 4096;
}

static size_t round_up(size_t v, size_t to)
{
	return (v + to - 1) & ~(to - 1);
}

/* The reserved bytes of an mmap table. */
static size_t mmap_bytes(const struct cds_lfht *ht)
{
	return round_up((1UL << ht->max_order) * NODE_SIZE, page_size());
}

/* Reserve bytes of address space, 2 MiB-aligned when that large. */
static void *reserve(size_t bytes)
{
	size_t align = bytes >= LFHT_HUGE ? LFHT_HUGE : 0;
	char *p, *start;

	p = mmap(NULL, bytes + align, PROT_NONE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (!align)
		return p;
	start = (char *) round_up((uintptr_t) p, align);
	if (start > p)
		munmap(p, (size_t) (start - p));
	if (start + bytes < p + bytes + align)
		munmap(start + bytes, (size_t) (p + bytes + align - (start + bytes)));
	(void) madvise(start, bytes, MADV_HUGEPAGE);	/* a hint only */
	return start;
}

static struct cds_lfht *mmap_alloc_cds_lfht(unsigned long min_nr_alloc_buckets,
		unsigned long max_nr_buckets, const struct cds_lfht_alloc *alloc)
{
	struct cds_lfht *ht;
	void *region;

	if (max_nr_buckets * NODE_SIZE <= page_size()) {
		/* Small: allocated whole at order 0, nothing reserved. */
		ht = new_table(alloc, 0, LFHT_MM_MMAP, max_nr_buckets, max_nr_buckets);
		if (ht)
			ht->small = 1;
		return ht;
	}
	ht = new_table(alloc, 0, LFHT_MM_MMAP, min_nr_alloc_buckets, max_nr_buckets);
	if (!ht)
		return NULL;
	region = reserve(mmap_bytes(ht));
	if (!region) {
		urcu_i_lfht_dealloc(ht, ht);
		return NULL;
	}
	ht->flat = region;
	ht->flat_limit = max_nr_buckets;
	return ht;
}

/* Byte range [*lo, *hi) of the buckets of order (empty for shared orders). */
static void order_range(const struct cds_lfht *ht, unsigned long order,
		size_t *lo, size_t *hi)
{
	if (order == 0) {
		*lo = 0;
		*hi = (1UL << ht->min_alloc_order) * NODE_SIZE;
	} else if (order > ht->min_alloc_order) {
		*lo = (1UL << (order - 1)) * NODE_SIZE;
		*hi = (1UL << order) * NODE_SIZE;
	} else {
		*lo = *hi = 0;
	}
}

static void mmap_alloc_bucket_table(struct cds_lfht *ht, unsigned long order)
{
	size_t lo, hi, page = page_size();
	char *base = (char *) ht->flat;

	if (ht->small) {
		if (order == 0) {
			base = (char *) urcu_i_lfht_calloc(ht, 1UL << ht->max_order, NODE_SIZE);
			if (!base)
				return;
			ht->flat = (struct cds_lfht_node *) base;
			ht->flat_limit = 1UL << ht->max_order;
		}
		ht->alloc_order = (signed char) order;
		return;
	}
	order_range(ht, order, &lo, &hi);
	if (hi > lo) {
		lo &= ~(page - 1);
		hi = round_up(hi, page);
		if (mprotect(base + lo, hi - lo, PROT_READ | PROT_WRITE)) {
			if (order == 0) {
				/* Creation fails: nothing else will unmap it. */
				munmap(ht->flat, mmap_bytes(ht));
				ht->flat = NULL;
				ht->flat_limit = 0;
			}
			return;
		}
	}
	ht->alloc_order = (signed char) order;
}

static void mmap_free_bucket_table(struct cds_lfht *ht, unsigned long order)
{
	size_t lo, hi, page = page_size();
	char *base = (char *) ht->flat;

	if (order == 0) {
		if (ht->small)
			urcu_i_lfht_dealloc(ht, ht->flat);
		else
			munmap(ht->flat, mmap_bytes(ht));
		ht->flat = NULL;
		ht->flat_limit = 0;
	} else if (!ht->small) {
		order_range(ht, order, &lo, &hi);
		/* Only whole pages above the lower orders' last page. */
		lo = round_up(lo, page);
		hi = round_up(hi, page);
		if (hi > lo) {
			(void) madvise(base + lo, hi - lo, MADV_DONTNEED);
			(void) mprotect(base + lo, hi - lo, PROT_NONE);
		}
	}
	ht->alloc_order = (signed char) (order - 1);
}

const struct cds_lfht_mm_type cds_lfht_mm_mmap = {
	.alloc_cds_lfht = mmap_alloc_cds_lfht,
	.alloc_bucket_table = mmap_alloc_bucket_table,
	.free_bucket_table = mmap_free_bucket_table,
	.bucket_at = mm_bucket_at,
};
