/* SPDX-License-Identifier: MIT */
/*
 * Scenarios and batches.
 *
 * A batch is every run of one invocation: the command line alone (a plain
 * run), or the runs of a scenario (--scenario=NAME|FILE).  A scenario is a
 * small text file, one directive per line:
 *
 *   # comment                  (also after a word: "run ... # why")
 *   name NAME                  shown in reports (default: the file's name)
 *   description TEXT
 *   budget DUR                 time to aim at for the whole scenario
 *   min-duration DUR           bounds of a duration taken from the budget
 *   max-duration DUR             (default 1s and 10m)
 *   rotate                     repeat the runs, a new seed each pass, until
 *                                the budget is spent (runs need duration=)
 *   run WORD...                one run: urcutorture options without their
 *                                "--" (mode=stress, flavor=all, pin=compact,
 *                                duration=5s, async, ...); mode=all is one
 *                                run per registered mode
 *
 * Each run is parsed by ut_parse_run_options from its words followed by the
 * command line's workload options, so the command line overrides the
 * scenario (--scenario=ci --flavor=qsbr runs ci on qsbr only; --duration
 * replaces every duration and the budget).  A run without duration= gets
 * an equal share of the budget: (budget - durations fixed by other runs -
 * overhead) / combinations, clamped to [min-duration, max-duration].
 * Options of the whole invocation (output, seed, compare, topology) are not
 * allowed in a run.  Run k (from 0) uses seed base + k.
 *
 * Any fault is one line "urcutorture: FILE:LINE: problem" and exit 64,
 * before anything runs.  The built-in scenarios are the files of
 * scenarios/, embedded at build time (scenario.h).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "ut.h"

#define SCN_MAX_WORDS	64

struct scn_line {
	int line;
	int nwords;
	char *words[SCN_MAX_WORDS];
};

struct scn {
	char name[64];
	char description[256];
	char file[512];		/* as named in messages */
	bool builtin;
	uint64_t budget_ns, min_ns, max_ns;
	bool rotate;
	int rotate_line;
	int nruns;
	struct scn_line *runs;
};

/* Options that belong to the whole invocation, not to one run. */
static const char *const run_forbidden[] = {
	"json", "tap", "quiet", "dry-run", "seed", "scenario", "compare",
	"regress-threshold", "topology", "help", "version", "list-modes",
	"list-scenarios", "self-check-modes", NULL,
};

static int scn_error(const struct scn *s, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int scn_error(const struct scn *s, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "urcutorture: %s:%d: ", s->file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return UT_EXIT_USAGE;
}

static void scn_free(struct scn *s)
{
	for (int i = 0; i < s->nruns; i++)
		for (int w = 0; w < s->runs[i].nwords; w++)
			free(s->runs[i].words[w]);
	free(s->runs);
	s->runs = NULL;
	s->nruns = 0;
}

/*
 * Split a line into words: blanks separate, "..." quotes (no escapes), an
 * unquoted # at the start of a word ends the line.  Returns the count, or
 * -1 with *problem set.
 */
static int split_words(char *p, char **words, int max, const char **problem)
{
	int n = 0;

	for (;;) {
		char *out;

		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p || *p == '#')
			return n;
		if (n == max) {
			*problem = "too many words";
			return -1;
		}
		words[n++] = out = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r') {
			if (*p == '"') {
				char *end = strchr(p + 1, '"');

				if (!end) {
					*problem = "unterminated \"";
					return -1;
				}
				memmove(out, p + 1, (size_t)(end - p - 1));
				out += end - p - 1;
				p = end + 1;
			} else {
				*out++ = *p++;
			}
		}
		if (*p)
			p++;
		*out = '\0';
	}
}

static int scn_duration(const struct scn *s, int line, const char *key, const char *text,
			uint64_t *out)
{
	if (!text)
		return scn_error(s, line, "%s: missing value", key);
	if (ut_parse_duration(text, out) || *out == 0)
		return scn_error(s, line, "%s: '%s' is not a duration (e.g. 500ms, 10s, 5m, 2h)",
				 key, text);
	return 0;
}

