/* SPDX-License-Identifier: MIT */
/*
 * read-cost mode: the cost of one read-side critical section (lock,
 * rcu_dereference, unlock), refscale-style.  Readers only, released together
 * by a barrier; the duration is cut into --runs equal runs, each made of a
 * warm-up (10 %), a timed section (80 %) and a cool-down (10 %) on a schedule
 * fixed from the start time.  Readers time their own batches of 1000 reads
 * (read-side primitives inlined by the flavor unit) that start inside the
 * timed section; a run's figure is the mean over readers, and the spread
 * across runs is reported.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>

#include "callbacks.h"
#include "json.h"

#define RC_BATCH 1000
#define RC_MAX_RUNS 64		/* --runs bound (rc_opts) */

/* read-cost's own option (RC_MAX_RUNS bounds it). */
static const struct ut_opt rc_opts[] = {
	{ .name = "runs", .json = "runs", .type = UT_OPT_COUNT, .lo = 1, .hi = RC_MAX_RUNS, .def = 5,
	  .help = "repetitions" },
	{ NULL }
};

static void *rc_reader(struct ut_thread *t);

static const struct ut_mode_role rc_roles[] = {
	{ "reader", UT_ROLE_READER, true, rc_reader },
};

/* Per reader: its ns/read in each run (0 = no timed batch in that run). */
struct rc_thread {
	double ns_per_read[RC_MAX_RUNS];
};

/* The figures of the combination. */
struct rc_result {
	int runs;
	double ns_per_read[RC_MAX_RUNS];	/* mean over readers, per run */
	double mean, min, max, stddev;		/* across runs */
};

struct rc {
	pthread_barrier_t start;
	uint64_t run_ns;
};

static void *rc_target_value;

static void *rc_reader(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	struct rc *rc = run->mode_data;
	const struct ut_flavor_ops *ops = run->ops;
	struct rc_thread *mine = t->mode_data;
	int nruns = (int)ut_opt(run->cfg, &rc_opts[0]);
	uint64_t first = 0, last = 0, reads = 0, sink = 0;
	int cur = -1;

	ut_thread_begin(t);
	ut_thread_set_state(t, "start barrier");
	pthread_barrier_wait(&rc->start);
	ut_thread_set_state(t, "reading");
	while (!ut_should_stop(run)) {
		uint64_t t0 = ut_now_ns(), t1, off = t0 - run->t_start_ns;
		int k = (int)(off / rc->run_ns);
		uint64_t in = off % rc->run_ns;
		bool timed = k < nruns && in >= rc->run_ns / 10 && in < rc->run_ns * 9 / 10;

		if (cur >= 0 && (k != cur || !timed)) {
			/* The timed section of run cur is over. */
			if (reads)
				mine->ns_per_read[cur] = (double)(last - first) / (double)reads;
			cur = -1;
		}
		if (k >= nruns)
			break;
		sink += ops->read_batch(RC_BATCH, &rc_target_value);
		t1 = ut_now_ns();
		if (timed) {
			if (cur != k) {
				cur = k;
				first = t0;
				reads = 0;
			}
			last = t1;
			reads += RC_BATCH;
		}
		ut_count(&t->reads, RC_BATCH);
		ut_count(&t->progress, 1);
	}
	if (cur >= 0 && reads)
		mine->ns_per_read[cur] = (double)(last - first) / (double)reads;
	ut_thread_end(t);
	(void)sink;
	return NULL;
}

static void rc_count(const struct ut_config *cfg, int n[], bool posts[])
{
	n[0] = cfg->readers;
}

static int rc_configure(struct ut_config *cfg, char *err, size_t len)
{
	if (!ut_given(cfg, "readers"))
		cfg->readers = cfg->plan_cpus;
	if (cfg->readers == 0) {
		snprintf(err, len, "--readers: read-cost needs at least one reader");
		return -1;
	}
	return 0;
}

static int rc_setup(struct ut_run *run)
{
	struct rc *rc = calloc(1, sizeof(*rc));
	static int target;

	if (!rc)
		return -1;
	rc_target_value = &target;
	rc->run_ns = run->cfg->duration_ns / ut_opt(run->cfg, &rc_opts[0]);
	if (!rc->run_ns)
		rc->run_ns = 1;
	pthread_barrier_init(&rc->start, NULL, (unsigned int)run->cfg->readers);
	run->mode_data = rc;
	return 0;
}

