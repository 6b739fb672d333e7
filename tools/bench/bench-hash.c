// SPDX-License-Identifier: MIT
/*
 * The RCU hash table (urcu/rculfhash.h), the same source compiled against
 * this project and against liburcu (memb flavor through <urcu.h>, with
 * _LGPL_SOURCE so the read side is inline in both).  Method, so that the
 * ratio measures the table and nothing else: each lookup in its own
 * read-side critical section, uniformly random keys, integer keys hashed by
 * a 64-bit mixer, nodes allocated one by one with malloc.
 *
 * -m hit   -n KEYS -c THREADS: lookups that hit, fixed-size table (no
 *          auto-resize) with as many buckets as keys (load factor ~1).
 *          Prints hash.hit<KEYS>.t<THREADS> in lookups/s (all threads).
 * -m miss  -n KEYS: the same, for keys that are not in the table.
 * -m hit-auto -n KEYS -c THREADS: lookups that hit, on an AUTO_RESIZE |
 *          ACCOUNTING table made as liburcu's test_urcu_hash makes it with
 *          -A (32 initial buckets, at least 1, at most 2^20) and filled
 *          with cds_lfht_add; -n 10 is the small key range of liburcu's
 *          runhash.sh (-A -M 10 -N 10 -O 10), lookups only.  Prints
 *          hash.hitauto<KEYS>.t<THREADS> in lookups/s.
 * -m mixed -n KEYS -c THREADS: 90% lookup / 5% add_unique / 5% del on an
 *          AUTO_RESIZE | ACCOUNTING table, filled and resized to KEYS's
 *          power of two before the clock starts (fill()); removed
 *          nodes freed with call_rcu.  Prints hash.mixed<KEYS>.t<THREADS>
 *          in ops/s.
 * -m mixed-auto: the same on an AUTO_RESIZE table without ACCOUNTING
 *          (which liburcu grows from chain lengths and we from a sampled
 *          count).  Prints hash.mixedauto<KEYS>.t<THREADS>.
 * -m resize -n KEYS: explicit cds_lfht_resize of a table holding KEYS
 *          nodes from 2^10 to 2^20 buckets and back, one thread looking up
 *          throughout.  Prints hash.grow and hash.shrink in ms.
 * -m regrowORDER[-empty|-empty1] -n KEYS: time of resizes alone (no
 *          other thread runs): a table holding KEYS nodes grows from 2^10
 *          buckets to 2^ORDER and shrinks back, -c ROUNDS times (default
 *          1); -empty: no nodes; -empty1: no nodes, from and back to 1
 *          bucket.  Prints the medians of the rounds as
 *          hash.regrowORDER[e|e1].grow_wall / grow_cpu / shrink_wall /
 *          shrink_cpu in ms (cpu: the process's CPU time, helper threads
 *          included).  Large resizes may run on helper threads; in this
 *          project URCU_LFHT_RESIZE_THREADS=1 turns them off (the A/B
 *          switch; run A and B alternately, the machine's load varies).
 * -m mem   -n TABLES: RSS growth of creating TABLES empty
 *          AUTO_RESIZE | ACCOUNTING tables.  Prints hash.mem.per_table in
 *          bytes.
 * -t S caps the measuring time of hit/miss/mixed (default 1 s, -q 0.3 s).
 *
 * A benchmark, not a test: it checks only that every hit finds its key
 * (exit 1 otherwise).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench-flavor.h"
#include "bench-util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <urcu/rculfhash.h>

/* cds_lfht_resize must not run inside a read-side section: qsbr goes offline. */
#ifdef BENCH_FLAVOR_QSBR
#define rcu_thread_offline_if_qsbr()	rcu_thread_offline()
#define rcu_thread_online_if_qsbr()	rcu_thread_online()
#else
#define rcu_thread_offline_if_qsbr()	do { } while (0)
#define rcu_thread_online_if_qsbr()	do { } while (0)
#endif

struct item {
	struct cds_lfht_node node;
	uint64_t key;
	struct rcu_head rh;
};

static struct cds_lfht *ht;
static struct item **items;	/* the KEYS initial items (hit/miss/resize) */
static long nkeys;

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key == *(const uint64_t *) key;
}

static struct item *new_item(uint64_t key)
{
	struct item *it = bench_xmalloc(sizeof(*it));

	cds_lfht_node_init(&it->node);
	it->key = key;
	return it;
}

