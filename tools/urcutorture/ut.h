/* SPDX-License-Identifier: MIT */
/*
 * urcutorture: declarations shared by the tool's compilation units other
 * than the modes.  A mode-NAME.c file includes only ut-mode.h (the mode
 * interface, which includes ut-flavor.h and ut-util.h); this header adds
 * the run machinery (layouts, run.c, the library's view), the batch, the
 * watchdog and the reports.
 *
 * The tool is written against the public liburcu interface only.  Every call
 * into the RCU library goes through a struct ut_flavor_ops table (filled by
 * flavor-ops.c, compiled once per flavor), so the rest of the tool never
 * includes a flavor header and never depends on which flavors exist.
 * Likewise every mode is a struct ut_mode_ops table (mode-*.c, listed in
 * modes.c), so nothing outside a mode's file knows that mode.
 *
 * Who calls whom (no cycles): main -> options, scenario, run, report,
 * watchdog, compare; scenario -> options, threads, placement, report;
 * run -> threads, layout, callbacks, watchdog; watchdog -> report, threads;
 * report -> compare (its JSON section); compare -> jread, json;
 * callbacks -> threads -> layout; everything -> common (the leaf: names,
 * error totals, the output sink), histogram and util.  Modes are reached
 * only through their tables.  docs/TORTURE.md describes the design.
 */
#ifndef UT_H
#define UT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ut-mode.h"

/* threads.c: the mode's roles -> thread counts, plan sizes, threads[]. */
void ut_mode_counts(const struct ut_config *cfg, int n[UT_MODE_MAX_ROLES],
		    bool posts[UT_MODE_MAX_ROLES]);
bool ut_mode_uses_layout(const struct ut_config *cfg);
/* Count of threads per placement role for a mode/layout (plan sizes). */
void ut_role_counts(const struct ut_config *cfg, enum ut_layout layout, int n[UT_ROLE_COUNT]);
/* Name p's slots as the run's threads are named ("fake-updater 0"), in the
 * order ut_threads_alloc takes them, for the printed plan. */
void ut_plan_label(const struct ut_config *cfg, struct ut_plan *p);
/* Allocate run->threads for run->mode, placed after run->plan. */
int ut_threads_alloc(struct ut_run *run);

/* ---- call_rcu layouts and workers (layout.c) ---- */

/* Callback routing for the layouts: target worker of the next call_rcu
 * from this thread, and accounting on the invoking side. */
int ut_worker_target(struct ut_run *run, struct ut_thread *t);
void ut_worker_invoked(struct ut_run *run, uint64_t enqueue_ns);
void ut_worker_queued(struct ut_run *run, int w);
int ut_worker_add(struct ut_run *run, const char *label, struct call_rcu_data *crdp,
		  pthread_t thread, bool thread_known, int cpu_affinity);
int ut_layout_setup(struct ut_run *run);
void ut_layout_snapshot(struct ut_run *run, struct ut_lib_worker_stat *lib, int *nlib);
void ut_layout_teardown(struct ut_run *run);
/* Call the flavor's rcu_barrier until every posted callback has run. */
void ut_drain_callbacks(struct ut_run *run);

/* ---- run.c ---- */

/* Run one flavor x layout combination into res. */
void ut_run_one(const struct ut_config *cfg, const struct ut_flavor_ops *ops,
		enum ut_layout layout, struct ut_plan *plan, struct ut_result *res);
void ut_result_free(struct ut_result *res);
/* The live progress line's "[idx/total, T left]": set before each combination. */
void ut_progress_set(int idx, int total, uint64_t after_ns);
/* Time since the running combination's threads started (0: none runs);
 * *stopping: its duration is over and the stop-time stall check passed. */
uint64_t ut_run_elapsed_ns(bool *stopping);

/* ---- the library's view (libstats.c) ---- */

