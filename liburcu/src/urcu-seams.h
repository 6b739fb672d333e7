// SPDX-License-Identifier: MIT
/*
 * The library's test seams: the seeded bugs' constants, the grace-period
 * engine's phase hook and the bench's phase trace; the steps that seeds
 * replace are named in urcu-steps.h.  Internal: never installed, and no
 * installed header refers to it.
 *
 * 1. Seeded bugs (tests/seeded, docs/TORTURE-SEEDED.md "The seeded-bug
 *    catalogue").  URCU_I_SEEDED(NAME) is an integer constant, 1 in a build
 *    that selected the seed NAME and 0 in every other build.  A seed is
 *    selected by defining URCU_I_SEED_<NAME>=1: the top meson.build does it
 *    for a whole -Dseeded_bug=<name> build, tools/meson.build for urcutorture's
 *    two seed modules only.  A misspelt NAME is an undeclared identifier, in
 *    every build.  The library's sources name no seed: each seed replaces
 *    named steps of the algorithm, defined in urcu-steps.h as the correct
 *    code with the seed's version beside it, as an ordinary branch on the
 *    constant that every build compiles and the compiler removes.  The
 *    inline read side of the installed headers has no seam of its own: a
 *    seeded build compiles against seeded/urcu/static/urcu-reader.h, which
 *    redefines two steps of the installed template.
 *
 *    Adding a seed: its name in tests/seeded/catalogue.txt, the matching
 *    three lines below (the top meson.build refuses to configure when the
 *    two lists differ), its step in urcu-steps.h, and its row in
 *    docs/TORTURE-SEEDED.md.
 *
 * 2. The grace-period engine's phase hook, URCU_I_GP_PHASE: urcu-gp.c calls
 *    it at each phase boundary and names none of the three observers that
 *    this table sends it to (stall watch, USDT probes, phase trace).
 *
 * 3. Per-phase timing of synchronize_rcu() (bench-only, urcu-phase-trace.h).
 *    The URCU_I_PT_* hooks are empty unless URCU_I_PHASE_TRACE is defined,
 *    which only the static bench copies of tools/bench/meson.build do.
 */
#ifndef URCU_SRC_URCU_SEAMS_H
#define URCU_SRC_URCU_SEAMS_H

/* ---- seeded bugs ---------------------------------------------------------- */

#define URCU_I_SEEDED(name)	(URCU_I_SEED_##name)

/* One per name of tests/seeded/catalogue.txt, '-' -> '_', upper-cased. */
#ifndef URCU_I_SEED_SKIP_WAIT
# define URCU_I_SEED_SKIP_WAIT 0
#endif
#ifndef URCU_I_SEED_SKIP_READER
# define URCU_I_SEED_SKIP_READER 0
#endif
#ifndef URCU_I_SEED_NO_FLIP
# define URCU_I_SEED_NO_FLIP 0
#endif
#ifndef URCU_I_SEED_DONE_BEFORE_SCAN
# define URCU_I_SEED_DONE_BEFORE_SCAN 0
#endif
#ifndef URCU_I_SEED_NESTING_OFF_BY_ONE
# define URCU_I_SEED_NESTING_OFF_BY_ONE 0
#endif
#ifndef URCU_I_SEED_QSBR_UNPUBLISHED
# define URCU_I_SEED_QSBR_UNPUBLISHED 0
#endif
#ifndef URCU_I_SEED_BP_REGISTER_RACE
# define URCU_I_SEED_BP_REGISTER_RACE 0
#endif
#ifndef URCU_I_SEED_CB_BEFORE_GP
# define URCU_I_SEED_CB_BEFORE_GP 0
#endif
#ifndef URCU_I_SEED_LOST_CALLBACK
# define URCU_I_SEED_LOST_CALLBACK 0
#endif
#ifndef URCU_I_SEED_EARLY_BARRIER
# define URCU_I_SEED_EARLY_BARRIER 0
#endif
#ifndef URCU_I_SEED_EARLY_POLL
# define URCU_I_SEED_EARLY_POLL 0
#endif
#ifndef URCU_I_SEED_DEFER_NO_GP
# define URCU_I_SEED_DEFER_NO_GP 0
#endif
#ifndef URCU_I_SEED_ORDER_UPDATER
# define URCU_I_SEED_ORDER_UPDATER 0
#endif
#ifndef URCU_I_SEED_ORDER_READER
# define URCU_I_SEED_ORDER_READER 0
#endif
#ifndef URCU_I_SEED_GP_STATS_DOUBLE
# define URCU_I_SEED_GP_STATS_DOUBLE 0
#endif
#ifndef URCU_I_SEED_BP_REGISTER_UNLOCKED
# define URCU_I_SEED_BP_REGISTER_UNLOCKED 0
#endif
#ifndef URCU_I_SEED_STALE_SNAPSHOT
# define URCU_I_SEED_STALE_SNAPSHOT 0
#endif
#ifndef URCU_I_SEED_LFHT_DESTROY_HANG
# define URCU_I_SEED_LFHT_DESTROY_HANG 0
#endif
#ifndef URCU_I_SEED_IMPLICIT_UNLINKED
# define URCU_I_SEED_IMPLICIT_UNLINKED 0
#endif
#ifndef URCU_I_SEED_UNREGISTER_IN_SECTION
# define URCU_I_SEED_UNREGISTER_IN_SECTION 0
#endif
#ifndef URCU_I_SEED_IMPLICIT_FIRST_UNORDERED
# define URCU_I_SEED_IMPLICIT_FIRST_UNORDERED 0
#endif

/* ---- the grace-period engine's phase hook --------------------------------- */

