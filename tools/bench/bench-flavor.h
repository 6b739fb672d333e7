// SPDX-License-Identifier: MIT
/*
 * Selects the RCU flavor of one benchmark binary through the flavor's
 * umbrella header, exactly as an application written for liburcu would.
 * Build with one of -DBENCH_FLAVOR_MEMB, _MB, _SIGNAL, _QSBR or _BP (and
 * -D_LGPL_SOURCE for the inline fast paths).  One flavor per binary:
 * liburcu 0.13's umbrella headers cannot be mixed in one translation unit.
 *
 * Only the generic liburcu API is used, so the same source compiles
 * against this project and against liburcu.  -DBENCH_PEER_CK instead
 * compiles it against Concurrency Kit's epoch reclamation (bench-ck.h).
 */
#ifndef BENCH_FLAVOR_H
#define BENCH_FLAVOR_H

#if defined(BENCH_PEER_CK)
#include "bench-ck.h"
#elif defined(BENCH_FLAVOR_MEMB)
#include <urcu.h>
#define BENCH_FLAVOR "memb"
#elif defined(BENCH_FLAVOR_MB)
#define RCU_MB
#include <urcu.h>
#define BENCH_FLAVOR "mb"
#elif defined(BENCH_FLAVOR_SIGNAL)
#define RCU_SIGNAL
#include <urcu.h>
#define BENCH_FLAVOR "signal"
#elif defined(BENCH_FLAVOR_QSBR)
#include <urcu-qsbr.h>
#define BENCH_FLAVOR "qsbr"
#elif defined(BENCH_FLAVOR_BP)
#include <urcu-bp.h>
#define BENCH_FLAVOR "bp"
#else
#error "define one of BENCH_FLAVOR_MEMB, _MB, _SIGNAL, _QSBR, _BP, or BENCH_PEER_CK"
#endif

#ifdef _LGPL_SOURCE
#define BENCH_LINKAGE "inline"
#elif defined(URCU_NO_INLINE_READ_SIDE)
/* ours: the read side as library calls (liburcu: the same as "call") */
#define BENCH_LINKAGE "outofline"
#else
/* without _LGPL_SOURCE: liburcu calls; ours inlines the read side anyway */
#define BENCH_LINKAGE "call"
#endif

/* A reader announces a quiescent state; only qsbr needs to. */
#ifdef BENCH_FLAVOR_QSBR
#define bench_quiescent_state()	rcu_quiescent_state()
#else
#define bench_quiescent_state()	do { } while (0)
#endif

/*
 * Where a deferred-free loop lets callbacks run: nothing to do for RCU (its
 * workers run them); ck_epoch runs them only inside a poll or a barrier.
 */
#ifndef bench_defer_poll
#define bench_defer_poll()	do { } while (0)
#endif
/* An enqueuing thread's last step: ck runs its own pending callbacks. */
#ifndef bench_defer_flush
#define bench_defer_flush()	do { } while (0)
#endif

/* The object readers reach through bench_gp. */
struct bench_obj {
	long value;
};

/* The RCU-protected pointer the readers dereference (bench-reader.c). */
extern struct bench_obj *bench_gp;
/* Two objects updaters alternate bench_gp between; never freed. */
extern struct bench_obj bench_objs[2];

/*
 * Starts one reader thread on BENCH_CPU_READER, registered with the
 * flavor, looping on short read-side critical sections (rcu_read_lock,
 * rcu_dereference(bench_gp), one load, rcu_read_unlock; qsbr adds a
 * quiescent state after every section).  Returns once the reader is
 * registered and running.
 */
void bench_reader_start(void);
/*
 * Stops and joins the reader; returns how many sections it ran and, if
 * @cpu_share is not NULL, stores there the fraction of its lifetime the
 * reader was on a CPU.  Well below 1 means other work preempted it, and
 * a preempted reader changes what a grace period costs (membarrier need
 * not interrupt a CPU that is not running the reader).
 */
unsigned long bench_reader_stop(double *cpu_share);
/* The reader's kernel thread id (for /proc/self/task/<tid>/schedstat). */
int bench_reader_tid(void);

/*
 * Times back-to-back synchronize_rcu() calls (each after publishing the
 * other bench_objs[] entry) until @max_gps samples or @max_s seconds after
 * a short warm-up, and prints <prefix>.p50, .mean and .p99 in us and
 * <prefix>.samples.
 */
void bench_sync_latency(const char *prefix, long max_gps, double max_s);

/*
 * bp and signal grace periods are slower (a signal round, or membarrier
 * through the bp registry): the benchmarks time fewer of them.
 */
static inline int slow_flavor(void)
{
#if defined(BENCH_FLAVOR_BP) || defined(BENCH_FLAVOR_SIGNAL)
	return 1;
#else
	return 0;
#endif
}

#endif /* BENCH_FLAVOR_H */
