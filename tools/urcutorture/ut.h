/* SPDX-License-Identifier: MIT */
/*
 * urcutorture: declarations shared by the tool's compilation units.
 *
 * The tool is written against the public liburcu interface only.  Every call
 * into the RCU library goes through a struct ut_flavor_ops table (filled by
 * flavor-ops.c, compiled once per flavor), so the rest of the tool never
 * includes a flavor header and never depends on which flavors exist.
 */
#ifndef UT_H
#define UT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <urcu/call-rcu.h>	/* struct rcu_head, struct call_rcu_data, flags */

#include "placement.h"

/* ---- exit codes (TORTURE.md "Contract") ---- */
enum {
	UT_EXIT_OK = 0,
	UT_EXIT_FAILURE = 1,
	UT_EXIT_STALL = 2,
	UT_EXIT_ENV = 3,
	UT_EXIT_USAGE = 64,
	UT_EXIT_SKIP = 77,
};

/* ---- flavor operations ---- */

/* One call_rcu worker as seen by the library's observability extension. */
struct ut_lib_worker_stat {
	unsigned long long queued, invoked, grace_periods;
	unsigned long backlog, max_backlog;
	int cpu_affinity;
	unsigned long flags;
	pthread_t thread;
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
	 * read-cost inner loop, compiled in the flavor's unit so the read-side
	 * primitives are inlined: n times {read_lock; rcu_dereference(*pp);
	 * read_unlock}, then one quiescent state for qsbr.  Returns a value
	 * derived from the loads so they cannot be optimised away.
	 */
	unsigned long (*read_batch)(unsigned long n, void **pp);
};

/* Flavors compiled into this binary, NULL-terminated; busted is separate. */
extern const struct ut_flavor_ops *const ut_flavors[];
const struct ut_flavor_ops *ut_flavor_find(const char *name);
const struct ut_flavor_ops *ut_busted_ops(void);
const struct ut_flavor_ops *ut_busted_hang_ops(void);
/* True when the flavor name is one urcutorture knows (built in or not). */
bool ut_flavor_name_known(const char *name);

/* ---- configuration ---- */

enum ut_mode {
	UT_MODE_STRESS,
	UT_MODE_GP_LATENCY,
	UT_MODE_READ_COST,
	UT_MODE_CALLBACK,
	UT_MODE_FLOOD,
	UT_MODE_BARRIER,
	UT_MODE_COUNT
};

enum ut_layout {
	UT_LAYOUT_DEFAULT,
	UT_LAYOUT_PER_CPU,
	UT_LAYOUT_PER_THREAD,
	UT_LAYOUT_RT,
	UT_LAYOUT_COUNT
};

extern const char *const ut_mode_names[UT_MODE_COUNT];
extern const char *const ut_layout_names[UT_LAYOUT_COUNT];

#define UT_MAX_FLAVORS	8
#define UT_MAX_PIPE	64

struct ut_config {
	enum ut_mode mode;
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
	uint64_t stall_timeout_ns;
	uint64_t read_delay_ns;	/* reader critical-section length; 0 = random short */
	uint64_t update_delay_ns;

	uint64_t seed;

	const char *topology_spec;
	const char *pin_text[UT_ROLE_COUNT];
	struct ut_topology *topo;
	struct ut_pin_policy pin[UT_ROLE_COUNT];

	const char *json_path;
	FILE *json;
	bool tap;
	bool dry_run;
	bool quiet;
	FILE *human;		/* where the human-readable report goes */

	int argc;
	char **argv;
	int ncpus;		/* online CPUs of this machine */
	int plan_cpus;		/* CPUs of the planned topology (--topology) */
};

/* Parse argv into cfg; on error prints one line and returns UT_EXIT_USAGE.
 * Returns -1 when the run should go on, or an exit code (help, version). */
int ut_parse_options(int argc, char **argv, struct ut_config *cfg);
/* Free what parsing allocated (topology, policies) and close the JSON file. */
void ut_config_release(struct ut_config *cfg);

/* ---- time and randomness ---- */

uint64_t ut_now_ns(void);
void ut_sleep_ns(uint64_t ns);
void ut_spin_ns(uint64_t ns);
/* Parse "10s", "5m", "2h", "250ms", "40us", "100ns" or plain seconds. */
int ut_parse_duration(const char *text, uint64_t *out_ns);
void ut_format_duration(uint64_t ns, char *buf, size_t len);

