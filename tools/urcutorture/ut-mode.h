/* SPDX-License-Identifier: MIT */
/*
 * The mode interface: everything a mode-NAME.c file needs and nothing
 * else (ut.h adds the run machinery, the batch, the watchdog and the
 * reports for the tool's other units).  A mode sees the configuration, its
 * run and its threads, the result it fills, the flavor it drives
 * (ut-flavor.h), the helpers below, and defines one struct ut_mode_ops.
 */
#ifndef UT_MODE_H
#define UT_MODE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "histogram.h"
#include "placement.h"
#include "ut-flavor.h"
#include "ut-util.h"

/* ---- configuration ---- */

struct ut_mode_ops;
struct ut_config;
struct uj;

#define UT_MAX_FLAVORS	8
#define UT_MAX_PIPE	64

/* Options all modes together may declare (ut_mode_ops.opts). */
#define UT_MAX_MODE_OPTS	32
/* Entries of the run-scope option table (opts.c). */
#define UT_MAX_RUN_OPTS		32

/*
 * Options.  Every option is one line of one table, a struct ut_opt: the
 * invocation's (ut_invocation_opts: output, scenario, baseline, seed, and
 * the informational options), the run's (ut_run_opts: what runs, how long,
 * where), and each mode's own (ut_mode_ops.opts).  From the tables come
 * getopt's option list, --help, the defaults, the start line and the JSON
 * parameters (options.c parses and prints help; opts.c holds the common
 * tables and renders a run's parameters).  Adding an option to a mode is
 * one line of its table, plus the man page and a test.
 */
enum ut_opt_type {
	UT_OPT_COUNT,	/* --NAME=N, an integer in lo..hi */
	UT_OPT_RATE,	/* --NAME=N per second, an integer in lo..hi (JSON: a number) */
	UT_OPT_DUR,	/* --NAME=DUR, 0 allowed (start line: a duration; JSON: ns) */
	UT_OPT_DUR_NZ,	/* --NAME=DUR, greater than zero */
	UT_OPT_FLAG,	/* --NAME, no value: 0 or 1 (JSON: a boolean) */
	UT_OPT_STRING,	/* --NAME=TEXT, not empty (a file or scenario name) */
	UT_OPT_LIST,	/* --NAME=A,B,...: kept as text, checked after the scan */
	UT_OPT_INFO,	/* --NAME: prints something (its parse hook) and ends the parse */
	UT_OPT_MODE_OPTS,	/* ut_run_opts: where the modes' options go (help, line, JSON) */
};

/* What the option adds to the derived --stall-timeout. */
enum ut_opt_stall {
	UT_OPT_STALL_NONE,
	UT_OPT_STALL_PAUSE,	/* 2 x its duration: a thread sleeps that long */
	UT_OPT_STALL_PERIOD,	/* 2 / its rate: a thread waits one period */
};

/* ut_opt.flags */
#define UT_OPTF_OWNER_ONLY	0x01	/* mode option: a usage error with a mode not declaring it;
					 * 0 (or no text) in the runs of other modes */
#define UT_OPTF_IN_KEY		0x02	/* mode flag: " NAME" in the combination's key when set */
#define UT_OPTF_NO_LINE		0x04	/* not on the start line */
#define UT_OPTF_UNSET		0x08	/* all ones = unset (e.g. the library's default):
					 * left off the start line, JSON null */
#define UT_OPTF_HIDDEN		0x10	/* not in --help (a test hook) */
#define UT_OPTF_NO_DEF		0x20	/* --help states no default (or its help says it) */

