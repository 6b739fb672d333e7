/*
 * SPDX-License-Identifier: MIT
 *
 * A Promela model of the grace-period engine (liburcu/src/urcu-gp.c) and of
 * the read sides (liburcu/include/urcu/static/urcu-reader.h, urcu-qsbr.h,
 * liburcu/src/urcu-reader.c), under x86-TSO or a weak (ARMv8-like) memory
 * model, for the spin model checker.
 * tests/model/run-model.py runs the checks; docs/DESIGN.md, "The model
 * (tests/model)", maps the proof sketch of urcu-gp.c onto this file.
 *
 * Memory model
 * ------------
 * Every shared word lives in mem[].  Every thread (reader or updater) owns a
 * FIFO store buffer of SB entries: a plain store appends to it (and waits
 * while it is full, as a full buffer stalls a CPU), a load returns the
 * youngest buffered store to the same address, else mem[] (forwarding), and
 * one drainer process per buffer moves the oldest entry to mem[] whenever
 * it likes.  A full fence (cmm_smp_mb) and every atomic read-modify-write
 * (lock cmpxchg / xadd, mutex acquisition, the futex system calls) first
 * empties the caller's buffer.  This is the operational x86-TSO model: loads
 * stay in order, stores stay in order and reach memory in one global order,
 * and a store may be delayed past the same thread's later loads.
 *
 * -DWEAK selects a model weaker than TSO, at least what ARMv8 permits for
 * the accesses the code issues, still other-multicopy-atomic (one memory: a
 * store that reaches it is visible to every other thread at once):
 *   - a buffer drains in any order, except that two stores to one word keep
 *     their order and a release store waits for every older entry;
 *   - a load may return the value the last store to its word overwrote, if
 *     its thread passed no ordering point (full fence, acquire load, RMW,
 *     membarrier) since that store reached memory and has not read the
 *     newer value: loads performed early, out of program order;
 *   - the loads of a reader's finished section (pend[], a ghost) may still
 *     be performed after a later relaxed store is visible, until the next
 *     fence, RMW, membarrier or release store of the reader;
 *   - an address dependency orders the dependent load after its source.
 * Every statement says the ordering of the real access on the generic C11
 * layer and on aarch64; docs/DESIGN.md, "The weak-memory mode", lists the
 * mapping and what the mode leaves out.
 *
 * The forced-ordering step (B1, i_force_order in urcu-order.c):
 *   memb, bp (membarrier(2)) and signal (a round of signals whose handlers
 *     fence, acknowledged before the updater goes on): every thread runs a
 *     full fence at some point of its program while the call lasts.
 *     Modelled as emptying every buffer in one atomic step (fence_all); the
 *     point P of the proof is where each reader stands at that step.
 *   mb, qsbr (and memb where membarrier(2) is missing): readers fence
 *     themselves and the updater only fences its own buffer.
 *
 * Frees
 * -----
 * Updater j owns pointer slot j: it stores the next object there (the
 * removal), calls synchronize_rcu, then frees the old object.  A reader that
 * loads a slot records the object in the ghost held[] until its outermost
 * unlock (qsbr: until its next quiescent state or offline), and the free
 * asserts that no reader holds the object: "no reader sees a reclaimed
 * object".  The assertion at the free is equivalent to a reader asserting
 * "not poisoned" at any later point of its critical section (it could run
 * that assertion right after the free), and costs no reader step.
 *
 * Sequence width and the wrap bound
 * ---------------------------------
 * The real sequence field has 46 bits on 64-bit; one flip per grace period
 * is correct as long as no reader stays between its load of gp.ctr and the
 * store of its snapshot while the sequence goes all the way round (2^46
 * grace periods, urcu-gp.c).  Here the field has SEQ_BITS bits.  Every grace
 * period runs for some caller's target, and a target is at most one above
 * the grace periods started when the caller read started, so one run of the
 * model has at most NU * NUPD grace periods.  With NU * NUPD < 2^SEQ_BITS
 * the sequence cannot come round within a run: that is the real code's
 * assumption, and a run without counterexample covers every interleaving of
 * that many grace periods.  The check wrap-1bit (SEQ_BITS = 1, two grace
 * periods) breaks the assumption: spin then finds a reader that loaded
 * gp.ctr before grace period 1's flip was visible and published that
 * snapshot only after grace period 1 had ended; grace period 2 brings the
 * sequence back to the same value and takes the reader, who now holds an
 * object grace period 2 protects, for a reader of case (b).  So the bound
 * is needed, and the model shows one flip suffices within it.
 *
 * Configuration (spin -a -DNAME=value)
 * ------------------------------------
 *   FLAVOR_MB, FLAVOR_QSBR, FLAVOR_BP; default memb (signal is the same
 *     model as memb: B1 fences every reader, readers never fence).
 *   NR readers (1..3), NU updaters (1..2: concurrent synchronize_rcu
 *     callers), NUPD updates per updater, NEST 1 or 2 (read-side nesting),
 *     SB store-buffer entries, SEQ_BITS, SPIN_LOOPS (scans before the updater
 *     arms the futex), BP_EXITS (bp: times a reader thread exits and a new
 *     one registers lazily in its place).
 *   READS: each reader leaves after READS critical sections (qsbr: goes
 *     offline); without it readers keep reading until every updater is done.
 *   LIVENESS: the claim "every synchronize_rcu call returns"; run
 *     pan -a -f (weak fairness).
 *
 * Liveness, "a grace period ends once readers leave", is checked two ways:
 *   - readers that keep reading (no READS), the LTL claim under weak
 *     fairness: no synchronize_rcu call waits for ever, even while new
 *     critical sections keep starting;
 *   - readers that leave (READS), a plain safety search: every loop of the
 *     model then consumes something finite (critical sections, grace
 *     periods, epoch values, SPIN_LOOPS), so every execution is finite
 *     (pan -l finds no cycle at all: the "cycles" checks), and an updater
 *     that never returns shows up as an invalid end state (asleep on a
 *     futex nobody will wake, or waiting on a lock).  Cheaper, so it is the
 *     form used for the larger configurations.
 * Sharing grace periods: a leader runs grace periods for its own target
 * only (an assertion: at most one, the one its target names), releases the
 * leader lock, bumps the epoch and wakes the waiters, each of which retries;
 * with NU = 2 a caller whose grace period the other caller's leadership
 * did not cover must take the lock itself, so the liveness checks of the
 * two-caller configurations (*-1r2u-*) are what show that no waiter is left
 * without a leader.
 * Seeded bugs (each must give a counterexample):
 *   BUG_SKIP_ORDERING      the updater skips B1 before the flip
 *   BUG_READER_NO_FENCE    the mb reader skips its fence after publishing
 *   BUG_LOST_WAKEUP        the updater's futex wait checks the word, then
 *                          goes to sleep, in two steps (liveness)
 *   BUG_SCAN_SKIP          the scan forgets the last reader
 *   BUG_READER_CLEARS      a reader clears its own waited byte when it
 *                          wakes the updater (the first version)
 *   BUG_WAITED_LATE        the updater sets the readers' waited bytes after
 *                          its force order (plain stores): a departing
 *                          reader may miss them and not wake it
 *   BUG_REGISTER_NO_FENCE  registration without its fence: a
 *                          synchronize_rcu() that reads the old count (no
 *                          reader) misses a reader that just registered
 * Seeded bugs that only weak ordering exposes (each verifies under TSO):
 *   BUG_UNLOCK_RELAXED     the outermost unlock store relaxed, not release
 *   BUG_QS_WMB             qsbr: the fence before the quiescent-state store
 *                          weakened to cmm_smp_wmb, the store relaxed
 *                          (correct with -DWMB_C11, generic.h's release
 *                          fence; wrong with aarch64.h's dmb ishst)
 *   BUG_OFFLINE_RELAXED    qsbr: the offline store relaxed, no fence before
 *   BUG_PUBLISH_RELAXED    (with PUBLISH) rcu_assign_pointer relaxed
 *   PUBLISH                the updater initialises each new object before
 *                          publishing it; the reader reads it through the
 *                          pointer and asserts it initialised
 * Witnesses (an assertion that fails when the situation is reached):
 *   WITNESS_SHARED         two callers served by fewer grace periods than calls
 *   WITNESS_WAKE           the updater slept on gp.futex and was woken
 *   WITNESS_NESTED         the scan found a reader inside a nested section
 *   WITNESS_NO_READER      a synchronize_rcu() found no registered thread
 *   WITNESS_STALE          (WEAK) the scan read a reader's word out of date
 *   WITNESS_STALE_PTR      (WEAK) a reader loaded a replaced pointer
 */

