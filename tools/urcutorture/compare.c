/* SPDX-License-Identifier: MIT */
/*
 * --compare=OLD.json: every combination of this run against the same
 * combination of a baseline report.
 *
 * Both sides are read as JSON documents (this run's through the same
 * writer as --json), so what is compared is exactly what the reports say.
 * Combinations match by their key (MODE FLAVOR/LAYOUT pin=R/U/W[ async],
 * "#k" for repeats; see ut_result_key).  For each figure both sides
 * measured with enough samples, the "worse factor" is new/old for a figure
 * where lower is better (latencies, ns per read) and old/new where higher
 * is better (throughputs).
 *
 * What fails the run is the index: the geometric mean of the worse
 * factors of every figure of every matched combination.  Above
 * 1 + threshold it is a regression (exit 4).  Single figures are far
 * noisier (docs/TORTURE.md, "Comparing with a baseline", has the
 * measurements): each figure kind's geometric mean over the combinations
 * and every single figure beyond the threshold are printed to say where
 * the change is, without failing the run.
 *
 * A different machine (CPU model, CPU count, kernel, topology, library),
 * different parameters of a matched combination or a different scenario
 * only print a warning naming what differs; combinations without a
 * baseline are listed and not judged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "jread.h"
#include "json.h"
#include "ut-util.h"

#define CMP_MAX_WARN	16

/* What is compared, per combination. */
static const struct figure {
	const char *name;
	const char *path;	/* in a result; NULL: grace periods per second */
	const char *count;	/* samples behind it */
	double min_count;	/* fewer samples on either side: not judged */
	bool lower_better;
} figures[] = {
	{ "ns/read", "ns_per_read", "reads", 1000, true },
	{ "updates/s", "updates_per_s", "updates", 100, false },
	{ "GPs/s", NULL, "grace_periods", 100, false },
	{ "callbacks/s", "callbacks.invoked_per_s", "callbacks.invoked", 100, false },
	{ "GP-p50", "gp_latency_ns.p50", "gp_latency_ns.count", 100, true },
	{ "GP-p99", "gp_latency_ns.p99", "gp_latency_ns.count", 1000, true },
	{ "CB-p50", "callbacks.latency_ns.p50", "callbacks.latency_ns.count", 100, true },
	{ "CB-p99", "callbacks.latency_ns.p99", "callbacks.latency_ns.count", 1000, true },
};
#define NFIG	(int)(sizeof(figures) / sizeof(figures[0]))

struct cmp_fig {
	int fig;		/* index into figures[] */
	double old, new_;
	double worse;		/* > 1: worse than the baseline */
	bool beyond;		/* worse than 1 + threshold (not gating by itself) */
};

struct cmp_combo {
	char key[320];
	bool found;		/* the baseline has it */
	int nfig;
	struct cmp_fig fig[NFIG];
	int worst;		/* index into fig[], -1 none */
	bool beyond;		/* some figure beyond the threshold */
};

struct ut_compare {
	char path[512];
	struct jv *base;
	double threshold;
	int nwarn;
	char warn[CMP_MAX_WARN][512];
	int ncombo;
	struct cmp_combo *combos;
	int beyond_combos;		/* combinations with a figure beyond the threshold */
	int beyond_figures;
	int baseline_unused;
	int not_judged;			/* matched, but a side did not succeed */
	/* Geometric means of the worse factors: per figure kind, and of all. */
	double kind_log[NFIG];
	int kind_n[NFIG];
	double index;			/* 1 when nothing was compared */
	int nfigures;
	bool regressed;			/* index > 1 + threshold */
	bool done;
};