struct ut_opt {
	const char *name;	/* --NAME, start line NAME=; NULL ends a table */
	enum ut_opt_type type;
	uint64_t lo, hi;	/* range of a count or rate */
	uint64_t def;		/* default of a number, duration or flag */
	const char *def_text;	/* default of a string or list; for a number whose
				 * default depends on more, that rule (--help) */
	const char *json;	/* key among the JSON parameters; NULL: none */
	unsigned int flags;	/* UT_OPTF_* */
	enum ut_opt_stall stall;
	const char *section;	/* --help: a heading printed before this entry */
	const char *value;	/* --help's placeholder: "LIST", "POLICY" (default: N, DUR) */
	const char *help;	/* one paragraph, wrapped by --help */
	/* Invocation and run scopes: the value's field, UT_FIELD(type, member). */
	size_t off, size;
	/* Stores a value that needs more than its type's check: 0, or an exit
	 * status after one line (usage_error).  dst: the scope's struct.  An
	 * UT_OPT_INFO option's hook prints and returns the exit status. */
	int (*parse)(const struct ut_opt *o, const char *text, void *dst);
	/* Start line "NAME=TEXT" / JSON member, when the type's is not enough. */
	void (*show)(const struct ut_config *cfg, char *buf, size_t len);
	void (*json_out)(struct uj *j, const struct ut_opt *o, const struct ut_config *cfg);
	void (*help_list)(void);	/* --help: the choices, under its entry */
	const char *conflicts;	/* invocation: an option it cannot go with (a usage error) */
};

#define UT_FIELD(type, member)	\
	.off = offsetof(type, member), .size = sizeof(((type *)0)->member)

/*
 * The invocation: what the command line sets once for all its runs (the
 * output, the scenario, the baseline, the seed base, the dry run).  A
 * scenario's runs point to the same one.
 */
struct ut_invocation {
	int argc;
	char **argv;
	int ncpus;			/* online CPUs of this machine */
	struct ut_sink sink;		/* the human report (--tap turns it into comments) */
	const char *json_path;
	FILE *json;
	bool dry_run;
	bool quiet;
	const char *scenario;		/* --scenario=NAME|FILE, NULL for a plain run */
	bool list_scenarios;
	const char *compare_path;	/* --compare=OLD.json */
	double regress_threshold;	/* --regress-threshold, as a fraction (0.5 = 50 %) */
	const char *from_report;	/* --from-report=NEW.json: compare it, run nothing */
	uint64_t seed;			/* --seed, or made from the time; run k uses seed + k */
	bool seed_given;
};

/* One run's configuration: the command line's, or one line of a scenario. */
struct ut_config {
	const struct ut_invocation *inv;
	const struct ut_mode_ops *mode;	/* an entry of ut_modes[] */
	const char *mode_text, *flavor_text, *layout_text;	/* as given */
	const struct ut_flavor_ops *flavors[UT_MAX_FLAVORS];
	int nflavors;
	enum ut_layout layouts[UT_LAYOUT_COUNT];
	int nlayouts;

	int readers;		/* -1 until defaulted */
	int updaters;
	int enqueuers;
	uint64_t max_outstanding;
	/* The options the modes declare, for every registered mode, by
	 * ut_mode_opt_index(): read with ut_opt() (texts: ut_opt_text()). */
	uint64_t opt[UT_MAX_MODE_OPTS];
	const char *opt_text[UT_MAX_MODE_OPTS];
	bool opt_given[UT_MAX_MODE_OPTS];
	/* Which entries of ut_run_opts the command line / run line set. */
	bool given[UT_MAX_RUN_OPTS];

	uint64_t duration_ns;	/* per combination */
	uint64_t stat_interval_ns;
	uint64_t stall_timeout_ns;	/* given, or derived by ut_config_derive_stall */
	uint64_t read_delay_ns;	/* reader critical-section length; 0 = random short */
	/* --lib-stall-timeout: the library's stall timeout for every combination
	 * (urcu_<flavor>_set_stall_timeout); -1: the library's own default. */
	int64_t lib_stall_timeout_ns;

	uint64_t seed;		/* this run's: the invocation's + its rank */

	const char *topology_spec;
	const char *pin_text[UT_ROLE_COUNT];
	const char *pin_source[UT_ROLE_COUNT];	/* the option that set each, for messages */
	struct ut_topology *topo;
	bool topo_shared;	/* the command line's (a scenario's run): not freed here */
	struct ut_pin_policy pin[UT_ROLE_COUNT];

	/* A run of a scenario: its rank (0 for a plain run) and its label. */
	int run_index;
	char run_label[160];
	int plan_cpus;		/* CPUs of the planned topology (--topology) */
};

