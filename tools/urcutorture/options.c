/* SPDX-License-Identifier: MIT */
/*
 * Command-line parsing, from the option tables (opts.c and each mode's).
 * Every option value is checked in full before anything runs; a bad one
 * produces exactly one line on stderr that names the option, and exit
 * status 64.
 *
 * The command line fills two structs: the invocation (struct
 * ut_invocation: output, scenario, baseline, seed) and its run (struct
 * ut_config: the workload).  A scenario's run is parsed again from its line
 * and the command line's options, into its own struct ut_config that points
 * to the same invocation; the invocation's options are skipped then.
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

#include "opts.h"

/* "FILE:LINE" of the scenario run being parsed, NULL for the command line. */
static const char *err_where;

int ut_usage_error(const char *fmt, ...)
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

int ut_opt_parse_count(const char *opt, const char *text, long long lo, long long hi,
		       long long *out)
{
	char *end;
	long long v;

	errno = 0;
	if (!text || !*text)
		return ut_usage_error("%s: missing value", opt);
	v = strtoll(text, &end, 10);
	if (errno || end == text || *end)
		return ut_usage_error("%s: '%s' is not an integer", opt, text);
	if (v < lo || v > hi)
		return ut_usage_error("%s: %lld is out of range %lld..%lld", opt, v, lo, hi);
	*out = v;
	return 0;
}

int ut_opt_parse_dur(const char *opt, const char *text, bool allow_zero, uint64_t *out)
{
	uint64_t v;

	if (ut_parse_duration(text, &v))
		return ut_usage_error("%s: '%s' is not a duration (e.g. 500ms, 10s, 5m, 2h)", opt,
				      text ? text : "");
	if (!allow_zero && v == 0)
		return ut_usage_error("%s: must be greater than zero", opt);
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
			rc = ut_usage_error("--flavor: unknown flavor '%s' (see --list-flavors)", tok);
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
			rc = ut_usage_error("--flavor: too many flavors");
			break;
		}
		cfg->flavors[cfg->nflavors++] = ops;
	}
	if (!rc && !cfg->nflavors)
		rc = ut_usage_error("--flavor: empty list");
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
			rc = ut_usage_error("--call-rcu-layout: unknown layout '%s' (default, per-cpu, per-thread, rt, all)", tok);
			break;
		}
		if (cfg->nlayouts < UT_LAYOUT_COUNT)
			cfg->layouts[cfg->nlayouts++] = (enum ut_layout)found;
	}
	if (!rc && !cfg->nlayouts)
		rc = ut_usage_error("--call-rcu-layout: empty list");
	free(copy);
	return rc;
}



/* getopt's val: the table (scope) and the index in it. */
enum { SCOPE_INVOCATION = 1, SCOPE_RUN, SCOPE_MODE };
#define OPT_VAL(scope, k)	(((scope) << 12) | (k))
#define OPT_SCOPE(val)		((val) >> 12)
#define OPT_INDEX(val)		((val) & 0xfff)

/* getopt's list: the invocation's, the run's, then every mode's options. */
static const struct option *getopt_list(void)
{
	static struct option opts[64 + UT_MAX_RUN_OPTS + UT_MAX_MODE_OPTS + 1];
	int n = 0;

	if (opts[0].name)
		return opts;
	for (int k = 0; ut_invocation_opts[k].name; k++)
		opts[n++] = (struct option){ ut_invocation_opts[k].name,
			ut_invocation_opts[k].type == UT_OPT_FLAG ||
			ut_invocation_opts[k].type == UT_OPT_INFO ? no_argument : required_argument,
			NULL, OPT_VAL(SCOPE_INVOCATION, k) };
	for (int k = 0; ut_run_opts[k].name; k++)
		if (ut_run_opts[k].type != UT_OPT_MODE_OPTS)
			opts[n++] = (struct option){ ut_run_opts[k].name,
				ut_run_opts[k].type == UT_OPT_FLAG ? no_argument : required_argument,
				NULL, OPT_VAL(SCOPE_RUN, k) };
	for (int k = 0; k < ut_mode_opts_count(); k++)
		opts[n++] = (struct option){ ut_mode_opt_at(k)->name,
			ut_mode_opt_at(k)->type == UT_OPT_FLAG ? no_argument : required_argument,
			NULL, OPT_VAL(SCOPE_MODE, k) };
	return opts;
}

