/* SPDX-License-Identifier: MIT */
/*
 * Time, durations, seeded randomness and latency histograms.
 *
 * Histogram buckets are log-linear: values below 16 have a bucket each, above
 * that every power of two is split into 16 equal sub-buckets, so a reported
 * quantile is within about 6 % of the exact one while a histogram stays a
 * fixed 8 KiB that each thread fills without sharing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ut.h"

uint64_t ut_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void ut_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull, .tv_nsec = ns % 1000000000ull };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void ut_spin_ns(uint64_t ns)
{
	uint64_t end = ut_now_ns() + ns;

	while (ut_now_ns() < end)
		__asm__ __volatile__("" ::: "memory");
}

int ut_parse_duration(const char *text, uint64_t *out_ns)
{
	static const struct { const char *suffix; double mult; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e9 },
		{ "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
	};
	char *end;
	double v;

	if (!text || !*text || *text == '-' || *text == '+')
		return -1;
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || !isfinite(v) || v < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].suffix)) {
			double ns = v * units[i].mult;

			if (ns > 1e18)
				return -1;
			*out_ns = (uint64_t)(ns + 0.5);
			return 0;
		}
	}
	return -1;
}

void ut_format_duration(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 3600000000000ull && ns % 3600000000000ull == 0)
		snprintf(buf, len, "%lluh", (unsigned long long)(ns / 3600000000000ull));
	else if (ns >= 60000000000ull && ns % 60000000000ull == 0)
		snprintf(buf, len, "%llum", (unsigned long long)(ns / 60000000000ull));
	else if (ns >= 1000000000ull)
		snprintf(buf, len, "%gs", ns / 1e9);
	else if (ns >= 1000000ull)
		snprintf(buf, len, "%gms", ns / 1e6);
	else if (ns >= 1000ull)
		snprintf(buf, len, "%gus", ns / 1e3);
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

/* splitmix64: a seed and a stream number give independent sequences. */
void ut_rng_seed(struct ut_rng *r, uint64_t seed, uint64_t stream)
{
	r->s = seed ^ (stream * 0x9e3779b97f4a7c15ull) ^ 0x2545f4914f6cdd1dull;
	(void)ut_rng_next(r);
}

uint64_t ut_rng_next(struct ut_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void ut_hist_init(struct ut_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

static unsigned int hist_index(uint64_t v)
{
	unsigned int msb;

	if (v < (1u << UT_HIST_SUB_BITS))
		return (unsigned int)v;
	msb = 63 - (unsigned int)__builtin_clzll(v);
	return ((msb - UT_HIST_SUB_BITS + 1) << UT_HIST_SUB_BITS) |
		(unsigned int)((v >> (msb - UT_HIST_SUB_BITS)) & ((1u << UT_HIST_SUB_BITS) - 1));
}

/* Smallest value of bucket idx and its width. */
static void hist_bounds(unsigned int idx, uint64_t *lo, uint64_t *width)
{
	unsigned int sub = idx & ((1u << UT_HIST_SUB_BITS) - 1);
	unsigned int grp = idx >> UT_HIST_SUB_BITS;
	unsigned int shift;

	if (grp == 0) {
		*lo = idx;
		*width = 1;
		return;
	}
	shift = grp - 1;
	*lo = (uint64_t)((1u << UT_HIST_SUB_BITS) + sub) << shift;
	*width = 1ull << shift;
}

void ut_hist_add(struct ut_hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
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

uint64_t ut_hist_quantile(const struct ut_hist *h, double q)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank == 0)
		rank = 1;
	for (unsigned int i = 0; i < UT_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t lo, width, v;

			hist_bounds(i, &lo, &width);
			v = lo + width / 2;
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;
}

void ut_hist_log2(const struct ut_hist *h, uint64_t out[64])
{
	memset(out, 0, 64 * sizeof(out[0]));
	for (unsigned int i = 0; i < UT_HIST_BUCKETS; i++) {
		uint64_t lo, width;

		if (!h->bucket[i])
			continue;
		hist_bounds(i, &lo, &width);
		out[lo ? 63 - __builtin_clzll(lo) : 0] += h->bucket[i];
	}
}
