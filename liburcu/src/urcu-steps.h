// SPDX-License-Identifier: MIT
/*
 * The named steps that a seeded bug replaces.  Internal: never installed.
 *
 * A step is one operation of the algorithm: the source that runs it writes
 * URCU_I_STEP_<NAME>(...), and this header defines it as the correct code.
 * A build that selects a seed (urcu-seams.h: URCU_I_SEEDED(NAME) is 1 there,
 * 0 everywhere else) gets the seed's wrong version of the steps it names.
 * The choice is an ordinary branch on that constant, so every build
 * compiles and type-checks both versions and the compiler drops the one not
 * taken (gcc and clang do so even at -O0): a production library's machine
 * code is the code written here, as if it stood in place (objdump -d of
 * every production library compared when the steps were named).  The
 * sources that call the steps name no seed; the seeds are listed here, one
 * per step, and in tests/seeded/catalogue.txt.
 *
 * The installed read-side template does the same for its inline fast path
 * (URCU_I_READER_PUBLISH_FENCE, URCU_I_READER_NESTED_EXIT); their seeded
 * versions live in seeded/urcu/static/urcu-reader.h, which only seeded
 * builds see.
 *
 * A step takes as arguments what it touches that belongs to its caller's
 * file (file-static state, a call of a static function): a step that a
 * seed removes outright takes the call itself.  Data and functions that
 * only a seed uses are declared here and defined in seeded/seed-data.c,
 * under #if URCU_I_SEEDED(NAME), a unit that only -Dseeded_bug builds
 * compile, so that no other library carries them.
 *
 * Expanded only in the per-flavor sources (URCU_FN), whose own includes
 * provide what the steps' code uses (urcu/uatomic.h, urcu-internal.h).
 */
#ifndef URCU_SRC_URCU_STEPS_H
#define URCU_SRC_URCU_STEPS_H

#include <stddef.h>

#include "urcu-seams.h"

/* ---- the hash table (rculfhash-table.c, liburcu-cds: no flavor) ---------- */

/*
 * cds_lfht_destroy() of an auto-resize table: queue the destroy for the
 * background thread, which frees the table after the resize of it in
 * progress, and return (rculfhash-worker.c, R3: ht is not touched after).
 *
 * lfht-destroy-hang: the destroy waits for the thread to say that the
 * table is freed, a handshake whose signal the thread never sends (a lost
 * wake-up): cds_lfht_destroy never returns.  It sleeps on a word of its
 * own stack, which nothing else knows.
 */
#define URCU_I_STEP_LFHT_DESTROY_QUEUE(ht)				\
	do {								\
		urcu_i_lfht_queue_work((ht), LFHT_WORK_DESTROY);	\
		if (URCU_I_SEEDED(LFHT_DESTROY_HANG)) {			\
			int32_t freed_ack = 0;				\
									\
			for (;;)					\
				urcu_common_futex_wait(&freed_ack, 0);	\
		}							\
	} while (0)

/*
 * The rest is per flavor: the hash table's sources (which define
 * URCU_I_STEPS_NO_FLAVOR) stop here.
 */
#ifndef URCU_I_STEPS_NO_FLAVOR
#include "flavor.h"

/* ---- the grace-period engine (urcu-gp.c) ---------------------------------- */

/*
 * Number the grace period: s->started += 1 (s: urcu-gp.c's gp_state).
 * Relaxed: only the leader writes it, under the registry lock; a caller
 * reads it after its own full fence (gp_target()), and B1 follows.
 *
 * done-before-scan: publishes s->done += 1 here as well, so that callers
 * waiting for this grace period return before its scan begins (release, as
 * URCU_I_STEP_PUBLISH_DONE's below, which this seed then leaves out).
 */
#define URCU_I_STEP_NUMBER_GP(s)						\
	do {								\
		uatomic_store(&(s)->started, (s)->started + 1, CMM_RELAXED); \
		if (URCU_I_SEEDED(DONE_BEFORE_SCAN))			\
			uatomic_store(&(s)->done, (s)->done + 1, CMM_RELEASE); \
	} while (0)

/*
 * B1 of the proof sketch: force order on every reader (urcu-order.c; its
 * membarrier, signal round or fence pairs with the readers' word stores).
 *
 * order-updater: no B1, so a reader's word store may pass the scan (the
 * proof's case (a) is lost).
 */
#define URCU_I_STEP_B1()						\
	do {								\
		if (!URCU_I_SEEDED(ORDER_UPDATER))			\
			URCU_FN(i_force_order)();			\
	} while (0)

/*
 * F: flip, gp.ctr += URCU_GP_SEQ_STEP.  A plain store: only the leader
 * writes gp.ctr, under the registry lock; B1 before it and the readers'
 * own ordering make the proof's argument, not this store.
 *
 * no-flip: no flip, so every reader already carries the sequence the scan
 * compares with and none is waited for.
 */
