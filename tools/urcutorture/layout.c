/* SPDX-License-Identifier: MIT */
/*
 * call_rcu layouts and the tool's table of call_rcu workers.
 *
 * Layouts: default (the flavor's shared worker), per-cpu
 * (create_all_cpu_call_rcu_data, freed by free_all_cpu_call_rcu_data at the
 * end of the combination), per-thread and rt (each posting thread creates
 * its own worker in ut_thread_begin and the controller frees it after the
 * drain).  Between combinations nothing of a layout survives: per-CPU data
 * freed, per-thread data reset, the default worker's affinity restored.
 *
 * Callback routing.  The tool keeps its own table of call_rcu workers: the
 * workers the layout created (known call_rcu_data and thread), plus a slot
 * for every other thread that turns out to invoke callbacks (the enqueuer
 * itself for busted, the default worker after a per-thread one was freed).
 * A slot is written by one thread only, so per-worker counters and latency
 * histograms need no atomics beyond the relaxed ones the stat lines read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ut.h"

static double thread_cpu_seconds(pthread_t thread)
{
	clockid_t cid;
	struct timespec ts;

	if (pthread_getcpuclockid(thread, &cid) || clock_gettime(cid, &ts))
		return -1;
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Add a worker; returns its index or -1 when the table is full. */
int ut_worker_add(struct ut_run *run, const char *label, struct call_rcu_data *crdp,
		      pthread_t thread, bool thread_known, int cpu_affinity)
{
	struct ut_worker *w;
	int idx;

	pthread_mutex_lock(&run->workers_lock);
	idx = run->nworkers;
	if (idx >= UT_MAX_WORKERS) {
		pthread_mutex_unlock(&run->workers_lock);
		return -1;
	}
	w = &run->workers[idx];
	memset(w, 0, sizeof(*w));
	snprintf(w->label, sizeof(w->label), "%s", label);
	w->crdp = crdp;
	w->thread = thread;
	w->thread_known = thread_known;
	w->cpu_affinity = cpu_affinity;
	w->cpu_seen = -1;
	w->cpu_start_s = thread_known ? thread_cpu_seconds(thread) : -1;
	ut_hist_init(&w->lat);
	/*
	 * Release: publishes the slot's contents; pairs with the acquire load
	 * of nworkers in the lookups below.
	 */
	__atomic_store_n(&run->nworkers, idx + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&run->workers_lock);
	return idx;
}

static int worker_find_crdp(struct ut_run *run, struct call_rcu_data *crdp)
{
	/* Acquire pairs with the release in ut_worker_add. */
	int n = __atomic_load_n(&run->nworkers, __ATOMIC_ACQUIRE);

	for (int i = 0; i < n; i++)
		if (run->workers[i].crdp == crdp)
			return i;
	return -1;
}

int ut_worker_target(struct ut_run *run, struct ut_thread *t)
{
	if (t && t->own_worker >= 0)
		return t->own_worker;
	if (run->ops->is_busted)
		return -1;
	return worker_find_crdp(run, run->ops->get_call_rcu_data());
}

