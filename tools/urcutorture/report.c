/* SPDX-License-Identifier: MIT */
/*
 * Reports for people and TAP: start line, per-combination tables, the
 * comparison table, TAP lines and the last line; the figures they share with
 * the JSON document (report-json.c), declared in report.h.  All numbers come
 * from the results the run measured; nothing here estimates.  What only one
 * mode measures is printed by that mode's report hook, called at the
 * ut_section places below; this file knows no mode by name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "compare.h"
#include "report.h"
#include "ut.h"

const char *ut_library_name(void) { return UT_LIB_NAME; }
const char *ut_library_version(void) { return UT_LIB_VERSION; }

int ut_membarrier_query(void)
{
#ifdef __NR_membarrier
	long r = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0);

	return r < 0 ? -1 : (int)r;
#else
	return -1;
#endif
}

void ut_report_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "model name", 10) || !strncmp(line, "Processor", 9) ||
		    !strncmp(line, "cpu model", 9)) {
			char *v = strchr(line, ':');

			if (v) {
				v++;
				while (*v == ' ' || *v == '\t')
					v++;
				v[strcspn(v, "\n")] = '\0';
				snprintf(buf, len, "%s", v);
				break;
			}
		}
	}
	fclose(f);
}

/* Every parameter of one run, as "mode=... seed=N combinations=N". */
static void params_line(const struct ut_config *cfg, int ncombos, char *line, size_t len)
{
	size_t off;

	ut_params_line(cfg, line, len);
	off = strlen(line);
	snprintf(line + off, len - off, " seed=%llu combinations=%d", (unsigned long long)cfg->seed,
		 ncombos);
}

void ut_report_start(const struct ut_batch *b)
{
	const struct ut_config *cfg = b->global;
	char topo[256], model[256], line[2048], planned[32];
	struct utsname u;
	int mb = ut_membarrier_query();

	ut_topology_summary(cfg->topo, topo, sizeof(topo));
	ut_report_cpu_model(model, sizeof(model));
	uname(&u);

	if (cfg->inv->sink.tap)
		printf("1..%d\n", b->ncombos);
	if (!b->is_scenario) {
		params_line(&b->runs[0].cfg, b->ncombos, line, sizeof(line));
		ut_out(&cfg->inv->sink, "urcutorture %s (%s %s): %s\n", UT_VERSION, UT_LIB_NAME,
		       UT_LIB_VERSION, line);
	} else {
		ut_format_span(b->planned_ns, planned, sizeof(planned));
		ut_out(&cfg->inv->sink, "urcutorture %s (%s %s): scenario=%s (%s%s) runs=%d combinations=%d "
		       "planned=%s seed=%llu: %s\n", UT_VERSION, UT_LIB_NAME, UT_LIB_VERSION, b->name,
		       b->builtin ? "built-in " : "", b->file, b->nruns, b->ncombos, planned,
		       (unsigned long long)cfg->seed, b->description);
	}
	ut_out(&cfg->inv->sink, "system: %s %s %s, cpu \"%s\", %d online CPUs, topology: %s, placement: %s, "
	       "membarrier: %s (0x%x)\n",
	       u.sysname, u.release, u.machine, model, cfg->inv->ncpus, topo, ut_placement_backend(),
	       mb >= 0 ? "available" : "unavailable", mb >= 0 ? mb : 0);
}

void ut_report_run_start(const struct ut_batch *b, int i)
{
	const struct ut_batch_run *run = &b->runs[i];
	char line[2048], pass[32] = "";

	params_line(&run->cfg, run->ncombos, line, sizeof(line));
	if (b->passes > 1)
		snprintf(pass, sizeof(pass), ", pass %d", run->pass);
	ut_out(&b->global->inv->sink, "run %d/%d (%s:%d%s): %s\n", i + 1, b->nruns, b->file, run->line,
	       pass, line);
}


