// SPDX-License-Identifier: MIT
/*
 * Stacks and queues, side by side with liburcu: push+pop (enqueue+dequeue)
 * pairs per second with P producers and P consumers, and the latency of a
 * blocking pop whose pusher was preempted in the middle of its push.
 *
 * Structures and how they are driven (the same calls for both libraries,
 * liburcu 0.13's API):
 *   lfstack     cds_lfs_push / cds_lfs_pop_blocking (the stack's mutex)
 *   wfstack     cds_wfs_push / cds_wfs_pop_blocking (the stack's mutex)
 *   wfcqueue    cds_wfcq_enqueue / cds_wfcq_dequeue_blocking (the mutex)
 *   rculfqueue  cds_lfq_enqueue_rcu / cds_lfq_dequeue_rcu under
 *               urcu_memb_read_lock; a dequeued node goes back to its
 *               producer through urcu_memb_call_rcu (a grace period), so
 *               this one also measures each library's call_rcu.
 * Each producer cycles through a private ring of nodes; a node is pushed
 * again only once a consumer has released it.  Threads are pinned, one per
 * CPU while there are enough CPUs.
 *
 * Output (bench-util.h format):
 *   cds.<structure>.<P>x<P> <value> Mpairs/s      median of 3 runs
 *   cds.<structure>.<P>x<P>.cpu <value> Mpairs/cpu-s  the same per second
 *                                          of the process's CPU time
 *   cds.<structure>.<P>x<P>.depth <value> nodes  mean number of nodes in the
 *                                          structure (pushed, not yet popped),
 *                                          sampled every millisecond
 *   cds.<structure>.<P>x<P>.lat.p50|p99 <value> us  push-to-pop latency of
 *                                          one node in 64 (time-stamped by its
 *                                          producer, read by its consumer)
 *   cds.<structure>.<P>x<P>.csw <value> /s  consumers' voluntary context
 *                                          switches per second (sleeps)
 *   cds.wfstack.preempted_pop.p50|p99|max <value> us
 *   cds.<structure>.solo <value> ns/pair (-m solo: one thread, push then
 *                                          pop, thread CPU time per pair)
 *
 * Options: -c P (producers = consumers, default 1), -t seconds per run
 * (default 1), -m structure|pairs|solo|latency (one structure, every
 * structure, the one-thread costs, or the latency only; default: every
 * structure, then the latency), -q (short runs), -n N (nodes in each
 * producer's ring, default 65536: the bound on the nodes a producer has in
 * flight; rows with another N are named cds.<structure>.<P>x<P>.n<N>...).
 * With the default ring a producer runs up to 65536 nodes ahead (a deep
 * queue); -n 64 keeps it on the consumer's heels, where the consumer meets
 * half-done pushes and its way of waiting decides the latency.
 *
 * Throughput alone hides the regime a run is in: a consumer that sleeps
 * when it meets a half-done enqueue lets the producer run far ahead, and
 * then pops from a long queue whose head line no producer touches (high
 * throughput, long latency); a consumer that waits briefly stays on the
 * producer's heels (short queue, short latency, the head and tail lines
 * bouncing between the CPUs).  So depth, latency and the consumers' sleeps
 * are printed beside every throughput row.
 *
 * Layout: every structure's head, its tail and each thread's counters sit
 * on separate 128-byte lines (two 64-byte lines: the adjacent-line
 * prefetcher pairs them), so that a producer's tail and a consumer's head
 * never share a line by the accident of link order.  -DBENCH_CDS_PACKED
 * puts them back in one line (head then tail) for comparison.
 *
 * -DBENCH_WFCQ_HOOK=1 (with -D_LGPL_SOURCE; both libraries honour
 * liburcu's CDS_WFCQ_WAIT_SLEEP hook there) counts each time a wfcqueue
 * waiter gives up spinning and sleeps (cds.wfcqueue.<P>x<P>.sleeps, per
 * second); =2 counts and does not sleep (spins on): the experiment that
 * tells whether the sleep sets the regime.
 *
 * Build (against this tree, or against liburcu with its include and
 * library directories instead):
 *   gcc -O2 -std=gnu11 -pthread -D_GNU_SOURCE -I<include dirs> \
 *       tools/bench/bench-cds.c tools/bench/bench-util.c \
 *       -L<libdir> -Wl,-rpath,<libdir> -lurcu-memb -lurcu-cds -lurcu-common
 */
