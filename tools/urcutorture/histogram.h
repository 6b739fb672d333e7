/* SPDX-License-Identifier: MIT */
/*
 * Latency histograms with fixed log-linear buckets (HdrHistogram-style).
 *
 * Values below 2^UT_HIST_SUB_BITS (32) have a bucket each; above that
 * every power of two [2^k, 2^(k+1)) is split into 32 equal sub-buckets, up
 * to 2^UT_HIST_MAX_BITS ns (about 18 minutes); larger values land in the
 * last bucket (min and max stay exact).  A bucket is at most 1/32 (about
 * 3.1 %) of its lower bound wide, so a quantile is exact to the bucket:
 * the true value lies in the bucket reported.  A histogram is a fixed
 * 9 KiB that each thread fills without sharing; histograms of several
 * threads or runs merge by adding bucket counts, so the merge of two
 * histograms is exactly the histogram of the merged samples.
 *
 * A leaf: includes nothing of the tool (the unit test links it alone).
 */
#ifndef UT_HISTOGRAM_H
#define UT_HISTOGRAM_H

#include <stdint.h>

#define UT_HIST_SUB_BITS	5
#define UT_HIST_SUB		(1u << UT_HIST_SUB_BITS)	/* sub-buckets per power of two */
#define UT_HIST_MAX_BITS	40
#define UT_HIST_BUCKETS		((UT_HIST_MAX_BITS - UT_HIST_SUB_BITS + 1) << UT_HIST_SUB_BITS)

struct ut_hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min;		/* UINT64_MAX when empty */
	uint64_t max;
	uint64_t bucket[UT_HIST_BUCKETS];
};

void ut_hist_init(struct ut_hist *h);
void ut_hist_add(struct ut_hist *h, uint64_t v);
/* dst += src: bucket counts, count and sum add; min and max combine. */
void ut_hist_merge(struct ut_hist *dst, const struct ut_hist *src);
/* Bucket of a value, and the bucket's range [*lo, *hi). */
unsigned int ut_hist_index(uint64_t v);
void ut_hist_bounds(unsigned int idx, uint64_t *lo, uint64_t *hi);
/*
 * q in [0,1]: the bucket holding the sample of rank ceil(q * count) (the
 * smallest sample for q = 0, the largest for q = 1); returns that bucket's
 * midpoint clamped to [min, max], and its range in *lo / *hi when not NULL.
 * 0 for an empty histogram.
 */
uint64_t ut_hist_quantile_range(const struct ut_hist *h, double q, uint64_t *lo, uint64_t *hi);
uint64_t ut_hist_quantile(const struct ut_hist *h, double q);
/* Counts per floor(log2(v)) (v = 0 counted in slot 0); 64 slots. */
void ut_hist_log2(const struct ut_hist *h, uint64_t out[64]);

#endif /* UT_HISTOGRAM_H */