struct ut_rng {
	uint64_t s;
};
void ut_rng_seed(struct ut_rng *r, uint64_t seed, uint64_t stream);
uint64_t ut_rng_next(struct ut_rng *r);
static inline uint64_t ut_rng_below(struct ut_rng *r, uint64_t n)
{
	return n ? ut_rng_next(r) % n : 0;
}

/* ---- histograms (log-linear buckets, 16 per power of two, ~6 %) ---- */

#define UT_HIST_SUB_BITS	4
#define UT_HIST_BUCKETS		(64 << UT_HIST_SUB_BITS)

struct ut_hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min;
	uint64_t max;
	uint64_t bucket[UT_HIST_BUCKETS];
};

void ut_hist_init(struct ut_hist *h);
void ut_hist_add(struct ut_hist *h, uint64_t v);
void ut_hist_merge(struct ut_hist *dst, const struct ut_hist *src);
/* q in [0,1]; value within one bucket (about 6 %) of the true quantile. */
uint64_t ut_hist_quantile(const struct ut_hist *h, double q);
/* Counts per floor(log2(v)) (v = 0 counted in slot 0); 64 slots. */
void ut_hist_log2(const struct ut_hist *h, uint64_t out[64]);

/* ---- per-combination results ---- */

enum ut_verdict { UT_SUCCESS, UT_FAILURE, UT_STALL, UT_ENV };
extern const char *const ut_verdict_names[];

enum ut_error {
	UT_ERR_TOO_SHORT_GP,	/* pipeline age >= 2 seen by a reader */
	UT_ERR_POISON,		/* poisoned or recycled object read */
	UT_ERR_CB_LOST,
	UT_ERR_CB_DUP,
	UT_ERR_BARRIER,		/* rcu_barrier returned before a callback ran */
	UT_ERR_POLL_EARLY,	/* cookie reported complete inside a reader */
	UT_ERR_POLL_LATE,	/* cookie not complete after synchronize_rcu */
	UT_ERR_COUNT
};
extern const char *const ut_error_names[UT_ERR_COUNT];

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
	const char *kind;
	int idx;
	int cpu_planned;	/* -1 unpinned */
	int node;		/* planned NUMA node, -1 unknown */
	int cpu_start;		/* after pinning */
	int cpu_end;		/* when it finished */
};

struct ut_result {
	const struct ut_flavor_ops *flavor;
	enum ut_layout layout;
	enum ut_mode mode;
	enum ut_verdict verdict;
	double seconds;

	uint64_t reads;
	uint64_t updates;
	uint64_t grace_periods;
	uint64_t cb_posted;
	uint64_t cb_invoked;
	uint64_t max_backlog;
	uint64_t barriers;
	uint64_t poll_checks;
	double drain_s;		/* flood: time for the backlog to drain */

	uint64_t pipe[UT_MAX_PIPE + 1];
	uint64_t errors[UT_ERR_COUNT];
	uint64_t pin_mismatches;
	uint64_t threads_pinned;

	/* read-cost */
	int runs;
	double ns_per_read[64];
	double ns_mean, ns_min, ns_max, ns_stddev;

	struct ut_hist gp_lat;	/* GP, async GP, or rcu_barrier latency */
	const char *gp_lat_what;
	struct ut_hist cb_lat;	/* enqueue -> invoke */

	int nworkers;
	struct ut_worker_result *workers;
	int nthreads;
	struct ut_thread_result *threads;
	char note[160];
};

uint64_t ut_result_errors(const struct ut_result *r);

/* ---- run context (run.c) ---- */

enum ut_thread_role_kind { UT_T_READER, UT_T_UPDATER, UT_T_FAKE, UT_T_ENQUEUER };

/* Per-thread record, visible to the watchdog and the stat lines. */
struct ut_thread {
	struct ut_run *run;
	enum ut_thread_role_kind kind;
	int idx;
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
	struct ut_rng rng;
	struct call_rcu_data *own_crdp;	/* per-thread / rt layouts */
	int own_worker;
	/* counters, written by the owner with relaxed stores */
	uint64_t reads;
	uint64_t updates;
	uint64_t gps;
	uint64_t posted;
	uint64_t errors[UT_ERR_COUNT];
	uint64_t pipe[UT_MAX_PIPE + 1];
	uint64_t poll_checks;
	uint64_t barriers;
	struct ut_hist *lat;		/* GP / barrier latency */
	/* read-cost per-run figures */
	double ns_per_read[64];
	void *mode_data;
};

