# SPDX-License-Identifier: MIT
"""Checks of callrcu-wake.pml (the call_rcu worker's wake-up handshake and
stop request) and wfcqueue.pml (the wfcqueue enqueue link and blocking
dequeue), each under x86-TSO and under the ARMv8-like weak model (-DWEAK).
run-model.py loads this module; tests/model/HANDSHAKES.md describes the
models and lists every check with its numbers.

Naming: a check under the weak model has "weak" in its name, a seeded bug
starts with "bug-", and the TSO run of a weak-only bug is its twin
"...-tso-passes" (the same variant, no counterexample on x86).
"""

CALLRCU = "callrcu-wake.pml"
WFCQ = "wfcqueue.pml"
LITMUS = "litmus.pml"

DEADLOCK = "invalid end state"


# Moved out of the default run to keep model-quick to about a minute of
# CPU (each check costs 1-2 s, almost all of it compiling the verifier):
# the litmus tests of the memory model, the witnesses, the -cycles proofs
# and the dependency-rule pair run in the opt-in suite.
FULL_ONLY = ("litmus-", "witness-", "-cycles", "wfcq-dep-weak", "bug-wfcq-no-dep-weak")


def checks(Check, kind):
    every_quick = litmus_quick(Check) + quick(Check)
    later = [c for c in every_quick if any(k in c.name for k in FULL_ONLY)]
    if kind == "quick":
        return [c for c in every_quick if c not in later]
    return later + litmus_full(Check) + full(Check)


def cr(Check, name, defs, expect=None, why="", big=False, mode="safety"):
    return Check(name, defs, mode, expect, why, big, model=CALLRCU)


def wq(Check, name, defs, expect=None, why="", big=False, mode="safety"):
    return Check(name, defs, mode, expect, why, big, model=WFCQ)


def lt(Check, name, defs, allowed, why):
    """A litmus test: an allowed outcome must be reached (the final
    assertion fails), a forbidden one must not."""
    prefix = {True: "allowed: ", False: "forbidden: ", None: "not produced: "}[allowed]
    return Check(name, defs, "safety", "assertion violated" if allowed else None,
                 prefix + why, model=LITMUS)


def litmus_quick(Check):
    w = ["-DWEAK"]
    sb = ["-DSB_TEST"]
    mp = ["-DMP_TEST"]
    return [
        lt(Check, "litmus-sb-tso", sb, True, "store buffering, x86's one reordering"),
        lt(Check, "litmus-sb-weak", sb + w, True, "store buffering"),
        lt(Check, "litmus-sb-fenced-weak", sb + ["-DFENCED"] + w, False,
           "store buffering with cmm_smp_mb on both sides"),
        lt(Check, "litmus-mp-tso", mp, False, "message passing, plain accesses on x86"),
        lt(Check, "litmus-mp-weak", mp + w, True, "message passing, relaxed accesses"),
        lt(Check, "litmus-mp-rel-acq-weak", mp + ["-DW_REL", "-DR_ACQ"] + w, False,
           "message passing, release store and acquire load"),
        lt(Check, "litmus-mp-rel-dep-weak", mp + ["-DW_REL", "-DR_DEP"] + w, False,
           "message passing, release store and an address dependency"),
        lt(Check, "litmus-corr-weak", ["-DCORR_TEST"] + w, False,
           "two loads of one word going back in time (coherence)"),
    ]


def litmus_full(Check):
    w = ["-DWEAK"]
    mp = ["-DMP_TEST"]
    return [
        lt(Check, "litmus-sb-fenced-tso", ["-DSB_TEST", "-DFENCED"], False,
           "store buffering with mfence on both sides"),
        lt(Check, "litmus-mp-rel-weak", mp + ["-DW_REL"] + w, True,
           "message passing, release store, relaxed loads (the loads reorder)"),
        lt(Check, "litmus-mp-acq-weak", mp + ["-DR_ACQ"] + w, True,
           "message passing, relaxed stores (they reorder), acquire load"),
        lt(Check, "litmus-mp-wmb-acq-weak", mp + ["-DW_WMB", "-DR_ACQ"] + w, False,
           "message passing, cmm_smp_wmb and acquire load"),
        lt(Check, "litmus-corr-tso", ["-DCORR_TEST"], False, "coherence on x86"),
        lt(Check, "litmus-lb-weak", ["-DLB_TEST"] + w, None,
           "load buffering: ARMv8 allows it, the model never produces it (a bound: "
           "late loads are ghosts where they matter)"),
    ]


