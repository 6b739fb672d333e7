/* SPDX-License-Identifier: MIT */
/*
 * Command-line parsing.  Every option value is checked in full before
 * anything runs; a bad one produces exactly one line on stderr that names
 * the option, and exit status 64.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ut.h"

#ifndef UT_VERSION
# define UT_VERSION "unknown"
#endif

/* --help, in four parts: before the modes, the modes (from each mode's
 * help text), the flavors (from the flavor registry, see print_help), after
 * them. */
static const char help_head[] =
"Usage: urcutorture [OPTION]...\n"
"Torture-test, stress and measure a userspace RCU library.\n"
"With no option: a 10-second stress run of the memb flavor with one reader per\n"
"CPU, one updater and one fake updater, ending in \"End of test: SUCCESS\".\n"
"\n"
"Workload:\n";

static const char help_text[] =
"  --call-rcu-layout=LIST default (one shared worker, the default), per-cpu,\n"
"                           per-thread, rt (per-thread with URCU_CALL_RCU_RT), all\n"
"  --readers=N            reader threads (default: CPUs; 1 in callback, flood\n"
"                           and barrier modes)\n"
"  --updaters=N           gp-latency updaters (default 1)\n"
"  --enqueuers=N          callback/flood/barrier posting threads (default 1;\n"
"                           barrier: 2)\n"
"  --max-outstanding=N    bound on callbacks posted but not yet invoked\n"
"                           (default 10000; flood 100000; gp-latency --async 1000)\n"
"  --read-delay=DUR       reader critical-section length (default: random short\n"
"                           lingering, as rcutorture does)\n"
"  --stuck-for=DUR        stall: how long the stuck reader holds its read-side\n"
"                           section (qsbr: stays online without a quiescent\n"
"                           state) in each episode (default 1s)\n"
"  --structures=LIST      queue: rculfqueue, lfstack, rculfstack, wfstack,\n"
"                           wfcqueue, wfqueue, or all (default); test-only:\n"
"                           busted-wfstack (a pop that takes a half-done push for\n"
"                           the bottom: must FAIL with lost_node)\n"
"  --lib-stall-timeout=DUR  the library's own stall timeout, set for every\n"
"                           combination (urcu_<flavor>_set_stall_timeout); 0 turns\n"
"                           its stall reports off (default: the library's, 21 s\n"
"                           or URCU_STALL_TIMEOUT; stall mode: 250ms).  Its reports\n"
"                           go to the report and the JSON report\n";

/* After the modes' own options (print_help). */
static const char help_tail[] =
"\n"
"Time:\n"
"  --duration=DUR         length of each flavor x layout combination (default 10s)\n"
"  --stat-interval=DUR    period of the stat lines, 0 = none (default 2s)\n"
"  --stall-timeout=DUR    no progress, or a grace period not completed, for this\n"
"                           long = stall, exit 2 (also when the wait is pending\n"
"                           at the end of the duration); default: duration/4\n"
"                           within 6s..10s, plus 4 x --read-delay, 2 x\n"
"                           --update-delay, 2 / --rate, 2 x --stuck-for and\n"
"                           20ms per thread beyond 4 per CPU\n"
"  --seed=N               seed of every random choice (default: time and pid;\n"
"                           always printed)\n"
"  DUR is a number with a unit: ns, us, ms, s, m, h (plain number = seconds).\n"
"\n"
"Placement:\n"
"  --pin=POLICY           policy for all thread roles\n"
"  --pin-readers=POLICY   readers\n"
"  --pin-updaters=POLICY  updaters, fake updaters and enqueuers\n"
"  --pin-workers=POLICY   call_rcu workers\n"
"                         POLICY: none (default), compact, scatter, numa,\n"
"                           list:CPU[,CPU|FIRST-LAST]...\n"
"  --topology=SPEC        plan for another machine: synthetic:\"pack:2 numa:2\n"
"                           core:8 pu:2\" (hwloc synthetic) or an hwloc XML file\n"
"  --dry-run              print the placement plan and the parameters, run nothing\n"
"\n"
"Scenarios and baselines:\n"
"  --scenario=NAME|FILE   run a named battery: smoke (under 30 s, every flavor\n"
"                           once), ci (under 5 min, every mode x flavor, layouts\n"
"                           default and per-cpu), qualify (every mode x flavor x\n"
"                           layout, compact and scatter placement, about an hour),\n"
"                           soak (hours, rotating), or a scenario file; options\n"
"                           given here override the scenario's (see urcutorture(1))\n"
"  --list-scenarios       the built-in scenarios, their size and expected time\n"
"  --compare=OLD.json     after the run, compare every combination with the one of\n"
"                           a baseline JSON report; exit 4 if a figure regressed\n"
"  --regress-threshold=PCT  how much worse a figure may get before it counts as a\n"
"                           regression (default 50%; see urcutorture(1))\n"
"  --from-report=NEW.json with --compare: run nothing, compare a saved report\n"
"\n"
"Output:\n"
"  --json=FILE|-          write a schema-versioned JSON report (\"urcutorture/2\")\n"
"                           to FILE, or to stdout with \"-\" (the human report then\n"
"                           goes to stderr)\n"
"  --tap                  TAP on stdout: one test line per combination; the human\n"
"                           report becomes TAP comments\n"
"  --quiet                no periodic stat lines\n"
"  --list-modes           the modes, one per line\n"
"  --list-flavors         the flavors, one per line: name, kind, what it is\n"
"  --help                 this text;  --version  version and library\n"
"\n"
"Output: a start line with every parameter and the seed, a stat line every\n"
"--stat-interval (reads, updates, grace periods, callbacks, pipeline-age\n"
"histogram, errors; \"!!!\" marks a line with errors), a final table per\n"
"combination, a comparison table when several combinations ran, and as last\n"
"line \"End of test: SUCCESS\", \"FAILURE\", \"STALL\" or \"CRASH\" (a fatal signal).\n"
"On a terminal a live\n"
"progress line is drawn on stderr.\n"
"\n"
"Detection: readers record the pipeline age of the object they read (age >= 2\n"
"is a too-short grace period), poisoned or recycled objects, lost or doubly\n"
"invoked callbacks, rcu_barrier returning early, polled cookies completing too\n"
"early or too late; a watchdog reports every thread's state on a stall.\n"
"\n"
"SIGINT and SIGTERM stop the workload; the report is printed, marked INTERRUPTED.\n"
"\n"
"Exit status: 0 success, 1 RCU correctness failure or crash, 2 stall, 3 environment\n"
"problem (pinning refused), 4 performance regression (--compare), 5 interrupted\n"
"by SIGINT or SIGTERM, 64 usage error (one line naming the option, nothing run),\n"
"77 feature unavailable in this build (e.g. a flavor not compiled in).\n";

