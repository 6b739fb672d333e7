// SPDX-License-Identifier: MIT
/*
 * The grace-period engine, compiled once per flavor.
 *
 * State
 * -----
 * gp.ctr (global word) = sequence | flags | URCU_GP_COUNT.  A reader's
 * outermost read_lock copies it into its own word (urcu-gp.h has the
 * layout); qsbr readers copy it at each quiescent state.  One grace period
 * adds URCU_GP_SEQ_STEP once ("flips").  Only the grace-period leader writes
 * gp.ctr, under the registry lock.
 *
 * started / done count grace periods begun / completed.  A caller that
 * reads started == s needs grace period s + 1 to complete: grace period s,
 * if running, may already have scanned past the caller's readers.
 *
 * Proof sketch (one flip per grace period, 64-bit)
 * ------------------------------------------------
 * Let U remove an element, then call synchronize_rcu: U's fence orders the
 * removal before its read of started, so the grace period G we wait for
 * begins (B1, below) after the removal is visible.  G does:
 *
 *   B1  force order: membarrier(2) (memb, bp), a signal round in which every
 *       reader runs a full fence (signal), or a full fence because readers
 *       fence themselves (mb, qsbr, and memb/bp without membarrier);
 *   F   flip: gp.ctr += STEP, giving the new value g;
 *   S   scan: wait until every registered reader's word is idle (nesting 0)
 *       or carries g's sequence, reading each word with acquire.
 *
 * Take a reader R whose critical section C could hold the removed element.
 * (a) If R's outermost read_lock is program-ordered before the point P at
 *     which B1 executed a full fence on R's CPU, R loaded gp.ctr before F
 *     (F follows B1's return), so its word carries an older sequence, and
 *     its store is visible when B1 returns: S waits until R's word changes.
 *     R changes it only by unlocking (release store of 0) or by locking again
 *     (release store of a newer snapshot) after unlocking; S's acquire load
 *     of either value orders all of C before the end of G.
 * (b) If R's read_lock is after P, every load in C is after P, and the
 *     removal is before B1, so C cannot find the removed element.
 * For fenced readers, (a)/(b) is the store-buffering pattern between R's
 * "store word; fence; load element" and G's "removal; fence; load word".
 * A sequence seen in S equal to g's therefore always belongs to a reader of
 * case (b), which is why S does not wait for it, and why one flip suffices
 * unless the sequence wraps while a reader sits between loading gp.ctr and
 * storing its snapshot: 2^46 grace periods on 64-bit.  On 32-bit, where the
 * sequence has 14 bits, each grace period flips twice and scans after each
 * flip, the classic two-phase argument that needs no wrap assumption.
 *
 * Ending: G's release store of done pairs with the acquire load of done in
 * callers and in poll_state_synchronize_rcu(), so the caller's frees happen
 * after every critical section S waited for.
 *
 * The numbering store, B1, F, S's load, the store of done and the
 * statistics' count of a grace period (GP_END, NO_READER_GP) are named
 * steps, URCU_I_STEP_* (urcu-steps.h), each the code described here; a
 * test-only seeded build swaps one for a known bug.  One more step,
 * PRE_FLIP before B1, is empty: no word is read before F (a word read
 * before B1 is exactly what (a) cannot vouch for; the seed stale-snapshot
 * trusts one).  URCU_I_GP_PHASE marks
 * the boundaries between phases for the stall watch, the USDT probes and
 * the bench's phase trace (urcu-seams.h); it orders nothing.
 *
 * Sharing grace periods
 * ---------------------
 * Callers compute their target, then either find done >= target, or become
 * the leader (trylock) and run grace periods until done >= target, or sleep
 * on the epoch futex, which the leader bumps and wakes after releasing
 * leadership; a woken caller starts over.  The leader serves only itself:
 * callers that queued behind it are served by whichever of them takes the
 * lock next, so leadership passes from caller to caller.
 *
 * No lost wake-up: a caller reads epoch (acquire) before its trylock.  If
 * the trylock fails, the holder's release, and the epoch bump after it, come
 * after that read (had the read returned the bump, the acquire would order
 * the trylock after the release it follows, and the lock would have been
 * free), so epoch differs from the value read, and the futex wait returns
 * at once or is woken (the bump and the waiter count form a store-buffering
 * pair with the waiter's increment and the futex check).  Every caller whose
 * grace period is not done thus keeps retrying the lock as long as anyone
 * holds it, and takes it once nobody does: no caller depends on another to
 * run its grace period, and none sleeps for a fixed time.
 *
 * Bound: while the leader lock is free no grace period runs, so started ==
 * done; a caller's target is at most the started it read plus one, hence at
 * most done + 1 by the time it leads: a leader runs at most one grace
 * period, and never one numbered after its target.  A caller that arrives
 * while grace period s runs (its target at most s + 1) waits for the end of
 * s, then for s + 1, which the first caller to take the lock with its
 * target not done runs (started == done == s then, so its target is s + 1
 * and it runs no more), and whose release wakes the caller.  So
 * synchronize_rcu waits for at most the grace period in progress plus one,
 * plus the hand-off (the futex wake of the next leader), however callers
 * arrive.  Polled grace periods
 * (start_poll_synchronize_rcu) have no caller waiting: they raise
 * gp_state.requested and the helper thread (poll_thread) is the caller.
 *
 * No reader
 * ---------
 * A synchronize_rcu() that finds no thread registered returns without a
 * grace period (a thread that never registered calling it in a loop: the
 * cost of two fences and a counter, not of the leader and registry locks).
 * Its caller U: removal; fence; load registry count (acquire) == 0.  A
 * registering thread R: count += 1 (under the registry lock); fence; then
 * its critical sections' loads.  Store-buffering: either U's load sees R's
 * increment (U takes the full path) or R's sections see the removal.  A
 * thread registered before U's load that unregisters: its count -= 1 is a
 * release after its last section, so U's acquire load of 0 (of that store,
 * or of a later one under the registry lock, which the lock orders after
 * it) puts every section of R before U's return.  Counted in gp_stats as a
 * grace period of 0 ns (i_watch_no_reader).  A polled cookie that is not
 * done yet (requested > done) makes U take the full path, so that every
 * cookie taken before a synchronize_rcu() is complete when it returns.
 *
 * Waiting for readers
 * -------------------
 * S reads the reader words through a dense array of reader pointers that
 * the leader rebuilds from the registry list only when the registry
 * changed (scan_set), so that the loads of many words overlap; the readers
 * found busy are then rechecked alone.  memb and bp run B1 without the
 * registry lock (URCU_I_B1_UNLOCKED): the argument (a)/(b) above does not
 * need it, since a reader whose read_lock precedes B1's fence on its CPU
 * registered before that fence, hence before we relock to flip and scan.
 * The scan spins briefly (short critical sections end within microseconds),
 * then sets URCU_GP_WAITER in gp.ctr and gp.futex to -1, forces order again
 * (so a reader's idle store and its later check of the flag form a
 * store-buffering pair with the flag store and our rescan), rescans, and
 * sleeps on gp.futex with the registry lock released.  The first reader
 * that leaves its critical section with the flag set swaps gp.futex from -1
 * to 0 and wakes us.  The sleep is bounded by the next stall report's due
 * time (urcu-stall.c); a timeout only adds a rescan, as any wake-up does.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "urcu-internal.h"
#include "urcu-stall.h"
#include "probes.h"
/* The named steps (B1, F, S's load, ...) and the phase hook URCU_I_GP_PHASE. */
#include "urcu-steps.h"

