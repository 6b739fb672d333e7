// SPDX-License-Identifier: MIT
/*
 * The library's test seams, all in one place.  Internal: never installed,
 * and no installed header refers to it.
 *
 * 1. Seeded bugs (tests/seeded, docs/TORTURE-SEEDED.md "The seeded-bug
 *    catalogue").  URCU_I_SEEDED(NAME) is an integer constant, 1 in a build
 *    that selected the seed NAME and 0 in every other build, so that a seed
 *    is written as an ordinary branch,
 *
 *	if (URCU_I_SEEDED(SKIP_WAIT)) { ... }	or	if (!URCU_I_SEEDED(...))
 *
 *    which every build compiles and type-checks, and which the compiler
 *    removes when the constant is 0 (gcc and clang do so even at -O0).  A
 *    misspelt NAME is an undeclared identifier, in every build.  A seed is
 *    selected by defining URCU_I_SEED_<NAME>=1: the top meson.build does it
 *    for a whole -Dseeded_bug=<name> build, tools/meson.build for urcutorture's
 *    two seed modules only.  Definitions that an if cannot remove (data,
 *    functions called from another file) sit in `#if URCU_I_SEEDED(NAME)`.
 *    The inline read side of the installed headers has no seam of its own:
 *    a seeded build compiles against seeded/urcu/static/urcu-reader.h,
 *    which adds its two seeds to the installed template.
 *
 *    Adding a seed: its name in tests/seeded/catalogue.txt, the matching
 *    three lines below (the top meson.build refuses to configure when the
 *    two lists differ), the hook, and its row in docs/TORTURE-SEEDED.md.
 *
 * 2. Per-phase timing of synchronize_rcu() (bench-only, urcu-phase-trace.h).
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