static void free_item_cb(struct rcu_head *rh)
{
	free(caa_container_of(rh, struct item, rh));
}

/* Keys 2*i (i < KEYS) are inserted; odd keys are misses. */

static unsigned long pow2_at_least(unsigned long n)
{
	unsigned long p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* An explicit resize, outside any read-side section (qsbr: offline). */
static void resize_to(unsigned long size)
{
	rcu_thread_offline_if_qsbr();
	cds_lfht_resize(ht, size);
	rcu_thread_online_if_qsbr();
}

/*
 * Create items 0..n-1 (keys 0, 2, 4, ...) and add them, one read-side
 * section per 256 adds.  grow (the mixed modes' AUTO_RESIZE table, which
 * starts at 1 bucket): an explicit resize at each power of two from 1024
 * keys on and to n's at the end, so that the timed phase starts on a table
 * of the same size in both libraries.  One section for the whole fill
 * kept the table from growing until the fill ended (a resize waits for
 * grace periods): the timed phase then raced each library's catching up,
 * and liburcu 0.13 sometimes lost its lazy resize altogether and filled a
 * tiny table for minutes (the 120 s timeout).
 */
static void fill(long n, bool grow)
{
	items = bench_xmalloc(sizeof(*items) * (size_t) n);
	nkeys = n;
	for (long i = 0; i < n; i++) {
		/* Between two sections: i is a multiple of 256 here. */
		if (grow && i >= 1024 && (i & (i - 1)) == 0)
			resize_to((unsigned long) i);
		if ((i & 255) == 0)
			rcu_read_lock();
		items[i] = new_item(2 * (uint64_t) i);
		cds_lfht_add(ht, bench_mix64(items[i]->key), &items[i]->node);
		if ((i & 255) == 255 || i == n - 1)
			rcu_read_unlock();
	}
	if (grow)
		resize_to(pow2_at_least((unsigned long) n));
}


struct worker {
	pthread_t tid;
	int id;
	int miss;
	int mixed;
	unsigned long ops;
	unsigned long errors;
};

static void *lookup_worker(void *arg)
{
	struct worker *w = arg;
	uint64_t s = 0x9e3779b97f4a7c15ULL * (uint64_t) (w->id + 1);
	unsigned long ops = 0, errors = 0;
	struct cds_lfht_iter iter;

	bench_pin(w->id);
	rcu_register_thread();
	bench_gate_arrive();
	while (!bench_stop) {
		for (int k = 0; k < 256; k++) {
			uint64_t key = 2 * (bench_xorshift64(&s) % (uint64_t) nkeys) + (uint64_t) w->miss;

			rcu_read_lock();
			cds_lfht_lookup(ht, bench_mix64(key), match, &key, &iter);
			if ((cds_lfht_iter_get_node(&iter) == NULL) != w->miss)
				errors++;
			rcu_read_unlock();
		}
		ops += 256;
		bench_quiescent_state();
	}
	rcu_unregister_thread();
	w->ops = ops;
	w->errors = errors;
	return NULL;
}

static void *mixed_worker(void *arg)
{
	struct worker *w = arg;
	uint64_t s = 0x9e3779b97f4a7c15ULL * (uint64_t) (w->id + 7);
	unsigned long ops = 0;
	struct cds_lfht_iter iter;

	bench_pin(w->id);
	rcu_register_thread();
	bench_gate_arrive();
	while (!bench_stop) {
		for (int k = 0; k < 256; k++) {
			uint64_t r = bench_xorshift64(&s);
			uint64_t key = (r >> 8) % (uint64_t) (2 * nkeys);
			unsigned int op = (unsigned int) (r & 0xff) % 100;

			rcu_read_lock();
			if (op < 90) {
				cds_lfht_lookup(ht, bench_mix64(key), match, &key, &iter);
			} else if (op < 95) {
				struct item *it = new_item(key);

				if (cds_lfht_add_unique(ht, bench_mix64(key), match, &key, &it->node) != &it->node)
					free(it);	/* never published */
			} else {
				struct cds_lfht_node *node;

				cds_lfht_lookup(ht, bench_mix64(key), match, &key, &iter);
				node = cds_lfht_iter_get_node(&iter);
				if (node && cds_lfht_del(ht, node) == 0)
					call_rcu(&caa_container_of(node, struct item, node)->rh,
						 free_item_cb);
			}
			rcu_read_unlock();
		}
		ops += 256;
		bench_quiescent_state();
	}
	rcu_unregister_thread();
	w->ops = ops;
	return NULL;
}

static double run_workers(int nthreads, void *(*fn)(void *), int miss, double seconds,
			  unsigned long *errors)
{
	struct worker *w = calloc((size_t) nthreads, sizeof(*w));
	unsigned long ops = 0;
	uint64_t ns;

	if (!w)
		bench_die("out of memory");
	for (int i = 0; i < nthreads; i++) {
		w[i].id = i;
		w[i].miss = miss;
	}
	ns = bench_run_gated(nthreads, fn, w, sizeof(*w), seconds);
	*errors = 0;
	for (int i = 0; i < nthreads; i++) {
		ops += w[i].ops;
		*errors += w[i].errors;
	}
	free(w);
	return (double) ops / ((double) ns / 1e9);
}

static void empty_table(void)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	rcu_read_lock();
	cds_lfht_for_each(ht, &iter, node) {
		if (cds_lfht_del(ht, node) == 0)
			call_rcu(&caa_container_of(node, struct item, node)->rh, free_item_cb);
	}
	rcu_read_unlock();
	rcu_barrier();
	if (cds_lfht_destroy(ht, NULL))
		bench_die("cds_lfht_destroy failed");
	free(items);
}