/*
 * Rescans before sleeping: 1.5-2 us on the AMD Zen 4 guests here (one PAUSE
 * is ~30 ns there, ~40 ns on recent Intel, a few ns on older CPUs).  Long
 * enough for short critical sections on other CPUs; short, because when a
 * reader we wait for is preempted (more threads than CPUs) spinning only
 * keeps it off a CPU: urcutorture gp-latency qsbr (2 readers + 1 updater
 * on 2 CPUs) p50 was 9.6-10.6 us with 200 rescans, 7.1-7.9 with 100,
 * 5.8 with 50 (liburcu 0.13: 8.1-9.3).
 */
#define URCU_I_SPIN_LOOPS	50

#if CAA_BITS_PER_LONG == 64
# define URCU_I_FLIPS		1
#else
# define URCU_I_FLIPS		2
#endif

urcu_static_assert(URCU_GP_SEQ_SHIFT + 14 <= CAA_BITS_PER_LONG,
		"sequence field too narrow", seq_field_too_narrow);
urcu_static_assert((URCU_GP_NEST_MASK & (URCU_GP_FENCE | URCU_GP_WAITER)) == 0,
		"flags overlap the nesting field", flags_overlap_nesting);

URCU_API struct urcu_i_gp URCU_FN(i_gp) = {
	.ctr = URCU_GP_COUNT | URCU_FLAVOR_GP_INIT,
};

