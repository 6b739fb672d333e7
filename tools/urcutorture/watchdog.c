/* SPDX-License-Identifier: MIT */
/*
 * Watchdog.  A thread samples the progress of the running combination every
 * 50 ms: the counters of the updaters, fake updaters and enqueuers (readers
 * only when there is nothing else), invoked callbacks and the controller's
 * phase counter.  If the sum does not move for --stall-timeout, or one
 * updater-side thread alone makes no progress that long while the others
 * do (an updater stuck in synchronize_rcu behind fake updaters), it prints
 * where every thread is, what is pending, and ends the process with exit 2,
 * so a hung grace period never turns into a silent CI timeout.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ut.h"

static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ut_run *wd_run;
static const struct ut_config *wd_cfg;
static const struct ut_result *wd_done;
static struct ut_batch *wd_batch;
static const int *wd_ndone;
static int wd_stop;
static pthread_t wd_thread;
static bool wd_started;

static bool is_reader(const struct ut_run *run, const struct ut_thread *t)
{
	return run->mode->roles[t->role].reader;
}

static uint64_t progress_sum(struct ut_run *run)
{
	uint64_t sum = 0;
	bool others = false;

	for (int i = 0; i < run->nthreads; i++)
		others |= !is_reader(run, &run->threads[i]);
	for (int i = 0; i < run->nthreads; i++)
		if (!others || !is_reader(run, &run->threads[i]))
			sum += ut_read(&run->threads[i].progress);
	sum += __atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED);
	sum += __atomic_load_n(&run->phase, __ATOMIC_RELAXED);
	return sum;
}

static void stall_report(struct ut_run *run, uint64_t idle_ns)
{
	const struct ut_config *cfg = run->cfg;
	uint64_t now = ut_now_ns();
	struct ut_result *r = calloc(1, sizeof(*r));
	/* Acquire: pairs with the release store of ndone in main(). */
	int ndone = wd_ndone ? __atomic_load_n(wd_ndone, __ATOMIC_ACQUIRE) : 0;
	struct ut_result *all;

	ut_out(&cfg->sink, "!!! STALL: no progress for %.1f s in %s/%s (mode %s)\n", idle_ns / 1e9,
	       run->ops->name, ut_layout_names[run->layout], run->mode->name);
	ut_out(&cfg->sink, "  %-16s %-22s %9s %12s %5s %5s\n", "thread", "state", "for", "progress",
	       "plan", "cpu");
	for (int i = 0; i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];
		const char *state = __atomic_load_n(&t->state, __ATOMIC_RELAXED);
		uint64_t since = __atomic_load_n(&t->state_since_ns, __ATOMIC_RELAXED);
		char name[32];

		snprintf(name, sizeof(name), "%s %d", ut_thread_role_name(t), t->idx);
		ut_out(&cfg->sink, "  %-16s %-22s %8.1fs %12llu %5d %5d\n", name, state ? state : "?",
		       since && since < now ? (now - since) / 1e9 : 0.0,
		       (unsigned long long)ut_read(&t->progress), t->cpu_planned, t->cpu_seen);
	}
	ut_out(&cfg->sink, "  callbacks: posted %llu invoked %llu pending %llu\n",
	       (unsigned long long)run->cb_posted, (unsigned long long)run->cb_invoked,
	       (unsigned long long)(run->cb_posted - run->cb_invoked));
	for (int i = 0; i < __atomic_load_n(&run->nworkers, __ATOMIC_ACQUIRE); i++) {
		/* acquire above pairs with the release publication in worker_add */
		struct ut_worker *w = &run->workers[i];

		ut_out(&cfg->sink, "  worker %-20s queued %llu invoked %llu\n", w->label,
		       (unsigned long long)ut_read(&w->queued), (unsigned long long)ut_read(&w->invoked));
	}
	if (run->ops->call_rcu_stats) {
		struct ut_lib_worker_stat st[64];
		int n = run->ops->call_rcu_stats(st, 64);

		for (int i = 0; i < n && i < 64; i++)
			ut_out(&cfg->sink, "  library worker %d: cpu %d backlog %lu queued %llu invoked %llu gps %llu flags 0x%lx\n",
			       i, st[i].cpu_affinity, st[i].backlog, st[i].queued, st[i].invoked,
			       st[i].grace_periods, st[i].flags);
	}

	/* The stalled combination, as far as it got, joins the finished ones. */
	r->cfg = cfg;
	r->flavor = run->ops;
	r->layout = run->layout;
	r->mode = run->mode;
	r->verdict = UT_STALL;
	r->seconds = (now - run->t_start_ns) / 1e9;
	ut_hist_init(&r->gp_lat);
	ut_hist_init(&r->cb_lat);
	for (int i = 0; i < run->nthreads; i++) {
		r->reads += ut_read(&run->threads[i].reads);
		r->updates += ut_read(&run->threads[i].updates);
		r->grace_periods += ut_read(&run->threads[i].gps);
		for (int e = 0; e < UT_ERR_COUNT; e++)
			r->errors[e] += ut_read(&run->threads[i].errors[e]);
		for (int e = 0; e < UT_MODE_MAX_ERRORS; e++)
			r->mode_errors[e] += ut_read(&run->threads[i].mode_errors[e]);
	}
	/* The mode's own figures were not folded in yet: its sections show zeros. */
	if (run->mode->result_size)
		r->mode_data = calloc(1, run->mode->result_size);
	r->cb_posted = run->cb_posted;
	r->cb_invoked = run->cb_invoked;
	snprintf(r->note, sizeof(r->note), "no progress for %.1f s", idle_ns / 1e9);
	all = calloc((size_t)ndone + 1, sizeof(*all));
	if (ndone)
		memcpy(all, wd_done, (size_t)ndone * sizeof(*all));
	all[ndone] = *r;
	if (cfg->sink.tap)
		printf("not ok %d - %s/%s %s # STALL\nBail out! stall\n", ndone + 1, run->ops->name,
		       ut_layout_names[run->layout], run->mode->name);
	wd_batch->elapsed_s = (now - wd_batch->t_start_ns) / 1e9;
	ut_report_json(wd_batch, all, ndone + 1, UT_STALL, UT_EXIT_STALL, wd_batch->global->json, NULL);
	ut_report_end(wd_batch, UT_STALL, all, ndone + 1);
	fflush(NULL);
	_exit(UT_EXIT_STALL);
}

