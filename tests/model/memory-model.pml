/*
 * SPDX-License-Identifier: MIT
 *
 * The memory model shared by callrcu-wake.pml and wfcqueue.pml: x86-TSO,
 * or with -DWEAK an ARMv8-like weak model.  The semantics are those of the
 * memory-model section of urcu-gp.pml (same names, same rules), in a file of
 * its own so that the two small models include it.  The includer defines,
 * before the #include:
 *   NT      threads that own a store buffer (0 .. NT-1)
 *   NADDR   shared words (mem[0 .. NADDR-1])
 *   SB      store-buffer entries per thread (2 or 3)
 *   SAT(m, v)   whether value v satisfies wait condition number m (a
 *           blocking wait names its condition by a number: an inline
 *           cannot take a macro name, spin substitutes after cpp)
 *   inline pend_done_nd(xp_)   what a fence, an RMW (other than a relaxed
 *           one) or a release store of thread xp_ ends in the includer's
 *           ghosts (loads that may still be performed late); may be "skip".
 *
 * TSO: every thread owns a FIFO store buffer; a load returns the youngest
 * buffered store of its own thread to the same word, else memory; a
 * drainer moves the OLDEST entry to memory whenever it likes; a full fence
 * and every RMW first empty the thread's buffer; an RMW acts atomically on
 * memory.  (x86: every locked instruction is a full barrier, whatever
 * memory order the C source asked for.)
 *
 * WEAK (ARMv8-like, other-multicopy-atomic: one memory, and a store that
 * reaches it is visible to every other thread at once):
 *   - the buffer is unordered across words: any entry may reach memory
 *     unless an older entry of the same buffer has the same word
 *     (coherence); a release entry (stlr) only once it is the oldest;
 *     cmm_smp_wmb() (dmb ishst) empties the buffer at the barrier, which
 *     orders every earlier store before every later one and, since the
 *     thread makes no access in the same step, hides nothing else;
 *   - loads performed early (load->load reordering): old[a] is the value
 *     the last store to reach memory at word a overwrote; mayold[t][a] says
 *     thread t may still return it (set for every thread but the writer
 *     when a store reaches memory; cleared for t when t reads the current
 *     value, which coherence then forbids it to go back on, and at every
 *     ordering point of t: full fence, acquire load (after the load), RMW
 *     with a fence (our uatomic layer's default), dmb ishld).  A load that
 *     is not forwarded returns mem[a], or old[a] while mayold[t][a];
 *   - an address dependency (a load through a pointer just loaded) clears
 *     mayold[t][dependent word] at the pointer's load (dep_nd);
 *   - loads performed late (load->store reordering) only matter where a
 *     later store lets another thread free or reuse what the load read:
 *     the includer keeps a ghost for such a load until pend_done_nd;
 *   - history of depth one: a load returns at most the value one store
 *     old, never two (a bound of the model, not of the hardware).
 *
 * The kinds of access the two models use, and what each is on the generic
 * C11 layer (arch/include/urcu/uatomic/generic.h, arch/generic.h), on
 * aarch64 (arch/aarch64.h + generic.h: there is no aarch64 uatomic file)
 * and on x86 (uatomic/x86.h), with the helper below that models it:
 *
 *   kind            C source                 generic C11        aarch64            x86          helper
 *   relaxed load    uatomic_read,            __atomic_load_n    ldr                mov          load
 *                   CMM_LOAD_SHARED, plain   RELAXED (volatile)
 *   acquire load    uatomic_load(, ACQUIRE)  __atomic_load_n    ldar               mov          load_acq
 *                                            ACQUIRE
 *   relaxed store   uatomic_set,             __atomic_store_n   str                mov          store
 *                   CMM_STORE_SHARED, plain  RELAXED (volatile)
 *   full fence      cmm_smp_mb               seq_cst fence      dmb ish            mfence       fence
 *   full RMW        uatomic_xchg, _cmpxchg,  seq_cst builtin +  swpal/casal (or    lock xchg,   xchg, cmpxchg
 *                   _add_return (no order)   cmm_smp_mb         ldaxr/stlxr) +     lock cmpxchg
 *                                                               dmb ish
 *   relaxed RMW     uatomic_or (no order),   RELAXED builtin    stset / ldxr-stxr  lock or      or_rlx, xchg_rlx,
 *                   any RMW with RELAXED                                           (full)       cmpxchg_rlx
 *   release RMW     an RMW with RELEASE      RELEASE builtin    swpl / ldxr-stlxr  lock ...     xchg_rel
 *                                                                                  (full)
 *   futex call      futex_wait, futex_wake   syscall: full barrier (the hash-bucket lock)    fence + the call
 *
 * On these kinds the generic layer and aarch64 agree (the two differ on
 * cmm_smp_wmb and cmm_smp_rmb, which neither model uses), so -DWEAK stands
 * for both.  Where C11 and ARMv8 hardware differ (a load that a branch
 * depends on, which ARMv8 performs before the thread's later stores and
 * C11 does not order), a model says so and checks both (callrcu-wake.pml,
 * CTRL_DEP).  x86 has no relaxed or release RMW: TSO models them as full.
 */