#define URCU_I_STEP_FLIP()						\
	do {								\
		if (!URCU_I_SEEDED(NO_FLIP))				\
			CMM_STORE_SHARED(URCU_FN(i_gp).ctr,		\
					URCU_FN(i_gp).ctr + URCU_GP_SEQ_STEP); \
	} while (0)

/* stale-snapshot: the snapshot and its lookup (seed-data.c). */
struct urcu_i_reader;
void URCU_FN(i_seed_snapshot)(void);
int URCU_FN(i_seed_snapshot_idle)(const struct urcu_i_reader *r);

/*
 * Before B1 and the flip, registry lock held: nothing.  The scan reads the
 * reader words after the flip (S, below), never before.
 *
 * stale-snapshot: reads every registered reader's word once, here, and
 * remembers the readers it found idle; S then trusts that view.
 */
#define URCU_I_STEP_PRE_FLIP()						\
	do {								\
		if (URCU_I_SEEDED(STALE_SNAPSHOT))			\
			URCU_FN(i_seed_snapshot)();			\
	} while (0)

/*
 * S: the scan's load of reader r's word, registry lock held.  Acquire:
 * pairs with the release stores of read_unlock, read_lock and
 * quiescent_state, so that the reader's critical section is over before
 * the grace period moves on (reader_done()).
 *
 * skip-reader: the second-oldest registered reader reads as idle, whatever
 * it does.  The registry list is newest first and never reordered, so that
 * reader is the one whose older neighbour is the last entry.
 *
 * stale-snapshot: a reader that URCU_I_STEP_PRE_FLIP's snapshot found idle
 * reads as idle, never re-read: the snapshot was taken before B1, so a
 * reader whose word store was still in its CPU's store buffer then (its
 * section's loads already done) is never waited for.  Readers found busy
 * are read again, as S does, so the grace period still ends.
 */
#define URCU_I_STEP_SCAN_LOAD(r)					\
	((URCU_I_SEEDED(SKIP_READER)					\
	  && (r)->node.next != &URCU_FN(i_registry).readers		\
	  && (r)->node.next->next == &URCU_FN(i_registry).readers)	\
	 || (URCU_I_SEEDED(STALE_SNAPSHOT)				\
	     && URCU_FN(i_seed_snapshot_idle)(r))			\
	 ? 0UL : uatomic_load(&(r)->ctr, CMM_ACQUIRE))

/*
 * The grace period is over: s->done += 1.  Release: the critical sections
 * the scan waited for (ordered before us by its acquire loads) happen
 * before anyone sees this grace period done; pairs with the acquire load
 * of done in gp_done().
 *
 * done-before-scan: already published by URCU_I_STEP_NUMBER_GP.
 */
#define URCU_I_STEP_PUBLISH_DONE(s)					\
	do {								\
		if (!URCU_I_SEEDED(DONE_BEFORE_SCAN))			\
			uatomic_store(&(s)->done, (s)->done + 1, CMM_RELEASE); \
	} while (0)

/*
 * The grace period is over: the phase hook's GP_END boundary, at which the
 * stall watch counts it in the statistics (i_watch_end, urcu-stall.c:
 * completed, the histogram, wait_ns_total).
 *
 * gp-stats-double: the statistics count it twice (urcutorture's
 * completed_max check: more grace periods ended than flipped the word).
 */
#define URCU_I_STEP_GP_END()						\
	do {								\
		URCU_I_GP_PHASE(GP_END);				\
		if (URCU_I_SEEDED(GP_STATS_DOUBLE))			\
			URCU_FN(i_watch_end)();				\
	} while (0)

/*
 * A synchronize_rcu() that found no reader: counted in the statistics as a
 * grace period of 0 ns (i_watch_no_reader, urcu-stall.c).
 *
 * gp-stats-double: counted twice, as every other grace period.
 */
#define URCU_I_STEP_NO_READER_GP()					\
	do {								\
		URCU_FN(i_watch_no_reader)();				\
		if (URCU_I_SEEDED(GP_STATS_DOUBLE))			\
			URCU_FN(i_watch_no_reader)();			\
	} while (0)

/*
 * synchronize_rcu()'s wait for its grace period: the call given.
 *
 * skip-wait: synchronize_rcu returns without waiting for readers.
 */
#define URCU_I_STEP_SYNC_WAIT(wait)					\
	do {								\
		if (!URCU_I_SEEDED(SKIP_WAIT))				\
			wait;						\
	} while (0)

/*
 * The grace period a poll cookie stands for: the cookie itself.
 *
 * early-poll: the one before, so poll_state_synchronize_rcu() reports a
 * cookie complete one grace period early.
 */