/* Before the threads start: the handler, the stall timeout, the statistics. */
void ut_lib_begin(struct ut_run *run);
/* On the controller while the threads run (each control step): the upper
 * bound on completed so far; counts one gp_stats_mismatch the first time
 * it fails. */
void ut_lib_tick(struct ut_run *run);
/* After the drain: statistics, reports, checks into run->res (counts
 * gp_stats_mismatch errors); restores the handler and the timeout. */
void ut_lib_end(struct ut_run *run);
/* The watchdog's stall report: the reports so far, who they name, the
 * statistics now; also fills r->lib. */
void ut_lib_stall_section(struct ut_run *run, uint64_t now, struct ut_result *r);
/* "stuck 0", "controller" or "a thread urcutorture did not start". */
void ut_lib_thread_name(const struct ut_result *r, int tid, char *buf, size_t len);
/* The human report's lines and the JSON members of one result. */
void ut_lib_report(const struct ut_config *cfg, const struct ut_result *r);
void ut_lib_json(struct uj *j, const struct ut_result *r);
void ut_lib_free(struct ut_result *r);

/* ---- a batch: every run of one invocation (scenario.c) ---- */

/* Planned time per combination beyond its --duration (setup, join, drain). */
#define UT_COMBO_OVERHEAD_NS	500000000ull

/* One run: a plain command line, or one line of a scenario for one mode. */
struct ut_batch_run {
	struct ut_config cfg;		/* cfg.layouts: only default when the mode posts nothing */
	bool owns_cfg;			/* parsed for this run (a plain run shares the command line's) */
	struct ut_plan plans[UT_LAYOUT_COUNT];	/* one per cfg.layouts[] */
	int nplans;
	int ncombos;			/* cfg.nflavors x cfg.nlayouts */
	int line;			/* its scenario line, 0 for a plain run */
	int pass;			/* rotating scenarios: 1, 2, ...; else 1 */
	char **words;			/* its "--option" strings: cfg points into them */
	int nwords;
};

struct ut_batch {
	const struct ut_config *global;	/* the command line */
	bool is_scenario;
	char name[64];			/* scenario name */
	char file[512];			/* as named in messages: NAME.scn for a built-in */
	bool builtin;
	char description[256];
	uint64_t budget_ns;		/* 0: none */
	bool rotate;
	int passes;
	int nruns;
	struct ut_batch_run *runs;
	int ncombos;			/* all runs */
	uint64_t planned_ns;		/* durations x combinations + overhead */
	/* Filled in while running (main.c). */
	uint64_t t_start_ns;
	double elapsed_s;
	int stop_signal;		/* the signal that interrupted the run, 0 if none */
};

/*
 * Build the batch for the command line: a plain run, or every run of
 * --scenario (each parsed, durations from the scenario's budget, placement
 * plans built).  Returns 0, or an exit code after one line on stderr
 * ("urcutorture: FILE:LINE: problem" for a scenario's fault).
 */
int ut_batch_build(const struct ut_config *global, int argc, char **argv, struct ut_batch *b);
void ut_batch_release(struct ut_batch *b);
/* --dry-run: the runs, their combinations and placement plans. */
void ut_batch_print(const struct ut_batch *b);
/* --list-scenarios (stdout). */
int ut_scenarios_list(const struct ut_config *global, int argc, char **argv);
/* Planned time of one combination of a run. */
uint64_t ut_batch_combo_ns(const struct ut_batch_run *run);

/* ---- the invocation's state, and the one way a run ends ---- */

/*
 * What main has run so far.  The watchdog's stall exit and the crash
 * handler's texts (rendered before each combination) read it; main
 * publishes each finished result with a release store of ndone.
 */
struct ut_session {
	struct ut_batch *batch;
	struct ut_result *results;	/* batch->ncombos slots */
	int ndone;
	struct ut_compare *cmp;		/* --compare's baseline, NULL without */
};