#ifndef SB
#define SB 3
#endif
#if SB < 2 || SB > 3
#error "the drainer below is written out for SB 2 or 3"
#endif

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
byte sb_a[NT * SB];		/* buffered stores: word */
byte sb_v[NT * SB];		/* buffered stores: value */
byte sb_n[NT];			/* entries in each buffer */
byte ti, tj, tk;		/* d_step scratch: always 0 between steps */
#ifdef WEAK
bit tf;				/* scratch: the last load was forwarded */
bit sb_r[NT * SB];		/* buffered store is a release */
byte old[NADDR];		/* the value the last store to a word overwrote */
bit mayold[NT * NADDR];		/* thread t may still read old[a] */
#endif

/* ---- guards on what a load may return (for blocking waits) ------------- */

#define SBI(p, i)	((p) * SB + (i))
#define HIT(p, i, a)	(sb_n[p] > (i) && sb_a[SBI(p, i)] == (a))
#if SB == 3
#define HASFWD(p, a)	(HIT(p, 0, a) || HIT(p, 1, a) || HIT(p, 2, a))
#define FWDV(p, a)	(HIT(p, 2, a) -> sb_v[SBI(p, 2)] : \
			(HIT(p, 1, a) -> sb_v[SBI(p, 1)] : sb_v[SBI(p, 0)]))
#else
#define HASFWD(p, a)	(HIT(p, 0, a) || HIT(p, 1, a))
#define FWDV(p, a)	(HIT(p, 1, a) -> sb_v[SBI(p, 1)] : sb_v[SBI(p, 0)])
#endif
#ifdef WEAK
#define STALE_OK(p, a, m)	(mayold[(p) * NADDR + (a)] && SAT(m, old[a]))
#else
#define STALE_OK(p, a, m)	0
#endif
/* A load of word a by thread p may return a value satisfying condition m. */
#define CAN_READ(p, a, m)	(HASFWD(p, a) -> SAT(m, FWDV(p, a)) : \
				(SAT(m, mem[a]) || STALE_OK(p, a, m)))

/* ---- stores ------------------------------------------------------------ */

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

/* A relaxed store (C11 relaxed, CMM_STORE_SHARED, a plain store; aarch64 str). */
inline store(xp_, xa_, xv_)
{
	d_step {
		sb_n[xp_] < SB ->
		append_nd(xp_, xa_, xv_, 0)
	}
}

/* A release store (C11 release; aarch64 stlr; x86 mov). */
inline store_rel(xp_, xa_, xv_)
{
	d_step {
		sb_n[xp_] < SB ->
		append_nd(xp_, xa_, xv_, 1)
	}
}

/*
 * A store reaches memory.  WEAK keeps the value it overwrites in old[] and
 * lets every other thread read it until that thread's next ordering point
 * or its first read of the new value.
 */
