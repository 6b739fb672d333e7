// SPDX-License-Identifier: MIT
/*
 * The Concurrency Kit peer of bench-hash.c's mixed mode: a read-mostly
 * hash set, ck_hs, whose removed items and outgrown slot arrays are freed
 * through ck_epoch.  Built only by run-side-by-side.py, against libck.
 *
 * -m mixed -n KEYS -c THREADS: the method of bench-hash.c -m mixed, with
 *   the same keys, mixer, random streams and operation mix: KEYS items
 *   (keys 2*i) put in first, then each thread, pinned like bench-hash.c's,
 *   draws keys uniformly from [0, 2*KEYS) and does 90% lookups, 5% add
 *   (if absent) and 5% delete, each operation in its own epoch section.
 *   The table starts at the smallest capacity and grows by itself, as the
 *   rculfhash table starts at one bucket and auto-resizes.
 *   Prints hash.ck.mixed<KEYS>.t<THREADS> in ops/s (all threads).
 *
 * What ck_hs needs that rculfhash does not (docs/PERFORMANCE.md,
 * "Concurrency Kit"): ck_hs allows one writer at a time
 * (CK_HS_MODE_SPMC; MPMC is unsupported), so adds and deletes take a
 * mutex here, while rculfhash's updates are lock-free; and the removed
 * items are freed by ck_epoch_call() plus ck_epoch_poll() every 256
 * operations in the updating thread itself, not by a worker thread.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench-util.h"

#include <ck_epoch.h>
#include <ck_hs.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH	256	/* operations between polls (bench-hash.c: quiescent states) */

struct item {
	uint64_t key;
	ck_epoch_entry_t entry;
};

/* What the table's allocator puts before each slot array, to defer its free. */
union array_head {
	ck_epoch_entry_t entry;
	max_align_t align;
};

static ck_epoch_t epoch;
static __thread ck_epoch_record_t *self;
static ck_hs_t hs;
static pthread_mutex_t writer_lock = PTHREAD_MUTEX_INITIALIZER;
static long nkeys;

static unsigned long item_hash(const void *object, unsigned long seed)
{
	(void) seed;
	return bench_mix64(((const struct item *) object)->key);
}

static bool item_equal(const void *a, const void *b)
{
	return ((const struct item *) a)->key == ((const struct item *) b)->key;
}

static void *array_malloc(size_t size)
{
	union array_head *h = bench_xmalloc(sizeof(*h) + size);

	return h + 1;
}

static void array_free_cb(ck_epoch_entry_t *entry)
{
	free(entry);	/* the entry is the first member of the head */
}

/* An outgrown slot array (@defer) may still be read: free it after a grace period. */
static void array_free(void *p, size_t size, bool defer)
{
	union array_head *h = (union array_head *) p - 1;

	(void) size;
	if (defer)
		ck_epoch_call(self, &h->entry, array_free_cb);
	else
		free(h);
}

static void *array_realloc(void *p, size_t old, size_t size, bool defer)
{
	(void) p; (void) old; (void) size; (void) defer;
	bench_die("ck_hs: unexpected realloc");
}

static struct ck_malloc allocator = {
	.malloc = array_malloc, .realloc = array_realloc, .free = array_free,
};

static void item_free_cb(ck_epoch_entry_t *entry)
{
	free((char *) entry - offsetof(struct item, entry));
}

static struct item *new_item(uint64_t key)
{
	struct item *it = bench_xmalloc(sizeof(*it));

	it->key = key;
	return it;
}

static void register_self(void)
{
	self = bench_xmalloc(sizeof(*self));
	ck_epoch_register(&epoch, self, NULL);
}

/* One operation of the 90/5/5 mix on @key, in its own epoch section. */
static void one_op(uint64_t key, unsigned int op)
{
	struct item probe = { .key = key }, *it = NULL;
	unsigned long h = bench_mix64(key);

	ck_epoch_begin(self, NULL);
	if (op < 90) {
		(void) ck_hs_get(&hs, h, &probe);
	} else if (op < 95) {
		it = new_item(key);
		pthread_mutex_lock(&writer_lock);
		if (ck_hs_put(&hs, h, it))
			it = NULL;
		pthread_mutex_unlock(&writer_lock);
	} else {
		pthread_mutex_lock(&writer_lock);
		it = ck_hs_remove(&hs, h, &probe);
		pthread_mutex_unlock(&writer_lock);
		if (it) {
			ck_epoch_call(self, &it->entry, item_free_cb);
			it = NULL;
		}
	}
	ck_epoch_end(self, NULL);
	free(it);	/* an add that found its key: never published */
}

struct worker {
	int id;
	unsigned long ops;
};

static void *mixed_worker(void *arg)
{
	struct worker *w = arg;
	uint64_t s = 0x9e3779b97f4a7c15ULL * (uint64_t) (w->id + 7);
	unsigned long ops = 0;

	bench_pin(w->id);
	register_self();
	bench_gate_arrive();
	while (!bench_stop) {
		for (int k = 0; k < BATCH; k++) {
			uint64_t r = bench_xorshift64(&s);

			one_op((r >> 8) % (uint64_t) (2 * nkeys), (unsigned int) (r & 0xff) % 100);
		}
		ops += BATCH;
		(void) ck_epoch_poll(self);
	}
	ck_epoch_barrier(self);	/* this thread's deferred frees */
	ck_epoch_unregister(self);
	w->ops = ops;
	return NULL;
}

static double run_workers(int nthreads, double seconds)
{
	struct worker *w = calloc((size_t) nthreads, sizeof(*w));
	unsigned long ops = 0;
	uint64_t ns;

	if (!w)
		bench_die("out of memory");
	for (int i = 0; i < nthreads; i++)
		w[i].id = i;
	ns = bench_run_gated(nthreads, mixed_worker, w, sizeof(*w), seconds);
	for (int i = 0; i < nthreads; i++)
		ops += w[i].ops;
	free(w);
	return (double) ops / ((double) ns / 1e9);
}

/* No thread runs any more: free every item, the table, the deferred arrays. */
static void empty_table(void)
{
	ck_hs_iterator_t iter = CK_HS_ITERATOR_INITIALIZER;
	void *obj;

	while (ck_hs_next(&hs, &iter, &obj))
		free(obj);
	ck_hs_destroy(&hs);
	ck_epoch_barrier(self);
}

int main(int argc, char **argv)
{
	struct bench_opts o;
	double secs, rate;
	char name[80];

	bench_parse_opts(argc, argv, &o);
	if (!o.mode || strcmp(o.mode, "mixed"))
		bench_die("bench-ck-hash has only -m mixed");
	secs = o.max_seconds > 0 ? o.max_seconds : (o.quick ? 0.3 : 1.0);
	nkeys = o.max_samples > 0 ? o.max_samples : 1000;
	bench_pin_init();
	ck_epoch_init(&epoch);
	register_self();
	if (!ck_hs_init(&hs, CK_HS_MODE_SPMC | CK_HS_MODE_OBJECT, item_hash, item_equal,
			&allocator, 1, 0))
		bench_die("ck_hs_init failed");
	for (long i = 0; i < nkeys; i++) {
		struct item *it = new_item(2 * (uint64_t) i);

		if (!ck_hs_put(&hs, bench_mix64(it->key), it))
			bench_die("ck_hs_put failed while filling");
	}
	rate = run_workers(o.callers, secs);
	snprintf(name, sizeof(name), "hash.ck.mixed%ld.t%d", nkeys, o.callers);
	bench_metric(name, rate, "op/s");
	empty_table();
	return 0;
}