/* The common tables (opts.c), each ended by an entry without a name. */
extern const struct ut_opt ut_invocation_opts[];
extern const struct ut_opt ut_run_opts[];

/* Whether the command line (or the run's line) gave option name: a run or
 * a mode option.  An unknown name is a bug in the tool: it says so and
 * aborts. */
bool ut_given(const struct ut_config *cfg, const char *name);

/*
 * Parse the command line into inv and its run configuration cfg; on error
 * prints one line and returns UT_EXIT_USAGE.  Returns -1 when the run
 * should go on, or an exit code (help, version, --list-modes,
 * --self-check-modes).
 */
int ut_parse_options(int argc, char **argv, struct ut_invocation *inv, struct ut_config *cfg);
/*
 * One run of a scenario: argv holds the run's options then the command
 * line's (the latter win); the invocation's options are skipped (inv has
 * them).  An error is one line "urcutorture: WHERE: problem" (WHERE is
 * "FILE:LINE"), returning UT_EXIT_USAGE (or UT_EXIT_SKIP for a flavor not
 * built in).
 */
int ut_parse_run_options(int argc, char **argv, const struct ut_config *cmdline,
			 const char *where, struct ut_config *cfg);
/* Open --json=FILE (after every other check; 0 or UT_EXIT_USAGE). */
int ut_invocation_open_json(struct ut_invocation *inv);
void ut_invocation_release(struct ut_invocation *inv);
/* Without --stall-timeout: derive it from the duration, delays and threads
 * (again whenever a scenario changes the duration). */
void ut_config_derive_stall(struct ut_config *cfg);
/* Free what parsing allocated (topology, policies). */
void ut_config_release(struct ut_config *cfg);

/* The run's parameters from the tables: the start line's "NAME=VALUE ..."
 * (without seed and combinations) and the JSON object key (opts.c). */
void ut_params_line(const struct ut_config *cfg, char *buf, size_t len);
void ut_params_json(struct uj *j, const char *key, const struct ut_config *cfg);

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

#define UT_LIB_CHECKS	9

struct ut_lib_check {
	/* "settled", "completed", "completed_max", "completed_max_live",
	 * "wait_ns_max", "histogram", "misuse_events", "stall_reports" */
	const char *name;
	bool ok;
	bool counted;		/* its error was counted when it failed (during the run) */
	char detail[320];
};

struct ut_libview {
	bool stats;			/* gp_stats: before and after are valid */
	bool settled;			/* both readings settled (else the "settled" check failed) */
	int unsettled_reads;		/* readings taken by the one that did not settle */
	/* The global word's flips (ops->gp_flipped), read before the first
	 * reading and after the last; flips: both valid. */
	bool flips;
	uint64_t flipped_before, flipped_after;
	bool live_failed;		/* completed_max_live failed (counted once) */
	bool at_stall;			/* the watchdog's: after is the state at the stall */
	struct ut_gp_stats before, after;	/* around the combination */
	int64_t stall_timeout_ns;	/* set for the combination; -1: the library's default */
	uint64_t t0_ns;			/* the combination's start (report times are after it) */
	int controller_tid;		/* the thread that ran the combination */
	/* urcutorture's side of the checks */
	uint64_t distinct_gps;		/* grace periods it saw end (a lower bound) */
	uint64_t sync_calls;		/* synchronize_rcu calls that returned */
	uint64_t sync_max_ns;		/* the longest, 0 if none timed */
	uint64_t misuse_caused;		/* misuse events it caused (ut_misuse_caused) */
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
	bool layout_up;			/* set up: torn down at the end */
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
	/* What the controller does now ("control", "stop: drain", "judge: the
	 * mode's finish", ...) and since when: the stall report names it
	 * (relaxed; run.c sets it). */
	const char *ctl_step;
	uint64_t ctl_since_ns;
	/* The thread the controller joins now, -1 none (relaxed; run.c). */
	int ctl_join;
	/* Library worker statistics when the layout was set up (for deltas). */
	struct ut_lib_worker_stat *lib_start;
	int nlib_start;
	/* Grace periods urcutorture saw end (ut_gp_witness, atomics). */
	uint64_t gp_last_end;
	uint64_t gp_distinct;
	/* Misuse events the mode caused on purpose (ut_misuse_caused, atomic). */
	uint64_t misuse_caused;
};

