// SPDX-License-Identifier: MIT
/*
 * Names liburcu 0.14 and 0.15 added, doing their job (check-names.py only
 * compiles them): cmm_cast_volatile(), urcu/annotate.h, the wfcqueue head
 * casts of 0.15 (__cds_wfcq_head_const_cast and, in C++, the overloaded
 * cds_wfcq_head_cast_cpp / cds_wfcq_head_const_cast_cpp), the program's own
 * CDS_WFCQ_WAIT_SLEEP hook, wfstack's CDS_WFS_ADAPT_ATTEMPTS/CDS_WFS_WAIT,
 * and the two bit helpers liburcu-cds exports without declaring them
 * publicly (cds_lfht_fls_ulong, cds_lfht_get_count_order_ulong).
 *
 * Written in the common subset of C and C++: built as C and, through
 * test_later_names.cpp, as C++, each with and without _LGPL_SOURCE.
 */
#include <limits.h>
#include <stddef.h>

/*
 * liburcu's hook, defined before the header as liburcu asks: called where a
 * dequeuer waiting for a preempted enqueuer would sleep.  The test's hook
 * completes that enqueue itself.
 */
static int hook_calls;
static int hook_msec;
static void wait_hook(int msec) __attribute__((unused));
#define CDS_WFCQ_WAIT_SLEEP(msec)	wait_hook(msec)

#include <urcu/compiler.h>
#include <urcu/annotate.h>
#include <urcu/uatomic.h>
#include <urcu/wfcqueue.h>
#include <urcu/wfstack.h>
#include <urcu/static/wfstack.h>

#include "tap.h"

#ifdef _LGPL_SOURCE
# define MODE	"_LGPL_SOURCE"
#else
# define MODE	"no _LGPL_SOURCE"
#endif
#ifdef __cplusplus
# define LANG	"C++"
extern "C" {
#else
# define LANG	"C"
#endif
/* Exported by liburcu-cds, declared only in liburcu's private headers. */
unsigned int cds_lfht_fls_ulong(unsigned long x);
int cds_lfht_get_count_order_ulong(unsigned long x);
#ifdef __cplusplus
}
#endif

/* The hook's queue (used with _LGPL_SOURCE only). */
static struct __cds_wfcq_head hq caa_unused;
static struct cds_wfcq_tail tq caa_unused;
static struct cds_wfcq_node pending caa_unused;

static void wait_hook(int msec)
{
	hook_calls++;
	hook_msec = msec;
	/* The "preempted enqueuer" finishes: link the node behind the head. */
	uatomic_store(&hq.node.next, &pending, CMM_RELEASE);
}

static void check_cast_volatile(void)
{
	static int x = 3;
	static int *px = &x;
	volatile int *vx = cmm_cast_volatile(&x);
	int *const volatile *vpx = cmm_cast_volatile(&px);

	__atomic_store_n(cmm_cast_volatile(&x), 5, __ATOMIC_RELAXED);
	tap_ok(vx == &x && *vpx == &x
	       && __atomic_load_n(cmm_cast_volatile(&x), __ATOMIC_RELAXED) == 5,
	       "cmm_cast_volatile: the same address, volatile-qualified, usable "
	       "with the __atomic builtins (" LANG ", " MODE ")");
}

static void check_annotate(void)
{
	static int x, y;
	cmm_annotate_define(acq);
	cmm_annotate_define(rel);
	int v;

	v = uatomic_load(&x, CMM_RELAXED);
	cmm_annotate_group_mem_acquire(&acq, &x);
	cmm_smp_mb();
	cmm_annotate_group_mb_acquire(&acq);

	cmm_annotate_group_mb_release(&rel);
	cmm_smp_mb();
	uatomic_store(&y, v + 1, CMM_RELAXED);
	cmm_annotate_group_mem_release(&rel, &y);
	cmm_annotate_mem_acquire(&x);
	cmm_annotate_mem_release(&y);
	tap_ok(y == 1 && CMM_ANNOTATE_VOID != CMM_ANNOTATE_MB
	       && sizeof(cmm_annotate_t) == sizeof(enum cmm_annotate),
	       "urcu/annotate.h: groups and single annotations around fences");
}

