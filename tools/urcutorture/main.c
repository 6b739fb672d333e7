/* SPDX-License-Identifier: MIT */
/*
 * urcutorture: torture, stress and qualification tool for userspace RCU.
 *
 * main() parses the options (exit 64 on any bad value, before anything
 * runs), builds the batch (the command line's run, or every run of
 * --scenario, each with its placement plans), reads the --compare baseline,
 * checks that pinning is allowed (exit 3), then runs every flavor x
 * call_rcu-layout combination of every run in turn and reports once for
 * the whole batch.  SIGINT and SIGTERM stop the workload: the report is
 * still written, marked INTERRUPTED (exit 5).  See docs/TORTURE.md and
 * urcutorture(1).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "crash.h"
#include "ut.h"

/* Try every CPU the plan names, from the main thread, then restore. */
static int probe_pinning(const struct ut_plan *plan, char *err, size_t len)
{
	cpu_set_t saved;
	int rc = 0;

	if (sched_getaffinity(0, sizeof(saved), &saved))
		return 0;
	for (int r = 0; r < UT_ROLE_COUNT && !rc; r++)
		for (int i = 0; i < plan->n[r] && !rc; i++)
			if (plan->cpu[r][i] >= 0 && ut_pin_self(plan->cpu[r][i], err, len))
				rc = -1;
	sched_setaffinity(0, sizeof(saved), &saved);
	return rc;
}

/* ---- signals ---- */

static sigset_t stop_signals;

/*
 * SIGINT and SIGTERM are blocked in every thread (threads inherit the mask
 * of main, which blocks them before creating any), and this thread alone
 * takes them with sigwait: no handler runs inside the library, no system
 * call of a worker fails with EINTR.  The first signal asks for a stop
 * (ut_stop_signal, polled by the controller); a second one ends the
 * process at once, as the signal would have without the tool's handling.
 */
static void *signal_thread(void *arg)
{
	int sig, count = 0;

	(void)arg;
	for (;;) {
		if (sigwait(&stop_signals, &sig))
			continue;
		if (count++ == 0) {
			__atomic_store_n(&ut_stop_signal, sig, __ATOMIC_RELAXED);
			continue;
		}
		fprintf(stderr, "\nurcutorture: second %s: exiting without a report\n",
			ut_signal_name(sig));
		_exit(128 + sig);
	}
	return NULL;
}

/*
 * Handled even when inherited as ignored (a background job of a script):
 * a CI runner's kill -INT must still stop the run with a report.
 */
static void signals_start(void)
{
	pthread_t t;

	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGINT);
	sigaddset(&stop_signals, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
	if (pthread_create(&t, NULL, signal_thread, NULL) == 0)
		pthread_detach(t);
}

/* ---- the batch ---- */

static enum ut_verdict merge_verdict(enum ut_verdict all, enum ut_verdict one)
{
	if (one == UT_FAILURE || all == UT_FAILURE)
		return UT_FAILURE;
	if (one == UT_ENV || all == UT_ENV)
		return UT_ENV;
	return all;
}

static int exit_code_of(enum ut_verdict v)
{
	switch (v) {
	case UT_SUCCESS: return UT_EXIT_OK;
	case UT_FAILURE: return UT_EXIT_FAILURE;
	case UT_STALL: return UT_EXIT_STALL;
	case UT_ENV: return UT_EXIT_ENV;
	case UT_INTERRUPTED: return UT_EXIT_INTERRUPTED;
	case UT_REGRESSION: return UT_EXIT_REGRESSION;
	case UT_CRASH: return UT_EXIT_FAILURE;	/* written by crash.c, which exits itself */
	}
	return UT_EXIT_FAILURE;
}

/* This run's JSON document, in memory, for --compare. */
static char *json_text(const struct ut_batch *b, const struct ut_result *r, int n,
		       enum ut_verdict v)
{
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);

	if (!m)
		return NULL;
	ut_report_json(b, r, n, v, exit_code_of(v), m, NULL);
	fclose(m);
	return text;
}

