/* SPDX-License-Identifier: MIT */
/*
 * The JSON report ("urcutorture/2"): one document per invocation with the
 * system, the parameters and every combination's figures, written with the
 * one JSON writer (json.c).  What only one mode measures it writes through
 * that mode's json hook, at the ut_section places below; this file knows no
 * mode by name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "compare.h"
#include "crash.h"
#include "json.h"
#include "report.h"
#include "ut.h"

static void mode_json(struct uj *j, const struct ut_config *cfg, const struct ut_result *r,
		      enum ut_section at)
{
	if (r->mode->json)
		r->mode->json(j, cfg, r, at);
}

struct bucket_triple {
	uint64_t lo, hi, count;
};

static void emit_triple(const void *arg, FILE *f)
{
	const struct bucket_triple *t = arg;

	fprintf(f, "[%llu, %llu, %llu]", (unsigned long long)t->lo, (unsigned long long)t->hi,
		(unsigned long long)t->count);
}

/* HIST: percentiles, log2 summary and every non-empty log-linear bucket. */
static void json_hist(struct uj *j, const char *key, const struct ut_hist *h)
{
	uint64_t log2[64];

	if (!h->count) {
		uj_null(j, key);
		return;
	}
	uj_obj(j, key);
	uj_u64(j, "count", h->count);
	uj_u64(j, "min", h->min);
	uj_u64(j, "p50", ut_hist_quantile(h, 0.5));
	uj_u64(j, "p90", ut_hist_quantile(h, 0.9));
	uj_u64(j, "p99", ut_hist_quantile(h, 0.99));
	uj_u64(j, "p99_9", ut_hist_quantile(h, 0.999));
	uj_u64(j, "max", h->max);
	uj_dbl(j, "mean", (double)h->sum / (double)h->count);
	uj_u64(j, "sum", h->sum);
	ut_hist_log2(h, log2);
	uj_arr(j, "histogram_log2");
	for (int b = 0; b < 64; b++) {
		if (!log2[b])
			continue;
		uj_obj(j, NULL);
		uj_u64(j, "ge", b ? 1ull << b : 0);
		uj_u64(j, "lt", b < 63 ? 1ull << (b + 1) : UINT64_MAX);
		uj_u64(j, "count", log2[b]);
		uj_end_obj(j);
	}
	uj_end_arr(j);
	uj_i64(j, "sub_buckets", UT_HIST_SUB);
	uj_arr(j, "buckets");
	for (unsigned int i = 0; i < UT_HIST_BUCKETS; i++) {
		struct bucket_triple t;

		if (!h->bucket[i])
			continue;
		ut_hist_bounds(i, &t.lo, &t.hi);
		t.count = h->bucket[i];
		uj_raw(j, NULL, emit_triple, &t);
	}
	uj_end_arr(j);
	uj_end_obj(j);
}

static void emit_topology(const void *arg, FILE *f)
{
	ut_topology_json((const struct ut_topology *)arg, f);
}

static void emit_plan(const void *arg, FILE *f)
{
	ut_plan_json((const struct ut_plan *)arg, f);
}

/* "MODE FLAVOR/LAYOUT pin=R/U/W[ async]": what a combination measured. */
static void base_key(const struct ut_result *r, char *buf, size_t len)
{
	const struct ut_config *c = r->cfg;
	const char *const *pin = c ? c->pin_text : NULL;
	size_t off;

	off = (size_t)snprintf(buf, len, "%s %s/%s pin=%s/%s/%s", r->mode->name, r->flavor->name,
			       ut_layout_names[r->layout],
			       pin && pin[UT_ROLE_READER] ? pin[UT_ROLE_READER] : "none",
			       pin && pin[UT_ROLE_UPDATER] ? pin[UT_ROLE_UPDATER] : "none",
			       pin && pin[UT_ROLE_WORKER] ? pin[UT_ROLE_WORKER] : "none");
	/* The flags that change what a combination measures (--async). */
	for (int k = 0; c && k < ut_mode_opts_count() && off < len; k++)
		if ((ut_mode_opt_at(k)->flags & UT_OPTF_IN_KEY) && c->opt[k])
			off += (size_t)snprintf(buf + off, len - off, " %s", ut_mode_opt_at(k)->name);
}

