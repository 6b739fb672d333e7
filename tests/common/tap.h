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
 * shows how far it got.
 *
 * A failure also goes to stderr: the "not ok" line, the "#" lines printed
 * since the previous check (the diagnostics a test prints before its
 * check) and those that follow it up to the next check, and "Bail out!".
 * Meson parses a TAP test's stdout and shows only its stderr on the
 * console (--print-errorlogs), so that is where a failure's reason must be
 * to be read without opening meson-logs/testlog.txt.  A passing test
 * writes nothing to stderr.  The header is self-contained and also compiles as
 * C++ (the lists suite builds its C sources as C++11 too).
 */
#ifndef TESTS_COMMON_TAP_H
#define TESTS_COMMON_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failed;
/* "#" lines since the last check, echoed to stderr if the next one fails. */
static char tap_pending[4096];
static size_t tap_pending_len;
static int tap_echo;		/* after a "not ok": its "#" lines go to stderr too */

enum tap_kind { TAP_PASS, TAP_FAIL, TAP_DIAG, TAP_BAIL };

/*
 * Keep (or, past the buffer, restart from) a "#" line for a later failure.
 * The one read of tap_pending_len keeps the copy inside the buffer even if
 * two threads print diagnostics at once (their lines may then mix).
 */
static inline void tap_keep(const char *line)
{
	size_t n = strlen(line), at = tap_pending_len;

	if (at + n >= sizeof(tap_pending))
		at = 0;				/* the latest lines matter most */
	if (n >= sizeof(tap_pending))
		return;
	memcpy(tap_pending + at, line, n + 1);
	tap_pending_len = at + n;
}

/*
 * Print prefix, then the formatted text and a newline, and flush; copy
 * what a failure needs to stderr (kind says what the line is).
 */
static inline void tap_vline(enum tap_kind kind, const char *prefix, const char *fmt, va_list ap)
{
	char line[1024];
	va_list again;
	int n;

	va_copy(again, ap);
	n = snprintf(line, sizeof(line), "%s", prefix);
	if (n >= 0 && (size_t) n < sizeof(line))
		vsnprintf(line + n, sizeof(line) - (size_t) n, fmt, again);
	va_end(again);
	fputs(prefix, stdout);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	if (strlen(line) == sizeof(line) - 1)
		strcpy(line + sizeof(line) - 5, "...");	/* stderr copy: cut */
	strcat(line, "\n");
	if (kind == TAP_DIAG && !tap_echo) {
		tap_keep(line);
		return;
	}
	if (kind == TAP_PASS) {
		tap_pending_len = 0;
		tap_echo = 0;
		return;
	}
	if (kind != TAP_DIAG) {
		fwrite(tap_pending, 1, tap_pending_len < sizeof(tap_pending) ?
			tap_pending_len : sizeof(tap_pending), stderr);
		tap_pending_len = 0;
		tap_echo = 1;
	}
	fputs(line, stderr);
	fflush(stderr);
}

static inline __attribute__((format(printf, 2, 3)))
int tap_ok(int cond, const char *fmt, ...)
{
	char prefix[32];
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	snprintf(prefix, sizeof(prefix), "%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	tap_vline(cond ? TAP_PASS : TAP_FAIL, prefix, fmt, ap);
	va_end(ap);
	return cond;
}

static inline __attribute__((format(printf, 1, 2)))
void tap_skip(const char *fmt, ...)
{
	char prefix[32];
	va_list ap;

	tap_count++;
	snprintf(prefix, sizeof(prefix), "ok %d # SKIP ", tap_count);
	va_start(ap, fmt);
	tap_vline(TAP_PASS, prefix, fmt, ap);
	va_end(ap);
}

static inline __attribute__((format(printf, 1, 2)))
void tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline(TAP_DIAG, "# ", fmt, ap);
	va_end(ap);
}

/* Give up on the whole program: the remaining checks cannot be trusted. */
static inline __attribute__((noreturn, format(printf, 1, 2)))
void tap_bail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline(TAP_BAIL, "Bail out! ", fmt, ap);
	va_end(ap);
	exit(1);
}

static inline __attribute__((noreturn, format(printf, 1, 2)))
void tap_skip_all(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline(TAP_PASS, "1..0 # SKIP ", fmt, ap);
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
