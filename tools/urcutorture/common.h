/* SPDX-License-Identifier: MIT */
/*
 * urcutorture: the leaf of the tool.
 *
 * Exit codes, verdicts, error kinds and call_rcu layouts with their name
 * tables, error totals, and the sink every line of the human report goes
 * through.  This header includes no other header of the tool and common.c
 * calls nothing of it, so any file may use them without creating a cycle
 * between run, layout, report and watchdog.
 */
#ifndef UT_COMMON_H
#define UT_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* ---- exit codes (docs/TORTURE.md, "Exit codes") ---- */
enum {
	UT_EXIT_OK = 0,
	UT_EXIT_FAILURE = 1,
	UT_EXIT_STALL = 2,
	UT_EXIT_ENV = 3,
	UT_EXIT_REGRESSION = 4,	/* --compare: a figure regressed beyond the threshold */
	UT_EXIT_INTERRUPTED = 5,	/* SIGINT / SIGTERM: report written, run cut short */
	UT_EXIT_USAGE = 64,
	UT_EXIT_SKIP = 77,
};

/* ---- verdict of one combination or of the whole run ---- */
enum ut_verdict {
	UT_SUCCESS, UT_FAILURE, UT_STALL, UT_ENV,
	UT_INTERRUPTED,		/* a signal cut the combination (or the run) short */
	UT_REGRESSION,		/* whole run only: --compare found a regression */
	UT_CRASH,		/* a fatal signal (crash.c): the run ends there, exit 1 */
};
extern const char *const ut_verdict_names[];

/*
 * The signal (SIGINT or SIGTERM) that asked the run to stop, 0 while none
 * did.  Written once by the signal thread (main.c), read by the controller
 * loop (run.c) and between combinations; relaxed accesses suffice, the
 * flag carries no data with it.
 */
extern int ut_stop_signal;
/* "SIGINT", "SIGTERM", else "signal N" (static storage for the latter). */
const char *ut_signal_name(int sig);
static inline int ut_stop_requested(void)
{
	return __atomic_load_n(&ut_stop_signal, __ATOMIC_RELAXED);
}

/* ---- error kinds every mode may count (modes add their own: ut.h) ---- */
enum ut_error {
	UT_ERR_TOO_SHORT_GP,	/* pipeline age >= 2 seen by a reader */
	UT_ERR_POISON,		/* poisoned or recycled object read */
	UT_ERR_CB_LOST,
	UT_ERR_CB_DUP,
	UT_ERR_BARRIER,		/* rcu_barrier returned before a callback ran */
	UT_ERR_POLL_EARLY,	/* cookie reported complete inside a reader */
	UT_ERR_POLL_LATE,	/* cookie not complete after synchronize_rcu */
	UT_ERR_GP_STATS,	/* the library's grace-period statistics contradict what
				 * urcutorture measured (libstats.c), one per failed check */
	UT_ERR_COUNT
};
extern const char *const ut_error_names[UT_ERR_COUNT];

/* Sum of n error counters. */
uint64_t ut_errors_total(const uint64_t *errors, int n);

/* ---- call_rcu layouts ---- */
enum ut_layout {
	UT_LAYOUT_DEFAULT,
	UT_LAYOUT_PER_CPU,
	UT_LAYOUT_PER_THREAD,
	UT_LAYOUT_RT,
	UT_LAYOUT_COUNT
};
extern const char *const ut_layout_names[UT_LAYOUT_COUNT];

/* ---- the human report's sink ---- */
struct ut_sink {
	FILE *human;	/* stdout, or stderr when the JSON document takes stdout */
	bool tap;	/* TAP on stdout: every human line becomes a "# " comment */
};

/* printf to the sink (flushed at once). */
void ut_out(const struct ut_sink *sink, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* UT_COMMON_H */