void ut_result_key(const struct ut_result *r, int i, char *buf, size_t len)
{
	char base[256], other[256];
	int seen = 0;

	base_key(&r[i], base, sizeof(base));
	for (int k = 0; k < i; k++) {
		base_key(&r[k], other, sizeof(other));
		seen += !strcmp(other, base);
	}
	/* The same combination again (a rotating scenario): "#2", "#3", ... */
	if (seen)
		snprintf(buf, len, "%s #%d", base, seen + 1);
	else
		snprintf(buf, len, "%s", base);
}

/* One call_rcu worker's queue, latencies and library statistics. */
static void json_worker(struct uj *j, const struct ut_worker_result *w)
{
	uj_obj(j, NULL);
	uj_str(j, "label", w->label);
	uj_i64(j, "cpu_affinity", w->cpu_affinity);
	uj_i64(j, "cpu_seen", w->cpu_seen);
	uj_u64(j, "queued", w->queued);
	uj_u64(j, "invoked", w->invoked);
	uj_u64(j, "max_backlog", w->max_backlog);
	if (w->lib_stats) {
		uj_u64(j, "grace_periods", w->grace_periods);
		uj_obj(j, "library");
		uj_u64(j, "invoked", w->lib_invoked);
		uj_u64(j, "grace_periods", w->grace_periods);
		uj_u64(j, "max_backlog_since_worker_start", w->lib_max_backlog);
		uj_end_obj(j);
	} else {
		uj_null(j, "grace_periods");
	}
	if (w->cpu_time_s >= 0)
		uj_dbl(j, "cpu_time_s", w->cpu_time_s);
	else
		uj_null(j, "cpu_time_s");
	if (w->lat->count) {
		uj_u64(j, "latency_p50_ns", ut_hist_quantile(w->lat, 0.5));
		uj_u64(j, "latency_p99_ns", ut_hist_quantile(w->lat, 0.99));
	} else {
		uj_null(j, "latency_p50_ns");
		uj_null(j, "latency_p99_ns");
	}
	json_hist(j, "latency_ns", w->lat);
	uj_end_obj(j);
}

/* A result's "callbacks": what was posted and invoked, and each worker. */
static void json_callbacks(struct uj *j, const struct ut_config *cfg, const struct ut_result *r)
{
	uj_obj(j, "callbacks");
	uj_u64(j, "posted", r->cb_posted);
	uj_u64(j, "invoked", r->cb_invoked);
	uj_dbl(j, "invoked_per_s", ut_per_s(r->cb_invoked, r->seconds));
	uj_u64(j, "max_backlog", r->max_backlog);
	uj_u64(j, "barriers", r->barriers);
	mode_json(j, cfg, r, UT_SECTION_CALLBACKS);
	json_hist(j, "latency_ns", &r->cb_lat);
	uj_arr(j, "workers");
	for (int i = 0; i < r->nworkers; i++)
		json_worker(j, &r->workers[i]);
	uj_end_arr(j);
	uj_end_obj(j);
}

/* A result's "errors": the common counters, then the mode's own. */
static void json_errors(struct uj *j, const struct ut_result *r)
{
	uj_obj(j, "errors");
	for (int e = 0; e < UT_ERR_COUNT; e++)
		uj_u64(j, ut_error_names[e], r->errors[e]);
	for (int e = 0; e < UT_MODE_MAX_ERRORS && r->mode->errors && r->mode->errors[e]; e++)
		uj_u64(j, r->mode->errors[e], r->mode_errors[e]);
	uj_end_obj(j);
}

/* A result's "placement": where each thread was planned and where it ran. */
static void json_placement(struct uj *j, const struct ut_result *r)
{
	uj_obj(j, "placement");
	uj_u64(j, "threads_pinned", r->threads_pinned);
	uj_u64(j, "mismatches", r->pin_mismatches);
	uj_u64(j, "worker_mismatches", ut_report_worker_mismatches(r));
	uj_arr(j, "threads");
	for (int i = 0; i < r->nthreads; i++) {
		const struct ut_thread_result *t = &r->threads[i];

		uj_obj(j, NULL);
		uj_str(j, "role", t->kind);
		uj_i64(j, "index", t->idx);
		uj_i64(j, "cpu_planned", t->cpu_planned);
		uj_i64(j, "node_planned", t->node);
		uj_i64(j, "cpu_after_pinning", t->cpu_start);
		uj_i64(j, "cpu_at_end", t->cpu_end);
		uj_i64(j, "tid", t->ktid);
		uj_end_obj(j);
	}
	uj_end_arr(j);
	uj_end_obj(j);
}

