// SPDX-License-Identifier: MIT
/*
 * Fault injection for the 'faults' suite: the control side of
 * fault-inject.c, a shared module every faults test links first, so that
 * its malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign, free
 * and pthread_create interpose libc's for the whole process (the libraries
 * under test included) without any change to production code.
 *
 * Arming is per thread: only the thread that armed a fault sees it, so the
 * library's own threads (workers, the defer thread) and the test's other
 * threads are never disturbed.  By default only calls made directly from a
 * liburcu* shared object count (fi_scan_libs() finds them); FI_ANY_CALLER
 * counts every call of the thread (for allocations libc makes on the
 * library's behalf, e.g. inside pthread_setspecific()).
 *
 * Leak accounting is global: between fi_track_begin() and fi_track_live(),
 * every block allocated directly by a liburcu* object and not freed since is
 * counted, whichever thread frees it.
 */
#ifndef TESTS_FAULTS_FAULT_INJECT_H
#define TESTS_FAULTS_FAULT_INJECT_H

#include <stddef.h>

#define FI_LIB_ONLY	0
#define FI_ANY_CALLER	1

/* Find the liburcu* objects now loaded (again after a dlopen). */
void fi_scan_libs(void);

/*
 * In the calling thread, make the nth counted allocation from now fail
 * (1 = the next one) with NULL / ENOMEM; 0 disarms.
 */
void fi_fail_alloc(int nth, int callers);

/*
 * Same for pthread_create: counted calls nth to nth + count - 1 fail with
 * err (count <= 0: every call from the nth on).
 */
void fi_fail_thread(int nth, int count, int err);

/* Disarm both in the calling thread. */
void fi_disarm(void);

/* Counted allocations / thread creations seen by the calling thread since it last armed. */
int fi_alloc_calls(void);
int fi_thread_calls(void);

/* Faults actually injected in the calling thread since it last armed. */
int fi_injected(void);

/* Start counting live library blocks (forgets earlier ones). */
void fi_track_begin(void);

/* Library blocks allocated since fi_track_begin() and still live. */
long fi_track_live(void);

/* Their sizes, for a diagnostic line: writes at most n sizes to out, returns how many. */
int fi_track_sizes(size_t *out, int n);

#endif /* TESTS_FAULTS_FAULT_INJECT_H */