inline commit_nd(xp_, xa_, xv_)
{
#ifdef WEAK
	old[xa_] = mem[xa_];
	tk = 0;
	do
	:: tk < NT -> mayold[tk * NADDR + xa_] = (tk != xp_); tk++
	:: else -> break
	od;
	tk = 0;
#endif
	mem[xa_] = xv_
}

/* WEAK: an ordering point for thread xp_'s later loads. */
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

/* WEAK: the load of word xa_ through a pointer thread xp_ just loaded. */
inline dep_nd(xp_, xa_)
{
#ifdef WEAK
	mayold[xp_ * NADDR + xa_] = 0
#else
	skip
#endif
}

/* ---- loads ------------------------------------------------------------- */

/* Store forwarding, else memory (tf = 1 when forwarded). */
inline load_nd(xp_, xa_, xr_)
{
	xr_ = mem[xa_];
	ti = 0;
	do
	:: ti < sb_n[xp_] ->
		if
		:: sb_a[xp_ * SB + ti] == xa_ ->
			xr_ = sb_v[xp_ * SB + ti];
#ifdef WEAK
			tf = 1
#else
			skip
#endif
		:: else
		fi;
		ti++
	:: else -> break
	od;
	ti = 0
}

/* A load of a shared word, inside an LSTEP; WEAK: maybe the old value. */
inline load_w(xp_, xa_, xr_)
{
	load_nd(xp_, xa_, xr_);
#ifdef WEAK
	if
	:: tf == 0 && mayold[xp_ * NADDR + xa_] -> xr_ = old[xa_]
	:: tf == 0 -> mayold[xp_ * NADDR + xa_] = 0
	:: tf == 1
	fi;
	tf = 0
#endif
}

/* A relaxed load (C11 relaxed, CMM_LOAD_SHARED; aarch64 ldr; x86 mov). */
inline load(xp_, xa_, xr_)
{
	LSTEP { load_w(xp_, xa_, xr_) }
}

/* An acquire load (C11 acquire; aarch64 ldar; x86 mov). */
inline load_acq(xp_, xa_, xr_)
{
	LSTEP { load_w(xp_, xa_, xr_); order_nd(xp_) }
}

/*
 * One of the values a load may return that satisfies condition m (inside an
 * LSTEP, after a CAN_READ(xp_, xa_, m) guard).  It stands for the last iteration
 * of a polling loop: the iterations that read a value failing m change
 * nothing the thread keeps, so leaving them out loses no behaviour, and a
 * thread waiting for a value nobody will store is blocked, which pan
 * reports as an invalid end state.
 */
inline load_sel(xp_, xa_, xr_, m_)
{
	if
	:: HASFWD(xp_, xa_) -> xr_ = FWDV(xp_, xa_)
	:: !HASFWD(xp_, xa_) && SAT(m_, mem[xa_]) ->
		xr_ = mem[xa_];
#ifdef WEAK
		mayold[xp_ * NADDR + xa_] = 0
#else
		skip
#endif
#ifdef WEAK
	:: !HASFWD(xp_, xa_) && STALE_OK(xp_, xa_, m_) -> xr_ = old[xa_]
#endif
	fi
}

/* while (!SAT(m, r = load(a))) wait; relaxed, or acquire. */
inline load_until(xp_, xa_, xr_, m_)
{
	LSTEP { CAN_READ(xp_, xa_, m_) -> load_sel(xp_, xa_, xr_, m_) }
}

inline load_acq_until(xp_, xa_, xr_, m_)
{
	LSTEP { CAN_READ(xp_, xa_, m_) -> load_sel(xp_, xa_, xr_, m_); order_nd(xp_) }
}

/* ---- fences ------------------------------------------------------------ */

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

/* Empty buffer xp_ into memory, oldest first (inside a d_step). */
inline flush_nd(xp_)
{
	do
	:: sb_n[xp_] > 0 ->
		commit_nd(xp_, sb_a[xp_ * SB], sb_v[xp_ * SB]);
		unbuffer_nd(xp_, 0)
	:: else -> break
	od
}

