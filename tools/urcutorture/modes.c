/* SPDX-License-Identifier: MIT */
/*
 * The registry of modes.  Each mode is one mode-*.c file defining one
 * struct ut_mode_ops (see ut.h); UT_MODE_LIST names them in the order
 * --help and --list-modes show, the first being the default.  Adding a
 * mode adds one X(name) here.  `urcutorture --self-check-modes` checks
 * every entry with ut_mode_check() (modecheck.c).
 */
#include <string.h>

#include "ut.h"

#define UT_MODE_LIST(X)	\
	X(stress)	\
	X(gp_latency)	\
	X(read_cost)	\
	X(callback)	\
	X(flood)	\
	X(barrier)	\
	X(queue)	\
	X(hash)		\
	X(litmus)	\
	X(stall)

#define UT_MODE_DECLARE(n) extern const struct ut_mode_ops ut_mode_##n;
#define UT_MODE_ENTRY(n) &ut_mode_##n,

UT_MODE_LIST(UT_MODE_DECLARE)

const struct ut_mode_ops *const ut_modes[] = {
	UT_MODE_LIST(UT_MODE_ENTRY)
	NULL
};

const struct ut_mode_ops *ut_mode_find(const char *name)
{
	for (int i = 0; ut_modes[i]; i++)
		if (!strcmp(ut_modes[i]->name, name))
			return ut_modes[i];
	return NULL;
}

/*
 * The flattened list of every registered mode's options: index k is
 * ut_config.opt[k].  An option named like an earlier one (another mode's)
 * shares the earlier one's index.  Computed once, on first use (option
 * parsing, in the main thread, before any other thread exists).
 */
static const struct ut_opt *opt_list[UT_MAX_MODE_OPTS];
static int opt_count = -1;

static void opt_list_build(void)
{
	opt_count = 0;
	for (int i = 0; ut_modes[i]; i++) {
		for (const struct ut_opt *o = ut_modes[i]->opts; o && o->name; o++) {
			bool seen = false;

			for (int k = 0; k < opt_count && !seen; k++)
				seen = !strcmp(opt_list[k]->name, o->name);
			if (!seen && opt_count < UT_MAX_MODE_OPTS)
				opt_list[opt_count++] = o;
		}
	}
}

int ut_mode_opts_count(void)
{
	if (opt_count < 0)
		opt_list_build();
	return opt_count;
}

const struct ut_opt *ut_mode_opt_at(int k)
{
	return k >= 0 && k < ut_mode_opts_count() ? opt_list[k] : NULL;
}

int ut_mode_opt_index(const struct ut_opt *o)
{
	int n = ut_mode_opts_count();

	for (int k = 0; k < n; k++)
		if (opt_list[k] == o || !strcmp(opt_list[k]->name, o->name))
			return k;
	return 0;	/* not registered: --self-check-modes reports it */
}

bool ut_mode_declares(const struct ut_mode_ops *m, const char *name)
{
	for (const struct ut_opt *o = m->opts; o && o->name; o++)
		if (!strcmp(o->name, name))
			return true;
	return false;
}