/*
 * Name what the controller does now (run->ctl_step): a mode's finish names
 * its own steps ("judge: the mode's finish: cds_lfht_destroy"), so that a
 * hang there is reported with the call it is in.  A string literal.
 */
void ut_ctl_step(struct ut_run *run, const char *step);

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
	/* The thread's body: start with ut_thread_begin, loop until
	 * ut_should_stop, end with ut_thread_end; its return value is unused. */
	void *(*fn)(struct ut_thread *t);
};

/* Where the report gives a mode its own lines / JSON members. */
enum ut_section {
	UT_SECTION_COUNTS,	/* after the read, update and grace-period counts */
	UT_SECTION_CALLBACKS,	/* with the call_rcu figures (JSON: in "callbacks") */
	UT_SECTION_CHECKS,	/* after the callback figures, before the errors */
};


/*
 * A mode's own options (ut_mode_ops.opts) are struct ut_opt entries without
 * a field: their values live in ut_config.opt[] (texts in opt_text[]).
 * Every registered mode's options are accepted whatever the mode (a run
 * prints them all), except UT_OPTF_OWNER_ONLY ones.  Two modes may declare
 * the same name: they then share one value, and --self-check-modes requires
 * the two entries to agree.
 */
/* Index of o's value in ut_config.opt[] (shared by same-named options). */
int ut_mode_opt_index(const struct ut_opt *o);
/* The value of o in cfg: its default unless the command line set it. */
static inline uint64_t ut_opt(const struct ut_config *cfg, const struct ut_opt *o)
{
	return cfg->opt[ut_mode_opt_index(o)];
}
static inline const char *ut_opt_text(const struct ut_config *cfg, const struct ut_opt *o)
{
	return cfg->opt_text[ut_mode_opt_index(o)];
}

/*
 * --no-implicit, one entry for every mode that drives implicit
 * registration (stress, litmus), so that their declarations agree.
 */
#define UT_OPT_NO_IMPLICIT						\
	{ .name = "no-implicit", .json = "no_implicit", .type = UT_OPT_FLAG,	\
	  .help = "no implicit registration (memb, mb, signal of this library; "	\
		  "qsbr, bp and liburcu never have it): no thread reads without "	\
		  "registering, unregisters inside a read-side section or reads in "	\
		  "its exit destructor" }
/* Whether run drives implicit registration: its flavor registers implicitly
 * and --no-implicit (o, the mode's entry) was not given. */
static inline bool ut_implicit_on(const struct ut_run *run, const struct ut_opt *o)
{
	return run->ops->implicit_register && !ut_opt(run->cfg, o);
}

/*
 * A mode: one workload with its threads, its checks and its report
 * sections, all in its mode-NAME.c behind this one table.
 *
 * How to add a mode:
 *  1. Write mode-NAME.c defining `const struct ut_mode_ops ut_mode_NAME`.
 *     Mandatory: name, help, roles (each with its fn) + nroles, count, stat_line
 *     (`urcutorture --self-check-modes` verifies them); the rest may be
 *     NULL / 0.
 *  2. Add X(NAME) to UT_MODE_LIST in modes.c (that order is --help's and
 *     --list-modes'; the first entry is the default mode).
 *  3. Add mode-NAME.c to the urcutorture sources in tools/meson.build.
 * The mode's roles and their counts, its per-thread counters
 * (thread_size), its result figures (result_size), its own error kinds
 * (errors), its own options (opts), its defaults and checks (configure)
 * and its report and JSON sections (report, json) all live here: run.c,
 * report.c, report-json.c and options.c do not change.  See docs/TORTURE.md, "How to add a mode".
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
	 * give (ut_given() says; cfg->readers is -1 then), return 0, or -1 with a one-line
	 * message "--option: why" in err (exit 64).  Unset fields fall back to
	 * one reader per CPU and --max-outstanding 10000. */
	int (*configure)(struct ut_config *cfg, char *err, size_t len);
	/* Its own options, NULL-terminated (or NULL): parsed, printed and
	 * written to JSON by the shared code from this table. */
	const struct ut_opt *opts;
	/* Its detectors are its readers: with --readers=0 the run checks no
	 * grace period, and main says so on stderr. */
	bool readers_check;

	/* ---- one combination (run.c) ---- */
	int (*setup)(struct ut_run *run);		/* after threads[] exist, before they start */
	void (*between)(struct ut_run *run, uint64_t elapsed_ns); /* controller tick */
	/* After join and drain: fold thread counters into res->mode_data, set
	 * res->gp_lat_what, count errors found at the end. */
	void (*finish)(struct ut_run *run);
	void (*stat_line)(struct ut_run *run, char *buf, size_t len);

	/* ---- report (report.c calls these; r->mode_data may be all zero
	 * when a stall cut the combination short) ---- */
	/* The measured cost of one read-side section; NULL: the mode measures
	 * none (the report gives sections/s per reader and the read delay). */
	double (*ns_per_read)(const struct ut_result *r);
	bool updates_include_gps;	/* comparison table: updates/s counts grace periods */
	void (*report)(const struct ut_config *cfg, const struct ut_result *r, enum ut_section at);
	void (*json)(struct uj *j, const struct ut_config *cfg, const struct ut_result *r,
		     enum ut_section at);
};

