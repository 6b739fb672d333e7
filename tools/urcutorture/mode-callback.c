/* SPDX-License-Identifier: MIT */
/*
 * The call_rcu workloads, all through the chosen call_rcu layout:
 *
 * callback - enqueuers post callbacks at --rate each (0 = as fast as the
 *            --max-outstanding bound allows); measured: enqueue -> invoke
 *            latency overall and per worker, throughput, backlog, worker CPU
 *            time.
 * flood    - enqueuers post as fast as the bound allows and every callback
 *            re-posts itself --launder times; forward progress is what the
 *            watchdog checks (callbacks must keep completing), the backlog is
 *            bounded and must drain after the flood.
 * barrier  - each enqueuer posts --batch callbacks then calls rcu_barrier
 *            and checks that all of its callbacks ran; barrier latency is
 *            timed.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "callbacks.h"

struct cb_obj {
	struct ut_cb cb;
	struct ut_run *run;
	unsigned long launder_left;
	uint64_t *done;		/* barrier mode: the owner's counter */
};

static void simple_cb(struct rcu_head *head)
{
	struct cb_obj *c = caa_container_of(head, struct cb_obj, cb.head);
	struct ut_run *run = c->run;

	if (ut_cb_begin(run, &c->cb)) {
		if (c->launder_left) {
			c->launder_left--;
			ut_cb_post(run, NULL, &c->cb, simple_cb);
		} else {
			free(c);
		}
	}
	ut_cb_end(run);
}

static void *enqueuer(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_config *cfg = run->cfg;
	const struct ut_flavor_ops *ops = run->ops;
	bool paced = cfg->mode == UT_MODE_CALLBACK && cfg->rate > 0;
	uint64_t interval = paced ? (uint64_t)(1e9 / cfg->rate) : 0, next;

	ut_thread_begin(t);
	next = ut_now_ns();
	while (!ut_should_stop(run)) {
		struct cb_obj *c;

		if (paced) {
			uint64_t now = ut_now_ns();

			if (now < next) {
				ut_thread_set_state(t, "pacing");
				ut_rcu_pause(t, next - now);
				continue;
			}
			next += interval;
		}
		if (ut_outstanding(run) >= cfg->max_outstanding) {
			ut_thread_set_state(t, "backlog bound");
			ut_rcu_pause(t, 10000);
			continue;
		}
		c = malloc(sizeof(*c));
		if (!c)
			break;
		c->run = run;
		c->launder_left = cfg->mode == UT_MODE_FLOOD ? cfg->launder : 0;
		c->done = NULL;
		ut_thread_set_state(t, "call_rcu");
		ut_cb_post(run, t, &c->cb, simple_cb);
		ut_count(&t->posted, 1);
		ut_count(&t->progress, 1);
		ut_outstanding_note(run);
		ops->quiescent_state();
	}
	ut_thread_end(t);
	return NULL;
}

static void barrier_cb(struct rcu_head *head)
{
	struct cb_obj *c = caa_container_of(head, struct cb_obj, cb.head);
	struct ut_run *run = c->run;

	if (ut_cb_begin(run, &c->cb))
		__atomic_add_fetch(c->done, 1, __ATOMIC_RELAXED);
	ut_cb_end(run);
}

static void *barrier_thread(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	unsigned long batch = run->cfg->batch;
	struct cb_obj *objs = calloc(batch, sizeof(*objs));
	uint64_t done;

	ut_thread_begin(t);
	while (objs && !ut_should_stop(run)) {
		uint64_t t0;

		done = 0;
		ut_thread_set_state(t, "call_rcu");
		for (unsigned long i = 0; i < batch; i++) {
			objs[i].run = run;
			objs[i].done = &done;
			objs[i].launder_left = 0;
			ut_cb_post(run, t, &objs[i].cb, barrier_cb);
		}
		ut_count(&t->posted, batch);
		ut_outstanding_note(run);
		ut_thread_set_state(t, "rcu_barrier");
		t0 = ut_now_ns();
		ops->barrier();
		ut_hist_add(t->lat, ut_now_ns() - t0);
		/*
		 * rcu_barrier returns after every earlier callback ran; its
		 * implementation orders those callbacks before its return, so
		 * a relaxed load suffices here.
		 */
		if (__atomic_load_n(&done, __ATOMIC_RELAXED) != batch) {
			ut_count(&t->errors[UT_ERR_BARRIER], 1);
			ut_thread_set_state(t, "waiting for late callbacks");
			while (__atomic_load_n(&done, __ATOMIC_RELAXED) != batch)
				ut_rcu_pause(t, 1000000);
		}
		ut_count(&t->barriers, 1);
		ut_count(&t->progress, 1);
		ops->quiescent_state();
	}
	ut_thread_end(t);
	free(objs);
	return NULL;
}

static void *cb_thread(void *arg)
{
	struct ut_thread *t = arg;

	if (t->kind == UT_T_READER)
		return ut_plain_reader(t);
	if (t->run->cfg->mode == UT_MODE_BARRIER)
		return barrier_thread(t);
	return enqueuer(t);
}

static int cb_setup(struct ut_run *run)
{
	return ut_threads_alloc(run, run->cfg->readers, UT_T_ENQUEUER, run->cfg->enqueuers, true,
				UT_T_FAKE, 0, false);
}

static void cb_finish(struct ut_run *run)
{
	ut_cb_check_lost(run);
	run->res->gp_lat_what = run->cfg->mode == UT_MODE_BARRIER ? "rcu_barrier" : "none";
}

static void cb_stat(struct ut_run *run, char *buf, size_t len)
{
	uint64_t reads = 0, barriers = 0;

	for (int i = 0; i < run->nthreads; i++) {
		reads += ut_read(&run->threads[i].reads);
		barriers += ut_read(&run->threads[i].barriers);
	}
	snprintf(buf, len, "reads %llu cbs %llu/%llu backlog %llu max %llu barriers %llu",
		 (unsigned long long)reads,
		 (unsigned long long)__atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED),
		 (unsigned long long)__atomic_load_n(&run->cb_posted, __ATOMIC_RELAXED),
		 (unsigned long long)ut_outstanding(run),
		 (unsigned long long)__atomic_load_n(&run->outstanding_max, __ATOMIC_RELAXED),
		 (unsigned long long)barriers);
}

const struct ut_mode_ops ut_mode_callback = {
	.setup = cb_setup,
	.thread_fn = cb_thread,
	.finish = cb_finish,
	.stat_line = cb_stat,
};

const struct ut_mode_ops ut_mode_flood = {
	.setup = cb_setup,
	.thread_fn = cb_thread,
	.finish = cb_finish,
	.stat_line = cb_stat,
};

const struct ut_mode_ops ut_mode_barrier = {
	.setup = cb_setup,
	.thread_fn = cb_thread,
	.finish = cb_finish,
	.stat_line = cb_stat,
};
