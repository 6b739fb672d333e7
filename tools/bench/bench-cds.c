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
 *   cds.wfstack.preempted_pop.p50|p99|max <value> us
 *   cds.<structure>.solo <value> ns/pair (-m solo: one thread, push then
 *                                          pop, thread CPU time per pair)
 *
 * Options: -c P (producers = consumers, default 1), -t seconds per run
 * (default 1), -m structure|pairs|solo|latency (one structure, every
 * structure, the one-thread costs, or the latency only; default: every
 * structure, then the latency), -q (short runs).
 *
 * Build (against this tree, or against liburcu with its include and
 * library directories instead):
 *   gcc -O2 -std=gnu11 -pthread -D_GNU_SOURCE -I<include dirs> \
 *       tools/bench/bench-cds.c tools/bench/bench-util.c \
 *       -L<libdir> -Wl,-rpath,<libdir> -lurcu-memb -lurcu-cds -lurcu-common
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <urcu/urcu-memb.h>
#include <urcu/lfstack.h>
#include <urcu/wfstack.h>
#include <urcu/wfcqueue.h>
#include <urcu/rculfqueue.h>

#include "bench-util.h"

#define RING		65536	/* nodes per producer */
#define REPEATS		3
#define LAT_ROUNDS	300

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
	struct rcu_head rcu;
};

struct worker {
	pthread_t tid;
	int slot;
	struct bnode *ring;		/* producers */
	unsigned long count;		/* consumers: pairs completed */
};