static void lat_line(const struct ut_config *cfg, const char *what, const struct ut_hist *h)
{
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999 };
	static const char *const qn[] = { "p50", "p90", "p99", "p99.9" };
	char line[512], v[32];
	size_t off;

	if (!h->count)
		return;
	ut_format_ns(h->min, v, sizeof(v));
	off = (size_t)snprintf(line, sizeof(line), "  %-15s n=%llu min %s", what,
			       (unsigned long long)h->count, v);
	for (int i = 0; i < 4; i++) {
		ut_format_ns(ut_hist_quantile(h, qs[i]), v, sizeof(v));
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %s %s", qn[i], v);
	}
	ut_format_ns(h->max, v, sizeof(v));
	snprintf(line + off, sizeof(line) - off, " max %s", v);
	ut_out(&cfg->inv->sink, "%s\n", line);
}

/* Workers bound to a CPU that were seen running callbacks on another. */
uint64_t ut_report_worker_mismatches(const struct ut_result *r)
{
	uint64_t n = 0;

	for (int i = 0; i < r->nworkers; i++)
		if (r->workers[i].cpu_affinity >= 0 && r->workers[i].cpu_seen >= 0 &&
		    r->workers[i].cpu_affinity != r->workers[i].cpu_seen)
			n++;
	return n;
}

/* The mode's own lines or JSON members at one place of the report. */
static void mode_section(const struct ut_config *cfg, const struct ut_result *r, enum ut_section at)
{
	if (r->mode->report)
		r->mode->report(cfg, r, at);
}

/* The mode's own cost of one read-side section, NAN when it measures none. */
double ut_report_ns_per_read(const struct ut_config *cfg, const struct ut_result *r)
{
	(void)cfg;
	return r->mode->ns_per_read ? r->mode->ns_per_read(r) : NAN;
}

/* Read-side sections per second per reader thread (0 without readers). */
double ut_report_reads_per_reader(const struct ut_config *cfg, const struct ut_result *r)
{
	return cfg->readers > 0 ? ut_per_s(r->reads, r->seconds) / cfg->readers : 0;
}

/*
 * The reads line.  Wall time over reads is no cost of a read: it is the
 * section's length, mostly --read-delay (random lingering by default) and
 * the pauses between sections.  So it gives sections per second per reader
 * with the read-delay setting, and ns/read only from a mode that measures
 * the cost itself (read-cost).
 */
static void reads_line(const struct ut_config *cfg, const struct ut_result *r)
{
	char rd[32];
	double ns = ut_report_ns_per_read(cfg, r);

	if (!isnan(ns)) {
		ut_out(&cfg->inv->sink, "  reads           %llu (%.3g/s, %.1f ns/read per reader)\n",
		       (unsigned long long)r->reads, ut_per_s(r->reads, r->seconds), ns);
		return;
	}
	ut_read_delay_text(cfg, rd, sizeof(rd));
	ut_out(&cfg->inv->sink, "  reads           %llu (%.3g/s, %.3g sections/s per reader, read-delay=%s)\n",
	       (unsigned long long)r->reads, ut_per_s(r->reads, r->seconds),
	       ut_report_reads_per_reader(cfg, r), rd);
}

/* One call_rcu worker of the table. */
static void worker_row(const struct ut_config *cfg, const struct ut_worker_result *w)
{
	char p50[32] = "-", p99[32] = "-", ct[32] = "-", gps[32] = "-", aff[16] = "-", seen[16] = "-";

	if (w->lat->count) {
		ut_format_ns(ut_hist_quantile(w->lat, 0.5), p50, sizeof(p50));
		ut_format_ns(ut_hist_quantile(w->lat, 0.99), p99, sizeof(p99));
	}
	if (w->cpu_time_s >= 0)
		snprintf(ct, sizeof(ct), "%.3fs", w->cpu_time_s);
	if (w->lib_stats)
		snprintf(gps, sizeof(gps), "%llu", (unsigned long long)w->grace_periods);
	if (w->cpu_affinity >= 0)
		snprintf(aff, sizeof(aff), "%d", w->cpu_affinity);
	if (w->cpu_seen >= 0)
		snprintf(seen, sizeof(seen), "%d", w->cpu_seen);
	ut_out(&cfg->inv->sink, "  %-26s %5s %5s %10llu %10llu %9s %9s %9s %8s\n", w->label, aff, seen,
	       (unsigned long long)w->invoked, (unsigned long long)w->max_backlog, p50, p99, ct, gps);
}

