/* SPDX-License-Identifier: MIT */
/*
 * A run's parameters, rendered from the option tables: the start line's
 * "NAME=VALUE" list and the JSON "parameters" object.  Both follow the run
 * table's order, with the modes' options where the table places them.
 */
#include <string.h>

#include "opts.h"
#include "json.h"

/* The value of a mode option (k) or of a run option (o, in cfg) as text. */
static void value_text(const struct ut_opt *o, const struct ut_config *cfg, int k,
		       char *buf, size_t len)
{
	uint64_t v = o->size ? ut_opt_get(o, cfg) : cfg->opt[k];
	const char *text = o->size ? NULL : cfg->opt_text[k];

	if (o->show)
		o->show(cfg, buf, len);
	else if (o->type == UT_OPT_DUR || o->type == UT_OPT_DUR_NZ)
		ut_format_duration(v, buf, len);
	else if (o->type == UT_OPT_STRING || o->type == UT_OPT_LIST)
		snprintf(buf, len, "%s", (o->size ? ut_opt_get_text(o, cfg) : text) ?: "none");
	else if (o->size == sizeof(int))
		snprintf(buf, len, "%d", (int)(int64_t)v);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

/* An option left out of the start line: by its flag, or unset. */
static bool off_line(const struct ut_opt *o, const struct ut_config *cfg)
{
	return (o->flags & UT_OPTF_NO_LINE) ||
	       ((o->flags & UT_OPTF_UNSET) && ut_opt_get(o, cfg) == (uint64_t)-1);
}

static size_t add_pair(char *buf, size_t len, size_t off, const struct ut_opt *o,
		       const struct ut_config *cfg, int k)
{
	char v[512];

	if (off >= len)
		return off;
	value_text(o, cfg, k, v, sizeof(v));
	return off + (size_t)snprintf(buf + off, len - off, "%s%s=%s", off ? " " : "", o->name, v);
}

void ut_params_line(const struct ut_config *cfg, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (const struct ut_opt *o = ut_run_opts; o->name; o++) {
		if (o->type == UT_OPT_MODE_OPTS) {
			for (int k = 0; k < ut_mode_opts_count(); k++)
				if (!(ut_mode_opt_at(k)->flags & UT_OPTF_NO_LINE))
					off = add_pair(buf, len, off, ut_mode_opt_at(k), cfg, k);
		} else if (!off_line(o, cfg)) {
			off = add_pair(buf, len, off, o, cfg, 0);
		}
	}
}

/* One member by the option's type: numbers, durations in ns, flags as
 * booleans, texts as strings (null when none), an unset value as null. */
static void json_member(struct uj *j, const struct ut_opt *o, const struct ut_config *cfg, int k)
{
	uint64_t v = o->size ? ut_opt_get(o, cfg) : cfg->opt[k];
	const char *text = o->size ? NULL : cfg->opt_text[k];
	char shown[512];

	if (o->json_out) {
		o->json_out(j, o, cfg);
	} else if (o->show && (o->type == UT_OPT_STRING || o->type == UT_OPT_LIST)) {
		o->show(cfg, shown, sizeof(shown));
		uj_str(j, o->json, shown);
	} else if (o->type == UT_OPT_STRING || o->type == UT_OPT_LIST) {
		text = o->size ? ut_opt_get_text(o, cfg) : text;
		if (text)
			uj_str(j, o->json, text);
		else
			uj_null(j, o->json);
	} else if ((o->flags & UT_OPTF_UNSET) && v == (uint64_t)-1) {
		uj_null(j, o->json);
	} else if (o->type == UT_OPT_FLAG) {
		uj_bool(j, o->json, v != 0);
	} else if (o->type == UT_OPT_RATE) {
		uj_dbl(j, o->json, (double)v);
	} else if (o->size == sizeof(int)) {
		uj_i64(j, o->json, (int64_t)v);
	} else {
		uj_u64(j, o->json, v);
	}
}

void ut_params_json(struct uj *j, const char *key, const struct ut_config *cfg)
{
	uj_obj(j, key);
	for (const struct ut_opt *o = ut_run_opts; o->name; o++) {
		if (o->type == UT_OPT_MODE_OPTS) {
			for (int k = 0; k < ut_mode_opts_count(); k++)
				if (ut_mode_opt_at(k)->json)
					json_member(j, ut_mode_opt_at(k), cfg, k);
		} else if (o->json) {
			json_member(j, o, cfg, 0);
		}
	}
	uj_end_obj(j);
}