#define URCU_I_STEP_POLL_TARGET(cookie)					\
	(URCU_I_SEEDED(EARLY_POLL) ? (cookie) - 1 : (cookie))

/* ---- registration and the read side's slow paths (urcu-reader.c) ---------- */

/*
 * do_register(): link reader r into the registry list head, where the
 * scan (urcu-gp.c) and the signal round (urcu-order.c) find it; registry
 * lock held.  lazy: an implicit registration (read_lock on a thread that is
 * not registered).
 *
 * implicit-unlinked: a memb, mb or signal thread registered implicitly is
 * marked registered (word 0, counted) but left out of the list: no grace
 * period waits for it.  Its node points to itself, so that unregistering
 * it (cds_list_del) is harmless.
 */
#define URCU_I_STEP_LINK(r, head, lazy)					\
	do {								\
		if (URCU_I_SEEDED(IMPLICIT_UNLINKED) && (lazy)		\
		    && !URCU_FLAVOR_IS_BP)				\
			CDS_INIT_LIST_HEAD(&(r)->node);			\
		else							\
			cds_list_add(&(r)->node, head);			\
	} while (0)

/*
 * unregister_thread() inside a read-side section (memb, mb, signal, bp):
 * keep reader r registered, implicitly, until the thread exits or
 * unregisters outside a section, so that the section stays protected.
 * 1: deferred, the caller returns.
 *
 * unregister-in-section: 0, the caller unregisters at once, and grace
 * periods stop waiting for the section it is in.
 */
#define URCU_I_STEP_DEFER_UNREGISTER(r)					\
	(URCU_I_SEEDED(UNREGISTER_IN_SECTION) ? 0 : ((r)->lazy = 1, 1))

/*
 * qsbr, thread_online(): publish a snapshot of gp.ctr in reader r's word.
 * Relaxed: the full fence that follows in thread_online() orders it before
 * the read side's loads (and pairs with B1).
 *
 * qsbr-unpublished: no snapshot, so a thread coming back online stays
 * invisible to grace periods (registration still publishes: below).
 */
#define URCU_I_STEP_ONLINE_PUBLISH(r)					\
	do {								\
		if (!URCU_I_SEEDED(QSBR_UNPUBLISHED))			\
			uatomic_store(&(r)->ctr,			\
				CMM_LOAD_SHARED(URCU_FN(i_gp).ctr), CMM_RELAXED); \
	} while (0)

/*
 * qsbr, register_thread(): bring the new reader r online.
 *
 * qsbr-unpublished: registration publishes the snapshot itself, as
 * thread_online() should, so that only a thread going offline and back is
 * missed.  Full fence: as thread_online()'s, the snapshot before the read
 * side's loads; pairs with B1.
 */
#define URCU_I_STEP_REGISTER_ONLINE(r)					\
	do {								\
		URCU_FN(thread_online)();				\
		if (URCU_I_SEEDED(QSBR_UNPUBLISHED)) {			\
			uatomic_store(&(r)->ctr,			\
				CMM_LOAD_SHARED(URCU_FN(i_gp).ctr), CMM_RELAXED); \
			cmm_smp_mb();					\
		}							\
	} while (0)

/*
 * do_register(): take / release the registry lock around linking reader r
 * into the registry (the list, its gen and count), which grace periods
 * scan and other threads (un)register under the same lock.
 *
 * bp-register-unlocked: bp links its record without the lock, so two
 * registrations at once (or one beside an unregistration or a scan) may
 * lose a record or corrupt the list.
 */
#define URCU_I_STEP_REGISTER_LOCK(lock)					\
	do {								\
		if (!(URCU_I_SEEDED(BP_REGISTER_UNLOCKED) && URCU_FLAVOR_IS_BP)) \
			URCU_FN(i_lock)(lock);				\
	} while (0)
#define URCU_I_STEP_REGISTER_UNLOCK(lock)				\
	do {								\
		if (!(URCU_I_SEEDED(BP_REGISTER_UNLOCKED) && URCU_FLAVOR_IS_BP)) \
			URCU_FN(i_unlock)(lock);			\
	} while (0)

/*
 * bp-register-race, implicit-first-unordered: the thread is in its
 * unpublished first section.
 */
extern __thread int URCU_FN(i_seed_first_unpublished);

/*
 * Whether the section that registers the thread lazily is left unpublished
 * (the two seeds below); a constant.
 */
#define URCU_I_SEED_LAZY_UNPUBLISHED					\
	(URCU_I_SEEDED(BP_REGISTER_RACE)				\
	 || (URCU_I_SEEDED(IMPLICIT_FIRST_UNORDERED) && !URCU_FLAVOR_IS_BP))