#ifndef NR
#define NR 1
#endif
#ifndef NU
#define NU 1
#endif
#ifndef NUPD
#define NUPD 1
#endif
#ifndef NEST
#define NEST 2
#endif
#ifndef SB
#define SB 2
#endif
#ifndef SEQ_BITS
#define SEQ_BITS 2
#endif
#ifndef SPIN_LOOPS
#define SPIN_LOOPS 1
#endif
#ifndef BP_EXITS
#define BP_EXITS 1
#endif

#if NU > 2 || NU < 1 || NR > 3 || NR < 1 || NEST > 2 || NEST < 1 || SEQ_BITS > 4
#error "the model is written for NU 1..2, NR 1..3, NEST 1..2, SEQ_BITS <= 4"
#endif

#if defined(FLAVOR_MB) || defined(FLAVOR_QSBR)
#define ORDER_BY_FENCE 1
#else
#define ORDER_BY_FENCE 0
#endif

/* ---- words: the layout of urcu-gp.h, narrowed ---------------------------- */

#define NEST_MASK	3			/* URCU_GP_NEST_MASK */
#define COUNT		1			/* URCU_GP_COUNT */
#define UNREG		NEST_MASK		/* URCU_READER_UNREGISTERED */
#define F_FENCE		4			/* URCU_GP_FENCE */
#define F_WAITER	8			/* URCU_GP_WAITER */
#define SEQ_STEP	16			/* URCU_GP_SEQ_STEP */
#define WORD_MASK	((SEQ_STEP << SEQ_BITS) - 1)
#define SEQ_MASK	(WORD_MASK - (SEQ_STEP - 1))	/* URCU_GP_SEQ_MASK */

#ifdef FLAVOR_MB
#define GP_INIT		(COUNT | F_FENCE)	/* readers fence themselves */
#else
#define GP_INIT		COUNT			/* memb/bp with membarrier; qsbr */
#endif

/* reader_quiescent() of urcu-gp.c */
#define QUIESCENT(v, g)	(((v) & NEST_MASK) == 0 || (((v) ^ (g)) & SEQ_MASK) == 0)

/* gp.ctr after the flip: sequence + 1 (modulo 2^SEQ_BITS), flags kept */
#define FLIPPED(c)	(((c) & (255 - SEQ_MASK)) | (((c) + SEQ_STEP) & SEQ_MASK))

#define ARMED		1			/* gp.futex == -1 */

/* ---- addresses -------------------------------------------------------- */

#define A_GCTR		0	/* i_gp.ctr */
#define A_FUTEX		1	/* i_gp.futex */
#define A_STARTED	2	/* gp_state.started */
#define A_DONE		3	/* gp_state.done */
#define A_EPOCH		4	/* gp_state.epoch */
#define A_NWAIT		5	/* gp_state.nwaiters */
#define A_LEADER	6	/* gp_state.leader_lock */
#define A_REGLOCK	7	/* i_registry.lock */
#define A_PTR(j)	(8 + (j))	/* updater j's RCU-protected pointer */
#define A_RCTR(i)	(8 + NU + (i))	/* reader i's word */
#define A_WAITED(i)	(8 + NU + NR + (i))	/* reader i's waited byte */
#define A_INIT(j)	(8 + NU + 2 * NR + (j))	/* PUBLISH: updater j's newest initialised object */
#define A_NREG		(8 + 2 * NU + 2 * NR)	/* i_registry.count */
#define NADDR		(9 + 2 * NU + 2 * NR)

#define NBUF		(NR + NU)	/* buffers: readers 0..NR-1, then updaters */

/*
 * held[]: object + 1 that a reader may still access, 0 for none; under
 * WEAK also pend[]: object + 1 whose loads a reader's hardware may still
 * perform after the section ended (see end_access_nd).
 */
#ifdef WEAK
#define HOLDS(i, o)		(held[i] == (o) || pend[i] == (o))
#else
#define HOLDS(i, o)		(held[i] == (o))
#endif
#if NR == 1
#define HELD(o)			HOLDS(0, o)
#define REGISTRY_NONEMPTY	(where[0] == 1)
#elif NR == 2
#define HELD(o)			(HOLDS(0, o) || HOLDS(1, o))
#define REGISTRY_NONEMPTY	(where[0] == 1 || where[1] == 1)
#else
#define HELD(o)			(HOLDS(0, o) || HOLDS(1, o) || HOLDS(2, o))
#define REGISTRY_NONEMPTY	(where[0] == 1 || where[1] == 1 || where[2] == 1)
#endif

/*
 * WEAK: the words thread t loads with load_w (readers: gp.ctr, gp.futex,
 * their waited byte, the pointers and objects; updaters: the reader words
 * and the grace-period state).  Only these keep an old value and mayold
 * bits: the others would be state that no load reads (load_w asserts that
 * it is not asked for another word).
 */
