// SPDX-License-Identifier: MIT
/*
 * Select the flavor under test from the TEST_FLAVOR_<NAME> define the Meson
 * foreach passes, through its direct header: F(name) is the prefixed name
 * (F(call_rcu) -> urcu_memb_call_rcu), so these tests never depend on the
 * generic-name maps.
 */
#ifndef TESTS_CALLRCU_FLAVOR_TEST_H
#define TESTS_CALLRCU_FLAVOR_TEST_H

#if defined(TEST_FLAVOR_MEMB)
# include <urcu/urcu-memb.h>
# define F(name)		urcu_memb_##name
# define TEST_FLAVOR		"memb"
#elif defined(TEST_FLAVOR_MB)
# include <urcu/urcu-mb.h>
# define F(name)		urcu_mb_##name
# define TEST_FLAVOR		"mb"
#elif defined(TEST_FLAVOR_SIGNAL)
# include <urcu/urcu-signal.h>
# define F(name)		urcu_signal_##name
# define TEST_FLAVOR		"signal"
#elif defined(TEST_FLAVOR_QSBR)
# include <urcu/urcu-qsbr.h>
# define F(name)		urcu_qsbr_##name
# define TEST_FLAVOR		"qsbr"
# define TEST_IS_QSBR		1
#elif defined(TEST_FLAVOR_BP)
# include <urcu/urcu-bp.h>
# define F(name)		urcu_bp_##name
# define TEST_FLAVOR		"bp"
# define TEST_IS_BP		1
#else
# error "build with -DTEST_FLAVOR_<NAME>"
#endif

#ifndef TEST_IS_QSBR
# define TEST_IS_QSBR		0
#endif
#ifndef TEST_IS_BP
# define TEST_IS_BP		0
#endif

#include <urcu/call-rcu.h>
#include <urcu/call-rcu-stats.h>
#include <urcu/defer.h>

#include <time.h>

/* Monotonic time in nanoseconds. */
static inline unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long) ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

/*
 * A wait of the test thread that must not hold up grace periods: qsbr
 * threads go offline around it (a no-op elsewhere).
 */
#define QUIESCENT_SLEEP_MS(ms)				\
	do {						\
		F(thread_offline)();			\
		sleep_ms(ms);				\
		F(thread_online)();			\
	} while (0)

#endif /* TESTS_CALLRCU_FLAVOR_TEST_H */