def quick(Check):
    weak = ["-DWEAK"]
    c1 = ["-DNE=1", "-DNCB=1"]
    stop = ["-DNE=1", "-DNCB=1", "-DSTOP"]
    q1 = ["-DNE=1", "-DK=2"]
    return [
        # The handshake, correct.
        cr(Check, "callrcu-wake-tso", ["-DNE=2", "-DNCB=1"],
           why="two call_rcu callers, one callback each: no lost wake-up, each callback "
           "invoked once with its func visible"),
        cr(Check, "callrcu-wake-weak", ["-DNE=1", "-DNCB=2"] + weak,
           why="one caller, two callbacks (the second into a non-empty queue or after a "
           "splice), weak memory"),
        cr(Check, "callrcu-wake-weak-cycles", ["-DNE=1", "-DNCB=2"] + weak, mode="cycles",
           why="no cycle at all: every execution of callrcu-wake-weak is finite, so a "
           "worker that never finishes is a stuck state, which the safety search reports"),
        cr(Check, "callrcu-stop-tso", stop,
           why="stop request after the last call_rcu: the worker wakes and acks, leftovers "
           "move once, the free finds the worker done"),
        cr(Check, "callrcu-stop-weak", stop + weak,
           why="the same under weak memory (late loads of the freed call_rcu_data checked)"),
        # The handshake has teeth: S2 is needed on x86 already.
        cr(Check, "bug-callrcu-no-s2-tso", c1 + ["-DBUG_NO_S2"], DEADLOCK,
           "S2 left out: S1 still buffered while S3 finds the queue empty, the caller reads "
           "AWAKE, the worker sleeps for ever"),
        cr(Check, "bug-callrcu-no-s2-weak", c1 + ["-DBUG_NO_S2"] + weak, DEADLOCK,
           "S2 left out, weak memory"),
        # Weak-only: E1 with CMM_RELEASE.
        cr(Check, "callrcu-release-xchg-tso-passes", c1 + ["-DBUG_RELEASE_XCHG"],
           why="E1 with CMM_RELEASE is still a full barrier on x86 (xchg): no counterexample"),
        cr(Check, "bug-callrcu-release-xchg-weak", c1 + ["-DBUG_RELEASE_XCHG"] + weak,
           DEADLOCK, "E1 with CMM_RELEASE on ARMv8: the E2 load of sleep is performed before "
           "E1 is visible, reads AWAKE; the worker sleeps for ever"),
        # Weak-only: worker_ack without its fence.
        cr(Check, "callrcu-ack-no-fence-tso-passes", stop + ["-DBUG_ACK_NO_FENCE"],
           why="worker_ack without cmm_smp_mb: x86's lock or is a full barrier anyway"),
        cr(Check, "bug-callrcu-ack-no-fence-weak", stop + ["-DBUG_ACK_NO_FENCE"] + weak,
           "!(wpend)", "worker_ack without cmm_smp_mb, C11: the worker's relaxed load of "
           "crdp->state may be performed after STOPPED is visible, i.e. after the free"),
        cr(Check, "bug-callrcu-ack-no-fence-ctrldep-weak",
           stop + ["-DBUG_ACK_NO_FENCE", "-DCTRL_DEP"] + weak, "(sb_n[1]==0)",
           "the same on ARMv8 hardware, which orders those loads by their control "
           "dependencies: the S4 store to crdp->sleep still reaches memory after STOPPED, "
           "after the free"),
        # Witnesses: the weak runs reach the situations the checks are about.
        cr(Check, "witness-callrcu-wake-weak", c1 + ["-DWITNESS_WAKE"] + weak, "!(asleep)",
           "the worker sleeps in futex_wait and the caller's futex_wake wakes it"),
        cr(Check, "witness-callrcu-cas-lost-weak", ["-DNE=2", "-DNCB=1", "-DWITNESS_CAS_LOST"]
           + weak, "(r==1)", "a caller reads SLEEPING and loses the cmpxchg"),
        cr(Check, "witness-callrcu-moved-weak", stop + ["-DWITNESS_MOVED"] + weak,
           "(nmoved==0)", "the stop request finds a callback queued: it moves"),
        wq(Check, "witness-wfcq-wait-link-weak", ["-DNE=2", "-DK=1", "-DWITNESS_WAIT_LINK"]
           + weak, "(r==node)", "the dequeuer's cmpxchg fails: it waits for an "
           "enqueuer's link"),
        # The queue, correct.
        wq(Check, "wfcq-tso", ["-DNE=2", "-DK=2"],
           why="two enqueuers, two nodes each, blocking dequeue: once each, FIFO per "
           "enqueuer, payload and next initialised"),
        wq(Check, "wfcq-weak", ["-DNE=1", "-DK=3"] + weak,
           why="one enqueuer, three nodes (FIFO of the whole queue), weak memory"),
        wq(Check, "wfcq-2e-weak", ["-DNE=2", "-DK=1"] + weak,
           why="two enqueuers racing on the tail, weak memory"),
        wq(Check, "wfcq-weak-cycles", ["-DNE=1", "-DK=3"] + weak, mode="cycles",
           why="no cycle at all: every execution of wfcq-weak is finite"),
        # Weak-only: the tail exchange relaxed.
        wq(Check, "wfcq-relaxed-xchg-tso-passes", q1 + ["-DBUG_RELAXED_XCHG"],
           why="E2 with CMM_RELAXED: x86's xchg is a full barrier anyway"),
        wq(Check, "bug-wfcq-relaxed-xchg-weak", q1 + ["-DBUG_RELAXED_XCHG"] + weak,
           "(nx!=250)", "E2 with CMM_RELAXED on ARMv8: the link reaches memory before "
           "next = NULL; the dequeuer follows an unwritten next field"),
        wq(Check, "bug-wfcq-relaxed-xchg-zeroed-weak",
           q1 + ["-DBUG_RELAXED_XCHG", "-DZEROED"] + weak, "(v==1)",
           "the same with zeroed nodes: the dequeuer reads the payload before the "
           "enqueuer's store of it is visible"),
        # Weak-only: the dequeuer's tail compare-exchange relaxed.
        wq(Check, "wfcq-relaxed-cmpxchg-tso-passes", q1 + ["-DBUG_RELAXED_CMPXCHG"],
           why="the last-node cmpxchg with CMM_RELAXED: x86's lock cmpxchg is a full "
           "barrier anyway"),
        wq(Check, "bug-wfcq-relaxed-cmpxchg-weak", q1 + ["-DBUG_RELAXED_CMPXCHG"] + weak,
           DEADLOCK, "the last-node cmpxchg with CMM_RELAXED on ARMv8: head->node.next = "
           "NULL lands after the next enqueuer's link; the node is lost, the dequeuer "
           "waits for ever"),
        # The address-dependency rule of the weak model.
        wq(Check, "wfcq-dep-weak", q1 + ["-DRELAXED_HEAD_LOAD"] + weak,
           why="head->node.next loaded relaxed: the address dependency alone orders the "
           "loads through the node (ARMv8)"),
        wq(Check, "bug-wfcq-no-dep-weak", q1 + ["-DRELAXED_HEAD_LOAD", "-DNO_DEP"] + weak,
           "(nx!=250)", "relaxed and without the dependency (Alpha): the load of "
           "node->next is performed before the link was read"),
    ]