static void rc_finish(struct ut_run *run)
{
	struct ut_result *res = run->res;
	struct rc_result *out = res->mode_data;
	struct rc *rc = run->mode_data;
	double sum = 0, sq = 0;
	int n = 0;

	/* The runs follow a fixed schedule: the joins' lateness is not measured time. */
	if (res->seconds > run->cfg->duration_ns / 1e9)
		res->seconds = run->cfg->duration_ns / 1e9;
	out->runs = (int)ut_opt(run->cfg, &rc_opts[0]);
	out->min = INFINITY;
	out->max = 0;
	for (int k = 0; k < out->runs; k++) {
		double v = 0;
		int m = 0;

		for (int i = 0; i < run->nthreads; i++) {
			const struct rc_thread *th = run->threads[i].mode_data;

			if (th->ns_per_read[k] > 0) {
				v += th->ns_per_read[k];
				m++;
			}
		}
		out->ns_per_read[k] = m ? v / m : NAN;
		if (!m)
			continue;
		v /= m;
		sum += v;
		sq += v * v;
		n++;
		if (v < out->min)
			out->min = v;
		if (v > out->max)
			out->max = v;
	}
	out->mean = n ? sum / n : NAN;
	out->stddev = n > 1 ? sqrt(fmax(0, (sq - sum * sum / n) / (n - 1))) : 0;
	if (!n) {
		out->min = NAN;
		snprintf(res->note, sizeof(res->note), "no timed section completed (duration too short?)");
	}
	res->gp_lat_what = "none";
	pthread_barrier_destroy(&rc->start);
}

static void rc_stat(struct ut_run *run, char *buf, size_t len)
{
	struct ut_counts n;

	ut_run_counts(run, &n);
	snprintf(buf, len, "reads %llu", (unsigned long long)n.reads);
}

static double rc_ns_per_read(const struct ut_result *r)
{
	const struct rc_result *out = r->mode_data;

	return out ? out->mean : 0;
}

/* The per-run figures and their spread, after the read count. */
static void rc_report(const struct ut_config *cfg, const struct ut_result *r, enum ut_section at)
{
	const struct rc_result *out = r->mode_data;
	char line[1024];
	size_t off;

	if (at != UT_SECTION_COUNTS || !out)
		return;
	off = (size_t)snprintf(line, sizeof(line), "  ns/read runs   ");
	for (int i = 0; i < out->runs; i++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %.2f", out->ns_per_read[i]);
	ut_out(&cfg->inv->sink, "%s\n  ns/read         mean %.2f min %.2f max %.2f stddev %.2f (%.1f %%)\n",
	       line, out->mean, out->min, out->max, out->stddev,
	       out->mean > 0 ? 100 * out->stddev / out->mean : 0);
}

static void rc_json(struct uj *j, const struct ut_config *cfg, const struct ut_result *r,
		    enum ut_section at)
{
	const struct rc_result *out = r->mode_data;

	if (at != UT_SECTION_COUNTS || !out)
		return;
	uj_obj(j, "read_cost");
	uj_arr(j, "ns_per_read_runs");
	for (int i = 0; i < out->runs; i++)
		uj_dbl(j, NULL, out->ns_per_read[i]);
	uj_end_arr(j);
	uj_dbl(j, "mean", out->mean);
	uj_dbl(j, "min", out->min);
	uj_dbl(j, "max", out->max);
	uj_dbl(j, "stddev", out->stddev);
	uj_end_obj(j);
}

const struct ut_mode_ops ut_mode_read_cost = {
	.name = "read-cost",
	.help = "read-cost: readers only, ns per read-side section",
	.roles = rc_roles,
	.opts = rc_opts,
	.nroles = 1,
	.count = rc_count,
	.thread_size = sizeof(struct rc_thread),
	.result_size = sizeof(struct rc_result),
	.configure = rc_configure,
	.setup = rc_setup,
	.finish = rc_finish,
	.stat_line = rc_stat,
	.ns_per_read = rc_ns_per_read,
	.updates_include_gps = true,
	.report = rc_report,
	.json = rc_json,
};
