// SPDX-License-Identifier: MIT
/*
 * Update-side cost with one reader (bench-reader.c) spinning on short
 * read-side critical sections on the reader CPU.
 *
 * -c 1 (default): synchronize_rcu() latency.  One updater on the updater
 *   CPU publishes a new pointer and times synchronize_rcu(), back to back,
 *   up to -n grace periods or -t seconds (defaults: 2000 / 2 s for memb,
 *   mb and qsbr; 200 / 2 s for bp and signal, whose liburcu grace periods
 *   take milliseconds).  The first few grace periods are warm-up and not
 *   counted.
 *   Prints sync.<flavor>.{p50,mean,p99} in us and sync.<flavor>.samples.
 *
 * -c N (N > 1): N updater threads, all on the updater CPU, each calling
 *   synchronize_rcu() in a loop for -t seconds (default 2 s).  Grace
 *   periods that complete before the deadline are counted.
 *   Prints sync<N>.<flavor>.gps (sum over callers, per second) and
 *   sync<N>.<flavor>.mean (per-call latency, us).
 *
 * Both also print <prefix>.reader_cpu: the percentage of its lifetime the
 * reader spent on a CPU (bench_reader_stop()).
 *
 * -m unregistered: no reader at all.  The main thread, never registered
 *   with the flavor, calls synchronize_rcu() back to back for -t seconds
 *   (default 1 s, -q 0.3 s).  Prints sync.<flavor>.unreg_call: the mean
 *   time of one call, in ns.
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

static void latency_run(const struct bench_opts *opts)
{
	long max_gps = opts->max_samples;
	double max_s = opts->max_seconds;
	char prefix[64];

	if (max_gps <= 0)
		max_gps = slow_flavor() ? (opts->quick ? 50 : 200) : (opts->quick ? 500 : 2000);
	if (max_s <= 0)
		max_s = opts->quick ? 0.5 : 2.0;
	snprintf(prefix, sizeof(prefix), "sync.%s", BENCH_FLAVOR);
	bench_sync_latency(prefix, max_gps, max_s);
}

struct caller {
	pthread_t tid;
	pthread_barrier_t *start;
	uint64_t deadline;	/* written by main before the start barrier */
	unsigned long gps;	/* grace periods completed before the deadline */
	uint64_t busy_ns;	/* time spent in those */
};

static void *caller_main(void *arg)
{
	struct caller *c = arg;
	unsigned long i = 0;

	bench_pin(BENCH_CPU_UPDATER);
	/* the barrier orders main's write of c->deadline before our reads */
	pthread_barrier_wait(c->start);
	for (;;) {
		uint64_t t0 = bench_now_ns(), t1;

		if (t0 >= c->deadline)
			break;
		rcu_assign_pointer(bench_gp, &bench_objs[i++ & 1]);
		synchronize_rcu();
		t1 = bench_now_ns();
		if (t1 <= c->deadline) {
			c->gps++;
			c->busy_ns += t1 - t0;
		}
	}
	return NULL;
}

static void concurrent_run(const struct bench_opts *opts)
{
	int n = opts->callers, i, err;
	double secs = opts->max_seconds > 0 ? opts->max_seconds : opts->quick ? 0.5 : 2.0;
	struct caller *callers = calloc((size_t)n, sizeof(*callers));
	pthread_barrier_t start;
	unsigned long total = 0;
	uint64_t busy = 0, deadline;
	char name[64];

	if (!callers)
		bench_die("out of memory");
	pthread_barrier_init(&start, NULL, (unsigned)n + 1);
	for (i = 0; i < n; i++) {
		callers[i].start = &start;
		err = pthread_create(&callers[i].tid, NULL, caller_main, &callers[i]);
		if (err)
			bench_die("pthread_create (caller): error %d", err);
	}
	/* one warm-up grace period, outside the timed window */
	synchronize_rcu();
	deadline = bench_now_ns() + (uint64_t)(secs * 1e9);
	for (i = 0; i < n; i++)
		callers[i].deadline = deadline;
	pthread_barrier_wait(&start);
	for (i = 0; i < n; i++) {
		err = pthread_join(callers[i].tid, NULL);
		if (err)
			bench_die("pthread_join (caller): error %d", err);
		total += callers[i].gps;
		busy += callers[i].busy_ns;
	}
	pthread_barrier_destroy(&start);

	snprintf(name, sizeof(name), "sync%d.%s.gps", n, BENCH_FLAVOR);
	bench_metric(name, (double)total / secs, "gp/s");
	snprintf(name, sizeof(name), "sync%d.%s.mean", n, BENCH_FLAVOR);
	bench_metric(name, total ? (double)busy / (double)total / 1e3 : 0, "us");
	free(callers);
}

/* -m unregistered: see the top; the clock is read every 8 calls. */
static void unregistered_run(const struct bench_opts *opts)
{
	double secs = opts->max_seconds > 0 ? opts->max_seconds : opts->quick ? 0.3 : 1.0;
	unsigned long calls = 0;
	uint64_t t0, t1, deadline;
	char name[64];

	synchronize_rcu();	/* warm-up */
	t0 = bench_now_ns();
	deadline = t0 + (uint64_t)(secs * 1e9);
	do {
		for (int i = 0; i < 8; i++)
			synchronize_rcu();
		calls += 8;
		t1 = bench_now_ns();
	} while (t1 < deadline);
	snprintf(name, sizeof(name), "sync.%s.unreg_call", BENCH_FLAVOR);
	bench_metric(name, (double)(t1 - t0) / (double)calls, "ns");
}

int main(int argc, char **argv)
{
	struct bench_opts opts;
	double share;
	char name[64];

	bench_parse_opts(argc, argv, &opts);
	bench_pin_init();
	bench_pin(BENCH_CPU_UPDATER);
	if (opts.mode && !strcmp(opts.mode, "unregistered")) {
		unregistered_run(&opts);
		return 0;
	}
	if (opts.mode)
		bench_die("unknown mode %s (known: unregistered)", opts.mode);
	bench_reader_start();
	if (opts.callers == 1)
		latency_run(&opts);
	else
		concurrent_run(&opts);
	bench_reader_stop(&share);
	if (opts.callers == 1)
		snprintf(name, sizeof(name), "sync.%s.reader_cpu", BENCH_FLAVOR);
	else
		snprintf(name, sizeof(name), "sync%d.%s.reader_cpu", opts.callers, BENCH_FLAVOR);
	bench_metric(name, 100.0 * share, "%");
	return 0;
}
