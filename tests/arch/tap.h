// SPDX-License-Identifier: MIT
/*
 * Minimal TAP output for the arch tests: "ok N - what" / "not ok N - what",
 * the plan printed last by tap_done(), which also gives the exit status.
 * Lines are flushed one by one so a test killed by its timeout still shows
 * where it stopped.
 */
#ifndef TESTS_ARCH_TAP_H
#define TESTS_ARCH_TAP_H

#include <stdarg.h>
#include <stdio.h>

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

static inline __attribute__((format(printf, 1, 2)))
void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif /* TESTS_ARCH_TAP_H */
