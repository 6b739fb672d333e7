/* SPDX-License-Identifier: MIT */
/*
 * The option tables of the invocation and of a run (a mode's own options
 * sit in its mode-NAME.c), and the few parse hooks their values need.  One
 * line per option: options.c parses from these tables, opt-help.c prints
 * --help from them, params.c renders a run's start line and JSON
 * parameters from them.  The order of a table is the order of --help, of
 * the start line and of the JSON parameters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "json.h"

#define INV(member)	UT_FIELD(struct ut_invocation, member)
#define RUN(member)	UT_FIELD(struct ut_config, member)

/* --mode=NAME: one of the registry's. */
static int parse_mode(const struct ut_opt *o, const char *text, void *dst)
{
	struct ut_config *cfg = dst;
	char names[256];

	(void)o;
	cfg->mode_text = text;
	cfg->mode = ut_mode_find(text);
	if (cfg->mode)
		return 0;
	ut_modes_declaring(NULL, ", ", names, sizeof(names));
	return ut_usage_error("--mode: unknown mode '%s' (%s)", text, names);
}

/* --pin=POLICY: every role's policy (checked against the topology later). */
static int parse_pin_all(const struct ut_opt *o, const char *text, void *dst)
{
	struct ut_config *cfg = dst;

	(void)o;
	for (int r = 0; r < UT_ROLE_COUNT; r++) {
		cfg->pin_text[r] = text;
		cfg->pin_source[r] = "--pin";
	}
	return 0;
}

/* --pin-readers, --pin-updaters, --pin-workers: one role's. */
static int parse_pin_role(const struct ut_opt *o, const char *text, void *dst)
{
	static const char *const opt[UT_ROLE_COUNT] = {
		[UT_ROLE_READER] = "--pin-readers",
		[UT_ROLE_UPDATER] = "--pin-updaters",
		[UT_ROLE_WORKER] = "--pin-workers",
	};
	struct ut_config *cfg = dst;

	for (int r = 0; r < UT_ROLE_COUNT; r++) {
		if (!strcmp(o->name, opt[r] + 2)) {
			cfg->pin_text[r] = text;
			cfg->pin_source[r] = opt[r];
		}
	}
	return 0;
}

/* --seed=N: a non-negative decimal integer. */
static int parse_seed(const struct ut_opt *o, const char *text, void *dst)
{
	struct ut_invocation *inv = dst;
	char *end;

	(void)o;
	errno = 0;
	if (!*text || *text == '-')
		return ut_usage_error("--seed: '%s' is not a non-negative integer", text);
	inv->seed = strtoull(text, &end, 10);
	if (errno || *end)
		return ut_usage_error("--seed: '%s' is not a non-negative integer", text);
	inv->seed_given = true;
	return 0;
}

/* --regress-threshold=PCT: "40", "40%" or "40.5%"; 1..1000 percent. */
static int parse_threshold(const struct ut_opt *o, const char *text, void *dst)
{
	struct ut_invocation *inv = dst;
	char *end;
	double v;

	(void)o;
	errno = 0;
	v = *text ? strtod(text, &end) : 0;
	if (!*text || errno || end == text || (*end && strcmp(end, "%")) || !(v == v))
		return ut_usage_error("--regress-threshold: '%s' is not a percentage (e.g. 50%%)", text);
	if (v < 1 || v > 1000)
		return ut_usage_error("--regress-threshold: %g%% is out of range 1..1000%%", v);
	inv->regress_threshold = v / 100.0;
	return 0;
}

/* The informational options' hooks: each prints, then the parse ends. */
#define INFO_HOOK(fn)								\
	static int fn##_opt(const struct ut_opt *o, const char *text, void *dst)	\
	{									\
		(void)o;							\
		(void)text;							\
		(void)dst;							\
		return fn();							\
	}
INFO_HOOK(ut_print_help)
INFO_HOOK(ut_print_version)
INFO_HOOK(ut_list_modes)
INFO_HOOK(ut_list_flavors)
INFO_HOOK(ut_self_check_modes)

/* Start line and JSON renderings that are not the type's. */
static void show_mode(const struct ut_config *cfg, char *buf, size_t len)
{
	snprintf(buf, len, "%s", cfg->mode->name);
}

static void show_flavors(const struct ut_config *cfg, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < cfg->nflavors && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "", cfg->flavors[i]->name);
}

static void show_layouts(const struct ut_config *cfg, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < cfg->nlayouts && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "",
					ut_layout_names[cfg->layouts[i]]);
}

