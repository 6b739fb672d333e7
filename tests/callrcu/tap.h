// SPDX-License-Identifier: MIT
/*
 * Minimal TAP output for the callrcu tests: ok()/diag() and a plan printed at
 * the end ("1..N").  tap_done() returns the exit status: 0 when every check
 * passed, 1 otherwise.
 */
#ifndef TESTS_CALLRCU_TAP_H
#define TESTS_CALLRCU_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_count;
static int tap_failed;

static inline __attribute__((format(printf, 2, 3)))
int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

static inline __attribute__((format(printf, 1, 2)))
void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif /* TESTS_CALLRCU_TAP_H */
