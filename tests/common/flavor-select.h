// SPDX-License-Identifier: MIT
/*
 * Flavor under test, chosen by the -DTEST_FLAVOR_<NAME> define that the
 * Meson foreach passes; the one flavor-selection header of every test
 * directory (tests/common is on every test's include path).  Only the
 * flavor's direct header is included, so the tests use prefixed names
 * through T_FN(name) (T_FN(read_lock) -> urcu_memb_read_lock, which
 * _LGPL_SOURCE turns into the inline version) and never rely on the
 * generic-name maps.
 *
 *   T_FLAVOR      the flavor's name as a string
 *   T_IS_QSBR     1 for qsbr: read_lock/unlock are free, threads report
 *                 quiescent states, read_ongoing means "online"
 *   T_IS_BP       1 for bp: no registration needed, fork handlers exist
 *   T_MODE        "inline" under _LGPL_SOURCE, else "call"
 */
#ifndef TESTS_COMMON_FLAVOR_SELECT_H
#define TESTS_COMMON_FLAVOR_SELECT_H

#if defined(TEST_FLAVOR_MEMB)
# include <urcu/urcu-memb.h>
# define T_FN(name)	urcu_memb_##name
# define T_FLAVOR	"memb"
#elif defined(TEST_FLAVOR_MB)
# include <urcu/urcu-mb.h>
# define T_FN(name)	urcu_mb_##name
# define T_FLAVOR	"mb"
#elif defined(TEST_FLAVOR_SIGNAL)
# include <urcu/urcu-signal.h>
# define T_FN(name)	urcu_signal_##name
# define T_FLAVOR	"signal"
#elif defined(TEST_FLAVOR_QSBR)
# include <urcu/urcu-qsbr.h>
# define T_FN(name)	urcu_qsbr_##name
# define T_FLAVOR	"qsbr"
# define T_IS_QSBR	1
#elif defined(TEST_FLAVOR_BP)
# include <urcu/urcu-bp.h>
# define T_FN(name)	urcu_bp_##name
# define T_FLAVOR	"bp"
# define T_IS_BP	1
#else
# error "compile with one of TEST_FLAVOR_{MEMB,MB,SIGNAL,QSBR,BP} defined"
#endif

#ifndef T_IS_QSBR
# define T_IS_QSBR	0
#endif
#ifndef T_IS_BP
# define T_IS_BP	0
#endif

#include "test-time.h"

#ifdef _LGPL_SOURCE
# define T_MODE		"inline"
#else
# define T_MODE		"call"
#endif

/*
 * End of a read-side critical section as every flavor understands it: the
 * unlock, then (qsbr) a quiescent state, so that qsbr readers in these
 * flavor-generic tests release grace periods where the others do.  The
 * quiescent_state call is a no-op in the other flavors.
 */
static inline void t_reader_exit(void)
{
	T_FN(read_unlock)();
	T_FN(quiescent_state)();
}

/*
 * A wait of the test thread that must not hold up grace periods: qsbr
 * threads go offline around it (a no-op elsewhere).
 */
#define T_QUIESCENT_SLEEP_MS(ms)			\
	do {						\
		T_FN(thread_offline)();			\
		t_sleep_ms(ms);				\
		T_FN(thread_online)();			\
	} while (0)

#endif /* TESTS_COMMON_FLAVOR_SELECT_H */
