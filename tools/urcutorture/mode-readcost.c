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

#define RC_BATCH 1000

struct rc {
	pthread_barrier_t start;
	uint64_t run_ns;
};

static void *rc_target_value;

static void *rc_reader(void *arg)
{
	struct ut_thread *t = arg;
	struct ut_run *run = t->run;
	struct rc *rc = run->mode_data;
	const struct ut_flavor_ops *ops = run->ops;
	int nruns = run->cfg->runs;
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
				t->ns_per_read[cur] = (double)(last - first) / (double)reads;
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
		t->ns_per_read[cur] = (double)(last - first) / (double)reads;
	ut_thread_end(t);
	t->mode_data = NULL;
	(void)sink;
	return NULL;
}

static int rc_setup(struct ut_run *run)
{
	struct rc *rc = calloc(1, sizeof(*rc));
	static int target;

	if (!rc)
		return -1;
	rc_target_value = &target;
	rc->run_ns = run->cfg->duration_ns / (uint64_t)run->cfg->runs;
	if (!rc->run_ns)
		rc->run_ns = 1;
	pthread_barrier_init(&rc->start, NULL, (unsigned int)run->cfg->readers);
	run->mode_data = rc;
	return ut_threads_alloc(run, run->cfg->readers, UT_T_UPDATER, 0, false, UT_T_FAKE, 0, false);
}

static void rc_finish(struct ut_run *run)
{
	struct ut_result *res = run->res;
	struct rc *rc = run->mode_data;
	double sum = 0, sq = 0;
	int n = 0;

	res->runs = run->cfg->runs;
	res->ns_min = INFINITY;
	res->ns_max = 0;
	for (int k = 0; k < res->runs; k++) {
		double v = 0;
		int m = 0;

		for (int i = 0; i < run->nthreads; i++) {
			if (run->threads[i].ns_per_read[k] > 0) {
				v += run->threads[i].ns_per_read[k];
				m++;
			}
		}
		res->ns_per_read[k] = m ? v / m : NAN;
		if (!m)
			continue;
		v /= m;
		sum += v;
		sq += v * v;
		n++;
		if (v < res->ns_min)
			res->ns_min = v;
		if (v > res->ns_max)
			res->ns_max = v;
	}
	res->ns_mean = n ? sum / n : NAN;
	res->ns_stddev = n > 1 ? sqrt(fmax(0, (sq - sum * sum / n) / (n - 1))) : 0;
	if (!n) {
		res->ns_min = NAN;
		snprintf(res->note, sizeof(res->note), "no timed section completed (duration too short?)");
	}
	res->gp_lat_what = "none";
	pthread_barrier_destroy(&rc->start);
}

static void rc_stat(struct ut_run *run, char *buf, size_t len)
{
	uint64_t reads = 0;

	for (int i = 0; i < run->nthreads; i++)
		reads += ut_read(&run->threads[i].reads);
	snprintf(buf, len, "reads %llu", (unsigned long long)reads);
}

const struct ut_mode_ops ut_mode_read_cost = {
	.setup = rc_setup,
	.thread_fn = rc_reader,
	.finish = rc_finish,
	.stat_line = rc_stat,
};
