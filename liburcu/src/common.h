// SPDX-License-Identifier: MIT
/*
 * Helpers shared by every flavor, exported by liburcu-common.
 */
#ifndef URCU_SRC_COMMON_H
#define URCU_SRC_COMMON_H

#include <stdint.h>
#include <urcu/compiler.h>

/*
 * Report API misuse or an unrecoverable error: prints one line
 * "urcu: <func>: <message>" on stderr, then aborts.
 */
URCU_API __attribute__((noreturn, format(printf, 2, 3)))
void urcu_common_die(const char *func, const char *fmt, ...);

/*
 * Report API misuse that liburcu lets run (docs/DESIGN.md, "Misuse: what
 * aborts and what runs"): counts the event (urcu_misuse_events()), and
 * prints "urcu: <func>: <message>" on stderr only when diagnostics are on
 * (URCU_DEBUG set to anything but "0" or empty, or a debug_checks build);
 * URCU_DEBUG=abort also aborts after the line.  Returns otherwise: the
 * caller carries on as liburcu would.  Safe in signal handlers and
 * destructors (no allocation, no lock; stderr only when diagnostics are on).
 */
URCU_API __attribute__((format(printf, 2, 3)))
void urcu_common_misuse(const char *func, const char *fmt, ...);

/*
 * Register the process for private expedited membarrier(2).  Returns 1 when
 * urcu_common_membarrier() may be used, 0 otherwise (old kernel, seccomp,
 * or URCU_DISABLE_MEMBARRIER set in the environment).  Idempotent.
 */
URCU_API int urcu_common_membarrier_init(void);

/*
 * Execute a full memory barrier on every CPU running a thread of this
 * process (and order it with the caller).  Only after a successful init.
 */
URCU_API void urcu_common_membarrier(void);

/* futex(2) wrappers: wait while *addr == val (EINTR/EAGAIN are returns). */
URCU_API void urcu_common_futex_wait(int32_t *addr, int32_t val);
URCU_API void urcu_common_futex_wake(int32_t *addr, int nr);

#endif /* URCU_SRC_COMMON_H */