/*
 * One value by its type into *num or *text (a hook parses its own):
 * 0, or an exit status after one line naming the option.
 */
static int check_value(const struct ut_opt *o, const char *text, uint64_t *num,
		       const char **txt)
{
	char opt[64];
	long long v = 0;

	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->type) {
	case UT_OPT_COUNT:
	case UT_OPT_RATE:
		if (ut_opt_parse_count(opt, text, (long long)o->lo, (long long)o->hi, &v))
			return UT_EXIT_USAGE;
		*num = (uint64_t)v;
		return 0;
	case UT_OPT_DUR:
	case UT_OPT_DUR_NZ:
		return ut_opt_parse_dur(opt, text, o->type == UT_OPT_DUR, num);
	case UT_OPT_FLAG:
		*num = 1;
		return 0;
	case UT_OPT_STRING:
		if (!*text)
			return ut_usage_error("%s: empty %s", opt, o->value ? o->value : "value");
		/* fall through */
	default:
		*txt = text;
		return 0;
	}
}

/* --NAME[=text] of a table with fields into its scope's struct. */
static int store_field(const struct ut_opt *o, const char *text, void *scope)
{
	uint64_t num = 0;
	const char *txt = NULL;
	int rc;

	if (o->parse)
		return o->parse(o, text, scope);
	rc = check_value(o, text, &num, &txt);
	if (rc)
		return rc;
	if (o->type == UT_OPT_STRING || o->type == UT_OPT_LIST)
		ut_opt_set_text(o, scope, txt);
	else
		ut_opt_set(o, scope, num);
	return 0;
}

/* The k-th of the modes' options into cfg->opt[k] / opt_text[k]. */
static int store_mode_opt(int k, const char *text, struct ut_config *cfg)
{
	const struct ut_opt *o = ut_mode_opt_at(k);
	int rc = check_value(o, text, &cfg->opt[k], &cfg->opt_text[k]);

	if (!rc)
		cfg->opt_given[k] = true;
	return rc;
}

/* The defaults of a table with fields: numbers from def; texts from
 * def_text, through the hook when there is one. */
static void table_defaults(const struct ut_opt *t, void *scope)
{
	for (; t->name; t++) {
		if (!t->size && !t->parse)
			continue;
		if (t->type == UT_OPT_STRING || t->type == UT_OPT_LIST) {
			if (t->def_text && t->parse)
				t->parse(t, t->def_text, scope);
			else if (t->size)
				ut_opt_set_text(t, scope, t->def_text);
		} else if (t->size) {
			ut_opt_set(t, scope, t->def);
		}
	}
}

static void invocation_defaults(struct ut_invocation *inv, int argc, char **argv)
{
	memset(inv, 0, sizeof(*inv));
	table_defaults(ut_invocation_opts, inv);
	inv->argc = argc;
	inv->argv = argv;
	inv->seed = ((uint64_t)ut_now_ns() * 0x9e3779b97f4a7c15ull) ^ (uint64_t)getpid();
	inv->seed %= 1000000000000ull;	/* short enough to retype */
	inv->sink.human = stdout;
	inv->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (inv->ncpus < 1)
		inv->ncpus = 1;
}

static void run_defaults(struct ut_config *cfg, const struct ut_invocation *inv)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->inv = inv;
	cfg->mode = ut_modes[0];
	table_defaults(ut_run_opts, cfg);
	for (int k = 0; k < ut_mode_opts_count(); k++) {
		cfg->opt[k] = ut_mode_opt_at(k)->def;
		cfg->opt_text[k] = ut_mode_opt_at(k)->def_text;
	}
	cfg->seed = inv->seed;
}

