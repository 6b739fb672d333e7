/* SPDX-License-Identifier: MIT */
/*
 * gp-latency mode: updaters time every grace period while readers run.
 * Synchronous: each updater times synchronize_rcu back to back.  --async:
 * each updater posts call_rcu callbacks, at most --max-outstanding of its own
 * pending at once, and the latency is enqueue -> invocation.
 */
#define _LGPL_SOURCE
#define _GNU_SOURCE
#include <stdlib.h>

#include <urcu/pointer.h>

#include "callbacks.h"

static void *reader_target;	/* what plain readers dereference */

void *ut_plain_reader(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	uint64_t delay = run->cfg->read_delay_ns;
	unsigned long acc = 0;

	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		for (int i = 0; i < 64; i++) {
			ops->read_lock();
			acc += (unsigned long)rcu_dereference(reader_target);
			if (delay)
				ut_spin_ns(delay);
			ops->read_unlock();
			ops->quiescent_state();
		}
		ut_count(&t->reads, 64);
		ut_count(&t->progress, 1);
	}
	ut_thread_end(t);
	t->mode_data = NULL;
	(void)acc;
	return NULL;
}

struct gp_cb {
	struct ut_cb cb;
	struct ut_run *run;
	struct ut_thread *owner;
	uint64_t *pending;
};

static void gp_async_cb(struct rcu_head *head)
{
	struct gp_cb *g = caa_container_of(head, struct gp_cb, cb.head);
	struct ut_run *run = g->run;
	uint64_t *pending = g->pending;

	ut_cb_begin(run, &g->cb);
	free(g);
	/* Relaxed: only a pacing hint for the owner. */
	__atomic_sub_fetch(pending, 1, __ATOMIC_RELAXED);
	ut_cb_end(run);
}

static void *gp_updater(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	uint64_t pending = 0;

	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		if (!run->cfg->async) {
			uint64_t t0;

			ut_thread_set_state(t, "synchronize_rcu");
			t0 = ut_now_ns();
			ops->synchronize_rcu();
			ut_hist_add(t->lat, ut_now_ns() - t0);
			ut_count(&t->gps, 1);
			ut_count(&t->progress, 1);
		} else if (__atomic_load_n(&pending, __ATOMIC_RELAXED) < run->cfg->max_outstanding) {
			struct gp_cb *g = malloc(sizeof(*g));

			if (!g)
				break;
			g->run = run;
			g->owner = t;
			g->pending = &pending;
			__atomic_add_fetch(&pending, 1, __ATOMIC_RELAXED);
			ut_thread_set_state(t, "call_rcu");
			ut_cb_post(run, t, &g->cb, gp_async_cb);
			ut_count(&t->posted, 1);
			ut_count(&t->progress, 1);
			ut_outstanding_note(run);
		} else {
			ut_thread_set_state(t, "waiting for callbacks");
			ut_rcu_pause(t, 20000);
		}
		ops->quiescent_state();
	}
	/* Callbacks reference this stack's counter: wait for them. */
	ut_thread_set_state(t, "rcu_barrier (final)");
	while (__atomic_load_n(&pending, __ATOMIC_RELAXED)) {
		ops->barrier();
		ut_count(&t->progress, 1);
	}
	ut_thread_end(t);
	return NULL;
}

static void *gp_thread(void *arg)
{
	struct ut_thread *t = arg;

	return t->kind == UT_T_READER ? ut_plain_reader(t) : gp_updater(t);
}

static int gp_setup(struct ut_run *run)
{
	static int target;

	reader_target = &target;
	return ut_threads_alloc(run, run->cfg->readers, UT_T_UPDATER, run->cfg->updaters,
				run->cfg->async, UT_T_FAKE, 0, false);
}

static void gp_finish(struct ut_run *run)
{
	struct ut_result *res = run->res;

	ut_cb_check_lost(run);
	if (run->cfg->async) {
		res->gp_lat_what = "call_rcu enqueue to invocation";
		ut_hist_merge(&res->gp_lat, &res->cb_lat);
		res->grace_periods = 0;
	} else {
		res->gp_lat_what = "synchronize_rcu";
	}
}

static void gp_stat(struct ut_run *run, char *buf, size_t len)
{
	uint64_t reads = 0, gps = 0;

	for (int i = 0; i < run->nthreads; i++) {
		reads += ut_read(&run->threads[i].reads);
		gps += ut_read(&run->threads[i].gps);
	}
	snprintf(buf, len, "reads %llu gps %llu cbs %llu/%llu", (unsigned long long)reads,
		 (unsigned long long)gps,
		 (unsigned long long)__atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED),
		 (unsigned long long)__atomic_load_n(&run->cb_posted, __ATOMIC_RELAXED));
}

const struct ut_mode_ops ut_mode_gp_latency = {
	.setup = gp_setup,
	.thread_fn = gp_thread,
	.finish = gp_finish,
	.stat_line = gp_stat,
};