#define STALE_R(a)	((a) == A_GCTR || (a) == A_FUTEX || \
			 ((a) >= A_WAITED(0) && (a) < A_WAITED(NR)) || \
			 ((a) >= A_PTR(0) && (a) < A_PTR(NU)) || \
			 ((a) >= A_INIT(0) && (a) < A_INIT(NU)))
#define STALE_U(a)	(((a) >= A_RCTR(0) && (a) < A_RCTR(NR)) || (a) == A_STARTED || \
			 (a) == A_DONE || (a) == A_EPOCH || (a) == A_NWAIT || (a) == A_NREG)
#define STALE_OK(t, a)	(((t) < NR && STALE_R(a) && \
			  !((a) >= A_WAITED(0) && (a) < A_WAITED(NR) && (a) != A_WAITED(t))) || \
			 ((t) >= NR && STALE_U(a)))

/*
 * A step that contains a load of a word other threads write: a d_step under
 * TSO; under WEAK the load may choose an older value, a nondeterministic
 * choice that a d_step would resolve one fixed way, so an atomic step.
 */
#ifdef WEAK
#define LSTEP	atomic
#else
#define LSTEP	d_step
#endif

byte mem[NADDR];
byte sb_a[NBUF * SB];		/* buffered stores: address */
byte sb_v[NBUF * SB];		/* buffered stores: value */
byte sb_n[NBUF];		/* entries in each buffer */
byte ti, tj, tk;		/* d_step scratch: always 0 between steps */
#ifdef WEAK
bit tf;				/* scratch: the last load was forwarded */
bit sb_r[NBUF * SB];		/* buffered store is a release */
byte old[NADDR];		/* the value the last store to a word overwrote */
bit mayold[NBUF * NADDR];	/* thread t may still read old[a] */
byte pend[NR];			/* ghost: see end_access_nd */
#endif

byte held[NR];			/* ghost: object a reader may access, + 1 */
/*
 * Ghost of the registry lists, changed under the registry lock only:
 * 0 not registered, 1 on reg->readers, 2 on the leader's local qs list.
 * REGISTRY_NONEMPTY is !cds_list_empty(&reg->readers).
 */
byte where[NR];
bit gpf_sleep[NU];		/* updater asleep on i_gp.futex */
bit ep_sleep[NU];		/* updater asleep on gp_state.epoch */
bit insync[NU];			/* updater inside synchronize_rcu */
byte ufin;			/* updaters whose every call has returned */

/* ---- the memory model: x86-TSO, or WEAK (ARMv8-like) ---------------------- */

/*
 * Stores.  Every store goes to its thread's buffer; append_nd takes a
 * release flag.  Under TSO the flag changes nothing (x86 stores are all
 * releases).  Under WEAK a release entry reaches memory only once every
 * older entry of its buffer has (drainer), and it marks the point by which
 * the thread's earlier loads are performed (pend_done_nd).
 */
inline append_nd(xp_, xa_, xv_, xrel_)
{
	sb_a[xp_ * SB + sb_n[xp_]] = xa_;
	sb_v[xp_ * SB + sb_n[xp_]] = xv_;
#ifdef WEAK
	sb_r[xp_ * SB + sb_n[xp_]] = xrel_;
	if
	:: xrel_ -> pend_done_nd(xp_)
	:: else
	fi;
#endif
	sb_n[xp_]++
}

/*
 * WEAK: the loads of a reader's finished critical section that its
 * hardware may still perform (pend[], a ghost, object + 1) are done: a
 * fence, an RMW, membarrier, or a release store of the thread passed.
 */
inline pend_done_nd(xp_)
{
#ifdef WEAK
	if
	:: xp_ < NR -> pend[xp_] = 0
	:: else
	fi
#else
	skip
#endif
}

/* A relaxed store (C11 relaxed; aarch64 str): waits while the buffer is full. */
inline sb_store(xp_, xa_, xv_)
{
	d_step {
		sb_n[xp_] < SB ->
		append_nd(xp_, xa_, xv_, 0)
	}
}

/* A release store (C11 release; aarch64 stlr; x86 mov). */
inline sb_store_rel(xp_, xa_, xv_)
{
	d_step {
		sb_n[xp_] < SB ->
		append_nd(xp_, xa_, xv_, 1)
	}
}

/*
 * A store reaches memory.  WEAK keeps the value it overwrites in old[] and
 * lets every other thread that has not passed an ordering point since read
 * that old value (mayold): a load performed before this moment.  The writer
 * itself never reads older than its own store (coherence).
 */
inline commit_nd(xp_, xa_, xv_)
{
#ifdef WEAK
	if
	:: STALE_R(xa_) || STALE_U(xa_) ->
		old[xa_] = mem[xa_];
		tk = 0;
		do
		:: tk < NBUF -> mayold[tk * NADDR + xa_] = (tk != xp_ && STALE_OK(tk, xa_)); tk++
		:: else -> break
		od;
		tk = 0
	:: else
	fi;
#endif
	mem[xa_] = xv_
}

/*
 * WEAK: an ordering point for thread xp_'s later loads (full fence,
 * acquire load, RMW): none of them may return a value overwritten before
 * now.
 */
inline order_nd(xp_)
{
#ifdef WEAK
	tk = 0;
	do
	:: tk < NADDR -> mayold[xp_ * NADDR + tk] = 0; tk++
	:: else -> break
	od;
	tk = 0
#else
	skip
#endif
}

/*
 * A load with store forwarding: the youngest buffered store of the thread
 * to the same address, else memory.  For use inside a d_step or an LSTEP,
 * as is for a word only this thread writes (it always reads its own latest
 * value).
 */
inline load_nd(xp_, xa_, xr_)
{
	xr_ = mem[xa_];
	ti = 0;
	do
	:: ti < sb_n[xp_] ->
		if
		:: sb_a[xp_ * SB + ti] == xa_ -> xr_ = sb_v[xp_ * SB + ti]
		:: else
		fi;
		ti++
	:: else -> break
	od;
	ti = 0
}

/*
 * A load of a word other threads write, inside an LSTEP.  WEAK: it may
 * instead return the value the last store to that word overwrote, if the
 * thread passed no ordering point since that store (the load was performed
 * earlier, out of program order); reading the current value ends that
 * (coherence: never older than what the thread has seen).  One value of
 * history: a load never returns a value two stores old (docs/DESIGN.md).
 */