void ut_worker_queued(struct ut_run *run, int w)
{
	struct ut_worker *wk;
	uint64_t q, inv, backlog, old;

	if (w < 0)
		return;
	wk = &run->workers[w];
	q = __atomic_add_fetch(&wk->queued, 1, __ATOMIC_RELAXED);
	inv = __atomic_load_n(&wk->invoked, __ATOMIC_RELAXED);
	backlog = q > inv ? q - inv : 0;
	old = __atomic_load_n(&wk->max_backlog, __ATOMIC_RELAXED);
	while (backlog > old &&
	       !__atomic_compare_exchange_n(&wk->max_backlog, &old, backlog, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static __thread unsigned int tls_gen;
static __thread int tls_worker = -1;
static __thread unsigned int tls_calls;

void ut_worker_invoked(struct ut_run *run, uint64_t enqueue_ns)
{
	struct ut_worker *wk;
	uint64_t now = ut_now_ns();

	if (tls_gen != run->generation) {
		pthread_t self = pthread_self();
		int n = __atomic_load_n(&run->nworkers, __ATOMIC_ACQUIRE); /* pairs with ut_worker_add */

		tls_worker = -1;
		for (int i = 0; i < n; i++) {
			if (run->workers[i].thread_known && pthread_equal(run->workers[i].thread, self)) {
				tls_worker = i;
				break;
			}
		}
		if (tls_worker < 0) {
			char label[32];

			snprintf(label, sizeof(label), "%s%d", run->ops->is_busted ? "inline-" : "other-", n);
			tls_worker = ut_worker_add(run, label, NULL, self, true, -1);
		}
		tls_gen = run->generation;
	}
	if (tls_worker < 0)
		return;
	wk = &run->workers[tls_worker];
	ut_count(&wk->invoked, 1);
	ut_hist_add(&wk->lat, now > enqueue_ns ? now - enqueue_ns : 0);
	if ((tls_calls++ & 63) == 0)
		__atomic_store_n(&wk->cpu_seen, ut_current_cpu(), __ATOMIC_RELAXED);
}

/* ---- layouts ---- */

static void set_affinity_all(pthread_t thread)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int c = 0; c < CPU_SETSIZE; c++)
		CPU_SET(c, &set);
	(void)pthread_setaffinity_np(thread, sizeof(set), &set);
}

int ut_layout_setup(struct ut_run *run)
{
	const struct ut_flavor_ops *ops = run->ops;
	struct call_rcu_data *def;
	int wcpu = run->plan && run->plan->n[UT_ROLE_WORKER] > 0 ? run->plan->cpu[UT_ROLE_WORKER][0] : -1;

	if (ops->is_busted || !run->uses_layout)
		return 0;
	def = ops->get_default_call_rcu_data();
	if (def) {
		pthread_t th = ops->get_call_rcu_thread(def);
		int aff = -1;

		if (run->layout == UT_LAYOUT_DEFAULT && wcpu >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(wcpu, &set);
			if (pthread_setaffinity_np(th, sizeof(set), &set)) {
				snprintf(run->pin_error, sizeof(run->pin_error),
					 "cannot pin the default call_rcu worker to CPU %d", wcpu);
				__atomic_store_n(&run->pin_failed, 1, __ATOMIC_RELAXED);
			} else {
				aff = wcpu;
			}
		}
		ut_worker_add(run, "default", def, th, true, aff);
	}
	if (run->layout == UT_LAYOUT_PER_CPU) {
		if (ops->create_all_cpu_call_rcu_data(0)) {
			snprintf(run->res->note, sizeof(run->res->note),
				 "create_all_cpu_call_rcu_data failed: %s", strerror(errno));
			return -1;
		}
		for (int cpu = 0; cpu < run->cfg->inv->ncpus && cpu < CPU_SETSIZE; cpu++) {
			struct call_rcu_data *crdp = ops->get_cpu_call_rcu_data(cpu);
			char label[32];

			if (!crdp || worker_find_crdp(run, crdp) >= 0)
				continue;
			snprintf(label, sizeof(label), "cpu%d", cpu);
			ut_worker_add(run, label, crdp, ops->get_call_rcu_thread(crdp), true, cpu);
		}
	}
	if (ops->call_rcu_stats) {
		run->lib_start = calloc(UT_MAX_WORKERS, sizeof(*run->lib_start));
		if (run->lib_start) {
			run->nlib_start = ops->call_rcu_stats(run->lib_start, UT_MAX_WORKERS);
			if (run->nlib_start > UT_MAX_WORKERS)
				run->nlib_start = UT_MAX_WORKERS;
			if (run->nlib_start < 0)
				run->nlib_start = 0;
		}
	}
	return 0;
}

/* Worker CPU time and library statistics, before the workers go away. */
void ut_layout_snapshot(struct ut_run *run, struct ut_lib_worker_stat *lib, int *nlib)
{
	int n = __atomic_load_n(&run->nworkers, __ATOMIC_ACQUIRE); /* pairs with ut_worker_add */

	*nlib = 0;
	if (run->ops->call_rcu_stats)
		*nlib = run->ops->call_rcu_stats(lib, UT_MAX_WORKERS);
	if (*nlib > UT_MAX_WORKERS)
		*nlib = UT_MAX_WORKERS;
	if (*nlib < 0)
		*nlib = 0;
	run->res->workers = calloc((size_t)n, sizeof(*run->res->workers));
	run->res->nworkers = 0;
	for (int i = 0; i < n; i++) {
		struct ut_worker *w = &run->workers[i];
		struct ut_worker_result *wr;
		double now_s;

		if (!w->queued && !w->invoked && !w->crdp)
			continue;
		wr = &run->res->workers[run->res->nworkers++];
		snprintf(wr->label, sizeof(wr->label), "%s", w->label);
		wr->thread = w->thread;
		wr->cpu_affinity = w->cpu_affinity;
		wr->cpu_seen = w->cpu_seen;
		wr->queued = w->queued;
		wr->invoked = w->invoked;
		wr->max_backlog = w->max_backlog;
		now_s = w->thread_known && w->crdp ? thread_cpu_seconds(w->thread) : -1;
		wr->cpu_time_s = (now_s >= 0 && w->cpu_start_s >= 0) ? now_s - w->cpu_start_s : -1;
		wr->lat = malloc(sizeof(*wr->lat));
		*wr->lat = w->lat;
		for (int j = 0; j < *nlib; j++) {
			if (w->thread_known && pthread_equal(lib[j].thread, w->thread)) {
				uint64_t gp0 = 0, inv0 = 0;

				/* Workers that outlive a combination: count its share only. */
				for (int k = 0; k < run->nlib_start; k++) {
					if (pthread_equal(run->lib_start[k].thread, w->thread)) {
						gp0 = run->lib_start[k].grace_periods;
						inv0 = run->lib_start[k].invoked;
					}
				}
				wr->lib_stats = true;
				wr->grace_periods = lib[j].grace_periods - gp0;
				wr->lib_invoked = lib[j].invoked - inv0;
				wr->lib_max_backlog = lib[j].max_backlog;
				if (wr->cpu_affinity < 0)
					wr->cpu_affinity = lib[j].cpu_affinity;
			}
		}
	}
}

void ut_layout_teardown(struct ut_run *run)
{
	const struct ut_flavor_ops *ops = run->ops;

	if (ops->is_busted || !run->uses_layout)
		return;
	for (int i = 0; i < run->nthreads; i++) {
		if (run->threads[i].own_crdp) {
			ops->call_rcu_data_free(run->threads[i].own_crdp);
			run->threads[i].own_crdp = NULL;
		}
	}
	if (run->layout == UT_LAYOUT_PER_CPU)
		ops->free_all_cpu_call_rcu_data();
	if (run->layout == UT_LAYOUT_DEFAULT && run->plan && run->plan->n[UT_ROLE_WORKER] > 0 &&
	    run->plan->cpu[UT_ROLE_WORKER][0] >= 0) {
		struct call_rcu_data *def = ops->get_default_call_rcu_data();

		if (def)
			set_affinity_all(ops->get_call_rcu_thread(def));
	}
	/* The controller thread never set its own call_rcu_data; make sure. */
	ops->set_thread_call_rcu_data(NULL);
}

void ut_drain_callbacks(struct ut_run *run)
{
	/*
	 * Callbacks may re-post themselves (pipeline chains, laundering), and
	 * rcu_barrier only waits for those queued before it: repeat until the
	 * counts meet.  The watchdog bounds this loop.
	 */
	for (;;) {
		/* Acquire: pairs with the release increments in the callbacks. */
		uint64_t inv = __atomic_load_n(&run->cb_invoked, __ATOMIC_ACQUIRE);
		uint64_t posted = __atomic_load_n(&run->cb_posted, __ATOMIC_ACQUIRE);

		if (inv >= posted)
			break;
		run->ops->barrier();
		__atomic_add_fetch(&run->phase, 1, __ATOMIC_RELAXED);
		if (run->ops->is_busted)
			break;
	}
}

