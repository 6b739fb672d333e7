/* SPDX-License-Identifier: MIT */
/* The built-in scenarios, embedded at build time (scenarios/embed.py). */
#ifndef UT_SCENARIO_H
#define UT_SCENARIO_H

struct ut_builtin_scenario {
	const char *name;	/* file name without ".scn" */
	const char *text;	/* the file's text */
};

/* NULL-name-terminated, in the order meson lists the files. */
extern const struct ut_builtin_scenario ut_builtin_scenarios[];

#endif /* UT_SCENARIO_H */
