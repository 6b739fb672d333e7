// SPDX-License-Identifier: MIT
/*
 * <urcu/futex.h>: the futex(2) wait/wake calls as liburcu exposes them.
 *
 *   futex(uaddr, op, val, timeout, uaddr2, val3)
 *       the raw system call: FUTEX_WAIT sleeps while *uaddr == val (until a
 *       wake, a signal or the timeout), FUTEX_WAKE wakes up to val waiters.
 *       Returns what the kernel returns, or -1 with errno set.  A FUTEX_WAIT
 *       may return early (EINTR, or EAGAIN when *uaddr != val already):
 *       callers loop and recheck their condition.
 *   futex_noasync(...)  for use outside signal handlers
 *   futex_async(...)    also usable to wake from a signal handler
 *
 * Ordering contract: none beyond the kernel's.  The waker must make the
 * condition visible (a store ordered before the wake, e.g. by a full
 * barrier or a value-returning uatomic) and the waiter must recheck the
 * condition after the wait returns; FUTEX_WAIT's own check of *uaddr ==
 * val is atomic with going to sleep, which is what prevents lost wake-ups.
 *
 * On Linux both variants are the system call.  Elsewhere they are a polling
 * emulation: FUTEX_WAIT sleeps in short steps while *uaddr == val and
 * FUTEX_WAKE does nothing (the sleepers see the new value by themselves).
 */
#ifndef URCU_FUTEX_H
#define URCU_FUTEX_H

#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <urcu/config.h>
#include <urcu/compiler.h>
#include <urcu/system.h>

#ifndef FUTEX_WAIT
#define FUTEX_WAIT	0
#endif
#ifndef FUTEX_WAKE
#define FUTEX_WAKE	1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Strict ISO C modes leave struct timespec undeclared by <time.h>. */
struct timespec;

#if defined(CONFIG_RCU_HAVE_FUTEX) && defined(__linux__)

#include <urcu/syscall-compat.h>

#ifndef __cplusplus
/*
 * <unistd.h> declares syscall() only in GNU/default-source modes; the same
 * prototype here keeps strict ISO C programs compiling.  (C++ compilers
 * define _GNU_SOURCE, and a second C++ declaration would clash on noexcept.)
 */
long syscall(long number, ...);
#endif

static inline int futex(int32_t *uaddr, int op, int32_t val,
		const struct timespec *timeout, int32_t *uaddr2, int32_t val3)
{
	return (int) syscall(SYS_futex, uaddr, op, val, timeout, uaddr2, val3);
}

#else /* polling emulation */

static inline int futex(int32_t *uaddr, int op, int32_t val,
		const struct timespec *timeout, int32_t *uaddr2, int32_t val3)
{
	/* 1 ms steps: wake-up latency is traded for not burning a CPU. */
	struct timespec step = { 0, 1000000 };
	int64_t left_ns = -1;

	(void) uaddr2;
	(void) val3;
	switch (op) {
	case FUTEX_WAIT:
		if (timeout)
			left_ns = (int64_t) timeout->tv_sec * 1000000000 +
				timeout->tv_nsec;
		if (CMM_LOAD_SHARED(*uaddr) != val) {
			errno = EAGAIN;
			return -1;
		}
		while (CMM_LOAD_SHARED(*uaddr) == val) {
			if (left_ns == 0) {
				errno = ETIMEDOUT;
				return -1;
			}
			if (nanosleep(&step, NULL) != 0 && errno == EINTR)
				return -1;
			if (left_ns > 0)
				left_ns = left_ns > 1000000 ? left_ns - 1000000 : 0;
		}
		return 0;
	case FUTEX_WAKE:
		return 0;
	default:
		errno = ENOSYS;
		return -1;
	}
}

#endif

static inline int futex_noasync(int32_t *uaddr, int op, int32_t val,
		const struct timespec *timeout, int32_t *uaddr2, int32_t val3)
{
	return futex(uaddr, op, val, timeout, uaddr2, val3);
}

static inline int futex_async(int32_t *uaddr, int op, int32_t val,
		const struct timespec *timeout, int32_t *uaddr2, int32_t val3)
{
	return futex(uaddr, op, val, timeout, uaddr2, val3);
}

#ifdef __cplusplus
}
#endif

#endif /* URCU_FUTEX_H */
