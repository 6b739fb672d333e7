/* SPDX-License-Identifier: MIT */
/*
 * Running one flavor x call_rcu-layout combination: the controller loop
 * (duration, stat lines, live progress), shutdown (join, callback drain,
 * layout teardown) and the generic part of the results.  What the threads
 * do, and the mode's own figures, come from the mode's ut_mode_ops; the
 * threads themselves are set up in threads.c, the call_rcu layouts and the
 * worker table in layout.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "callbacks.h"
#include "crash.h"
#include "ut.h"

static unsigned int run_generation;

/*
 * What the controller does now, for the watchdog's stall report: a hang
 * anywhere in a combination's end (the drain, the mode's finish, the
 * library's checks, the teardown) stops all progress and becomes a STALL
 * naming this step.  URCUTORTURE_TEST_HANG=STEP (a test hook) makes the
 * controller hang when it reaches that step; URCUTORTURE_TEST_LIVELOCK=STEP
 * makes it loop there while bumping the phase counter every millisecond
 * (a step that never ends but looks busy: the end phase's bound catches it).
 */
void ut_ctl_step(struct ut_run *run, const char *step)
{
	const char *hang = getenv("URCUTORTURE_TEST_HANG");
	const char *spin = getenv("URCUTORTURE_TEST_LIVELOCK");

	__atomic_store_n(&run->ctl_since_ns, ut_now_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&run->ctl_step, step, __ATOMIC_RELAXED);
	while (hang && !strcmp(hang, step))
		pause();
	while (spin && !strcmp(spin, step)) {
		__atomic_add_fetch(&run->phase, 1, __ATOMIC_RELAXED);
		ut_sleep_ns(1000000ull);
	}
}

/* Every thread of a mode: its role's function (the mode table says which). */
static void *role_main(void *arg)
{
	struct ut_thread *t = arg;

	return t->run->mode->roles[t->role].fn(t);
}

/* Where the batch stands, for the live progress line (main.c sets it). */
static struct {
	int idx, total;		/* this combination, 1-based, of total */
	uint64_t after_ns;	/* planned time of the combinations after it */
} progress;

void ut_progress_set(int idx, int total, uint64_t after_ns)
{
	progress.idx = idx;
	progress.total = total;
	progress.after_ns = after_ns;
}

/* The running combination's clock, for flavors that model a bug that
 * starts some time into a run (busted-freeze). */
static struct {
	uint64_t t0;		/* threads started; 0: no combination runs */
	int stopping;		/* the duration is over, the stop check passed */
} run_clock;

uint64_t ut_run_elapsed_ns(bool *stopping)
{
	uint64_t t0 = __atomic_load_n(&run_clock.t0, __ATOMIC_RELAXED);
	uint64_t now = ut_now_ns();

	*stopping = __atomic_load_n(&run_clock.stopping, __ATOMIC_RELAXED);
	return t0 && now > t0 ? now - t0 : 0;
}

/* ---- results ---- */

static uint64_t errors_now(struct ut_run *run)
{
	uint64_t n = 0;

	for (int i = 0; i < run->nthreads; i++)
		for (int e = 0; e < UT_ERR_COUNT; e++)
			n += ut_read(&run->threads[i].errors[e]);
	for (int i = 0; i < run->nthreads; i++)
		for (int e = 0; e < UT_MODE_MAX_ERRORS; e++)
			n += ut_read(&run->threads[i].mode_errors[e]);
	for (int e = 0; e < UT_ERR_COUNT; e++)
		n += ut_read(&run->cb_errors[e]);
	return n;
}

void ut_run_counts(struct ut_run *run, struct ut_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];

		c->reads += ut_read(&t->reads);
		c->updates += ut_read(&t->updates);
		c->gps += ut_read(&t->gps);
		c->barriers += ut_read(&t->barriers);
	}
}

