/* SPDX-License-Identifier: MIT */
/*
 * urcutorture: declarations shared by the tool's compilation units.
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

#include <urcu/call-rcu.h>	/* struct rcu_head, struct call_rcu_data, flags */

#include "common.h"
#include "histogram.h"
#include "placement.h"

/* ---- flavor operations ---- */

struct rcu_flavor_struct;

/* One call_rcu worker as seen by the library's observability extension. */
struct ut_lib_worker_stat {
	unsigned long long queued, invoked, grace_periods;
	unsigned long backlog, max_backlog;
	int cpu_affinity;
	unsigned long flags;
	pthread_t thread;
};

/*
 * The library's grace-period statistics (<urcu/gp-stats.h>, struct
 * urcu_gp_stats), copied field by field by flavor-ops.c.
 */
#define UT_GP_HIST	64
struct ut_gp_stats {
	uint64_t completed;		/* grace periods ended */
	uint64_t waiters;		/* threads in synchronize_rcu now */
	uint64_t wait_ns_total;		/* sum of the durations of those grace periods */
	uint64_t wait_ns_max;		/* the longest of them */
	uint64_t current_age_ns;	/* age of the grace period in flight, 0 if none */
	uint64_t holdouts;		/* readers the one in flight waits for now */
	uint64_t stalls_reported;	/* stall reports (not counting "ended" lines) */
	uint64_t misuse_events;		/* process-wide (urcu_misuse_events) */
	int nhist;			/* buckets the library has (URCU_GP_STATS_HIST) */
	uint64_t hist[UT_GP_HIST];	/* [2^i, 2^(i+1)) ns; the last, all longer */
};

struct ut_flavor_ops {
	const char *name;
	bool is_qsbr;		/* readers must report quiescent states */
	bool is_busted;		/* deliberately broken (detector self-test) */

	void (*register_thread)(void);
	void (*unregister_thread)(void);
	void (*read_lock)(void);
	void (*read_unlock)(void);
	void (*quiescent_state)(void);
	void (*thread_offline)(void);
	void (*thread_online)(void);

	void (*synchronize_rcu)(void);
	void (*call_rcu)(struct rcu_head *head, void (*func)(struct rcu_head *head));
	void (*barrier)(void);

	void (*defer_rcu)(void (*fct)(void *p), void *p);
	int (*defer_register_thread)(void);
	void (*defer_unregister_thread)(void);

	struct call_rcu_data *(*create_call_rcu_data)(unsigned long flags, int cpu_affinity);
	void (*set_thread_call_rcu_data)(struct call_rcu_data *crdp);
	int (*create_all_cpu_call_rcu_data)(unsigned long flags);
	void (*free_all_cpu_call_rcu_data)(void);
	void (*call_rcu_data_free)(struct call_rcu_data *crdp);
	struct call_rcu_data *(*get_default_call_rcu_data)(void);
	struct call_rcu_data *(*get_cpu_call_rcu_data)(int cpu);
	struct call_rcu_data *(*get_call_rcu_data)(void);
	pthread_t (*get_call_rcu_thread)(struct call_rcu_data *crdp);

	/* Polled grace periods; NULL when the library lacks them. */
	unsigned long (*start_poll)(void);
	bool (*poll_state)(unsigned long cookie);

	/* Observability extension; NULL when the library lacks it. */
	int (*call_rcu_stats)(struct ut_lib_worker_stat *out, int max);

	/*
	 * Grace-period statistics and stall reports (<urcu/gp-stats.h>, this
	 * project's library only): urcu_<flavor>_gp_stats,
	 * urcu_<flavor>_set_stall_timeout and urcu_set_stall_handler.  NULL
	 * when the library lacks them, and in flavors whose synchronize_rcu is
	 * not the library's (busted, busted-hang, busted-freeze, busted-early).
	 * lib_flavor: the flavor's name in the library's reports ("memb" of
	 * "urcu_memb"), also for the flavors built on another one.
	 */
	int (*gp_stats)(struct ut_gp_stats *out);
	int (*set_stall_timeout)(double seconds);
	void (*set_stall_handler)(void (*fn)(const char *report, void *arg), void *arg);
	const char *lib_flavor;

