/* SPDX-License-Identifier: MIT */
/* The queue mode's seeded wfstack pop (test-only; queue-seeded.c). */
#ifndef UT_QUEUE_SEEDED_H
#define UT_QUEUE_SEEDED_H

#include <stdbool.h>

#include <urcu/wfstack.h>

/* p is the library's bottom-of-stack marker (a head or a next). */
bool ut_wfs_is_end(const void *p);
/* __cds_wfs_pop_blocking, except that a half-done push ends the stack (wrong). */
struct cds_wfs_node *ut_seeded_wfs_pop(struct __cds_wfs_stack *s);

#endif /* UT_QUEUE_SEEDED_H */
