// SPDX-License-Identifier: MIT
/*
 * The TAP producer shared by every C test directory (arch, lists, unit,
 * callrcu, placement).
 *
 *   tap_ok(cond, fmt, ...)   one check: "ok N - text" or "not ok N - text";
 *                            returns cond so a caller can add diagnostics.
 *   tap_skip(fmt, ...)       one skipped check, counted in the plan.
 *   tap_diag(fmt, ...)       a "# text" comment line.
 *   tap_bail(fmt, ...)       "Bail out! text" and exit(1).
 *   tap_skip_all(fmt, ...)   "1..0 # SKIP text" and exit(0): Meson's SKIP.
 *   tap_done()               prints the plan ("1..N") last and returns the
 *                            exit status: 0 when every check passed, else 1.
 *
 * Every line is flushed at once so that a test killed by its timeout still
 * shows how far it got.  The header is self-contained and also compiles as
 * C++ (the lists suite builds its C sources as C++11 too).
 */
#ifndef TESTS_COMMON_TAP_H
#define TESTS_COMMON_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count;
static int tap_failed;

/* Print prefix, then the formatted text and a newline, and flush. */
static inline void tap_vline(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stdout);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
}

static inline __attribute__((format(printf, 2, 3)))
int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	tap_vline("", fmt, ap);
	va_end(ap);
	return cond;
}

static inline __attribute__((format(printf, 1, 2)))
void tap_skip(const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("ok %d # SKIP ", tap_count);
	va_start(ap, fmt);
	tap_vline("", fmt, ap);
	va_end(ap);
}

static inline __attribute__((format(printf, 1, 2)))
void tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline("# ", fmt, ap);
	va_end(ap);
}

/* Give up on the whole program: the remaining checks cannot be trusted. */
static inline __attribute__((noreturn, format(printf, 1, 2)))
void tap_bail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline("Bail out! ", fmt, ap);
	va_end(ap);
	exit(1);
}

static inline __attribute__((noreturn, format(printf, 1, 2)))
void tap_skip_all(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline("1..0 # SKIP ", fmt, ap);
	va_end(ap);
	exit(0);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif /* TESTS_COMMON_TAP_H */
