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