#include <pthread.h>
#include <sched.h>
#include <time.h>

#ifdef BENCH_WFCQ_HOOK
/* Before <urcu/wfcqueue.h>: the waiter's sleep, counted (see the top). */
static unsigned long wfcq_sleeps;

static void bench_wfcq_sleep(int msec)
{
	__atomic_add_fetch(&wfcq_sleeps, 1, __ATOMIC_RELAXED);
	if (BENCH_WFCQ_HOOK == 1) {
		struct timespec ts = { msec / 1000, (long) (msec % 1000) * 1000000L };

		nanosleep(&ts, NULL);
	}
}
#define CDS_WFCQ_WAIT_SLEEP(msec)	bench_wfcq_sleep(msec)
#endif

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <urcu/urcu-memb.h>
#include <urcu/lfstack.h>
#include <urcu/wfstack.h>
#include <urcu/wfcqueue.h>
#include <urcu/rculfqueue.h>

#include "bench-util.h"

#define RING_DEFAULT	65536	/* nodes per producer (-n) */
#define REPEATS		3
#define LAT_ROUNDS	300
#define LINE		128	/* see "Layout" at the top */
#define STAMP_EVERY	64	/* one node in STAMP_EVERY carries a time stamp */
#define LAT_SAMPLES	65536	/* latency samples kept per consumer and run */
#define DEPTH_TICK_NS	1000000	/* depth sampling period */

#ifdef BENCH_CDS_PACKED
#define SHARED_LINE
#define SHARED_ALIGN	__attribute__((aligned(64)))
#else
#define SHARED_LINE	__attribute__((aligned(LINE)))
#define SHARED_ALIGN	SHARED_LINE
#endif

enum structure { S_LFSTACK, S_WFSTACK, S_WFCQUEUE, S_RCULFQUEUE, S_COUNT };
static const char *const names[S_COUNT] = { "lfstack", "wfstack", "wfcqueue", "rculfqueue" };

struct bnode {
	union {
		struct cds_lfs_node lfs;
		struct cds_wfs_node wfs;
		struct cds_wfcq_node wfcq;
		struct cds_lfq_node_rcu lfq;
	} link;
	int busy;			/* 1 from push until a consumer releases it */
	uint64_t stamp;			/* push time (ns), one node in STAMP_EVERY; else 0 */
	struct rcu_head rcu;
};

struct worker {
	pthread_t tid;
	int slot;
	struct bnode *ring;		/* producers */
	unsigned long count;		/* pushes or pops so far; relaxed, read by main */
	unsigned long nvcsw;		/* consumers: voluntary context switches */
	uint64_t *lat;			/* consumers: push-to-pop samples (ns) */
	size_t nlat;
} __attribute__((aligned(LINE)));

/* Each on its own line unless BENCH_CDS_PACKED; see "Layout" at the top. */
static struct {
	struct cds_lfs_stack lfs SHARED_LINE;
	struct cds_wfs_stack wfs SHARED_LINE;
	struct cds_wfcq_head wfcq_head SHARED_LINE;
	struct cds_wfcq_tail wfcq_tail SHARED_LINE;
	struct cds_lfq_queue_rcu lfq SHARED_LINE;
} q SHARED_ALIGN;


static enum structure cur;
static unsigned long ring = RING_DEFAULT;
static volatile int go SHARED_LINE, stop;

static void release_cb(struct rcu_head *head)
{
	struct bnode *n = caa_container_of(head, struct bnode, rcu);

	__atomic_store_n(&n->busy, 0, __ATOMIC_RELEASE);
}

