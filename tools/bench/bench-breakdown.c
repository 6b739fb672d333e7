// SPDX-License-Identifier: MIT
/*
 * Where the time of one grace period goes: the phases of
 * synchronize_rcu() as timed by the library's own URCU_I_PHASE_TRACE hooks
 * (liburcu/src/urcu-phase-trace.h), with one reader (bench-reader.c) looping on short
 * read-side critical sections on the other CPU, as in bench-sync.c.
 *
 * Ours only: it links the bench-only static copy of the flavor library
 * that tools/bench/meson.build compiles with -DURCU_I_PHASE_TRACE
 * (bench-breakdown-<flavor> in the build directory's tools/bench/).
 *
 * -m breakdown (default): back-to-back synchronize_rcu() calls, up to -n
 *   calls or -t seconds (defaults as bench-sync.c: 2000 / 2 s for memb,
 *   mb and qsbr, 200 / 2 s for bp and signal; -q: 500 or 50 / 0.5 s).
 *   Prints, in us unless stated:
 *     bd.<flavor>.<phase>.p50 and .mean   per phase (urcu-phase-trace.h)
 *     bd.signal.sig_send/sig_wait.p50/.mean  signal only: B1's two halves
 *                                         (inside order and scan_arm, not added)
 *     bd.<flavor>.sum_p50                 the sum of the phases' p50s
 *     bd.<flavor>.sum_mean                the sum of their means (= traced.mean)
 *     bd.<flavor>.traced.p50              p50 of the library's BEGIN..END span
 *     bd.<flavor>.sync.p50 and .mean      synchronize_rcu() as the caller times it
 *     bd.<flavor>.outside.p50             caller's time minus the traced span
 *     bd.<flavor>.marks                   clock reads per call (mean, count)
 *     bd.<flavor>.mark_cost               one clock read (ns), measured here
 *     bd.<flavor>.slept                   % of calls that slept on the futex
 *     bd.<flavor>.reader_cpu              % of its life the reader was on a CPU
 *   The p50s of the phases do not add up to the p50 of the whole (the
 *   means do); both are printed so neither is mistaken for the other.
 * -m check: 100 calls, then checks that every call left one record, that
 *   its phases add up to its span, that the span fits inside the time the
 *   caller measured, and that the grace period forced order and flipped
 *   (signal: that both halves of the signal round were timed).
 *   Prints "ok" or one line per problem and exits 1 (the breakdown-smoke
 *   tests of tools/bench/meson.build).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench-flavor.h"
#include "bench-util.h"
#include "urcu-phase-trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARMUP_CALLS	5

/* Runs up to @max calls (or @max_s seconds); returns how many were timed. */
static long timed_calls(uint64_t *lat, long max, double max_s)
{
	uint64_t t_end = 0;
	size_t dropped;
	long i, n = 0;

	for (i = 0; n < max; i++) {
		uint64_t t0, t1;

		rcu_assign_pointer(bench_gp, &bench_objs[i & 1]);
		t0 = bench_now_ns();
		synchronize_rcu();
		t1 = bench_now_ns();
		if (i < WARMUP_CALLS) {
			if (i == WARMUP_CALLS - 1) {
				/* forget the warm-up calls' records */
				(void) urcu_i_pt_take(NULL, 0, &dropped);
				t_end = t1 + (uint64_t) (max_s * 1e9);
			}
			continue;
		}
		lat[n++] = t1 - t0;
		if (t1 >= t_end)
			break;
	}
	return n;
}

static double mark_cost_ns(void)
{
	const int n = 100000;
	uint64_t t0 = urcu_i_pt_now(), t1;
	volatile uint64_t sink = 0;

	for (int i = 0; i < n; i++)
		sink += urcu_i_pt_now();
	t1 = urcu_i_pt_now();
	(void) sink;
	return (double) (t1 - t0) / n;
}

static double pct_us(uint64_t *v, size_t n, double pct)
{
	bench_sort_u64(v, n);
	return (double) bench_percentile_u64(v, n, pct) / 1e3;
}

static void metric(const char *what, double value, const char *unit)
{
	char name[96];

	snprintf(name, sizeof(name), "bd.%s.%s", BENCH_FLAVOR, what);
	bench_metric(name, value, unit);
}