/* A run's words: NAME or NAME=VALUE (a leading "--" is tolerated). */
static int check_run_words(const struct scn *s, const struct scn_line *r)
{
	if (r->nwords == 0)
		return scn_error(s, r->line, "run: no options (e.g. run mode=stress flavor=all)");
	for (int w = 0; w < r->nwords; w++) {
		const char *word = r->words[w];
		size_t n;

		if (!strncmp(word, "--", 2))
			word += 2;
		n = strcspn(word, "=");
		if (n == 0 || !isalpha((unsigned char)word[0]))
			return scn_error(s, r->line, "run: '%s' is not an option (NAME or NAME=VALUE)",
					 r->words[w]);
		for (int f = 0; run_forbidden[f]; f++)
			if (strlen(run_forbidden[f]) == n && !strncmp(word, run_forbidden[f], n))
				return scn_error(s, r->line,
						 "%s: not allowed in a scenario run (give it on the command line)",
						 run_forbidden[f]);
	}
	return 0;
}

/* Where scn_parse is: the line it reads and which bounds the file set. */
struct scn_cursor {
	int line;
	bool have_min, have_max;
};

/* A directive's one duration ("budget 4m"), into *out. */
static int scn_one_duration(const struct scn *s, int line, char **words, int n, uint64_t *out)
{
	if (n > 2)
		return scn_error(s, line, "%s: expected one duration", words[0]);
	return scn_duration(s, line, words[0], n > 1 ? words[1] : NULL, out);
}

/* "description": the rest of the line as written, up to a comment. */
static void scn_description(struct scn *s, const char *start)
{
	const char *d = start + strspn(start, " \t") + strlen("description");
	size_t dl;

	while (*d == ' ' || *d == '\t')
		d++;
	dl = strcspn(d, "\n#");
	while (dl && (d[dl - 1] == ' ' || d[dl - 1] == '\r' || d[dl - 1] == '\t'))
		dl--;
	snprintf(s->description, sizeof(s->description), "%.*s", (int)dl, d);
}

/* "run WORD...": a copy of the words, checked, appended to the runs. */
static int scn_add_run(struct scn *s, int line, char **words, int n)
{
	struct scn_line *r = realloc(s->runs, (size_t)(s->nruns + 1) * sizeof(*r));

	if (!r)
		return scn_error(s, line, "out of memory");
	s->runs = r;
	r = &s->runs[s->nruns++];
	r->line = line;
	r->nwords = n - 1;
	for (int w = 1; w < n; w++)
		r->words[w - 1] = strdup(words[w]);
	return check_run_words(s, r);
}

/* One directive: its n > 0 words, and start, the line as written. */
static int scn_directive(struct scn *s, struct scn_cursor *c, const char *start, char **words,
			 int n)
{
	if (!strcmp(words[0], "name")) {
		if (n != 2)
			return scn_error(s, c->line, "name: expected one word");
		snprintf(s->name, sizeof(s->name), "%s", words[1]);
		return 0;
	}
	if (!strcmp(words[0], "description")) {
		scn_description(s, start);
		return 0;
	}
	if (!strcmp(words[0], "budget"))
		return scn_one_duration(s, c->line, words, n, &s->budget_ns);
	if (!strcmp(words[0], "min-duration")) {
		c->have_min = true;
		return scn_one_duration(s, c->line, words, n, &s->min_ns);
	}
	if (!strcmp(words[0], "max-duration")) {
		c->have_max = true;
		return scn_one_duration(s, c->line, words, n, &s->max_ns);
	}
	if (!strcmp(words[0], "rotate")) {
		s->rotate = true;
		s->rotate_line = c->line;
		return n != 1 ? scn_error(s, c->line, "rotate: takes no value") : 0;
	}
	if (!strcmp(words[0], "run"))
		return scn_add_run(s, c->line, words, n);
	return scn_error(s, c->line, "unknown directive '%s' (name, description, budget, "
			 "min-duration, max-duration, rotate, run)", words[0]);
}