	/*
	 * read-cost inner loop, compiled in the flavor's unit so the read-side
	 * primitives are inlined: n times {read_lock; rcu_dereference(*pp);
	 * read_unlock}, then one quiescent state for qsbr.  Returns a value
	 * derived from the loads so they cannot be optimised away.
	 */
	unsigned long (*read_batch)(unsigned long n, void **pp);

	/* The flavor object the cds structures take (cds_lfht_new_flavor; its
	 * update_call_rcu for rculfqueue).  busted keeps its base flavor's real
	 * one, so only the mode's own reclamation is broken, not the table's. */
	const struct rcu_flavor_struct *rcu_flavor;
};

/* Flavors compiled into this binary, NULL-terminated; busted is separate. */
extern const struct ut_flavor_ops *const ut_flavors[];

/* The flavor registry (flavors.c): every name --flavor accepts. */
enum ut_flavor_kind { UT_KIND_REAL, UT_KIND_BUSTED, UT_KIND_SEEDED };

struct ut_flavor_entry {
	const char *name;
	enum ut_flavor_kind kind;
	/* seeded: the flavor whose engine its module is built from; NULL:
	 * real, or busted (whose base is ut_flavor_base()). */
	const char *base;
	/* The table for name, NULL when not built into this binary. */
	const struct ut_flavor_ops *(*get)(const char *name);
	/* --help (wrapped there) and --list-flavors: one line. */
	const char *help;
};
extern const struct ut_flavor_entry ut_flavor_registry[];	/* name NULL ends it */
const struct ut_flavor_entry *ut_flavor_entry_find(const char *name);
const char *ut_flavor_kind_name(enum ut_flavor_kind kind);
/* The table of a registered name, NULL when unknown or not built in. */
const struct ut_flavor_ops *ut_flavor_find(const char *name);
/* The base of the busted flavors, NULL when none of its candidates is built. */
const struct ut_flavor_ops *ut_flavor_base(void);
const struct ut_flavor_ops *ut_busted_ops(const char *name);
const struct ut_flavor_ops *ut_busted_hang_ops(const char *name);
/* busted-freeze (freeze.c): grace periods stop ~1 s into a run until it stops. */
const struct ut_flavor_ops *ut_busted_freeze_ops(const char *name);
/* busted-stats (libstats.c): real grace periods, statistics that never count them. */
const struct ut_flavor_ops *ut_busted_stats_ops(const char *name);

/* ---- configuration ---- */

struct ut_mode_ops;

#define UT_MAX_FLAVORS	8
#define UT_MAX_PIPE	64

struct ut_config {
	const struct ut_mode_ops *mode;	/* an entry of ut_modes[] */
	const struct ut_flavor_ops *flavors[UT_MAX_FLAVORS];
	int nflavors;
	enum ut_layout layouts[UT_LAYOUT_COUNT];
	int nlayouts;

	int readers;		/* -1 until defaulted */
	int updaters;
	int fake_updaters;
	int enqueuers;
	double rate;		/* callbacks/s per enqueuer, 0 = unpaced */
	unsigned long max_outstanding;
	unsigned long batch;	/* barrier: callbacks per thread per round */
	unsigned long launder;	/* flood: re-posts per callback */
	int pipe_len;
	int runs;		/* read-cost repetitions */
	bool async;		/* gp-latency through call_rcu */