inline load_w(xp_, xa_, xr_)
{
	load_nd(xp_, xa_, xr_);
#ifdef WEAK
	assert(STALE_OK(xp_, xa_));
	/* tf: the value came from the thread's own buffer */
	ti = 0;
	do
	:: ti < sb_n[xp_] && sb_a[xp_ * SB + ti] == xa_ -> tf = 1; break
	:: ti < sb_n[xp_] && sb_a[xp_ * SB + ti] != xa_ -> ti++
	:: else -> break
	od;
	ti = 0;
	if
	:: tf == 0 && mayold[xp_ * NADDR + xa_] -> xr_ = old[xa_];
#ifdef WITNESS_STALE
		/* reached: the updater reads a reader's word out of date */
		assert(!(xp_ >= NR && xa_ >= A_RCTR(0) && xa_ < A_RCTR(NR)));
#endif
#ifdef WITNESS_STALE_PTR
		/* reached: a reader loads the pointer its updater replaced */
		assert(!(xp_ < NR && xa_ == A_PTR(0)));
#endif
		skip
	:: tf == 0 -> mayold[xp_ * NADDR + xa_] = 0
	:: tf == 1
	fi;
	tf = 0
#endif
}

/* A relaxed load (C11 relaxed / CMM_LOAD_SHARED; aarch64 ldr; x86 mov). */
inline load(xp_, xa_, xr_)
{
	LSTEP { load_w(xp_, xa_, xr_) }
}

/* An acquire load (C11 acquire; aarch64 ldar; x86 mov). */
inline load_acq(xp_, xa_, xr_)
{
	LSTEP { load_w(xp_, xa_, xr_); order_nd(xp_) }
}

/* Empty buffer xp_ into memory, oldest first (inside a d_step). */
inline flush_nd(xp_)
{
	ti = 0;
	do
	:: ti < sb_n[xp_] ->
		commit_nd(xp_, sb_a[xp_ * SB + ti], sb_v[xp_ * SB + ti]);
		sb_a[xp_ * SB + ti] = 0;
		sb_v[xp_ * SB + ti] = 0;
#ifdef WEAK
		sb_r[xp_ * SB + ti] = 0;
#endif
		ti++
	:: else -> break
	od;
	sb_n[xp_] = 0;
	ti = 0
}

/*
 * A full barrier (inside a d_step): every earlier access of the thread is
 * performed before every later one.  cmm_smp_mb() (C11 seq_cst fence;
 * aarch64 dmb ish; x86 mfence or a locked instruction), and the first half
 * of every full-barrier RMW.
 */
inline full_nd(xp_)
{
	flush_nd(xp_);
	order_nd(xp_);
	pend_done_nd(xp_)
}

inline fence(xp_)
{
	d_step { full_nd(xp_) }
}

/*
 * cmm_smp_wmb(), which the two layers compile differently: generic.h's is
 * a C11 release fence (aarch64 dmb ish: earlier loads and stores before
 * later stores), aarch64.h's is dmb ishst (earlier stores before later
 * stores only).  -DWMB_C11 models the first, else the second.  Emptying
 * the buffer orders the earlier stores before the later ones (under TSO it
 * changes nothing).
 */
inline wmb(xp_)
{
	d_step {
		flush_nd(xp_);
#ifdef WMB_C11
		pend_done_nd(xp_)
#else
		skip
#endif
	}
}

/*
 * A store followed by a full fence before the thread's next access.
 * Under TSO the buffered store reaches memory at some moment before the
 * fence and nothing the thread does in between can tell, so it is the same
 * as emptying the buffer and writing memory in one step at that moment (the
 * drainer may have drained the older entries earlier): no behaviour lost,
 * fewer states.  Under WEAK the store may pass older stores and the
 * thread's pending loads, so it is a real store, then the fence.
 */
inline store_mb(xp_, xa_, xv_)
{
#ifdef WEAK
	sb_store(xp_, xa_, xv_);
	fence(xp_)
#else
	d_step {
		flush_nd(xp_);
		mem[xa_] = xv_
	}
#endif
}

/*
 * A relaxed store after which its thread runs a full fence before its next
 * load, though not at once (the waiter flag, the waited bytes and
 * gp.futex, then force_order).  Under TSO that is store_mb's reduction;
 * under WEAK the stores may pass each other until the fence.
 */
inline store_pre_fence(xp_, xa_, xv_)
{
#ifdef WEAK
	sb_store(xp_, xa_, xv_)
#else
	store_mb(xp_, xa_, xv_)
#endif
}

/* The same with a release store (the fence before it is the caller's). */
inline store_rel_mb(xp_, xa_, xv_)
{
#ifdef WEAK
	sb_store_rel(xp_, xa_, xv_);
	fence(xp_)
#else
	store_mb(xp_, xa_, xv_)
#endif
}

/*
 * membarrier(2) / a signal round: a full fence on every thread, at a point
 * of each thread's program while the call lasts.
 */
inline fence_all()
{
	d_step {
		/* every buffer first: its stores are older than every fence */
		tj = 0;
		do
		:: tj < NBUF -> flush_nd(tj); tj++
		:: else -> break
		od;
		tj = 0;
		do
		:: tj < NBUF -> full_nd(tj); tj++
		:: else -> break
		od;
		tj = 0
	}
}

/* Remove entry xe_ of buffer p (inside a d_step), after it reached memory. */
inline unbuffer_nd(p, xe_)
{
	ti = xe_ + 1;
	do
	:: ti < sb_n[p] ->
		sb_a[p * SB + ti - 1] = sb_a[p * SB + ti];
		sb_v[p * SB + ti - 1] = sb_v[p * SB + ti];
#ifdef WEAK
		sb_r[p * SB + ti - 1] = sb_r[p * SB + ti];
#endif
		ti++
	:: else -> break
	od;
	sb_a[p * SB + ti - 1] = 0;
	sb_v[p * SB + ti - 1] = 0;
#ifdef WEAK
	sb_r[p * SB + ti - 1] = 0;
#endif
	sb_n[p]--;
	ti = 0
}

/*
 * One drainer per buffer.  TSO: the oldest store reaches memory.  WEAK:
 * any entry does, unless an older entry has the same address (coherence)
 * or it is a release store with an older entry left (release orders every
 * earlier store before it).  Written out for SB <= 3.
 */
proctype drainer(byte p)
{
end:	do
	:: d_step {
		sb_n[p] > 0 ->
		commit_nd(p, sb_a[p * SB], sb_v[p * SB]);
		unbuffer_nd(p, 0)
	}
#ifdef WEAK
	:: d_step {
		sb_n[p] > 1 && !sb_r[p * SB + 1] && sb_a[p * SB + 1] != sb_a[p * SB] ->
		commit_nd(p, sb_a[p * SB + 1], sb_v[p * SB + 1]);
		unbuffer_nd(p, 1)
	}
#if SB > 2
	:: d_step {
		(sb_n[p] > 2 && !sb_r[p * SB + 2] && sb_a[p * SB + 2] != sb_a[p * SB] &&
		 sb_a[p * SB + 2] != sb_a[p * SB + 1]) ->
		commit_nd(p, sb_a[p * SB + 2], sb_v[p * SB + 2]);
		unbuffer_nd(p, 2)
	}
#endif
#endif
	od
}