void ut_result_from_threads(struct ut_run *run, struct ut_result *r)
{
	struct ut_counts sum;

	ut_run_counts(run, &sum);
	r->reads += sum.reads;
	r->updates += sum.updates;
	r->grace_periods += sum.gps;
	r->barriers += sum.barriers;
	for (int i = 0; i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];

		for (int e = 0; e < UT_ERR_COUNT; e++)
			r->errors[e] += ut_read(&t->errors[e]);
		for (int e = 0; e < UT_MODE_MAX_ERRORS; e++)
			r->mode_errors[e] += ut_read(&t->mode_errors[e]);
	}
	r->threads = calloc((size_t)(run->nthreads ? run->nthreads : 1), sizeof(*r->threads));
	for (int i = 0; r->threads && i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];
		struct ut_thread_result *tr = &r->threads[r->nthreads++];
		/* Acquire: pairs with the release store in ut_thread_begin
		 * (threads.c): cpu_start is set once started is. */
		bool started = __atomic_load_n(&t->started, __ATOMIC_ACQUIRE);

		tr->kind = ut_thread_role_name(t);
		tr->idx = t->idx;
		tr->ktid = __atomic_load_n(&t->ktid, __ATOMIC_RELAXED);
		tr->cpu_planned = t->cpu_planned;
		tr->node = t->node;
		tr->cpu_start = started ? t->cpu_start : -1;
		tr->cpu_end = started ? __atomic_load_n(&t->cpu_seen, __ATOMIC_RELAXED) : -1;
	}
}

/* After the join: the threads' figures, the callbacks and the workers. */
static void collect(struct ut_run *run)
{
	struct ut_result *res = run->res;

	ut_result_from_threads(run, res);
	for (int i = 0; i < run->nthreads; i++)
		if (run->threads[i].lat)
			ut_hist_merge(&res->gp_lat, run->threads[i].lat);
	for (int e = 0; e < UT_ERR_COUNT; e++)
		res->errors[e] += run->cb_errors[e];
	res->cb_posted = run->cb_posted;
	res->cb_invoked = run->cb_invoked;
	for (int i = 0; i < res->nworkers; i++) {
		ut_hist_merge(&res->cb_lat, res->workers[i].lat);
		if (res->workers[i].max_backlog > res->max_backlog && res->nworkers == 1)
			res->max_backlog = res->workers[i].max_backlog;
	}
	if (run->outstanding_max > res->max_backlog)
		res->max_backlog = run->outstanding_max;
}

void ut_gp_witness(struct ut_run *run, uint64_t t0, uint64_t t1)
{
	uint64_t last = __atomic_load_n(&run->gp_last_end, __ATOMIC_RELAXED);

	/*
	 * Claim [t0, t1] if it begins after the last claimed call ended: each
	 * claimed call then begins after the end of the one claimed before it,
	 * so the claimed calls are pairwise disjoint (a greedy choice, not
	 * always the largest such set: a lower bound).  Relaxed: the times
	 * carry no data.
	 */
	while (t0 > last) {
		if (__atomic_compare_exchange_n(&run->gp_last_end, &last, t1, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			__atomic_add_fetch(&run->gp_distinct, 1, __ATOMIC_RELAXED);
			return;
		}
	}
}

void ut_result_free(struct ut_result *res)
{
	for (int i = 0; i < res->nworkers; i++)
		free(res->workers[i].lat);
	free(res->workers);
	res->workers = NULL;
	res->nworkers = 0;
	free(res->threads);
	res->threads = NULL;
	res->nthreads = 0;
	free(res->mode_data);
	res->mode_data = NULL;
	ut_lib_free(res);
}

/* ---- controller ---- */

/* Time left in the whole batch, from this combination's elapsed time. */
static uint64_t batch_left_ns(const struct ut_run *run, uint64_t elapsed)
{
	return (run->cfg->duration_ns > elapsed ? run->cfg->duration_ns - elapsed : 0) +
	       progress.after_ns;
}

static void live_progress(struct ut_run *run, uint64_t elapsed, bool clear)
{
	char line[240], where[64] = "";
	uint64_t reads = 0, updates = 0;

	if (clear) {
		fprintf(stderr, "\r%*s\r", 120, "");
		return;
	}
	if (progress.total > 1) {
		/* Which combination of how many, and the time left for all of them. */
		char t[32];

		ut_format_span(batch_left_ns(run, elapsed), t, sizeof(t));
		snprintf(where, sizeof(where), "[%d/%d, %s left] ", progress.idx, progress.total, t);
	}
	for (int i = 0; i < run->nthreads; i++) {
		reads += ut_read(&run->threads[i].reads);
		updates += ut_read(&run->threads[i].updates) + ut_read(&run->threads[i].gps);
	}
	snprintf(line, sizeof(line), "%s[%5.1fs/%.0fs] %s/%s %s reads %llu gps/updates %llu cbs %llu%s",
		 where, elapsed / 1e9, run->cfg->duration_ns / 1e9, run->ops->name,
		 ut_layout_names[run->layout], run->mode->name,
		 (unsigned long long)reads, (unsigned long long)updates,
		 (unsigned long long)__atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED),
		 errors_now(run) ? " !!! errors" : "");
	fprintf(stderr, "\r%-119.119s", line);
	fflush(stderr);
}