static void *producer(void *arg)
{
	struct worker *w = (struct worker *) arg;
	unsigned long i = 0;

	bench_pin(w->slot);
	urcu_memb_register_thread();
	while (!go)
		caa_cpu_relax();
	while (!stop) {
		struct bnode *n = &w->ring[i++ % ring];

		while (__atomic_load_n(&n->busy, __ATOMIC_ACQUIRE)) {
			if (stop)
				goto out;
			sched_yield();
		}
		n->busy = 1;
		n->stamp = i % STAMP_EVERY ? 0 : bench_now_ns();
		__atomic_store_n(&w->count, i, __ATOMIC_RELAXED);
		switch (cur) {
		case S_LFSTACK:
			cds_lfs_push(&q.lfs, &n->link.lfs);
			break;
		case S_WFSTACK:
			cds_wfs_node_init(&n->link.wfs);
			cds_wfs_push(&q.wfs, &n->link.wfs);
			break;
		case S_WFCQUEUE:
			cds_wfcq_node_init(&n->link.wfcq);
			cds_wfcq_enqueue(&q.wfcq_head, &q.wfcq_tail, &n->link.wfcq);
			break;
		case S_RCULFQUEUE:
			cds_lfq_node_init_rcu(&n->link.lfq);
			urcu_memb_read_lock();
			cds_lfq_enqueue_rcu(&q.lfq, &n->link.lfq);
			urcu_memb_read_unlock();
			break;
		default:
			break;
		}
	}
out:
	urcu_memb_unregister_thread();
	return NULL;
}

static unsigned long thread_nvcsw(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return (unsigned long) ru.ru_nvcsw;
}

static void *consumer(void *arg)
{
	struct worker *w = (struct worker *) arg;
	unsigned long count = 0, csw0;

	bench_pin(w->slot);
	urcu_memb_register_thread();
	while (!go)
		caa_cpu_relax();
	csw0 = thread_nvcsw();
	while (!stop) {
		void *link = NULL;
		struct bnode *n;

		switch (cur) {
		case S_LFSTACK:
			link = cds_lfs_pop_blocking(&q.lfs);
			break;
		case S_WFSTACK:
			link = cds_wfs_pop_blocking(&q.wfs);
			break;
		case S_WFCQUEUE:
			link = cds_wfcq_dequeue_blocking(&q.wfcq_head, &q.wfcq_tail);
			break;
		case S_RCULFQUEUE:
			urcu_memb_read_lock();
			link = cds_lfq_dequeue_rcu(&q.lfq);
			urcu_memb_read_unlock();
			break;
		default:
			break;
		}
		if (!link) {
			caa_cpu_relax();
			continue;
		}
		/* Every link member is at offset 0 of struct bnode. */
		n = (struct bnode *) link;
		__atomic_store_n(&w->count, ++count, __ATOMIC_RELAXED);
		if (n->stamp && w->nlat < LAT_SAMPLES)
			w->lat[w->nlat++] = bench_now_ns() - n->stamp;
		if (cur == S_RCULFQUEUE)
			urcu_memb_call_rcu(&n->rcu, release_cb);
		else
			__atomic_store_n(&n->busy, 0, __ATOMIC_RELEASE);
	}
	w->nvcsw = thread_nvcsw() - csw0;
	urcu_memb_unregister_thread();
	return NULL;
}

static void init_structure(void)
{
	switch (cur) {
	case S_LFSTACK:
		cds_lfs_init(&q.lfs);
		break;
	case S_WFSTACK:
		cds_wfs_init(&q.wfs);
		break;
	case S_WFCQUEUE:
		cds_wfcq_init(&q.wfcq_head, &q.wfcq_tail);
		break;
	case S_RCULFQUEUE:
		cds_lfq_init_rcu(&q.lfq, urcu_memb_call_rcu);
		break;
	default:
		break;
	}
}