/*
 * A full barrier (inside a d_step): cmm_smp_mb() (C11 seq_cst fence;
 * aarch64 dmb ish; x86 mfence or a locked instruction), and the fence of
 * every RMW that has one.
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

/* cmm_smp_wmb() as dmb ishst: earlier stores before later stores. */
inline wmb(xp_)
{
	d_step { flush_nd(xp_) }
}

/*
 * WEAK: before an RMW on word xa_ that has no fence, the thread's buffered
 * stores to that word reach memory, with every older entry (a prefix of
 * the buffer: allowed in any model).
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

/* ---- read-modify-writes --------------------------------------------------- */

/*
 * uatomic_xchg / uatomic_cmpxchg without a memory order (the default of our
 * uatomic layer): generic.h makes them a seq_cst builtin followed by
 * cmm_smp_mb() (aarch64: ldaxr/stlxr or swpal/casal, then dmb ish); x86 a
 * locked instruction.  A full barrier on both sides, atomic on memory.
 */
inline xchg(xp_, xa_, xv_, xr_)
{
	d_step { full_nd(xp_); xr_ = mem[xa_]; commit_nd(xp_, xa_, xv_) }
}

inline cmpxchg(xp_, xa_, xe_, xv_, xr_)
{
	d_step {
		full_nd(xp_);
		xr_ = mem[xa_];
		if
		:: xr_ == xe_ -> commit_nd(xp_, xa_, xv_)
		:: else
		fi
	}
}

/*
 * The same with CMM_RELAXED (generic.h: a relaxed builtin, no fence;
 * aarch64 ldxr/stxr, swp or cas: atomic on its word, ordered against
 * nothing else).  x86 has no such instruction: lock xchg / lock cmpxchg
 * are full barriers whatever the order asked, so TSO keeps the full form.
 */
inline xchg_rlx(xp_, xa_, xv_, xr_)
{
#ifdef WEAK
	d_step { drain_word_nd(xp_, xa_); xr_ = mem[xa_]; commit_nd(xp_, xa_, xv_) }
#else
	xchg(xp_, xa_, xv_, xr_)
#endif
}

inline cmpxchg_rlx(xp_, xa_, xe_, xv_, xr_)
{
#ifdef WEAK
	d_step {
		drain_word_nd(xp_, xa_);
		xr_ = mem[xa_];
		if
		:: xr_ == xe_ -> commit_nd(xp_, xa_, xv_)
		:: else
		fi
	}
#else
	cmpxchg(xp_, xa_, xe_, xv_, xr_)
#endif
}

/*
 * CMM_RELEASE (generic.h: a release builtin, no fence; aarch64 ldxr/stlxr
 * or swpl): every earlier access before it, but nothing orders it before
 * the thread's later loads.  x86: a locked instruction, full.
 */
inline xchg_rel(xp_, xa_, xv_, xr_)
{
#ifdef WEAK
	d_step {
		flush_nd(xp_);
		pend_done_nd(xp_);
		xr_ = mem[xa_];
		commit_nd(xp_, xa_, xv_)
	}
#else
	xchg(xp_, xa_, xv_, xr_)
#endif
}

/* uatomic_or without a memory order: a relaxed RMW (x86: lock or, full). */
inline or_rlx(xp_, xa_, xbits_)
{
#ifdef WEAK
	d_step { drain_word_nd(xp_, xa_); commit_nd(xp_, xa_, mem[xa_] | (xbits_)) }
#else
	d_step { full_nd(xp_); mem[xa_] = mem[xa_] | (xbits_) }
#endif
}

/* ---- drainers ------------------------------------------------------------- */

/*
 * One drainer per buffer.  TSO: the oldest store reaches memory.  WEAK:
 * any entry does, unless an older entry has the same word or it is a
 * release store with an older entry left.
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