/* Where the end of a run is written. */
struct ut_end_out {
	struct ut_sink sink;	/* the End-of-test line ("# " first under TAP) */
	FILE *tap;		/* the TAP lines, when sink.tap */
	FILE *json;		/* the JSON document, NULL: none */
};

/* The invocation's streams: the report's sink, stdout, --json's file. */
void ut_end_out_of(const struct ut_invocation *inv, struct ut_end_out *out);
/*
 * The end of a run, the same whoever ends it: main (after the last
 * combination, or a signal), the watchdog (a stall: then exit 2) and the
 * crash handler (which renders it ahead into memory, r[n - 1] being the
 * combination a crash would cut short).  In order: the comparison with the
 * baseline (cmp, unless interrupted; a regression turns SUCCESS into
 * REGRESSION), the TAP lines of an unfinished last combination and the
 * bail-out, the JSON document, the End-of-test line.  Returns the verdict.
 */
enum ut_verdict ut_report_finish(const struct ut_batch *b, const struct ut_result *r, int n,
				 enum ut_verdict v, struct ut_compare *cmp,
				 const struct ut_end_out *out);
int ut_exit_code(enum ut_verdict v);
/* The counters and the thread records of r, read from run's threads
 * (relaxed: the watchdog reads them while they run). */
void ut_result_from_threads(struct ut_run *run, struct ut_result *r);

/* ---- watchdog ---- */
void ut_watchdog_start(const struct ut_config *cfg);
void ut_watchdog_attach(struct ut_run *run);	/* NULL to detach */
/* After the report: the process's exit is watched, see watchdog.c. */
void ut_watchdog_exit_phase(void);
/* The ops table run->ops points to: ops with synchronize_rcu, rcu_barrier and
 * the polled cookies timed for the grace-period stall checks (into *buf). */
const struct ut_flavor_ops *ut_watchdog_wrap_ops(const struct ut_flavor_ops *ops,
						 struct ut_flavor_ops *buf);
/* At the end of the duration, before the threads are told to stop: report a
 * stall (exit 2) if a grace-period wait pending now reaches --stall-timeout;
 * wait_pending: let the workload run until the waits pending now end. */
void ut_watchdog_at_stop(struct ut_run *run, bool wait_pending);
/* The invocation's state, for the report a stall leaves behind. */
void ut_watchdog_session(struct ut_session *s);

/* ---- reports (report.c) ---- */
struct ut_compare;
/* TAP plan, the start line (one run's parameters, or the scenario), system line. */
void ut_report_start(const struct ut_batch *b);
/* A scenario's run i: its parameters line. */
void ut_report_run_start(const struct ut_batch *b, int i);
/* One combination; its run's parameters are r->cfg (the sink is the same). */
void ut_report_result(const struct ut_config *global, const struct ut_result *r);
void ut_report_matrix(const struct ut_batch *b, const struct ut_result *r, int n);
/* TAP: "ok N - ..." / "not ok N - ..." of r[idx], when the run writes TAP. */
void ut_report_tap(const struct ut_config *cfg, const struct ut_result *r, int idx);
/* The JSON document (schema urcutorture/2) to f; cmp: the --compare section or NULL. */
void ut_report_json(const struct ut_batch *b, const struct ut_result *r, int n,
		    enum ut_verdict verdict, int exit_code, FILE *f, const struct ut_compare *cmp);
/* The key of r[i] (JSON "key", --compare's match): "MODE FLAVOR/LAYOUT
 * pin=R/U/W[ async]", with " #k" for its k-th occurrence in r[0..i]. */
void ut_result_key(const struct ut_result *r, int i, char *buf, size_t len);
/* --read-delay as the start line shows it: "random" (0: short lingering
 * sections) or a duration (opts.c). */
void ut_read_delay_text(const struct ut_config *cfg, char *buf, size_t len);
/* Library description for the report. */
const char *ut_library_name(void);
const char *ut_library_version(void);
int ut_membarrier_query(void);	/* command mask, -1 unavailable */

#endif /* UT_H */
