// SPDX-License-Identifier: MIT
/*
 * ut_mode_check() (tools/urcutorture/modecheck.c) against hand-made mode
 * tables: a complete one passes, and taking away any mandatory part makes
 * it fail with a message.  The registered modes themselves are checked by
 * `urcutorture --self-check-modes` (check.py registry).
 */
#include <string.h>

#include "tap.h"
#include "ut.h"

static void dummy_count(const struct ut_config *cfg, int n[], bool posts[])
{
	(void)cfg;
	n[0] = 1;
	posts[0] = false;
}

static void *dummy_thread(struct ut_thread *arg)
{
	return arg;
}

static void dummy_stat(struct ut_run *run, char *buf, size_t len)
{
	(void)run;
	snprintf(buf, len, "nothing");
}

static const struct ut_mode_role roles[] = {
	{ "reader", UT_ROLE_READER, true, dummy_thread },
	{ "writer", UT_ROLE_UPDATER, false, dummy_thread },
};

static const struct ut_mode_role worker_role[] = {
	{ "worker", UT_ROLE_WORKER, false, dummy_thread },
};

static const struct ut_mode_role no_fn_role[] = {
	{ "reader", UT_ROLE_READER, true, dummy_thread },
	{ "writer", UT_ROLE_UPDATER, false, NULL },
};

static const struct ut_opt bad_default_opts[] = {
	{ .name = "level", .json = "level", .type = UT_OPT_COUNT, .lo = 1, .hi = 9, .def = 10,
	  .help = "a level" },
	{ NULL }
};

static const struct ut_opt no_help_opts[] = {
	{ .name = "level", .json = "level", .type = UT_OPT_COUNT, .lo = 1, .hi = 9, .def = 5 },
	{ NULL }
};

static const struct ut_opt good_opts[] = {
	{ .name = "level", .json = "level", .type = UT_OPT_COUNT, .lo = 1, .hi = 9, .def = 5,
	  .help = "a level" },
	{ NULL }
};

/* A mode option may not name a field or carry a parse hook. */
static const struct ut_opt field_opts[] = {
	{ .name = "level", .json = "level", .type = UT_OPT_COUNT, .lo = 1, .hi = 9, .def = 5,
	  .help = "a level", .size = 4 },
	{ NULL }
};

/* A non-zero duration may not default to zero. */
static const struct ut_opt zero_dur_opts[] = {
	{ .name = "hold", .json = "hold_ns", .type = UT_OPT_DUR_NZ, .help = "how long" },
	{ NULL }
};

static const char *const nine_errors[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", NULL };

static const struct ut_mode_ops complete = {
	.name = "dummy",
	.help = "dummy: a mode that does nothing",
	.roles = roles,
	.nroles = 2,
	.count = dummy_count,
	.stat_line = dummy_stat,
};

static void expect_fail(struct ut_mode_ops m, const char *what)
{
	char err[128] = "";

	tap_ok(ut_mode_check(&m, err, sizeof(err)) == -1 && err[0], "%s: rejected (%s)", what, err);
}

int main(void)
{
	char err[128] = "";
	struct ut_mode_ops m;

	tap_ok(ut_mode_check(&complete, err, sizeof(err)) == 0, "complete table accepted%s%s", err[0] ? ": " : "", err);

	m = complete; m.name = NULL; expect_fail(m, "no name");
	m = complete; m.name = ""; expect_fail(m, "empty name");
	m = complete; m.help = NULL; expect_fail(m, "no help");
	m = complete; m.help = "other: text"; expect_fail(m, "help for another name");
	m = complete; m.roles = NULL; expect_fail(m, "no roles");
	m = complete; m.nroles = 0; expect_fail(m, "zero roles");
	m = complete; m.nroles = UT_MODE_MAX_ROLES + 1; expect_fail(m, "too many roles");
	m = complete; m.roles = worker_role; m.nroles = 1; expect_fail(m, "role placed as a worker");
	m = complete; m.count = NULL; expect_fail(m, "no count hook");
	m = complete; m.roles = no_fn_role; expect_fail(m, "a role without a thread function");
	m = complete; m.stat_line = NULL; expect_fail(m, "no stat_line hook");
	m = complete; m.errors = nine_errors; expect_fail(m, "too many error names");
	m = complete; m.opts = bad_default_opts; expect_fail(m, "an option whose default is out of range");
	m = complete; m.opts = no_help_opts; expect_fail(m, "an option without help");
	m = complete; m.opts = field_opts; expect_fail(m, "a mode option naming a field");
	m = complete; m.opts = zero_dur_opts; expect_fail(m, "a non-zero duration defaulting to 0");
	m = complete; m.opts = good_opts;
	tap_ok(ut_mode_check(&m, err, sizeof(err)) == 0, "a complete option table accepted");
	m = complete; m.errors = nine_errors + 1;
	tap_ok(ut_mode_check(&m, err, sizeof(err)) == 0, "%d error names accepted", UT_MODE_MAX_ERRORS);
	return tap_done();
}
