// SPDX-License-Identifier: MIT
/*
 * call_rcu benchmarks, with one reader (bench-reader.c) spinning on the
 * reader CPU and the enqueuing thread, registered, on the updater CPU.
 * The callback workers are the library's default ones, unpinned.
 *
 * -m latency: one call_rcu() every 0.3 ms (absolute-deadline sleeps) for
 *   about 2 s (0.5 s with -q); each callback records the time from its
 *   call_rcu() to its invocation.  The first 20 callbacks are warm-up.
 *   Prints cblat.<flavor>.{p50,p99,mean} in us.
 *   Also, to tell the library's latency from the machine's: for each
 *   callback, how long the reader and the callback worker waited on a run
 *   queue (runnable, not running: schedstat's run_delay) between its
 *   call_rcu() and its invocation.  A callback during whose wait either
 *   waited more than DISTURBED_NS is "disturbed": a reader preempted inside
 *   its critical section holds the grace period until it runs again, and a
 *   worker waiting for a CPU cannot start or finish the grace period.
 *   Prints cblat.<flavor>.disturbed (% of callbacks), .p99_undisturbed and
 *   .p99_disturbed (us; skip when there is none), and .rq_wait.p99 (us, the
 *   reader's plus the worker's wait per callback).
 *
 * -m throughput: call_rcu() of freshly malloc'ed objects whose callback
 *   frees them, back to back for 2 s (0.5 s with -q), then rcu_barrier().
 *   The backlog (queued - invoked) is sampled every 64 enqueues; should it
 *   exceed 4M objects the enqueuer waits for it to drain (reported as
 *   cbtput.<flavor>.stalls) so a worker that falls behind cannot exhaust
 *   memory.  Prints cbtput.<flavor>.rate (callbacks invoked per second,
 *   counting until rcu_barrier returns), .enqueue_rate, .max_backlog,
 *   .stalls.
 *   -c N (N > 1): N enqueuer threads, all on the updater CPU, each doing
 *   the above until the same deadline; prints the same figures summed over
 *   them as cbtput<N>.<flavor>.*.
 *
 * Built with -DBENCH_PEER_CK (bench-ck.h): ck_epoch_call() instead of
 *   call_rcu(), ck_epoch_poll() after every batch of 64 enqueues (there,
 *   in the enqueuing thread, is where ck's callbacks run), each enqueuer's
 *   own ck_epoch_barrier() at its end.  No latency mode: a ck callback
 *   runs when its thread next polls, not when its grace period ends.
 *
 * Both print <prefix>.reader_cpu, the percentage of its lifetime the
 * reader spent on a CPU.
 *
 * Exits 1 if a callback is lost or runs twice (counts do not match after
 * rcu_barrier).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench-flavor.h"
#include "bench-util.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LAT_INTERVAL_NS		300000
#define LAT_WARMUP		20
#define TPUT_SAMPLE_EVERY	64
#define TPUT_BACKLOG_CAP	(4L << 20)
#define DISTURBED_NS		50000

struct lat_node {
	struct rcu_head head;
	uint64_t queued_ns;
	uint64_t reader_wait0, worker_wait0;	/* run_delay at call_rcu() */
	long idx;
};

static uint64_t *lat_samples;
static uint64_t *lat_rq_wait;		/* reader + worker run-queue wait per callback */
static unsigned long cb_invoked;
static int reader_fd = -1;
/* The worker's schedstat; opened by its first callback (set once, then read-only). */
static int worker_fd = -1;

static void lat_cb(struct rcu_head *head)
{
	struct lat_node *node = caa_container_of(head, struct lat_node, head);
	uint64_t wait;

	lat_samples[node->idx] = bench_now_ns() - node->queued_ns;
	if (CMM_LOAD_SHARED(worker_fd) < 0)
		CMM_STORE_SHARED(worker_fd, bench_schedstat_open((int) syscall(SYS_gettid)));
	wait = bench_run_delay_ns(reader_fd) - node->reader_wait0;
	/* a node queued before the worker's descriptor existed has no start value */
	if (node->worker_wait0 != UINT64_MAX)
		wait += bench_run_delay_ns(CMM_LOAD_SHARED(worker_fd)) - node->worker_wait0;
	lat_rq_wait[node->idx] = wait;
	free(node);
	/* pairs with the uatomic_read() after rcu_barrier() in latency_run() */
	uatomic_inc(&cb_invoked);
}

/* p99 of the latencies whose run-queue wait is (not) above DISTURBED_NS. */
static void lat_split(long first, long n, int disturbed, const char *suffix)
{
	uint64_t *v = bench_xmalloc(sizeof(*v) * (size_t) n);
	char name[64];
	size_t k = 0;

	for (long i = first; i < n; i++)
		if ((lat_rq_wait[i] > DISTURBED_NS) == disturbed)
			v[k++] = lat_samples[i];
	snprintf(name, sizeof(name), "cblat.%s.%s", BENCH_FLAVOR, suffix);
	if (k) {
		bench_sort_u64(v, k);
		bench_metric(name, (double) bench_percentile_u64(v, k, 99) / 1e3, "us");
	} else {
		printf("%s skip -\n", name);
	}
	free(v);
}

