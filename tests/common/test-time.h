// SPDX-License-Identifier: MIT
/*
 * Time for the tests: a monotonic clock in nanoseconds and a sleep that
 * survives signals (the signal flavor interrupts sleeps in registered
 * threads).  The one copy every test directory uses.
 */
#ifndef TESTS_COMMON_TEST_TIME_H
#define TESTS_COMMON_TEST_TIME_H

#include <errno.h>
#include <time.h>

/*
 * The bound of a wait for other threads (test threads, the library's
 * workers) to start or make progress.  A loaded machine may leave a thread
 * unscheduled for seconds, so a test waits for what it needs to see ("until
 * the readers report a lookup"), never a fixed time, and gives up only past
 * this generous limit: a thread that has not run in 20 s is hung, not slow.
 * A passing test never waits this long.
 */
#define T_START_LIMIT_MS 20000

/* Monotonic time in nanoseconds. */
static inline unsigned long long t_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long) ts.tv_sec * 1000000000ULL + (unsigned long long) ts.tv_nsec;
}

static inline double t_ms_since(unsigned long long start_ns)
{
	return (double) (t_now_ns() - start_ns) / 1e6;
}

/* Sleep for ms milliseconds, resuming after signal handlers. */
static inline void t_sleep_ms(long ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

#endif /* TESTS_COMMON_TEST_TIME_H */
