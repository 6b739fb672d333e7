// SPDX-License-Identifier: MIT
/*
 * RCU lock-free hash table: the helper threads of large resizes, and the
 * reader registration that resizing threads share.
 *
 * A grow or shrink pass is a set of independent walks, one per range of
 * an old (grow) or remaining (shrink) bucket (rculfhash-resize.c, top).  A
 * large pass cuts its ranges into n contiguous parts: the resizing thread
 * starts n - 1 helper threads, one per part 1 .. n-1, works on part 0
 * itself, then joins them.  Nothing of a pass outlives it: the resizing
 * thread returns from urcu_i_lfht_run_parts() only when every helper has
 * finished and exited (pthread_join).
 *
 * How many parts (urcu_i_lfht_parts()): a pass whose work (buckets linked
 * or unlinked) is below LFHT_SPLIT_MIN runs on one thread; a larger one
 * gets one part per LFHT_PART_MIN buckets of work, at most one per CPU the
 * resizing thread may run on (sched_getaffinity), at most LFHT_MAX_PARTS.
 * Why these numbers: a part costs a thread (pthread_create, registration
 * with the flavor, which takes its registry mutex, unregistration, join:
 * 32 us at best, 90-240 us on average on the loaded 2-CPU machine of the
 * measurements, memb) and linking a bucket node of an empty table about
 * 25-40 ns (bench-hash -m regrow20-empty, one thread), so a part of 2^12
 * buckets (100-160 us) is about the smallest whose work is not dwarfed by
 * its cost (the split threshold 2^13 is liburcu's too); more threads than
 * CPUs only add switches; and the walks are bound by memory latency, which
 * more than 16 threads do not hide better than 16 (each already
 * interleaves LFHT_LANES walks), while every registered helper is one
 * more thread each grace period of the flavor must check.  Measured on
 * that 2-CPU machine (bench-hash -m regrowORDER): idle, two threads take
 * 0.56-0.65x the wall time of one for 2^20 and 2^22 buckets, empty or with
 * 10^6 nodes, for 5-18% more CPU time; shared with other busy processes,
 * no faster (the helper waits for a CPU) and up to 40% more CPU.
 * URCU_LFHT_RESIZE_THREADS=1 turns the split off.
 *
 * URCU_LFHT_RESIZE_THREADS (environment, read once): N >= 1 makes every
 * pass that has room for it (rculfhash-resize.c, split_base()) use exactly
 * N parts (at most LFHT_MAX_PARTS), whatever its size: 1 turns the helpers
 * off (the benchmark's baseline), N > 1 forces them onto small tables (the
 * tests).  Unset, empty or not a number: the automatic choice above.
 *
 * A helper is a reader of the table's flavor for its whole life, as the
 * background thread is during a resize (urcu_i_lfht_as_reader): it
 * registers, goes offline (qsbr: it is online only inside the pass's walks,
 * which leave their read-side sections now and then), and unregisters at
 * the end.  It starts with every signal blocked, like the background
 * thread (a program's handlers do not run on the library's threads), but
 * the faults (common.h) and the signal flavor's SIGRCU, which its grace
 * periods need every registered thread to take.  If a helper cannot be
 * started (pthread_create fails), the resizing thread works on that part,
 * and the ones after it, itself: a resize never fails for want of threads.
 *
 * Fork: helpers exist only inside a pass.  The background thread parks for
 * a fork only between two tables (rculfhash-worker.c), so after its pass
 * joined every helper; call_rcu_before_fork() waits for that park before it
 * takes the flavors' registry locks, so the child's registry records no
 * helper.  A helper of an explicit cds_lfht_resize() running in another
 * thread at the fork is, like that thread, absent in the child, where the
 * table keeps its resize lock held (as without helpers).  A helper takes no
 * lock but its flavor's registration, which the resizing thread (and the
 * background thread) take anyway, so the helpers add no lock order.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <urcu/static/urcu-signal-nr.h>

#include "common.h"
#include "rculfhash-internal.h"

/* Work (buckets) of the smallest pass that is split. */
#define LFHT_SPLIT_MIN		(2UL << LFHT_PART_MIN_ORDER)

/* ---- how many parts ---------------------------------------------------------- */

/* URCU_LFHT_RESIZE_THREADS: -1 not read yet, 0 automatic, else the count. */
static int forced_parts = -1;

/*
 * Read once; racing first readers compute the same value, and nothing is
 * published with it (relaxed accesses).
 */
static int forced(void)
{
	int n = uatomic_load(&forced_parts, CMM_RELAXED);
	const char *env;
	char *end;
	long v;

	if (n >= 0)
		return n;
	n = 0;
	env = getenv("URCU_LFHT_RESIZE_THREADS");
	if (env && *env) {
		errno = 0;
		v = strtol(env, &end, 10);
		if (!errno && !*end && v >= 1)
			n = v > LFHT_MAX_PARTS ? LFHT_MAX_PARTS : (int) v;
	}
	uatomic_store(&forced_parts, n, CMM_RELAXED);
	return n;
}

