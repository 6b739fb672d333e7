/* SPDX-License-Identifier: MIT */
/*
 * ut_mode_check(): does one mode table have what run.c, report.c and
 * options.c rely on?  Standalone (libc only) so that a test can feed it
 * broken tables without linking the tool.
 */
#include <stdio.h>
#include <string.h>

#include "ut.h"

int ut_mode_check(const struct ut_mode_ops *m, char *err, size_t len)
{
	int nerr = 0;

#define UT_NEED(cond, what) \
	do { \
		if (!(cond)) { \
			snprintf(err, len, "%s", what); \
			return -1; \
		} \
	} while (0)

	UT_NEED(m->name && m->name[0], "no name");
	UT_NEED(m->help && m->help[0], "no help text");
	UT_NEED(!strncmp(m->help, m->name, strlen(m->name)), "help text does not start with the name");
	UT_NEED(m->roles, "no roles");
	UT_NEED(m->nroles >= 1 && m->nroles <= UT_MODE_MAX_ROLES, "nroles out of 1..UT_MODE_MAX_ROLES");
	for (int i = 0; i < m->nroles; i++) {
		UT_NEED(m->roles[i].name && m->roles[i].name[0], "a role without a name");
		UT_NEED(m->roles[i].place == UT_ROLE_READER || m->roles[i].place == UT_ROLE_UPDATER,
			"a role placed neither as reader nor as updater");
		UT_NEED(m->roles[i].fn, "a role without a thread function");
	}
	UT_NEED(m->count, "no count hook");
	UT_NEED(m->stat_line, "no stat_line hook");
	for (const struct ut_opt *o = m->opts; o && o->name; o++) {
		UT_NEED(o->name[0] && o->help && o->help[0], "an option without a name or help");
		UT_NEED(o->json || o->type == UT_OPT_LIST || o->type == UT_OPT_STRING,
			"a numeric option without a JSON key");
		UT_NEED((o->type != UT_OPT_COUNT && o->type != UT_OPT_RATE) ||
			(o->lo <= o->def && o->def <= o->hi), "an option whose default is out of its range");
		UT_NEED(o->type != UT_OPT_DUR_NZ || o->def > 0, "a non-zero duration defaulting to 0");
		UT_NEED(o->type != UT_OPT_INFO && !o->size && !o->parse,
			"a mode option with a field or a parse hook");
	}
	while (m->errors && m->errors[nerr])
		nerr++;
	UT_NEED(nerr <= UT_MODE_MAX_ERRORS, "more than UT_MODE_MAX_ERRORS error names");
#undef UT_NEED
	return 0;
}
