/* SPDX-License-Identifier: MIT */
/*
 * The option code's own interface: the tables (opts.c), the parser
 * (options.c), --help and the other informational options (opt-help.c), and
 * a run's parameters rendered from the tables (params.c).  The rest of the
 * tool sees only what ut-mode.h and ut.h declare.
 */
#ifndef UT_OPTS_H
#define UT_OPTS_H

#include "ut.h"

/* "urcutorture: [FILE:LINE: ]message" on stderr; returns UT_EXIT_USAGE. */
int ut_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The checks of the types, for hooks that parse more than one value. */
int ut_opt_parse_count(const char *opt, const char *text, long long lo, long long hi,
		       long long *out);
int ut_opt_parse_dur(const char *opt, const char *text, bool allow_zero, uint64_t *out);

/* A table option's field in its scope's struct (size 1: bool, 4: int,
 * 8: uint64_t or a pointer). */
uint64_t ut_opt_get(const struct ut_opt *o, const void *scope);
void ut_opt_set(const struct ut_opt *o, void *scope, uint64_t v);
const char *ut_opt_get_text(const struct ut_opt *o, const void *scope);
void ut_opt_set_text(const struct ut_opt *o, void *scope, const char *text);
/* Its entry: in ut_run_opts (index in *k) or a mode's (ut_mode_opt_at(*k)). */
const struct ut_opt *ut_run_opt_find(const char *name, int *k);
int ut_run_opts_count(void);
/* "=N", "=DUR", "=LIST", "" (a flag) for --help. */
const char *ut_opt_placeholder(const struct ut_opt *o);

/* The informational options (opt-help.c). */
int ut_print_help(void);
int ut_list_flavors(void);
int ut_list_modes(void);
int ut_print_version(void);
int ut_self_check_modes(void);
/* The choices under --mode and --flavor in --help. */
void ut_help_modes(void);
void ut_help_flavors(void);
/* "stress, gp-latency, ...": the modes declaring option name (every mode
 * when NULL), separated by sep. */
void ut_modes_declaring(const char *name, const char *sep, char *buf, size_t len);

#endif /* UT_OPTS_H */