/* A mode whose detectors are its readers checks no grace period without them. */
static void warn_no_readers(const struct ut_batch *b)
{
	for (int i = 0; i < b->nruns; i++) {
		const struct ut_config *c = &b->runs[i].cfg;
		bool said = false;

		if (!c->mode->readers_check || c->readers != 0)
			continue;
		for (int k = 0; k < i; k++)
			said |= b->runs[k].cfg.mode == c->mode && b->runs[k].cfg.readers == 0;
		if (!said)
			fprintf(stderr, "urcutorture: warning: --readers=0: a %s run checks grace periods "
				"through its readers; with none it checks no grace period (only callbacks "
				"and rcu_barrier)\n", c->mode->name);
	}
}

/* --compare=OLD --from-report=NEW: two saved reports, nothing run. */
static int compare_saved(const struct ut_config *cfg)
{
	struct ut_compare *cmp;
	char *text = NULL;
	size_t size = 0;
	FILE *f, *m;
	int rc, regressed;

	rc = ut_compare_load(cfg->compare_path, cfg->regress_threshold, &cmp);
	if (rc)
		return rc;
	f = fopen(cfg->from_report, "r");
	m = open_memstream(&text, &size);
	if (!f || !m) {
		fprintf(stderr, "urcutorture: --from-report: cannot read '%s'\n", cfg->from_report);
		if (f)
			fclose(f);
		if (m)
			fclose(m);
		free(text);
		ut_compare_free(cmp);
		return UT_EXIT_USAGE;
	}
	for (int c; (c = fgetc(f)) != EOF;)
		fputc(c, m);
	fclose(f);
	fclose(m);
	regressed = ut_compare_run(cmp, text, &cfg->sink);
	rc = !ut_compare_matched(cmp) ? UT_EXIT_USAGE : regressed ? UT_EXIT_REGRESSION : UT_EXIT_OK;
	if (rc == UT_EXIT_USAGE)
		fprintf(stderr, "urcutorture: --from-report: '%s' has no combination to compare\n",
			cfg->from_report);
	else
		ut_out(&cfg->sink, "End of test: %s compare=%s from-report=%s\n",
		       regressed ? "REGRESSION" : "SUCCESS", cfg->compare_path, cfg->from_report);
	free(text);
	ut_compare_free(cmp);
	return rc;
}