/*
 * WEAK: before an RMW on word xa_, the thread's buffered stores to it reach
 * memory, with every older entry (a prefix of the buffer: allowed in any
 * model).
 */
inline drain_word_nd(xp_, xa_)
{
	tj = 0;
	do
	:: tj < sb_n[xp_] && sb_a[xp_ * SB + tj] == xa_ ->
		commit_nd(xp_, sb_a[xp_ * SB], sb_v[xp_ * SB]);
		unbuffer_nd(xp_, 0);
		tj = 0
	:: tj < sb_n[xp_] && sb_a[xp_ * SB + tj] != xa_ -> tj++
	:: else -> break
	od;
	tj = 0
}

/*
 * pthread_mutex_lock: an acquire RMW on the lock word (glibc: a CAS,
 * aarch64 ldaxr/stxr or casa; x86 lock cmpxchg, which also empties the
 * buffer); waits while the lock is taken.  Under WEAK only the thread's
 * buffered stores to the lock word itself (its last unlock) reach memory
 * first, oldest first (a prefix of the buffer: allowed in any model);
 * older stores to other words may still pass into the critical section.
 */
inline mutex_lock(xp_, xa_)
{
#ifdef WEAK
	d_step { drain_word_nd(xp_, xa_) };
	d_step { mem[xa_] == 0 -> commit_nd(xp_, xa_, 1); order_nd(xp_) }
#else
	fence(xp_);
	d_step { mem[xa_] == 0 -> mem[xa_] = 1 }
#endif
}

/* pthread_mutex_unlock: a release store (glibc: a release RMW). */
inline mutex_unlock(xp_, xa_)
{
	sb_store_rel(xp_, xa_, 0)
}

/* uatomic_add_return / uatomic_sub_return: RMW + smp_mb, a full barrier. */
inline atomic_add(xp_, xa_, xd_)
{
	d_step { full_nd(xp_); commit_nd(xp_, xa_, mem[xa_] + xd_) }
}

inline atomic_sub(xp_, xa_, xd_)
{
	d_step { full_nd(xp_); commit_nd(xp_, xa_, mem[xa_] - xd_) }
}

/*
 * futex_wait(a, val): the kernel takes the hash-bucket lock (a full
 * barrier), then sleeps only if the word still holds val, one step with
 * respect to futex_wake.  slept records that it did go to sleep.
 */
inline futex_wait(xp_, xa_, xval_, xsleeping_, xslept_)
{
	d_step {
		full_nd(xp_);
		if
		:: mem[xa_] == xval_ -> xsleeping_ = 1; xslept_ = 1
		:: else
		fi
	};
	xsleeping_ == 0
}


/* pthread_mutex_trylock: an acquire RMW, or a failed one (a load). */
inline mutex_trylock(xp_, xa_, xr_)
{
#ifdef WEAK
	d_step { drain_word_nd(xp_, xa_) };
	d_step {
		if
		:: mem[xa_] == 0 -> commit_nd(xp_, xa_, 1); order_nd(xp_); xr_ = 1
		:: else -> xr_ = 0
		fi
	}
#else
	d_step {
		flush_nd(xp_);
		if
		:: mem[xa_] == 0 -> mem[xa_] = 1; xr_ = 1
		:: else -> xr_ = 0
		fi
	}
#endif
}

/*
 * The end of a read-side access (qsbr: the reference given up before a
 * quiescent state; the seeded relaxed unlock).  Under WEAK nothing orders
 * the section's loads before what follows until the next fence, RMW,
 * membarrier or release store (pend_done_nd), so the object stays in
 * pend[] until then: an ARMv8 core may perform those loads after a later
 * relaxed store is visible.  Under TSO loads never pass later stores.
 */
inline end_access_nd(me)
{
#ifdef WEAK
	if
	:: held[me] != 0 -> pend[me] = held[me]
	:: else
	fi;
#endif
	held[me] = 0
}

/*
 * The critical section's access: rcu_dereference(slot) (a relaxed load;
 * aarch64 ldr), the object recorded in held[].  PUBLISH: then a load of the
 * object's contents through the pointer (an address dependency, which
 * orders it after the pointer load on every architecture but Alpha), which
 * must find the object initialised.
 */
inline read_object(me, xs_)
{
	LSTEP {
		load_w(me, A_PTR(xs_), held[me]);
		held[me]++;
#if defined(PUBLISH) && defined(WEAK)
		/* the dependent load is performed after this one */
		mayold[me * NADDR + A_INIT(xs_)] = 0;
#endif
		skip
	};
#ifdef PUBLISH
	LSTEP {
		load_w(me, A_INIT(xs_), f);
		assert(f + 1 >= held[me]);	/* the object is initialised */
		f = 0
	}
#endif
}

/*
 * rcu_assign_pointer(slot j, new object) and the fence of gp_target()
 * that follows.  PUBLISH: first the object's initialisation, a plain store,
 * which the release orders before the pointer.
 */
inline publish(me, xj_, xo_)
{
#ifdef PUBLISH
	sb_store(me, A_INIT(xj_), xo_);
#ifndef BUG_PUBLISH_RELAXED
	sb_store_rel(me, A_PTR(xj_), xo_);	/* release (aarch64 stlr) */
#else
	sb_store(me, A_PTR(xj_), xo_);		/* relaxed: the seeded bug */
#endif
	fence(me)
#else
	store_rel_mb(me, A_PTR(xj_), xo_)
#endif
}

/* ---- registration and wake-up, shared by every flavor -------------------- */

/* i_wake_updater(): the first reader to see futex == -1 wakes the updater. */
inline wake_updater(me)
{
	load(me, A_FUTEX, f);	/* uatomic_read: relaxed */
	if
	:: f == ARMED ->
		/* cmpxchg(&gp.futex, -1, 0): RMW + smp_mb, a full barrier */
		d_step {
			full_nd(me);
			if
			:: mem[A_FUTEX] == ARMED -> commit_nd(me, A_FUTEX, 0); f = 2
			:: else -> f = 0
			fi
		};
		if
		:: f == 2 ->
			/* futex_wake(&gp.futex, 1): only the leader sleeps there */
			d_step {
				full_nd(me);
				tj = 0;
				ti = 0;
				do
				:: tj < NU -> ti = ti + gpf_sleep[tj]; gpf_sleep[tj] = 0; tj++
				:: else -> break
				od;
				assert(ti <= 1);
				ti = 0;
				tj = 0
			}
		:: else
		fi
	:: else
	fi;
	f = 0
}

