/* SPDX-License-Identifier: MIT */
/*
 * A mode's threads: from its roles to thread counts and placement-plan
 * sizes, the threads[] array of a run, and each thread's start (pinning,
 * registration, its own call_rcu worker in the per-thread layouts) and end.
 * Used by run.c and by the modes' thread functions; calls only layout.c
 * (ut_worker_add) and the placement module.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "crash.h"

/* ---- counts ---- */

void ut_mode_counts(const struct ut_config *cfg, int n[UT_MODE_MAX_ROLES],
		    bool posts[UT_MODE_MAX_ROLES])
{
	memset(n, 0, UT_MODE_MAX_ROLES * sizeof(*n));
	memset(posts, 0, UT_MODE_MAX_ROLES * sizeof(*posts));
	cfg->mode->count(cfg, n, posts);
}

/* Threads that call call_rcu, all roles together. */
static int posting_threads(const struct ut_config *cfg)
{
	int n[UT_MODE_MAX_ROLES];
	bool posts[UT_MODE_MAX_ROLES];
	int total = 0;

	ut_mode_counts(cfg, n, posts);
	for (int i = 0; i < cfg->mode->nroles; i++)
		if (posts[i])
			total += n[i];
	return total;
}

bool ut_mode_uses_layout(const struct ut_config *cfg)
{
	return posting_threads(cfg) > 0;
}

void ut_role_counts(const struct ut_config *cfg, enum ut_layout layout, int n[UT_ROLE_COUNT])
{
	int count[UT_MODE_MAX_ROLES];
	bool posts[UT_MODE_MAX_ROLES];
	int posting = posting_threads(cfg);

	ut_mode_counts(cfg, count, posts);
	for (int r = 0; r < UT_ROLE_COUNT; r++)
		n[r] = 0;
	for (int i = 0; i < cfg->mode->nroles; i++)
		n[cfg->mode->roles[i].place] += count[i];
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

/* ---- the threads of a run ---- */

const char *ut_thread_role_name(const struct ut_thread *t)
{
	return t->run->mode->roles[t->role].name;
}

void ut_plan_label(const struct ut_config *cfg, struct ut_plan *p)
{
	const struct ut_mode_ops *mode = cfg->mode;
	int count[UT_MODE_MAX_ROLES], slot[UT_ROLE_COUNT] = { 0 };
	bool posts[UT_MODE_MAX_ROLES];

	for (int r = 0; r < UT_ROLE_COUNT; r++) {
		p->label[r] = calloc((size_t)(p->n[r] ? p->n[r] : 1), sizeof(*p->label[r]));
		for (int k = 0; p->label[r] && k < p->n[r]; k++)
			snprintf(p->label[r][k], sizeof(p->label[r][k]), "%s %d", ut_role_name(r), k);
	}
	/* The slots in the order ut_threads_alloc takes them. */
	ut_mode_counts(cfg, count, posts);
	for (int r = 0; r < mode->nroles; r++) {
		enum ut_role place = mode->roles[r].place;

		for (int i = 0; i < count[r]; i++, slot[place]++)
			if (p->label[place] && slot[place] < p->n[place])
				snprintf(p->label[place][slot[place]], sizeof(p->label[place][0]), "%s %d",
					 mode->roles[r].name, i);
	}
}

/*
 * run->threads: the threads of each role in roles[] order, each with its
 * planned CPU and NUMA node (slots of its placement role, taken in order),
 * a random stream of its own, the mode's zeroed per-thread data and, but
 * for readers, a node-local latency histogram.
 */
int ut_threads_alloc(struct ut_run *run)
{
	const struct ut_mode_ops *mode = run->mode;
	const struct ut_plan *plan = run->plan;
	int count[UT_MODE_MAX_ROLES], slot[UT_ROLE_COUNT] = { 0 };
	bool posts[UT_MODE_MAX_ROLES];
	int n = 0, i = 0;

	ut_mode_counts(run->cfg, count, posts);
	for (int r = 0; r < mode->nroles; r++)
		n += count[r];
	run->threads = calloc((size_t)(n ? n : 1), sizeof(*run->threads));
	if (!run->threads)
		return -1;
	run->nthreads = n;
	for (int r = 0; r < mode->nroles; r++) {
		enum ut_role place = mode->roles[r].place;

		for (int k = 0; k < count[r]; k++, i++) {
			struct ut_thread *t = &run->threads[i];
			int ps = slot[place]++;

			t->run = run;
			t->role = r;
			t->idx = k;
			t->posts = posts[r];
			t->own_worker = -1;
			t->cpu_planned = -1;
			t->node = -1;
			if (plan && ps < plan->n[place]) {
				t->cpu_planned = plan->cpu[place][ps];
				t->node = plan->node[place] ? plan->node[place][ps] : -1;
			}
			ut_rng_seed(&t->rng, run->cfg->seed, (uint64_t)i * 131 + (uint64_t)r);
			t->state = "not started";
			if (mode->thread_size) {
				t->mode_data = calloc(1, mode->thread_size);
				if (!t->mode_data)
					return -1;
			}
			if (!mode->roles[r].reader) {
				t->lat = ut_alloc_local(sizeof(*t->lat), t->node);
				if (!t->lat)
					return -1;
				ut_hist_init(t->lat);
			}
		}
	}
	return 0;
}

int ut_thread_begin(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	char err[160] = "";

	t->own_worker = -1;
	ut_crash_thread_enter(t);
	/* The id the library's stall reports name it by (relaxed: the
	 * watchdog's stall report reads it). */
	__atomic_store_n(&t->ktid, (int)syscall(SYS_gettid), __ATOMIC_RELAXED);
	if (t->cpu_planned >= 0) {
		if (ut_pin_self(t->cpu_planned, err, sizeof(err))) {
			if (!__atomic_exchange_n(&run->pin_failed, 1, __ATOMIC_RELAXED))
				snprintf(run->pin_error, sizeof(run->pin_error), "%s %d: %s",
					 ut_thread_role_name(t), t->idx, err);
		} else {
			__atomic_add_fetch(&run->res->threads_pinned, 1, __ATOMIC_RELAXED);
		}
	}
	/* Atomic: the watchdog's stall report reads it from its own thread. */
	__atomic_store_n(&t->cpu_seen, ut_current_cpu(), __ATOMIC_RELAXED);
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
				 ut_thread_role_name(t), t->idx);
			t->own_worker = ut_worker_add(run, label, t->own_crdp,
						   run->ops->get_call_rcu_thread(t->own_crdp), true, wcpu);
		}
	}
	/* Release: cpu_start, set above, is complete for whoever sees started
	 * (the acquire load in ut_result_from_threads, run.c). */
	__atomic_store_n(&t->started, true, __ATOMIC_RELEASE);
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
	ut_crash_thread_leave();
}

void ut_thread_set_state(struct ut_thread *t, const char *state)
{
	__atomic_store_n(&t->state_since_ns, ut_now_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&t->state, state, __ATOMIC_RELAXED);
}
