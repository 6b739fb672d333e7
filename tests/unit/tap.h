// SPDX-License-Identifier: MIT
/*
 * A small TAP producer for the unit tests.
 *
 * Each check prints "ok N - text" or "not ok N - text"; tap_done() prints the
 * plan ("1..N") last and returns the process exit status (0 when every check
 * passed).  tap_skip_all() reports the whole program as skipped, which Meson
 * shows as SKIP.  Output is flushed after every line so that a test killed by
 * its timeout still shows how far it got.
 */
#ifndef TESTS_UNIT_TAP_H
#define TESTS_UNIT_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count;
static int tap_failed;

static inline __attribute__((format(printf, 2, 3)))
int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

/* One skipped check, counted in the plan. */
static inline __attribute__((format(printf, 1, 2)))
void tap_skip(const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("ok %d # SKIP ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline __attribute__((format(printf, 1, 2)))
void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* Give up on the whole program: the remaining checks cannot be trusted. */
static inline __attribute__((noreturn, format(printf, 1, 2)))
void tap_bail(const char *fmt, ...)
{
	va_list ap;

	fputs("Bail out! ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	exit(1);
}

static inline __attribute__((noreturn, format(printf, 1, 2)))
void tap_skip_all(const char *fmt, ...)
{
	va_list ap;

	fputs("1..0 # SKIP ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	exit(0);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif /* TESTS_UNIT_TAP_H */
