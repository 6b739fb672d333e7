/*
 * SPDX-License-Identifier: MIT
 *
 * A Promela model of the wait-free concurrent queue's enqueue and dequeue
 * (liburcu/include/urcu/static/wfcqueue.h: cds_wfcq_i_enqueue,
 * cds_wfcq_i_dequeue_with_state, cds_wfcq_i_empty_node,
 * cds_wfcq_i_wait_next), under x86-TSO or, with -DWEAK, an ARMv8-like weak
 * memory model (memory-model.pml).  tests/model/run-model.py runs the checks
 * (tests/model/checks_handshakes.py); tests/model/HANDSHAKES.md says what
 * the model covers and leaves out.
 *
 * NE enqueuers each enqueue K nodes of their own; one dequeuer (the
 * three-underscore blocking dequeue, whose caller provides the exclusion)
 * dequeues until it has every node.  Before each enqueue the enqueuer
 * initialises the node's payload (a plain store, as a caller filling in its
 * struct); after each dequeue the dequeuer reads it through the node
 * pointer.  A node's next field starts as JUNK (memory never written),
 * as a freshly allocated node's would.
 *
 * Properties (assertions; a dequeuer that waits for ever is an invalid end
 * state):
 *   - every enqueued node is dequeued exactly once (deq[], got);
 *   - the nodes of one enqueuer come out in the order it enqueued them
 *     (FIFO; with NE = 1 that is the whole queue's order);
 *   - the dequeuer never reads an uninitialised payload or next field;
 *   - the dequeuer never waits for a link that never comes.
 *
 * Configuration: NE enqueuers (1..2), K nodes each (1..3), WEAK; ZEROED:
 * nodes come from zeroed memory (next starts NULL, not JUNK).
 *
 * The address dependency: RELAXED_HEAD_LOAD makes the dequeuer's load of
 * head->node.next relaxed; the loads through the node it returns stay
 * ordered after it by their address dependency alone (ARMv8, and every
 * architecture but Alpha).  NO_DEP takes the dependency away as well (what
 * Alpha, or a compiler that turned the dependency into a control one, would
 * do): a weak-memory counterexample, which shows the dependency rule of the
 * model is what the first configuration rests on.
 * Witness: WITNESS_WAIT_LINK, an assertion that fails once the dequeuer's
 * cmpxchg finds an enqueuer past E2 and it waits for that E3.
 *
 * Seeded bugs (correct on x86, wrong on ARMv8, where the C source's memory
 * order is what the instruction gets):
 *   BUG_RELAXED_XCHG      E2's tail exchange with CMM_RELAXED: the payload
 *                         and next = NULL stores may reach memory after E3
 *                         made the node reachable.
 *   BUG_RELAXED_CMPXCHG   the dequeuer's tail compare-exchange (last node)
 *                         with CMM_RELAXED: its head->node.next = NULL store
 *                         may land after the next enqueuer's E3 wrote the
 *                         head link, and the queue loses that node.
 */

#ifndef NE
#define NE 1
#endif
#ifndef K
#define K 2
#endif
#if NE < 1 || NE > 2 || K < 1 || K > 3
#error "the model is written for NE 1..2, K 1..3"
#endif

#define NN		(NE * K)	/* nodes */
#define NT		(NE + 1)	/* threads: enqueuers 0..NE-1, the dequeuer */
#define D		NE

/* Pointer values. */
#define NIL		0
#define HEADNODE	1		/* &head->node (the dummy) */
#define NODE(c)		((c) + 2)	/* node c, 0 <= c < NN */
#define JUNK		250		/* a next field never written */
#define PAYLOAD		1		/* what an enqueuer stores */

/* Words. */
#define A_NEXT(p)	((p) - 1)	/* p->next: head->node.next is word 0 */
#define A_HEADNEXT	A_NEXT(HEADNODE)
#define A_TAIL		(NN + 1)	/* tail->p */
#define A_PAY(p)	(NN + (p))	/* the payload of node p */
#define NADDR		(2 * NN + 2)

/* Wait conditions (memory-model.pml, SAT). */
#define NONNIL		0
#define ISNIL		1
#define NOTHEAD		2
#define SAT(m, v)	((m) == NONNIL -> (v) != NIL : \
			((m) == ISNIL -> (v) == NIL : (v) != HEADNODE))

/* No load of this model needs a late-load ghost (HANDSHAKES.md). */
inline pend_done_nd(xp_)
{
	skip
}

#include "memory-model.pml"

bit deq[NN];			/* ghost: node dequeued */
byte got;			/* ghost: nodes dequeued */
byte nextk[NE];			/* ghost: the next node expected of each enqueuer */