static struct {
	pthread_mutex_t leader_lock;	/* held by the thread running GPs */
	unsigned long started;		/* grace periods begun */
	unsigned long done;		/* grace periods completed */
	unsigned long requested;	/* highest polled target (cookie) */
	int32_t epoch;			/* futex: bumped at each leader release */
	int32_t nwaiters;		/* callers sleeping on epoch */
	/* Polled grace periods: a helper thread runs requested GPs. */
	pthread_mutex_t poll_lock;
	int poll_running;
	int poll_atfork_done;
	int32_t poll_futex;		/* -1: helper sleeps */
	/* A sleeping grace period waits for more readers than it flagged. */
	int wake_any;
} gp_state = {
	.leader_lock = PTHREAD_MUTEX_INITIALIZER,
	.poll_lock = PTHREAD_MUTEX_INITIALIZER,
};

void URCU_FN(i_lock)(pthread_mutex_t *m)
{
	int ret = pthread_mutex_lock(m);

	if (ret)
		urcu_common_die("pthread_mutex_lock", "%s", strerror(ret));
}

void URCU_FN(i_unlock)(pthread_mutex_t *m)
{
	int ret = pthread_mutex_unlock(m);

	if (ret)
		urcu_common_die("pthread_mutex_unlock", "%s", strerror(ret));
}

/* Wrap-safe "grace period number target has completed". */
static bool gp_done(unsigned long target)
{
	/*
	 * Acquire: pairs with the release store of done in run_one_gp(); what
	 * the grace period waited for happens before the caller goes on.
	 */
	unsigned long d = uatomic_load(&gp_state.done, CMM_ACQUIRE);

	return (long)(d - target) >= 0;
}

/* Raise requested to at least target (atomic maximum). */
static void request_gp(unsigned long target)
{
	unsigned long cur = uatomic_read(&gp_state.requested);

	while ((long)(target - cur) > 0) {
		/* Full barrier (value-returning RMW); see poll_kick(). */
		unsigned long old = uatomic_cmpxchg(&gp_state.requested, cur, target);

		if (old == cur)
			break;
		cur = old;
	}
}

/*
 * The leader's dense copy of the registry: an array of reader pointers,
 * rebuilt (under the registry lock) only when the registry's gen changed.
 * Scanning the list itself is a pointer chase through each thread's TLS
 * block, one cache miss after the other; the array lets the CPU issue the
 * loads of many reader words at once, which is what keeps the cost of
 * idle registered threads low (docs/PERFORMANCE.md, "Idle registered
 * threads and registration").
 * Touched only by the leader with the registry lock held.
 */
static struct scan_set {
	struct urcu_i_reader **r;
	size_t n, cap;
	unsigned long gen;
	bool valid;	/* r[0..n) mirrors the registry of generation gen */
	/* The first readers need no allocation (and nothing to free). */
	struct urcu_i_reader *inline_r[64];
} scan_set = {
	.r = scan_set.inline_r,
	.cap = 64,
};

/* Readers still in a critical section that a full pass remembers. */
#define URCU_I_BUSY_MAX		32

static bool reader_quiescent(unsigned long v, unsigned long g)
{
	return !(v & URCU_GP_NEST_MASK) || !((v ^ g) & URCU_GP_SEQ_MASK);
}

/*
 * Whether reader r has left every critical section that began before the
 * flip to g.  Acquire: pairs with the release stores of read_unlock,
 * read_lock and quiescent_state; the reader's critical section is over
 * before we move on.
 */
static bool reader_done(struct urcu_i_reader *r, unsigned long g)
{
	return reader_quiescent(URCU_I_STEP_SCAN_LOAD(r), g);
}

/* Bring scan_set up to date with the registry; false if out of memory. */
static bool scan_set_sync(struct urcu_i_registry *reg)
{
	struct urcu_i_reader *r;
	size_t n = 0;

	if (scan_set.valid && scan_set.gen == reg->gen)
		return true;
	scan_set.valid = false;
	cds_list_for_each_entry(r, &reg->readers, node)
		n++;
	if (n > scan_set.cap) {
		size_t cap = scan_set.cap;
		struct urcu_i_reader **p;

		while (cap < n)
			cap *= 2;
		p = malloc(cap * sizeof(*p));
		if (!p)
			return false;	/* the caller walks the list instead */
		if (scan_set.r != scan_set.inline_r)
			free(scan_set.r);
		scan_set.r = p;
		scan_set.cap = cap;
	}
	n = 0;
	cds_list_for_each_entry(r, &reg->readers, node)
		scan_set.r[n++] = r;
	scan_set.n = n;
	scan_set.gen = reg->gen;
	scan_set.valid = true;
	return true;
}

