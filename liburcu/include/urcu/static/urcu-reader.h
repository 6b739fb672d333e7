// SPDX-License-Identifier: MIT
/*
 * Inline read side of the memb, mb, signal and bp flavors, written once.
 *
 * Template: no include guard.  The including header defines
 * URCU_I_FLAVOR(name) (prefix paste) and URCU_I_READER_MAY_FENCE (0 for
 * signal, whose readers never fence; 1 for memb, mb and bp, whose readers
 * fence when the global word carries URCU_GP_FENCE).
 *
 * The four flavors share this code; they differ only in how the updater
 * forces ordering on readers (membarrier(2), signals, or nothing because the
 * readers fence), which the global word tells the reader through
 * URCU_GP_FENCE.  Cost of an outermost lock/unlock pair when the flavor does
 * not need reader fences: two thread-local stores, two global loads (one
 * cache line, read-mostly), three predictable branches, no atomic RMW.
 *
 * Misuse checks sit on the branches a correct outermost lock/unlock never
 * takes, so they cost nothing on the fast path: an unregistered thread has
 * nesting depth URCU_GP_NEST_MASK (the initial TLS value), which the nested
 * branch catches; an unlock at depth 0 is caught the same way.
 */
#ifndef URCU_I_FLAVOR
#error "urcu/static/urcu-reader.h is included by the flavor headers only"
#endif
#ifndef URCU_I_READER_MAY_FENCE
#error "the including flavor header must define URCU_I_READER_MAY_FENCE"
#endif

/*
 * Two steps of the fast paths are macros, so that a test-only variant of
 * this template, kept with the library's test seams in liburcu/src and never
 * installed, can change them without a copy of the rest: the fenced
 * reader's fence after publishing its word, and the word a nested unlock
 * stores.
 */
#ifndef URCU_I_READER_PUBLISH_FENCE
# define URCU_I_READER_PUBLISH_FENCE()	cmm_smp_mb()
#endif
#ifndef URCU_I_READER_NESTED_EXIT
# define URCU_I_READER_NESTED_EXIT(t)	((t) - URCU_GP_COUNT)
#endif

#ifdef __cplusplus
extern "C" {
#endif

URCU_API extern struct urcu_i_gp URCU_I_FLAVOR(i_gp);
URCU_API extern __thread struct urcu_i_reader URCU_I_FLAVOR(i_reader) URCU_I_TLS_MODEL;

/* Out of line: unregistered thread (bp: registers), nesting overflow. */
URCU_API void URCU_I_FLAVOR(i_read_lock_slow)(void);
/* Out of line: unlock without lock, unregistered thread. */
URCU_API void URCU_I_FLAVOR(i_read_unlock_misuse)(void);
/* Out of line: reader fence needed and/or an updater sleeps. */
URCU_API void URCU_I_FLAVOR(i_read_unlock_slow)(void);

static inline void URCU_I_FLAVOR(i_read_lock)(void)
{
	struct urcu_i_reader *r = &URCU_I_FLAVOR(i_reader);
	unsigned long t = r->ctr;

	cmm_barrier();
	if (caa_likely(!(t & URCU_GP_NEST_MASK))) {
		unsigned long g = CMM_LOAD_SHARED(URCU_I_FLAVOR(i_gp).ctr);

		/*
		 * Publish "in a critical section since sequence g".  Release:
		 * a grace period that reads this snapshot (skipping the 0 of
		 * our previous unlock) must also see that previous critical
		 * section finished; pairs with the acquire load in the
		 * updater's reader scan.  A plain store on x86.
		 */
		uatomic_store(&r->ctr, g, CMM_RELEASE);
		if (URCU_I_READER_MAY_FENCE && caa_unlikely(g & URCU_GP_FENCE)) {
			/*
			 * No membarrier(2): order the store above before the
			 * critical section's loads ourselves; pairs with the
			 * updater's fence before its reader scan.
			 */
			URCU_I_READER_PUBLISH_FENCE();
		}
	} else if (caa_unlikely((t & URCU_GP_NEST_MASK) >= URCU_GP_NEST_MASK - 1)) {
		URCU_I_FLAVOR(i_read_lock_slow)();
	} else {
		/* Nested: only this thread reads the depth meaningfully. */
		uatomic_store(&r->ctr, t + URCU_GP_COUNT, CMM_RELAXED);
	}
	/* Keep the critical section's accesses after the announcement. */
	cmm_barrier();
}

static inline void URCU_I_FLAVOR(i_read_unlock)(void)
{
	struct urcu_i_reader *r = &URCU_I_FLAVOR(i_reader);
	unsigned long t;

	/* Keep the critical section's accesses before the exit. */
	cmm_barrier();
	t = r->ctr;
	if (caa_likely((t & URCU_GP_NEST_MASK) == URCU_GP_COUNT)) {
		/*
		 * Release: the critical section's loads complete before an
		 * updater can see us idle; pairs with its acquire scan load.
		 */
		uatomic_store(&r->ctr, 0UL, CMM_RELEASE);
		cmm_barrier();
		/*
		 * Store-then-load of the global word: ordered by the
		 * updater's membarrier(2)/signal round after it sets
		 * URCU_GP_WAITER, or by the fence in the slow path.
		 */
		if (caa_unlikely(CMM_LOAD_SHARED(URCU_I_FLAVOR(i_gp).ctr)
				& ((URCU_I_READER_MAY_FENCE ? URCU_GP_FENCE : 0)
				   | URCU_GP_WAITER)))
			URCU_I_FLAVOR(i_read_unlock_slow)();
	} else if (caa_unlikely((t & URCU_GP_NEST_MASK) - 1 >= URCU_GP_NEST_MASK - 1)) {
		/* Depth 0 (unbalanced) or URCU_GP_NEST_MASK (unregistered). */
		URCU_I_FLAVOR(i_read_unlock_misuse)();
	} else {
		uatomic_store(&r->ctr, URCU_I_READER_NESTED_EXIT(t), CMM_RELAXED);
	}
	/*
	 * No trailing compiler barrier: letting later accesses move into the
	 * critical section is harmless, and without it the out-of-line
	 * version's slow-path calls are tail calls (no stack frame).
	 */
}

static inline int URCU_I_FLAVOR(i_read_ongoing)(void)
{
	unsigned long nest = URCU_I_FLAVOR(i_reader).ctr & URCU_GP_NEST_MASK;

	return nest != 0 && nest != URCU_READER_UNREGISTERED;
}

#ifdef __cplusplus
}
#endif
