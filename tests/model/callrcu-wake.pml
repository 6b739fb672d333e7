/*
 * SPDX-License-Identifier: MIT
 *
 * A Promela model of the call_rcu worker's wake-up handshake (S1-S4 and
 * E1-E3 at the top of liburcu/src/call-rcu-workers.c), with the worker's
 * splice and batch walk over its wfcqueue and, with -DSTOP, the stop request
 * and the free of the worker (call_rcu_data_free), under x86-TSO or, with
 * -DWEAK, an ARMv8-like weak memory model (memory-model.pml).
 * tests/model/run-model.py runs the checks (checks_handshakes.py);
 * tests/model/HANDSHAKES.md says what the model covers and leaves out.
 *
 * Threads: NE callers of call_rcu (NCB callbacks each), the worker (a
 * normal, non-RT one), and with STOP the thread that frees the worker once
 * every call_rcu has returned.
 *
 *   worker, queue found empty            call_rcu (i_crdp_enqueue)
 *   (S1) sleep = SLEEPING                (E1) tail xchg: full barrier
 *   (S2) smp_mb                          (E2) if the queue was empty: load sleep
 *   (S3) queue still empty (and no       (E3) if SLEEPING: cmpxchg(sleep,
 *        request): futex_wait(sleep,          SLEEPING, AWAKE), futex_wake
 *        SLEEPING)                            if it succeeded
 *   (S4) sleep = AWAKE
 *
 * Properties:
 *   - the worker never sleeps for ever while a callback is queued: without
 *     STOP the worker leaves once it has invoked every callback, so a worker
 *     asleep (or waiting) for ever is an invalid end state; with STOP, the
 *     stopper asserts, once every call_rcu has returned, that a sleeping
 *     worker has nothing left to do, and a worker that misses the stop
 *     request leaves the stopper waiting for ever (invalid end state);
 *   - every callback is invoked exactly once (STOP: invoked, or moved by
 *     call_rcu_data_free to the default worker, exactly once);
 *   - the worker reads a callback's func only after call_rcu's store of it
 *     is visible, and never follows an unwritten next pointer;
 *   - STOP: when the stopper frees the worker's call_rcu_data, the worker
 *     has no load of it left to perform and no store to it in its buffer
 *     (WEAK: wpend, a ghost for loads performed late).
 *
 * Configuration: NE (1..2) callers, NCB (1..2) callbacks each, STOP, WEAK;
 * CTRL_DEP (WEAK): a load that a branch depends on is performed before the
 * thread's later stores (ARMv8 hardware; C11 promises no such thing).
 * Witnesses (an assertion that fails once the situation is reached):
 *   WITNESS_WAKE       a caller wakes the worker asleep in futex_wait
 *   WITNESS_CAS_LOST   a caller read SLEEPING but lost the E3 cmpxchg (to
 *                      the worker's S4 or to another caller)
 *   WITNESS_MOVED      (STOP) a callback is left in the queue and moved
 * Seeded bugs:
 *   BUG_NO_S2          the worker's S2 fence left out: a lost wake-up on
 *                      x86 as well (store->load ordering, which TSO lacks)
 *   BUG_RELEASE_XCHG   E1's tail exchange with CMM_RELEASE: x86's xchg is
 *                      a full barrier anyway; on ARMv8 the E2 load of sleep
 *                      may be performed before E1 is visible: lost wake-up
 *   BUG_ACK_NO_FENCE   (STOP) worker_ack without its cmm_smp_mb: uatomic_or
 *                      is relaxed; x86's lock or is a full barrier, but on
 *                      ARMv8 the worker's S4 store to crdp->sleep may reach
 *                      memory after STOPPED, i.e. after the free, and under
 *                      C11 its last loads of crdp may be performed that late
 */

#ifndef NE
#define NE 1
#endif
#ifndef NCB
#define NCB 1
#endif
#if NE < 1 || NE > 2 || NCB < 1 || NCB > 2
#error "the model is written for NE 1..2, NCB 1..2"
#endif

#define NTOT		(NE * NCB)	/* callbacks */
#define W		NE		/* the worker's thread number */
#ifdef STOP
#define S		(NE + 1)	/* the thread that frees the worker */
#define NT		(NE + 2)
#else
#define NT		(NE + 1)
#endif

/* Pointer values. */
#define NIL		0
#define HEADNODE	1		/* &crdp->cbs_head.node */
#define NODE(c)		((c) + 2)	/* callback c's rcu_head (its next field) */
#define JUNK		250		/* a next field never written */
#define FN		1		/* the func call_rcu stores */

/* crdp->sleep and crdp->state (call-rcu-internal.h) */
#define AWAKE		0		/* CRDP_AWAKE */
#define SLEEPING	1		/* CRDP_SLEEPING (-1) */
#define CRDP_STOP	1
#define CRDP_STOPPED	2