/* The help column: options start at 2, their text at 25, continued at 27. */
#define HELP_TEXT_COL	25
#define HELP_WIDTH	79

/* One entry of a help list at HELP_TEXT_COL: its first line after label
 * (the option, or nothing), the others continued as they are. */
static void print_help_entry(const char *label, const char *pfx, const char *text)
{
	const char *line = text;

	while (*line) {
		size_t n = strcspn(line, "\n");

		printf("%-*s%s%.*s\n", HELP_TEXT_COL, line == text ? label : "",
		       line == text ? pfx : "", (int)n, line);
		line += n;
		if (*line == '\n')
			line++;
	}
}

/* label padded to HELP_TEXT_COL, then text wrapped at HELP_WIDTH, the
 * continuation lines two columns further. */
static void print_help_wrapped(const char *label, const char *text)
{
	const char *w = text;
	int col = printf("%-*s", HELP_TEXT_COL, label);
	bool first = true;

	while (*w) {
		size_t n = strcspn(w, " ");

		if (!first && col + 1 + (int)n > HELP_WIDTH)
			col = printf("\n%*s", HELP_TEXT_COL + 2, "") - 1;
		else if (!first)
			col += printf(" ");
		col += printf("%.*s", (int)n, w);
		first = false;
		w += n;
		w += strspn(w, " ");
	}
	putchar('\n');
}

/* "NAME (KIND): HELP" under --flavor. */
static void print_help_flavor(const struct ut_flavor_entry *e)
{
	char text[512];

	snprintf(text, sizeof(text), "%s (%s): %s", e->name, ut_flavor_kind_name(e->kind), e->help);
	print_help_wrapped("", text);
}

/* "  --NAME=N   MODE[/MODE]: HELP" for each option the modes declare. */
static void print_help_mode_opts(void)
{
	static const char *const value[] = { "=N", "=N", "=DUR", "" };

	for (int k = 0; k < ut_mode_opts_count(); k++) {
		const struct ut_mode_opt *o = ut_mode_opt_at(k);
		char label[64], text[512];
		size_t off = 0;

		snprintf(label, sizeof(label), "  --%s%s", o->name, value[o->type]);
		for (int i = 0; ut_modes[i] && off < sizeof(text); i++)
			if (ut_mode_declares(ut_modes[i], o->name))
				off += (size_t)snprintf(text + off, sizeof(text) - off, "%s%s",
							off ? "/" : "", ut_modes[i]->name);
		if (off < sizeof(text))
			snprintf(text + off, sizeof(text) - off, ": %s", o->help);
		print_help_wrapped(label, text);
	}
}

/* "  --mode=MODE" then every mode's help lines, "  --flavor=LIST" then
 * every registered flavor's, aligned like the rest. */
static void print_help(void)
{
	fputs(help_head, stdout);
	for (int i = 0; ut_modes[i]; i++)
		print_help_entry(i == 0 ? "  --mode=MODE" : "", "", ut_modes[i]->help);
	print_help_entry("  --flavor=LIST", "", "a comma-separated list of these flavors, or all\n"
			 "  (the real ones built in); default memb:");
	for (int i = 0; ut_flavor_registry[i].name; i++)
		print_help_flavor(&ut_flavor_registry[i]);
	fputs(help_text, stdout);
	print_help_mode_opts();
	fputs(help_tail, stdout);
}

/* --list-flavors: "NAME KIND HELP", the help on one line. */
static void list_flavors(void)
{
	for (int i = 0; ut_flavor_registry[i].name; i++) {
		const struct ut_flavor_entry *e = &ut_flavor_registry[i];

		printf("%-21s %-7s ", e->name, ut_flavor_kind_name(e->kind));
		for (const char *c = e->help; *c; c++) {
			if (*c == '\n')
				while (c[1] == ' ')
					c++;
			putchar(*c == '\n' ? ' ' : *c);
		}
		putchar('\n');
	}
}

/* "stress, gp-latency, ..." */
static void mode_list(char *buf, size_t len, bool (*keep)(const struct ut_mode_ops *m))
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; ut_modes[i] && off < len; i++)
		if (!keep || keep(ut_modes[i]))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						ut_modes[i]->name);
}

