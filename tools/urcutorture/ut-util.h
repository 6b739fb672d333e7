/* SPDX-License-Identifier: MIT */
/*
 * urcutorture's leaf helpers (util.c): time, durations for people and the
 * per-thread random generator.  No other urcutorture header needed.
 */
#ifndef UT_UTIL_H
#define UT_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* ---- time and randomness ---- */

uint64_t ut_now_ns(void);
void ut_sleep_ns(uint64_t ns);
void ut_spin_ns(uint64_t ns);
/* Parse "10s", "5m", "2h", "250ms", "40us", "100ns" or plain seconds. */
int ut_parse_duration(const char *text, uint64_t *out_ns);
void ut_format_duration(uint64_t ns, char *buf, size_t len);
/* A span for people, to the second: "47s", "3m05s", "1h02m". */
/* A measured duration for people: 2.35ms, 41.2us (report tables, gp-stats
 * lines, --compare); below 1us with ns_decimals decimals (ut_format_ns: 0). */
void ut_format_ns(uint64_t ns, char *buf, size_t len);
void ut_format_ns_f(double ns, int ns_decimals, char *buf, size_t len);
void ut_format_span(uint64_t ns, char *buf, size_t len);

struct ut_rng {
	uint64_t s;
};
void ut_rng_seed(struct ut_rng *r, uint64_t seed, uint64_t stream);
uint64_t ut_rng_next(struct ut_rng *r);
static inline uint64_t ut_rng_below(struct ut_rng *r, uint64_t n)
{
	return n ? ut_rng_next(r) % n : 0;
}

#endif /* UT_UTIL_H */