void ut_read_delay_text(const struct ut_config *cfg, char *buf, size_t len)
{
	if (cfg->read_delay_ns)
		ut_format_duration(cfg->read_delay_ns, buf, len);
	else
		snprintf(buf, len, "random");
}

static void json_flavors(struct uj *j, const struct ut_opt *o, const struct ut_config *cfg)
{
	uj_arr(j, o->json);
	for (int i = 0; i < cfg->nflavors; i++)
		uj_str(j, NULL, cfg->flavors[i]->name);
	uj_end_arr(j);
}

static void json_layouts(struct uj *j, const struct ut_opt *o, const struct ut_config *cfg)
{
	uj_arr(j, o->json);
	for (int i = 0; i < cfg->nlayouts; i++)
		uj_str(j, NULL, ut_layout_names[cfg->layouts[i]]);
	uj_end_arr(j);
}

/* "duration_ns" and, for people reading the file, "duration": "10s". */
static void json_duration(struct uj *j, const struct ut_opt *o, const struct ut_config *cfg)
{
	char dur[32];

	uj_u64(j, o->json, cfg->duration_ns);
	ut_format_duration(cfg->duration_ns, dur, sizeof(dur));
	uj_str(j, "duration", dur);
}

/* "pin": { "readers", "updaters", "workers" }: each role's policy. */
static void json_pin(struct uj *j, const struct ut_opt *o, const struct ut_config *cfg)
{
	static const char *const role[UT_ROLE_COUNT] = {
		[UT_ROLE_READER] = "readers",
		[UT_ROLE_UPDATER] = "updaters",
		[UT_ROLE_WORKER] = "workers",
	};

	uj_obj(j, o->json);
	for (int r = 0; r < UT_ROLE_COUNT; r++)
		uj_str(j, role[r], cfg->pin_text[r] ? cfg->pin_text[r] : "none");
	uj_end_obj(j);
}