/*
 * reader_done(), and once the grace period has armed (set waited bytes),
 * clear the byte of a reader found done: we no longer wait for it, and a
 * byte left set would let every later exit of that reader wake us again.
 * Only the leader writes the bytes (see i_wake_updater_for()); the record
 * is registered (registry lock held since the pass that found it).
 */
static bool reader_done_clear(struct urcu_i_reader *r, unsigned long g, bool armed)
{
	if (!reader_done(r, g))
		return false;
	if (armed && CMM_LOAD_SHARED(r->waited))
		CMM_STORE_SHARED(r->waited, 0);
	return true;
}

/*
 * One pass over every registered reader.  Returns how many are still busy
 * (inside a critical section that began before the flip to g) and stores
 * the first URCU_I_BUSY_MAX of them in busy[].
 */
static size_t scan_all(struct urcu_i_reader **busy, unsigned long g, bool armed)
{
	struct urcu_i_registry *reg = &URCU_FN(i_registry);
	struct urcu_i_reader *r;
	size_t nbusy = 0;

	if (caa_likely(scan_set_sync(reg))) {
		/*
		 * No software prefetch: every word sits at the same offset of
		 * its thread's TLS page, hence in one L1 set, and those misses
		 * do not overlap however early they are asked for; prefetching
		 * 16 words ahead only added work (with 1024 idle threads, 3.8-4.4
		 * ns each with it, 3.3-3.7 without: docs/PERFORMANCE.md, "Idle
		 * registered threads and registration").
		 */
		for (size_t i = 0; i < scan_set.n; i++) {
			r = scan_set.r[i];
			if (!reader_done_clear(r, g, armed) && nbusy++ < URCU_I_BUSY_MAX)
				busy[nbusy - 1] = r;
		}
		return nbusy;
	}
	cds_list_for_each_entry(r, &reg->readers, node)
		if (!reader_done_clear(r, g, armed) && nbusy++ < URCU_I_BUSY_MAX)
			busy[nbusy - 1] = r;
	return nbusy;
}

/*
 * Check again the readers a pass found busy (the registry lock has been
 * held since that pass, so each record is still registered); a pass that
 * found more than busy[] holds is simply repeated.
 */
static size_t rescan_busy(struct urcu_i_reader **busy, size_t nbusy, unsigned long g,
		bool armed)
{
	size_t left = 0;

	if (nbusy > URCU_I_BUSY_MAX)
		return scan_all(busy, g, armed);
	for (size_t i = 0; i < nbusy; i++)
		if (!reader_done_clear(busy[i], g, armed))
			busy[left++] = busy[i];
	return left;
}

static void set_gp_flags(unsigned long set, unsigned long clear)
{
	unsigned long c = URCU_FN(i_gp).ctr;

	CMM_STORE_SHARED(URCU_FN(i_gp).ctr, (c | set) & ~clear);
}

/*
 * Sleep until a reader we wait for wakes us, or until the next stall report
 * is due (urcu-stall.c).  Called with the registry lock held; returns with
 * it held again.
 */
static void sleep_on_readers(void)
{
	struct urcu_i_registry *reg = &URCU_FN(i_registry);
	int64_t limit = URCU_FN(i_watch_sleep_ns)();

	URCU_FN(i_unlock)(&reg->lock);
	if (limit < 0)
		urcu_common_futex_wait(&URCU_FN(i_gp).futex, -1);
	else if (limit > 0)
		urcu_common_futex_wait_ns(&URCU_FN(i_gp).futex, -1, (uint64_t) limit);
	URCU_FN(i_lock)(&reg->lock);
}

