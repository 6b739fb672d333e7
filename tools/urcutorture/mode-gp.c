/* SPDX-License-Identifier: MIT */
/*
 * gp-latency mode: updaters time every grace period while readers run.
 * Synchronous: each updater times synchronize_rcu back to back.  --async:
 * each updater posts call_rcu callbacks, at most --max-outstanding of its own
 * pending at once, and the latency is enqueue -> invocation.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "callbacks.h"

enum { GP_READER, GP_UPDATER };

static void *gp_updater(struct ut_thread *t);

/* gp-latency's own option: --async, refused by the other modes, part of a
 * combination's key (it measures something else). */
static const struct ut_opt gp_opts[] = {
	{ .name = "async", .json = "async", .type = UT_OPT_FLAG,
	  .flags = UT_OPTF_OWNER_ONLY | UT_OPTF_IN_KEY, .help = "time grace periods through call_rcu" },
	{ NULL }
};

static const struct ut_mode_role gp_roles[] = {
	[GP_READER] = { "reader", UT_ROLE_READER, true, ut_plain_reader },
	[GP_UPDATER] = { "updater", UT_ROLE_UPDATER, false, gp_updater },
};

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
		if (!ut_opt(run->cfg, &gp_opts[0])) {
			uint64_t t0, t1;

			ut_thread_set_state(t, "synchronize_rcu");
			t0 = ut_now_ns();
			ops->synchronize_rcu();
			t1 = ut_now_ns();
			ut_hist_add(t->lat, t1 - t0);
			ut_gp_witness(run, t0, t1);
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

static void gp_count(const struct ut_config *cfg, int n[], bool posts[])
{
	n[GP_READER] = cfg->readers;
	n[GP_UPDATER] = cfg->updaters;
	posts[GP_UPDATER] = ut_opt(cfg, &gp_opts[0]);
}

static int gp_configure(struct ut_config *cfg, char *err, size_t len)
{
	if (!ut_given(cfg, "max-outstanding"))
		cfg->max_outstanding = 1000;
	return 0;
}

static void gp_finish(struct ut_run *run)
{
	struct ut_result *res = run->res;

	if (ut_opt(run->cfg, &gp_opts[0])) {
		res->gp_lat_what = "call_rcu enqueue to invocation";
		ut_hist_merge(&res->gp_lat, &res->cb_lat);
		res->grace_periods = 0;
	} else {
		res->gp_lat_what = "synchronize_rcu";
	}
}

static void gp_stat(struct ut_run *run, char *buf, size_t len)
{
	char cbs[96];
	struct ut_counts n;

	ut_run_counts(run, &n);
	ut_cbs_stat(run, cbs, sizeof(cbs));
	snprintf(buf, len, "reads %llu gps %llu %s", (unsigned long long)n.reads,
		 (unsigned long long)n.gps, cbs);
}

const struct ut_mode_ops ut_mode_gp_latency = {
	.name = "gp-latency",
	.help = "gp-latency: updaters time every grace period",
	.roles = gp_roles,
	.nroles = 2,
	.count = gp_count,
	.configure = gp_configure,
	.opts = gp_opts,
	.finish = gp_finish,
	.stat_line = gp_stat,
	.updates_include_gps = true,
};