/* The call_rcu workers' table, its columns explained the first time. */
static void worker_table(const struct ut_config *cfg, const struct ut_result *r)
{
	static bool explained;

	ut_out(&cfg->inv->sink, "  call_rcu workers%s\n", explained ? "" :
	       " (aff: the CPU it is bound to, cpu: the CPU it last ran a callback on, -: none or "
	       "not seen; max-blog: its longest backlog; lat: enqueue to invocation; gps: grace "
	       "periods it waited)");
	explained = true;
	ut_out(&cfg->inv->sink, "  %-26s %5s %5s %10s %10s %9s %9s %9s %8s\n", "worker", "aff", "cpu",
	       "invoked", "max-blog", "lat-p50", "lat-p99", "cpu-time", "gps");
	for (int i = 0; i < r->nworkers; i++)
		worker_row(cfg, &r->workers[i]);
}

void ut_report_result(const struct ut_config *global, const struct ut_result *r)
{
	/* The run's own parameters (a scenario's runs differ); the same sink. */
	const struct ut_config *cfg = r->cfg ? r->cfg : global;
	char line[1024];
	size_t off;

	ut_out(&cfg->inv->sink, "--- %s/%s (%s, %.1f s): %s%s%s\n", r->flavor->name, ut_layout_names[r->layout],
	       r->mode->name, r->seconds, ut_verdict_names[r->verdict],
	       r->note[0] ? " - " : "", r->note);
	if (r->reads)
		reads_line(cfg, r);
	mode_section(cfg, r, UT_SECTION_COUNTS);
	if (r->updates)
		ut_out(&cfg->inv->sink, "  updates         %llu (%.3g/s)\n", (unsigned long long)r->updates,
		       ut_per_s(r->updates, r->seconds));
	if (r->grace_periods)
		ut_out(&cfg->inv->sink, "  grace periods   %llu (%.3g/s)\n", (unsigned long long)r->grace_periods,
		       ut_per_s(r->grace_periods, r->seconds));
	if (r->barriers)
		ut_out(&cfg->inv->sink, "  rcu_barrier     %llu\n", (unsigned long long)r->barriers);
	lat_line(cfg, r->gp_lat_what && !strcmp(r->gp_lat_what, "rcu_barrier") ? "barrier latency" : "GP latency",
		 &r->gp_lat);
	if (r->cb_posted)
		ut_out(&cfg->inv->sink, "  callbacks       posted %llu invoked %llu (%.3g/s) max backlog %llu\n",
		       (unsigned long long)r->cb_posted, (unsigned long long)r->cb_invoked,
		       ut_per_s(r->cb_invoked, r->seconds), (unsigned long long)r->max_backlog);
	mode_section(cfg, r, UT_SECTION_CALLBACKS);
	lat_line(cfg, "callback latency", &r->cb_lat);
	mode_section(cfg, r, UT_SECTION_CHECKS);
	if (r->nworkers && r->cb_posted)
		worker_table(cfg, r);
	ut_lib_report(cfg, r);
	off = (size_t)snprintf(line, sizeof(line), "  errors         ");
	for (int e = 0; e < UT_ERR_COUNT; e++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %s=%llu", ut_error_names[e],
					(unsigned long long)r->errors[e]);
	for (int e = 0; e < UT_MODE_MAX_ERRORS && r->mode->errors && r->mode->errors[e]; e++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %s=%llu", r->mode->errors[e],
					(unsigned long long)r->mode_errors[e]);
	ut_out(&cfg->inv->sink, "%s%s\n", ut_result_errors(r) ? "!!! " : "", line);
	if (r->threads_pinned || r->pin_mismatches || ut_report_worker_mismatches(r))
		ut_out(&cfg->inv->sink, "  placement       %llu threads pinned, %llu ended on another CPU, "
		       "%llu bound call_rcu workers seen on another CPU\n",
		       (unsigned long long)r->threads_pinned, (unsigned long long)r->pin_mismatches,
		       (unsigned long long)ut_report_worker_mismatches(r));
}