/* Called with the registry lock held; may drop it while sleeping. */
static void wait_for_readers(unsigned long g)
{
	struct urcu_i_reader *busy[URCU_I_BUSY_MAX];
	size_t nbusy = scan_all(busy, g, false);
	unsigned int loops = 0;
	bool armed = false;

	while (nbusy) {
		if (loops++ < URCU_I_SPIN_LOOPS) {
			caa_cpu_relax();
			nbusy = rescan_busy(busy, nbusy, g, false);
			continue;
		}
		URCU_I_GP_PHASE(SCANNED, armed);
		if (!armed) {
			set_gp_flags(URCU_GP_WAITER, 0);
			armed = true;
		}
		/*
		 * Only the readers we wait for may wake us: with URCU_GP_WAITER
		 * set, every reader leaving a critical section takes the slow
		 * path, and one that began its section after our flip would
		 * otherwise wake us for nothing, again and again, each time we
		 * re-arm (a busy loop of membarriers that also kept the CPU
		 * from a preempted reader we do wait for: callbacks delayed by
		 * milliseconds when the enqueuer, in its critical section, was
		 * preempted by the worker it woke).
		 */
		for (size_t i = 0; i < nbusy && i < URCU_I_BUSY_MAX; i++)
			CMM_STORE_SHARED(busy[i]->waited, 1);
		if (nbusy > URCU_I_BUSY_MAX)
			uatomic_set(&gp_state.wake_any, 1);
		uatomic_set(&URCU_FN(i_gp).futex, -1);
		/*
		 * Order the flag, waited and futex stores before our rescan
		 * against readers' idle stores before their flag checks;
		 * pairs with the reader side of i_read_unlock_slow /
		 * quiescent_state / thread_offline (i_wake_updater_for).
		 */
		URCU_FN(i_force_order)();
		nbusy = rescan_busy(busy, nbusy, g, true);
		URCU_I_GP_PHASE(ARMED);
		if (!nbusy)
			break;
		URCU_I_GP_PHASE(SLEEP, gp_state.started, nbusy);
		sleep_on_readers();
		/* A stall report, if one is due, drops the registry lock around it. */
		URCU_I_GP_PHASE(WOKEN, g);
		/*
		 * The registry may have changed while unlocked (busy[] may
		 * hold records of threads gone): a full pass.  A reader seen
		 * quiescent before that now holds an old snapshot stored its
		 * word after B1's fence on its CPU (else the first pass would
		 * have seen it), so it is case (b) of the proof; waiting for
		 * it is unnecessary but harmless.
		 */
		nbusy = scan_all(busy, g, true);
	}
	URCU_I_GP_PHASE(SCANNED, armed);
	if (armed) {
		set_gp_flags(0, URCU_GP_WAITER);
		/*
		 * No waited byte is left set: bytes are set only on busy[],
		 * and the armed pass that ended the loop found each of them
		 * done (reader_done_clear) or its thread gone.  Relaxed: a
		 * stale wake_any only costs a useless wake-up.
		 */
		uatomic_set(&gp_state.wake_any, 0);
	}
}

/*
 * membarrier(2) takes the time of a cross-CPU interrupt (~10 us in a VM):
 * memb and bp run it without the registry lock, so that threads can
 * register and unregister during back-to-back grace periods instead of
 * waiting for the one moment between two of them (an unfair mutex hardly
 * ever hands over there).  The signal round walks the registry and must
 * hold the lock; a fence is not worth an unlock/lock pair.
 */
#if URCU_FLAVOR_ORDER == URCU_ORDER_MEMBARRIER
# define URCU_I_B1_UNLOCKED	1
#else
# define URCU_I_B1_UNLOCKED	0
#endif

/* Run one complete grace period; called with the leader lock held. */
static void run_one_gp(void)
{
	struct urcu_i_registry *reg = &URCU_FN(i_registry);
	int flip;

	URCU_FN(i_lock)(&reg->lock);
	/*
	 * Number the grace period (started += 1) before forcing order: a
	 * caller that read the old count has its removal ordered before B1
	 * (its fence, then our store here, then B1).
	 */
	URCU_I_STEP_NUMBER_GP(&gp_state);
	URCU_I_GP_PHASE(GP_START, gp_state.started);
	if (cds_list_empty(&reg->readers)) {
		/*
		 * No reader, no flip: a thread registering later takes the
		 * registry lock after our unlock.  Full fence: orders our
		 * store of started before that unlock, so that a caller's
		 * removal (its fence, then its read of the old started)
		 * is visible to the registrant (store-buffering pair with
		 * the fence in gp_target()).
		 */
		cmm_smp_mb();
		goto unlock;
	}
	for (flip = 0; flip < URCU_I_FLIPS; flip++) {
		/*
		 * B1: see the proof sketch at the top of this file.  Without
		 * the registry lock (memb, bp), a thread may register meanwhile:
		 * if its read_lock precedes B1's fence on its CPU, its
		 * registration preceded that too, so it is in the registry
		 * when we relock and scan (case (a)); otherwise it is case (b).
		 * A thread may also unregister: we hold no record meanwhile.
		 */
		URCU_I_STEP_PRE_FLIP();
#if URCU_I_B1_UNLOCKED
		URCU_FN(i_unlock)(&reg->lock);
#endif
		URCU_I_STEP_B1();
#if URCU_I_B1_UNLOCKED
		URCU_FN(i_lock)(&reg->lock);
#endif
		URCU_I_GP_PHASE(ORDERED);
		/* F: gp.ctr += URCU_GP_SEQ_STEP, then S. */
		URCU_I_STEP_FLIP();
		URCU_I_GP_PHASE(FLIPPED);
		wait_for_readers(URCU_FN(i_gp).ctr);
	}
unlock:
	URCU_FN(i_unlock)(&reg->lock);
	/*
	 * done += 1, release: the readers' critical sections (ordered before
	 * us by the acquire scan loads) happen before anyone sees this grace
	 * period done; pairs with the acquire load in gp_done().
	 */
	URCU_I_STEP_PUBLISH_DONE(&gp_state);
	URCU_I_STEP_GP_END();
}

