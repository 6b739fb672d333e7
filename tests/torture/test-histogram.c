// SPDX-License-Identifier: MIT
/*
 * urcutorture's latency histograms (tools/urcutorture/histogram.c), alone:
 *  - bucket layout: every value lies in the bucket ut_hist_index gives it,
 *    buckets tile the range without gaps, and each is at most 1/32 of its
 *    lower bound wide;
 *  - merge: the merge of two histograms is exactly the histogram of the
 *    merged samples (every bucket, count, sum, min, max);
 *  - percentiles: for many q, the bucket ut_hist_quantile_range reports
 *    holds the exact quantile of the sorted samples (rank ceil(q * n)), and
 *    the returned value is within the bucket's width of it.
 * Samples come from a fixed-seed generator spread over many decades.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"
#include "tap.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Log-uniform-ish latencies from 0 to about 2^41 ns, with clusters. */
static uint64_t sample(void)
{
	unsigned int bits = (unsigned int)(rng() % 42);
	uint64_t v = bits ? rng() >> (64 - bits) : 0;

	if (rng() % 4 == 0)
		v = 1000 + rng() % 50;	/* a cluster: many equal-ish values */
	return v;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void check_layout(void)
{
	uint64_t prev_hi = 0;
	int bad_tile = 0, bad_width = 0, bad_index = 0;

	for (unsigned int i = 0; i < UT_HIST_BUCKETS; i++) {
		uint64_t lo, hi;

		ut_hist_bounds(i, &lo, &hi);
		if (lo != prev_hi)
			bad_tile++;
		if (i + 1 < UT_HIST_BUCKETS && lo >= UT_HIST_SUB && (hi - lo) * UT_HIST_SUB > lo)
			bad_width++;
		if (ut_hist_index(lo) != i || (i + 1 < UT_HIST_BUCKETS && ut_hist_index(hi - 1) != i))
			bad_index++;
		prev_hi = hi;
	}
	tap_ok(bad_tile == 0, "buckets tile [0, 2^64) without gap or overlap (%d bad)", bad_tile);
	tap_ok(prev_hi == UINT64_MAX, "the last bucket takes every larger value");
	tap_ok(bad_width == 0, "every bucket above 32 is at most 1/32 of its lower bound wide (%d bad)",
	       bad_width);
	tap_ok(bad_index == 0, "ut_hist_index puts a bucket's first and last values in it (%d bad)",
	       bad_index);
	tap_ok(ut_hist_index(UINT64_MAX) == UT_HIST_BUCKETS - 1 && ut_hist_index(0) == 0 &&
	       ut_hist_index(31) == 31 && ut_hist_index(32) == 32,
	       "index of 0, 31, 32 and of UINT64_MAX");
	tap_ok(sizeof(struct ut_hist) <= 10 * 1024, "a histogram is a few KiB (%zu bytes)",
	       sizeof(struct ut_hist));
}

static int same_hist(const struct ut_hist *a, const struct ut_hist *b)
{
	return a->count == b->count && a->sum == b->sum && a->min == b->min && a->max == b->max &&
	       !memcmp(a->bucket, b->bucket, sizeof(a->bucket));
}

int main(void)
{
	enum { NA = 30000, NB = 20000, N = NA + NB };
	static const double qs[] = { 0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99,
				     0.999, 0.9999, 1 };
	uint64_t *all = malloc(N * sizeof(*all));
	struct ut_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct ut_hist *merged = malloc(sizeof(*merged)), *direct = malloc(sizeof(*direct));
	struct ut_hist *empty = malloc(sizeof(*empty));

	if (!all || !a || !b || !merged || !direct || !empty)
		tap_bail("out of memory");
	check_layout();

	ut_hist_init(a);
	ut_hist_init(b);
	ut_hist_init(direct);
	ut_hist_init(empty);
	for (int i = 0; i < N; i++) {
		all[i] = sample();
		ut_hist_add(i < NA ? a : b, all[i]);
		ut_hist_add(direct, all[i]);
	}
	ut_hist_init(merged);
	ut_hist_merge(merged, a);
	ut_hist_merge(merged, b);
	tap_ok(same_hist(merged, direct), "merge(a, b) == histogram of a's and b's samples");
	ut_hist_merge(merged, empty);
	tap_ok(same_hist(merged, direct), "merging an empty histogram changes nothing");
	ut_hist_init(merged);
	ut_hist_merge(merged, b);
	ut_hist_merge(merged, a);
	tap_ok(same_hist(merged, direct), "merge order does not matter");

	qsort(all, N, sizeof(*all), cmp_u64);
	tap_ok(direct->min == all[0] && direct->max == all[N - 1], "min and max are exact");
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		double q = qs[k];
		/* The sample of rank ceil(q * N), 1-based: the definition of the quantile. */
		uint64_t rank = q <= 0 ? 1 : (uint64_t)ceil(q * N);
		uint64_t exact, lo, hi, est;

		exact = all[rank - 1];
		est = ut_hist_quantile_range(merged, q, &lo, &hi);
		tap_ok(exact >= lo && exact < hi && (est >= exact ? est - exact : exact - est) <= hi - lo,
		       "q=%g: exact %llu in the reported bucket [%llu, %llu), estimate %llu", q,
		       (unsigned long long)exact, (unsigned long long)lo, (unsigned long long)hi,
		       (unsigned long long)est);
	}
	tap_ok(ut_hist_quantile(empty, 0.5) == 0, "an empty histogram's quantile is 0");

	/* Values above the range: last bucket, max exact. */
	ut_hist_init(empty);
	ut_hist_add(empty, 1ull << 50);
	ut_hist_add(empty, 5);
	tap_ok(ut_hist_quantile(empty, 1) == 1ull << 50 && empty->bucket[UT_HIST_BUCKETS - 1] == 1,
	       "a value beyond 2^40 goes to the last bucket, max stays exact");

	free(all);
	free(a);
	free(b);
	free(merged);
	free(direct);
	free(empty);
	return tap_done();
}