/* One call_rcu worker known to the run (see run.c). */
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
	enum ut_layout layout;
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

	void *mode_data;
	int pin_failed;			/* atomic */
	char pin_error[160];
	uint64_t phase;			/* bumped by the controller; watchdog progress */
	/* Library worker statistics when the layout was set up (for deltas). */
	struct ut_lib_worker_stat *lib_start;
	int nlib_start;
	const struct ut_mode_ops *mode;
};

/* Called from the mode code. */
int ut_threads_alloc(struct ut_run *run, int nreaders,
		     enum ut_thread_role_kind ka, int na, bool posts_a,
		     enum ut_thread_role_kind kb, int nb, bool posts_b);
const char *ut_thread_kind_name(enum ut_thread_role_kind k);
int ut_thread_begin(struct ut_thread *t);		/* pin + register */
void ut_thread_end(struct ut_thread *t);
void ut_thread_set_state(struct ut_thread *t, const char *state);
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

/* Callback routing for the layouts: target worker of the next call_rcu
 * from this thread, and accounting on the invoking side. */
int ut_worker_target(struct ut_run *run, struct ut_thread *t);
void ut_worker_invoked(struct ut_run *run, uint64_t enqueue_ns);
void ut_worker_queued(struct ut_run *run, int w);
/* layout.c: the worker table and the layouts' setup and teardown. */
int ut_worker_add(struct ut_run *run, const char *label, struct call_rcu_data *crdp,
		  pthread_t thread, bool thread_known, int cpu_affinity);
int ut_layout_setup(struct ut_run *run);
void ut_layout_snapshot(struct ut_run *run, struct ut_lib_worker_stat *lib, int *nlib);
void ut_layout_teardown(struct ut_run *run);
/* Call the flavor's rcu_barrier until every posted callback has run. */
void ut_drain_callbacks(struct ut_run *run);

/* Mode entry points: start threads; the controller in run.c waits. */
struct ut_mode_ops {
	int (*setup)(struct ut_run *run);		/* allocate, fill threads[] */
	void *(*thread_fn)(void *arg);			/* struct ut_thread * */
	void (*between)(struct ut_run *run, uint64_t elapsed_ns); /* controller tick */
	void (*finish)(struct ut_run *run);		/* after join: checks, results */
	void (*stat_line)(struct ut_run *run, char *buf, size_t len);
};
extern const struct ut_mode_ops ut_mode_stress, ut_mode_gp_latency, ut_mode_read_cost,
	ut_mode_callback, ut_mode_flood, ut_mode_barrier;

/* Count of threads per placement role for a mode/layout (plan sizes). */
void ut_role_counts(const struct ut_config *cfg, enum ut_layout layout, int n[UT_ROLE_COUNT]);
bool ut_mode_uses_layout(const struct ut_config *cfg);

/* Run one flavor x layout combination into res. */
int ut_run_one(const struct ut_config *cfg, const struct ut_flavor_ops *ops,
	       enum ut_layout layout, struct ut_plan *plan, struct ut_result *res);
void ut_result_free(struct ut_result *res);

/* ---- watchdog ---- */
void ut_watchdog_start(const struct ut_config *cfg);
void ut_watchdog_attach(struct ut_run *run);	/* NULL to detach */
void ut_watchdog_stop(void);
/* Finished combinations, for the report a stall leaves behind. */
void ut_watchdog_results(const struct ut_result *done, const int *ndone);

/* ---- reports (report.c) ---- */
void ut_out(const struct ut_config *cfg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ut_report_start(const struct ut_config *cfg, int ncombos);
void ut_report_result(const struct ut_config *cfg, const struct ut_result *r);
void ut_report_matrix(const struct ut_config *cfg, const struct ut_result *r, int n);
void ut_report_tap(const struct ut_config *cfg, const struct ut_result *r, int n, int idx);
void ut_report_json(const struct ut_config *cfg, const struct ut_plan *plan,
		    const struct ut_result *r, int n, enum ut_verdict verdict, int exit_code);
void ut_report_end(const struct ut_config *cfg, enum ut_verdict v, const struct ut_result *r, int n);
/* Library description for the report. */
const char *ut_library_name(void);
const char *ut_library_version(void);
int ut_membarrier_query(void);	/* command mask, -1 unavailable */

#endif /* UT_H */
