/* SPDX-License-Identifier: MIT */
/*
 * Time, durations and seeded randomness.  (The latency histograms are in
 * histogram.c.)
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

/*
 * Sleeps until an absolute deadline: a relative nanosleep restarted after
 * each EINTR with the time left never ends when signals arrive faster than
 * the timer slack (the signal flavor sends SIGRCU to every registered
 * thread at each grace period, tens of thousands per second in litmus
 * mode: the controller's 100 ms sleep once lasted 10 minutes).
 */
void ut_sleep_ns(uint64_t ns)
{
	uint64_t end = ut_now_ns() + ns;
	struct timespec ts = { .tv_sec = end / 1000000000ull, .tv_nsec = end % 1000000000ull };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
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

void ut_format_ns_f(double ns, int ns_decimals, char *buf, size_t len)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.2fs", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else
		snprintf(buf, len, "%.*fns", ns_decimals, ns);
}

void ut_format_ns(uint64_t ns, char *buf, size_t len)
{
	ut_format_ns_f((double)ns, 0, buf, len);
}

void ut_format_span(uint64_t ns, char *buf, size_t len)
{
	uint64_t s = (ns + 500000000ull) / 1000000000ull;

	if (s >= 3600)
		snprintf(buf, len, "%lluh%02llum", (unsigned long long)(s / 3600),
			 (unsigned long long)(s % 3600 / 60));
	else if (s >= 60)
		snprintf(buf, len, "%llum%02llus", (unsigned long long)(s / 60),
			 (unsigned long long)(s % 60));
	else
		snprintf(buf, len, "%llus", (unsigned long long)s);
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