/* Empty the structure after a run (single-threaded now) and tear it down. */
static void fini_structure(void)
{
	switch (cur) {
	case S_LFSTACK:
		while (cds_lfs_pop_blocking(&q.lfs))
			;
		cds_lfs_destroy(&q.lfs);
		break;
	case S_WFSTACK:
		while (cds_wfs_pop_blocking(&q.wfs))
			;
		cds_wfs_destroy(&q.wfs);
		break;
	case S_WFCQUEUE:
		while (cds_wfcq_dequeue_blocking(&q.wfcq_head, &q.wfcq_tail))
			;
		cds_wfcq_destroy(&q.wfcq_head, &q.wfcq_tail);
		break;
	case S_RCULFQUEUE:
		urcu_memb_read_lock();
		while (cds_lfq_dequeue_rcu(&q.lfq))
			;
		urcu_memb_read_unlock();
		if (cds_lfq_destroy_rcu(&q.lfq))
			bench_die("rculfqueue not empty after draining");
		break;
	default:
		break;
	}
	urcu_memb_barrier();
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec / 1e6
		+ (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec / 1e6;
}

/* What one timed run measured (see the output lines at the top). */
struct run_result {
	double mpairs;			/* millions of pairs per second of wall time */
	double mpairs_cpu;		/* ... per second of the process's CPU time */
	double depth;			/* mean nodes in the structure */
	double lat_p50_us, lat_p99_us;	/* push-to-pop latency */
	double csw;			/* consumers' voluntary switches per second */
	double sleeps;			/* wfcqueue waiter sleeps per second (hook) */
};

/* Nodes pushed and not yet popped, from the threads' relaxed counters. */
static long in_flight(const struct worker *w, int pairs)
{
	long d = 0;
	int i;

	for (i = 0; i < 2 * pairs; i++) {
		long c = (long) __atomic_load_n(&w[i].count, __ATOMIC_RELAXED);

		d += i < pairs ? c : -c;
	}
	return d > 0 ? d : 0;
}

static void start_workers(struct worker *w, int pairs)
{
	int i;

	for (i = 0; i < 2 * pairs; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].slot = i;
		if (i < pairs) {
			w[i].ring = (struct bnode *) calloc(ring, sizeof(struct bnode));
			if (!w[i].ring)
				bench_die("out of memory");
			if (pthread_create(&w[i].tid, NULL, producer, &w[i]))
				bench_die("pthread_create");
		} else {
			w[i].lat = (uint64_t *) bench_xmalloc(LAT_SAMPLES * sizeof(uint64_t));
			if (pthread_create(&w[i].tid, NULL, consumer, &w[i]))
				bench_die("pthread_create");
		}
	}
}

/* Joins the threads and fills r's figures from their counts and samples. */
static void join_workers(struct worker *w, int pairs, double secs, struct run_result *r)
{
	uint64_t *lat = (uint64_t *) bench_xmalloc((size_t) pairs * LAT_SAMPLES * sizeof(*lat));
	unsigned long total = 0, csw = 0;
	size_t nlat = 0;
	int i;

	for (i = 0; i < 2 * pairs; i++)
		pthread_join(w[i].tid, NULL);
	for (i = pairs; i < 2 * pairs; i++) {
		total += w[i].count;
		csw += w[i].nvcsw;
		memcpy(lat + nlat, w[i].lat, w[i].nlat * sizeof(*lat));
		nlat += w[i].nlat;
		free(w[i].lat);
	}
	bench_sort_u64(lat, nlat);
	r->mpairs = (double) total / secs / 1e6;
	r->lat_p50_us = nlat ? (double) bench_percentile_u64(lat, nlat, 50) / 1e3 : 0;
	r->lat_p99_us = nlat ? (double) bench_percentile_u64(lat, nlat, 99) / 1e3 : 0;
	r->csw = (double) csw / secs;
	free(lat);
}

/* One timed run: the threads push and pop for @seconds; main samples depth. */
static void run_once(int pairs, double seconds, struct run_result *r)
{
	struct worker *w;
	uint64_t t0, t1, tick;
	double c0, c1, depth_sum = 0;
	unsigned long depth_n = 0;
	int i;

	w = (struct worker *) aligned_alloc(LINE, 2 * (size_t) pairs * sizeof(*w));
	if (!w)
		bench_die("out of memory");
	init_structure();
	go = 0;
	stop = 0;
	start_workers(w, pairs);
#ifdef BENCH_WFCQ_HOOK
	__atomic_store_n(&wfcq_sleeps, 0, __ATOMIC_RELAXED);
#endif
	c0 = cpu_seconds();
	t0 = bench_now_ns();
	go = 1;
	for (tick = t0 + DEPTH_TICK_NS; tick < t0 + (uint64_t) (seconds * 1e9);
	     tick += DEPTH_TICK_NS) {
		bench_sleep_until_ns(tick);
		depth_sum += (double) in_flight(w, pairs);
		depth_n++;
	}
	bench_sleep_until_ns(t0 + (uint64_t) (seconds * 1e9));
	stop = 1;
	t1 = bench_now_ns();
	c1 = cpu_seconds();
	join_workers(w, pairs, (double) (t1 - t0) / 1e9, r);
	fini_structure();	/* before the rings go: it pops their nodes */
	for (i = 0; i < pairs; i++)
		free(w[i].ring);
	free(w);
	r->mpairs_cpu = r->mpairs * ((double) (t1 - t0) / 1e9) / (c1 - c0);
	r->depth = depth_n ? depth_sum / (double) depth_n : 0;
#ifdef BENCH_WFCQ_HOOK
	r->sleeps = (double) __atomic_load_n(&wfcq_sleeps, __ATOMIC_RELAXED)
		/ ((double) (t1 - t0) / 1e9);
#else
	r->sleeps = -1;
#endif
}