static bool mode_takes_stuck_for(const struct ut_mode_ops *m)
{
	return m->takes_stuck_for;
}

static bool mode_takes_structures(const struct ut_mode_ops *m)
{
	return m->takes_structures;
}

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* "FILE:LINE" of the scenario run being parsed, NULL for the command line. */
static const char *err_where;

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("urcutorture: ", stderr);
	if (err_where)
		fprintf(stderr, "%s: ", err_where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return UT_EXIT_USAGE;
}

static int parse_long(const char *opt, const char *text, long long lo, long long hi, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	if (!text || !*text)
		return usage_error("%s: missing value", opt);
	v = strtoll(text, &end, 10);
	if (errno || end == text || *end)
		return usage_error("%s: '%s' is not an integer", opt, text);
	if (v < lo || v > hi)
		return usage_error("%s: %lld is out of range %lld..%lld", opt, v, lo, hi);
	*out = v;
	return 0;
}

static int parse_int(const char *opt, const char *text, int lo, int hi, int *out)
{
	long long v;
	int rc = parse_long(opt, text, lo, hi, &v);

	if (!rc)
		*out = (int)v;
	return rc;
}

static int parse_dur(const char *opt, const char *text, bool allow_zero, uint64_t *out)
{
	uint64_t v;

	if (ut_parse_duration(text, &v))
		return usage_error("%s: '%s' is not a duration (e.g. 500ms, 10s, 5m, 2h)", opt, text ? text : "");
	if (!allow_zero && v == 0)
		return usage_error("%s: must be greater than zero", opt);
	*out = v;
	return 0;
}

static int parse_flavors(const char *text, struct ut_config *cfg)
{
	char *copy = strdup(text), *save = NULL, *tok;
	int rc = 0;

	cfg->nflavors = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			for (int i = 0; ut_flavors[i] && cfg->nflavors < UT_MAX_FLAVORS; i++)
				cfg->flavors[cfg->nflavors++] = ut_flavors[i];
			continue;
		}
		const struct ut_flavor_entry *e = ut_flavor_entry_find(tok);

		if (!e) {
			rc = usage_error("--flavor: unknown flavor '%s' (see --list-flavors)", tok);
			break;
		}
		const struct ut_flavor_ops *ops = ut_flavor_entry_ops(e);

		if (!ops) {
			fprintf(stderr, "urcutorture: %s%s--flavor: flavor '%s' is not built into this binary\n",
				err_where ? err_where : "", err_where ? ": " : "", tok);
			rc = UT_EXIT_SKIP;
			break;
		}
		if (cfg->nflavors >= UT_MAX_FLAVORS) {
			rc = usage_error("--flavor: too many flavors");
			break;
		}
		cfg->flavors[cfg->nflavors++] = ops;
	}
	if (!rc && !cfg->nflavors)
		rc = usage_error("--flavor: empty list");
	free(copy);
	return rc;
}

static int parse_layouts(const char *text, struct ut_config *cfg)
{
	char *copy = strdup(text), *save = NULL, *tok;
	int rc = 0;

	cfg->nlayouts = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		int found = -1;

		if (!strcmp(tok, "all")) {
			cfg->nlayouts = 0;
			for (int i = 0; i < UT_LAYOUT_COUNT; i++)
				cfg->layouts[cfg->nlayouts++] = (enum ut_layout)i;
			break;
		}
		for (int i = 0; i < UT_LAYOUT_COUNT; i++)
			if (!strcmp(tok, ut_layout_names[i]))
				found = i;
		if (found < 0) {
			rc = usage_error("--call-rcu-layout: unknown layout '%s' (default, per-cpu, per-thread, rt, all)", tok);
			break;
		}
		if (cfg->nlayouts < UT_LAYOUT_COUNT)
			cfg->layouts[cfg->nlayouts++] = (enum ut_layout)found;
	}
	if (!rc && !cfg->nlayouts)
		rc = usage_error("--call-rcu-layout: empty list");
	free(copy);
	return rc;
}

enum {
	OPT_MODE = 256, OPT_FLAVOR, OPT_LAYOUT, OPT_READERS, OPT_UPDATERS,
	OPT_ENQUEUERS, OPT_MAX_OUT, OPT_READ_DELAY, OPT_DURATION,
	OPT_STAT, OPT_STALL, OPT_SEED, OPT_PIN, OPT_PIN_R, OPT_PIN_U, OPT_PIN_W,
	OPT_TOPOLOGY, OPT_DRY_RUN, OPT_JSON, OPT_TAP, OPT_QUIET, OPT_HELP, OPT_VERSION,
	OPT_LIST_MODES, OPT_SELF_CHECK_MODES, OPT_SCENARIO, OPT_LIST_SCENARIOS, OPT_COMPARE,
	OPT_REGRESS, OPT_FROM_REPORT, OPT_STUCK_FOR, OPT_LIB_STALL, OPT_LIST_FLAVORS,
	OPT_STRUCTURES,
	OPT_MODE_OPT,	/* + k: the k-th of the modes' options (ut_mode_opt_at) */
};

