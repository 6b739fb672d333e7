// SPDX-License-Identifier: MIT
/*
 * Helpers shared by every flavor, exported by liburcu-common.
 */
#ifndef URCU_SRC_COMMON_H
#define URCU_SRC_COMMON_H

#include <signal.h>
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
/* The same, for at most ns nanoseconds (a timeout is a return too). */
URCU_API void urcu_common_futex_wait_ns(int32_t *addr, int32_t val, uint64_t ns);

/* CLOCK_MONOTONIC in nanoseconds. */
URCU_API uint64_t urcu_common_now_ns(void);

/*
 * Stall reports (urcu/gp-stats.h): hand text to the application's handler,
 * or write it to standard error.  Called by a grace-period leader with no
 * library lock held.
 */
URCU_API void urcu_common_stall_emit(const char *report);

/*
 * The stall timeout from URCU_STALL_TIMEOUT, in nanoseconds (0: off), or
 * dflt when unset; a value that is not a finite number of seconds >= 0
 * gives one warning line naming the variable and dflt.  Read once.
 */
URCU_API uint64_t urcu_common_stall_timeout_env(uint64_t dflt);
URCU_API void urcu_common_futex_wake(int32_t *addr, int nr);

/*
 * The signals a thread the library starts blocks (the caller blocks them
 * around pthread_create, which the thread inherits): every signal but the
 * synchronous faults, so that it never runs the application's handlers for
 * asynchronous signals.  A fault (SIGSEGV, SIGBUS, SIGILL, SIGFPE) cannot
 * be deferred by blocking it: the kernel kills the process at once, with
 * no handler run; left unblocked, the application's fault handler (a crash
 * reporter, urcutorture's) runs in the library's thread as in any other.
 */
static inline void urcu_common_thread_sigmask(sigset_t *set)
{
	sigfillset(set);
	sigdelset(set, SIGSEGV);
	sigdelset(set, SIGBUS);
	sigdelset(set, SIGILL);
	sigdelset(set, SIGFPE);
}

#endif /* URCU_SRC_COMMON_H */