/*
 * A combination runs in four steps, as docs/TORTURE.md draws them: start
 * (the run, its call_rcu layout, its threads), control (the duration, the
 * stat lines), stop (the grace periods owed, the join, the callback drain)
 * and judge (the figures, the mode's and the library's checks, the
 * verdict); then everything is freed.
 */

/* The run of one combination, and its result's fixed part; NULL: no memory. */
static struct ut_run *run_new(const struct ut_config *cfg, const struct ut_flavor_ops *ops,
			      enum ut_layout layout, struct ut_plan *plan, struct ut_result *res,
			      struct ut_flavor_ops *timed)
{
	struct ut_run *run = calloc(1, sizeof(*run));

	memset(res, 0, sizeof(*res));
	res->cfg = cfg;
	res->flavor = ops;
	res->layout = layout;
	res->mode = cfg->mode;
	res->gp_lat_what = "grace period";
	ut_hist_init(&res->gp_lat);
	ut_hist_init(&res->cb_lat);
	if (!run)
		return NULL;
	run->cfg = cfg;
	/* run->ops: the flavor's table with its grace-period waits timed. */
	run->ops = ut_watchdog_wrap_ops(ops, timed);
	run->layout = layout;
	run->plan = plan;
	run->res = res;
	run->mode = cfg->mode;
	run->uses_layout = ut_mode_uses_layout(cfg);
	pthread_mutex_init(&run->workers_lock, NULL);
	run->generation = ++run_generation;
	run->ctl_join = -1;
	return run;
}

/* The layout, the mode's state, the threads; 0, or -1 with the verdict ENV. */
static int run_start(struct ut_run *run, const struct ut_flavor_ops *ops)
{
	const struct ut_mode_ops *mode = run->mode;
	struct ut_result *res = run->res;

	ut_ctl_step(run, "start");
	/* The controller calls rcu_barrier and call_rcu_data_free: register it. */
	ops->register_thread();
	if (ops->is_qsbr)
		ops->thread_offline();
	if (ut_layout_setup(run))
		return -1;
	run->layout_up = true;
	if (mode->result_size && !(res->mode_data = calloc(1, mode->result_size)))
		return -1;
	if (ut_threads_alloc(run) || (mode->setup && mode->setup(run)))
		return -1;
	ut_lib_begin(run);
	ut_watchdog_attach(run);
	ut_crash_attach(run);
	run->t_start_ns = ut_now_ns();
	__atomic_store_n(&run_clock.stopping, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&run_clock.t0, run->t_start_ns, __ATOMIC_RELAXED);
	for (int i = 0; i < run->nthreads; i++) {
		int e = pthread_create(&run->threads[i].tid, NULL, role_main, &run->threads[i]);

		if (e) {
			snprintf(res->note, sizeof(res->note), "pthread_create: %s", strerror(e));
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
			run->nthreads = i;
			res->verdict = UT_ENV;
			break;
		}
	}
	return 0;
}

/* One stat line: the mode's figures and the errors so far; without a
 * terminal (no live line), where the batch stands. */