/* Wait until grace period number target has completed. */
static void wait_for_gp(unsigned long target)
{
	URCU_I_GP_PHASE(GP_WAIT);
	for (;;) {
		/*
		 * Acquire: read epoch before trying for leadership, so a
		 * release we race with changes it and our wait returns.
		 */
		int32_t epoch = uatomic_load(&gp_state.epoch, CMM_ACQUIRE);

		if (gp_done(target))
			return;
		if (pthread_mutex_trylock(&gp_state.leader_lock) == 0) {
			URCU_I_GP_PHASE(LEADER);
			/*
			 * At most one grace period: none was running when we
			 * took the lock, so started == done, and target is at
			 * most the started we read plus one.  Callers that
			 * queued behind us are not served here: each retries
			 * after our epoch bump below and the first whose target
			 * is not done leads ("Sharing grace periods").
			 */
			while (!gp_done(target))
				run_one_gp();
			URCU_FN(i_unlock)(&gp_state.leader_lock);
			/*
			 * Full barrier: epoch bump before the waiter count
			 * check; pairs with the waiters' increment before
			 * their futex wait (store-buffering pair).
			 */
			(void) uatomic_add_return(&gp_state.epoch, 1);
			if (uatomic_read(&gp_state.nwaiters))
				urcu_common_futex_wake(&gp_state.epoch, INT_MAX);
			URCU_I_GP_PHASE(LEADER_DONE);
			return;
		}
		/* Full barrier: pairs with the leader's epoch bump above. */
		(void) uatomic_add_return(&gp_state.nwaiters, 1);
		urcu_common_futex_wait(&gp_state.epoch, epoch);
		/*
		 * Full barrier, though none is needed for correctness: the
		 * count only tells the leader whether to issue a futex wake,
		 * and a stale non-zero count costs one useless wake.  The
		 * epoch re-read at the top (acquire) orders what follows.
		 */
		(void) uatomic_sub_return(&gp_state.nwaiters, 1);
		URCU_I_GP_PHASE(FOLLOWER_WOKEN);
	}
}

/*
 * synchronize_rcu()'s target: gp_target(), or 0 when no thread is
 * registered and no grace period is needed ("No reader" above).
 */
static unsigned long sync_target(void)
{
	/*
	 * Full fence: the caller's removal before the count's load (pairs
	 * with the fence after the increment in do_register(),
	 * store-buffering) and before started's (as in gp_target()).
	 */
	cmm_smp_mb();
	/*
	 * Acquire: pairs with the release decrement in do_unregister().  A
	 * polled cookie still pending (requested not done) takes the full
	 * path: a synchronize_rcu() completes every cookie taken before it.
	 */
	if (!uatomic_load(&URCU_FN(i_registry).count, CMM_ACQUIRE)
			&& gp_done(uatomic_read(&gp_state.requested)))
		return 0;
	return uatomic_read(&gp_state.started) + 1;
}

/* The grace period a caller arriving now needs. */
static unsigned long gp_target(void)
{
	/*
	 * Full fence: the caller's earlier accesses (the removal) are
	 * ordered before our read of started; pairs with B1 in run_one_gp(),
	 * which follows the store that would have changed what we read.
	 */
	cmm_smp_mb();
	return uatomic_read(&gp_state.started) + 1;
}