/* One option of the scan (not an informational one).  inv: NULL while
 * parsing a scenario's run, whose invocation options the command line
 * already gave. */
static int take(int c, const char *name, struct ut_invocation *inv, struct ut_config *cfg)
{
	int k = OPT_INDEX(c);

	switch (OPT_SCOPE(c)) {
	case SCOPE_INVOCATION:
		return inv ? store_field(&ut_invocation_opts[k], optarg, inv) : 0;
	case SCOPE_RUN:
		cfg->given[k] = true;
		return store_field(&ut_run_opts[k], optarg, cfg);
	case SCOPE_MODE:
		return store_mode_opt(k, optarg, cfg);
	}
	if (c == ':')
		return ut_usage_error("%s: missing value", name);
	/* "--help=foo": getopt names the option through optopt. */
	if (OPT_SCOPE(optopt) >= SCOPE_INVOCATION && OPT_SCOPE(optopt) <= SCOPE_MODE)
		return ut_usage_error("%s: takes no value", name);
	if (optopt && optopt < 256)
		return ut_usage_error("unknown option '-%c' (see --help)", optopt);
	return ut_usage_error("unknown option '%s' (see --help)", name);
}

/* --help, --version, ...: true after it printed, with the exit status in
 * *rc; false for another option. */
static bool info(int c, const char *name, const struct ut_invocation *inv, int *rc)
{
	const struct ut_opt *o = &ut_invocation_opts[OPT_INDEX(c)];

	if (OPT_SCOPE(c) != SCOPE_INVOCATION || o->type != UT_OPT_INFO)
		return false;
	*rc = inv ? o->parse(o, NULL, NULL) : ut_usage_error("%s: not an option of a run", name);
	return true;
}

/* What the command line gave, by getopt value: each option's value (""
 * for a flag), for the repeat and conflict rules. */
struct seen {
	const char *text[3 * 64];
	bool warned[3 * 64];
};

static int seen_slot(int c)
{
	int scope = OPT_SCOPE(c), k = OPT_INDEX(c);

	return scope >= SCOPE_INVOCATION && scope <= SCOPE_MODE && k < 64 ?
	       (scope - SCOPE_INVOCATION) * 64 + k : -1;
}

/*
 * The command line gives each option once: the same value again is a
 * warning (once per option), another value a usage error naming both.  A
 * scenario's run is not checked: the command line's options follow its
 * line's on purpose, and override them.
 */
static int check_repeat(struct seen *seen, int c, const char *name)
{
	int slot = seen_slot(c);
	const char *text = optarg ? optarg : "";

	if (slot < 0)
		return 0;
	if (!seen->text[slot]) {
		seen->text[slot] = text;
		return 0;
	}
	if (strcmp(seen->text[slot], text))
		return ut_usage_error("%s: given twice ('%s', then '%s')", name, seen->text[slot], text);
	if (!seen->warned[slot])
		fprintf(stderr, "urcutorture: warning: %s given twice\n", name);
	seen->warned[slot] = true;
	return 0;
}

/* The index of an invocation option, -1 when none has that name. */
static int invocation_index(const char *name)
{
	for (int k = 0; ut_invocation_opts[k].name; k++)
		if (!strcmp(ut_invocation_opts[k].name, name))
			return k;
	return -1;
}

/* Two invocation options given together that exclude each other
 * (ut_opt.conflicts). */
static int check_conflicts(const struct seen *seen)
{
	for (int k = 0; ut_invocation_opts[k].name; k++) {
		const struct ut_opt *o = &ut_invocation_opts[k];
		int other = o->conflicts ? invocation_index(o->conflicts) : -1;

		if (other >= 0 && seen->text[seen_slot(OPT_VAL(SCOPE_INVOCATION, k))] &&
		    seen->text[seen_slot(OPT_VAL(SCOPE_INVOCATION, other))])
			return ut_usage_error("--%s: cannot be combined with --%s", o->name, o->conflicts);
	}
	return 0;
}