static int scn_parse(const char *text, struct scn *s)
{
	struct scn_cursor c = { 0 };
	const char *p = text;
	int rc = 0;

	s->min_ns = 1000000000ull;
	s->max_ns = 600000000000ull;
	while (*p && !rc) {
		const char *start = p;
		size_t len = strcspn(p, "\n");
		char *buf = strndup(p, len);
		char *words[SCN_MAX_WORDS];
		const char *problem = NULL;
		int n;

		c.line++;
		p += len;
		if (*p)
			p++;
		if (!buf)
			return scn_error(s, c.line, "out of memory");
		n = split_words(buf, words, SCN_MAX_WORDS, &problem);
		if (n < 0)
			rc = scn_error(s, c.line, "%s", problem);
		else if (n > 0)		/* else blank or comment */
			rc = scn_directive(s, &c, start, words, n);
		free(buf);
	}
	if (rc)
		return rc;
	if (!s->nruns)
		return scn_error(s, c.line ? c.line : 1, "no run line");
	if ((c.have_min || c.have_max) && s->min_ns > s->max_ns)
		return scn_error(s, c.line, "min-duration is longer than max-duration");
	if (s->rotate && !s->budget_ns)
		return scn_error(s, s->rotate_line, "rotate: needs a budget");
	return 0;
}