/*
 * One thread, push then pop, in a loop: the cost of the uncontended paths,
 * in nanoseconds of the thread's own CPU time per pair (so that time spent
 * preempted on a busy machine does not count).
 */
static double solo_ns(double seconds)
{
	static struct bnode nodes[64];
	struct timespec c0, c1;
	uint64_t deadline = bench_now_ns() + (uint64_t) (seconds * 1e9);
	unsigned long pairs = 0;
	int i;

	init_structure();
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	while (bench_now_ns() < deadline) {
		for (i = 0; i < 1000; i++) {
			struct bnode *n = &nodes[i % 64];
			void *link = NULL;

			switch (cur) {
			case S_LFSTACK:
				cds_lfs_push(&q.lfs, &n->link.lfs);
				link = cds_lfs_pop_blocking(&q.lfs);
				break;
			case S_WFSTACK:
				cds_wfs_node_init(&n->link.wfs);
				cds_wfs_push(&q.wfs, &n->link.wfs);
				link = cds_wfs_pop_blocking(&q.wfs);
				break;
			case S_WFCQUEUE:
				cds_wfcq_node_init(&n->link.wfcq);
				cds_wfcq_enqueue(&q.wfcq_head, &q.wfcq_tail, &n->link.wfcq);
				link = cds_wfcq_dequeue_blocking(&q.wfcq_head, &q.wfcq_tail);
				break;
			case S_RCULFQUEUE:
				/* Reused without a grace period: safe, nobody else runs. */
				cds_lfq_node_init_rcu(&n->link.lfq);
				urcu_memb_read_lock();
				cds_lfq_enqueue_rcu(&q.lfq, &n->link.lfq);
				link = cds_lfq_dequeue_rcu(&q.lfq);
				urcu_memb_read_unlock();
				break;
			default:
				break;
			}
			if (link != (void *) n)
				bench_die("solo: popped the wrong node");
		}
		pairs += 1000;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	fini_structure();
	return ((double) (c1.tv_sec - c0.tv_sec) * 1e9 + (double) (c1.tv_nsec - c0.tv_nsec))
		/ (double) pairs;
}

/* ---- preempted pusher ------------------------------------------------- */

static volatile int lat_armed, lat_done;
static volatile uint64_t lat_returned;

static void *lat_popper(void *arg)
{
	int round;

	(void) arg;
	bench_pin(1);
	for (round = 1; round <= LAT_ROUNDS; round++) {
		while (lat_armed != round)
			sched_yield();
		if (!cds_wfs_pop_blocking(&q.wfs))
			bench_die("blocking pop returned NULL");
		lat_returned = bench_now_ns();
		__atomic_store_n(&lat_done, round, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void latency(void)
{
	uint64_t lat[LAT_ROUNDS];
	struct cds_wfs_node node;
	pthread_t tid;
	int round;

	bench_pin(0);
	cds_wfs_init(&q.wfs);
	lat_armed = 0;
	if (pthread_create(&tid, NULL, lat_popper, NULL))
		bench_die("pthread_create");
	for (round = 1; round <= LAT_ROUNDS; round++) {
		struct cds_wfs_head *old;
		uint64_t linked;

		/* The push's first step: the node becomes the top, unlinked. */
		CMM_STORE_SHARED(node.next, NULL);
		old = uatomic_xchg(&q.wfs.head, (struct cds_wfs_head *) &node);
		__atomic_store_n(&lat_armed, round, __ATOMIC_RELEASE);
		/* "Preempted" for 1 ms. */
		bench_sleep_until_ns(bench_now_ns() + 1000000);
		linked = bench_now_ns();
		/* The second step: link it. */
		cmm_smp_wmb();
		CMM_STORE_SHARED(node.next, (struct cds_wfs_node *) old);
		while (__atomic_load_n(&lat_done, __ATOMIC_ACQUIRE) != round)
			sched_yield();
		lat[round - 1] = lat_returned > linked ? lat_returned - linked : 0;
	}
	pthread_join(tid, NULL);
	cds_wfs_destroy(&q.wfs);
	bench_sort_u64(lat, LAT_ROUNDS);
	bench_metric("cds.wfstack.preempted_pop.p50",
		(double) bench_percentile_u64(lat, LAT_ROUNDS, 50) / 1e3, "us");
	bench_metric("cds.wfstack.preempted_pop.p99",
		(double) bench_percentile_u64(lat, LAT_ROUNDS, 99) / 1e3, "us");
	bench_metric("cds.wfstack.preempted_pop.max", (double) lat[LAT_ROUNDS - 1] / 1e3, "us");
}

/* One metric: the median over the runs of the field at @off of each result. */
static void median_row(const struct run_result *r, size_t off, const char *base,
		       const char *suffix, const char *unit)
{
	double v[REPEATS];
	char metric[96];
	int k;

	for (k = 0; k < REPEATS; k++)
		v[k] = *(const double *) ((const char *) &r[k] + off);
	snprintf(metric, sizeof(metric), "%s%s", base, suffix);
	bench_metric(metric, bench_median(v, REPEATS), unit);
}

/* The rows of the current structure with P producers and P consumers. */
static void pairs_rows(int pairs, double seconds)
{
	struct run_result r[REPEATS];
	char base[64];
	int k;

	for (k = 0; k < REPEATS; k++)
		run_once(pairs, seconds, &r[k]);
	snprintf(base, sizeof(base), "cds.%s.%dx%d", names[cur], pairs, pairs);
	if (ring != RING_DEFAULT)
		snprintf(base + strlen(base), sizeof(base) - strlen(base), ".n%lu", ring);
	median_row(r, offsetof(struct run_result, mpairs), base, "", "Mpairs/s");
	median_row(r, offsetof(struct run_result, mpairs_cpu), base, ".cpu", "Mpairs/cpu-s");
	median_row(r, offsetof(struct run_result, depth), base, ".depth", "nodes");
	median_row(r, offsetof(struct run_result, lat_p50_us), base, ".lat.p50", "us");
	median_row(r, offsetof(struct run_result, lat_p99_us), base, ".lat.p99", "us");
	median_row(r, offsetof(struct run_result, csw), base, ".csw", "/s");
	if (r[0].sleeps >= 0 && cur == S_WFCQUEUE)
		median_row(r, offsetof(struct run_result, sleeps), base, ".sleeps", "/s");
}

int main(int argc, char **argv)
{
	struct bench_opts opts;
	double seconds;
	int s;

	bench_parse_opts(argc, argv, &opts);
	bench_pin_init();
	urcu_memb_register_thread();
	if (opts.max_samples > 0)
		ring = (unsigned long) opts.max_samples;
	seconds = opts.max_seconds > 0 ? opts.max_seconds : (opts.quick ? 0.2 : 1.0);
	for (s = 0; s < S_COUNT && opts.mode && !strcmp(opts.mode, "solo"); s++) {
		double r[REPEATS];
		char metric[64];
		int k;

		cur = (enum structure) s;
		for (k = 0; k < REPEATS; k++)
			r[k] = solo_ns(seconds);
		snprintf(metric, sizeof(metric), "cds.%s.solo", names[s]);
		bench_metric(metric, bench_median(r, REPEATS), "ns/pair");
	}
	for (s = 0; s < S_COUNT && !(opts.mode && !strcmp(opts.mode, "solo")); s++) {
		if (opts.mode && strcmp(opts.mode, "pairs") && strcmp(opts.mode, names[s]))
			continue;
		cur = (enum structure) s;
		pairs_rows(opts.callers, seconds);
	}
	if (!opts.mode || !strcmp(opts.mode, "latency"))
		latency();
	urcu_memb_unregister_thread();
	return 0;
}