/* One combination's result: its key, verdict, counts and sections. */
static void json_result(struct uj *j, const struct ut_config *global, const struct ut_result *all,
			int at)
{
	const struct ut_result *r = &all[at];
	const struct ut_config *cfg = r->cfg ? r->cfg : global;
	char key[300];

	ut_result_key(all, at, key, sizeof(key));
	uj_obj(j, NULL);
	uj_str(j, "key", key);
	uj_i64(j, "run", cfg->run_index);
	uj_str(j, "flavor", r->flavor->name);
	uj_str(j, "layout", ut_layout_names[r->layout]);
	uj_str(j, "mode", r->mode->name);
	uj_str(j, "verdict", ut_verdict_names[r->verdict]);
	if (r->note[0])
		uj_str(j, "note", r->note);
	uj_dbl(j, "seconds", r->seconds);
	uj_u64(j, "reads", r->reads);
	uj_dbl(j, "reads_per_s", ut_per_s(r->reads, r->seconds));
	uj_dbl(j, "reads_per_s_per_reader", ut_report_reads_per_reader(cfg, r));
	/* null unless the mode measures the cost of a read (read-cost). */
	uj_dbl(j, "ns_per_read", ut_report_ns_per_read(cfg, r));
	uj_u64(j, "updates", r->updates);
	uj_dbl(j, "updates_per_s", ut_per_s(r->updates, r->seconds));
	uj_u64(j, "grace_periods", r->grace_periods);
	mode_json(j, cfg, r, UT_SECTION_COUNTS);
	uj_str(j, "gp_latency_kind", r->gp_lat_what);
	json_hist(j, "gp_latency_ns", &r->gp_lat);
	json_callbacks(j, cfg, r);
	mode_json(j, cfg, r, UT_SECTION_CHECKS);
	ut_lib_json(j, r);
	json_errors(j, r);
	json_placement(j, r);
	uj_end_obj(j);
}

/* "library": which library, and whether any flavor run polls or keeps statistics. */
static void json_library(struct uj *j, const struct ut_batch *b)
{
	bool poll = false, stats = false;

	for (int k = 0; k < b->nruns; k++) {
		const struct ut_config *c = &b->runs[k].cfg;

		for (int i = 0; i < c->nflavors; i++) {
			poll |= c->flavors[i]->start_poll && !c->flavors[i]->is_busted;
			stats |= c->flavors[i]->call_rcu_stats != NULL;
		}
	}
	uj_obj(j, "library");
	uj_str(j, "name", UT_LIB_NAME);
	uj_str(j, "version", UT_LIB_VERSION);
	uj_bool(j, "polled_grace_periods", poll);
	uj_bool(j, "call_rcu_stats", stats);
	uj_end_obj(j);
}

/* "scenario": the batch's scenario, or null for a plain run. */
static void json_scenario(struct uj *j, const struct ut_batch *b)
{
	if (b->is_scenario) {
		uj_obj(j, "scenario");
		uj_str(j, "name", b->name);
		uj_str(j, "file", b->file);
		uj_bool(j, "built_in", b->builtin);
		uj_str(j, "description", b->description);
		uj_u64(j, "budget_ns", b->budget_ns);
		uj_bool(j, "rotate", b->rotate);
		uj_i64(j, "passes", b->passes);
		uj_i64(j, "combinations", b->ncombos);
		uj_dbl(j, "planned_s", b->planned_ns / 1e9);
		uj_end_obj(j);
	} else {
		uj_null(j, "scenario");
	}
}

/* "system": kernel, CPU, membarrier and the topology the plans were made on. */
static void json_system(struct uj *j, const struct ut_config *cfg)
{
	struct utsname u;
	char model[256], topo[256];
	int mb = ut_membarrier_query();

	uname(&u);
	ut_report_cpu_model(model, sizeof(model));
	ut_topology_summary(cfg->topo, topo, sizeof(topo));
	uj_obj(j, "system");
	uj_obj(j, "kernel");
	uj_str(j, "sysname", u.sysname);
	uj_str(j, "release", u.release);
	uj_str(j, "version", u.version);
	uj_str(j, "machine", u.machine);
	uj_end_obj(j);
	uj_str(j, "cpu_model", model);
	uj_i64(j, "online_cpus", cfg->inv->ncpus);
	uj_obj(j, "membarrier");
	uj_bool(j, "available", mb >= 0);
	uj_i64(j, "commands", mb >= 0 ? mb : 0);
	uj_bool(j, "private_expedited", mb >= 0 && (mb & MEMBARRIER_CMD_PRIVATE_EXPEDITED));
	uj_end_obj(j);
	uj_str(j, "placement_backend", ut_placement_backend());
	uj_str(j, "topology_summary", topo);
	uj_raw(j, "topology", emit_topology, cfg->topo);
	uj_end_obj(j);
}

