/* SPDX-License-Identifier: MIT */
/*
 * Log-linear latency histograms (see histogram.h).
 *
 * Bucket index of v: v itself below 32; otherwise, with m = floor(log2 v)
 * (5 <= m < 40), group g = m - 4 and sub-bucket s = the 5 bits of v just
 * below its top bit, index = g * 32 + s.  Group g >= 1 therefore covers
 * [2^m, 2^(m+1)) in 32 steps of 2^(m-5): each bucket is 1/32 of its lower
 * bound wide.  Group 0 is the 32 exact values 0..31, which makes the
 * mapping continuous (index 32 = value 32).  Values of 2^40 or more go to
 * the last bucket.
 */
#include <math.h>
#include <string.h>

#include "histogram.h"

void ut_hist_init(struct ut_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned int ut_hist_index(uint64_t v)
{
	unsigned int m;

	if (v < UT_HIST_SUB)
		return (unsigned int)v;
	m = 63 - (unsigned int)__builtin_clzll(v);
	if (m >= UT_HIST_MAX_BITS)
		return UT_HIST_BUCKETS - 1;
	return ((m - UT_HIST_SUB_BITS + 1) << UT_HIST_SUB_BITS) |
	       (unsigned int)((v >> (m - UT_HIST_SUB_BITS)) & (UT_HIST_SUB - 1));
}

void ut_hist_bounds(unsigned int idx, uint64_t *lo, uint64_t *hi)
{
	unsigned int sub = idx & (UT_HIST_SUB - 1);
	unsigned int grp = idx >> UT_HIST_SUB_BITS;
	unsigned int shift;

	if (grp == 0) {
		*lo = idx;
		*hi = (uint64_t)idx + 1;
		return;
	}
	shift = grp - 1;
	*lo = (uint64_t)(UT_HIST_SUB + sub) << shift;
	*hi = *lo + (1ull << shift);
	if (idx == UT_HIST_BUCKETS - 1)
		*hi = UINT64_MAX;	/* the last bucket also takes everything above */
}

void ut_hist_add(struct ut_hist *h, uint64_t v)
{
	h->bucket[ut_hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void ut_hist_merge(struct ut_hist *dst, const struct ut_hist *src)
{
	if (!src->count)
		return;
	for (unsigned int i = 0; i < UT_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t ut_hist_quantile_range(const struct ut_hist *h, double q, uint64_t *lo, uint64_t *hi)
{
	uint64_t rank, seen = 0, l, u, v;
	unsigned int i;

	if (!h->count) {
		if (lo)
			*lo = 0;
		if (hi)
			*hi = 0;
		return 0;
	}
	if (q <= 0)
		rank = 1;
	else if (q >= 1)
		rank = h->count;
	else
		rank = (uint64_t)ceil(q * (double)h->count);
	if (rank == 0)
		rank = 1;
	for (i = 0; i < UT_HIST_BUCKETS - 1; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	ut_hist_bounds(i, &l, &u);
	if (lo)
		*lo = l;
	if (hi)
		*hi = u;
	/* The extremes are known exactly. */
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	v = l + (u - l) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

uint64_t ut_hist_quantile(const struct ut_hist *h, double q)
{
	return ut_hist_quantile_range(h, q, NULL, NULL);
}

void ut_hist_log2(const struct ut_hist *h, uint64_t out[64])
{
	memset(out, 0, 64 * sizeof(out[0]));
	for (unsigned int i = 0; i < UT_HIST_BUCKETS; i++) {
		uint64_t lo, hi;

		if (!h->bucket[i])
			continue;
		ut_hist_bounds(i, &lo, &hi);
		out[lo ? 63 - __builtin_clzll(lo) : 0] += h->bucket[i];
	}
}