static void check_wfcq_casts(void)
{
	static struct cds_wfcq_head h;
	static struct __cds_wfcq_head uh;
	static struct cds_wfcq_tail t, ut;
	static struct cds_wfcq_node n;
	const struct __cds_wfcq_head *cuh = &uh;

	cds_wfcq_init(&h, &t);
	__cds_wfcq_init(&uh, &ut);
	cds_wfcq_node_init(&n);
	tap_ok(cds_wfcq_empty(__cds_wfcq_head_const_cast(cuh), &ut),
	       "__cds_wfcq_head_const_cast: cds_wfcq_empty on a const head");
#ifdef __cplusplus
	{
		const struct cds_wfcq_head *ch = &h;

		(void) cds_wfcq_enqueue(cds_wfcq_head_cast_cpp(&uh), &ut, &n);
		tap_ok(!cds_wfcq_empty(cds_wfcq_head_const_cast_cpp(cuh), &ut)
		       && cds_wfcq_empty(cds_wfcq_head_const_cast_cpp(ch), &t)
		       && __cds_wfcq_dequeue_blocking(cds_wfcq_head_cast_cpp(&uh), &ut) == &n
		       && __cds_wfcq_dequeue_blocking(cds_wfcq_head_cast_cpp(&h), &t) == NULL,
		       "cds_wfcq_head_cast_cpp/cds_wfcq_head_const_cast_cpp: both head types");
	}
#else
	tap_skip("cds_wfcq_head_cast_cpp/cds_wfcq_head_const_cast_cpp: C++ only");
#endif
	cds_wfcq_destroy(&h, &t);
}

/*
 * A queue whose last enqueuer has swapped itself into the tail but not yet
 * linked itself behind the head: a blocking dequeue must wait for it.
 */
static void check_wait_sleep_hook(void)
{
#ifdef _LGPL_SOURCE
	struct cds_wfcq_node *got;

	__cds_wfcq_init(&hq, &tq);
	cds_wfcq_node_init(&pending);
	tq.p = &pending;
	got = __cds_wfcq_dequeue_blocking(&hq, &tq);
	tap_ok(got == &pending && hook_calls >= 1 && hook_msec == 10
	       && cds_wfcq_empty(&hq, &tq),
	       "CDS_WFCQ_WAIT_SLEEP: the program's hook runs where the dequeuer "
	       "would sleep (%d call(s), %d ms)", hook_calls, hook_msec);
#else
	tap_skip("CDS_WFCQ_WAIT_SLEEP: only with _LGPL_SOURCE (the library's "
		 "code runs without it, as in liburcu)");
#endif
}

static void check_cds_helpers(void)
{
	tap_ok(cds_lfht_fls_ulong(0) == 0 && cds_lfht_fls_ulong(1) == 1
	       && cds_lfht_fls_ulong(2) == 2 && cds_lfht_fls_ulong(3) == 2
	       && cds_lfht_fls_ulong(1024) == 11
	       && cds_lfht_fls_ulong(ULONG_MAX) == CAA_BITS_PER_LONG,
	       "cds_lfht_fls_ulong exported (highest set bit, from 1)");
	tap_ok(cds_lfht_get_count_order_ulong(0) == -1
	       && cds_lfht_get_count_order_ulong(1) == 0
	       && cds_lfht_get_count_order_ulong(2) == 1
	       && cds_lfht_get_count_order_ulong(3) == 2
	       && cds_lfht_get_count_order_ulong(1024) == 10
	       && cds_lfht_get_count_order_ulong(1025) == 11
	       && cds_lfht_get_count_order_ulong(ULONG_MAX) == CAA_BITS_PER_LONG,
	       "cds_lfht_get_count_order_ulong exported (log2 rounded up, -1 for 0)");
}

int main(void)
{
	check_cast_volatile();
	check_annotate();
	check_wfcq_casts();
	check_wait_sleep_hook();
	check_cds_helpers();
	tap_ok(CDS_WFS_ADAPT_ATTEMPTS == 10 && CDS_WFS_WAIT == 10,
	       "CDS_WFS_ADAPT_ATTEMPTS and CDS_WFS_WAIT: liburcu's values");
	return tap_done();
}