	uint64_t duration_ns;	/* per combination */
	uint64_t stat_interval_ns;
	uint64_t stall_timeout_ns;	/* given, or derived by ut_config_derive_stall */
	bool stall_timeout_given;	/* --stall-timeout was on the command line / run line */
	uint64_t read_delay_ns;	/* reader critical-section length; 0 = random short */
	uint64_t update_delay_ns;
	/* --lib-stall-timeout: the library's stall timeout for every combination
	 * (urcu_<flavor>_set_stall_timeout); -1: the library's own default. */
	int64_t lib_stall_timeout_ns;
	uint64_t stuck_for_ns;	/* --stuck-for: how long the stall mode's reader holds on */

	uint64_t seed;

	const char *topology_spec;
	const char *pin_text[UT_ROLE_COUNT];
	struct ut_topology *topo;
	bool topo_shared;	/* the command line's (a scenario's run): not freed here */
	struct ut_pin_policy pin[UT_ROLE_COUNT];

	const char *json_path;
	FILE *json;
	struct ut_sink sink;	/* the human report (--tap turns it into comments) */
	bool dry_run;
	bool quiet;

	/* Command line only (a scenario's runs copy them from it). */
	const char *scenario;		/* --scenario=NAME|FILE, NULL for a plain run */
	bool list_scenarios;		/* --list-scenarios */
	const char *compare_path;	/* --compare=OLD.json */
	double regress_threshold;	/* --regress-threshold, as a fraction (0.5 = 50 %) */
	const char *from_report;	/* --from-report=NEW.json: compare it, run nothing */
	bool duration_given;		/* --duration was on the command line / run line */
	bool seed_given;
	bool mode_given;		/* --mode was given */
	/* A run of a scenario: its rank (0 for a plain run) and its label. */
	int run_index;
	char run_label[160];

	int argc;
	char **argv;
	int ncpus;		/* online CPUs of this machine */
	int plan_cpus;		/* CPUs of the planned topology (--topology) */
};

/* Parse argv into cfg; on error prints one line and returns UT_EXIT_USAGE.
 * Returns -1 when the run should go on, or an exit code (help, version,
 * --list-modes, --self-check-modes). */
int ut_parse_options(int argc, char **argv, struct ut_config *cfg);
/*
 * One run of a scenario: argv holds the run's options then the command
 * line's workload options (the latter win); the command line's output and
 * scenario options (global) are skipped, its sink and JSON file shared.
 * An error is one line "urcutorture: WHERE: problem" (WHERE is "FILE:LINE"),
 * returning UT_EXIT_USAGE (or UT_EXIT_SKIP for a flavor not built in).
 */
int ut_parse_run_options(int argc, char **argv, const struct ut_config *global,
			 const char *where, struct ut_config *cfg);
/* Open --json=FILE (after every other check; 0 or UT_EXIT_USAGE). */
int ut_config_open_json(struct ut_config *cfg);
/* Without --stall-timeout: derive it from the duration, delays and threads
 * (again whenever a scenario changes the duration). */
void ut_config_derive_stall(struct ut_config *cfg);
/* Free what parsing allocated (topology, policies) and close the JSON file. */
void ut_config_release(struct ut_config *cfg);

/* ---- time and randomness ---- */

uint64_t ut_now_ns(void);
void ut_sleep_ns(uint64_t ns);
void ut_spin_ns(uint64_t ns);
/* Parse "10s", "5m", "2h", "250ms", "40us", "100ns" or plain seconds. */
int ut_parse_duration(const char *text, uint64_t *out_ns);
void ut_format_duration(uint64_t ns, char *buf, size_t len);
/* A span for people, to the second: "47s", "3m05s", "1h02m". */
/* A measured duration for people: 2.35ms, 41.2us (report tables, gp-stats lines). */
void ut_format_ns(uint64_t ns, char *buf, size_t len);
void ut_format_span(uint64_t ns, char *buf, size_t len);

struct ut_rng {
	uint64_t s;
};
void ut_rng_seed(struct ut_rng *r, uint64_t seed, uint64_t stream);
uint64_t ut_rng_next(struct ut_rng *r);
static inline uint64_t ut_rng_below(struct ut_rng *r, uint64_t n)
{
	return n ? ut_rng_next(r) % n : 0;
}

