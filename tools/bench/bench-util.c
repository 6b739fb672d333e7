// SPDX-License-Identifier: MIT
/*
 * Flavor-independent helpers of the side-by-side benchmarks; see
 * bench-util.h for the output format.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench-util.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* CPUs the process was allowed to run on at start, in ascending order. */
static int allowed_cpus[CPU_SETSIZE];
static int nr_allowed_cpus;

void bench_die(const char *fmt, ...)
{
	va_list ap;

	fputs("bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *bench_xmalloc(size_t size)
{
	void *p = malloc(size);

	if (!p)
		bench_die("out of memory allocating %zu bytes", size);
	return p;
}

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [-q] [-c callers] [-n max-samples] [-t max-seconds] [-m mode]\n",
		argv0);
	exit(2);
}

void bench_parse_opts(int argc, char **argv, struct bench_opts *opts)
{
	int c;

	memset(opts, 0, sizeof(*opts));
	opts->callers = 1;
	while ((c = getopt(argc, argv, "qc:n:t:m:")) != -1) {
		switch (c) {
		case 'q':
			opts->quick = 1;
			break;
		case 'c':
			opts->callers = atoi(optarg);
			if (opts->callers < 1)
				usage(argv[0]);
			break;
		case 'n':
			opts->max_samples = atol(optarg);
			break;
		case 't':
			opts->max_seconds = atof(optarg);
			break;
		case 'm':
			opts->mode = optarg;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind != argc)
		usage(argv[0]);
}

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void bench_sleep_until_ns(uint64_t deadline)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline / 1000000000u),
		.tv_nsec = (long)(deadline % 1000000000u),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

void bench_pin_init(void)
{
	cpu_set_t set;
	int cpu;

	nr_allowed_cpus = 0;
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &set))
				allowed_cpus[nr_allowed_cpus++] = cpu;
	}
	if (nr_allowed_cpus < 2)
		fprintf(stderr, "bench: warning: only %d CPU available, reader and updater share it\n",
			nr_allowed_cpus);
}

int bench_nr_cpus(void)
{
	return nr_allowed_cpus > 0 ? nr_allowed_cpus : 1;
}

void bench_pin(int slot)
{
	cpu_set_t set;
	int err;

	if (nr_allowed_cpus == 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(allowed_cpus[slot % nr_allowed_cpus], &set);
	err = sched_setaffinity(0, sizeof(set), &set);
	if (err)
		fprintf(stderr, "bench: warning: sched_setaffinity: %s\n", strerror(errno));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void bench_sort_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
}

uint64_t bench_percentile_u64(const uint64_t *sorted, size_t n, double pct)
{
	size_t rank;

	if (n == 0)
		return 0;
	/* nearest rank: the smallest sample with at least pct% at or below it */
	rank = (size_t)((pct / 100.0) * (double)n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

double bench_mean_u64(const uint64_t *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += (double)v[i];
	return n ? sum / (double)n : 0;
}

double bench_median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int bench_schedstat_open(int tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	return open(path, O_RDONLY | O_CLOEXEC);
}

uint64_t bench_run_delay_ns(int fd)
{
	char buf[96];
	unsigned long long run, wait;
	ssize_t n;

	if (fd < 0)
		return 0;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return 0;
	return wait;
}

void bench_metric(const char *name, double value, const char *unit)
{
	printf("%s %.6g %s\n", name, value, unit);
	fflush(stdout);
}

void bench_skip(const char *name, const char *why)
{
	printf("%s skip -\n", name);
	fprintf(stderr, "bench: %s skipped: %s\n", name, why);
	fflush(stdout);
}

volatile int bench_stop;
static int gate;	/* arrivals; negative once open */

void bench_gate_reset(void)
{
	bench_stop = 0;
	__atomic_store_n(&gate, 0, __ATOMIC_SEQ_CST);
}

void bench_gate_arrive(void)
{
	__atomic_add_fetch(&gate, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&gate, __ATOMIC_SEQ_CST) > 0)
		sched_yield();
}

uint64_t bench_gate_open(int n)
{
	uint64_t t0;

	while (__atomic_load_n(&gate, __ATOMIC_SEQ_CST) < n)
		sched_yield();
	t0 = bench_now_ns();
	__atomic_store_n(&gate, -1000000, __ATOMIC_SEQ_CST);
	return t0;
}

uint64_t bench_run_gated(int n, void *(*fn)(void *), void *args, size_t size, double seconds)
{
	pthread_t *tids = bench_xmalloc(sizeof(*tids) * (size_t) n);
	uint64_t t0;

	bench_gate_reset();
	for (int i = 0; i < n; i++)
		if (pthread_create(&tids[i], NULL, fn, (char *) args + (size_t) i * size))
			bench_die("pthread_create failed");
	t0 = bench_gate_open(n);
	bench_sleep_until_ns(t0 + (uint64_t) (seconds * 1e9));
	bench_stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	return bench_now_ns() - t0;
}