/* The options every run has; the modes' own are appended (all_opts). */
static const struct option common_opts[] = {
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "flavor", required_argument, NULL, OPT_FLAVOR },
	{ "call-rcu-layout", required_argument, NULL, OPT_LAYOUT },
	{ "readers", required_argument, NULL, OPT_READERS },
	{ "updaters", required_argument, NULL, OPT_UPDATERS },
	{ "enqueuers", required_argument, NULL, OPT_ENQUEUERS },
	{ "max-outstanding", required_argument, NULL, OPT_MAX_OUT },
	{ "read-delay", required_argument, NULL, OPT_READ_DELAY },
	{ "stuck-for", required_argument, NULL, OPT_STUCK_FOR },
	{ "structures", required_argument, NULL, OPT_STRUCTURES },
	{ "lib-stall-timeout", required_argument, NULL, OPT_LIB_STALL },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "stat-interval", required_argument, NULL, OPT_STAT },
	{ "stall-timeout", required_argument, NULL, OPT_STALL },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "pin", required_argument, NULL, OPT_PIN },
	{ "pin-readers", required_argument, NULL, OPT_PIN_R },
	{ "pin-updaters", required_argument, NULL, OPT_PIN_U },
	{ "pin-workers", required_argument, NULL, OPT_PIN_W },
	{ "topology", required_argument, NULL, OPT_TOPOLOGY },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "tap", no_argument, NULL, OPT_TAP },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "list-modes", no_argument, NULL, OPT_LIST_MODES },
	{ "list-flavors", no_argument, NULL, OPT_LIST_FLAVORS },
	{ "scenario", required_argument, NULL, OPT_SCENARIO },
	{ "list-scenarios", no_argument, NULL, OPT_LIST_SCENARIOS },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "regress-threshold", required_argument, NULL, OPT_REGRESS },
	{ "from-report", required_argument, NULL, OPT_FROM_REPORT },
	/* Hidden, for the tests: verify the mode registry (TAP on stdout). */
	{ "self-check-modes", no_argument, NULL, OPT_SELF_CHECK_MODES },
	{ NULL, 0, NULL, 0 },
};

#define N_COMMON_OPTS	(sizeof(common_opts) / sizeof(common_opts[0]) - 1)

/* common_opts, then every option the modes declare; built on first use. */
static const struct option *all_opts(void)
{
	static struct option opts[N_COMMON_OPTS + UT_MAX_MODE_OPTS + 1];

	if (!opts[0].name) {
		int n = ut_mode_opts_count();

		memcpy(opts, common_opts, N_COMMON_OPTS * sizeof(opts[0]));
		for (int k = 0; k < n; k++) {
			const struct ut_mode_opt *o = ut_mode_opt_at(k);

			opts[N_COMMON_OPTS + k] = (struct option){
				o->name, o->type == UT_OPT_FLAG ? no_argument : required_argument,
				NULL, OPT_MODE_OPT + k };
		}
	}
	return opts;
}

/* --NAME[=VALUE] of the k-th mode option into cfg. */
static int parse_mode_opt(int k, const char *text, struct ut_config *cfg)
{
	const struct ut_mode_opt *o = ut_mode_opt_at(k);
	char opt[64];
	long long v = 1;
	uint64_t d = 0;
	int rc = 0;

	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->type) {
	case UT_OPT_COUNT:
	case UT_OPT_RATE:
		rc = parse_long(opt, text, (long long)o->lo, (long long)o->hi, &v);
		d = (uint64_t)v;
		break;
	case UT_OPT_DUR:
		rc = parse_dur(opt, text, true, &d);
		break;
	case UT_OPT_FLAG:
		d = 1;
		break;
	}
	if (!rc) {
		cfg->opt[k] = d;
		cfg->opt_given[k] = true;
	}
	return rc;
}

/* A mode option given to a mode that does not declare it, when the option
 * says that is an error: "--async: only meaningful with --mode=gp-latency". */
static int check_mode_opts(const struct ut_config *cfg)
{
	for (int k = 0; k < ut_mode_opts_count(); k++) {
		const struct ut_mode_opt *o = ut_mode_opt_at(k);
		char names[256];
		size_t off = 0;

		if (!cfg->opt_given[k] || !o->owner_only || ut_mode_declares(cfg->mode, o->name))
			continue;
		names[0] = '\0';
		for (int i = 0; ut_modes[i] && off < sizeof(names); i++)
			if (ut_mode_declares(ut_modes[i], o->name))
				off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
							off ? ", " : "", ut_modes[i]->name);
		return usage_error("--%s: only meaningful with --mode=%s", o->name, names);
	}
	return 0;
}

static const char *const pin_opt_names[UT_ROLE_COUNT] = {
	"--pin-readers", "--pin-updaters", "--pin-workers",
};

/* Which option set each role's policy, for error messages. */
static const char *pin_source[UT_ROLE_COUNT];

/* m's options against the common options and the same-named options of the
 * other modes (which share one value, so must agree); err empty when fine. */
static void check_opts_shared(const struct ut_mode_ops *m, char *err, size_t len)
{
	for (const struct ut_mode_opt *o = m->opts; o && o->name && !err[0]; o++) {
		const struct ut_mode_opt *first = ut_mode_opt_at(ut_mode_opt_index(o));

		for (size_t c = 0; c < N_COMMON_OPTS; c++)
			if (!strcmp(common_opts[c].name, o->name))
				snprintf(err, len, "option --%s is a common option", o->name);
		if (!err[0] && (!first || strcmp(first->name, o->name)))
			snprintf(err, len, "option --%s beyond UT_MAX_MODE_OPTS", o->name);
		else if (!err[0] && (first->type != o->type || first->lo != o->lo || first->hi != o->hi ||
				     first->def != o->def || strcmp(first->json, o->json)))
			snprintf(err, len, "option --%s differs from another mode's", o->name);
	}
}