/* ---- histograms: histogram.h (log-linear, 32 sub-buckets per power of two) ---- */

/* ---- per-combination results ---- */

/* Error counters a mode may add to the common ones (ut_mode_ops.errors). */
#define UT_MODE_MAX_ERRORS	8

#define UT_MAX_WORKERS	256

struct ut_worker_result {
	char label[32];
	pthread_t thread;
	int cpu_affinity;	/* requested, -1 none */
	int cpu_seen;		/* CPU last seen running a callback, -1 unknown */
	uint64_t queued;	/* callbacks this tool routed to the worker */
	uint64_t invoked;
	uint64_t max_backlog;	/* measured by the tool */
	double cpu_time_s;	/* -1 unknown */
	bool lib_stats;		/* the library's figures below are valid */
	uint64_t grace_periods;	/* waited during this combination */
	uint64_t lib_invoked;	/* invoked during this combination, library's count */
	uint64_t lib_max_backlog; /* since the worker started (may predate the run) */
	struct ut_hist *lat;	/* enqueue -> invoke, ns */
};

/* Where one thread was meant to run and where it was seen. */
struct ut_thread_result {
	const char *kind;	/* the mode's role name */
	int idx;
	int ktid;		/* kernel thread id (gettid), 0 if it never started */
	int cpu_planned;	/* -1 unpinned */
	int node;		/* planned NUMA node, -1 unknown */
	int cpu_start;		/* after pinning */
	int cpu_end;		/* when it finished */
};

struct ut_result {
	const struct ut_config *cfg;	/* the run (of a scenario) it belongs to */
	const struct ut_flavor_ops *flavor;
	enum ut_layout layout;
	const struct ut_mode_ops *mode;
	enum ut_verdict verdict;
	double seconds;

	uint64_t reads;
	uint64_t updates;
	uint64_t grace_periods;
	uint64_t cb_posted;
	uint64_t cb_invoked;
	uint64_t max_backlog;
	uint64_t barriers;
	double drain_s;		/* time for the callback backlog to drain */

	uint64_t errors[UT_ERR_COUNT];
	uint64_t mode_errors[UT_MODE_MAX_ERRORS];	/* named by mode->errors */
	uint64_t pin_mismatches;
	uint64_t threads_pinned;

	struct ut_hist gp_lat;	/* GP, async GP, or rcu_barrier latency */
	const char *gp_lat_what;
	struct ut_hist cb_lat;	/* enqueue -> invoke */

	int nworkers;
	struct ut_worker_result *workers;
	int nthreads;
	struct ut_thread_result *threads;
	char note[160];

	/* mode->result_size zeroed bytes: the mode's own figures (its finish
	 * hook fills them, its report hooks print them).  Freed with the result. */
	void *mode_data;
	/* The library's own view of the combination (libstats.c): its
	 * grace-period statistics, its stall reports, and the checks of both
	 * against what urcutorture measured.  NULL for a flavor without them.
	 * Freed with the result. */
	struct ut_libview *lib;
};

/* ---- the library's view: statistics and stall reports (libstats.c) ---- */

#define UT_LIB_REPORTS	32	/* reports kept per combination (more are counted) */
#define UT_LIB_TEXT	3072	/* of each report's text (a longer one is cut) */
#define UT_LIB_TIDS	8	/* holdouts kept per report (more are counted) */

/* One text the library handed to urcu_set_stall_handler. */
struct ut_lib_report {
	uint64_t at_ns;		/* when the handler got it (ut_now_ns) */
	bool ended;		/* a "stall ended" line, not a report */
	bool truncated;		/* text cut at UT_LIB_TEXT */
	unsigned long gp;	/* the grace period's number */
	char flavor[16];	/* "memb" of "urcu_memb" */
	int ntids;		/* holdouts named in it */
	int tid[UT_LIB_TIDS];	/* their kernel thread ids */
	char name[UT_LIB_TIDS][20];	/* their thread names */
	char what[UT_LIB_TIDS][96];	/* what the library says each one does */
	char text[UT_LIB_TEXT];
};

