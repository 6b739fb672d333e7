// SPDX-License-Identifier: MIT
/*
 * TAP helpers for the lists suite: check() prints one "ok N - ..." or
 * "not ok N - ..." line; tap_finish() prints the plan ("1..N") and returns
 * the exit status (0 if every check passed, 1 otherwise).
 */
#ifndef TESTS_LISTS_TAP_H
#define TESTS_LISTS_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n;
static int tap_bad;

static inline __attribute__((format(printf, 2, 3)))
int check(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_bad++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

static inline __attribute__((format(printf, 1, 2)))
void note(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline int tap_finish(void)
{
	printf("1..%d\n", tap_n);
	fflush(stdout);
	return tap_bad ? 1 : 0;
}

#endif /* TESTS_LISTS_TAP_H */