/* --self-check-modes: every registered mode has its mandatory hooks. */
static int self_check_modes(void)
{
	int bad = 0, n = 0;

	for (int i = 0; ut_modes[i]; i++, n++) {
		char err[128] = "";
		const char *name = ut_modes[i]->name ? ut_modes[i]->name : "?";

		if (ut_mode_check(ut_modes[i], err, sizeof(err))) {
			printf("not ok %d - mode %s: %s\n", i + 1, name, err);
			bad++;
			continue;
		}
		for (int k = 0; k < i; k++) {
			if (ut_modes[k]->name && !strcmp(ut_modes[k]->name, name)) {
				snprintf(err, sizeof(err), "same name as mode %d", k + 1);
				break;
			}
		}
		if (!err[0])
			check_opts_shared(ut_modes[i], err, sizeof(err));
		if (err[0]) {
			printf("not ok %d - mode %s: %s\n", i + 1, name, err);
			bad++;
		} else {
			printf("ok %d - mode %s\n", i + 1, name);
		}
	}
	printf("1..%d\n", n);
	return bad ? UT_EXIT_FAILURE : UT_EXIT_OK;
}

/* The default --regress-threshold (docs/TORTURE.md, "Comparing with a
 * baseline", says how it was measured). */
#define UT_DEFAULT_REGRESS_THRESHOLD	0.50

/* --regress-threshold=PCT: "40", "40%" or "40.5%"; 1..1000 percent. */
static int parse_threshold(const char *text, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = text && *text ? strtod(text, &end) : 0;
	if (!text || !*text || errno || end == text || (*end && strcmp(end, "%")) || !(v == v))
		return usage_error("--regress-threshold: '%s' is not a percentage (e.g. 50%%)",
				   text ? text : "");
	if (v < 1 || v > 1000)
		return usage_error("--regress-threshold: %g%% is out of range 1..1000%%", v);
	*out = v / 100.0;
	return 0;
}

/* What an option handler returns besides an exit status: the option was
 * taken (go on with the next), or it is not this handler's. */
#define OPT_TAKEN	(-1)
#define OPT_NOT_MINE	(-2)

/* One parse: the run's config, what was given, the texts parsed after the
 * scan, and the command line's config when a scenario run is parsed. */
struct parse_state {
	struct ut_config *cfg;
	const struct ut_config *global;
	struct ut_given given;
	const char *flavor_text, *layout_text;
	const char *name;	/* the current option's name without "=value" */
};

/* An exit status, or OPT_TAKEN when rc is 0 (the value was fine). */
static int taken(int rc)
{
	return rc ? rc : OPT_TAKEN;
}

/* The defaults of every field, then (a scenario run) the whole
 * invocation's settings copied from the command line's config. */
static void config_defaults(struct ut_config *cfg, int argc, char **argv,
			    const struct ut_config *global)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = ut_modes[0];
	cfg->argc = argc;
	cfg->argv = argv;
	cfg->readers = -1;
	cfg->updaters = 1;
	cfg->enqueuers = 1;
	for (int k = 0; k < ut_mode_opts_count(); k++)
		cfg->opt[k] = ut_mode_opt_at(k)->def;
	cfg->duration_ns = 10000000000ull;
	cfg->stat_interval_ns = 2000000000ull;
	cfg->stall_timeout_ns = 30000000000ull;
	cfg->lib_stall_timeout_ns = -1;
	cfg->seed = ((uint64_t)ut_now_ns() * 0x9e3779b97f4a7c15ull) ^ (uint64_t)getpid();
	cfg->seed %= 1000000000000ull;	/* short enough to retype */
	cfg->sink.human = stdout;
	cfg->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (cfg->ncpus < 1)
		cfg->ncpus = 1;
	cfg->regress_threshold = UT_DEFAULT_REGRESS_THRESHOLD;
	for (int r = 0; r < UT_ROLE_COUNT; r++)
		pin_source[r] = NULL;
	if (!global)
		return;
	cfg->seed = global->seed;
	cfg->seed_given = global->seed_given;
	cfg->sink = global->sink;
	cfg->json_path = global->json_path;
	cfg->json = global->json;
	cfg->dry_run = global->dry_run;
	cfg->quiet = global->quiet;
	cfg->scenario = global->scenario;
	cfg->compare_path = global->compare_path;
	cfg->regress_threshold = global->regress_threshold;
}

/* --seed=N: a non-negative decimal integer. */
static int parse_seed(const char *text, struct ut_config *cfg)
{
	char *end;

	errno = 0;
	if (!*text || *text == '-')
		return usage_error("--seed: '%s' is not a non-negative integer", text);
	cfg->seed = strtoull(text, &end, 10);
	if (errno || *end)
		return usage_error("--seed: '%s' is not a non-negative integer", text);
	cfg->seed_given = true;
	return 0;
}

/* A file or scenario name that must not be empty. */
static int parse_name(const char *opt, const char *what, const char *text, const char **out)
{
	if (!*text)
		return usage_error("%s: empty %s", opt, what);
	*out = text;
	return 0;
}