int ut_compare_load(const char *path, double threshold, struct ut_compare **out)
{
	struct ut_compare *c;
	char *text = NULL, err[256] = "";
	const char *schema;
	size_t size = 0;
	FILE *f = fopen(path, "r");

	*out = NULL;
	if (!f) {
		fprintf(stderr, "urcutorture: --compare: cannot read '%s': %s\n", path, strerror(errno));
		return UT_EXIT_USAGE;
	}
	{
		FILE *m = open_memstream(&text, &size);
		char buf[65536];
		size_t n;

		while (m && (n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, m);
		if (m)
			fclose(m);
	}
	fclose(f);
	c = calloc(1, sizeof(*c));
	if (!text || !c) {
		free(text);
		free(c);
		fprintf(stderr, "urcutorture: --compare: out of memory\n");
		return UT_EXIT_ENV;
	}
	c->base = jv_parse(text, err, sizeof(err));
	free(text);
	if (!c->base) {
		fprintf(stderr, "urcutorture: --compare: '%s' is not JSON (%s)\n", path, err);
		free(c);
		return UT_EXIT_USAGE;
	}
	schema = jv_str(jv_get(c->base, "schema"));
	if (!schema || strncmp(schema, "urcutorture/", 12) ||
	    !jv_get(c->base, "results") || jv_get(c->base, "results")->type != JV_ARR) {
		fprintf(stderr, "urcutorture: --compare: '%s' is not a urcutorture report "
			"(no \"schema\": \"urcutorture/N\" with \"results\")\n", path);
		ut_compare_free(c);
		return UT_EXIT_USAGE;
	}
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->threshold = threshold;
	*out = c;
	return 0;
}

void ut_compare_free(struct ut_compare *c)
{
	if (!c)
		return;
	jv_free(c->base);
	free(c->combos);
	free(c);
}

static void warn(struct ut_compare *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct ut_compare *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nwarn >= CMP_MAX_WARN)
		return;
	va_start(ap, fmt);
	vsnprintf(c->warn[c->nwarn++], sizeof(c->warn[0]), fmt, ap);
	va_end(ap);
}

/* A scalar as text, for messages. */
static void scalar(const struct jv *v, char *buf, size_t len)
{
	if (!v)
		snprintf(buf, len, "absent");
	else if (v->type == JV_NUM)
		snprintf(buf, len, "%.10g", v->num);
	else if (v->type == JV_STR)
		snprintf(buf, len, "'%s'", v->str);
	else if (v->type == JV_BOOL)
		snprintf(buf, len, "%s", v->b ? "true" : "false");
	else if (v->type == JV_NULL)
		snprintf(buf, len, "null");
	else
		snprintf(buf, len, "...");
}

static bool same_scalar(const struct jv *a, const struct jv *b)
{
	if (!a || !b || a->type != b->type)
		return !a && !b;
	switch (a->type) {
	case JV_NUM: return a->num == b->num;
	case JV_STR: return !strcmp(a->str, b->str);
	case JV_BOOL: return a->b == b->b;
	default: return true;
	}
}

/* Append "name (old vs new)" to list for each differing member (one level of objects). */
static void diff_members(const struct jv *o, const struct jv *n, const char *prefix,
			 const char *const *skip, char *list, size_t len)
{
	if (!o || !n || o->type != JV_OBJ || n->type != JV_OBJ)
		return;
	for (int i = 0; i < n->n; i++) {
		const char *k = n->keys[i];
		const struct jv *ov = jv_get(o, k), *nv = &n->items[i];
		char name[128], a[96], b[96];
		bool skipped = false;

		for (int s = 0; skip && skip[s]; s++)
			skipped |= !strcmp(skip[s], k);
		if (skipped)
			continue;
		snprintf(name, sizeof(name), "%s%s", prefix, k);
		if (nv->type == JV_OBJ) {
			char sub[140];

			snprintf(sub, sizeof(sub), "%s.", name);
			diff_members(ov, nv, sub, NULL, list, len);
			continue;
		}
		if (nv->type == JV_ARR || same_scalar(ov, nv))
			continue;
		if (strstr(list, name))
			continue;	/* named once */
		scalar(ov, a, sizeof(a));
		scalar(nv, b, sizeof(b));
		snprintf(list + strlen(list), len - strlen(list), "%s%s %s vs %s",
			 list[0] ? ", " : "", name, a, b);
	}
}

/* Baseline result's key: its own "key" (urcutorture/2) or rebuilt (urcutorture/1). */
static void base_key(const struct jv *doc, const struct jv *r, char *buf, size_t len)
{
	const struct jv *p;
	const char *key = jv_str(jv_get(r, "key"));

	if (key) {
		snprintf(buf, len, "%s", key);
		return;
	}
	p = jv_get(doc, "parameters");
	snprintf(buf, len, "%s %s/%s pin=%s/%s/%s%s", jv_str(jv_get(r, "mode")) ?: "?",
		 jv_str(jv_get(r, "flavor")) ?: "?", jv_str(jv_get(r, "layout")) ?: "?",
		 jv_str(jv_path(p, "pin.readers")) ?: "none",
		 jv_str(jv_path(p, "pin.updaters")) ?: "none",
		 jv_str(jv_path(p, "pin.workers")) ?: "none",
		 jv_get(p, "async") && jv_get(p, "async")->b ? " async" : "");
}