/* Words. */
#define A_NEXT(p)	((p) - 1)	/* p->next: cbs_head.node.next is word 0 */
#define A_HEADNEXT	A_NEXT(HEADNODE)
#define A_TAIL		(NTOT + 1)	/* crdp->cbs_tail.p */
#define A_FUNC(p)	(NTOT + (p))	/* the rcu_head's func */
#define A_SLEEP		(2 * NTOT + 2)	/* crdp->sleep */
#define A_STATE		(2 * NTOT + 3)	/* crdp->state */
#define NADDR		(2 * NTOT + 4)

/* Wait conditions (memory-model.pml, SAT). */
#define NONNIL		0
#define STOPPED_SET	1
#define SAT(m, v)	((m) == NONNIL -> (v) != NIL : ((v) & CRDP_STOPPED) != 0)

bit asleep;			/* ghost: the worker sleeps in futex_wait */
bit inv[NTOT];			/* ghost: callback invoked */
bit moved[NTOT];		/* ghost: callback moved to the default worker */
byte ninv;			/* ghost: callbacks invoked */
byte edone;			/* ghost: callers whose every call_rcu returned */
#if defined(WEAK) && defined(STOP)
/*
 * Ghost: the worker loaded a word of its call_rcu_data and nothing has yet
 * ordered that load before the worker's later stores (ARMv8 may perform
 * it after them).  Ended by a fence, an RMW with a fence or a release store.
 */
bit wpend;
#endif

inline pend_done_nd(xp_)
{
#if defined(WEAK) && defined(STOP)
	if
	:: xp_ == W -> wpend = 0
	:: else
	fi
#else
	skip
#endif
}

#include "memory-model.pml"

/*
 * A relaxed load of a word of the worker's call_rcu_data, by the worker.
 * C11 (generic.h, the contract on every architecture) orders nothing by a
 * control dependency, so the load may be performed after the worker's later
 * stores: wpend.  CTRL_DEP models ARMv8 hardware instead, which never makes
 * a store visible before the loads its branches depend on: every load here
 * feeds a branch before the worker's next store, so none is late.
 */
inline wload(xa_, xr_)
{
	LSTEP {
		load_w(W, xa_, xr_);
#if defined(WEAK) && defined(STOP) && !defined(CTRL_DEP)
		wpend = 1
#else
		skip
#endif
	}
}

/*
 * futex_wait(&crdp->sleep, CRDP_SLEEPING): the kernel's check of the word
 * and the sleep are one step with respect to futex_wake, after a full
 * barrier (the hash-bucket lock).  No spurious wake-up is modelled: one
 * would hide a lost wake-up.
 */
inline futex_wait_sleep()
{
	d_step {
		full_nd(W);
		if
		:: mem[A_SLEEP] == SLEEPING -> asleep = 1
		:: else
		fi
	};
	asleep == 0
}

/* futex_wake(&crdp->sleep, 1): a full barrier, wakes the worker. */
inline futex_wake_sleep(xp_)
{
	d_step { full_nd(xp_); asleep = 0 }
}

/*
 * queue_empty(crdp) = cds_wfcq_i_empty: CMM_LOAD_SHARED(head->node.next)
 * == NULL && CMM_LOAD_SHARED(tail->p) == &head->node; relaxed loads.
 */
inline queue_empty(xe_)
{
	wload(A_HEADNEXT, h);
	if
	:: h == NIL ->
		wload(A_TAIL, t);
		xe_ = (t == HEADNODE)
	:: else -> xe_ = 0
	fi;
	h = 0;
	t = 0
}