static void stat_line(struct ut_run *run, uint64_t elapsed, bool tty)
{
	char buf[512], where[96] = "", left[32];
	uint64_t errs = errors_now(run);

	run->mode->stat_line(run, buf, sizeof(buf));
	if (!tty) {
		ut_format_span(batch_left_ns(run, elapsed), left, sizeof(left));
		snprintf(where, sizeof(where), " (combination %d/%d, %s left)", progress.idx,
			 progress.total, left);
	}
	ut_out(&run->cfg->inv->sink, "%s[%6.1fs] %s/%s: %s errors %llu%s\n", errs ? "!!! " : "",
	       elapsed / 1e9, run->ops->name, ut_layout_names[run->layout], buf,
	       (unsigned long long)errs, where);
}

/*
 * The duration counts from the moment every thread has begun: on a loaded
 * machine threads start late, and a run that ended before its threads ran
 * would check nothing.  Bounded by --stall-timeout (a thread that never
 * begins is the watchdog's to report); a signal or refused pinning ends
 * the wait.
 */
static void wait_threads_begun(struct ut_run *run)
{
	uint64_t limit = ut_now_ns() + run->cfg->stall_timeout_ns;

	ut_ctl_step(run, "control: waiting for the threads to begin");
	for (int i = 0; i < run->nthreads; i++)
		/* Acquire: pairs with the release store in ut_thread_begin. */
		while (!__atomic_load_n(&run->threads[i].started, __ATOMIC_ACQUIRE) &&
		       !ut_should_stop(run) && !ut_stop_requested() &&
		       !__atomic_load_n(&run->pin_failed, __ATOMIC_RELAXED) && ut_now_ns() < limit)
			ut_sleep_ns(1000000);
}

/* Until the duration ends (or a signal, or refused pinning): the mode's
 * tick, the live line on a terminal, the stat lines. */
static void run_control(struct ut_run *run)
{
	const struct ut_config *cfg = run->cfg;
	/* The live line goes to stderr whenever it is a terminal: stdout (TAP,
	 * JSON, the report) never gets it. */
	bool tty = isatty(2);
	uint64_t elapsed, t0, next_stat = cfg->stat_interval_ns;

	wait_threads_begun(run);
	t0 = ut_now_ns();
	ut_ctl_step(run, "control");
	while (!ut_should_stop(run)) {
		uint64_t left, step = tty ? 200000000ull : 100000000ull;

		elapsed = ut_now_ns() - t0;
		if (elapsed >= cfg->duration_ns || __atomic_load_n(&run->pin_failed, __ATOMIC_RELAXED))
			break;
		if (ut_stop_requested())
			break;		/* SIGINT / SIGTERM: stop, then report what ran */
		left = cfg->duration_ns - elapsed;
		ut_sleep_ns(left < step ? left : step);
		elapsed = ut_now_ns() - t0;
		if (run->mode->between)
			run->mode->between(run, elapsed);
		ut_lib_tick(run);
		if (tty)
			live_progress(run, elapsed, false);
		if (cfg->stat_interval_ns && !cfg->inv->quiet && elapsed >= next_stat &&
		    elapsed < cfg->duration_ns && !ut_stop_requested()) {
			if (tty)
				live_progress(run, elapsed, true);
			stat_line(run, elapsed, tty);
			next_stat += cfg->stat_interval_ns;
		}
	}
	if (tty)
		live_progress(run, 0, true);
}