/* The parameters a result ran under: its run's, else the document's. */
static const struct jv *result_params(const struct jv *doc, const struct jv *r)
{
	const struct jv *runs = jv_get(doc, "runs");
	const struct jv *run = jv_at(runs, (int)jv_num(jv_get(r, "run"), -1));

	return run ? jv_get(run, "parameters") : jv_get(doc, "parameters");
}

static bool verdict_ok(const struct jv *r)
{
	const char *v = jv_str(jv_get(r, "verdict"));

	return v && !strcmp(v, "SUCCESS");
}

static bool figure_value(const struct figure *f, const struct jv *r, double *v, double *count)
{
	*count = jv_num(jv_path(r, f->count), -1);
	if (f->path) {
		*v = jv_num(jv_path(r, f->path), -1);
	} else {
		double s = jv_num(jv_get(r, "seconds"), 0);

		*v = s > 0 ? jv_num(jv_get(r, "grace_periods"), 0) / s : -1;
	}
	return *v > 0 && *count >= f->min_count;
}

static void fmt_value(const struct figure *f, double v, char *buf, size_t len)
{
	if (strstr(f->name, "/s"))
		snprintf(buf, len, "%.3g", v);
	else
		ut_format_ns_f(v, 1, buf, len);
}

static void check_machine(struct ut_compare *c, const struct jv *nd)
{
	static const char *const paths[] = {
		"system.cpu_model", "system.online_cpus", "system.kernel.release",
		"system.topology_summary", "library.name", "library.version", NULL,
	};
	char list[480] = "";

	for (int i = 0; paths[i]; i++) {
		const struct jv *o = jv_path(c->base, paths[i]), *n = jv_path(nd, paths[i]);
		char a[128], b[128];

		if (same_scalar(o, n))
			continue;
		scalar(o, a, sizeof(a));
		scalar(n, b, sizeof(b));
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s %s vs %s",
			 list[0] ? ", " : "", strchr(paths[i], '.') + 1, a, b);
	}
	if (list[0])
		warn(c, "the baseline is from another machine or library: %s", list);
	{
		const char *os = jv_str(jv_path(c->base, "scenario.name"));
		const char *ns = jv_str(jv_path(nd, "scenario.name"));

		if ((os || ns) && (!os || !ns || strcmp(os, ns)))
			warn(c, "the baseline ran scenario %s, this run %s", os ? os : "(none)",
			     ns ? ns : "(none)");
	}
}

/* One comparison pass: this run's report against the baseline. */
struct cmp_pass {
	const struct jv *nd;		/* this run's report */
	bool *used;			/* baseline results already matched */
	char params[480];		/* parameters that differ, as "name old vs new" */
	char missing[480];		/* the first keys without a baseline */
	int nmissing;
	double index_log;		/* sum of log(worse factor) over every figure */
};

/* The baseline's first unmatched result with this key, now marked matched; NULL if none. */
static const struct jv *match_baseline(const struct ut_compare *c, bool *used, const char *key)
{
	const struct jv *ores = jv_get(c->base, "results");
	char okey[320];

	for (int k = 0; k < ores->n; k++) {
		if (used[k])
			continue;
		base_key(c->base, &ores->items[k], okey, sizeof(okey));
		if (!strcmp(okey, key)) {
			used[k] = true;
			return &ores->items[k];
		}
	}
	return NULL;
}

/* The worse factor of each figure both sides measured with enough samples. */
static void judge_figures(struct ut_compare *c, struct cmp_pass *p, struct cmp_combo *cc,
			  const struct jv *or, const struct jv *nr)
{
	for (int f = 0; f < NFIG; f++) {
		struct cmp_fig *cf = &cc->fig[cc->nfig];
		double ov, nv, on, nn;

		if (!figure_value(&figures[f], or, &ov, &on) ||
		    !figure_value(&figures[f], nr, &nv, &nn))
			continue;
		cf->fig = f;
		cf->old = ov;
		cf->new_ = nv;
		cf->worse = figures[f].lower_better ? nv / ov : ov / nv;
		cf->beyond = cf->worse > 1.0 + c->threshold;
		if (cc->worst < 0 || cf->worse > cc->fig[cc->worst].worse)
			cc->worst = cc->nfig;
		if (cf->beyond) {
			cc->beyond = true;
			c->beyond_figures++;
		}
		c->kind_log[f] += log(cf->worse);
		c->kind_n[f]++;
		p->index_log += log(cf->worse);
		c->nfigures++;
		cc->nfig++;
	}
}