static enum structure cur;
static struct cds_lfs_stack lfs;
static struct cds_wfs_stack wfs;
static struct cds_wfcq_head wfcq_head;
static struct cds_wfcq_tail wfcq_tail;
static struct cds_lfq_queue_rcu lfq;
static volatile int go, stop;

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
		struct bnode *n = &w->ring[i++ % RING];

		while (__atomic_load_n(&n->busy, __ATOMIC_ACQUIRE)) {
			if (stop)
				goto out;
			sched_yield();
		}
		n->busy = 1;
		switch (cur) {
		case S_LFSTACK:
			cds_lfs_push(&lfs, &n->link.lfs);
			break;
		case S_WFSTACK:
			cds_wfs_node_init(&n->link.wfs);
			cds_wfs_push(&wfs, &n->link.wfs);
			break;
		case S_WFCQUEUE:
			cds_wfcq_node_init(&n->link.wfcq);
			cds_wfcq_enqueue(&wfcq_head, &wfcq_tail, &n->link.wfcq);
			break;
		case S_RCULFQUEUE:
			cds_lfq_node_init_rcu(&n->link.lfq);
			urcu_memb_read_lock();
			cds_lfq_enqueue_rcu(&lfq, &n->link.lfq);
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

static void *consumer(void *arg)
{
	struct worker *w = (struct worker *) arg;
	unsigned long count = 0;

	bench_pin(w->slot);
	urcu_memb_register_thread();
	while (!go)
		caa_cpu_relax();
	while (!stop) {
		void *link = NULL;
		struct bnode *n;

		switch (cur) {
		case S_LFSTACK:
			link = cds_lfs_pop_blocking(&lfs);
			break;
		case S_WFSTACK:
			link = cds_wfs_pop_blocking(&wfs);
			break;
		case S_WFCQUEUE:
			link = cds_wfcq_dequeue_blocking(&wfcq_head, &wfcq_tail);
			break;
		case S_RCULFQUEUE:
			urcu_memb_read_lock();
			link = cds_lfq_dequeue_rcu(&lfq);
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
		count++;
		if (cur == S_RCULFQUEUE)
			urcu_memb_call_rcu(&n->rcu, release_cb);
		else
			__atomic_store_n(&n->busy, 0, __ATOMIC_RELEASE);
	}
	w->count = count;
	urcu_memb_unregister_thread();
	return NULL;
}

static void init_structure(void)
{
	switch (cur) {
	case S_LFSTACK:
		cds_lfs_init(&lfs);
		break;
	case S_WFSTACK:
		cds_wfs_init(&wfs);
		break;
	case S_WFCQUEUE:
		cds_wfcq_init(&wfcq_head, &wfcq_tail);
		break;
	case S_RCULFQUEUE:
		cds_lfq_init_rcu(&lfq, urcu_memb_call_rcu);
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
		while (cds_lfs_pop_blocking(&lfs))
			;
		cds_lfs_destroy(&lfs);
		break;
	case S_WFSTACK:
		while (cds_wfs_pop_blocking(&wfs))
			;
		cds_wfs_destroy(&wfs);
		break;
	case S_WFCQUEUE:
		while (cds_wfcq_dequeue_blocking(&wfcq_head, &wfcq_tail))
			;
		cds_wfcq_destroy(&wfcq_head, &wfcq_tail);
		break;
	case S_RCULFQUEUE:
		urcu_memb_read_lock();
		while (cds_lfq_dequeue_rcu(&lfq))
			;
		urcu_memb_read_unlock();
		if (cds_lfq_destroy_rcu(&lfq))
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

/*
 * One timed run; returns millions of pairs per second of wall time, and in
 * *per_cpu millions of pairs per second of the process's CPU time (less
 * sensitive to a busy machine, where the threads spend part of the run
 * preempted).
 */
static double run_once(int pairs, double seconds, double *per_cpu)
{
	struct worker *w = (struct worker *) bench_xmalloc(2 * pairs * sizeof(*w));
	uint64_t t0, t1;
	double c0, c1;
	unsigned long total = 0;
	int i;

	init_structure();
	go = 0;
	stop = 0;
	for (i = 0; i < 2 * pairs; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].slot = i;
		if (i < pairs) {
			w[i].ring = (struct bnode *) calloc(RING, sizeof(struct bnode));
			if (!w[i].ring)
				bench_die("out of memory");
			if (pthread_create(&w[i].tid, NULL, producer, &w[i]))
				bench_die("pthread_create");
		} else if (pthread_create(&w[i].tid, NULL, consumer, &w[i])) {
			bench_die("pthread_create");
		}
	}
	c0 = cpu_seconds();
	t0 = bench_now_ns();
	go = 1;
	bench_sleep_until_ns(t0 + (uint64_t) (seconds * 1e9));
	stop = 1;
	t1 = bench_now_ns();
	c1 = cpu_seconds();
	for (i = 0; i < 2 * pairs; i++) {
		pthread_join(w[i].tid, NULL);
		total += w[i].count;
	}
	fini_structure();
	for (i = 0; i < pairs; i++)
		free(w[i].ring);
	free(w);
	*per_cpu = (double) total / (c1 - c0) / 1e6;
	return (double) total / ((double) (t1 - t0) / 1e9) / 1e6;
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
				cds_lfs_push(&lfs, &n->link.lfs);
				link = cds_lfs_pop_blocking(&lfs);
				break;
			case S_WFSTACK:
				cds_wfs_node_init(&n->link.wfs);
				cds_wfs_push(&wfs, &n->link.wfs);
				link = cds_wfs_pop_blocking(&wfs);
				break;
			case S_WFCQUEUE:
				cds_wfcq_node_init(&n->link.wfcq);
				cds_wfcq_enqueue(&wfcq_head, &wfcq_tail, &n->link.wfcq);
				link = cds_wfcq_dequeue_blocking(&wfcq_head, &wfcq_tail);
				break;
			case S_RCULFQUEUE:
				/* Reused without a grace period: safe, nobody else runs. */
				cds_lfq_node_init_rcu(&n->link.lfq);
				urcu_memb_read_lock();
				cds_lfq_enqueue_rcu(&lfq, &n->link.lfq);
				link = cds_lfq_dequeue_rcu(&lfq);
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
		if (!cds_wfs_pop_blocking(&wfs))
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
	cds_wfs_init(&wfs);
	lat_armed = 0;
	if (pthread_create(&tid, NULL, lat_popper, NULL))
		bench_die("pthread_create");
	for (round = 1; round <= LAT_ROUNDS; round++) {
		struct cds_wfs_head *old;
		uint64_t linked;

		/* The push's first step: the node becomes the top, unlinked. */
		CMM_STORE_SHARED(node.next, NULL);
		old = uatomic_xchg(&wfs.head, (struct cds_wfs_head *) &node);
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
	cds_wfs_destroy(&wfs);
	bench_sort_u64(lat, LAT_ROUNDS);
	bench_metric("cds.wfstack.preempted_pop.p50",
		(double) bench_percentile_u64(lat, LAT_ROUNDS, 50) / 1e3, "us");
	bench_metric("cds.wfstack.preempted_pop.p99",
		(double) bench_percentile_u64(lat, LAT_ROUNDS, 99) / 1e3, "us");
	bench_metric("cds.wfstack.preempted_pop.max", (double) lat[LAT_ROUNDS - 1] / 1e3, "us");
}

int main(int argc, char **argv)
{
	struct bench_opts opts;
	double seconds;
	int s;

	bench_parse_opts(argc, argv, &opts);
	bench_pin_init();
	urcu_memb_register_thread();
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
		double r[REPEATS], rc[REPEATS];
		char metric[64];
		int k;

		if (opts.mode && strcmp(opts.mode, "pairs") && strcmp(opts.mode, names[s]))
			continue;
		cur = (enum structure) s;
		for (k = 0; k < REPEATS; k++)
			r[k] = run_once(opts.callers, seconds, &rc[k]);
		snprintf(metric, sizeof(metric), "cds.%s.%dx%d", names[s], opts.callers,
			opts.callers);
		bench_metric(metric, bench_median(r, REPEATS), "Mpairs/s");
		snprintf(metric, sizeof(metric), "cds.%s.%dx%d.cpu", names[s], opts.callers,
			opts.callers);
		bench_metric(metric, bench_median(rc, REPEATS), "Mpairs/cpu-s");
	}
	if (!opts.mode || !strcmp(opts.mode, "latency"))
		latency();
	urcu_memb_unregister_thread();
	return 0;
}