static void latency_run(const struct bench_opts *opts)
{
	double secs = opts->max_seconds > 0 ? opts->max_seconds : opts->quick ? 0.5 : 2.0;
	long n = (long)(secs * 1e9 / LAT_INTERVAL_NS) + LAT_WARMUP, i;
	uint64_t next;
	char name[64];

	if (opts->max_samples > 0 && opts->max_samples + LAT_WARMUP < n)
		n = opts->max_samples + LAT_WARMUP;
	lat_samples = bench_xmalloc(sizeof(*lat_samples) * (size_t)n);
	lat_rq_wait = bench_xmalloc(sizeof(*lat_rq_wait) * (size_t)n);
	reader_fd = bench_schedstat_open(bench_reader_tid());

	next = bench_now_ns();
	for (i = 0; i < n; i++) {
		struct lat_node *node = bench_xmalloc(sizeof(*node));
		int wfd = CMM_LOAD_SHARED(worker_fd);

		node->idx = i;
		node->reader_wait0 = bench_run_delay_ns(reader_fd);
		node->worker_wait0 = wfd >= 0 ? bench_run_delay_ns(wfd) : UINT64_MAX;
		node->queued_ns = bench_now_ns();
		call_rcu(&node->head, lat_cb);
		next += LAT_INTERVAL_NS;
		bench_sleep_until_ns(next);
	}
	rcu_barrier();
	if ((long)uatomic_read(&cb_invoked) != n)
		bench_die("latency: %lu callbacks invoked, %ld queued", uatomic_read(&cb_invoked), n);

	/* the run-queue split first: it needs latency and wait still paired */
	{
		long disturbed = 0;

		for (i = LAT_WARMUP; i < n; i++)
			disturbed += lat_rq_wait[i] > DISTURBED_NS;
		snprintf(name, sizeof(name), "cblat.%s.disturbed", BENCH_FLAVOR);
		bench_metric(name, 100.0 * (double) disturbed / (double) (n - LAT_WARMUP), "%");
		lat_split(LAT_WARMUP, n, 0, "p99_undisturbed");
		lat_split(LAT_WARMUP, n, 1, "p99_disturbed");
		bench_sort_u64(lat_rq_wait + LAT_WARMUP, (size_t)(n - LAT_WARMUP));
		snprintf(name, sizeof(name), "cblat.%s.rq_wait.p99", BENCH_FLAVOR);
		bench_metric(name, (double)bench_percentile_u64(lat_rq_wait + LAT_WARMUP,
				(size_t)(n - LAT_WARMUP), 99) / 1e3, "us");
	}
	bench_sort_u64(lat_samples + LAT_WARMUP, (size_t)(n - LAT_WARMUP));
	snprintf(name, sizeof(name), "cblat.%s.p50", BENCH_FLAVOR);
	bench_metric(name, (double)bench_percentile_u64(lat_samples + LAT_WARMUP,
			(size_t)(n - LAT_WARMUP), 50) / 1e3, "us");
	snprintf(name, sizeof(name), "cblat.%s.p99", BENCH_FLAVOR);
	bench_metric(name, (double)bench_percentile_u64(lat_samples + LAT_WARMUP,
			(size_t)(n - LAT_WARMUP), 99) / 1e3, "us");
	snprintf(name, sizeof(name), "cblat.%s.mean", BENCH_FLAVOR);
	bench_metric(name, bench_mean_u64(lat_samples + LAT_WARMUP,
			(size_t)(n - LAT_WARMUP)) / 1e3, "us");
	free(lat_samples);
	free(lat_rq_wait);
	if (reader_fd >= 0)
		close(reader_fd);
}

static void free_cb(struct rcu_head *head)
{
	free(head);
	/* pairs with the uatomic_read() calls in enqueue_until() and throughput_run() */
	uatomic_inc(&cb_invoked);
}

static unsigned long cb_queued;		/* all enqueuers, updated every batch */
static unsigned long tput_stalls;
static long tput_max_backlog;

/*
 * One enqueuer: call_rcu() of fresh objects in batches of TPUT_SAMPLE_EVERY
 * until @deadline, bench_defer_poll() after each batch (ck: the callbacks
 * run there, in this thread), then this thread's barrier (ck: its own
 * callbacks; RCU: all, again by rcu_barrier() in the caller).
 */