/* The informational options: they print and end the parse. */
static int info_opt(int c, struct parse_state *st)
{
	switch (c) {
	case OPT_HELP: case OPT_VERSION: case OPT_LIST_MODES: case OPT_SELF_CHECK_MODES:
	case OPT_LIST_FLAVORS:
		if (st->global)
			return usage_error("%s: not an option of a run", st->name);
		break;
	default:
		return OPT_NOT_MINE;
	}
	switch (c) {
	case OPT_HELP:
		print_help();
		break;
	case OPT_LIST_MODES:
		for (int i = 0; ut_modes[i]; i++)
			puts(ut_modes[i]->name);
		break;
	case OPT_LIST_FLAVORS:
		list_flavors();
		break;
	case OPT_SELF_CHECK_MODES:
		return self_check_modes();
	default:	/* OPT_VERSION */
		printf("urcutorture %s (library: %s %s)\n", UT_VERSION,
		       ut_library_name(), ut_library_version());
		break;
	}
	return UT_EXIT_OK;
}

/* The whole invocation's options: output, scenario, baseline, seed, dry
 * run.  A scenario's run parses them into a scratch copy: the command line
 * already checked them, and its values hold. */
static int invocation_opt(int c, struct parse_state *st)
{
	struct ut_config scratch, *cfg = st->cfg;

	if (st->global) {
		scratch = *cfg;
		cfg = &scratch;
	}
	switch (c) {
	case OPT_SEED: return taken(parse_seed(optarg, cfg));
	case OPT_SCENARIO: return taken(parse_name("--scenario", "name", optarg, &cfg->scenario));
	case OPT_LIST_SCENARIOS: cfg->list_scenarios = true; break;
	case OPT_COMPARE: return taken(parse_name("--compare", "file name", optarg, &cfg->compare_path));
	case OPT_REGRESS: return taken(parse_threshold(optarg, &cfg->regress_threshold));
	case OPT_FROM_REPORT:
		return taken(parse_name("--from-report", "file name", optarg, &cfg->from_report));
	case OPT_DRY_RUN: cfg->dry_run = true; break;
	case OPT_JSON: return taken(parse_name("--json", "file name", optarg, &cfg->json_path));
	case OPT_TAP: cfg->sink.tap = true; break;
	case OPT_QUIET: cfg->quiet = true; break;
	default: return OPT_NOT_MINE;
	}
	return OPT_TAKEN;
}

/* What runs: mode, flavors, layouts, thread counts, bounds. */
static int workload_opt(int c, struct parse_state *st)
{
	struct ut_config *cfg = st->cfg;
	long long ll = 0;
	int rc;

	switch (c) {
	case OPT_MODE: {
		char names[256];

		cfg->mode_given = true;
		cfg->mode = ut_mode_find(optarg);
		if (cfg->mode)
			return OPT_TAKEN;
		mode_list(names, sizeof(names), NULL);
		return usage_error("--mode: unknown mode '%s' (%s)", optarg, names);
	}
	case OPT_FLAVOR: st->flavor_text = optarg; return OPT_TAKEN;
	case OPT_LAYOUT: st->layout_text = optarg; return OPT_TAKEN;
	case OPT_READERS: return taken(parse_int("--readers", optarg, 0, 4096, &cfg->readers));
	case OPT_UPDATERS: return taken(parse_int("--updaters", optarg, 1, 1024, &cfg->updaters));
	case OPT_ENQUEUERS:
		st->given.enqueuers = true;
		return taken(parse_int("--enqueuers", optarg, 1, 1024, &cfg->enqueuers));
	case OPT_MAX_OUT:
		rc = parse_long("--max-outstanding", optarg, 1, 100000000, &ll);
		cfg->max_outstanding = (unsigned long)ll;
		st->given.max_outstanding = true;
		return taken(rc);
	case OPT_STRUCTURES:
		cfg->structures = optarg;
		st->given.structures = true;
		return OPT_TAKEN;
	default:
		return OPT_NOT_MINE;
	}
}

/* Durations and timeouts. */
static int time_opt(int c, struct parse_state *st)
{
	struct ut_config *cfg = st->cfg;
	uint64_t v = 0;
	int rc;

	switch (c) {
	case OPT_READ_DELAY: return taken(parse_dur("--read-delay", optarg, true, &cfg->read_delay_ns));
	case OPT_STUCK_FOR:
		st->given.stuck_for = true;
		return taken(parse_dur("--stuck-for", optarg, false, &cfg->stuck_for_ns));
	case OPT_LIB_STALL:
		/* At most 1e18 ns, the library's own bound (1e9 s). */
		rc = parse_dur("--lib-stall-timeout", optarg, true, &v);
		cfg->lib_stall_timeout_ns = (int64_t)v;
		st->given.lib_stall_timeout = true;
		return taken(rc);
	case OPT_DURATION:
		cfg->duration_given = true;
		return taken(parse_dur("--duration", optarg, false, &cfg->duration_ns));
	case OPT_STAT: return taken(parse_dur("--stat-interval", optarg, true, &cfg->stat_interval_ns));
	case OPT_STALL:
		cfg->stall_timeout_given = true;
		return taken(parse_dur("--stall-timeout", optarg, false, &cfg->stall_timeout_ns));
	default:
		return OPT_NOT_MINE;
	}
}

/* Where the threads run: the policies are parsed after the scan, against
 * the topology (parse_placement). */
static int placement_opt(int c, struct parse_state *st)
{
	struct ut_config *cfg = st->cfg;
	int r;

	switch (c) {
	case OPT_PIN:
		for (r = 0; r < UT_ROLE_COUNT; r++) {
			cfg->pin_text[r] = optarg;
			pin_source[r] = "--pin";
		}
		return OPT_TAKEN;
	case OPT_PIN_R: r = UT_ROLE_READER; break;
	case OPT_PIN_U: r = UT_ROLE_UPDATER; break;
	case OPT_PIN_W: r = UT_ROLE_WORKER; break;
	case OPT_TOPOLOGY: cfg->topology_spec = optarg; return OPT_TAKEN;
	default: return OPT_NOT_MINE;
	}
	cfg->pin_text[r] = optarg;
	pin_source[r] = pin_opt_names[r];
	return OPT_TAKEN;
}

