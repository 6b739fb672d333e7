// SPDX-License-Identifier: MIT
/*
 * <urcu/assert.h>: assertions.
 *
 *   urcu_assert(cond)        internal consistency check, compiled in only when
 *                            DEBUG_RCU or CONFIG_RCU_DEBUG is defined;
 *                            otherwise cond is type-checked but never
 *                            evaluated (so it may be expensive).
 *   urcu_assert_debug(cond)  the same.
 *   urcu_posix_assert(cond)  always on (NDEBUG does not disable it): for
 *                            results of POSIX calls that must not fail.
 *
 * A failed assertion prints the condition, file, line and function on
 * stderr and aborts.
 */
#ifndef URCU_ASSERT_H
#define URCU_ASSERT_H

#include <assert.h>	/* liburcu 0.14+'s urcu/assert.h brings assert() in */
#include <stdio.h>
#include <stdlib.h>
#include <urcu/config.h>
#include <urcu/compiler.h>

static inline __attribute__((noreturn))
void urcu_i_assert_fail(const char *cond, const char *file, int line,
		const char *func)
{
	fprintf(stderr, "urcu: assertion failed: %s (%s:%d, %s)\n",
		cond, file, line, func);
	abort();
}

#define urcu_posix_assert(cond)						\
	do {								\
		if (caa_unlikely(!(cond)))				\
			urcu_i_assert_fail(#cond, __FILE__, __LINE__,	\
				__func__);				\
	} while (0)

#if defined(DEBUG_RCU) || defined(CONFIG_RCU_DEBUG)
#define urcu_assert(cond)	urcu_posix_assert(cond)
#else
#define urcu_assert(cond)						\
	do {								\
		if (0)							\
			(void) (cond);					\
	} while (0)
#endif

#define urcu_assert_debug(cond)	urcu_assert(cond)

#endif /* URCU_ASSERT_H */