static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = 0, rss = 0;

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = -1;
	fclose(f);
	return rss * 4;
}

static uint64_t cpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

/* -m regrowORDER[-empty]: see the top. */
static void regrow(const char *mode, long n, int rounds)
{
	char *end;
	long order = strtol(mode + strlen("regrow"), &end, 10);
	int from1 = !strcmp(end, "-empty1"), empty = from1 || !strcmp(end, "-empty");
	const char *tag = from1 ? "e1" : empty ? "e" : "";
	unsigned long lo = from1 ? 1 : 1024, hi;
	double gw[64], gc[64], sw[64], sc[64];
	uint64_t w0, c0, w1, c1;
	char name[80];

	if (order < 11 || order > 30 || (*end && !empty))
		bench_die("mode %s: regrowORDER[-empty|-empty1], 11 <= ORDER <= 30", mode);
	if (rounds > 64)
		rounds = 64;
	hi = 1UL << order;
	ht = cds_lfht_new(hi, 1, hi, 0, NULL);
	if (!ht)
		bench_die("cds_lfht_new failed");
	if (!empty)
		fill(n, false);	/* at 2^ORDER buckets: short chains */
	else
		items = NULL;
	rcu_thread_offline_if_qsbr();
	cds_lfht_resize(ht, lo);
	for (int r = 0; r < rounds; r++) {
		w0 = bench_now_ns();
		c0 = cpu_now_ns();
		cds_lfht_resize(ht, hi);
		w1 = bench_now_ns();
		c1 = cpu_now_ns();
		gw[r] = (double) (w1 - w0) / 1e6;
		gc[r] = (double) (c1 - c0) / 1e6;
		cds_lfht_resize(ht, lo);
		sw[r] = (double) (bench_now_ns() - w1) / 1e6;
		sc[r] = (double) (cpu_now_ns() - c1) / 1e6;
	}
	rcu_thread_online_if_qsbr();
	snprintf(name, sizeof(name), "hash.regrow%ld%s.grow_wall", order, tag);
	bench_metric(name, bench_median(gw, (size_t) rounds), "ms");
	snprintf(name, sizeof(name), "hash.regrow%ld%s.grow_cpu", order, tag);
	bench_metric(name, bench_median(gc, (size_t) rounds), "ms");
	snprintf(name, sizeof(name), "hash.regrow%ld%s.shrink_wall", order, tag);
	bench_metric(name, bench_median(sw, (size_t) rounds), "ms");
	snprintf(name, sizeof(name), "hash.regrow%ld%s.shrink_cpu", order, tag);
	bench_metric(name, bench_median(sc, (size_t) rounds), "ms");
	empty_table();
}

static void *resize_reader(void *arg)
{
	struct worker *w = arg;

	w->miss = 0;
	return lookup_worker(w);
}