/* A mode's own option, a missing value, an unknown option. */
static int other_opt(int c, struct parse_state *st)
{
	if (c >= OPT_MODE_OPT && c < OPT_MODE_OPT + ut_mode_opts_count())
		return taken(parse_mode_opt(c - OPT_MODE_OPT, optarg, st->cfg));
	if (c == ':')
		return usage_error("%s: missing value", st->name);
	if (optopt && optopt < 256)
		return usage_error("unknown option '-%c' (see --help)", optopt);
	return usage_error("unknown option '%s' (see --help)", st->name);
}

/* Every option goes through these in turn until one takes it. */
static int (*const opt_handlers[])(int c, struct parse_state *st) = {
	info_opt, invocation_opt, workload_opt, time_opt, placement_opt, other_opt,
};

/* The topology first (a scenario's run on the command line's machine
 * shares the command line's), then each role's pinning policy against it. */
static int parse_placement(struct ut_config *cfg, const struct ut_config *global)
{
	char err[256] = "";

	if (global && global->topo && (cfg->topology_spec == global->topology_spec ||
	    (cfg->topology_spec && global->topology_spec &&
	     !strcmp(cfg->topology_spec, global->topology_spec)))) {
		cfg->topo = global->topo;
		cfg->topo_shared = true;
	} else if (ut_topology_load(cfg->topology_spec, &cfg->topo, err, sizeof(err))) {
		return usage_error("--topology: %s", err);
	}
	if (!ut_topology_is_local(cfg->topo) && !cfg->dry_run)
		return usage_error("--topology: a synthetic or XML topology can only be planned (add --dry-run)");
	/* Defaults that follow the CPU count follow the planned machine. */
	cfg->plan_cpus = ut_topology_ncpus(cfg->topo);
	if (cfg->plan_cpus < 1)
		cfg->plan_cpus = cfg->ncpus;
	for (int r = 0; r < UT_ROLE_COUNT; r++) {
		const char *text = cfg->pin_text[r] ? cfg->pin_text[r] : "none";

		err[0] = '\0';
		if (ut_pin_policy_parse(text, cfg->topo, &cfg->pin[r], err, sizeof(err)))
			return usage_error("%s: %s", pin_source[r] ? pin_source[r] : "--pin", err);
	}
	return 0;
}

/* "--NAME: only meaningful with --mode=..." for a common option that only
 * some modes take. */
static int check_taken_by(bool given, bool taken_by_mode, const char *opt,
			  bool (*takes)(const struct ut_mode_ops *m))
{
	char names[256];

	if (!given || taken_by_mode)
		return 0;
	mode_list(names, sizeof(names), takes);
	return usage_error("%s: only meaningful with --mode=%s", opt, names);
}

/* The mode's defaults and checks, then the common defaults and the
 * options given to a mode that does not take them. */
static int finish_run(struct ut_config *cfg, struct ut_given *given)
{
	int rc;

	given->readers = cfg->readers >= 0;
	if (cfg->mode->configure) {
		char err[256] = "";

		if (cfg->mode->configure(cfg, given, err, sizeof(err)))
			return usage_error("%s", err);
	}
	if (cfg->readers < 0)
		cfg->readers = cfg->plan_cpus;
	if (!given->max_outstanding && !cfg->max_outstanding)
		cfg->max_outstanding = 10000;
	ut_config_derive_stall(cfg);
	rc = check_mode_opts(cfg);
	if (!rc)
		rc = check_taken_by(given->stuck_for, cfg->mode->takes_stuck_for, "--stuck-for",
				    mode_takes_stuck_for);
	if (!rc)
		rc = check_taken_by(given->structures, cfg->mode->takes_structures, "--structures",
				    mode_takes_structures);
	return rc;
}

/* The command line's own checks, after the run's: nothing is opened. */
static int finish_invocation(struct ut_config *cfg)
{
	if (cfg->from_report && !cfg->compare_path)
		return usage_error("--from-report: only meaningful with --compare");
	if (cfg->list_scenarios)
		return -1;	/* main lists them */
	if (cfg->json_path && !strcmp(cfg->json_path, "-")) {
		if (cfg->sink.tap)
			return usage_error("--json: '-' (stdout) cannot be combined with --tap");
		cfg->json = stdout;
		cfg->sink.human = stderr;
	}
	return -1;
}

/*
 * global == NULL: the command line.  Otherwise one run of a scenario: the
 * options that belong to the whole invocation (output, scenario, compare,
 * seed, dry run) are the command line's, already parsed into global, and
 * are skipped here; no file is opened.  Returns -1 to go on and run, or the
 * exit status (0 after --help and the other informational options).
 */
