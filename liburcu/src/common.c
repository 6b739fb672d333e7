// SPDX-License-Identifier: MIT
/*
 * liburcu-common: error reporting, membarrier(2) and futex(2) wrappers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <math.h>
#include <time.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <pthread.h>

#include <urcu/uatomic.h>
#include <urcu/debug.h>
#include <urcu/gp-stats.h>

#include "common.h"

void urcu_common_die(const char *func, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "urcu: %s: %s\n", func, msg);
	fflush(stderr);
	abort();
}

/* ---- misuse diagnostics --------------------------------------------------- */

enum misuse_mode { MISUSE_UNKNOWN, MISUSE_QUIET, MISUSE_PRINT, MISUSE_ABORT };

/* Lines printed before the reports fall silent (the count goes on). */
#define MISUSE_PRINT_MAX	100

static unsigned long misuse_count;
static int misuse_mode_cached = MISUSE_UNKNOWN;

/*
 * URCU_DEBUG, read at the first misuse event.  Racing first readers compute
 * the same value; relaxed accesses suffice (the value is a pure function of
 * the environment, nothing else is published with it).
 */
static int misuse_mode(void)
{
	int m = uatomic_load(&misuse_mode_cached, CMM_RELAXED);
	const char *env;

	if (m != MISUSE_UNKNOWN)
		return m;
	env = getenv("URCU_DEBUG");
	if (env && strcmp(env, "abort") == 0)
		m = MISUSE_ABORT;
	else if (env && *env && strcmp(env, "0") != 0)
		m = MISUSE_PRINT;
#ifdef DEBUG_RCU
	else if (!env)
		m = MISUSE_PRINT;	/* debug_checks build: on unless URCU_DEBUG=0 */
#endif
	else
		m = MISUSE_QUIET;
	uatomic_store(&misuse_mode_cached, m, CMM_RELAXED);
	return m;
}

void urcu_common_misuse(const char *func, const char *fmt, ...)
{
	/* Relaxed: a statistic; the count orders nothing. */
	unsigned long n = uatomic_add_return_mo(&misuse_count, 1, CMM_RELAXED);
	int m = misuse_mode();
	char msg[256];
	va_list ap;

	if (m == MISUSE_QUIET || (m == MISUSE_PRINT && n > MISUSE_PRINT_MAX))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* One write(2) per line: no stdio lock, usable from a signal handler. */
	dprintf(STDERR_FILENO, "urcu: %s: %s%s\n", func, msg,
		m == MISUSE_PRINT && n == MISUSE_PRINT_MAX
			? " (URCU_DEBUG: further misuse reports are counted, not printed)" : "");
	if (m == MISUSE_ABORT)
		abort();
}

unsigned long urcu_misuse_events(void)
{
	return uatomic_load(&misuse_count, CMM_RELAXED);
}

/* ---- membarrier(2) ---------------------------------------------------------- */

static int membarrier_sys(int cmd, unsigned int flags)
{
	return (int)syscall(__NR_membarrier, cmd, flags, 0);
}

static pthread_once_t membarrier_once = PTHREAD_ONCE_INIT;
static int membarrier_ok;

static void membarrier_probe(void)
{
	const char *env = getenv("URCU_DISABLE_MEMBARRIER");
	int mask;

	if (env && *env && strcmp(env, "0") != 0)
		return;
#ifdef URCU_I_TSAN
	/*
	 * ThreadSanitizer builds only: the fence membarrier(2) runs on the
	 * readers' CPUs is invisible to TSan, so readers keep URCU_GP_FENCE
	 * and fence themselves (the no-membarrier path), with fences TSan
	 * models (urcu/arch.h).
	 */
	return;
#endif
	mask = membarrier_sys(MEMBARRIER_CMD_QUERY, 0);
	if (mask < 0 || !(mask & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
		return;
	if (membarrier_sys(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) != 0)
		return;
	membarrier_ok = 1;
}

int urcu_common_membarrier_init(void)
{
	pthread_once(&membarrier_once, membarrier_probe);
	return membarrier_ok;
}

void urcu_common_membarrier(void)
{
	if (membarrier_sys(MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) == 0)
		return;
	/*
	 * The registration belongs to the address space; re-register once
	 * (e.g. after an unusual clone) before giving up.
	 */
	if (membarrier_sys(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) == 0
			&& membarrier_sys(MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) == 0)
		return;
	urcu_common_die("synchronize_rcu", "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed: %s",
			strerror(errno));
}

void urcu_common_futex_wait(int32_t *addr, int32_t val)
{
	/* Private futex: our words never live in shared memory. */
	if (syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0) == 0)
		return;
	if (errno == EINTR || errno == EAGAIN)
		return;
	urcu_common_die("futex_wait", "FUTEX_WAIT failed: %s", strerror(errno));
}

void urcu_common_futex_wait_ns(int32_t *addr, int32_t val, uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t) (ns / 1000000000ULL),
		.tv_nsec = (long) (ns % 1000000000ULL),
	};

	if (syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0) == 0)
		return;
	if (errno == EINTR || errno == EAGAIN || errno == ETIMEDOUT)
		return;
	urcu_common_die("futex_wait", "FUTEX_WAIT failed: %s", strerror(errno));
}

uint64_t urcu_common_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

/* ---- stall reports ------------------------------------------------------------ */

/*
 * The handler and its argument change together under stall_lock; a report
 * copies both under it and calls the handler outside, so a handler may set
 * another one.
 */
static pthread_mutex_t stall_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*stall_fn)(const char *report, void *arg);
static void *stall_arg;

void urcu_set_stall_handler(void (*fn)(const char *report, void *arg), void *arg)
{
	pthread_mutex_lock(&stall_lock);
	stall_fn = fn;
	stall_arg = arg;
	pthread_mutex_unlock(&stall_lock);
}

void urcu_common_stall_emit(const char *report)
{
	void (*fn)(const char *report, void *arg);
	void *arg;

	pthread_mutex_lock(&stall_lock);
	fn = stall_fn;
	arg = stall_arg;
	pthread_mutex_unlock(&stall_lock);
	if (fn) {
		fn(report, arg);
		return;
	}
	/* One write(2): the report stays in one piece among other output. */
	if (write(STDERR_FILENO, report, strlen(report)) < 0)
		return;
}

/* URCU_STALL_TIMEOUT, parsed once: 0 unset or invalid, 1 valid (stall_env_ns). */
static pthread_once_t stall_env_once = PTHREAD_ONCE_INIT;
static int stall_env_valid;
static uint64_t stall_env_ns;

static void stall_env_read(void)
{
	const char *env = getenv("URCU_STALL_TIMEOUT");
	char *end;
	double s;

	if (!env)
		return;
	errno = 0;
	s = strtod(env, &end);
	if (end == env || *end || errno || !isfinite(s) || s < 0 || s > 1e9) {
		dprintf(STDERR_FILENO, "urcu: URCU_STALL_TIMEOUT=\"%s\" is not a number of "
			"seconds >= 0; the default stall timeout stays\n", env);
		return;
	}
	stall_env_ns = (uint64_t) (s * 1e9);
	stall_env_valid = 1;
}

uint64_t urcu_common_stall_timeout_env(uint64_t dflt)
{
	(void) pthread_once(&stall_env_once, stall_env_read);
	return stall_env_valid ? stall_env_ns : dflt;
}

void urcu_common_futex_wake(int32_t *addr, int nr)
{
	if (syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0) < 0)
		urcu_common_die("futex_wake", "FUTEX_WAKE failed: %s", strerror(errno));
}
