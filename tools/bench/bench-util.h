// SPDX-License-Identifier: MIT
/*
 * Helpers shared by the side-by-side benchmarks in tools/bench/: monotonic
 * clock, CPU pinning, sample statistics and the output format.
 *
 * Nothing here depends on an RCU flavor or on which RCU library the
 * benchmark is built against, so the same file is compiled into every
 * binary, ours and liburcu's alike.
 *
 * Output format, one result per line on stdout:
 *
 *	<metric> <value> <unit>
 *
 * e.g. "sync.memb.p50 31.8 us".  A metric that cannot be measured prints
 * "<metric> skip -" instead.  Diagnostics go to stderr.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Logical CPU slots (indices into the CPUs the process may run on). */
#define BENCH_CPU_UPDATER	0
#define BENCH_CPU_READER	1

/* Command-line options common to every benchmark binary. */
struct bench_opts {
	int quick;		/* -q: shorter runs, for smoke tests */
	int callers;		/* -c N: concurrent updaters (bench-sync) */
	long max_samples;	/* -n N: cap on samples (0: the binary's default) */
	double max_seconds;	/* -t S: cap on run time (0: the binary's default) */
	const char *mode;	/* -m MODE: sub-benchmark (bench-callback) */
};

void bench_parse_opts(int argc, char **argv, struct bench_opts *opts);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t bench_now_ns(void);
/* Sleeps until the CLOCK_MONOTONIC instant @deadline (restarts on EINTR). */
void bench_sleep_until_ns(uint64_t deadline);

/*
 * Pins the calling thread to the @slot-th CPU of the set the process was
 * started with (wrapping around if it has fewer CPUs).  Call
 * bench_pin_init() once from main() before starting threads.
 */
void bench_pin_init(void);
void bench_pin(int slot);
/* How many CPUs bench_pin_init() found (at least 1). */
int bench_nr_cpus(void);

/* Sorts @v in place; then percentile (nearest rank) and mean. */
void bench_sort_u64(uint64_t *v, size_t n);
uint64_t bench_percentile_u64(const uint64_t *sorted, size_t n, double pct);
double bench_mean_u64(const uint64_t *v, size_t n);
/* Median of @n doubles (sorts @v in place). */
double bench_median(double *v, size_t n);

/*
 * Run-queue wait of one thread: the second field of
 * /proc/self/task/<tid>/schedstat (ns spent runnable but not running, since
 * the thread started).  bench_schedstat_open() returns a descriptor for
 * bench_run_delay_ns(), or -1 (then the wait reads as 0).
 */
int bench_schedstat_open(int tid);
uint64_t bench_run_delay_ns(int fd);

/* A 64-bit mixer (the finalizer of a well-known 64-bit hash): hash of an integer key. */
static inline unsigned long bench_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (unsigned long) x;
}

/* xorshift64: the next pseudo-random number of the state @s (never 0). */
static inline uint64_t bench_xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Timed worker threads: each calls bench_gate_arrive() once ready (it waits
 * there for the gate to open) and runs until bench_stop is set.
 * bench_gate_reset() before starting them; bench_gate_open(n) waits for n
 * arrivals, then opens (returns the time just before).  bench_run_gated() does it all: starts @n threads
 * on @fn (the i-th gets @args + i * @size), opens the gate, sleeps
 * @seconds, sets bench_stop and joins them; returns the ns from the
 * opening to the last join.
 */
extern volatile int bench_stop;
void bench_gate_reset(void);
void bench_gate_arrive(void);
uint64_t bench_gate_open(int n);
uint64_t bench_run_gated(int n, void *(*fn)(void *), void *args, size_t size, double seconds);

void bench_metric(const char *name, double value, const char *unit);
void bench_skip(const char *name, const char *why);

/* Prints "bench: <message>" to stderr and exits with status 1. */
void bench_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* malloc that dies with a message on failure. */
void *bench_xmalloc(size_t size);

#endif /* BENCH_UTIL_H */