proctype enqueuer(byte e)
{
	byte k, p, prev, s, r;

	do
	:: k < NCB ->
		p = NODE(e * NCB + k);
		/* call_rcu: head->func = func, a plain store (relaxed store: str). */
		store(e, A_FUNC(p), FN);
		/* cds_wfcq_i_enqueue: node->next = NULL, a plain store (str). */
		store(e, A_NEXT(p), NIL);
		/*
		 * (E1) prev = uatomic_xchg(&tail->p, node): a full barrier
		 * (generic: seq_cst exchange + cmm_smp_mb; aarch64: swpal or
		 * ldaxr/stlxr, dmb ish; x86: xchg).  Orders the two stores
		 * above before the link, and the tail before the load of sleep
		 * (pairs with S2).
		 */
#ifdef BUG_RELEASE_XCHG
		xchg_rel(e, A_TAIL, p, prev);
#else
		xchg(e, A_TAIL, p, prev);
#endif
		/* The link: CMM_STORE_SHARED(prev->next, node), relaxed store (str). */
		store(e, A_NEXT(prev), p);
		if
		:: prev == HEADNODE ->
			/* (E2) uatomic_read(&crdp->sleep): relaxed load (ldr). */
			load(e, A_SLEEP, s);
			if
			:: s == SLEEPING ->
				/* (E3) uatomic_cmpxchg: full RMW (casal + dmb ish). */
				cmpxchg(e, A_SLEEP, SLEEPING, AWAKE, r);
#ifdef WITNESS_CAS_LOST
				assert(r == SLEEPING);
#endif
				if
				:: r == SLEEPING ->
#ifdef WITNESS_WAKE
					assert(!asleep);
#endif
					futex_wake_sleep(e)
				:: else
				fi
			:: else
			fi
		:: else
		fi;
		prev = 0; s = 0; r = 0;
		k++
	:: else -> break
	od;
	p = 0;
#ifdef STOP
	/*
	 * The caller's read-side section ends and a grace period passes
	 * before anyone frees the worker (call_rcu_data_free's contract):
	 * that grace period orders everything the caller did before the
	 * stopper's next access; a fence of the caller stands for it.
	 */
	fence(e);
#endif
	edone++
}

/* worker_wait(): S1-S4. */
inline worker_wait()
{
	/* (S1) uatomic_set(&crdp->sleep, CRDP_SLEEPING): relaxed store (str). */
	store(W, A_SLEEP, SLEEPING);
	/* (S2) cmm_smp_mb() (dmb ish): S1 before S3's loads; pairs with E1. */
#ifndef BUG_NO_S2
	fence(W);
#endif
	/* (S3) queue_empty(crdp) && !requested(crdp): relaxed loads (ldr) */
	queue_empty(isempty);
#ifdef STOP
	if
	:: isempty ->
		/* requested(): uatomic_read(&crdp->state), relaxed load (ldr). */
		wload(A_STATE, s);
		isempty = !(s & CRDP_STOP);
		s = 0
	:: else
	fi;
#endif
	if
	:: isempty -> futex_wait_sleep()
	:: else
	fi;
	isempty = 0;
	/* (S4) uatomic_set(&crdp->sleep, CRDP_AWAKE): relaxed store (str). */
	store(W, A_SLEEP, AWAKE)
}

/* worker_run_batch(): splice, one grace period, invoke the batch. */
inline run_batch()
{
	/* cds_wfcq_i_splice: an empty source costs two loads. */
	queue_empty(isempty);
	if
	:: isempty -> isempty = 0; goto batch_done
	:: else
	fi;
	do
	:: /* first = uatomic_xchg(&head->node.next, NULL): full RMW */
		xchg(W, A_HEADNEXT, NIL, first);
		if
		:: first != NIL -> break
		:: else
		fi;
		/* CMM_LOAD_SHARED(tail->p) == &head->node (relaxed load): source empty */
		wload(A_TAIL, t);
		if
		:: t == HEADNODE -> t = 0; goto batch_done
		:: else
		fi;
		t = 0;
		/*
		 * An enqueuer sits between its exchange and its link: back off
		 * and exchange again, which is worth it only once the link
		 * reached memory (the exchange reads memory).
		 */
		mem[A_HEADNEXT] != NIL
	od;
	/* last = uatomic_xchg(&tail->p, &head->node): full RMW */
	xchg(W, A_TAIL, HEADNODE, last);
	/*
	 * The append to the private batch (cds_wfcq_i_append: an exchange on
	 * the batch's tail) and synchronize_rcu(): full barriers with no
	 * shared access of the worker in between, one fence for both.
	 */
	fence(W);
	/* cds_wfcq_i_first_blocking(batch): the batch's head is private. */
	node = first;
	do
	:: node == NIL -> break
	:: else ->
		/*
		 * cds_wfcq_i_next_blocking: uatomic_load(&node->next,
		 * CMM_ACQUIRE); NULL with node not the batch's (private) tail:
		 * wait for the enqueuer's link, acquire loads again.
		 */
		load_acq(W, A_NEXT(node), nx);
		assert(nx != JUNK);
		if
		:: nx == NIL && node != last ->
			load_acq_until(W, A_NEXT(node), nx, NONNIL);
			assert(nx != JUNK)
		:: else
		fi;
		/*
		 * head->func(head): a plain load through node (relaxed load,
		 * ldr, with an address dependency), after the acquire loads
		 * above.
		 */
		load(W, A_FUNC(node), f);
		assert(f == FN);
		d_step {
			assert(inv[node - 2] == 0);
			inv[node - 2] = 1;
			ninv++;
			f = 0
		};
		node = nx;
		nx = 0
	od;
batch_done:
	first = 0;
	last = 0
}