/* "runs": each run of the batch with its parameters and placement plans. */
static void json_runs(struct uj *j, const struct ut_batch *b)
{
	uj_arr(j, "runs");
	for (int k = 0; k < b->nruns; k++) {
		const struct ut_batch_run *run = &b->runs[k];

		uj_obj(j, NULL);
		uj_i64(j, "index", k);
		uj_str(j, "label", run->cfg.run_label);
		uj_i64(j, "line", run->line);
		uj_i64(j, "pass", run->pass);
		uj_u64(j, "seed", run->cfg.seed);
		uj_i64(j, "combinations", run->ncombos);
		ut_params_json(j, "parameters", &run->cfg);
		uj_arr(j, "placement_plans");
		for (int l = 0; l < run->nplans; l++) {
			uj_obj(j, NULL);
			uj_str(j, "layout", ut_layout_names[run->cfg.layouts[l]]);
			uj_raw(j, "plan", emit_plan, &run->plans[l]);
			uj_end_obj(j);
		}
		uj_end_arr(j);
		uj_end_obj(j);
	}
	uj_end_arr(j);
}

/* "interrupted": the signal that stopped the batch and how far it got, or null. */
static void json_interrupted(struct uj *j, const struct ut_batch *b, int n)
{
	if (b->stop_signal) {
		uj_obj(j, "interrupted");
		uj_str(j, "signal", ut_signal_name(b->stop_signal));
		uj_dbl(j, "after_s", b->elapsed_s);
		uj_i64(j, "combinations_done", n);
		uj_i64(j, "combinations_planned", b->ncombos);
		uj_end_obj(j);
	} else {
		uj_null(j, "interrupted");
	}
}

void ut_report_json(const struct ut_batch *b, const struct ut_result *r, int n,
		    enum ut_verdict verdict, int exit_code, FILE *f, const struct ut_compare *cmp)
{
	const struct ut_config *cfg = b->global;
	const struct ut_config *run0 = b->nruns ? &b->runs[0].cfg : cfg;
	struct uj j;

	if (!f)
		return;
	uj_init(&j, f);
	uj_obj(&j, NULL);
	uj_str(&j, "schema", "urcutorture/2");
	uj_obj(&j, "tool");
	uj_str(&j, "name", "urcutorture");
	uj_str(&j, "version", UT_VERSION);
	uj_end_obj(&j);
	json_library(&j, b);
	uj_arr(&j, "command_line");
	for (int i = 0; i < cfg->inv->argc; i++)
		uj_str(&j, NULL, cfg->inv->argv[i]);
	uj_end_arr(&j);
	uj_u64(&j, "seed", cfg->seed);
	json_scenario(&j, b);
	ut_params_json(&j, "parameters", run0);
	json_system(&j, cfg);
	if (b->nruns && b->runs[0].nplans)
		uj_raw(&j, "placement_plan", emit_plan, &b->runs[0].plans[0]);
	else
		uj_null(&j, "placement_plan");
	json_runs(&j, b);
	uj_arr(&j, "results");
	for (int i = 0; i < n; i++)
		json_result(&j, cfg, r, i);
	uj_end_arr(&j);
	uj_dbl(&j, "elapsed_s", b->elapsed_s);
	json_interrupted(&j, b, n);
	/* crash.c renders this with a marker it replaces by the crash's details. */
	if (verdict == UT_CRASH)
		uj_raw(&j, "crash", ut_crash_json_marker, NULL);
	else
		uj_null(&j, "crash");
	if (cmp)
		ut_compare_json(&j, cmp);
	else
		uj_null(&j, "compare");
	uj_str(&j, "verdict", verdict == UT_ENV ? "ENVIRONMENT" : ut_verdict_names[verdict]);
	uj_i64(&j, "exit_code", exit_code);
	uj_end_obj(&j);
	fflush(f);
}
