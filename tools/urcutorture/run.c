/* SPDX-License-Identifier: MIT */
/*
 * Running one flavor x call_rcu-layout combination: thread start-up (pinning,
 * registration, per-thread call_rcu workers), the controller loop (duration,
 * stat lines, live progress), shutdown (join, callback drain, layout
 * teardown) and the generic part of the results.
 * The call_rcu layouts and the worker table live in layout.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ut.h"

static unsigned int run_generation;

/* ---- threads ---- */

static const char *const kind_names[] = { "reader", "updater", "fake-updater", "enqueuer" };

const char *ut_thread_kind_name(enum ut_thread_role_kind k)
{
	return kind_names[k];
}

int ut_thread_begin(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	char err[160] = "";

	t->own_worker = -1;
	if (t->cpu_planned >= 0) {
		if (ut_pin_self(t->cpu_planned, err, sizeof(err))) {
			if (!__atomic_exchange_n(&run->pin_failed, 1, __ATOMIC_RELAXED))
				snprintf(run->pin_error, sizeof(run->pin_error), "%s %d: %s",
					 kind_names[t->kind], t->idx, err);
		} else {
			__atomic_add_fetch(&run->res->threads_pinned, 1, __ATOMIC_RELAXED);
		}
	}
	t->cpu_seen = ut_current_cpu();
	t->cpu_start = t->cpu_seen;
	run->ops->register_thread();
	if (t->posts && !run->ops->is_busted &&
	    (run->layout == UT_LAYOUT_PER_THREAD || run->layout == UT_LAYOUT_RT)) {
		unsigned long flags = run->layout == UT_LAYOUT_RT ? URCU_CALL_RCU_RT : 0;
		int wcpu = -1, nposting = 0;
		char label[32];

		/* This thread's rank among posting threads picks its worker CPU. */
		for (int i = 0; i < run->nthreads && &run->threads[i] != t; i++)
			nposting += run->threads[i].posts;
		if (run->plan && nposting < run->plan->n[UT_ROLE_WORKER])
			wcpu = run->plan->cpu[UT_ROLE_WORKER][nposting];
		t->own_crdp = run->ops->create_call_rcu_data(flags, wcpu);
		if (t->own_crdp) {
			run->ops->set_thread_call_rcu_data(t->own_crdp);
			snprintf(label, sizeof(label), "%s-%s%d", ut_layout_names[run->layout],
				 kind_names[t->kind], t->idx);
			t->own_worker = ut_worker_add(run, label, t->own_crdp,
						   run->ops->get_call_rcu_thread(t->own_crdp), true, wcpu);
		}
	}
	t->started = true;
	ut_thread_set_state(t, "running");
	return 0;
}

void ut_thread_end(struct ut_thread *t)
{
	int cpu = ut_current_cpu();

	if (t->cpu_planned >= 0 && cpu != t->cpu_planned)
		__atomic_add_fetch(&t->run->res->pin_mismatches, 1, __ATOMIC_RELAXED);
	t->cpu_seen = cpu;
	if (t->own_crdp)
		t->run->ops->set_thread_call_rcu_data(NULL);
	t->run->ops->unregister_thread();
	ut_thread_set_state(t, "done");
}

void ut_thread_set_state(struct ut_thread *t, const char *state)
{
	__atomic_store_n(&t->state_since_ns, ut_now_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&t->state, state, __ATOMIC_RELAXED);
}

/* ---- role counts ---- */

bool ut_mode_uses_layout(const struct ut_config *cfg)
{
	return cfg->mode != UT_MODE_READ_COST && !(cfg->mode == UT_MODE_GP_LATENCY && !cfg->async);
}

void ut_role_counts(const struct ut_config *cfg, enum ut_layout layout, int n[UT_ROLE_COUNT])
{
	int posting = 0;

	n[UT_ROLE_READER] = cfg->readers;
	switch (cfg->mode) {
	case UT_MODE_STRESS:
		n[UT_ROLE_UPDATER] = 1 + cfg->fake_updaters;
		posting = 1 + cfg->fake_updaters;
		break;
	case UT_MODE_GP_LATENCY:
		n[UT_ROLE_UPDATER] = cfg->updaters;
		posting = cfg->async ? cfg->updaters : 0;
		break;
	case UT_MODE_READ_COST:
		n[UT_ROLE_UPDATER] = 0;
		break;
	default:
		n[UT_ROLE_UPDATER] = cfg->enqueuers;
		posting = cfg->enqueuers;
		break;
	}
	switch (layout) {
	case UT_LAYOUT_PER_CPU:
		n[UT_ROLE_WORKER] = cfg->plan_cpus;
		break;
	case UT_LAYOUT_PER_THREAD:
	case UT_LAYOUT_RT:
		n[UT_ROLE_WORKER] = posting;
		break;
	default:
		n[UT_ROLE_WORKER] = posting ? 1 : 0;
	}
}

/* ---- results ---- */

uint64_t ut_result_errors(const struct ut_result *r)
{
	uint64_t n = 0;

	for (int i = 0; i < UT_ERR_COUNT; i++)
		n += r->errors[i];
	return n;
}