#define UT_LIB_CHECKS	6

struct ut_lib_check {
	const char *name;	/* "completed", "wait_ns_max", "histogram", "stall_reports" */
	bool ok;
	char detail[320];
};

struct ut_libview {
	bool stats;			/* gp_stats: before and after are valid */
	bool settled;			/* both readings settled (the histogram check ran) */
	bool at_stall;			/* the watchdog's: after is the state at the stall */
	struct ut_gp_stats before, after;	/* around the combination */
	int64_t stall_timeout_ns;	/* set for the combination; -1: the library's default */
	uint64_t t0_ns;			/* the combination's start (report times are after it) */
	int controller_tid;		/* the thread that ran the combination */
	/* urcutorture's side of the checks */
	uint64_t distinct_gps;		/* grace periods it saw end (a lower bound) */
	uint64_t sync_calls;		/* synchronize_rcu calls that returned */
	uint64_t sync_max_ns;		/* the longest, 0 if none timed */
	/* stall reports */
	bool handler;			/* urcutorture's handler received them */
	int captured;			/* texts the handler got (reports and ended lines) */
	int flavor_reports;		/* of them, stall reports of this flavor */
	int nreports;			/* kept in reports[] */
	struct ut_lib_report *reports;
	int nchecks;
	struct ut_lib_check checks[UT_LIB_CHECKS];
};

static inline uint64_t ut_result_errors(const struct ut_result *r)
{
	return ut_errors_total(r->errors, UT_ERR_COUNT) +
	       ut_errors_total(r->mode_errors, UT_MODE_MAX_ERRORS);
}

/* ---- run context (run.c) ---- */

/* Per-thread record, visible to the watchdog and the stat lines. */
struct ut_thread {
	struct ut_run *run;
	int role;			/* index into run->mode->roles[] */
	int idx;			/* rank among the threads of its role */
	int cpu_planned;
	int node;
	int cpu_seen;
	int cpu_start;
	pthread_t tid;
	bool started;
	bool posts;			/* calls call_rcu: gets its own worker in per-thread layouts */
	const char *state;		/* relaxed; for the stall report */
	uint64_t progress;		/* relaxed */
	uint64_t state_since_ns;
	int ktid;			/* kernel thread id, set by ut_thread_begin (relaxed) */
	struct ut_rng rng;
	struct call_rcu_data *own_crdp;	/* per-thread / rt layouts */
	int own_worker;
	/* counters, written by the owner with relaxed stores (ut_count) */
	uint64_t reads;
	uint64_t updates;
	uint64_t gps;
	uint64_t posted;
	uint64_t barriers;
	uint64_t errors[UT_ERR_COUNT];
	uint64_t mode_errors[UT_MODE_MAX_ERRORS];
	struct ut_hist *lat;		/* GP / barrier latency; NULL for readers */
	/* mode->thread_size zeroed bytes: the mode's own per-thread counters. */
	void *mode_data;
};

/* One call_rcu worker known to the run (see layout.c). */
struct ut_worker {
	char label[32];
	struct call_rcu_data *crdp;	/* NULL for dynamic slots */
	pthread_t thread;
	bool thread_known;
	int cpu_affinity;
	int cpu_seen;
	uint64_t queued;	/* atomic */
	uint64_t invoked;	/* written by the worker thread only */
	uint64_t max_backlog;	/* atomic max */
	double cpu_start_s;
	struct ut_hist lat;
};