proctype enqueuer(byte e)
{
	byte k, p, prev;

	do
	:: k < K ->
		p = NODE(e * K + k);
		/* The caller initialises its node: a plain store (relaxed store, str). */
		store(e, A_PAY(p), PAYLOAD);
		/* E1 node->next = NULL: a plain store (str; node still private). */
		store(e, A_NEXT(p), NIL);
		/*
		 * E2 prev = uatomic_xchg(&tail->p, node): a full barrier
		 * (generic: seq_cst exchange + cmm_smp_mb; aarch64: swpal or
		 * ldaxr/stlxr, then dmb ish; x86: xchg).  It orders the payload
		 * and E1 before E3.
		 */
#ifdef BUG_RELAXED_XCHG
		xchg_rlx(e, A_TAIL, p, prev);
#else
		xchg(e, A_TAIL, p, prev);
#endif
		/*
		 * E3 CMM_STORE_SHARED(prev->next, node): a relaxed store
		 * (aarch64 str, x86 mov); its address depends on E2's result.
		 */
		store(e, A_NEXT(prev), p);
		prev = 0;
		k++
	:: else -> break
	od;
	p = 0
}

proctype dequeuer()
{
	byte h, t, node, nx, r, v, c;

	do
	:: got == NN -> break
	:: else ->
		/*
		 * cds_wfcq_i_empty_node: CMM_LOAD_SHARED(head->node.next) ==
		 * NULL && CMM_LOAD_SHARED(tail->p) == &head->node, two relaxed
		 * loads.  An "empty" answer makes the caller poll again; the
		 * step waits for a "non-empty" answer instead (load_sel).
		 */
		LSTEP {
			(CAN_READ(D, A_HEADNEXT, NONNIL) ||
			 (CAN_READ(D, A_HEADNEXT, ISNIL) && CAN_READ(D, A_TAIL, NOTHEAD))) ->
			if
			:: CAN_READ(D, A_HEADNEXT, NONNIL) ->
				load_sel(D, A_HEADNEXT, h, NONNIL)
			:: CAN_READ(D, A_HEADNEXT, ISNIL) && CAN_READ(D, A_TAIL, NOTHEAD) ->
				load_sel(D, A_HEADNEXT, h, ISNIL);
				load_sel(D, A_TAIL, t, NOTHEAD)
			fi;
			h = 0;
			t = 0
		};
		/*
		 * cds_wfcq_i_wait_next(&head->node): uatomic_load(..., CMM_ACQUIRE)
		 * until non-NULL (aarch64 ldar).  The loads through node below
		 * also carry an address dependency on it.
		 */
		LSTEP {
			CAN_READ(D, A_HEADNEXT, NONNIL) ->
			load_sel(D, A_HEADNEXT, node, NONNIL);
#ifndef RELAXED_HEAD_LOAD
			order_nd(D);
#endif
#ifndef NO_DEP
			dep_nd(D, A_NEXT(node));
			dep_nd(D, A_PAY(node));
#endif
			skip
		};
		assert(node != JUNK);
		/* next = uatomic_load(&node->next, CMM_ACQUIRE): ldar */
		load_acq(D, A_NEXT(node), nx);
		assert(nx != JUNK);
		if
		:: nx == NIL ->
			/* node looks last: CMM_STORE_SHARED(head->node.next, NULL), str */
			store(D, A_HEADNEXT, NIL);
			/*
			 * uatomic_cmpxchg(&tail->p, node, &head->node): a full
			 * RMW (seq_cst builtin + cmm_smp_mb; casal or ldaxr/stlxr,
			 * then dmb ish; x86 lock cmpxchg); the NULL store above reaches memory before
			 * the tail says "empty", so it cannot overwrite the head
			 * link of the enqueuer whose E2 reads that tail.
			 */
#ifdef BUG_RELAXED_CMPXCHG
			cmpxchg_rlx(D, A_TAIL, node, HEADNODE, r);
#else
			cmpxchg(D, A_TAIL, node, HEADNODE, r);
#endif
#ifdef WITNESS_WAIT_LINK
			assert(r == node);
#endif
			if
			:: r == node -> r = 0; goto taken
			:: else
			fi;
			r = 0;
			/* An enqueuer did E2 after node: wait for its E3 (acquire loads, ldar). */
			load_acq_until(D, A_NEXT(node), nx, NONNIL);
			assert(nx != JUNK)
		:: else
		fi;
		/* CMM_STORE_SHARED(head->node.next, next): relaxed store (str) */
		store(D, A_HEADNEXT, nx);
taken:
		/*
		 * The caller reads the node's payload through the returned
		 * pointer: a relaxed load, ordered by the acquire loads above
		 * (and by the address dependency).
		 */
		load(D, A_PAY(node), v);
		assert(v == PAYLOAD);
		c = node - 2;
		d_step {
			assert(deq[c] == 0);
			deq[c] = 1;
			/* FIFO per enqueuer: its nodes are c = e * K + 0, 1, ... */
			assert(c % K == nextk[c / K]);
			nextk[c / K]++;
			got++;
			c = 0; v = 0; nx = 0; node = 0
		}
	od
}

init {
	byte i;

	atomic {
		/* cds_wfcq_i_init_nolock: head->node.next = NULL, tail->p = &head->node */
		mem[A_HEADNEXT] = NIL;
		mem[A_TAIL] = HEADNODE;
		i = 0;
		do
		:: i < NN ->
#ifndef ZEROED
			mem[A_NEXT(NODE(i))] = JUNK;
#ifdef WEAK
			old[A_NEXT(NODE(i))] = JUNK;
#endif
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
		run dequeuer();
		i = 0;
		do
		:: i < NT -> run drainer(i); i++
		:: else -> break
		od;
		i = 0
	}
}