/* The grace periods owed, the threads joined, the callbacks drained. */
static void run_stop(struct ut_run *run, const struct ut_flavor_ops *ops)
{
	struct ut_result *res = run->res;
	uint64_t d0;

	/*
	 * Grace periods owed at the end of the duration: a wait that reached
	 * --stall-timeout is a stall even if stopping would let it finish;
	 * the workload goes on until the waits pending now end (a signal or
	 * refused pinning does not wait).  Exits 2 on a stall.
	 */
	ut_ctl_step(run, "stop: the grace periods owed");
	if (!ut_should_stop(run))
		ut_watchdog_at_stop(run, !ut_stop_requested() &&
				    !__atomic_load_n(&run->pin_failed, __ATOMIC_RELAXED));
	__atomic_store_n(&run_clock.stopping, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&run->phase, 1, __ATOMIC_RELAXED);
	ut_ctl_step(run, "stop: joining the threads");
	for (int i = 0; i < run->nthreads; i++) {
		/* Relaxed: the stall report names the thread the join waits on. */
		__atomic_store_n(&run->ctl_join, i, __ATOMIC_RELAXED);
		pthread_join(run->threads[i].tid, NULL);
		__atomic_add_fetch(&run->phase, 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&run->ctl_join, -1, __ATOMIC_RELAXED);
	res->seconds = (ut_now_ns() - run->t_start_ns) / 1e9;
	if (ops->is_qsbr)
		ops->thread_online();
	d0 = ut_now_ns();
	ut_ctl_step(run, "stop: draining the callbacks");
	ut_drain_callbacks(run);
	res->drain_s = (ut_now_ns() - d0) / 1e9;
	if (ops->is_qsbr)
		ops->thread_offline();
}

/* The figures, the checks, the verdict. */
static void run_judge(struct ut_run *run)
{
	struct ut_result *res = run->res;
	struct ut_lib_worker_stat *lib = calloc(UT_MAX_WORKERS, sizeof(*lib));
	int nlib = 0;

	ut_ctl_step(run, "judge");
	if (lib)
		ut_layout_snapshot(run, lib, &nlib);
	free(lib);
	collect(run);
	ut_cb_check_lost(run);
	ut_ctl_step(run, "judge: the mode's finish");
	if (run->mode->finish)
		run->mode->finish(run);
	/* The library's statistics and stall reports against what ran
	 * (after finish: it names what the grace-period latency measured). */
	ut_ctl_step(run, "judge: the library's checks");
	ut_lib_end(run);
	if (__atomic_load_n(&run->pin_failed, __ATOMIC_RELAXED)) {
		snprintf(res->note, sizeof(res->note), "pinning refused: %.140s", run->pin_error);
		if (res->verdict == UT_SUCCESS)
			res->verdict = UT_ENV;
	}
	if (ut_stop_requested() && res->seconds < run->cfg->duration_ns / 1e9) {
		char d[32];

		ut_format_duration(run->cfg->duration_ns, d, sizeof(d));
		snprintf(res->note, sizeof(res->note), "interrupted by %s after %.1f s of %s",
			 ut_signal_name(ut_stop_requested()), res->seconds, d);
		if (res->verdict == UT_SUCCESS)
			res->verdict = UT_INTERRUPTED;
	}
	if ((res->verdict == UT_SUCCESS || res->verdict == UT_INTERRUPTED) && ut_result_errors(res))
		res->verdict = UT_FAILURE;	/* errors found before the signal still count */
}

/* The layout torn down, the controller unregistered, the run freed. */
static void run_free(struct ut_run *run, const struct ut_flavor_ops *ops)
{
	ut_ctl_step(run, "teardown");
	if (run->layout_up) {
		if (ops->is_qsbr)
			ops->thread_online();
		ut_layout_teardown(run);
		if (ops->is_qsbr)
			ops->thread_offline();
	}
	/* Watched to the last call that could wait (unregistering). */
	ut_ctl_step(run, "teardown: unregistering the controller");
	ops->unregister_thread();
	ut_watchdog_attach(NULL);
	ut_crash_attach(NULL);
	__atomic_store_n(&run_clock.t0, 0, __ATOMIC_RELAXED);
	for (int i = 0; i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];

		if (t->lat)
			ut_free_local(t->lat, sizeof(*t->lat));
		free(t->mode_data);
	}
	free(run->threads);
	free(run->mode_data);
	free(run->lib_start);
	pthread_mutex_destroy(&run->workers_lock);
	free(run);
}

void ut_run_one(const struct ut_config *cfg, const struct ut_flavor_ops *ops,
		enum ut_layout layout, struct ut_plan *plan, struct ut_result *res)
{
	struct ut_flavor_ops timed;
	struct ut_run *run = run_new(cfg, ops, layout, plan, res, &timed);

	if (!run) {
		res->verdict = UT_ENV;
		return;
	}
	if (run_start(run, ops)) {
		res->verdict = UT_ENV;
	} else {
		run_control(run);
		run_stop(run, ops);
		run_judge(run);
	}
	run_free(run, ops);
}