/*
 * synchronize_rcu: returns after every read-side critical section (qsbr:
 * every online period without a quiescent state) that began before the call
 * has ended.  Full memory barrier on entry and on return.  Concurrent callers
 * share grace periods; with no thread registered it returns without one
 * ("No reader" above).  Must not be called from a read-side critical section
 * (aborts with a message).  qsbr: an online caller goes offline while waiting.
 */
void URCU_FN(synchronize_rcu)(void)
{
	unsigned long target;
#if URCU_FLAVOR_IS_QSBR
	bool was_online = URCU_FN(i_read_ongoing)();
	/* Counted only by debug builds (read_lock is free otherwise). */
	unsigned int debug_nest = URCU_FN(i_reader).debug_nest;

	URCU_I_GP_PHASE(SYNC_ENTER);

	if (debug_nest) {
		URCU_FN(i_debug_misuse)("synchronize_rcu");
		/* Reported once: going offline must not report it again. */
		URCU_FN(i_reader).debug_nest = 0;
	}
	if (was_online)
		URCU_FN(thread_offline)();
#else
	URCU_I_GP_PHASE(SYNC_ENTER);
	if (URCU_FN(i_read_ongoing)())
		urcu_common_die("synchronize_rcu",
			"called inside a read-side critical section (urcu_%s flavor): this would deadlock",
			URCU_FLAVOR_NAME);
#endif
	target = sync_target();
	if (target) {
		URCU_I_GP_PHASE(SYNC_WAIT);
		URCU_I_STEP_SYNC_WAIT(wait_for_gp(target));
		URCU_I_GP_PHASE(SYNC_WAITED);
	} else {
		URCU_I_STEP_NO_READER_GP();
	}
	/* Full fence: the caller's later accesses follow the grace period. */
	cmm_smp_mb();
#if URCU_FLAVOR_IS_QSBR
	if (was_online)
		URCU_FN(thread_online)();
	URCU_FN(i_reader).debug_nest = debug_nest;
#endif
	URCU_I_GP_PHASE(SYNC_EXIT);
}

/*
 * Slow path of reader r leaving its critical section (or going quiescent)
 * with URCU_GP_WAITER set: wake the grace period if it waits for r.  The
 * loads follow the reader's idle store and its check of the flag, which
 * its caller ordered (membarrier of the updater, or the reader's fence):
 * either the updater's rescan sees r idle, or r sees waited (or wake_any)
 * stored before the updater's i_force_order().
 *
 * Readers only read waited; the grace period clears it when it finds the
 * reader done (reader_done_clear()).  A reader that cleared its own byte
 * could lose a wake-up: its clear, still in its store buffer, may land
 * after the updater's next "waited = 1", and a qsbr quiescent state that announced a
 * sequence older than the flip does not end the wait, so the reader's next
 * one must still find its byte set (the model found that interleaving:
 * tests/model, qsbr-1r2u-leave).
 */
void URCU_FN(i_wake_updater_for)(struct urcu_i_reader *r)
{
	if (CMM_LOAD_SHARED(r->waited) || uatomic_read(&gp_state.wake_any))
		URCU_FN(i_wake_updater)();
}

/* Wake a grace period sleeping on readers, if one sleeps. */
void URCU_FN(i_wake_updater)(void)
{
	if (uatomic_read(&URCU_FN(i_gp).futex) != -1)
		return;
	/*
	 * Full barrier (cmpxchg): only one reader issues the wake-up; the
	 * updater's futex wait sees 0 and returns if it is not asleep yet.
	 */
	if (uatomic_cmpxchg(&URCU_FN(i_gp).futex, -1, 0) == -1)
		urcu_common_futex_wake(&URCU_FN(i_gp).futex, 1);
}

/* ---- Polled grace periods ---------------------------------------------- */

static void *poll_thread(void *arg)
{
	(void) arg;
	for (;;) {
		unsigned long req = uatomic_read(&gp_state.requested);

		if (!gp_done(req)) {
			wait_for_gp(req);
			continue;
		}
		uatomic_set(&gp_state.poll_futex, -1);
		/*
		 * Full fence: our "asleep" store before re-reading requested;
		 * pairs with the cmpxchg in request_gp() followed by the load
		 * of poll_futex in poll_kick() (store-buffering pair).
		 */
		cmm_smp_mb();
		if (!gp_done(uatomic_read(&gp_state.requested))) {
			uatomic_set(&gp_state.poll_futex, 0);
			continue;
		}
		urcu_common_futex_wait(&gp_state.poll_futex, -1);
	}
	return NULL;
}

