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
#include "json.h"

/* The three modes share this file's code; each has its own roles table,
 * whose enqueuer function says what the mode does (no test of which mode
 * runs). */
enum { CB_READER, CB_ENQUEUER };

static void *cb_enqueuer(struct ut_thread *t);
static void *flood_enqueuer(struct ut_thread *t);
static void *barrier_thread(struct ut_thread *t);

/* Each mode's own option (a paced enqueuer waits one period: it adds to the
 * derived stall timeout). */
static const struct ut_opt cb_opts[] = {
	{ .name = "rate", .json = "rate", .type = UT_OPT_RATE, .lo = 0, .hi = 1000000000, .def = 0,
	  .stall = UT_OPT_STALL_PERIOD,
	  .help = "callbacks per second per enqueuer, 0 = as fast as --max-outstanding allows" },
	{ NULL }
};

static const struct ut_opt flood_opts[] = {
	{ .name = "launder", .json = "launder", .type = UT_OPT_COUNT, .lo = 0, .hi = 1000000, .def = 3,
	  .help = "times each callback re-posts itself" },
	{ NULL }
};

static const struct ut_opt barrier_opts[] = {
	{ .name = "batch", .json = "batch", .type = UT_OPT_COUNT, .lo = 1, .hi = 10000000, .def = 100,
	  .help = "callbacks per thread before each rcu_barrier" },
	{ NULL }
};

static const struct ut_mode_role cb_roles[] = {
	[CB_READER] = { "reader", UT_ROLE_READER, true, ut_plain_reader },
	[CB_ENQUEUER] = { "enqueuer", UT_ROLE_UPDATER, false, cb_enqueuer },
};

static const struct ut_mode_role flood_roles[] = {
	[CB_READER] = { "reader", UT_ROLE_READER, true, ut_plain_reader },
	[CB_ENQUEUER] = { "enqueuer", UT_ROLE_UPDATER, false, flood_enqueuer },
};

static const struct ut_mode_role barrier_roles[] = {
	[CB_READER] = { "reader", UT_ROLE_READER, true, ut_plain_reader },
	[CB_ENQUEUER] = { "enqueuer", UT_ROLE_UPDATER, false, barrier_thread },
};

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

/* Post callbacks: paced at --rate (callback), each re-posting itself
 * launder times (flood). */
static void *enqueuer(struct ut_thread *t, bool paced, unsigned long launder)
{
	struct ut_run *run = t->run;
	const struct ut_config *cfg = run->cfg;
	const struct ut_flavor_ops *ops = run->ops;
	uint64_t interval = paced ? (uint64_t)(1e9 / (double)ut_opt(cfg, &cb_opts[0])) : 0, next;

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
		c->launder_left = launder;
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

static void *cb_enqueuer(struct ut_thread *t)
{
	return enqueuer(t, ut_opt(t->run->cfg, &cb_opts[0]) > 0, 0);
}

static void *flood_enqueuer(struct ut_thread *t)
{
	return enqueuer(t, false, (unsigned long)ut_opt(t->run->cfg, &flood_opts[0]));
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
	unsigned long batch = (unsigned long)ut_opt(run->cfg, &barrier_opts[0]);
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

static void cb_count(const struct ut_config *cfg, int n[], bool posts[])
{
	n[CB_READER] = cfg->readers;
	n[CB_ENQUEUER] = cfg->enqueuers;
	posts[CB_ENQUEUER] = true;
}

/* One reader beside the enqueuers unless told otherwise. */
static int cb_configure(struct ut_config *cfg, char *err, size_t len)
{
	if (!ut_given(cfg, "readers"))
		cfg->readers = 1;
	return 0;
}

static int flood_configure(struct ut_config *cfg, char *err, size_t len)
{
	if (!ut_given(cfg, "max-outstanding"))
		cfg->max_outstanding = 100000;
	return cb_configure(cfg, err, len);
}

static int barrier_configure(struct ut_config *cfg, char *err, size_t len)
{
	if (!ut_given(cfg, "enqueuers"))
		cfg->enqueuers = 2;
	return cb_configure(cfg, err, len);
}

static void cb_finish(struct ut_run *run)
{
	run->res->gp_lat_what = "none";
}

static void barrier_finish(struct ut_run *run)
{
	run->res->gp_lat_what = "rcu_barrier";
}

static void cb_stat(struct ut_run *run, char *buf, size_t len)
{
	char cbs[96];
	struct ut_counts n;

	ut_run_counts(run, &n);
	ut_cbs_stat(run, cbs, sizeof(cbs));
	snprintf(buf, len, "reads %llu %s backlog %llu max %llu barriers %llu",
		 (unsigned long long)n.reads, cbs,
		 (unsigned long long)ut_outstanding(run),
		 (unsigned long long)__atomic_load_n(&run->outstanding_max, __ATOMIC_RELAXED),
		 (unsigned long long)n.barriers);
}

/* flood: how long the backlog took to drain once the enqueuers stopped. */
static void flood_report(const struct ut_config *cfg, const struct ut_result *r, enum ut_section at)
{
	if (at == UT_SECTION_CALLBACKS)
		ut_out(&cfg->inv->sink, "  drain           %.3f s after the flood stopped\n", r->drain_s);
}

static void flood_json(struct uj *j, const struct ut_config *cfg, const struct ut_result *r,
		       enum ut_section at)
{
	if (at == UT_SECTION_CALLBACKS)
		uj_dbl(j, "drain_s", r->drain_s);
}

/* What the three call_rcu modes share: a reader and the posting threads,
 * counted, shown and compared alike. */
#define CB_MODE_COMMON			\
	.nroles = 2,			\
	.count = cb_count,		\
	.stat_line = cb_stat,		\
	.updates_include_gps = true

const struct ut_mode_ops ut_mode_callback = {
	.name = "callback",
	.help = "callback: enqueuers post call_rcu at --rate",
	.roles = cb_roles,
	.opts = cb_opts,
	.configure = cb_configure,
	.finish = cb_finish,
	CB_MODE_COMMON,
};

const struct ut_mode_ops ut_mode_flood = {
	.name = "flood",
	.help = "flood: call_rcu flood with self-re-posting callbacks",
	.roles = flood_roles,
	.opts = flood_opts,
	.configure = flood_configure,
	.finish = cb_finish,
	.report = flood_report,
	.json = flood_json,
	CB_MODE_COMMON,
};

const struct ut_mode_ops ut_mode_barrier = {
	.name = "barrier",
	.help = "barrier: threads post callbacks, then rcu_barrier",
	.roles = barrier_roles,
	.opts = barrier_opts,
	.configure = barrier_configure,
	.finish = barrier_finish,
	CB_MODE_COMMON,
};