/* The registry (modes.c): every mode, NULL-terminated; [0] is the default. */
extern const struct ut_mode_ops *const ut_modes[];
const struct ut_mode_ops *ut_mode_find(const char *name);
/* Every registered mode's options, flattened (modes.c): ut_config.opt[k]
 * holds the value of ut_mode_opt_at(k), k < ut_mode_opts_count(). */
int ut_mode_opts_count(void);
const struct ut_opt *ut_mode_opt_at(int k);
bool ut_mode_declares(const struct ut_mode_ops *m, const char *name);
/* Check one table for its mandatory hooks; 0, or -1 with the first gap in err. */
int ut_mode_check(const struct ut_mode_ops *m, char *err, size_t len);

/* ---- what a mode's threads and hooks call ---- */

/* threads.c: a mode's thread starts with ut_thread_begin (pin + register,
 * 0 or an error already counted) and ends with ut_thread_end; it names what
 * it waits for with ut_thread_set_state (the stall report shows it). */
const char *ut_thread_role_name(const struct ut_thread *t);
int ut_thread_begin(struct ut_thread *t);		/* pin + register */
void ut_thread_end(struct ut_thread *t);
void ut_thread_set_state(struct ut_thread *t, const char *state);

/* run.c */
/* The sums of the threads' common counters (relaxed snapshots: the stat
 * lines read them while the threads run). */
struct ut_counts {
	uint64_t reads, updates, gps, barriers;
};
void ut_run_counts(struct ut_run *run, struct ut_counts *c);
/*
 * A synchronize_rcu call that began at t0 (read before the call) and
 * returned at t1 (read after it): it contains one whole grace period of the
 * library.  Calls that do not overlap contain different ones, so the run
 * counts a set of pairwise disjoint calls (run->gp_distinct): a lower bound
 * on the grace periods that ended, checked against the library's count.
 */
void ut_gp_witness(struct ut_run *run, uint64_t t0, uint64_t t1);

/*
 * The mode just caused n misuse events that the library counts (an
 * implicit registration, an unregistration inside a section): the
 * library's misuse_events must grow by at least the run's total
 * (libstats.c, check misuse_events).  Relaxed: the total is read after
 * the threads were joined.
 */
static inline void ut_misuse_caused(struct ut_run *run, uint64_t n)
{
	__atomic_add_fetch(&run->misuse_caused, n, __ATOMIC_RELAXED);
}

/* libstats.c: the library's stall reports of this combination (a mode that
 * stalls on purpose checks them). */
/* Texts the handler got in this combination, and a copy of the i-th kept. */
int ut_lib_captured(void);
bool ut_lib_report_get(int i, struct ut_lib_report *out);
/* The library's default stall timeout: URCU_STALL_TIMEOUT, else 21 s. */
uint64_t ut_lib_default_timeout_ns(void);

#endif /* UT_MODE_H */