/*
 * i_read_lock_slow(), once the thread is registered lazily: enter the
 * section that registered it, published like any other (the inline
 * read_lock: its word store, then the fenced reader's fence, which orders
 * that store before the section's loads and pairs with B1 before the scan).
 *
 * bp-register-race: that first section is never published (grace periods
 * do not wait for it); URCU_I_STEP_UNCOUNTED_UNLOCK ends it.
 *
 * implicit-first-unordered: the same in memb, mb and signal, for the
 * section that registers a thread implicitly.  It stands for that
 * section's word store made without the ordering of the normal path, at
 * the limit of what the reordering allows: the store passes every load of
 * the section (it cannot pass the unlock's store to the same word), so no
 * grace period sees the section.  Removing the fence alone cannot be
 * caught on x86-64: the registry lock's release (a locked instruction)
 * has just drained the store buffer and left the word's line owned, so the
 * store lands before any grace period could take the lock and scan
 * (docs/TORTURE-SEEDED.md, the seed's note).
 */
#define URCU_I_STEP_LAZY_LOCK()						\
	do {								\
		if (URCU_I_SEED_LAZY_UNPUBLISHED)			\
			URCU_FN(i_seed_first_unpublished) = 1;		\
		else							\
			URCU_FN(i_read_lock)();				\
	} while (0)

/*
 * i_read_unlock_misuse(): 1 when an unlock at depth nest ends a section
 * that URCU_I_STEP_LAZY_LOCK entered without counting it, else 0.  Always
 * 0: that step counts every section it enters.
 *
 * bp-register-race, implicit-first-unordered: the unlock of the
 * unpublished first section.
 */
#define URCU_I_STEP_UNCOUNTED_UNLOCK(nest)				\
	(URCU_I_SEED_LAZY_UNPUBLISHED && (nest) == 0			\
	 && URCU_FN(i_seed_first_unpublished)				\
	 ? (URCU_FN(i_seed_first_unpublished) = 0, 1) : 0)

/* ---- call_rcu workers and rcu_barrier (call-rcu-workers.c, call-rcu.c) ---- */

/*
 * worker_run_batch(): one grace period for the whole batch, before any of
 * its callbacks runs (synchronize_rcu: a full barrier on both sides).
 *
 * cb-before-gp: none, the batch's callbacks run without a grace period.
 */
#define URCU_I_STEP_BATCH_GP()						\
	do {								\
		if (!URCU_I_SEEDED(CB_BEFORE_GP))			\
			URCU_FN(synchronize_rcu)();			\
	} while (0)

/*
 * worker_run_batch(): invoke callback head, the worker's invoked-th.
 *
 * lost-callback: one callback in 4096 is dropped (counted as invoked,
 * never run).
 */
#define URCU_I_STEP_INVOKE(head, invoked)				\
	do {								\
		if (!URCU_I_SEEDED(LOST_CALLBACK) || ((invoked) & 4095) != 4095) \
			(head)->func(head);				\
	} while (0)

/* early-barrier: a zeroed block of size bytes, never freed (seed-data.c). */
void *URCU_FN(i_seed_leak)(size_t size);

/*
 * rcu_barrier(): the completion a barrier callback counts down, done (on
 * rcu_barrier's stack).
 *
 * early-barrier: a zeroed one leaked for the callback, which runs after
 * rcu_barrier returned (URCU_I_STEP_BARRIER_WAIT) and must not touch its
 * stack; counted down from 0, it never wakes anybody.
 */
#define URCU_I_STEP_BARRIER_COMPLETION(done)				\
	(URCU_I_SEEDED(EARLY_BARRIER)					\
	 ? (__typeof__(done)) URCU_FN(i_seed_leak)(sizeof(*(done)))	\
	 : (done))

/*
 * rcu_barrier(): wait until every barrier callback ran, then free their
 * heads: the call given.
 *
 * early-barrier: no wait, rcu_barrier returns before the callbacks queued
 * before it ran; the heads are leaked, as those callbacks still use them.
 */
#define URCU_I_STEP_BARRIER_WAIT(wait)					\
	do {								\
		if (!URCU_I_SEEDED(EARLY_BARRIER))			\
			wait;						\
	} while (0)

/* ---- defer_rcu (defer.c) -------------------------------------------------- */

/*
 * The deferred functions' batch: one grace period before any of them runs.
 *
 * defer-no-gp: none, deferred functions run without a grace period.
 */
#define URCU_I_STEP_DEFER_GP()						\
	do {								\
		if (!URCU_I_SEEDED(DEFER_NO_GP))			\
			URCU_FN(synchronize_rcu)();			\
	} while (0)

#endif /* !URCU_I_STEPS_NO_FLAVOR */

#endif /* URCU_SRC_URCU_STEPS_H */
