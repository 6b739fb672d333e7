/* SPDX-License-Identifier: MIT */
/*
 * urcutorture: a fatal signal is a verdict (crash.c).  A thread that dies of
 * SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT ends the run with the verdict
 * CRASH (exit 1): what ran, who crashed, and the JSON report (--json).
 */
#ifndef UT_CRASH_H
#define UT_CRASH_H

#include "ut.h"

/* Once, in main, before any other thread exists: the handlers, the main
 * thread's alternate signal stack, the test hook (URCUTORTURE_TEST_CRASH). */
void ut_crash_install(void);
/*
 * Before each combination (main thread): render what a crash during it
 * prints and writes (after s's finished combinations), so the handler
 * itself only calls write(2).
 */
void ut_crash_arm(const struct ut_session *s, const struct ut_config *cfg,
		  const struct ut_flavor_ops *ops, enum ut_layout layout);
/* The running combination (its call_rcu workers name a crashing thread); NULL after. */
void ut_crash_attach(struct ut_run *run);
/* In each thread of a mode (ut_thread_begin / ut_thread_end): its role for
 * the report and its alternate signal stack. */
void ut_crash_thread_enter(struct ut_thread *t);
void ut_crash_thread_leave(void);
/* The JSON report's "crash" member while rendering a crash document. */
void ut_crash_json_marker(const void *arg, FILE *f);

#endif /* UT_CRASH_H */