static void breakdown(const struct bench_opts *o)
{
	long max = o->max_samples > 0 ? o->max_samples
		: slow_flavor() ? (o->quick ? 50 : 200) : (o->quick ? 500 : 2000);
	double max_s = o->max_seconds > 0 ? o->max_seconds : (o->quick ? 0.5 : 2.0);
	uint64_t *lat = bench_xmalloc(sizeof(*lat) * (size_t) max);
	struct urcu_i_pt_rec *rec = bench_xmalloc(sizeof(*rec) * (size_t) max);
	uint64_t *v = bench_xmalloc(sizeof(*v) * (size_t) max);
	double share, sum_p50 = 0, sum_mean = 0, marks = 0, slept = 0;
	size_t nrec, dropped, i;
	long n;
	char what[64];

	bench_reader_start();
	n = timed_calls(lat, max, max_s);
	bench_reader_stop(&share);
	nrec = urcu_i_pt_take(rec, (size_t) n, &dropped);
	if (nrec != (size_t) n || dropped)
		bench_die("%ld calls but %zu trace records (%zu dropped): is this the "
			  "URCU_I_PHASE_TRACE build of the library?", n, nrec, dropped);

	for (int p = 0; p < URCU_I_PT_NR; p++) {
		for (i = 0; i < nrec; i++)
			v[i] = rec[i].ns[p];
		snprintf(what, sizeof(what), "%s.mean", urcu_i_pt_names[p]);
		metric(what, bench_mean_u64(v, nrec) / 1e3, "us");
		sum_mean += bench_mean_u64(v, nrec) / 1e3;
		snprintf(what, sizeof(what), "%s.p50", urcu_i_pt_names[p]);
		metric(what, pct_us(v, nrec, 50), "us");
		sum_p50 += pct_us(v, nrec, 50);
	}
#ifdef BENCH_FLAVOR_SIGNAL
	for (int d = 0; d < URCU_I_PT_NR_DETAIL; d++) {
		for (i = 0; i < nrec; i++)
			v[i] = rec[i].detail_ns[d];
		snprintf(what, sizeof(what), "%s.mean", urcu_i_pt_detail_names[d]);
		metric(what, bench_mean_u64(v, nrec) / 1e3, "us");
		snprintf(what, sizeof(what), "%s.p50", urcu_i_pt_detail_names[d]);
		metric(what, pct_us(v, nrec, 50), "us");
	}
#endif
	metric("sum_p50", sum_p50, "us");
	metric("sum_mean", sum_mean, "us");
	for (i = 0; i < nrec; i++) {
		v[i] = rec[i].total_ns;
		marks += rec[i].marks;
		slept += rec[i].ns[URCU_I_PT_SCAN_SLEEP] > 0;
	}
	metric("traced.p50", pct_us(v, nrec, 50), "us");
	for (i = 0; i < nrec; i++)
		v[i] = lat[i] > rec[i].total_ns ? lat[i] - rec[i].total_ns : 0;
	metric("outside.p50", pct_us(v, nrec, 50), "us");
	metric("sync.mean", bench_mean_u64(lat, nrec) / 1e3, "us");
	metric("sync.p50", pct_us(lat, nrec, 50), "us");
	metric("sync.p99", pct_us(lat, nrec, 99), "us");
	metric("samples", (double) nrec, "count");
	metric("marks", marks / (double) nrec, "count");
	metric("mark_cost", mark_cost_ns(), "ns");
	metric("slept", 100.0 * slept / (double) nrec, "%");
	metric("reader_cpu", 100.0 * share, "%");
	free(lat);
	free(rec);
	free(v);
}

static int check(void)
{
	enum { N = 100 };
	static uint64_t lat[N];
	static struct urcu_i_pt_rec rec[N];
	size_t nrec, dropped, i;
	int bad = 0;
	long n;

	bench_reader_start();
	n = timed_calls(lat, N, 30.0);
	bench_reader_stop(NULL);
	nrec = urcu_i_pt_take(rec, N, &dropped);
	if (nrec != (size_t) n || dropped) {
		printf("%ld calls left %zu records (%zu dropped)\n", n, nrec, dropped);
		return 1;
	}
	for (i = 0; i < nrec && bad < 10; i++) {
		uint64_t sum = 0;

		for (int p = 0; p < URCU_I_PT_NR; p++)
			sum += rec[i].ns[p];
		if (sum != rec[i].total_ns) {
			printf("call %zu: phases add up to %llu ns, span %llu ns\n", i,
			       (unsigned long long) sum, (unsigned long long) rec[i].total_ns);
			bad++;
		}
		if (rec[i].total_ns > lat[i]) {
			printf("call %zu: traced span %llu ns longer than the call (%llu ns)\n", i,
			       (unsigned long long) rec[i].total_ns, (unsigned long long) lat[i]);
			bad++;
		}
		/* One caller: it leads every grace period, and a reader is registered. */
		if (rec[i].gps < 1 || rec[i].ns[URCU_I_PT_ORDER] == 0 || rec[i].marks < 8
				|| rec[i].ns[URCU_I_PT_WAIT_LEADER] != 0) {
			printf("call %zu: gps %u, order %llu ns, %u marks, wait_leader %llu ns\n",
			       i, rec[i].gps, (unsigned long long) rec[i].ns[URCU_I_PT_ORDER],
			       rec[i].marks, (unsigned long long) rec[i].ns[URCU_I_PT_WAIT_LEADER]);
			bad++;
		}
#ifdef BENCH_FLAVOR_SIGNAL
		if (rec[i].detail_ns[URCU_I_PT_SIG_SEND] == 0 || rec[i].detail_ns[URCU_I_PT_SIG_WAIT] == 0
				|| rec[i].detail_ns[URCU_I_PT_SIG_SEND] + rec[i].detail_ns[URCU_I_PT_SIG_WAIT]
				   > rec[i].ns[URCU_I_PT_ORDER] + rec[i].ns[URCU_I_PT_SCAN_ARM]) {
			printf("call %zu: signal round send %llu ns, wait %llu ns, order + arm %llu ns\n",
			       i, (unsigned long long) rec[i].detail_ns[URCU_I_PT_SIG_SEND],
			       (unsigned long long) rec[i].detail_ns[URCU_I_PT_SIG_WAIT],
			       (unsigned long long) (rec[i].ns[URCU_I_PT_ORDER]
						     + rec[i].ns[URCU_I_PT_SCAN_ARM]));
			bad++;
		}
#endif
	}
	if (!bad)
		printf("ok: %zu calls, %zu records, phases add up to each span\n", (size_t) n, nrec);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct bench_opts o;

	bench_parse_opts(argc, argv, &o);
	bench_pin_init();
	bench_pin(BENCH_CPU_UPDATER);
	if (o.mode && !strcmp(o.mode, "check"))
		return check();
	if (o.mode && strcmp(o.mode, "breakdown"))
		bench_die("unknown mode %s (breakdown or check)", o.mode);
	breakdown(&o);
	return 0;
}