static int parse(int argc, char **argv, struct ut_config *cfg, const struct ut_config *global)
{
	struct parse_state st = {
		.cfg = cfg, .global = global, .flavor_text = "memb", .layout_text = "default",
	};
	char name[64];
	int c, rc;

	config_defaults(cfg, argc, argv, global);
	opterr = 0;
	optind = 0;	/* 0: glibc starts a fresh scan (this parser runs once per run) */
	while ((c = getopt_long(argc, argv, ":", all_opts(), NULL)) != -1) {
		/* The option's name without "=value", for messages. */
		snprintf(name, sizeof(name), "%s", optind > 0 && optind <= argc ? argv[optind - 1] : "?");
		name[strcspn(name, "=")] = '\0';
		st.name = name;
		rc = OPT_NOT_MINE;
		for (size_t h = 0; rc == OPT_NOT_MINE; h++)
			rc = opt_handlers[h](c, &st);
		if (rc != OPT_TAKEN)
			return rc;
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s' (options are --name=value; see --help)", argv[optind]);
	rc = parse_flavors(st.flavor_text, cfg);
	if (!rc)
		rc = parse_layouts(st.layout_text, cfg);
	if (!rc)
		rc = parse_placement(cfg, global);
	if (!rc)
		rc = finish_run(cfg, &st.given);
	if (rc)
		return rc;
	return global ? -1 : finish_invocation(cfg);
}

/*
 * The derived --stall-timeout (docs/TORTURE.md, "The watchdog's path to
 * exit 2").  A quarter of the duration, but at least 6 s: a real flavor's
 * single grace period took up to 1.6 s (signal, two runs in parallel on a
 * 2-CPU machine at load average 80), a starved reader was once reported at
 * 4 s (gp-latency, load 25), and the checks must never report one;
 * a short run loses nothing by it, since a wait still pending at the end of
 * the duration is followed until it reaches the timeout.  At most 10 s, so
 * that a stall is reported within the duration + 10 s however long the run.
 * Then what the options make legitimately slow: a grace period waits for a
 * --read-delay reader section (two, across a flip; rcu_barrier waits for one
 * more grace period in the call_rcu worker), an updater sleeps
 * --update-delay between updates, a paced enqueuer 1 / --rate between
 * posts, the stall mode's updater waits --stuck-for in each episode (and
 * up to as long again for the stuck reader to take part), and threads
 * queueing beyond 4 per CPU wait for the scheduler.
 */
#define UT_STALL_MIN_NS		6000000000ull
#define UT_STALL_MAX_NS		10000000000ull
#define UT_STALL_PER_THREAD_NS	20000000ull
#define UT_DELAY_CAP_NS		3600000000000ull	/* keeps the sum far from overflow */

void ut_config_derive_stall(struct ut_config *cfg)
{
	uint64_t t = cfg->duration_ns / 4;
	uint64_t rd = cfg->read_delay_ns < UT_DELAY_CAP_NS ? cfg->read_delay_ns : UT_DELAY_CAP_NS;
	uint64_t sf = cfg->stuck_for_ns < UT_DELAY_CAP_NS ? cfg->stuck_for_ns : UT_DELAY_CAP_NS;
	int n[UT_MODE_MAX_ROLES] = { 0 }, nthreads = 0, ncpus = cfg->ncpus > 0 ? cfg->ncpus : 1;
	bool posts[UT_MODE_MAX_ROLES];

	if (cfg->stall_timeout_given)
		return;
	if (t < UT_STALL_MIN_NS)
		t = UT_STALL_MIN_NS;
	if (t > UT_STALL_MAX_NS)
		t = UT_STALL_MAX_NS;
	t += 4 * rd + 2 * sf;
	for (int k = 0; k < ut_mode_opts_count(); k++) {
		const struct ut_mode_opt *o = ut_mode_opt_at(k);
		uint64_t v = cfg->opt[k];

		if (o->stall == UT_OPT_STALL_PAUSE)	/* --update-delay */
			t += 2 * (v < UT_DELAY_CAP_NS ? v : UT_DELAY_CAP_NS);
		else if (o->stall == UT_OPT_STALL_PERIOD && v > 0)	/* --rate: >= 1/s, at most 2 s */
			t += (uint64_t)(2e9 / (double)v);
	}
	ut_mode_counts(cfg, n, posts);
	for (int r = 0; r < cfg->mode->nroles && r < UT_MODE_MAX_ROLES; r++)
		nthreads += n[r];
	if (nthreads > 4 * ncpus)
		t += (uint64_t)(nthreads - 4 * ncpus) * UT_STALL_PER_THREAD_NS;
	cfg->stall_timeout_ns = t;
}

int ut_config_open_json(struct ut_config *cfg)
{
	/* Opened only once everything else was checked: a usage error leaves no file. */
	if (!cfg->json_path || cfg->json || cfg->dry_run)
		return 0;
	cfg->json = fopen(cfg->json_path, "w");
	if (!cfg->json)
		return usage_error("--json: cannot write '%s': %s", cfg->json_path, strerror(errno));
	return 0;
}

int ut_parse_options(int argc, char **argv, struct ut_config *cfg)
{
	err_where = NULL;
	return parse(argc, argv, cfg, NULL);
}

int ut_parse_run_options(int argc, char **argv, const struct ut_config *global,
			 const char *where, struct ut_config *cfg)
{
	int rc;

	err_where = where;
	rc = parse(argc, argv, cfg, global);
	err_where = NULL;
	return rc;
}

void ut_config_release(struct ut_config *cfg)
{
	for (int r = 0; r < UT_ROLE_COUNT; r++)
		ut_pin_policy_free(&cfg->pin[r]);
	if (cfg->topo && !cfg->topo_shared)
		ut_topology_free(cfg->topo);
	cfg->topo = NULL;
	if (cfg->json && cfg->json != stdout)
		fclose(cfg->json);
	cfg->json = NULL;
}