struct ut_run {
	const struct ut_config *cfg;
	const struct ut_flavor_ops *ops;
	const struct ut_mode_ops *mode;
	enum ut_layout layout;
	bool uses_layout;		/* the mode posts callbacks: set the layout up */
	struct ut_plan *plan;
	struct ut_result *res;

	int stop;			/* set by the controller */
	uint64_t t_start_ns;

	int nthreads;
	struct ut_thread *threads;

	/* call_rcu workers */
	pthread_mutex_t workers_lock;
	int nworkers;			/* atomic, grows with dynamic slots */
	struct ut_worker workers[UT_MAX_WORKERS];
	unsigned int generation;

	/* global callback accounting (atomics) */
	uint64_t cb_posted;
	uint64_t cb_invoked;
	uint64_t cb_errors[UT_ERR_COUNT];
	uint64_t outstanding_max;

	void *mode_data;		/* the mode's run-wide state; free()d by run.c */
	int pin_failed;			/* atomic */
	char pin_error[160];
	uint64_t phase;			/* bumped by the controller; watchdog progress */
	/* Library worker statistics when the layout was set up (for deltas). */
	struct ut_lib_worker_stat *lib_start;
	int nlib_start;
	/* Grace periods urcutorture saw end (ut_gp_witness, atomics). */
	uint64_t gp_last_end;
	uint64_t gp_distinct;
};