/*
 * i_wake_updater_for(): a reader wakes the sleeping updater only if the
 * updater set its waited byte; it never writes the byte (wake_any, for
 * more than 32 busy readers, cannot happen with NR <= 3 and is not
 * modelled).  BUG_READER_CLEARS: the reader clears its byte itself (a
 * buffered store), as the first version of the code did.
 */
inline wake_updater_for(me)
{
	load(me, A_WAITED(me), f);	/* CMM_LOAD_SHARED: relaxed */
	if
	:: f == 1 ->
		f = 0;
#ifdef BUG_READER_CLEARS
		sb_store(me, A_WAITED(me), 0);
#endif
		wake_updater(me)
	:: else -> f = 0
	fi
}

/*
 * do_register(): under the registry lock, word 0, onto reg->readers, count
 * += 1 (only lock holders write the count: the load and the store are one
 * step), then the fence that pairs with synchronize_rcu()'s before its
 * load of the count (BUG_REGISTER_NO_FENCE: without it).
 */
inline do_register(me)
{
	mutex_lock(me, A_REGLOCK);
	w = 0;
	d_step {
		sb_n[me] < SB ->
		append_nd(me, A_RCTR(me), 0, 0);	/* relaxed */
		where[me] = 1
	};
	d_step {
		sb_n[me] < SB ->
		load_nd(me, A_NREG, f);
		append_nd(me, A_NREG, f + 1, 0);	/* relaxed */
		f = 0
	};
#ifndef BUG_REGISTER_NO_FENCE
	fence(me);
#endif
	mutex_unlock(me, A_REGLOCK)
}

/* do_unregister() (a bp reader thread exits). */
inline do_unregister(me)
{
	mutex_lock(me, A_REGLOCK);
	w = UNREG;
	d_step {
		sb_n[me] < SB ->
		where[me] = 0;
		append_nd(me, A_RCTR(me), UNREG, 1)	/* release */
	};
	d_step {
		sb_n[me] < SB ->
		load_nd(me, A_NREG, f);
		append_nd(me, A_NREG, f - 1, 1);	/* release: after the sections */
		f = 0
	};
	mutex_unlock(me, A_REGLOCK);
	wake_updater(me)
}

#ifndef FLAVOR_QSBR
/* ---- the read side of memb, mb, signal and bp --------------------------- */

/*
 * w is the reader's own copy of its word: only the reader writes the word,
 * so its own load of it (r->ctr, forwarded from its buffer) always returns
 * w and needs no step of its own.
 */

/* i_read_lock() */
inline read_lock(me)
{
#ifdef FLAVOR_BP
	if
	:: w == UNREG -> do_register(me)	/* i_read_lock_slow() */
	:: else
	fi;
#endif
	if
	:: (w & NEST_MASK) == 0 ->
		load(me, A_GCTR, w);	/* CMM_LOAD_SHARED: relaxed */
		/*
		 * The snapshot, "in a critical section since w": a release
		 * store (C11 release, aarch64 stlr); data-dependent on the
		 * load above, so never visible before it.
		 */
		if
		:: (w & F_FENCE) ->
#ifndef BUG_READER_NO_FENCE
			/* then cmm_smp_mb(): pairs with B1's fence */
			store_rel_mb(me, A_RCTR(me), w)
#else
			sb_store_rel(me, A_RCTR(me), w)	/* the fence is missing */
#endif
		:: else ->
			sb_store_rel(me, A_RCTR(me), w)
		fi
	:: else ->
		assert((w & NEST_MASK) < NEST_MASK - 1);	/* not too deep */
		w = w + COUNT;
		sb_store(me, A_RCTR(me), w)	/* relaxed */
	fi
}

/* i_read_unlock() and i_read_unlock_slow() */
inline read_unlock(me)
{
	assert((w & NEST_MASK) != 0 && (w & NEST_MASK) != UNREG);
	if
	:: (w & NEST_MASK) == COUNT ->
		w = 0;
		d_step {
			sb_n[me] < SB ->
#ifndef BUG_UNLOCK_RELAXED
			/*
			 * Release (C11 release, aarch64 stlr): the critical
			 * section's loads are performed before the store is
			 * visible; pairs with the scan's acquire load.
			 */
			held[me] = 0;
			append_nd(me, A_RCTR(me), 0, 1)
#else
			/* relaxed: the section's loads may still be in flight */
			end_access_nd(me);
			append_nd(me, A_RCTR(me), 0, 0)
#endif
		};
		load(me, A_GCTR, g);	/* CMM_LOAD_SHARED: relaxed */
		if
		:: (g & (F_FENCE | F_WAITER)) ->
			load(me, A_GCTR, g);	/* i_read_unlock_slow() reloads (relaxed) */
			if
			:: (g & F_FENCE) ->
				fence(me);	/* pairs with the fence after WAITER is set */
				load(me, A_GCTR, g)
			:: else
			fi;
			if
			:: (g & F_WAITER) -> wake_updater_for(me)
			:: else
			fi
		:: else
		fi;
		g = 0
	:: else ->
		w = w - COUNT;
		sb_store(me, A_RCTR(me), w)	/* relaxed */
	fi
}

proctype reader(byte me)
{
	byte w = UNREG, g, f, exits, nreads;
	bit slot;

#ifndef FLAVOR_BP
	do_register(me);	/* register_thread() */
#endif
	do
	:: ufin == NU -> break	/* every free is done: nothing left to check */
#ifdef READS
	:: nreads == READS -> break	/* the reader leaves */
	:: ufin < NU && nreads < READS ->
		nreads++;
#else
	:: ufin < NU ->
#endif
		read_lock(me);
		if
		:: slot = 0
#if NU > 1
		:: slot = 1
#endif
		fi;
		read_object(me, slot);
		slot = 0;
#if NEST > 1
		/* a nested section must not end the protection of the outer one */
		if
		:: read_lock(me); read_unlock(me)
		:: skip
		fi;
#endif
		read_unlock(me)
#ifdef FLAVOR_BP
	:: ufin < NU && w != UNREG && exits < BP_EXITS ->
		/*
		 * Thread exit (do_unregister); the next read_lock registers a
		 * new thread.  Bounded: a thread that registered and exited
		 * forever could starve the updater of the registry mutex
		 * (pthread mutexes are not fair, weak fairness does not help),
		 * which the library does not claim to prevent.
		 */
		do_unregister(me);
		exits++
#endif
	od
}

#else /* FLAVOR_QSBR */
/* ---- the read side of qsbr ---------------------------------------------- */

