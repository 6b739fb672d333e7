/* SPDX-License-Identifier: MIT */
/*
 * The leaf of the tool (see common.h): name tables, error totals and the
 * output sink.  Includes only common.h.
 */
#include <signal.h>
#include <stdarg.h>
#include <string.h>

#include "common.h"

const char *const ut_verdict_names[] = {
	"SUCCESS", "FAILURE", "STALL", "ENVIRONMENT", "INTERRUPTED", "REGRESSION", "CRASH",
};

int ut_stop_signal;

const char *ut_signal_name(int sig)
{
	static char buf[32];

	if (sig == SIGINT)
		return "SIGINT";
	if (sig == SIGTERM)
		return "SIGTERM";
	snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

const char *const ut_error_names[UT_ERR_COUNT] = {
	"too_short_gp", "poisoned_read", "callback_lost", "callback_duplicated",
	"barrier_incomplete", "poll_early", "poll_late", "gp_stats_mismatch",
};

const char *const ut_layout_names[UT_LAYOUT_COUNT] = {
	"default", "per-cpu", "per-thread", "rt",
};

uint64_t ut_errors_total(const uint64_t *errors, int n)
{
	uint64_t sum = 0;

	for (int i = 0; i < n; i++)
		sum += errors[i];
	return sum;
}

void ut_out(const struct ut_sink *sink, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!sink->tap) {
		fputs(buf, sink->human);
	} else {
		/* TAP: the human report travels as diagnostics. */
		for (char *line = buf, *nl; *line; line = nl) {
			nl = strchr(line, '\n');
			if (nl)
				*nl++ = '\0';
			else
				nl = line + strlen(line);
			fprintf(sink->human, "# %s\n", line);
		}
	}
	fflush(sink->human);
}