/* Read --scenario's text: a built-in by name, else a file. */
static int scn_load(const char *spec, struct scn *s, char **text)
{
	const char *base;
	FILE *f;
	long size;

	memset(s, 0, sizeof(*s));
	if (!strchr(spec, '/')) {
		for (int i = 0; ut_builtin_scenarios[i].name; i++) {
			if (strcmp(spec, ut_builtin_scenarios[i].name))
				continue;
			snprintf(s->name, sizeof(s->name), "%s", spec);
			snprintf(s->file, sizeof(s->file), "%s.scn", spec);
			s->builtin = true;
			*text = strdup(ut_builtin_scenarios[i].text);
			return *text ? 0 : UT_EXIT_ENV;
		}
	}
	f = fopen(spec, "r");
	if (!f) {
		char names[256] = "";

		for (int i = 0; ut_builtin_scenarios[i].name; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", ut_builtin_scenarios[i].name);
		fprintf(stderr, "urcutorture: --scenario: '%s' is neither a built-in scenario (%s) "
			"nor a readable file: %s\n", spec, names, strerror(errno));
		return UT_EXIT_USAGE;
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	if (size < 0 || size > (1 << 20)) {
		fclose(f);
		fprintf(stderr, "urcutorture: --scenario: '%s' is not a scenario file (too large)\n", spec);
		return UT_EXIT_USAGE;
	}
	*text = calloc(1, (size_t)size + 1);
	if (!*text || fread(*text, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		fprintf(stderr, "urcutorture: --scenario: cannot read '%s'\n", spec);
		return UT_EXIT_USAGE;
	}
	fclose(f);
	if (memchr(*text, '\0', (size_t)size)) {
		fprintf(stderr, "urcutorture: --scenario: '%s' is not a text file\n", spec);
		return UT_EXIT_USAGE;
	}
	snprintf(s->file, sizeof(s->file), "%s", spec);
	base = strrchr(spec, '/') ? strrchr(spec, '/') + 1 : spec;
	snprintf(s->name, sizeof(s->name), "%.*s", (int)strcspn(base, "."), base);
	return 0;
}

/* ---- from scenario lines to runs ---- */

uint64_t ut_batch_combo_ns(const struct ut_batch_run *run)
{
	return run->cfg.duration_ns + UT_COMBO_OVERHEAD_NS;
}

/* Only the default layout when none of the mode's threads posts. */
static void settle_run(struct ut_batch_run *run)
{
	if (!ut_mode_uses_layout(&run->cfg)) {
		run->cfg.layouts[0] = UT_LAYOUT_DEFAULT;
		run->cfg.nlayouts = 1;
	}
	run->ncombos = run->cfg.nflavors * run->cfg.nlayouts;
}

static void run_words_free(struct ut_batch_run *run)
{
	for (int w = 0; w < run->nwords; w++)
		free(run->words[w]);
	free(run->words);
	run->words = NULL;
	run->nwords = 0;
}

static int add_run(struct ut_batch *b, int *cap)
{
	if (b->nruns == *cap) {
		int ncap = *cap ? *cap * 2 : 16;
		struct ut_batch_run *r = realloc(b->runs, (size_t)ncap * sizeof(*r));

		if (!r)
			return -1;
		b->runs = r;
		*cap = ncap;
	}
	memset(&b->runs[b->nruns], 0, sizeof(b->runs[0]));
	return b->nruns++;
}

/* What expanding the lines of one pass shares: where runs come from and go. */
struct expansion {
	const struct scn *s;
	const struct ut_config *global;
	int argc;		/* the command line, appended to each run's words */
	char **argv;
	int pass;
	struct ut_batch *b;
	int *cap;		/* b->runs' allocated length */
	char **av;		/* room for one run's argument vector */
};

/* The index of the word mode=all in a run line, -1 if none. */
static int mode_all_at(const struct scn_line *line)
{
	int all_at = -1;

	for (int w = 0; w < line->nwords; w++) {
		const char *word = line->words[w];

		if (!strncmp(word, "--", 2))
			word += 2;
		if (!strcmp(word, "mode=all"))
			all_at = w;
	}
	return all_at;
}

/*
 * One run's argument vector in x->av: argv[0], the line's words as "--WORD"
 * (mode=all replaced by mode; each allocated into words[]), then the command
 * line's options.  label gets the words without "--".  Returns the count.
 */
static int run_argv(const struct expansion *x, const struct scn_line *line, int all_at,
		    const struct ut_mode_ops *mode, char **words, char *label, size_t len)
{
	char modeword[96];
	int ac = 0;

	x->av[ac++] = x->argv[0];
	for (int w = 0; w < line->nwords; w++) {
		const char *word = line->words[w];
		size_t off = strlen(label);

		if (!strncmp(word, "--", 2))
			word += 2;
		if (w == all_at) {
			snprintf(modeword, sizeof(modeword), "mode=%s", mode->name);
			word = modeword;
		}
		snprintf(label + off, len - off, "%s%s", off ? " " : "", word);
		if (asprintf(&words[w], "--%s", word) < 0)
			words[w] = NULL;
		else
			x->av[ac++] = words[w];
	}
	for (int k = 1; k < x->argc; k++)
		x->av[ac++] = x->argv[k];
	return ac;
}

/* A run the parser accepted: its place in the batch, seed, label and layouts. */
static void accept_run(const struct expansion *x, struct ut_batch_run *run, int idx, int line,
		       const char *label)
{
	run->owns_cfg = true;
	run->line = line;
	run->pass = x->pass;
	run->cfg.run_index = idx;
	run->cfg.seed = x->global->inv->seed + (uint64_t)idx;
	if (x->pass > 1)
		snprintf(run->cfg.run_label, sizeof(run->cfg.run_label), "%s (pass %d)", label,
			 x->pass);
	else
		snprintf(run->cfg.run_label, sizeof(run->cfg.run_label), "%s", label);
	settle_run(run);
}

/* One run of a line (mode: mode=all's mode), parsed and added to the batch. */
static int expand_run(const struct expansion *x, const struct scn_line *line, int all_at,
		      const struct ut_mode_ops *mode, const char *where)
{
	char label[160] = "";
	char **words = calloc((size_t)line->nwords + 1, sizeof(*words));
	struct ut_batch_run *run;
	int ac, idx, rc;

	if (!words)
		return UT_EXIT_ENV;
	ac = run_argv(x, line, all_at, mode, words, label, sizeof(label));
	idx = add_run(x->b, x->cap);
	if (idx < 0) {
		struct ut_batch_run orphan = { .words = words, .nwords = line->nwords };

		run_words_free(&orphan);
		return UT_EXIT_ENV;
	}
	run = &x->b->runs[idx];
	run->words = words;
	run->nwords = line->nwords;
	rc = ut_parse_run_options(ac, x->av, x->global, where, &run->cfg);
	if (rc >= 0) {
		/* Free what a failed parse loaded; the run is dropped. */
		ut_config_release(&run->cfg);
		run_words_free(run);
		x->b->nruns--;
		return rc;
	}
	accept_run(x, run, idx, line->line, label);
	return 0;
}

/* The runs of one line: one, or one per registered mode for mode=all. */
static int expand_line(const struct expansion *x, const struct scn_line *line)
{
	const struct ut_mode_ops *single[2] = { NULL, NULL };
	const struct ut_mode_ops *const *modes = single;
	int all_at = mode_all_at(line), rc = 0;
	char where[600];

	snprintf(where, sizeof(where), "%s:%d", x->s->file, line->line);
	/* mode=all: every registered mode, unless the command line picked one. */
	if (all_at >= 0)
		modes = ut_given(x->global, "mode") ? (single[0] = x->global->mode, single) : ut_modes;
	for (int m = 0; !rc && ((all_at < 0 && m == 0) || (all_at >= 0 && modes[m])); m++)
		rc = expand_run(x, line, all_at, modes[m], where);
	return rc;
}

/* Parse every run line (mode=all expanded) for one pass. */
static int expand_pass(const struct scn *s, const struct ut_config *global, int argc, char **argv,
		       int pass, struct ut_batch *b, int *cap)
{
	struct expansion x = {
		.s = s, .global = global, .argc = argc, .argv = argv, .pass = pass, .b = b,
		.cap = cap,
	};
	int rc = 0;

	x.av = calloc((size_t)(SCN_MAX_WORDS + argc + 2), sizeof(*x.av));
	if (!x.av)
		return UT_EXIT_ENV;
	for (int i = 0; i < s->nruns && !rc; i++)
		rc = expand_line(&x, &s->runs[i]);
	free(x.av);
	return rc;
}

/* Durations from the budget for the runs that have none of their own. */
static void share_budget(const struct scn *s, struct ut_batch *b)
{
	uint64_t fixed = 0, d;
	int free_combos = 0;

	if (!s->budget_ns)
		return;
	for (int i = 0; i < b->nruns; i++) {
		if (ut_given(&b->runs[i].cfg, "duration"))
			fixed += (uint64_t)b->runs[i].ncombos * ut_batch_combo_ns(&b->runs[i]);
		else
			free_combos += b->runs[i].ncombos;
	}
	if (!free_combos)
		return;
	d = 0;
	if (s->budget_ns > fixed + (uint64_t)free_combos * UT_COMBO_OVERHEAD_NS)
		d = (s->budget_ns - fixed - (uint64_t)free_combos * UT_COMBO_OVERHEAD_NS) /
		    (uint64_t)free_combos;
	d -= d % 100000000ull;		/* whole tenths of a second */
	if (d < s->min_ns)
		d = s->min_ns;
	if (d > s->max_ns)
		d = s->max_ns;
	for (int i = 0; i < b->nruns; i++)
		if (!ut_given(&b->runs[i].cfg, "duration")) {
			b->runs[i].cfg.duration_ns = d;
			ut_config_derive_stall(&b->runs[i].cfg);	/* follows the duration */
		}
}

static const char *const role_opt[UT_ROLE_COUNT] = {
	"--pin-readers", "--pin-updaters", "--pin-workers",
};

/* Placement plans of every run; a failure names the role's option. */
static int plan_runs(struct ut_batch *b)
{
	for (int i = 0; i < b->nruns; i++) {
		struct ut_batch_run *run = &b->runs[i];

		for (int l = 0; l < run->cfg.nlayouts; l++) {
			int n[UT_ROLE_COUNT];
			char err[256] = "";

			ut_role_counts(&run->cfg, run->cfg.layouts[l], n);
			if (ut_plan_build(run->cfg.topo, run->cfg.pin, n, &run->plans[l], err,
					  sizeof(err))) {
				/* The planner says whose count or policy it could not place. */
				enum ut_role role = run->plans[l].failed < UT_ROLE_COUNT ?
						    run->plans[l].failed : UT_ROLE_READER;

				if (b->is_scenario)
					fprintf(stderr, "urcutorture: %s:%d: %s: %s\n", b->file, run->line,
						role_opt[role], err);
				else
					fprintf(stderr, "urcutorture: %s: %s\n", role_opt[role], err);
				return UT_EXIT_USAGE;
			}
			ut_plan_label(&run->cfg, &run->plans[l]);
			run->nplans = l + 1;
		}
	}
	return 0;
}

static void totals(struct ut_batch *b)
{
	b->ncombos = 0;
	b->planned_ns = 0;
	for (int i = 0; i < b->nruns; i++) {
		b->ncombos += b->runs[i].ncombos;
		b->planned_ns += (uint64_t)b->runs[i].ncombos * ut_batch_combo_ns(&b->runs[i]);
	}
}

/* Parse a scenario into b (runs parsed, durations set, no plans yet). */
static int scenario_runs(const struct ut_config *global, const char *spec, int argc, char **argv,
			 struct ut_batch *b)
{
	struct scn s;
	char *text = NULL;
	int rc, cap = 0;

	rc = scn_load(spec, &s, &text);
	if (!rc)
		rc = scn_parse(text, &s);
	free(text);
	b->is_scenario = true;
	snprintf(b->name, sizeof(b->name), "%s", s.name);
	snprintf(b->file, sizeof(b->file), "%s", s.file);
	b->builtin = s.builtin;
	snprintf(b->description, sizeof(b->description), "%s", s.description);
	b->budget_ns = s.budget_ns;
	b->rotate = s.rotate;
	b->passes = 1;
	if (!rc)
		rc = expand_pass(&s, global, argc, argv, 1, b, &cap);
	if (!rc)
		share_budget(&s, b);
	if (!rc && s.rotate && !ut_given(global, "duration")) {
		/* Passes of the whole list until the budget is spent. */
		uint64_t pass_ns;

		totals(b);
		pass_ns = b->planned_ns ? b->planned_ns : 1;
		b->passes = (int)(s.budget_ns / pass_ns);
		if (b->passes < 1)
			b->passes = 1;
		if (b->passes > 1000)
			b->passes = 1000;
		for (int p = 2; p <= b->passes && !rc; p++)
			rc = expand_pass(&s, global, argc, argv, p, b, &cap);
	}
	scn_free(&s);
	return rc;
}

int ut_batch_build(const struct ut_config *global, int argc, char **argv, struct ut_batch *b)
{
	int rc;

	memset(b, 0, sizeof(*b));
	b->global = global;
	b->passes = 1;
	if (!global->inv->scenario) {
		b->runs = calloc(1, sizeof(*b->runs));
		if (!b->runs) {
			fprintf(stderr, "urcutorture: out of memory\n");
			return UT_EXIT_ENV;
		}
		b->nruns = 1;
		b->runs[0].cfg = *global;	/* shares the command line's topology and policies */
		b->runs[0].pass = 1;
		settle_run(&b->runs[0]);
	} else {
		rc = scenario_runs(global, global->inv->scenario, argc, argv, b);
		if (rc)
			return rc;
	}
	totals(b);
	return plan_runs(b);
}

void ut_batch_release(struct ut_batch *b)
{
	for (int i = 0; i < b->nruns; i++) {
		struct ut_batch_run *run = &b->runs[i];

		for (int l = 0; l < run->nplans; l++)
			ut_plan_free(&run->plans[l]);
		if (run->owns_cfg)
			ut_config_release(&run->cfg);
		run_words_free(run);
	}
	free(b->runs);
	b->runs = NULL;
	b->nruns = 0;
}

void ut_batch_print(const struct ut_batch *b)
{
	const struct ut_config *g = b->global;

	for (int i = 0; i < b->nruns; i++) {
		const struct ut_batch_run *run = &b->runs[i];
		char topo[256];

		if (b->is_scenario)
			ut_report_run_start(b, i);
		ut_topology_summary(run->cfg.topo, topo, sizeof(topo));
		for (int l = 0; l < run->nplans; l++) {
			ut_out(&g->inv->sink, "placement plan for call_rcu layout %s on %s (backend %s):\n",
			       ut_layout_names[run->cfg.layouts[l]], topo, ut_placement_backend());
			ut_plan_print(&run->plans[l], run->cfg.topo, g->inv->sink.human);
		}
	}
}

int ut_scenarios_list(const struct ut_config *global, int argc, char **argv)
{
	int rc = UT_EXIT_OK;

	for (int i = 0; ut_builtin_scenarios[i].name; i++) {
		struct ut_batch b;
		char t[32];
		int e;

		memset(&b, 0, sizeof(b));
		b.global = global;
		e = scenario_runs(global, ut_builtin_scenarios[i].name, argc, argv, &b);
		if (e) {
			rc = e;
		} else {
			totals(&b);
			ut_format_span(b.planned_ns, t, sizeof(t));
			printf("%-8s %4d runs %5d combinations, about %-8s %s\n", b.name, b.nruns,
			       b.ncombos, t, b.description);
		}
		ut_batch_release(&b);
	}
	return rc;
}