/* thread_online() */
inline q_online(me)
{
	load(me, A_GCTR, w);	/* CMM_LOAD_SHARED: relaxed */
	store_mb(me, A_RCTR(me), w)	/* relaxed, then a fence: pairs with B1 */
}

/* thread_offline() */
inline q_offline(me)
{
	w = 0;
#ifndef BUG_OFFLINE_RELAXED
	fence(me);		/* read-side accesses before the offline store */
	/* release (stlr), then a fence: before the WAITER check */
	store_rel_mb(me, A_RCTR(me), 0);
#else
	/* no fence before, a relaxed store: "the fence after it orders it" */
	store_mb(me, A_RCTR(me), 0);
#endif
	load(me, A_GCTR, g);
	if
	:: (g & F_WAITER) -> wake_updater_for(me)
	:: else
	fi;
	g = 0
}

/* quiescent_state() and i_quiescent_state_slow() */
inline q_quiescent(me)
{
	load(me, A_GCTR, g);
	if
	:: ((w ^ g) & SEQ_MASK) != 0 && w != 0 && w != UNREG ->
		w = g;
#if defined(BUG_QS_WMB)
		/*
		 * The fence before weakened to cmm_smp_wmb() and the store
		 * relaxed: fine under C11 (a release fence), not with
		 * aarch64.h's dmb ishst (stores only).
		 */
		wmb(me);
		store_mb(me, A_RCTR(me), w);
#else
		fence(me);	/* accesses before the QS, before the store */
		/* release, then a fence: pairs with B1 and with the fence after WAITER */
		store_rel_mb(me, A_RCTR(me), w);
#endif
		load(me, A_GCTR, g);
		if
		:: (g & F_WAITER) -> wake_updater_for(me)
		:: else
		fi
	:: else
	fi;
	g = 0
}

proctype qreader(byte me)
{
	byte w = UNREG, g, f, nreads;
	bit slot;

	/* register_thread(): do_register, then thread_online */
	do_register(me);
	q_online(me);
	do
	:: ufin == NU -> break	/* every free is done: nothing left to check */
#ifdef READS
	:: nreads == READS -> q_offline(me); break	/* leaves (offline) */
	:: ufin < NU && nreads < READS ->
		nreads++;
#else
	:: ufin < NU ->
#endif
		if
		:: slot = 0
#if NU > 1
		:: slot = 1
#endif
		fi;
		read_object(me, slot);
		slot = 0;
		/* the reference lasts until the next quiescent state */
		d_step { end_access_nd(me) };
		if
		:: q_quiescent(me)
		:: q_offline(me); q_online(me)
		fi
	od
}
#endif /* FLAVOR_QSBR */

/* ---- the grace-period engine --------------------------------------------- */

/*
 * The leader (leader lock, and the registry lock around the flip) is the only
 * writer of started, done and gp.ctr, so its load of one of them returns the
 * same value at any moment up to its store: each load-then-store below is
 * one step.
 */

/* i_force_order() */
inline force_order(me)
{
#if ORDER_BY_FENCE
	fence(me)
#else
	fence_all()
#endif
}

/* scan_readers(): move the readers seen quiescent for g to the qs list. */
inline scan_readers(me, g, left)
{
	left = 0;
	ri = 0;
	do
	:: ri < NR ->
		LSTEP {
			if
#ifdef BUG_SCAN_SKIP
			:: where[ri] == 1 && ri != NR - 1 ->
#else
			:: where[ri] == 1 ->
#endif
				/* reader_done(): acquire (C11 acquire, aarch64 ldar) */
				load_w(me, A_RCTR(ri), v);
				order_nd(me);
				if
				:: QUIESCENT(v, g) ->
					where[ri] = 2;
					/*
					 * reader_done_clear(): once armed, a reader
					 * found done loses its waited byte (a plain
					 * store of the updater, modelled as reaching
					 * memory at once: only later sets of its own
					 * could follow it, and TSO keeps them in order)
					 */
					if
					:: armed -> flush_nd(me); commit_nd(me, A_WAITED(ri), 0)
					:: else
					fi
				:: else -> left = 1
				fi;
#ifdef WITNESS_NESTED
				/* reached: the scan waits for a nested reader */
				assert((v & NEST_MASK) != 2);
#endif
				v = 0
			:: else
			fi
		};
		ri++
	:: else -> break
	od;
	ri = 0
}

/* Set the waited byte of every reader the last scan found busy. */
inline mark_waited(me)
{
	ri = 0;
	do
	:: ri < NR ->
		if
		:: where[ri] == 1 -> store_pre_fence(me, A_WAITED(ri), 1)	/* relaxed */
		:: else
		fi;
		ri++
	:: else -> break
	od;
	ri = 0
}

/* wait_for_readers(g): called and returns with the registry lock held. */
inline wait_for_readers(me, g)
{
	loops = 0;
	armed = 0;
	do
	:: scan_readers(me, g, left);
		if
		:: left == 0 -> break
		:: else
		fi;
		if
		:: loops < SPIN_LOOPS -> loops++	/* spin, rescan */
		:: else ->
			if
			:: !armed ->
				/* set_gp_flags(URCU_GP_WAITER, 0): relaxed; a fence follows */
#ifdef WEAK
				d_step {
					sb_n[me] < SB ->
					load_nd(me, A_GCTR, c);
					append_nd(me, A_GCTR, c | F_WAITER, 0);
					c = 0
				};
#else
				d_step {
					flush_nd(me);
					mem[A_GCTR] = mem[A_GCTR] | F_WAITER
				};
#endif
				armed = 1
			:: else
			fi;
#ifndef BUG_WAITED_LATE
			/*
			 * The waited byte of each reader still on the list (the
			 * scan found it busy), then futex = -1: force_order
			 * follows, so each is a store_pre_fence.
			 */
			mark_waited(me);
#endif
			/* uatomic_set: relaxed; force_order follows */
			store_pre_fence(me, A_FUTEX, ARMED);
			/* pairs with the readers' idle store and flag check */
			force_order(me);
			scan_readers(me, g, left);
			if
			:: left == 0 -> break
			:: else
			fi;
#ifdef BUG_WAITED_LATE
			/* the waited bytes after the force order: not ordered by it */
			ri = 0;
			do
			:: ri < NR ->
				if
				:: where[ri] == 1 -> sb_store(me, A_WAITED(ri), 1)
				:: else
				fi;
				ri++
			:: else -> break
			od;
			ri = 0;
#endif
			mutex_unlock(me, A_REGLOCK);
#ifndef BUG_LOST_WAKEUP
			futex_wait(me, A_FUTEX, ARMED, gpf_sleep[me - NR], slept);
#else
			/* the check and the sleep as two steps: a wake between is lost */
			d_step {
				full_nd(me);
				if
				:: mem[A_FUTEX] == ARMED -> c = 1
				:: else -> c = 0
				fi
			};
			if
			:: c == 1 -> c = 0; gpf_sleep[me - NR] = 1; slept = 1
			:: else
			fi;
			gpf_sleep[me - NR] == 0;
#endif
#ifdef WITNESS_WAKE
			/* reached: the updater slept and a departing reader woke it */
			assert(!slept);
#endif
			slept = 0;
			mutex_lock(me, A_REGLOCK)
		fi
	od;
	if
	:: armed ->
		/* set_gp_flags(0, URCU_GP_WAITER) */
		d_step {
			sb_n[me] < SB ->
			load_nd(me, A_GCTR, c);
			append_nd(me, A_GCTR, c & (255 - F_WAITER), 0);	/* relaxed */
			c = 0
		};
		armed = 0
	:: else
	fi;
	/* cds_list_splice(&qs, &reg->readers) */
	d_step {
		ti = 0;
		do
		:: ti < NR ->
			if
			:: where[ti] == 2 -> where[ti] = 1
			:: else
			fi;
			ti++
		:: else -> break
		od;
		ti = 0
	};
	loops = 0
}