static uint64_t errors_now(struct ut_run *run)
{
	uint64_t n = 0;

	for (int i = 0; i < run->nthreads; i++)
		for (int e = 0; e < UT_ERR_COUNT; e++)
			n += ut_read(&run->threads[i].errors[e]);
	for (int e = 0; e < UT_ERR_COUNT; e++)
		n += ut_read(&run->cb_errors[e]);
	return n;
}

static void collect(struct ut_run *run)
{
	struct ut_result *res = run->res;

	for (int i = 0; i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];

		res->reads += t->reads;
		res->updates += t->updates;
		res->grace_periods += t->gps;
		res->barriers += t->barriers;
		res->poll_checks += t->poll_checks;
		for (int e = 0; e < UT_ERR_COUNT; e++)
			res->errors[e] += t->errors[e];
		for (int a = 0; a <= UT_MAX_PIPE; a++)
			res->pipe[a] += t->pipe[a];
		if (t->lat)
			ut_hist_merge(&res->gp_lat, t->lat);
	}
	for (int e = 0; e < UT_ERR_COUNT; e++)
		res->errors[e] += run->cb_errors[e];
	res->threads = calloc((size_t)(run->nthreads ? run->nthreads : 1), sizeof(*res->threads));
	for (int i = 0; res->threads && i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];
		struct ut_thread_result *tr = &res->threads[res->nthreads++];

		tr->kind = ut_thread_kind_name(t->kind);
		tr->idx = t->idx;
		tr->cpu_planned = t->cpu_planned;
		tr->node = t->node;
		tr->cpu_start = t->started ? t->cpu_start : -1;
		tr->cpu_end = t->started ? t->cpu_seen : -1;
	}
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
}

/* ---- controller ---- */

static const struct ut_mode_ops *mode_ops(enum ut_mode m)
{
	switch (m) {
	case UT_MODE_GP_LATENCY: return &ut_mode_gp_latency;
	case UT_MODE_READ_COST: return &ut_mode_read_cost;
	case UT_MODE_CALLBACK: return &ut_mode_callback;
	case UT_MODE_FLOOD: return &ut_mode_flood;
	case UT_MODE_BARRIER: return &ut_mode_barrier;
	default: return &ut_mode_stress;
	}
}

static void live_progress(struct ut_run *run, uint64_t elapsed, bool clear)
{
	char line[200];
	uint64_t reads = 0, updates = 0;

	if (clear) {
		fprintf(stderr, "\r%*s\r", 100, "");
		return;
	}
	for (int i = 0; i < run->nthreads; i++) {
		reads += ut_read(&run->threads[i].reads);
		updates += ut_read(&run->threads[i].updates) + ut_read(&run->threads[i].gps);
	}
	snprintf(line, sizeof(line), "[%5.1fs/%.0fs] %s/%s reads %llu gps/updates %llu cbs %llu%s",
		 elapsed / 1e9, run->cfg->duration_ns / 1e9, run->ops->name, ut_layout_names[run->layout],
		 (unsigned long long)reads, (unsigned long long)updates,
		 (unsigned long long)__atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED),
		 errors_now(run) ? " !!! errors" : "");
	fprintf(stderr, "\r%-99.99s", line);
	fflush(stderr);
}

int ut_run_one(const struct ut_config *cfg, const struct ut_flavor_ops *ops,
	       enum ut_layout layout, struct ut_plan *plan, struct ut_result *res)
{
	struct ut_run *run = calloc(1, sizeof(*run));
	struct ut_lib_worker_stat *lib = calloc(UT_MAX_WORKERS, sizeof(*lib));
	const struct ut_mode_ops *mode = mode_ops(cfg->mode);
	bool tty = isatty(2) && !cfg->tap && cfg->human != stderr;
	uint64_t t0, next_stat, elapsed = 0;
	int nlib = 0, rc = 0;

	memset(res, 0, sizeof(*res));
	res->flavor = ops;
	res->layout = layout;
	res->mode = cfg->mode;
	res->gp_lat_what = "grace period";
	ut_hist_init(&res->gp_lat);
	ut_hist_init(&res->cb_lat);

	run->cfg = cfg;
	run->ops = ops;
	run->layout = layout;
	run->plan = plan;
	run->res = res;
	run->mode = mode;
	pthread_mutex_init(&run->workers_lock, NULL);
	run->generation = ++run_generation;

	/* The controller calls rcu_barrier and call_rcu_data_free: register it. */
	ops->register_thread();
	if (ops->is_qsbr)
		ops->thread_offline();

	if (ut_layout_setup(run)) {
		res->verdict = UT_ENV;
		goto out_unregister;
	}
	if (mode->setup(run)) {
		res->verdict = UT_ENV;
		goto out_teardown;
	}
	ut_watchdog_attach(run);
	t0 = ut_now_ns();
	run->t_start_ns = t0;
	for (int i = 0; i < run->nthreads; i++) {
		int e = pthread_create(&run->threads[i].tid, NULL, mode->thread_fn, &run->threads[i]);

		if (e) {
			snprintf(res->note, sizeof(res->note), "pthread_create: %s", strerror(e));
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
			run->nthreads = i;
			res->verdict = UT_ENV;
			break;
		}
	}