/* Per-thread progress seen last and when it last moved. */
static uint64_t *thr_last, *thr_since;
static int thr_n;

static void thread_reset(struct ut_run *run, uint64_t now)
{
	free(thr_last);
	free(thr_since);
	thr_n = run->nthreads;
	thr_last = calloc((size_t)thr_n + 1, sizeof(*thr_last));
	thr_since = calloc((size_t)thr_n + 1, sizeof(*thr_since));
	for (int i = 0; i < thr_n; i++) {
		thr_last[i] = ut_read(&run->threads[i].progress);
		thr_since[i] = now;
	}
}

/* An updater-side thread, started and not finished, stuck alone. */
static bool thread_stuck(struct ut_run *run, uint64_t now, uint64_t *idle)
{
	if (thr_n != run->nthreads || ut_should_stop(run))
		return false;
	for (int i = 0; i < thr_n; i++) {
		struct ut_thread *t = &run->threads[i];
		uint64_t p = ut_read(&t->progress);
		const char *state = __atomic_load_n(&t->state, __ATOMIC_RELAXED);

		if (p != thr_last[i] || is_reader(run, t) || !state ||
		    !strcmp(state, "done") || !strcmp(state, "not started")) {
			thr_last[i] = p;
			thr_since[i] = now;
			continue;
		}
		if (now - thr_since[i] >= run->cfg->stall_timeout_ns) {
			*idle = now - thr_since[i];
			return true;
		}
	}
	return false;
}

static void *watchdog_fn(void *arg)
{
	struct ut_run *seen = NULL;
	uint64_t last_sum = 0, last_change = ut_now_ns(), idle;

	(void)arg;
	while (!__atomic_load_n(&wd_stop, __ATOMIC_RELAXED)) {
		uint64_t now, sum;

		ut_sleep_ns(50000000ull);
		pthread_mutex_lock(&wd_lock);
		now = ut_now_ns();
		if (!wd_run) {
			seen = NULL;
			last_change = now;
		} else if (wd_run != seen) {
			seen = wd_run;
			last_sum = progress_sum(wd_run);
			last_change = now;
			thread_reset(wd_run, now);
		} else {
			if (thr_n != wd_run->nthreads)
				thread_reset(wd_run, now);
			if (thread_stuck(wd_run, now, &idle))
				stall_report(wd_run, idle);
			sum = progress_sum(wd_run);
			if (sum != last_sum) {
				last_sum = sum;
				last_change = now;
			} else if (now - last_change >= wd_run->cfg->stall_timeout_ns) {
				stall_report(wd_run, now - last_change);
			}
		}
		pthread_mutex_unlock(&wd_lock);
	}
	return NULL;
}

void ut_watchdog_results(struct ut_batch *b, const struct ut_result *done, const int *ndone)
{
	pthread_mutex_lock(&wd_lock);
	wd_batch = b;
	wd_done = done;
	wd_ndone = ndone;
	pthread_mutex_unlock(&wd_lock);
}

void ut_watchdog_start(const struct ut_config *cfg)
{
	wd_cfg = cfg;
	if (!pthread_create(&wd_thread, NULL, watchdog_fn, NULL))
		wd_started = true;
}

void ut_watchdog_attach(struct ut_run *run)
{
	pthread_mutex_lock(&wd_lock);
	wd_run = run;
	pthread_mutex_unlock(&wd_lock);
}

void ut_watchdog_stop(void)
{
	if (!wd_started)
		return;
	__atomic_store_n(&wd_stop, 1, __ATOMIC_RELAXED);
	pthread_join(wd_thread, NULL);
	wd_started = false;
}