/* In a forked child the helper thread does not exist: start a new one. */
static void poll_atfork_child(void)
{
	gp_state.poll_running = 0;
	gp_state.poll_futex = 0;
}

static void poll_kick(void)
{
	/*
	 * Double-checked creation.  The unlocked read is relaxed on purpose:
	 * poll_running publishes no data, only "the helper exists"; a stale 0
	 * sends us to the locked check, and the helper itself reads
	 * requested with its own barrier before it sleeps (poll_thread()).
	 */
	if (!uatomic_read(&gp_state.poll_running)) {
		URCU_FN(i_lock)(&gp_state.poll_lock);
		if (!gp_state.poll_running) {
			pthread_t tid;
			pthread_attr_t attr;
			sigset_t all, old;
			int ret;

			/*
			 * The helper never runs the application's handlers but
			 * a fault's (common.h).
			 */
			urcu_common_thread_sigmask(&all);
			pthread_sigmask(SIG_BLOCK, &all, &old);
			pthread_attr_init(&attr);
			pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
			ret = pthread_create(&tid, &attr, poll_thread, NULL);
			pthread_attr_destroy(&attr);
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			if (ret)
				urcu_common_die("start_poll_synchronize_rcu",
					"cannot create the grace-period thread: %s", strerror(ret));
			if (!gp_state.poll_atfork_done) {
				pthread_atfork(NULL, NULL, poll_atfork_child);
				gp_state.poll_atfork_done = 1;
			}
			uatomic_set(&gp_state.poll_running, 1);
		}
		URCU_FN(i_unlock)(&gp_state.poll_lock);
		return;
	}
	/*
	 * The load of poll_futex follows the full barrier of the cmpxchg in
	 * request_gp() (our raised request), and pairs with the helper's
	 * store of -1 + cmm_smp_mb() + re-read of requested in poll_thread():
	 * either the helper sees our request and stays awake, or we see -1.
	 * The cmpxchg (full barrier) lets only one kicker wake it, and its 0
	 * makes a futex_wait that has not started yet return at once (the
	 * kernel compares against -1), so no wake-up is lost.  A request that
	 * request_gp() found already raised (no cmpxchg) needs no wake: the
	 * caller that raised it did this check.
	 */
	if (uatomic_read(&gp_state.poll_futex) == -1
			&& uatomic_cmpxchg(&gp_state.poll_futex, -1, 0) == -1)
		urcu_common_futex_wake(&gp_state.poll_futex, 1);
}

/*
 * start_poll_synchronize_rcu: returns a cookie for a grace period that starts
 * after the call, and makes sure one will run (a helper thread runs it if no
 * synchronize_rcu caller does).  Full memory barrier on entry: accesses before
 * the call are ordered before that grace period.  Lock-free except for the
 * one-time creation of the helper thread.
 */
struct urcu_gp_poll_state URCU_FN(start_poll_synchronize_rcu)(void)
{
	struct urcu_gp_poll_state state;

	state.grace_period_id = gp_target();
	if (!gp_done(state.grace_period_id)) {
		request_gp(state.grace_period_id);
		poll_kick();
	}
	return state;
}

/*
 * poll_state_synchronize_rcu: true when a full grace period has elapsed since
 * the start_poll_synchronize_rcu() call that returned state.  Never blocks.
 * When true, the caller's later accesses are ordered after the end of every
 * reader that preceded the start (acquire).  The counter wraps after 2^63
 * grace periods on 64-bit; a cookie that old is not a concern.
 */
bool URCU_FN(poll_state_synchronize_rcu)(struct urcu_gp_poll_state state)
{
	return gp_done(URCU_I_STEP_POLL_TARGET(state.grace_period_id));
}

/* ---- fork ------------------------------------------------------------------ */

void URCU_FN(i_gp_fork_prepare)(void)
{
	URCU_FN(i_lock)(&gp_state.leader_lock);
	URCU_FN(i_lock)(&gp_state.poll_lock);
	URCU_FN(i_lock)(&URCU_FN(i_registry).lock);
}

void URCU_FN(i_gp_fork_parent)(void)
{
	URCU_FN(i_unlock)(&URCU_FN(i_registry).lock);
	URCU_FN(i_unlock)(&gp_state.poll_lock);
	URCU_FN(i_unlock)(&gp_state.leader_lock);
}

void URCU_FN(i_gp_fork_child)(void)
{
	poll_atfork_child();
	gp_state.nwaiters = 0;
	URCU_FN(i_gp_fork_parent)();
}
