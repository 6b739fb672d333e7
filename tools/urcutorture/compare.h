/* SPDX-License-Identifier: MIT */
/* --compare: this run's combinations against a baseline report (compare.c). */
#ifndef UT_COMPARE_H
#define UT_COMPARE_H

#include <stdbool.h>

#include "common.h"

struct ut_compare;
struct uj;

/* Read and check the baseline (before anything runs): 0, or an exit code
 * after one line on stderr naming --compare. */
int ut_compare_load(const char *path, double threshold, struct ut_compare **out);
/* Compare this run's JSON document with the baseline; prints the warnings
 * (also on stderr) and the comparison to sink.  Returns 1 when the index
 * (geometric mean of every figure's worse factor) regressed beyond the
 * threshold, else 0. */
int ut_compare_run(struct ut_compare *c, const char *new_doc, const struct ut_sink *sink);
/* The "compare" member of the JSON report. */
void ut_compare_json(struct uj *j, const struct ut_compare *c);
bool ut_compare_done(const struct ut_compare *c);
/* Combinations of this run found in the baseline. */
int ut_compare_matched(const struct ut_compare *c);
void ut_compare_free(struct ut_compare *c);

#endif /* UT_COMPARE_H */
