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

	rc = ut_compare_load(cfg->inv->compare_path, cfg->inv->regress_threshold, &cmp);
	if (rc)
		return rc;
	f = fopen(cfg->inv->from_report, "r");
	m = open_memstream(&text, &size);
	if (!f || !m) {
		fprintf(stderr, "urcutorture: --from-report: cannot read '%s'\n", cfg->inv->from_report);
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
	regressed = ut_compare_run(cmp, text, &cfg->inv->sink);
	rc = !ut_compare_matched(cmp) ? UT_EXIT_USAGE : regressed ? UT_EXIT_REGRESSION : UT_EXIT_OK;
	if (rc == UT_EXIT_USAGE)
		fprintf(stderr, "urcutorture: --from-report: '%s' has no combination to compare\n",
			cfg->inv->from_report);
	else
		ut_out(&cfg->inv->sink, "End of test: %s compare=%s from-report=%s\n",
		       regressed ? "REGRESSION" : "SUCCESS", cfg->inv->compare_path, cfg->inv->from_report);
	free(text);
	ut_compare_free(cmp);
	return rc;
}

static int dry_run(struct ut_batch *b)
{
	const struct ut_invocation *inv = b->global->inv;
	char t[32];

	ut_report_start(b);
	ut_batch_print(b);
	if (b->is_scenario) {
		ut_format_span(b->planned_ns, t, sizeof(t));
		ut_out(&inv->sink, "scenario %s: %d runs, %d combinations, about %s\n", b->name,
		       b->nruns, b->ncombos, t);
	}
	ut_out(&inv->sink, "dry run: nothing was run\n");
	ut_report_json(b, NULL, 0, UT_SUCCESS, 0, inv->json, NULL);
	return UT_EXIT_OK;
}

/* Every CPU of every run's plans can be pinned to: 0, or UT_EXIT_ENV. */
static int check_pinning(const struct ut_batch *b)
{
	for (int i = 0; i < b->nruns; i++) {
		for (int l = 0; l < b->runs[i].nplans; l++) {
			char err[256] = "";

			if (probe_pinning(&b->runs[i].plans[l], err, sizeof(err))) {
				fprintf(stderr, "urcutorture: pinning refused: %s\n", err);
				return UT_EXIT_ENV;
			}
		}
	}
	return 0;
}

/* Every combination of every run, in turn, until done or told to stop. */
static enum ut_verdict run_batch(struct ut_session *s)
{
	struct ut_batch *b = s->batch;
	enum ut_verdict verdict = UT_SUCCESS;
	uint64_t left_ns = b->planned_ns;
	int idx = 0;

	for (int i = 0; i < b->nruns && !ut_stop_requested(); i++) {
		struct ut_batch_run *run = &b->runs[i];
		const struct ut_config *cfg = &run->cfg;

		if (b->is_scenario)
			ut_report_run_start(b, i);
		for (int f = 0; f < cfg->nflavors && !ut_stop_requested(); f++) {
			for (int l = 0; l < cfg->nlayouts && !ut_stop_requested(); l++) {
				struct ut_result *r = &s->results[s->ndone];
				uint64_t combo = ut_batch_combo_ns(run);

				left_ns -= left_ns < combo ? left_ns : combo;
				ut_progress_set(++idx, b->ncombos, left_ns);
				ut_crash_arm(s, cfg, cfg->flavors[f], cfg->layouts[l]);
				ut_run_one(cfg, cfg->flavors[f], cfg->layouts[l], &run->plans[l], r);
				ut_report_result(b->global, r);
				ut_report_tap(cfg, s->results, s->ndone);
				/* Release: the finished result, for the watchdog's report. */
				__atomic_store_n(&s->ndone, s->ndone + 1, __ATOMIC_RELEASE);
				verdict = merge_verdict(verdict, r->verdict);
			}
		}
	}
	return verdict;
}

static void hang_forever(void)
{
	for (;;)
		pause();
}

/* Test hook: URCUTORTURE_TEST_HANG="process exit" hangs the exit in an
 * atexit handler (tests/torture/check.py, the stall check). */
static void exit_hang_hook(void)
{
	const char *hang = getenv("URCUTORTURE_TEST_HANG");

	if (hang && !strcmp(hang, "process exit"))
		atexit(hang_forever);
}

/* The runs, then the end of the run: the exit status. */
static int run_all(struct ut_session *s)
{
	struct ut_batch *b = s->batch;
	enum ut_verdict verdict;
	struct ut_end_out out;
	int rc;

	s->results = calloc((size_t)b->ncombos, sizeof(*s->results));
	if (!s->results) {
		fprintf(stderr, "urcutorture: out of memory\n");
		return UT_EXIT_ENV;
	}
	signals_start();
	ut_crash_install();
	b->t_start_ns = ut_now_ns();
	ut_watchdog_session(s);
	ut_watchdog_start(&b->runs[0].cfg);
	ut_report_start(b);
	verdict = run_batch(s);
	b->elapsed_s = (ut_now_ns() - b->t_start_ns) / 1e9;
	b->stop_signal = ut_stop_requested();
	if (s->ndone > 1)
		ut_report_matrix(b, s->results, s->ndone);
	/* Errors found before a signal still make it a FAILURE. */
	if (b->stop_signal && verdict != UT_FAILURE)
		verdict = UT_INTERRUPTED;
	ut_end_out_of(b->global->inv, &out);
	rc = ut_exit_code(ut_report_finish(b, s->results, s->ndone, verdict, s->cmp, &out));
	/* What is left to write, before the exit's bound starts (a reader
	 * slow on a pipe is no stall). */
	fflush(NULL);
	exit_hang_hook();
	ut_watchdog_exit_phase();
	return rc;
}

/* What can fail before anything runs: the batch, the baseline, the JSON
 * file, the pinning; then the dry run or the runs. */
static int invocation(struct ut_invocation *inv, struct ut_config *cfg, struct ut_session *s)
{
	int rc;

	if (inv->list_scenarios)
		return ut_scenarios_list(cfg, inv->argc, inv->argv);
	if (inv->from_report)
		return compare_saved(cfg);
	rc = ut_batch_build(cfg, inv->argc, inv->argv, s->batch);
	if (!rc && inv->compare_path && !inv->dry_run)
		rc = ut_compare_load(inv->compare_path, inv->regress_threshold, &s->cmp);
	if (!rc)
		rc = ut_invocation_open_json(inv);
	if (rc)
		return rc;
	warn_no_readers(s->batch);
	if (inv->dry_run)
		return dry_run(s->batch);
	rc = check_pinning(s->batch);
	return rc ? rc : run_all(s);
}

int main(int argc, char **argv)
{
	struct ut_invocation inv;
	struct ut_config cfg;
	struct ut_batch batch;
	struct ut_session s = { .batch = &batch };
	int rc;

	memset(&batch, 0, sizeof(batch));
	rc = ut_parse_options(argc, argv, &inv, &cfg);
	if (rc < 0)
		rc = invocation(&inv, &cfg, &s);
	/* The one cleanup, whatever ended the invocation. */
	for (int i = 0; i < s.ndone; i++)
		ut_result_free(&s.results[i]);
	free(s.results);
	ut_compare_free(s.cmp);
	ut_batch_release(&batch);
	ut_config_release(&cfg);
	ut_invocation_release(&inv);
	return rc;
}