/* Match this run's combination i with the baseline and judge it. */
static void compare_combo(struct ut_compare *c, struct cmp_pass *p, int i)
{
	static const char *const param_skip[] = { "mode", "flavors", "layouts", "pin", "async", NULL };
	struct cmp_combo *cc = &c->combos[i];
	const struct jv *nr = &jv_get(p->nd, "results")->items[i], *or;

	snprintf(cc->key, sizeof(cc->key), "%s", jv_str(jv_get(nr, "key")) ?: "?");
	cc->worst = -1;
	or = match_baseline(c, p->used, cc->key);
	if (!or) {
		if (p->nmissing++ < 4)
			snprintf(p->missing + strlen(p->missing), sizeof(p->missing) - strlen(p->missing),
				 "%s%s", p->missing[0] ? "; " : "", cc->key);
		return;
	}
	cc->found = true;
	/* A combination cut short (stall, signal) or failing measures nothing comparable. */
	if (!verdict_ok(or) || !verdict_ok(nr)) {
		cc->worst = -1;
		c->not_judged++;
		return;
	}
	diff_members(result_params(c->base, or), result_params(p->nd, nr), "", param_skip,
		     p->params, sizeof(p->params));
	judge_figures(c, p, cc, or, nr);
	c->beyond_combos += cc->beyond;
}

/* The warnings a pass ends with: parameters that differ, combinations not compared. */
static void pass_warnings(struct ut_compare *c, const struct cmp_pass *p)
{
	if (p->params[0])
		warn(c, "parameters differ from the baseline: %s", p->params);
	if (p->nmissing)
		warn(c, "%d combination%s without a baseline (not judged): %s%s", p->nmissing,
		     p->nmissing > 1 ? "s" : "", p->missing, p->nmissing > 4 ? "; ..." : "");
	if (c->not_judged)
		warn(c, "%d combination%s not judged: not SUCCESS in this run or in the baseline",
		     c->not_judged, c->not_judged > 1 ? "s" : "");
	if (c->baseline_unused)
		warn(c, "%d combination%s of the baseline did not run this time", c->baseline_unused,
		     c->baseline_unused > 1 ? "s" : "");
}

/* Single figures beyond the threshold: not gating, they say where to look. */
static void print_beyond(const struct ut_compare *c, const struct ut_sink *sink)
{
	for (int i = 0; i < c->ncombo; i++) {
		const struct cmp_combo *cc = &c->combos[i];

		for (int k = 0; k < cc->nfig; k++) {
			const struct cmp_fig *cf = &cc->fig[k];
			const struct figure *f = &figures[cf->fig];
			char a[32], b[32];

			if (!cf->beyond)
				continue;
			fmt_value(f, cf->old, a, sizeof(a));
			fmt_value(f, cf->new_, b, sizeof(b));
			ut_out(sink, "  worse: %-50s %-11s %9s -> %-9s %6.2fx\n", cc->key, f->name, a, b,
			       cf->worse);
		}
	}
}

/* The comparison for people: warnings, each figure kind, single figures, the index. */
static void print_compare(const struct ut_compare *c, const struct ut_sink *sink)
{
	ut_out(sink, "\n=== compare with %s (threshold %.0f%%: the index may get %.2fx worse) ===\n",
	       c->path, c->threshold * 100, 1 + c->threshold);
	/* Once, in the report (the JSON has them too). */
	for (int w = 0; w < c->nwarn; w++)
		ut_out(sink, "warning: %s\n", c->warn[w]);
	if (!ut_compare_matched(c)) {
		ut_out(sink, "compare: no combination of this run is in the baseline: nothing "
		       "compared\n");
		return;
	}
	/* Where the change is: each figure kind over the combinations. */
	for (int f = 0; f < NFIG; f++) {
		double g;

		if (!c->kind_n[f])
			continue;
		g = exp(c->kind_log[f] / c->kind_n[f]);
		ut_out(sink, "  %-12s over %4d combinations  %5.2fx %s\n", figures[f].name, c->kind_n[f],
		       g >= 1 ? g : 1 / g, g >= 1 ? "worse" : "better");
	}
	print_beyond(c, sink);
	ut_out(sink, "%scompare: index %.2fx %s over %d figures of %d combinations (threshold "
	       "%.2fx): %s; %d single figures beyond the threshold\n", c->regressed ? "!!! " : "",
	       c->index >= 1 ? c->index : 1 / c->index, c->index >= 1 ? "worse" : "better",
	       c->nfigures, ut_compare_matched(c), 1 + c->threshold,
	       c->regressed ? "REGRESSED" : "ok", c->beyond_figures);
}