proctype worker()
{
	byte s, h, t, first, last, node, nx, f;
	bit isempty;

	do
#ifndef STOP
	/* Every callback invoked: what the worker does next is of no interest. */
	:: ninv == NTOT -> break
	:: else ->
#else
	:: true ->
		/* s = uatomic_read(&crdp->state): relaxed load (ldr). */
		wload(A_STATE, s);
		if
		:: s & CRDP_STOP -> break
		:: else
		fi;
		s = 0;
#endif
		queue_empty(isempty);
		if
		:: isempty -> isempty = 0; worker_wait()
		:: else -> run_batch()
		fi
	od;
#ifdef STOP
	s = 0;
	/*
	 * (unregister_thread left out: its mutex's acquire and release order
	 * no earlier load before the ack below.)  worker_ack(CRDP_STOPPED):
	 * cmm_smp_mb() (dmb ish) orders the worker's every access to crdp
	 * before the ack (pairs with the acquire load in i_crdp_wait_state);
	 * uatomic_or is a relaxed RMW (stset; x86: lock or, a full barrier
	 * anyway).
	 */
#ifndef BUG_ACK_NO_FENCE
	fence(W);
#endif
	or_rlx(W, A_STATE, CRDP_STOPPED);
	/* uatomic_add_return(&park_seq, 1): full RMW (the word is left out) */
	fence(W)
#endif
}

#if defined(WEAK) && defined(STOP)
#define wpend_any	wpend
#else
#define wpend_any	0
#endif

#ifdef STOP
/* call_rcu_data_free(crdp), once every call_rcu to it has returned. */
proctype stopper()
{
	byte s, node, nx, nmoved;

	edone == NE;
	/* Nothing is left for a sleeping worker (else a wake-up was lost). */
	assert(!asleep || ninv == NTOT);
	/* i_crdp_request(crdp, CRDP_STOP): cmm_smp_mb() (dmb ish) */
	fence(S);
	/* uatomic_or(&crdp->state, CRDP_STOP): relaxed RMW (stset; x86 lock or) */
	or_rlx(S, A_STATE, CRDP_STOP);
	/* cmm_smp_mb(): the request before the AWAKE store; pairs with S2. */
	fence(S);
	/* uatomic_set(&crdp->sleep, CRDP_AWAKE): relaxed store (str) */
	store(S, A_SLEEP, AWAKE);
	/* futex_wake(&crdp->sleep, 1); the wake of crdp->state has no waiter here */
	futex_wake_sleep(S);
	/*
	 * i_crdp_wait_state(crdp, CRDP_STOPPED): uatomic_load(&crdp->state,
	 * CMM_ACQUIRE) (ldar) until the bit is set, futex waits in between.
	 */
	load_acq_until(S, A_STATE, s, STOPPED_SET);
	s = 0;
	/*
	 * i_crdp_move_all: the callbacks left in the queue move, in order, to
	 * the default worker (dequeue_blocking with nobody else on the queue:
	 * a walk from the head; its next loads are acquire loads, ldar).
	 */
	load_acq(S, A_HEADNEXT, node);
	do
	:: node == NIL -> break
	:: else ->
		d_step {
			assert(inv[node - 2] == 0 && moved[node - 2] == 0);
			moved[node - 2] = 1;
			nmoved++
		};
		load_acq(S, A_NEXT(node), nx);
		assert(nx != JUNK);
		node = nx;
		nx = 0
	od;
	/* Every callback invoked by the worker or moved, exactly once. */
	assert(ninv + nmoved == NTOT);
#ifdef WITNESS_MOVED
	assert(nmoved == 0);
#endif
	/*
	 * i_crdp_destroy: free(crdp).  The worker is done with it: no store
	 * of it to crdp still buffered (the worker stores nothing else in
	 * this model), no load of crdp left to perform.
	 */
	assert(sb_n[W] == 0);
	assert(!wpend_any)
}
#endif

init {
	byte i;

	atomic {
		/* i_crdp_create: an empty queue, sleep = AWAKE, state = 0 */
		mem[A_HEADNEXT] = NIL;
		mem[A_TAIL] = HEADNODE;
		i = 0;
		do
		:: i < NTOT ->
			mem[A_NEXT(NODE(i))] = JUNK;
#ifdef WEAK
			old[A_NEXT(NODE(i))] = JUNK;
#endif
			i++
		:: else -> break
		od;
#ifdef WEAK
		old[A_TAIL] = HEADNODE;
#endif
		i = 0;
		do
		:: i < NE -> run enqueuer(i); i++
		:: else -> break
		od;
		run worker();
#ifdef STOP
		run stopper();
#endif
		i = 0;
		do
		:: i < NT -> run drainer(i); i++
		:: else -> break
		od;
		i = 0
	}
}