def full(Check):
    weak = ["-DWEAK"]
    e2 = ["-DNE=2", "-DNCB=1"]
    return [
        cr(Check, "callrcu-wake-2e2cb-tso", ["-DNE=2", "-DNCB=2"], big=True,
           why="two callers, two callbacks each"),
        cr(Check, "callrcu-wake-2e-weak", e2 + weak, big=True,
           why="two callers, one callback each, weak memory"),
        cr(Check, "callrcu-stop-2e-tso", e2 + ["-DSTOP"], big=True,
           why="two callers, then the stop request"),
        cr(Check, "callrcu-stop-2e-weak", e2 + ["-DSTOP"] + weak, big=True,
           why="two callers, then the stop request, weak memory"),
        cr(Check, "callrcu-stop-2cb-weak", ["-DNE=1", "-DNCB=2", "-DSTOP"] + weak, big=True,
           why="one caller, two callbacks, then the stop request, weak memory"),
        cr(Check, "callrcu-release-xchg-2e-tso-passes", e2 + ["-DBUG_RELEASE_XCHG"],
           big=True, why="E1 with CMM_RELEASE, two callers, x86: no counterexample"),
        cr(Check, "bug-callrcu-release-xchg-2e-weak", e2 + ["-DBUG_RELEASE_XCHG"] + weak,
           DEADLOCK, "E1 with CMM_RELEASE, two callers, ARMv8: lost wake-up"),
        cr(Check, "bug-callrcu-ack-no-fence-2e-weak",
           e2 + ["-DSTOP", "-DBUG_ACK_NO_FENCE"] + weak, "!(wpend)",
           "worker_ack without its fence, two callers, C11 late loads"),
        wq(Check, "wfcq-2e2k-weak", ["-DNE=2", "-DK=2"] + weak, big=True,
           why="two enqueuers, two nodes each, weak memory"),
        wq(Check, "wfcq-2e3k-tso", ["-DNE=2", "-DK=3"], big=True,
           why="two enqueuers, three nodes each"),
        wq(Check, "wfcq-relaxed-xchg-2e2k-tso-passes", ["-DNE=2", "-DK=2",
                                                        "-DBUG_RELAXED_XCHG"], big=True,
           why="E2 relaxed, two enqueuers, x86: no counterexample"),
        wq(Check, "bug-wfcq-relaxed-cmpxchg-2e-weak",
           ["-DNE=2", "-DK=1", "-DBUG_RELAXED_CMPXCHG"] + weak, DEADLOCK,
           "the last-node cmpxchg relaxed, two enqueuers, ARMv8: a node lost"),
    ]
