// SPDX-License-Identifier: MIT
/*
 * Per-phase timing of synchronize_rcu(), for the breakdown benchmark only.
 *
 * Part of the library's test seams (urcu-seams.h): when a flavor library is
 * compiled with URCU_I_PHASE_TRACE, which only tools/bench/meson.build
 * defines, for a static, bench-only copy of each flavor library (never
 * installed, never linked by anything but tools/bench/bench-breakdown.c),
 * urcu-seams.h includes this header and turns the URCU_I_PT_* hooks of
 * urcu-gp.c and urcu-order.c into the calls below.  Production builds do
 * not define the macro; the hooks are then empty and the shipped code is
 * unchanged.  bench-breakdown.c includes this header too, to read the
 * records (tools/bench/meson.build puts liburcu/src on its include path).
 *
 * Model: a stopwatch per thread.  URCU_I_PT_BEGIN() at the entry of
 * synchronize_rcu() starts it; each URCU_I_PT_MARK(phase) charges the time
 * since the previous mark to @phase; URCU_I_PT_END() charges the rest to
 * URCU_I_PT_EXIT and appends the call's record to a process-wide array
 * that bench-breakdown.c reads with urcu_i_pt_take().  Marks made by a
 * thread that is not inside a traced synchronize_rcu() (the polled-GP
 * helper, call_rcu workers) are ignored.
 *
 * Every mark is one clock_gettime(CLOCK_MONOTONIC) (vDSO); the benchmark
 * measures that cost and prints it beside the table, since it inflates
 * the traced grace period by (marks per call) x (cost of one read).
 */
#ifndef URCU_SRC_URCU_PHASE_TRACE_H
#define URCU_SRC_URCU_PHASE_TRACE_H

#include <stdint.h>
#include <stddef.h>
#include <time.h>

/* Phases of one synchronize_rcu() call, in the order they run. */
enum urcu_i_pt_phase {
	URCU_I_PT_ENTRY,	/* misuse check, fence, target, epoch/done read */
	URCU_I_PT_LEADER_LOCK,	/* trylock of the leader lock */
	URCU_I_PT_WAIT_LEADER,	/* non-leader: asleep on the epoch futex */
	URCU_I_PT_REG_LOCK,	/* registry lock, GP numbering (started) */
	URCU_I_PT_ORDER,	/* B1: membarrier / signal round / fence */
	URCU_I_PT_FLIP,		/* gp.ctr += STEP */
	URCU_I_PT_SCAN_SPIN,	/* scans and cpu_relax before sleeping */
	URCU_I_PT_SCAN_ARM,	/* waiter flag, futex = -1, B1 again, rescan */
	URCU_I_PT_SCAN_SLEEP,	/* registry unlock, futex wait, relock, rescans */
	URCU_I_PT_GP_END,	/* flag clear, registry unlock, done store */
	URCU_I_PT_WAKE,		/* leader unlock, epoch bump, futex wake of waiters */
	URCU_I_PT_EXIT,		/* final fence (qsbr: back online) */
	URCU_I_PT_NR
};

/*
 * Details inside a phase, outside the sum of the phases: the two halves of
 * the signal flavor's B1 round (liburcu/src/urcu-order.c), summed over every
 * round of the call (B1, and B1 again when the scan arms the waiter flag).
 */
enum urcu_i_pt_detail {
	URCU_I_PT_SIG_SEND,	/* need_mb set, pthread_kill to every other reader */
	URCU_I_PT_SIG_WAIT,	/* until every handler acknowledged (spin, then futex) */
	URCU_I_PT_NR_DETAIL
};

/* One synchronize_rcu() call as the library saw it. */
struct urcu_i_pt_rec {
	uint64_t ns[URCU_I_PT_NR];	/* time charged to each phase */
	uint64_t detail_ns[URCU_I_PT_NR_DETAIL];
	uint64_t total_ns;		/* BEGIN to END */
	uint32_t gps;			/* grace periods this caller ran as leader */
	uint32_t marks;			/* clock reads made during the call (details too) */
};

/* The running record of the calling thread (urcu-phase-trace.c). */
struct urcu_i_pt_cur {
	int active;
	uint64_t start, last;
	struct urcu_i_pt_rec rec;
};

extern __thread struct urcu_i_pt_cur urcu_i_pt_cur;

static inline uint64_t urcu_i_pt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static inline void urcu_i_pt_mark(enum urcu_i_pt_phase phase)
{
	struct urcu_i_pt_cur *c = &urcu_i_pt_cur;
	uint64_t now;

	if (!c->active)
		return;
	now = urcu_i_pt_now();
	c->rec.ns[phase] += now - c->last;
	c->rec.marks++;
	c->last = now;
}

/* A clock read for a detail, or 0 when the calling thread is not traced. */
static inline uint64_t urcu_i_pt_detail_start(void)
{
	if (!urcu_i_pt_cur.active)
		return 0;
	urcu_i_pt_cur.rec.marks++;
	return urcu_i_pt_now();
}

/* Adds the time since @since (a detail clock read) to @d; returns now (or 0). */
static inline uint64_t urcu_i_pt_detail(enum urcu_i_pt_detail d, uint64_t since)
{
	uint64_t now;

	if (!since || !urcu_i_pt_cur.active)
		return 0;
	now = urcu_i_pt_now();
	urcu_i_pt_cur.rec.detail_ns[d] += now - since;
	urcu_i_pt_cur.rec.marks++;
	return now;
}

/* Starts the calling thread's stopwatch (entry of synchronize_rcu). */
void urcu_i_pt_begin(void);
/* Charges the rest to URCU_I_PT_EXIT and stores the record. */
void urcu_i_pt_end(void);
/* Counts one grace period run by the calling thread (run_one_gp). */
static inline void urcu_i_pt_count_gp(void)
{
	if (urcu_i_pt_cur.active)
		urcu_i_pt_cur.rec.gps++;
}

/*
 * Copies up to @max stored records into @out, oldest first, forgets all
 * of them, and returns how many were copied.  Records of calls that end
 * while this runs may be lost; call it when no synchronize_rcu() runs.
 * Returns how many records were dropped (array full) in *@dropped.
 */
size_t urcu_i_pt_take(struct urcu_i_pt_rec *out, size_t max, size_t *dropped);

/* Names of the phases and details, for printing ("order", "sig_send", ...). */
extern const char *const urcu_i_pt_names[URCU_I_PT_NR];
extern const char *const urcu_i_pt_detail_names[URCU_I_PT_NR_DETAIL];

#endif /* URCU_SRC_URCU_PHASE_TRACE_H */