/*
 * URCU_I_GP_PHASE(PHASE, args...) marks a boundary between two phases of a
 * synchronize_rcu() call or of the grace period it runs, in urcu-gp.c (the
 * bench's phase names are those of urcu-phase-trace.h).  What watches is
 * this table, one line per boundary, run in the order written:
 *   watch - grace-period statistics and stall reports (urcu-stall.h), always;
 *   probe - USDT probes (probes.h), a NOP unless traced;
 *   trace - per-phase timing (below), empty but in the bench copies.
 * Nothing here orders memory, and only the stall report (WOKEN) may drop
 * the registry lock.  Expanded in urcu-gp.c only, which includes
 * urcu-stall.h and probes.h.  A boundary without arguments is written
 * URCU_I_GP_PHASE(NAME): no argument for the "...", as C23 allows and gcc
 * and clang accept in gnu11.
 */
#define URCU_I_GP_PHASE(phase, ...)	URCU_I_GP_AT_##phase(__VA_ARGS__)

/* synchronize_rcu() entered: trace starts its stopwatch. */
#define URCU_I_GP_AT_SYNC_ENTER()	URCU_I_PT_BEGIN()
/* Its caller starts / stops waiting: watch counts it (stall reports). */
#define URCU_I_GP_AT_SYNC_WAIT()	URCU_FN(i_watch_waiter)(1)
#define URCU_I_GP_AT_SYNC_WAITED()	URCU_FN(i_watch_waiter)(-1)
/* synchronize_rcu() returns: trace stores the call's record. */
#define URCU_I_GP_AT_SYNC_EXIT()	URCU_I_PT_END()
/* wait_for_gp(): its caller knows its target. */
#define URCU_I_GP_AT_GP_WAIT()		URCU_I_PT_MARK(ENTRY)
/* The caller became the leader / released leadership and woke waiters. */
#define URCU_I_GP_AT_LEADER()		URCU_I_PT_MARK(LEADER_LOCK)
#define URCU_I_GP_AT_LEADER_DONE()	URCU_I_PT_MARK(WAKE)
/* A caller that is not the leader woke on the epoch futex. */
#define URCU_I_GP_AT_FOLLOWER_WOKEN()	URCU_I_PT_MARK(WAIT_LEADER)
/* Grace period seq numbered (registry lock held). */
#define URCU_I_GP_AT_GP_START(seq)					\
	do {								\
		URCU_FN(i_watch_begin)(seq);				\
		URCU_PROBE(gp_start, URCU_PROBE_FLAVOR, (seq));		\
		URCU_I_PT_GP();						\
		URCU_I_PT_MARK(REG_LOCK);				\
	} while (0)
/* B1 done (registry lock held again). */
#define URCU_I_GP_AT_ORDERED()		URCU_I_PT_MARK(ORDER)
/* Flipped. */
#define URCU_I_GP_AT_FLIPPED()		URCU_I_PT_MARK(FLIP)
/* A stretch of scanning ended: the spin (not armed yet), or a sleep and rescan. */
#define URCU_I_GP_AT_SCANNED(armed)					\
	do {								\
		if (armed)						\
			URCU_I_PT_MARK(SCAN_SLEEP);			\
		else							\
			URCU_I_PT_MARK(SCAN_SPIN);			\
	} while (0)
/* Waiter flag, waited bytes and futex set, order forced, readers rescanned. */
#define URCU_I_GP_AT_ARMED()		URCU_I_PT_MARK(SCAN_ARM)
/* Grace period seq is about to sleep on nbusy readers. */
#define URCU_I_GP_AT_SLEEP(seq, nbusy)					\
	do {								\
		URCU_FN(i_watch_holdouts)(nbusy);			\
		URCU_PROBE(gp_wait_readers, URCU_PROBE_FLAVOR, (seq), (nbusy)); \
	} while (0)
/*
 * Woken (or timed out) while flipped to g: watch reports a stall if one is
 * due, dropping and retaking the registry lock around the report.
 */
#define URCU_I_GP_AT_WOKEN(g)		URCU_FN(i_watch_check)(g)
/* The grace period is over (done published). */
#define URCU_I_GP_AT_GP_END()						\
	do {								\
		URCU_FN(i_watch_end)();					\
		URCU_I_PT_MARK(GP_END);					\
	} while (0)

/* ---- per-phase trace of synchronize_rcu (bench-only) ---------------------- */

#ifdef URCU_I_PHASE_TRACE
# include "urcu-phase-trace.h"
# define URCU_I_PT_BEGIN()		urcu_i_pt_begin()
# define URCU_I_PT_MARK(phase)		urcu_i_pt_mark(URCU_I_PT_##phase)
# define URCU_I_PT_GP()			urcu_i_pt_count_gp()
# define URCU_I_PT_END()		urcu_i_pt_end()
/* A detail inside a phase: a clock read, then the time since it charged. */
# define URCU_I_PT_DETAIL_START()	urcu_i_pt_detail_start()
# define URCU_I_PT_DETAIL(d, since)	urcu_i_pt_detail(URCU_I_PT_##d, (since))
#else
# define URCU_I_PT_BEGIN()		do { } while (0)
# define URCU_I_PT_MARK(phase)		do { } while (0)
# define URCU_I_PT_GP()			do { } while (0)
# define URCU_I_PT_END()		do { } while (0)
# define URCU_I_PT_DETAIL_START()	((unsigned long long) 0)
# define URCU_I_PT_DETAIL(d, since)	((void) (since), (unsigned long long) 0)
#endif

#endif /* URCU_SRC_URCU_SEAMS_H */