/* Every option on argv; -1 to go on, else an exit status. */
static int scan(int argc, char **argv, struct ut_invocation *inv, struct ut_config *cfg)
{
	struct seen seen = { .text = { NULL } };
	char name[64];
	int c, rc;

	opterr = 0;
	optind = 0;	/* 0: glibc starts a fresh scan (this parser runs once per run) */
	while ((c = getopt_long(argc, argv, ":", getopt_list(), NULL)) != -1) {
		/* The option's name without "=value", for messages. */
		snprintf(name, sizeof(name), "%s", optind > 0 && optind <= argc ? argv[optind - 1] : "?");
		name[strcspn(name, "=")] = '\0';
		if (info(c, name, inv, &rc))
			return rc;
		rc = inv ? check_repeat(&seen, c, name) : 0;
		if (!rc)
			rc = take(c, name, inv, cfg);
		if (rc)
			return rc;
	}
	if (optind < argc)
		return ut_usage_error("unexpected argument '%s' (options are --name=value; see --help)",
				      argv[optind]);
	return inv && check_conflicts(&seen) ? UT_EXIT_USAGE : -1;
}

/* A mode option given to a mode that does not declare it, when the option
 * says that is an error: "--async: only meaningful with --mode=gp-latency";
 * otherwise such an option has no value in this run (0, no text). */
static int check_owner_only(struct ut_config *cfg)
{
	for (int k = 0; k < ut_mode_opts_count(); k++) {
		const struct ut_opt *o = ut_mode_opt_at(k);
		char names[256];

		if (!(o->flags & UT_OPTF_OWNER_ONLY) || ut_mode_declares(cfg->mode, o->name))
			continue;
		if (cfg->opt_given[k]) {
			ut_modes_declaring(o->name, ", ", names, sizeof(names));
			return ut_usage_error("--%s: only meaningful with --mode=%s", o->name, names);
		}
		cfg->opt[k] = 0;
		cfg->opt_text[k] = NULL;
	}
	return 0;
}

/* The topology first (a scenario's run on the command line's machine
 * shares the command line's), then each role's pinning policy against it. */
static int parse_placement(struct ut_config *cfg, const struct ut_config *cmdline)
{
	char err[256] = "";

	if (cmdline && cmdline->topo && (cfg->topology_spec == cmdline->topology_spec ||
	    (cfg->topology_spec && cmdline->topology_spec &&
	     !strcmp(cfg->topology_spec, cmdline->topology_spec)))) {
		cfg->topo = cmdline->topo;
		cfg->topo_shared = true;
	} else if (ut_topology_load(cfg->topology_spec, &cfg->topo, err, sizeof(err))) {
		return ut_usage_error("--topology: %s", err);
	}
	if (!ut_topology_is_local(cfg->topo) && !cfg->inv->dry_run)
		return ut_usage_error("--topology: a synthetic or XML topology can only be planned (add --dry-run)");
	/* Defaults that follow the CPU count follow the planned machine. */
	cfg->plan_cpus = ut_topology_ncpus(cfg->topo);
	if (cfg->plan_cpus < 1)
		cfg->plan_cpus = cfg->inv->ncpus;
	for (int r = 0; r < UT_ROLE_COUNT; r++) {
		const char *text = cfg->pin_text[r] ? cfg->pin_text[r] : "none";

		err[0] = '\0';
		if (ut_pin_policy_parse(text, cfg->topo, &cfg->pin[r], err, sizeof(err)))
			return ut_usage_error("%s: %s", cfg->pin_source[r] ? cfg->pin_source[r] : "--pin",
					      err);
	}
	return 0;
}

/* After the scan: the lists, the placement, the mode's defaults and checks,
 * then the defaults that follow from the others. */
