/* SPDX-License-Identifier: MIT */
/*
 * What the human/TAP report (report.c) and the JSON report (report-json.c)
 * share: the figures both print, computed once in report.c.
 */
#ifndef UT_REPORT_H
#define UT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "ut.h"

/* Set by tools/meson.build. */
#ifndef UT_VERSION
# define UT_VERSION "unknown"
#endif
#ifndef UT_LIB_NAME
# define UT_LIB_NAME "liburcu-compatible"
#endif
#ifndef UT_LIB_VERSION
# define UT_LIB_VERSION "unknown"
#endif

static inline double ut_per_s(uint64_t n, double s)
{
	return s > 0 ? n / s : 0;
}

/* "model name" of /proc/cpuinfo, "unknown" without one. */
void ut_report_cpu_model(char *buf, size_t len);
/* Workers bound to a CPU that were seen running callbacks on another. */
uint64_t ut_report_worker_mismatches(const struct ut_result *r);
/* The cost of one read-side section as the mode measured it (read-cost);
 * NAN for a mode that does not (its wall time per read would only be the
 * read delay): JSON null, "-" in the comparison table. */
double ut_report_ns_per_read(const struct ut_config *cfg, const struct ut_result *r);
/* Read-side sections per second per reader thread. */
double ut_report_reads_per_reader(const struct ut_config *cfg, const struct ut_result *r);

#endif /* UT_REPORT_H */