static int dry_run(struct ut_batch *b)
{
	const struct ut_config *g = b->global;
	char t[32];

	ut_report_start(b);
	ut_batch_print(b);
	if (b->is_scenario) {
		ut_format_span(b->planned_ns, t, sizeof(t));
		ut_out(&g->sink, "scenario %s: %d runs, %d combinations, about %s\n", b->name, b->nruns,
		       b->ncombos, t);
	}
	ut_out(&g->sink, "dry run: nothing was run\n");
	ut_report_json(b, NULL, 0, UT_SUCCESS, 0, g->json, NULL);
	return UT_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct ut_config cfg;
	struct ut_batch batch;
	struct ut_compare *cmp = NULL;
	struct ut_result *results;
	enum ut_verdict verdict = UT_SUCCESS;
	int rc, ndone = 0, exit_code, idx = 0;
	uint64_t left_ns;

	rc = ut_parse_options(argc, argv, &cfg);
	if (rc >= 0) {
		ut_config_release(&cfg);
		return rc;
	}
	if (cfg.list_scenarios) {
		rc = ut_scenarios_list(&cfg, argc, argv);
		ut_config_release(&cfg);
		return rc;
	}

	if (cfg.from_report) {
		rc = compare_saved(&cfg);
		ut_config_release(&cfg);
		return rc;
	}

	rc = ut_batch_build(&cfg, argc, argv, &batch);
	if (!rc && cfg.compare_path && !cfg.dry_run)
		rc = ut_compare_load(cfg.compare_path, cfg.regress_threshold, &cmp);
	if (!rc)
		rc = ut_config_open_json(&cfg);
	if (rc) {
		ut_compare_free(cmp);
		ut_batch_release(&batch);
		ut_config_release(&cfg);
		return rc;
	}

	warn_no_readers(&batch);
	if (cfg.dry_run) {
		rc = dry_run(&batch);
		ut_batch_release(&batch);
		ut_config_release(&cfg);
		return rc;
	}

	for (int i = 0; i < batch.nruns; i++) {
		for (int l = 0; l < batch.runs[i].nplans; l++) {
			char err[256] = "";

			if (probe_pinning(&batch.runs[i].plans[l], err, sizeof(err))) {
				fprintf(stderr, "urcutorture: pinning refused: %s\n", err);
				ut_compare_free(cmp);
				ut_batch_release(&batch);
				ut_config_release(&cfg);
				return UT_EXIT_ENV;
			}
		}
	}

	results = calloc((size_t)batch.ncombos, sizeof(*results));
	if (!results) {
		fprintf(stderr, "urcutorture: out of memory\n");
		return UT_EXIT_ENV;
	}
	signals_start();
	ut_crash_install();
	batch.t_start_ns = ut_now_ns();
	ut_watchdog_results(&batch, results, &ndone);
	ut_watchdog_start(&cfg);
	ut_report_start(&batch);

	left_ns = batch.planned_ns;
	for (int i = 0; i < batch.nruns && !ut_stop_requested(); i++) {
		struct ut_batch_run *run = &batch.runs[i];

		if (batch.is_scenario)
			ut_report_run_start(&batch, i);
		for (int f = 0; f < run->cfg.nflavors && !ut_stop_requested(); f++) {
			for (int l = 0; l < run->cfg.nlayouts && !ut_stop_requested(); l++) {
				struct ut_result *r = &results[ndone];

				left_ns -= left_ns < ut_batch_combo_ns(run) ? left_ns : ut_batch_combo_ns(run);
				ut_progress_set(++idx, batch.ncombos, left_ns);
				ut_crash_arm(&batch, results, ndone, &run->cfg, run->cfg.flavors[f],
					     run->cfg.layouts[l]);
				ut_run_one(&run->cfg, run->cfg.flavors[f], run->cfg.layouts[l],
					   &run->plans[l], r);
				ut_report_result(&cfg, r);
				ut_report_tap(&cfg, results, batch.ncombos, ndone);
				/* Publish the finished result to the watchdog's report. */
				__atomic_store_n(&ndone, ndone + 1, __ATOMIC_RELEASE);
				verdict = merge_verdict(verdict, r->verdict);
			}
		}
	}
	ut_watchdog_stop();
	batch.elapsed_s = (ut_now_ns() - batch.t_start_ns) / 1e9;
	batch.stop_signal = ut_stop_requested();

	if (ndone > 1)
		ut_report_matrix(&batch, results, ndone);
	/* Errors found before a signal still make it a FAILURE. */
	if (batch.stop_signal && verdict != UT_FAILURE)
		verdict = UT_INTERRUPTED;
	if (cmp && !batch.stop_signal) {
		char *doc = json_text(&batch, results, ndone, verdict);

		if (doc && ut_compare_run(cmp, doc, &cfg.sink) > 0 && verdict == UT_SUCCESS)
			verdict = UT_REGRESSION;
		free(doc);
	} else if (cmp) {
		ut_out(&cfg.sink, "compare: skipped, the run was interrupted\n");
	}
	if (cfg.sink.tap && batch.stop_signal)
		printf("Bail out! interrupted by %s\n", ut_signal_name(batch.stop_signal));
	exit_code = exit_code_of(verdict);
	ut_report_json(&batch, results, ndone, verdict, exit_code, cfg.json,
		       ut_compare_done(cmp) ? cmp : NULL);
	ut_report_end(&batch, verdict, results, ndone);

	for (int i = 0; i < ndone; i++)
		ut_result_free(&results[i]);
	free(results);
	ut_compare_free(cmp);
	ut_batch_release(&batch);
	ut_config_release(&cfg);
	return exit_code;
}