const struct ut_opt ut_run_opts[] = {
	{ .name = "mode", .type = UT_OPT_STRING, .value = "MODE", .json = "mode", RUN(mode_text),
	  .section = "Workload", .flags = UT_OPTF_NO_DEF, .parse = parse_mode, .show = show_mode,
	  .help = "one of:", .help_list = ut_help_modes },
	{ .name = "flavor", .type = UT_OPT_LIST, .def_text = "memb", .json = "flavors",
	  RUN(flavor_text), .show = show_flavors, .json_out = json_flavors,
	  .help = "a comma-separated list of these flavors, or all (the real ones built in)",
	  .help_list = ut_help_flavors },
	{ .name = "call-rcu-layout", .type = UT_OPT_LIST, .def_text = "default", .json = "layouts",
	  RUN(layout_text), .show = show_layouts, .json_out = json_layouts,
	  .help = "default (one shared worker), per-cpu, per-thread, rt (per-thread with "
		  "URCU_CALL_RCU_RT), all" },
	{ .name = "readers", .type = UT_OPT_COUNT, .lo = 0, .hi = 4096, .def = (uint64_t)-1,
	  .def_text = "CPUs; 1 in callback, flood, barrier, queue and stall modes; litmus: CPUs - 1",
	  .json = "readers", RUN(readers), .help = "reader threads" },
	{ .name = "updaters", .type = UT_OPT_COUNT, .lo = 1, .hi = 1024, .def = 1,
	  .def_text = "1; hash: 2", .json = "updaters", RUN(updaters),
	  .help = "updater threads (gp-latency, hash)" },
	{ .name = "enqueuers", .type = UT_OPT_COUNT, .lo = 1, .hi = 1024, .def = 1,
	  .def_text = "1; barrier and queue: 2", .json = "enqueuers", RUN(enqueuers),
	  .help = "callback/flood/barrier posting threads, queue producers" },
	{ .name = "max-outstanding", .type = UT_OPT_COUNT, .lo = 1, .hi = 100000000, .def = 10000,
	  .def_text = "10000; flood 100000; gp-latency 1000", .json = "max_outstanding",
	  RUN(max_outstanding), .help = "bound on callbacks posted but not yet invoked" },
	{ .name = "read-delay", .type = UT_OPT_DUR, .json = "read_delay_ns", RUN(read_delay_ns),
	  .def_text = "random short lingering, as rcutorture does", .show = ut_read_delay_text,
	  .help = "reader critical-section length" },
	{ .name = "(the modes' options)", .type = UT_OPT_MODE_OPTS },
	{ .name = "duration", .type = UT_OPT_DUR_NZ, .def = 10000000000ull, .json = "duration_ns",
	  RUN(duration_ns), .section = "Time", .json_out = json_duration,
	  .help = "length of each flavor x layout combination" },
	{ .name = "stat-interval", .type = UT_OPT_DUR, .def = 2000000000ull,
	  .json = "stat_interval_ns", RUN(stat_interval_ns),
	  .help = "period of the stat lines, 0 = none" },
	{ .name = "stall-timeout", .type = UT_OPT_DUR_NZ, .def = 30000000000ull,
	  .json = "stall_timeout_ns", RUN(stall_timeout_ns),
	  .def_text = "duration/4 within 6s..10s, plus 4 x --read-delay, 2 x --update-delay, "
		      "2 / --rate, 2 x --stuck-for and 20ms per thread beyond 4 per CPU",
	  .help = "no progress, or a grace period not completed, for this long = stall, exit 2 "
		  "(also when the wait is pending at the end of the duration)" },
	{ .name = "lib-stall-timeout", .type = UT_OPT_DUR, .def = (uint64_t)-1,
	  .flags = UT_OPTF_UNSET, .json = "lib_stall_timeout_ns", RUN(lib_stall_timeout_ns),
	  .def_text = "the library's, 21 s or URCU_STALL_TIMEOUT; stall mode: 250ms",
	  .help = "the library's own stall timeout, set for every combination "
		  "(urcu_<flavor>_set_stall_timeout); 0 turns its stall reports off.  Its "
		  "reports go to the report and the JSON report" },
	{ .name = "pin", .type = UT_OPT_LIST, .value = "POLICY", .json = "pin",
	  .section = "Placement", .flags = UT_OPTF_NO_LINE, .def_text = "none",
	  .parse = parse_pin_all, .json_out = json_pin,
	  .help = "policy for all thread roles: none, compact, scatter, numa, "
		  "list:CPU[,CPU|FIRST-LAST]..." },
	{ .name = "pin-readers", .type = UT_OPT_LIST, .value = "POLICY", .def_text = "none",
	  .parse = parse_pin_role, RUN(pin_text[UT_ROLE_READER]), .help = "readers" },
	{ .name = "pin-updaters", .type = UT_OPT_LIST, .value = "POLICY", .def_text = "none",
	  .parse = parse_pin_role, RUN(pin_text[UT_ROLE_UPDATER]),
	  .help = "updaters, fake updaters and enqueuers" },
	{ .name = "pin-workers", .type = UT_OPT_LIST, .value = "POLICY", .def_text = "none",
	  .parse = parse_pin_role, RUN(pin_text[UT_ROLE_WORKER]), .help = "call_rcu workers" },
	{ .name = "topology", .type = UT_OPT_STRING, .value = "SPEC", RUN(topology_spec),
	  .flags = UT_OPTF_NO_LINE | UT_OPTF_NO_DEF,
	  .help = "plan for another machine (default: this one): synthetic:\"pack:2 numa:2 core:8 pu:2\" (hwloc "
		  "synthetic) or an hwloc XML file" },
	{ NULL }
};