static inline bool ut_should_stop(const struct ut_run *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_RELAXED);
}
static inline void ut_count(uint64_t *c, uint64_t n)
{
	/* Single writer; relaxed so stat lines may read it concurrently. */
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}
static inline uint64_t ut_read(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

/* ---- modes ---- */

#define UT_MODE_MAX_ROLES	4

/* One kind of thread a mode starts. */
struct ut_mode_role {
	const char *name;	/* "reader", "updater", ...: reports, JSON "role", stall report */
	enum ut_role place;	/* placement role: which --pin-* policy and plan slots it takes */
	bool reader;		/* read side: no latency histogram, and the watchdog
				 * follows it only when the mode runs no other role */
};

/* Where the report gives a mode its own lines / JSON members. */
enum ut_section {
	UT_SECTION_COUNTS,	/* after the read, update and grace-period counts */
	UT_SECTION_CALLBACKS,	/* with the call_rcu figures (JSON: in "callbacks") */
	UT_SECTION_CHECKS,	/* after the callback figures, before the errors */
};

/* Which mode-dependent options the command line set itself. */
struct ut_given {
	bool readers;
	bool enqueuers;
	bool max_outstanding;
	bool lib_stall_timeout;
	bool stuck_for;
};

struct uj;

/*
 * A mode: one workload with its threads, its checks and its report
 * sections, all in its mode-NAME.c behind this one table.
 *
 * How to add a mode:
 *  1. Write mode-NAME.c defining `const struct ut_mode_ops ut_mode_NAME`.
 *     Mandatory: name, help, roles + nroles, count, thread_fn, stat_line
 *     (`urcutorture --self-check-modes` verifies them); the rest may be
 *     NULL / 0.
 *  2. Add X(NAME) to UT_MODE_LIST in modes.c (that order is --help's and
 *     --list-modes'; the first entry is the default mode).
 *  3. Add mode-NAME.c to the urcutorture sources in tools/meson.build.
 * The mode's roles and their counts, its per-thread counters
 * (thread_size), its result figures (result_size), its own error kinds
 * (errors), its option defaults and checks (configure) and its report and
 * JSON sections (report, json) all live here: run.c, report.c, json.c and
 * options.c do not change.  See docs/TORTURE.md, "How to add a mode".
 */
struct ut_mode_ops {
	const char *name;		/* --mode=NAME, reports, JSON "mode" */
	/* --help text: "NAME: what it does", further lines start with two
	 * spaces; lines end with '\n' except the last. */
	const char *help;

	/* ---- threads ---- */
	const struct ut_mode_role *roles;	/* threads start in this order */
	int nroles;				/* 1..UT_MODE_MAX_ROLES */
	/* n[i]: threads of roles[i] under cfg; posts[i]: they call call_rcu
	 * (each gets its own worker in the per-thread and rt layouts).  A mode
	 * none of whose threads posts has no call_rcu layout to vary. */
	void (*count)(const struct ut_config *cfg, int n[], bool posts[]);
	size_t thread_size;		/* zeroed ut_thread.mode_data per thread */
	size_t result_size;		/* zeroed ut_result.mode_data */
	/* NULL-terminated names of ut_thread.mode_errors[i] (at most
	 * UT_MODE_MAX_ERRORS); they count like the common errors. */
	const char *const *errors;

	/* ---- options ---- */
	/* Mode defaults and checks after parsing: set what the user did not
	 * give (cfg->readers is -1 then), return 0, or -1 with a one-line
	 * message "--option: why" in err (exit 64).  Unset fields fall back to
	 * one reader per CPU and --max-outstanding 10000. */
	int (*configure)(struct ut_config *cfg, const struct ut_given *given,
			 char *err, size_t len);
	bool takes_async;		/* accepts --async */
	bool takes_stuck_for;		/* accepts --stuck-for (it stalls grace periods on purpose) */
	/* Its detectors are its readers: with --readers=0 the run checks no
	 * grace period, and main says so on stderr. */
	bool readers_check;

	/* ---- one combination (run.c) ---- */
	int (*setup)(struct ut_run *run);		/* after threads[] exist, before they start */
	void *(*thread_fn)(void *arg);			/* arg: struct ut_thread * */
	void (*between)(struct ut_run *run, uint64_t elapsed_ns); /* controller tick */
	/* After join and drain: fold thread counters into res->mode_data, set
	 * res->gp_lat_what, count errors found at the end. */
	void (*finish)(struct ut_run *run);
	void (*stat_line)(struct ut_run *run, char *buf, size_t len);

	/* ---- report (report.c calls these; r->mode_data may be all zero
	 * when a stall cut the combination short) ---- */
	double (*ns_per_read)(const struct ut_result *r);	/* NULL: wall time / reads */
	bool updates_include_gps;	/* comparison table: updates/s counts grace periods */
	void (*report)(const struct ut_config *cfg, const struct ut_result *r, enum ut_section at);
	void (*json)(struct uj *j, const struct ut_config *cfg, const struct ut_result *r,
		     enum ut_section at);
};

/* The registry (modes.c): every mode, NULL-terminated; [0] is the default. */
extern const struct ut_mode_ops *const ut_modes[];
const struct ut_mode_ops *ut_mode_find(const char *name);
/* Check one table for its mandatory hooks; 0, or -1 with the first gap in err. */
int ut_mode_check(const struct ut_mode_ops *m, char *err, size_t len);

/* threads.c: the mode's roles -> thread counts, plan sizes, threads[]. */
void ut_mode_counts(const struct ut_config *cfg, int n[UT_MODE_MAX_ROLES],
		    bool posts[UT_MODE_MAX_ROLES]);
bool ut_mode_uses_layout(const struct ut_config *cfg);
/* Count of threads per placement role for a mode/layout (plan sizes). */
void ut_role_counts(const struct ut_config *cfg, enum ut_layout layout, int n[UT_ROLE_COUNT]);
/* Allocate run->threads for run->mode, placed after run->plan. */
int ut_threads_alloc(struct ut_run *run);
const char *ut_thread_role_name(const struct ut_thread *t);
int ut_thread_begin(struct ut_thread *t);		/* pin + register */
void ut_thread_end(struct ut_thread *t);
void ut_thread_set_state(struct ut_thread *t, const char *state);

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
int ut_run_one(const struct ut_config *cfg, const struct ut_flavor_ops *ops,
	       enum ut_layout layout, struct ut_plan *plan, struct ut_result *res);
void ut_result_free(struct ut_result *res);
/* The live progress line's "[idx/total, T left]": set before each combination. */
void ut_progress_set(int idx, int total, uint64_t after_ns);
/* Time since the running combination's threads started (0: none runs);
 * *stopping: its duration is over and the stop-time stall check passed. */
uint64_t ut_run_elapsed_ns(bool *stopping);
/*
 * A synchronize_rcu call that began at t0 (read before the call) and
 * returned at t1 (read after it): it contains one whole grace period of the
 * library.  Calls that do not overlap contain different ones, so the run
 * counts a set of pairwise disjoint calls (run->gp_distinct): a lower bound
 * on the grace periods that ended, checked against the library's count.
 */
void ut_gp_witness(struct ut_run *run, uint64_t t0, uint64_t t1);

/* ---- the library's view (libstats.c) ---- */

/* Before the threads start: the handler, the stall timeout, the statistics. */
void ut_lib_begin(struct ut_run *run);
/* After the drain: statistics, reports, checks into run->res (counts
 * gp_stats_mismatch errors); restores the handler and the timeout. */
void ut_lib_end(struct ut_run *run);
/* Texts the handler got in this combination, and a copy of the i-th kept. */
int ut_lib_captured(void);
bool ut_lib_report_get(int i, struct ut_lib_report *out);
/* The library's default stall timeout: URCU_STALL_TIMEOUT, else 21 s. */
uint64_t ut_lib_default_timeout_ns(void);
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

/* ---- watchdog ---- */
void ut_watchdog_start(const struct ut_config *cfg);
void ut_watchdog_attach(struct ut_run *run);	/* NULL to detach */
void ut_watchdog_stop(void);
/* The ops table run->ops points to: ops with synchronize_rcu, rcu_barrier and
 * the polled cookies timed for the grace-period stall checks (into *buf). */
const struct ut_flavor_ops *ut_watchdog_wrap_ops(const struct ut_flavor_ops *ops,
						 struct ut_flavor_ops *buf);
/* At the end of the duration, before the threads are told to stop: report a
 * stall (exit 2) if a grace-period wait pending now reaches --stall-timeout;
 * wait_pending: let the workload run until the waits pending now end. */
void ut_watchdog_at_stop(struct ut_run *run, bool wait_pending);
/* The batch and its finished combinations, for the report a stall leaves behind. */
void ut_watchdog_results(struct ut_batch *b, const struct ut_result *done, const int *ndone);

/* ---- reports (report.c) ---- */
struct ut_compare;
/* TAP plan, the start line (one run's parameters, or the scenario), system line. */
void ut_report_start(const struct ut_batch *b);
/* A scenario's run i: its parameters line. */
void ut_report_run_start(const struct ut_batch *b, int i);
/* One combination; its run's parameters are r->cfg (the sink is the same). */
void ut_report_result(const struct ut_config *global, const struct ut_result *r);
void ut_report_matrix(const struct ut_batch *b, const struct ut_result *r, int n);
void ut_report_tap(const struct ut_config *cfg, const struct ut_result *r, int n, int idx);
/* The JSON document (schema urcutorture/2) to f; cmp: the --compare section or NULL. */
void ut_report_json(const struct ut_batch *b, const struct ut_result *r, int n,
		    enum ut_verdict verdict, int exit_code, FILE *f, const struct ut_compare *cmp);
void ut_report_end(const struct ut_batch *b, enum ut_verdict v, const struct ut_result *r, int n);
/* The key of r[i] (JSON "key", --compare's match): "MODE FLAVOR/LAYOUT
 * pin=R/U/W[ async]", with " #k" for its k-th occurrence in r[0..i]. */
void ut_result_key(const struct ut_result *r, int i, char *buf, size_t len);
/* Library description for the report. */
const char *ut_library_name(void);
const char *ut_library_version(void);
int ut_membarrier_query(void);	/* command mask, -1 unavailable */

#endif /* UT_H */
