// SPDX-License-Identifier: MIT
/*
 * Read-side cost: nanoseconds per
 *
 *	rcu_read_lock(); p = rcu_dereference(gp); use(p); rcu_read_unlock();
 *
 * on one thread pinned to one CPU, with no updater running.  The qsbr
 * build also announces a quiescent state every 1024 sections, as a qsbr
 * application has to.  Built with -D_LGPL_SOURCE the fast paths are
 * inline; without it every primitive is a library call.
 *
 * Method: 7 timed runs of ~0.1 s each (5 of 0.05 s with -q; -t sets the
 * run length), each made of ~2 ms chunks timed with CLOCK_MONOTONIC; a
 * run's value is the median over its chunks, the result the median over
 * the runs.  The machine is shared, so a chunk during which the thread was
 * preempted (its involuntary context-switch count moved) is left out
 * rather than charged to the read side.  The loop overhead itself (an add,
 * a compare, a branch) is included, identically for both libraries.
 *
 * Prints: read.<flavor>.<inline|call> <ns> ns, and
 *         read.<flavor>.<inline|call>.disturbed <percent of chunks left out> %
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench-flavor.h"
#include "bench-util.h"

#include <stdio.h>
#include <sys/resource.h>

#define QS_INTERVAL	1024	/* qsbr: sections between quiescent states */
#define MAX_CHUNKS	1024	/* per run; ~2 ms each */

static volatile long read_sink;

static __attribute__((noinline)) void read_loop(unsigned long iters)
{
	unsigned long i;
	long sum = 0;

	/*
	 * Put the loop at the same place for both libraries: without this,
	 * the function's prologue (a register more or less) moved the qsbr
	 * loop by 8 bytes, and whether its ~34 hot bytes straddled a 64-byte
	 * line decided 0.42 vs 0.55-1.05 ns per section (same instructions,
	 * ours bimodal from run to run).  GCC emits the alignment at the
	 * function's entry, so the loop follows at a fixed offset from a
	 * 64-byte boundary; the padding runs once per call.
	 */
	__asm__ volatile(".p2align 6");
	for (i = 0; i < iters; i++) {
		struct bench_obj *p;

		rcu_read_lock();
		p = rcu_dereference(bench_gp);
		sum += p->value;
		rcu_read_unlock();
		if ((i & (QS_INTERVAL - 1)) == QS_INTERVAL - 1)
			bench_quiescent_state();
	}
	read_sink = sum;
}

static double timed_run(unsigned long iters)
{
	uint64_t t0, t1;

	t0 = bench_now_ns();
	read_loop(iters);
	t1 = bench_now_ns();
	return (double)(t1 - t0);
}

static long involuntary_switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return ru.ru_nivcsw;
}

/*
 * One run: chunks of @chunk_iters until @run_ns has elapsed.  Returns the
 * median ns per iteration over the undisturbed chunks (over all chunks if
 * every one was disturbed) and adds to the chunk counters.  The median
 * rather than the mean also sheds chunks slowed by what the thread cannot
 * see, such as the hypervisor running another guest on this vCPU.
 */
static double one_run(unsigned long chunk_iters, double run_ns, long *chunks, long *disturbed)
{
	double clean[MAX_CHUNKS], all[MAX_CHUNKS], elapsed = 0;
	size_t nclean = 0, nall = 0;

	while (elapsed < run_ns && nall < MAX_CHUNKS) {
		long sw = involuntary_switches();
		double ns = timed_run(chunk_iters);

		elapsed += ns;
		all[nall++] = ns / (double)chunk_iters;
		(*chunks)++;
		if (involuntary_switches() != sw) {
			(*disturbed)++;
			continue;
		}
		clean[nclean++] = ns / (double)chunk_iters;
	}
	if (nclean == 0)
		return bench_median(all, nall);
	return bench_median(clean, nclean);
}

int main(int argc, char **argv)
{
	struct bench_opts opts;
	double run_ns, per_iter[16];
	unsigned long chunk_iters;
	long chunks = 0, disturbed = 0;
	int runs, i;
	char name[80];

	bench_parse_opts(argc, argv, &opts);
	run_ns = (opts.max_seconds > 0 ? opts.max_seconds : opts.quick ? 0.05 : 0.1) * 1e9;
	runs = opts.quick ? 5 : 7;

	bench_pin_init();
	bench_pin(BENCH_CPU_READER);
	rcu_register_thread();

	/* calibrate ~2 ms chunks: grow the count until one takes >= 1 ms */
	chunk_iters = 1UL << 12;
	for (;;) {
		double ns = timed_run(chunk_iters);

		if (ns >= 1e6) {
			chunk_iters = (unsigned long)((double)chunk_iters * 2e6 / ns) + 1;
			break;
		}
		chunk_iters *= 2;
	}

	for (i = 0; i < runs; i++)
		per_iter[i] = one_run(chunk_iters, run_ns, &chunks, &disturbed);

	rcu_unregister_thread();

	snprintf(name, sizeof(name), "read.%s.%s", BENCH_FLAVOR, BENCH_LINKAGE);
	bench_metric(name, bench_median(per_iter, (size_t)runs), "ns");
	snprintf(name, sizeof(name), "read.%s.%s.disturbed", BENCH_FLAVOR, BENCH_LINKAGE);
	bench_metric(name, 100.0 * (double)disturbed / (double)chunks, "%");
	return 0;
}