const struct ut_opt ut_invocation_opts[] = {
	{ .name = "seed", .type = UT_OPT_COUNT, .parse = parse_seed, INV(seed),
	  .section = "Seed and dry run", .def_text = "time and pid; always printed",
	  .help = "seed of every random choice (a scenario's run k uses seed + k)" },
	{ .name = "dry-run", .type = UT_OPT_FLAG, INV(dry_run), .conflicts = "compare",
	  .help = "print the placement plan and the parameters, run nothing" },
	{ .name = "scenario", .type = UT_OPT_STRING, .value = "NAME|FILE", INV(scenario),
	  .section = "Scenarios and baselines", .flags = UT_OPTF_NO_DEF,
	  .help = "run a named battery: smoke (under 30 s, every flavor once), ci (under 5 min, "
		  "every mode x flavor, layouts default and per-cpu), qualify (every mode x flavor "
		  "x layout, compact and scatter placement, about an hour), soak (hours, rotating), "
		  "or a scenario file; options given here override the scenario's (see "
		  "urcutorture(1))" },
	{ .name = "list-scenarios", .type = UT_OPT_FLAG, INV(list_scenarios), .conflicts = "scenario",
	  .help = "the built-in scenarios, their size and expected time" },
	{ .name = "compare", .type = UT_OPT_STRING, .value = "OLD.json", INV(compare_path),
	  .flags = UT_OPTF_NO_DEF,
	  .help = "after the run, compare every combination with the one of a baseline JSON "
		  "report; exit 4 if a figure regressed" },
	{ .name = "regress-threshold", .type = UT_OPT_STRING, .value = "PCT", .def_text = "50%",
	  .parse = parse_threshold,
	  .help = "how much worse a figure may get before it counts as a regression (see "
		  "urcutorture(1))" },
	{ .name = "from-report", .type = UT_OPT_STRING, .value = "NEW.json", INV(from_report),
	  .flags = UT_OPTF_NO_DEF, .help = "with --compare: run nothing, compare a saved report" },
	{ .name = "json", .type = UT_OPT_STRING, .value = "FILE|-", INV(json_path),
	  .section = "Output", .flags = UT_OPTF_NO_DEF,
	  .help = "write a schema-versioned JSON report (\"urcutorture/2\") to FILE, or to stdout "
		  "with \"-\" (the human report then goes to stderr)" },
	{ .name = "tap", .type = UT_OPT_FLAG, INV(sink.tap),
	  .help = "TAP on stdout: one test line per combination; the human report becomes TAP "
		  "comments" },
	{ .name = "quiet", .type = UT_OPT_FLAG, INV(quiet), .help = "no periodic stat lines" },
	{ .name = "list-modes", .type = UT_OPT_INFO, .parse = ut_list_modes_opt,
	  .help = "the modes, one per line" },
	{ .name = "list-flavors", .type = UT_OPT_INFO, .parse = ut_list_flavors_opt,
	  .help = "the flavors, one per line: name, kind, what it is" },
	{ .name = "help", .type = UT_OPT_INFO, .parse = ut_print_help_opt, .help = "this text" },
	{ .name = "version", .type = UT_OPT_INFO, .parse = ut_print_version_opt,
	  .help = "version and library" },
	/* For the tests: verify the mode registry (TAP on stdout). */
	{ .name = "self-check-modes", .type = UT_OPT_INFO, .parse = ut_self_check_modes_opt,
	  .flags = UT_OPTF_HIDDEN, .help = "check the mode registry" },
	{ NULL }
};

int ut_run_opts_count(void)
{
	int n = 0;

	while (ut_run_opts[n].name)
		n++;
	return n;
}

const struct ut_opt *ut_run_opt_find(const char *name, int *k)
{
	for (int i = 0; ut_run_opts[i].name; i++) {
		if (!strcmp(ut_run_opts[i].name, name)) {
			*k = i;
			return &ut_run_opts[i];
		}
	}
	for (int i = 0; i < ut_mode_opts_count(); i++) {
		if (!strcmp(ut_mode_opt_at(i)->name, name)) {
			*k = i;
			return ut_mode_opt_at(i);
		}
	}
	return NULL;
}

bool ut_given(const struct ut_config *cfg, const char *name)
{
	int k;
	const struct ut_opt *o = ut_run_opt_find(name, &k);

	if (!o) {
		fprintf(stderr, "urcutorture: ut_given: no option '%s' (a bug in the tool)\n", name);
		abort();
	}
	return o->size ? cfg->given[k] : cfg->opt_given[k];
}

uint64_t ut_opt_get(const struct ut_opt *o, const void *scope)
{
	const char *p = (const char *)scope + o->off;
	uint64_t v = 0;

	if (o->size == sizeof(bool)) {
		v = *(const bool *)p;
	} else if (o->size == sizeof(int)) {
		v = (uint64_t)(int64_t)*(const int *)p;
	} else if (o->size == sizeof(uint64_t)) {
		memcpy(&v, p, sizeof(v));
	}
	return v;
}

void ut_opt_set(const struct ut_opt *o, void *scope, uint64_t v)
{
	char *p = (char *)scope + o->off;

	if (o->size == sizeof(bool))
		*(bool *)p = v != 0;
	else if (o->size == sizeof(int))
		*(int *)p = (int)(int64_t)v;
	else if (o->size == sizeof(uint64_t))
		memcpy(p, &v, sizeof(v));
}

const char *ut_opt_get_text(const struct ut_opt *o, const void *scope)
{
	const char *t;

	memcpy(&t, (const char *)scope + o->off, sizeof(t));
	return t;
}

void ut_opt_set_text(const struct ut_opt *o, void *scope, const char *text)
{
	memcpy((char *)scope + o->off, &text, sizeof(text));
}

const char *ut_opt_placeholder(const struct ut_opt *o)
{
	static char buf[32];

	switch (o->type) {
	case UT_OPT_COUNT:
	case UT_OPT_RATE:
		return "=N";
	case UT_OPT_DUR:
	case UT_OPT_DUR_NZ:
		return "=DUR";
	case UT_OPT_STRING:
	case UT_OPT_LIST:
		snprintf(buf, sizeof(buf), "=%s", o->value ? o->value : "LIST");
		return buf;
	default:
		return "";
	}
}