void ut_report_matrix(const struct ut_batch *b, const struct ut_result *r, int n)
{
	const struct ut_config *cfg = b->global;
	bool scn = b->is_scenario;

	if (scn)
		ut_out(&cfg->inv->sink, "\n=== comparison (scenario %s) ===\n", b->name);
	else
		ut_out(&cfg->inv->sink, "\n=== comparison (%s) ===\n", b->runs[0].cfg.mode->name);
	ut_out(&cfg->inv->sink, "%s%-7s %-10s %-11s %10s %8s %10s %9s %9s %9s %9s %8s %6s\n",
	       scn ? "run mode         " : "", "flavor", "layout",
	       "verdict", "reads/s", "ns/read", "updates/s", "GP-p50", "GP-p99", "CB-p50", "CB-p99",
	       "backlog", "errors");
	for (int i = 0; i < n; i++) {
		const struct ut_config *rc = r[i].cfg ? r[i].cfg : cfg;
		char g50[32] = "-", g99[32] = "-", c50[32] = "-", c99[32] = "-", pre[64] = "";
		char nsr[32] = "-";
		double ns = ut_report_ns_per_read(rc, &r[i]);

		if (r[i].gp_lat.count) {
			ut_format_ns(ut_hist_quantile(&r[i].gp_lat, 0.5), g50, sizeof(g50));
			ut_format_ns(ut_hist_quantile(&r[i].gp_lat, 0.99), g99, sizeof(g99));
		}
		if (r[i].cb_lat.count) {
			ut_format_ns(ut_hist_quantile(&r[i].cb_lat, 0.5), c50, sizeof(c50));
			ut_format_ns(ut_hist_quantile(&r[i].cb_lat, 0.99), c99, sizeof(c99));
		}
		if (!isnan(ns))
			snprintf(nsr, sizeof(nsr), "%.1f", ns);
		if (scn)
			snprintf(pre, sizeof(pre), "%3d %-12.12s ", rc->run_index + 1, r[i].mode->name);
		ut_out(&cfg->inv->sink, "%s%-7s %-10s %-11s %10.3g %8s %10.3g %9s %9s %9s %9s %8llu %6llu\n",
		       pre, r[i].flavor->name, ut_layout_names[r[i].layout], ut_verdict_names[r[i].verdict],
		       ut_per_s(r[i].reads, r[i].seconds), nsr,
		       ut_per_s(r[i].updates + (r[i].mode->updates_include_gps ? r[i].grace_periods : 0), r[i].seconds),
		       g50, g99, c50, c99, (unsigned long long)r[i].max_backlog,
		       (unsigned long long)ut_result_errors(&r[i]));
	}
}

/* "ok N - FLAVOR/LAYOUT MODE" or "not ok N - ... # VERDICT errors=E NOTE". */
static void tap_line(FILE *f, const struct ut_result *r, int idx)
{
	const struct ut_result *x = &r[idx];

	if (x->verdict == UT_SUCCESS)
		fprintf(f, "ok %d - %s/%s %s\n", idx + 1, x->flavor->name, ut_layout_names[x->layout],
			x->mode->name);
	else
		fprintf(f, "not ok %d - %s/%s %s # %s errors=%llu%s%s\n", idx + 1, x->flavor->name,
			ut_layout_names[x->layout], x->mode->name, ut_verdict_names[x->verdict],
			(unsigned long long)ut_result_errors(x), x->note[0] ? " " : "", x->note);
	fflush(f);
}

void ut_report_tap(const struct ut_config *cfg, const struct ut_result *r, int idx)
{
	if (cfg->inv->sink.tap)
		tap_line(stdout, r, idx);
}

