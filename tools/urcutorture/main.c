/* SPDX-License-Identifier: MIT */
/*
 * urcutorture: torture, stress and qualification tool for userspace RCU.
 *
 * main() parses the options (exit 64 on any bad value, before anything
 * runs), builds the placement plan, checks that pinning is allowed (exit 3),
 * then runs every flavor x call_rcu-layout combination in turn and reports.
 * See docs/TORTURE.md and urcutorture(1).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>

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

static const char *const role_opt[UT_ROLE_COUNT] = {
	"--pin-readers", "--pin-updaters", "--pin-workers",
};

int main(int argc, char **argv)
{
	struct ut_config cfg;
	struct ut_plan plans[UT_LAYOUT_COUNT];
	struct ut_result *results;
	enum ut_verdict verdict = UT_SUCCESS;
	int rc, ncombos, ndone = 0, exit_code;

	rc = ut_parse_options(argc, argv, &cfg);
	if (rc >= 0) {
		ut_config_release(&cfg);
		return rc;
	}

	if (!ut_mode_uses_layout(&cfg)) {
		/* Nothing in this mode goes through call_rcu: no layout to vary. */
		cfg.layouts[0] = UT_LAYOUT_DEFAULT;
		cfg.nlayouts = 1;
	}
	ncombos = cfg.nflavors * cfg.nlayouts;

	memset(plans, 0, sizeof(plans));
	for (int l = 0; l < cfg.nlayouts; l++) {
		int n[UT_ROLE_COUNT];
		char err[256] = "";

		ut_role_counts(&cfg, cfg.layouts[l], n);
		if (ut_plan_build(cfg.topo, cfg.pin, n, &plans[l], err, sizeof(err))) {
			/* The planner says whose count or policy it could not place. */
			enum ut_role role = plans[l].failed < UT_ROLE_COUNT ? plans[l].failed
									    : UT_ROLE_READER;

			fprintf(stderr, "urcutorture: %s: %s\n", role_opt[role], err);
			for (int k = 0; k < l; k++)
				ut_plan_free(&plans[k]);
			ut_config_release(&cfg);
			return UT_EXIT_USAGE;
		}
	}

	if (cfg.dry_run) {
		char topo[256];

		ut_topology_summary(cfg.topo, topo, sizeof(topo));
		ut_report_start(&cfg, ncombos);
		for (int l = 0; l < cfg.nlayouts; l++) {
			ut_out(&cfg.sink, "placement plan for call_rcu layout %s on %s (backend %s):\n",
			       ut_layout_names[cfg.layouts[l]], topo, ut_placement_backend());
			ut_plan_print(&plans[l], cfg.topo, cfg.sink.human);
		}
		ut_out(&cfg.sink, "dry run: nothing was run\n");
		if (cfg.json) {
			ut_report_json(&cfg, &plans[0], NULL, 0, UT_SUCCESS, 0);
		}
		for (int l = 0; l < cfg.nlayouts; l++)
			ut_plan_free(&plans[l]);
		ut_config_release(&cfg);
		return UT_EXIT_OK;
	}

	for (int l = 0; l < cfg.nlayouts; l++) {
		char err[256] = "";

		if (probe_pinning(&plans[l], err, sizeof(err))) {
			fprintf(stderr, "urcutorture: pinning refused: %s\n", err);
			for (int k = 0; k < cfg.nlayouts; k++)
				ut_plan_free(&plans[k]);
			ut_config_release(&cfg);
			return UT_EXIT_ENV;
		}
	}

	results = calloc((size_t)ncombos, sizeof(*results));
	if (!results) {
		fprintf(stderr, "urcutorture: out of memory\n");
		return UT_EXIT_ENV;
	}
	ut_watchdog_results(results, &ndone);
	ut_watchdog_start(&cfg);
	ut_report_start(&cfg, ncombos);

	for (int f = 0; f < cfg.nflavors; f++) {
		for (int l = 0; l < cfg.nlayouts; l++) {
			struct ut_result *r = &results[ndone];

			ut_run_one(&cfg, cfg.flavors[f], cfg.layouts[l], &plans[l], r);
			ut_report_result(&cfg, r);
			ut_report_tap(&cfg, results, ncombos, ndone);
			/* Publish the finished result to the watchdog's report. */
			__atomic_store_n(&ndone, ndone + 1, __ATOMIC_RELEASE);
			if (r->verdict == UT_FAILURE)
				verdict = UT_FAILURE;
			else if (r->verdict == UT_ENV && verdict == UT_SUCCESS)
				verdict = UT_ENV;
		}
	}
	ut_watchdog_stop();

	if (ncombos > 1)
		ut_report_matrix(&cfg, results, ndone);
	exit_code = verdict == UT_FAILURE ? UT_EXIT_FAILURE :
		    verdict == UT_ENV ? UT_EXIT_ENV : UT_EXIT_OK;
	ut_report_json(&cfg, &plans[0], results, ndone, verdict, exit_code);
	ut_report_end(&cfg, verdict, results, ndone);

	for (int i = 0; i < ndone; i++)
		ut_result_free(&results[i]);
	free(results);
	for (int l = 0; l < cfg.nlayouts; l++)
		ut_plan_free(&plans[l]);
	ut_config_release(&cfg);
	return exit_code;
}