int ut_compare_run(struct ut_compare *c, const char *new_doc, const struct ut_sink *sink)
{
	const struct jv *ores = jv_get(c->base, "results"), *nres;
	char err[256] = "";
	struct jv *nd = jv_parse(new_doc, err, sizeof(err));
	struct cmp_pass p = { .nd = nd };

	c->index = 1.0;
	if (!nd) {
		warn(c, "this run's report did not parse back (%s): nothing compared", err);
		goto print;
	}
	nres = jv_get(nd, "results");
	c->ncombo = nres ? nres->n : 0;
	c->combos = calloc((size_t)(c->ncombo ? c->ncombo : 1), sizeof(*c->combos));
	p.used = calloc((size_t)(ores->n ? ores->n : 1), sizeof(*p.used));
	if (!c->combos || !p.used) {
		free(p.used);
		jv_free(nd);
		return 0;
	}
	check_machine(c, nd);
	for (int i = 0; i < c->ncombo; i++)
		compare_combo(c, &p, i);
	c->index = c->nfigures ? exp(p.index_log / c->nfigures) : 1.0;
	c->regressed = c->index > 1.0 + c->threshold;
	for (int k = 0; k < ores->n; k++)
		c->baseline_unused += !p.used[k];
	free(p.used);
	pass_warnings(c, &p);
	jv_free(nd);
print:
	c->done = true;
	print_compare(c, sink);
	return c->regressed ? 1 : 0;
}

void ut_compare_json(struct uj *j, const struct ut_compare *c)
{
	uj_obj(j, "compare");
	uj_str(j, "baseline", c->path);
	uj_dbl(j, "threshold", c->threshold);
	uj_arr(j, "warnings");
	for (int w = 0; w < c->nwarn; w++)
		uj_str(j, NULL, c->warn[w]);
	uj_end_arr(j);
	uj_arr(j, "combinations");
	for (int i = 0; i < c->ncombo; i++) {
		const struct cmp_combo *cc = &c->combos[i];

		uj_obj(j, NULL);
		uj_str(j, "key", cc->key);
		uj_bool(j, "baseline_found", cc->found);
		uj_arr(j, "figures");
		for (int k = 0; k < cc->nfig; k++) {
			const struct cmp_fig *cf = &cc->fig[k];

			uj_obj(j, NULL);
			uj_str(j, "name", figures[cf->fig].name);
			uj_dbl(j, "old", cf->old);
			uj_dbl(j, "new", cf->new_);
			uj_dbl(j, "worse_by", cf->worse);
			uj_bool(j, "beyond_threshold", cf->beyond);
			uj_end_obj(j);
		}
		uj_end_arr(j);
		uj_end_obj(j);
	}
	uj_end_arr(j);
	uj_obj(j, "figure_kinds");
	for (int f = 0; f < NFIG; f++) {
		if (!c->kind_n[f])
			continue;
		uj_obj(j, figures[f].name);
		uj_i64(j, "combinations", c->kind_n[f]);
		uj_dbl(j, "worse_by", exp(c->kind_log[f] / c->kind_n[f]));
		uj_end_obj(j);
	}
	uj_end_obj(j);
	uj_i64(j, "figures", c->nfigures);
	uj_dbl(j, "index", c->index);
	uj_bool(j, "regressed", c->regressed);
	uj_i64(j, "figures_beyond_threshold", c->beyond_figures);
	uj_i64(j, "baseline_unused", c->baseline_unused);
	uj_end_obj(j);
}

int ut_compare_matched(const struct ut_compare *c)
{
	int n = 0;

	for (int i = 0; c && i < c->ncombo; i++)
		n += c->combos[i].found;
	return n;
}

bool ut_compare_done(const struct ut_compare *c)
{
	return c && c->done;
}