/* "End of test: VERDICT ..." without the newline. */
static void end_line(const struct ut_batch *b, enum ut_verdict v, const struct ut_result *r, int n,
		     char *buf, size_t len)
{
	const struct ut_config *cfg = b->global;
	char detail[512] = "", what[128], intr[128] = "";
	size_t off = 0;
	uint64_t errs = 0;

	for (int i = 0; i < n; i++) {
		errs += ut_result_errors(&r[i]);
		if (r[i].verdict != UT_SUCCESS && off < sizeof(detail) - 64)
			off += (size_t)snprintf(detail + off, sizeof(detail) - off, " %s/%s=%s",
						r[i].flavor->name, ut_layout_names[r[i].layout],
						ut_verdict_names[r[i].verdict]);
	}
	if (b->is_scenario)
		snprintf(what, sizeof(what), "scenario=%s", b->name);
	else
		snprintf(what, sizeof(what), "mode=%s", b->runs[0].cfg.mode->name);
	if (b->stop_signal)
		snprintf(intr, sizeof(intr), "INTERRUPTED by %s after %.1f s",
			 ut_signal_name(b->stop_signal), b->elapsed_s);
	if (v == UT_INTERRUPTED)
		snprintf(buf, len, "End of test: %s, %s combinations=%d of %d errors=%llu seed=%llu%s",
			 intr, what, n, b->ncombos, (unsigned long long)errs,
			 (unsigned long long)cfg->seed, detail);
	else
		snprintf(buf, len, "End of test: %s %s%s%s%s combinations=%d errors=%llu seed=%llu%s",
			 v == UT_ENV ? "FAILURE" : ut_verdict_names[v], intr[0] ? "(" : "",
			 intr, intr[0] ? ") " : "", what, n, (unsigned long long)errs,
			 (unsigned long long)cfg->seed, detail);
}

int ut_exit_code(enum ut_verdict v)
{
	switch (v) {
	case UT_SUCCESS: return UT_EXIT_OK;
	case UT_FAILURE: return UT_EXIT_FAILURE;
	case UT_STALL: return UT_EXIT_STALL;
	case UT_ENV: return UT_EXIT_ENV;
	case UT_INTERRUPTED: return UT_EXIT_INTERRUPTED;
	case UT_REGRESSION: return UT_EXIT_REGRESSION;
	case UT_CRASH: return UT_EXIT_FAILURE;
	}
	return UT_EXIT_FAILURE;
}

void ut_end_out_of(const struct ut_invocation *inv, struct ut_end_out *out)
{
	out->sink = inv->sink;
	out->tap = stdout;
	out->json = inv->json;
}

/*
 * --compare: every combination against the baseline's.  The comparison
 * reads this run's own JSON document (as --from-report reads a saved one),
 * and its outcome changes that document's verdict: the document is
 * rendered once into memory for it, then once for good.
 */
static enum ut_verdict compare(const struct ut_batch *b, const struct ut_result *r, int n,
			       enum ut_verdict v, struct ut_compare *cmp, const struct ut_sink *sink)
{
	char *doc = NULL;
	size_t size = 0;
	FILE *m;

	if (b->stop_signal) {
		ut_out(sink, "compare: skipped, the run was interrupted\n");
		return v;
	}
	m = open_memstream(&doc, &size);
	if (!m)
		return v;
	ut_report_json(b, r, n, v, ut_exit_code(v), m, NULL);
	fclose(m);
	if (doc && ut_compare_run(cmp, doc, sink) > 0 && v == UT_SUCCESS)
		v = UT_REGRESSION;
	free(doc);
	return v;
}

enum ut_verdict ut_report_finish(const struct ut_batch *b, const struct ut_result *r, int n,
				 enum ut_verdict v, struct ut_compare *cmp,
				 const struct ut_end_out *out)
{
	char line[1024];

	if (cmp)
		v = compare(b, r, n, v, cmp, &out->sink);
	if (out->sink.tap && (v == UT_STALL || v == UT_CRASH) && n > 0) {
		tap_line(out->tap, r, n - 1);
		fprintf(out->tap, "Bail out! %s\n", v == UT_STALL ? "stall" : "crash");
	} else if (out->sink.tap && b->stop_signal) {
		fprintf(out->tap, "Bail out! interrupted by %s\n", ut_signal_name(b->stop_signal));
	}
	fflush(out->tap);
	ut_report_json(b, r, n, v, ut_exit_code(v), out->json, ut_compare_done(cmp) ? cmp : NULL);
	end_line(b, v, r, n, line, sizeof(line));
	ut_out(&out->sink, "%s\n", line);
	return v;
}