int main(int argc, char **argv)
{
	struct bench_opts o;
	const char *mode;
	double secs;
	long n;
	char name[80];
	unsigned long errors = 0;

	bench_parse_opts(argc, argv, &o);
	mode = o.mode ? o.mode : "hit";
	secs = o.max_seconds > 0 ? o.max_seconds : (o.quick ? 0.3 : 1.0);
	n = o.max_samples > 0 ? o.max_samples : 1000;
	bench_pin_init();
	rcu_register_thread();

	if (!strcmp(mode, "hit") || !strcmp(mode, "miss") || !strcmp(mode, "hit-auto")) {
		int miss = !strcmp(mode, "miss"), autoresize = !strcmp(mode, "hit-auto");
		unsigned long size = pow2_at_least((unsigned long) n);
		double rate;

		if (autoresize)
			ht = cds_lfht_new(32, 1, 1UL << 20,
					  CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
		else
			ht = cds_lfht_new(size, size, size, 0, NULL);
		if (!ht)
			bench_die("cds_lfht_new failed");
		fill(n, false);
		rcu_thread_offline_if_qsbr();
		rate = run_workers(o.callers, lookup_worker, miss, secs, &errors);
		rcu_thread_online_if_qsbr();
		snprintf(name, sizeof(name), "hash.%s%ld.t%d", autoresize ? "hitauto" : mode, n,
			 o.callers);
		bench_metric(name, rate, "op/s");
		empty_table();
	} else if (!strcmp(mode, "mixed") || !strcmp(mode, "mixed-auto")) {
		int accounting = !strcmp(mode, "mixed");
		double rate;

		ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE
				| (accounting ? CDS_LFHT_ACCOUNTING : 0), NULL);
		if (!ht)
			bench_die("cds_lfht_new failed");
		fill(n, true);
		rate = run_workers(o.callers, mixed_worker, 0, secs, &errors);
		snprintf(name, sizeof(name), "hash.mixed%s%ld.t%d", accounting ? "" : "auto",
			 n, o.callers);
		bench_metric(name, rate, "op/s");
		empty_table();
	} else if (!strcmp(mode, "resize")) {
		struct worker w = { .id = 1 };
		uint64_t t0, t1, t2;

		/*
		 * Filled at 2^20 buckets (filling 10^6 keys into 2^10 buckets
		 * is quadratic), then brought down to 2^10 before timing.
		 */
		ht = cds_lfht_new(1UL << 20, 1, 1UL << 20, 0, NULL);
		if (!ht)
			bench_die("cds_lfht_new failed");
		fill(n, false);
		rcu_thread_offline_if_qsbr();
		cds_lfht_resize(ht, 1024);
		rcu_thread_online_if_qsbr();
		bench_gate_reset();
		if (pthread_create(&w.tid, NULL, resize_reader, &w))
			bench_die("pthread_create failed");
		(void) bench_gate_open(1);
		rcu_thread_offline_if_qsbr();
		t0 = bench_now_ns();
		cds_lfht_resize(ht, 1UL << 20);
		t1 = bench_now_ns();
		cds_lfht_resize(ht, 1024);
		t2 = bench_now_ns();
		rcu_thread_online_if_qsbr();
		bench_stop = 1;
		pthread_join(w.tid, NULL);
		errors = w.errors;
		bench_metric("hash.grow", (double) (t1 - t0) / 1e6, "ms");
		bench_metric("hash.shrink", (double) (t2 - t1) / 1e6, "ms");
		empty_table();
	} else if (!strncmp(mode, "regrow", 6)) {
		regrow(mode, n, o.callers);
	} else if (!strcmp(mode, "mem")) {
		struct cds_lfht **tables = bench_xmalloc(sizeof(*tables) * (size_t) n);
		long before, after;

		/* One table first: the library's one-time costs are not per table. */
		struct cds_lfht *first = cds_lfht_new(1, 1, 0,
			CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);

		before = rss_kib();
		for (long i = 0; i < n; i++) {
			tables[i] = cds_lfht_new(1, 1, 0,
				CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
			if (!tables[i])
				bench_die("cds_lfht_new failed");
		}
		after = rss_kib();
		bench_metric("hash.mem.per_table", (double) (after - before) * 1024.0 / (double) n,
			     "B");
		for (long i = 0; i < n; i++)
			cds_lfht_destroy(tables[i], NULL);
		cds_lfht_destroy(first, NULL);
		free(tables);
	} else {
		bench_die("unknown mode %s", mode);
	}
	rcu_unregister_thread();
	if (errors)
		bench_die("%lu lookups gave the wrong answer", errors);
	return 0;
}