	next_stat = cfg->stat_interval_ns;
	while (!ut_should_stop(run)) {
		uint64_t left, step = 100000000ull;

		elapsed = ut_now_ns() - t0;
		if (elapsed >= cfg->duration_ns)
			break;
		if (__atomic_load_n(&run->pin_failed, __ATOMIC_RELAXED))
			break;
		left = cfg->duration_ns - elapsed;
		if (tty)
			step = 200000000ull;
		ut_sleep_ns(left < step ? left : step);
		elapsed = ut_now_ns() - t0;
		if (mode->between)
			mode->between(run, elapsed);
		if (tty)
			live_progress(run, elapsed, false);
		if (cfg->stat_interval_ns && !cfg->quiet && elapsed >= next_stat &&
		    elapsed < cfg->duration_ns) {
			char buf[512];
			uint64_t errs = errors_now(run);

			mode->stat_line(run, buf, sizeof(buf));
			if (tty)
				live_progress(run, elapsed, true);
			ut_out(cfg, "%s[%6.1fs] %s/%s: %s errors %llu\n", errs ? "!!! " : "",
			       elapsed / 1e9, ops->name, ut_layout_names[layout], buf,
			       (unsigned long long)errs);
			next_stat += cfg->stat_interval_ns;
		}
	}
	if (tty)
		live_progress(run, 0, true);
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&run->phase, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < run->nthreads; i++) {
		pthread_join(run->threads[i].tid, NULL);
		__atomic_add_fetch(&run->phase, 1, __ATOMIC_RELAXED);
	}
	res->seconds = (ut_now_ns() - t0) / 1e9;
	if (mode == &ut_mode_read_cost && res->seconds > cfg->duration_ns / 1e9)
		res->seconds = cfg->duration_ns / 1e9;

	if (ops->is_qsbr)
		ops->thread_online();
	{
		uint64_t d0 = ut_now_ns();

		ut_drain_callbacks(run);
		res->drain_s = (ut_now_ns() - d0) / 1e9;
	}
	if (ops->is_qsbr)
		ops->thread_offline();
	ut_layout_snapshot(run, lib, &nlib);
	collect(run);
	mode->finish(run);
	if (__atomic_load_n(&run->pin_failed, __ATOMIC_RELAXED)) {
		snprintf(res->note, sizeof(res->note), "pinning refused: %.140s", run->pin_error);
		if (res->verdict == UT_SUCCESS)
			res->verdict = UT_ENV;
	}
	if (res->verdict == UT_SUCCESS && ut_result_errors(res))
		res->verdict = UT_FAILURE;

out_teardown:
	if (ops->is_qsbr)
		ops->thread_online();
	ut_layout_teardown(run);
	if (ops->is_qsbr)
		ops->thread_offline();
out_unregister:
	ut_watchdog_attach(NULL);
	ops->unregister_thread();
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
	free(lib);
	return rc;
}

/*
 * Allocate run->threads: nreaders readers, then na threads of kind ka and nb
 * of kind kb, each with its planned CPU and NUMA node and a node-local
 * latency histogram for the non-readers.
 */
int ut_threads_alloc(struct ut_run *run, int nreaders,
		     enum ut_thread_role_kind ka, int na, bool posts_a,
		     enum ut_thread_role_kind kb, int nb, bool posts_b)
{
	const struct ut_plan *plan = run->plan;
	int n = nreaders + na + nb, u = 0;

	run->threads = calloc((size_t)(n ? n : 1), sizeof(*run->threads));
	if (!run->threads)
		return -1;
	run->nthreads = n;
	for (int i = 0; i < n; i++) {
		struct ut_thread *t = &run->threads[i];
		int role = i < nreaders ? UT_ROLE_READER : UT_ROLE_UPDATER;
		int ri = i < nreaders ? i : u++;

		t->run = run;
		t->own_worker = -1;
		t->cpu_planned = -1;
		t->node = -1;
		if (plan && ri < plan->n[role]) {
			t->cpu_planned = plan->cpu[role][ri];
			t->node = plan->node[role] ? plan->node[role][ri] : -1;
		}
		if (i < nreaders) {
			t->kind = UT_T_READER;
			t->idx = i;
		} else if (i < nreaders + na) {
			t->kind = ka;
			t->idx = i - nreaders;
			t->posts = posts_a;
		} else {
			t->kind = kb;
			t->idx = i - nreaders - na;
			t->posts = posts_b;
		}
		ut_rng_seed(&t->rng, run->cfg->seed, (uint64_t)i * 131 + t->kind);
		t->state = "not started";
		if (t->kind != UT_T_READER) {
			t->lat = ut_alloc_local(sizeof(*t->lat), t->node);
			if (!t->lat)
				return -1;
			ut_hist_init(t->lat);
		}
	}
	return 0;
}
