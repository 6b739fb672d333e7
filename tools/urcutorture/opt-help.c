/* SPDX-License-Identifier: MIT */
/*
 * The informational options: --help (from the option tables and the mode
 * and flavor registries), --version, --list-modes, --list-flavors and the
 * tests' --self-check-modes.
 */
#include <string.h>

#include "opts.h"

#ifndef UT_VERSION
# define UT_VERSION "unknown"
#endif

static const char help_head[] =
"Usage: urcutorture [OPTION]...\n"
"Torture-test, stress and measure a userspace RCU library.\n"
"With no option: a 10-second stress run of the memb flavor with one reader per\n"
"CPU, one updater and one fake updater, ending in \"End of test: SUCCESS\".\n";

/* After the tables. */
static const char help_tail[] =
"\n"
"DUR is a number with a unit: ns, us, ms, s, m, h (plain number = seconds).\n"
"\n"
"What it prints: a start line with every parameter and the seed, a stat line every\n"
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

/* A text of several lines at HELP_TEXT_COL (a mode's help), its lines as
 * they are. */
static void print_help_lines(const char *text)
{
	const char *line = text;

	while (*line) {
		size_t n = strcspn(line, "\n");

		printf("%-*s%.*s\n", HELP_TEXT_COL, "", (int)n, line);
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
	int col;
	bool first = true;

	/* A label that reaches the text column gets a line of its own. */
	if ((int)strlen(label) >= HELP_TEXT_COL - 1)
		printf("%s\n", label);
	col = printf("%-*s", HELP_TEXT_COL, (int)strlen(label) >= HELP_TEXT_COL - 1 ? "" : label);

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



/* " (default X)" from the entry: its rule, its text or its value. */
static void default_text(const struct ut_opt *o, char *buf, size_t len)
{
	char v[32];

	buf[0] = '\0';
	if (o->flags & UT_OPTF_NO_DEF || o->type == UT_OPT_FLAG || o->type == UT_OPT_INFO)
		return;
	if (o->def_text) {
		snprintf(buf, len, " (default: %s)", o->def_text);
		return;
	}
	if (o->type == UT_OPT_DUR || o->type == UT_OPT_DUR_NZ)
		ut_format_duration(o->def, v, sizeof(v));
	else if (o->type == UT_OPT_COUNT || o->type == UT_OPT_RATE)
		snprintf(v, sizeof(v), "%llu", (unsigned long long)o->def);
	else
		return;
	snprintf(buf, len, " (default %s)", v);
}

/* "  --NAME=VALUE   [prefix]HELP (default X)", wrapped. */
static void print_opt(const struct ut_opt *o, const char *prefix)
{
	char label[64], def[256], text[1024];

	snprintf(label, sizeof(label), "  --%s%s", o->name, ut_opt_placeholder(o));
	default_text(o, def, sizeof(def));
	snprintf(text, sizeof(text), "%s%s%s", prefix, o->help, def);
	print_help_wrapped(label, text);
	if (o->help_list)
		o->help_list();
}

void ut_modes_declaring(const char *name, const char *sep, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; ut_modes[i] && off < len; i++)
		if (!name || ut_mode_declares(ut_modes[i], name))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? sep : "",
						ut_modes[i]->name);
}

/* "  --NAME=N   MODE[/MODE]: HELP" for each option the modes declare. */
static void print_mode_opts(void)
{
	for (int k = 0; k < ut_mode_opts_count(); k++) {
		const struct ut_opt *o = ut_mode_opt_at(k);
		char modes[256];

		ut_modes_declaring(o->name, "/", modes, sizeof(modes) - 2);
		strcat(modes, ": ");
		print_opt(o, modes);
	}
}

/* One table: its sections, its entries (the modes' options where the run
 * table places them). */
static void print_table(const struct ut_opt *t)
{
	for (; t->name; t++) {
		if (t->section)
			printf("\n%s:\n", t->section);
		if (t->type == UT_OPT_MODE_OPTS)
			print_mode_opts();
		else if (!(t->flags & UT_OPTF_HIDDEN))
			print_opt(t, "");
	}
}

void ut_help_modes(void)
{
	for (int i = 0; ut_modes[i]; i++)
		print_help_lines(ut_modes[i]->help);
}

void ut_help_flavors(void)
{
	for (int i = 0; ut_flavor_registry[i].name; i++)
		print_help_flavor(&ut_flavor_registry[i]);
}

int ut_print_help(void)
{
	fputs(help_head, stdout);
	print_table(ut_run_opts);
	print_table(ut_invocation_opts);
	fputs(help_tail, stdout);
	return UT_EXIT_OK;
}

int ut_print_version(void)
{
	printf("urcutorture %s (library: %s %s)\n", UT_VERSION, ut_library_name(),
	       ut_library_version());
	return UT_EXIT_OK;
}

int ut_list_modes(void)
{
	for (int i = 0; ut_modes[i]; i++)
		puts(ut_modes[i]->name);
	return UT_EXIT_OK;
}

/* --list-flavors: "NAME KIND HELP", the help on one line. */
int ut_list_flavors(void)
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
	return UT_EXIT_OK;
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* m's options against the common options and the same-named options of the
 * other modes (which share one value, so must agree); err empty when fine. */
static void check_opts_shared(const struct ut_mode_ops *m, char *err, size_t len)
{
	for (const struct ut_opt *o = m->opts; o && o->name && !err[0]; o++) {
		const struct ut_opt *first = ut_mode_opt_at(ut_mode_opt_index(o));

		for (const struct ut_opt *c = ut_run_opts; c->name; c++)
			if (!strcmp(c->name, o->name))
				snprintf(err, len, "option --%s is a common option", o->name);
		for (const struct ut_opt *c = ut_invocation_opts; c->name; c++)
			if (!strcmp(c->name, o->name))
				snprintf(err, len, "option --%s is a common option", o->name);
		if (!err[0] && (!first || strcmp(first->name, o->name)))
			snprintf(err, len, "option --%s beyond UT_MAX_MODE_OPTS", o->name);
		else if (!err[0] && (first->type != o->type || first->lo != o->lo || first->hi != o->hi ||
				     first->def != o->def || !same_text(first->json, o->json) ||
				     !same_text(first->def_text, o->def_text)))
			snprintf(err, len, "option --%s differs from another mode's", o->name);
	}
}

/* --self-check-modes: every registered mode has its mandatory hooks. */
int ut_self_check_modes(void)
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