/* CPUs the calling thread may run on (at least 1). */
static unsigned long usable_cpus(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set))
		n = CPU_COUNT(&set);
	else
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n >= 1 ? (unsigned long) n : 1;
}

unsigned int urcu_i_lfht_parts(unsigned long work)
{
	unsigned long n;
	int f = forced();

	if (f)
		return (unsigned int) f;
	if (work < LFHT_SPLIT_MIN)
		return 1;
	n = work >> LFHT_PART_MIN_ORDER;
	if (n > LFHT_MAX_PARTS)
		n = LFHT_MAX_PARTS;
	return (unsigned int) caa_min(n, usable_cpus());
}

/* ---- a reader of the table's flavor ------------------------------------------- */

/*
 * The signal flavor's grace periods wait for every registered thread to
 * take SIGRCU.  Weak: liburcu-cds does not depend on liburcu-signal; the
 * reference resolves when the program uses that flavor.
 */
extern void urcu_signal_register_thread(void) __attribute__((weak));

static bool signal_flavor(const struct rcu_flavor_struct *fl)
{
	return urcu_signal_register_thread && fl->register_thread == urcu_signal_register_thread;
}

void urcu_i_lfht_as_reader(struct cds_lfht *ht, void (*fn)(void *), void *arg)
{
	const struct rcu_flavor_struct *fl = ht->flavor;
	bool sig = signal_flavor(fl);
	sigset_t set, old;

	if (sig) {
		sigemptyset(&set);
		sigaddset(&set, SIGRCU);
		(void) pthread_sigmask(SIG_UNBLOCK, &set, &old);
	}
	fl->register_thread();
	fl->thread_offline();	/* qsbr: online only to walk (resizer_enter) */
	fn(arg);
	fl->thread_online();
	fl->unregister_thread();
	if (sig)
		(void) pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---- helper threads -------------------------------------------------------------- */

static void run_part(void *arg)
{
	struct urcu_i_lfht_part *p = (struct urcu_i_lfht_part *) arg;

	p->fn(p);
}

static void *helper(void *arg)
{
	struct urcu_i_lfht_part *p = (struct urcu_i_lfht_part *) arg;

	urcu_i_lfht_as_reader(p->ht, run_part, p);
	return NULL;
}

/*
 * The table's thread attributes (cds_lfht_new's attr, as liburcu uses them
 * for its partition threads), unless they would make a helper detached:
 * the pass must join it.
 */
static pthread_attr_t *helper_attr(const struct cds_lfht *ht)
{
	int ds;

	if (!ht->attr || pthread_attr_getdetachstate(ht->attr, &ds) || ds != PTHREAD_CREATE_JOINABLE)
		return NULL;
	return ht->attr;
}

/* Start helpers for parts 1 .. n-1; returns how many parts are taken (1 + started). */
static unsigned int start_helpers(struct urcu_i_lfht_part *part, unsigned int n)
{
	sigset_t mask, old;
	unsigned int k = 1;

	/*
	 * They inherit this mask: every signal blocked but SIGRCU (see the
	 * top) and the faults (common.h).
	 */
	urcu_common_thread_sigmask(&mask);
	if (signal_flavor(part[0].ht->flavor))
		sigdelset(&mask, SIGRCU);
	if (pthread_sigmask(SIG_BLOCK, &mask, &old))
		return 1;
	/*
	 * pthread_create synchronizes memory (POSIX): everything this thread
	 * did before (bucket memory allocated, resize_seq odd, size
	 * published for a shrink, part[k] filled) happens before the helper's
	 * first step.
	 */
	for (; k < n; k++) {
		if (pthread_create(&part[k].tid, helper_attr(part[0].ht), helper, &part[k]))
			break;	/* out of threads: this thread does the rest */
	}
	(void) pthread_sigmask(SIG_SETMASK, &old, NULL);
	return k;
}

void urcu_i_lfht_run_parts(struct urcu_i_lfht_part *part, unsigned int n)
{
	unsigned int k, taken = n > 1 ? start_helpers(part, n) : 1;
	int err;

	part[0].fn(&part[0]);
	for (k = taken; k < n; k++)
		part[k].fn(&part[k]);	/* no helper for it: inline */
	/*
	 * pthread_join synchronizes memory (POSIX): every CAS of the helper,
	 * and its part's result, happen before what the caller does next
	 * (the size's release publication of a grow, a shrink's second grace
	 * period and the freeing of bucket memory).
	 */
	for (k = 1; k < taken; k++) {
		err = pthread_join(part[k].tid, NULL);
		if (err)
			urcu_common_die("cds_lfht resize", "pthread_join of a resize helper failed");
	}
}