static void enqueue_until(uint64_t deadline)
{
	long backlog;

	for (;;) {
		for (int j = 0; j < TPUT_SAMPLE_EVERY; j++) {
			struct rcu_head *head = bench_xmalloc(sizeof(*head));

			call_rcu(head, free_cb);
		}
		bench_defer_poll();
		uatomic_add(&cb_queued, TPUT_SAMPLE_EVERY);
		backlog = (long)(uatomic_read(&cb_queued) - uatomic_read(&cb_invoked));
		if (backlog > CMM_LOAD_SHARED(tput_max_backlog))
			CMM_STORE_SHARED(tput_max_backlog, backlog);
		if (backlog > TPUT_BACKLOG_CAP) {
			uatomic_inc(&tput_stalls);
			while ((long)(uatomic_read(&cb_queued) - uatomic_read(&cb_invoked))
			       > TPUT_BACKLOG_CAP / 2) {
				bench_defer_poll();
				sched_yield();
			}
		}
		if (bench_now_ns() >= deadline)
			break;
	}
}

static void *enqueuer_main(void *arg)
{
	uint64_t deadline = *(const uint64_t *)arg;

	bench_pin(BENCH_CPU_UPDATER);
	rcu_register_thread();
	enqueue_until(deadline);
	bench_defer_flush();
	rcu_unregister_thread();
	return NULL;
}

/* -c N > 1: N enqueuer threads on the updater CPU. */
static void run_enqueuers(int n, uint64_t deadline)
{
	pthread_t *tids = bench_xmalloc(sizeof(*tids) * (size_t)n);
	int i, err;

	for (i = 0; i < n; i++) {
		err = pthread_create(&tids[i], NULL, enqueuer_main, &deadline);
		if (err)
			bench_die("pthread_create (enqueuer): error %d", err);
	}
	for (i = 0; i < n; i++) {
		err = pthread_join(tids[i], NULL);
		if (err)
			bench_die("pthread_join (enqueuer): error %d", err);
	}
	free(tids);
}

/* Metric <prefix>.<flavor>.<suffix>, <prefix> "cbtput" or "cbtput<N>". */
static void tput_metric(int callers, const char *suffix, double value, const char *unit)
{
	char name[64];

	if (callers == 1)
		snprintf(name, sizeof(name), "cbtput.%s.%s", BENCH_FLAVOR, suffix);
	else
		snprintf(name, sizeof(name), "cbtput%d.%s.%s", callers, BENCH_FLAVOR, suffix);
	bench_metric(name, value, unit);
}

static void throughput_run(const struct bench_opts *opts)
{
	double secs = opts->max_seconds > 0 ? opts->max_seconds : opts->quick ? 0.5 : 2.0;
	uint64_t t0, t_enq, t_done, deadline;
	unsigned long queued;

	t0 = bench_now_ns();
	deadline = t0 + (uint64_t)(secs * 1e9);
	if (opts->callers == 1)
		enqueue_until(deadline);
	else
		run_enqueuers(opts->callers, deadline);
	t_enq = bench_now_ns();
	rcu_barrier();
	t_done = bench_now_ns();
	queued = uatomic_read(&cb_queued);
	if (uatomic_read(&cb_invoked) != queued)
		bench_die("throughput: %lu callbacks invoked, %lu queued",
			  uatomic_read(&cb_invoked), queued);

	tput_metric(opts->callers, "rate", (double)queued / ((double)(t_done - t0) / 1e9), "cb/s");
	tput_metric(opts->callers, "enqueue_rate", (double)queued / ((double)(t_enq - t0) / 1e9),
		    "cb/s");
	tput_metric(opts->callers, "max_backlog", (double)tput_max_backlog, "cbs");
	tput_metric(opts->callers, "stalls", (double)tput_stalls, "count");
}

int main(int argc, char **argv)
{
	struct bench_opts opts;
	double share;
	int latency;
	char name[64];

	bench_parse_opts(argc, argv, &opts);
	if (!opts.mode || (strcmp(opts.mode, "latency") && strcmp(opts.mode, "throughput")))
		bench_die("bench-callback needs -m latency or -m throughput");
	latency = !strcmp(opts.mode, "latency");
#ifdef BENCH_PEER_CK
	if (latency)
		bench_die("ck: no callback latency: callbacks run only when their thread polls");
#endif

	bench_pin_init();
	bench_pin(BENCH_CPU_UPDATER);
	rcu_register_thread();
	bench_reader_start();
	if (latency)
		latency_run(&opts);
	else
		throughput_run(&opts);
	bench_reader_stop(&share);
	if (latency || opts.callers == 1)
		snprintf(name, sizeof(name), "%s.%s.reader_cpu", latency ? "cblat" : "cbtput",
			 BENCH_FLAVOR);
	else
		snprintf(name, sizeof(name), "cbtput%d.%s.reader_cpu", opts.callers, BENCH_FLAVOR);
	bench_metric(name, 100.0 * share, "%");
	rcu_unregister_thread();
	return 0;
}