static int finish_run(struct ut_config *cfg, const struct ut_config *cmdline)
{
	int rc = parse_flavors(cfg->flavor_text, cfg);

	if (!rc)
		rc = parse_layouts(cfg->layout_text, cfg);
	if (!rc)
		rc = parse_placement(cfg, cmdline);
	if (!rc)
		rc = check_owner_only(cfg);
	if (rc)
		return rc;
	if (cfg->mode->configure) {
		char err[256] = "";

		if (cfg->mode->configure(cfg, err, sizeof(err)))
			return ut_usage_error("%s", err);
	}
	if (cfg->readers < 0)
		cfg->readers = cfg->plan_cpus;
	ut_config_derive_stall(cfg);
	return -1;
}

/* The command line's own checks, after the run's: nothing is opened. */
static int finish_invocation(struct ut_invocation *inv)
{
	if (inv->from_report && !inv->compare_path)
		return ut_usage_error("--from-report: only meaningful with --compare");
	if (inv->list_scenarios)
		return -1;	/* main lists them */
	if (inv->json_path && !strcmp(inv->json_path, "-")) {
		if (inv->sink.tap)
			return ut_usage_error("--json: '-' (stdout) cannot be combined with --tap");
		inv->json = stdout;
		inv->sink.human = stderr;
	}
	return -1;
}

int ut_parse_options(int argc, char **argv, struct ut_invocation *inv, struct ut_config *cfg)
{
	int rc;

	err_where = NULL;
	invocation_defaults(inv, argc, argv);
	run_defaults(cfg, inv);
	rc = scan(argc, argv, inv, cfg);
	cfg->seed = inv->seed;
	if (rc < 0)
		rc = finish_run(cfg, NULL);
	return rc < 0 ? finish_invocation(inv) : rc;
}

int ut_parse_run_options(int argc, char **argv, const struct ut_config *cmdline,
			 const char *where, struct ut_config *cfg)
{
	int rc;

	err_where = where;
	run_defaults(cfg, cmdline->inv);
	rc = scan(argc, argv, NULL, cfg);
	if (rc < 0)
		rc = finish_run(cfg, cmdline);
	err_where = NULL;
	return rc;
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
 * up to as long again for the stuck reader to take part): the options
 * whose table entry says so (ut_opt.stall), and threads
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
	int n[UT_MODE_MAX_ROLES] = { 0 }, nthreads = 0, ncpus = cfg->inv->ncpus > 0 ? cfg->inv->ncpus : 1;
	bool posts[UT_MODE_MAX_ROLES];

	if (ut_given(cfg, "stall-timeout"))
		return;
	if (t < UT_STALL_MIN_NS)
		t = UT_STALL_MIN_NS;
	if (t > UT_STALL_MAX_NS)
		t = UT_STALL_MAX_NS;
	t += 4 * rd;
	for (int k = 0; k < ut_mode_opts_count(); k++) {
		const struct ut_opt *o = ut_mode_opt_at(k);
		uint64_t v = cfg->opt[k];

		if (o->stall == UT_OPT_STALL_PAUSE)	/* --update-delay, --stuck-for */
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


int ut_invocation_open_json(struct ut_invocation *inv)
{
	/* Opened only once everything else was checked: a usage error leaves no file. */
	if (!inv->json_path || inv->json || inv->dry_run)
		return 0;
	inv->json = fopen(inv->json_path, "w");
	if (!inv->json)
		return ut_usage_error("--json: cannot write '%s': %s", inv->json_path, strerror(errno));
	return 0;
}

void ut_invocation_release(struct ut_invocation *inv)
{
	if (inv->json && inv->json != stdout)
		fclose(inv->json);
	inv->json = NULL;
}

void ut_config_release(struct ut_config *cfg)
{
	for (int r = 0; r < UT_ROLE_COUNT; r++)
		ut_pin_policy_free(&cfg->pin[r]);
	if (cfg->topo && !cfg->topo_shared)
		ut_topology_free(cfg->topo);
	cfg->topo = NULL;
}