/* run_one_gp(): called with the leader lock held. */
inline run_one_gp(me)
{
	mutex_lock(me, A_REGLOCK);
	d_step {
		sb_n[me] < SB ->
		load_nd(me, A_STARTED, c);
		append_nd(me, A_STARTED, c + 1, 0);	/* relaxed; B1 orders it */
		c = 0
	};
	if
	:: REGISTRY_NONEMPTY ->
#ifndef BUG_SKIP_ORDERING
		force_order(me);		/* B1 */
#endif
		/* F: the flip */
		d_step {
			sb_n[me] < SB ->
			load_nd(me, A_GCTR, gg);
			gg = FLIPPED(gg);
			append_nd(me, A_GCTR, gg, 0)	/* CMM_STORE_SHARED: relaxed */
		};
		wait_for_readers(me, gg);	/* S */
		gg = 0
	:: else				/* empty registry: no flip */
	fi;
	mutex_unlock(me, A_REGLOCK);
	d_step {
		sb_n[me] < SB ->
		load_nd(me, A_DONE, c);
		append_nd(me, A_DONE, c + 1, 1);	/* release; pairs with gp_done() */
		c = 0
	}
}

/*
 * synchronize_rcu(): sync_target() (no registered thread: no grace period),
 * wait_for_gp(), the closing fence.
 */
inline synchronize_rcu(me)
{
	fence(me);			/* sync_target(): the removal before the loads */
	load_acq(me, A_NREG, d);	/* acquire: pairs with do_unregister() */
	if
	:: d == 0 ->
#ifdef WITNESS_NO_READER
		/* reached: a call returns without a grace period */
		assert(d != 0);
#endif
		skip
	:: else ->
		load(me, A_STARTED, target);	/* relaxed */
		target++;
		do
		:: load_acq(me, A_EPOCH, e);	/* acquire */
			load_acq(me, A_DONE, d);	/* gp_done(): acquire */
			if
			:: d >= target -> break
			:: else
			fi;
			/* pthread_mutex_trylock(&leader_lock) */
			mutex_trylock(me, A_LEADER, d);
			if
			:: d == 1 ->
				do
				:: load_acq(me, A_DONE, d);	/* gp_done(): acquire */
					if
					:: d >= target -> break
					:: else ->
						/*
						 * A leader runs one grace period at
						 * most, the one its target names:
						 * started == done under the lock.
						 */
						assert(d + 1 == target);
						run_one_gp(me)
					fi
				od;
				/*
				 * Callers that queued behind us are not served here:
				 * each retries after the epoch bump below.
				 */
				mutex_unlock(me, A_LEADER);
				atomic_add(me, A_EPOCH, 1);	/* pairs with nwaiters++ */
				load(me, A_NWAIT, d);	/* uatomic_read: relaxed */
				if
				:: d != 0 ->
					/* futex_wake(&epoch, INT_MAX) */
					d_step {
						full_nd(me);
						tj = 0;
						do
						:: tj < NU -> ep_sleep[tj] = 0; tj++
						:: else -> break
						od;
						tj = 0
					}
				:: else
				fi;
				break
			:: else ->
				atomic_add(me, A_NWAIT, 1);	/* pairs with the epoch bump */
				futex_wait(me, A_EPOCH, e, ep_sleep[me - NR], slept);
				slept = 0;
				atomic_sub(me, A_NWAIT, 1)
			fi
		od
	fi;
	fence(me);			/* later accesses after the grace period */
	target = 0;
	e = 0;
	d = 0
}

proctype updater(byte me; byte j)
{
	byte k, cur, target, e, d, c, gg, ri, v, loops;
	bit left, armed, slept;

	cur = j * (NUPD + 1);
	do
	:: k < NUPD ->
		publish(me, j, cur + 1);
		insync[j] = 1;
		synchronize_rcu(me);
		insync[j] = 0;
		/* the free: no reader may still access the old object */
		assert(!HELD(cur + 1));
		cur++;
		k++
	:: else -> break
	od;
	ufin++;
#ifdef WITNESS_SHARED
	d_step {
		if
		:: ufin == NU ->
			load_nd(me, A_DONE, d);
			/* reached: the calls were served by fewer grace periods */
			assert(d >= NU * NUPD)
		:: else
		fi;
		d = 0
	}
#endif
}

#ifdef LIVENESS
/*
 * A grace period ends once readers leave: every synchronize_rcu call
 * returns (weak fairness: pan -a -f).  The claim never terminates, so the
 * assertions are checked in every reachable state as well.
 */
#if NU == 1
ltl live { [] (insync[0] -> <> !insync[0]) }
#else
ltl live { [] ((insync[0] -> <> !insync[0]) && (insync[1] -> <> !insync[1])) }
#endif
#endif

init {
	byte i;

	atomic {
		mem[A_GCTR] = GP_INIT;
		do
		:: i < NU -> mem[A_PTR(i)] = i * (NUPD + 1); i++
		:: else -> break
		od;
		i = 0;
		do
		:: i < NR -> mem[A_RCTR(i)] = UNREG; i++
		:: else -> break
		od;
		i = 0;
		do
		:: i < NR ->
#ifdef FLAVOR_QSBR
			run qreader(i);
#else
			run reader(i);
#endif
			i++
		:: else -> break
		od;
		i = 0;
		do
		:: i < NU -> run updater(NR + i, i); i++
		:: else -> break
		od;
		i = 0;
		do
		:: i < NBUF -> run drainer(i); i++
		:: else -> break
		od;
		i = 0
	}
}
