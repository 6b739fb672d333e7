// SPDX-License-Identifier: MIT
/*
 * The background reader of the update-side benchmarks: one thread pinned
 * to the reader CPU, spinning on short read-side critical sections, so
 * that every grace period has a live reader to wait for.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench-flavor.h"
#include "bench-util.h"

#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct bench_obj bench_objs[2] = { { .value = 1 }, { .value = 2 } };
struct bench_obj *bench_gp = &bench_objs[0];

static pthread_t reader_tid;
/*
 * Plain flags: they only steer the loop.  The ordering that matters for
 * the measurement (the reader being registered before the first grace
 * period is timed) comes from rcu_register_thread() taking the registry
 * lock that synchronize_rcu() also takes.
 */
static int reader_ready;
static int reader_stop;
static unsigned long reader_sections;
static double reader_cpu_share;
static volatile long reader_sink;
static int reader_linux_tid;

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *reader_main(void *arg)
{
	unsigned long sections = 0;
	uint64_t wall0, cpu0;
	long sum = 0;

	(void)arg;
	bench_pin(BENCH_CPU_READER);
	reader_linux_tid = (int) syscall(SYS_gettid);
	rcu_register_thread();
	wall0 = bench_now_ns();
	cpu0 = thread_cpu_ns();
	CMM_STORE_SHARED(reader_ready, 1);
	while (!CMM_LOAD_SHARED(reader_stop)) {
		struct bench_obj *p;

		rcu_read_lock();
		p = rcu_dereference(bench_gp);
		sum += CMM_LOAD_SHARED(p->value);
		rcu_read_unlock();
		bench_quiescent_state();
		sections++;
	}
	reader_cpu_share = (double)(thread_cpu_ns() - cpu0) / (double)(bench_now_ns() - wall0);
	rcu_unregister_thread();
	reader_sink = sum;
	reader_sections = sections;
	return NULL;
}

void bench_reader_start(void)
{
	int err;

	CMM_STORE_SHARED(reader_ready, 0);
	CMM_STORE_SHARED(reader_stop, 0);
	err = pthread_create(&reader_tid, NULL, reader_main, NULL);
	if (err)
		bench_die("pthread_create (reader): error %d", err);
	while (!CMM_LOAD_SHARED(reader_ready))
		sched_yield();
}

int bench_reader_tid(void)
{
	/* written before reader_ready, which bench_reader_start() waited for */
	return reader_linux_tid;
}

unsigned long bench_reader_stop(double *cpu_share)
{
	int err;

	CMM_STORE_SHARED(reader_stop, 1);
	err = pthread_join(reader_tid, NULL);
	if (err)
		bench_die("pthread_join (reader): error %d", err);
	if (cpu_share)
		*cpu_share = reader_cpu_share;
	return reader_sections;
}

#define WARMUP_GPS	5

/*
 * memb and bp: between two grace periods, also time one bare
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) while the reader spins on
 * the other CPU: the hardware floor of a grace period, measured in the same
 * process and interleaved with the grace periods, so that the ratio of the
 * two p50s does not swing with the cost of an IPI from one process (or
 * minute) to the next.  Prints <prefix>.floor (us) and <prefix>.over_floor.
 */
#if defined(BENCH_FLAVOR_MEMB) || defined(BENCH_FLAVOR_BP)
#define BENCH_SYNC_FLOOR 1
#endif

void bench_sync_latency(const char *prefix, long max_gps, double max_s)
{
	uint64_t *lat = bench_xmalloc(sizeof(*lat) * (size_t)max_gps), t_end = 0;
	uint64_t *flo = bench_xmalloc(sizeof(*flo) * (size_t)max_gps);
	long i, n = 0;
	char name[96];
	int floor_ok = 0;

#ifdef BENCH_SYNC_FLOOR
	/* both libraries register the process at init; registering again is harmless */
	floor_ok = syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#endif
	for (i = 0; n < max_gps; i++) {
		uint64_t t0, t1, t2 = 0;

		rcu_assign_pointer(bench_gp, &bench_objs[i & 1]);
		t0 = bench_now_ns();
		synchronize_rcu();
		t1 = bench_now_ns();
		if (floor_ok) {
			if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))
				bench_die("membarrier failed");
			t2 = bench_now_ns();
		}
		if (i == WARMUP_GPS)
			t_end = t0 + (uint64_t)(max_s * 1e9);
		if (i < WARMUP_GPS)
			continue;
		flo[n] = t2 - t1;
		lat[n++] = t1 - t0;
		if (t1 >= t_end)
			break;
	}

	bench_sort_u64(lat, (size_t)n);
	snprintf(name, sizeof(name), "%s.p50", prefix);
	bench_metric(name, (double)bench_percentile_u64(lat, (size_t)n, 50) / 1e3, "us");
	snprintf(name, sizeof(name), "%s.mean", prefix);
	bench_metric(name, bench_mean_u64(lat, (size_t)n) / 1e3, "us");
	snprintf(name, sizeof(name), "%s.p99", prefix);
	bench_metric(name, (double)bench_percentile_u64(lat, (size_t)n, 99) / 1e3, "us");
	snprintf(name, sizeof(name), "%s.samples", prefix);
	bench_metric(name, (double)n, "gps");
	if (floor_ok) {
		double f;

		bench_sort_u64(flo, (size_t)n);
		f = (double)bench_percentile_u64(flo, (size_t)n, 50);
		snprintf(name, sizeof(name), "%s.floor", prefix);
		bench_metric(name, f / 1e3, "us");
		snprintf(name, sizeof(name), "%s.over_floor", prefix);
		bench_metric(name, (double)bench_percentile_u64(lat, (size_t)n, 50) / f, "x");
	}
	free(lat);
	free(flo);
}
