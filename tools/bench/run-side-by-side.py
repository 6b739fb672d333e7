#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Side-by-side benchmarks: this project's RCU core against Debian's liburcu
(and Concurrency Kit's epoch reclamation, below).

Every benchmark in tools/bench/ is compiled twice from the same source with
gcc -O2: once against our headers and the libraries of a Meson build
directory, once against Debian's liburcu (0.13.2 on bookworm).  The two
builds run interleaved, round after round (ours then liburcu in even rounds,
liburcu then ours in odd ones), so that machine drift hits both alike; the
read-side benchmarks run three short processes per side per round.  The
result is one table: metric | ours | liburcu | ratio (ours/liburcu) | the
project's target (TARGETS below) | verdict.

liburcu is taken from --ref-dir (default /opt/liburcu-ref, a `dpkg -x` of
liburcu-dev and liburcu8).  When that directory is absent, the packages are
fetched with `apt-get download` and unpacked with `dpkg -x` into a cache
under the build directory; nothing is installed system-wide.

The second peer, Concurrency Kit's epoch reclamation (ck_epoch, Debian's
libck-dev; --peers liburcu,ck, alias --peer): the same sources compiled with
-DBENCH_PEER_CK (bench-ck.h maps the liburcu calls onto ck_epoch: records,
ck_epoch_begin/end, ck_epoch_synchronize, ck_epoch_call + ck_epoch_poll,
ck_epoch_barrier) and bench-ck-hash.c (ck_hs beside rculfhash's mixed
mode), against libck from --ck-dir or fetched like liburcu (apt-get
download libck-dev libck0, dpkg -x into the build directory).  ck joins
the runs listed in CK_RUNS, in the same rounds (ours, liburcu, ck in even
rounds, reversed in odd ones), and its rows print in a table of their own:
our metric | ck's | both medians | ratio ours/ck | per-round range | vs ck
(against our A/A floor) | what differs in guarantees (CK_DIFFERS,
docs/PERFORMANCE.md "Concurrency Kit").  A full run includes ck when libck
can be had (else one line, and no ck rows); --peers ck runs ours and ck
only; the hash rows need --only hash or --data-structures.  The gate
(--quick, --check, --write-baseline), --self-compare and --breakdown run
liburcu only: ck's rows are informational.

Noise: every round also runs our build of a few benchmarks a second time
(AA_RUNS: one read-side, one grace-period, one callback and one idle-reader
row); those, and the repeated runs of one side within a round (the read-side
rows run three processes per side), are A/A samples; the spread of our
values within a round, for the median round (the largest with fewer than 3
rounds), is this run's A/A noise floor of the metric (at least MIN_NOISE),
and the largest such floor in a class that of the class, printed in the header with the load at start and end.  A ratio
ours/liburcu inside the noise floor of its class is reported as "within
noise", never as a win or a loss.

--breakdown runs only our side: the per-phase breakdown of one grace period
for memb, bp, qsbr, mb and signal (bench-breakdown.c, linked against the
URCU_I_PHASE_TRACE copies of the libraries that tools/bench/meson.build
builds), beside the same flavors' synchronize_rcu p50 from the production
libraries and the membarrier floor, all from the same run.

--quick runs the regression gate's rows (GATE_METRICS: the read side, the
grace periods, call_rcu, synchronize_rcu from an unregistered thread and
three hash-table rows) and nothing else, as short processes, GATE_ROUNDS
rounds: the regression gate (below).

--plan prints the runs a command would make and their estimated time,
without running anything (the full run is meant to stay under ~10 minutes,
--quick under 5 on 2 CPUs).

Exit status: 0 when every benchmark ran (whether or not targets are met),
1 when a benchmark crashed, lost callbacks, timed out or failed to build
against our library, 2 on a usage or set-up error.  Target verdicts are
informational.

The regression gate
-------------------
    meson test -C build --suite bench bench-check
    tools/bench/run-side-by-side.py --build-dir build --check [--baseline FILE]
    tools/bench/run-side-by-side.py --check --from-json RUN.json

--check runs the gate (--quick, ~3 min on 2 CPUs) or takes a run's --json
record, and compares each gate row's ratio ours/liburcu with the stored
baseline (tools/bench/baseline.json).  A row SLIPPED when its ratio got worse
(lower for gp/s, cb/s, op/s and thr/s; higher for times and bytes) by more
than its margin: the largest of the baseline's A/A spread for the row, this
run's A/A floor for it (noise_for()) and CHECK_MIN_MARGIN (1.05); "better"
when it improved by more.  One line per row (metric, baseline ratio, now,
margin, verdict), then a summary.  Exit status 0 when nothing slipped; 1 when
a row slipped, a baseline row is missing (unless its binary is optional,
call_rcu, and was not built; rows left out by --only are "not run") or our
build failed (a failure of liburcu's side is reported, not counted); 77
(meson: skipped) when there is no baseline file; 2 on an unreadable file.

The baseline holds per gate row the ratio (median over rounds, as in the
table), its A/A spread from a --self-compare gate run made in the same
conditions (max/min of the two liburcu sides in each round, taken over the
rounds as the noise floor is: the median round), the unit and both medians;
and when, where and how it was measured (date, commit, liburcu version, CPU
count, load at start and end, rounds) for both runs.  Write it on a quiet
machine, either in one go (a gate run, then a --self-compare gate run; with
--json RUN.json both records are kept, the second as RUN-aa.json):
    tools/bench/run-side-by-side.py --build-dir build --write-baseline tools/bench/baseline.json
or from two records made before:
    tools/bench/run-side-by-side.py --quick --json RUN.json
    tools/bench/run-side-by-side.py --quick --self-compare --json SELF.json
    tools/bench/run-side-by-side.py --write-baseline tools/bench/baseline.json \
        --from-json RUN.json --aa-json SELF.json
No baseline is written when our build failed in the gate run; liburcu's
failures are only reported, and its rows take the other rounds.  (liburcu
0.13 can lose a lazy resize of an auto-resize table: it marks the resize
started only after handing it to its worker, which may have finished by
then, and launches none after that; filling the 10^6 keys of the
hash.mixed1000000 rows then goes quadratic until RUN_TIMEOUT_S, seen under
load.)  Update the baseline in the same commit as a change that moves a
row on purpose, with the reason in the commit message.

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import contextlib
import datetime
import glob
import io
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_ROOT = os.path.dirname(os.path.dirname(HERE))
COMMON_SOURCES = ["bench-reader.c", "bench-util.c"]
RUN_TIMEOUT_S = 120

# Binaries: name -> (main source, flavor, inline fast paths?)
BINARIES = {}
for _fl in ("memb", "qsbr", "mb", "bp", "signal"):
    BINARIES["read-%s-inline" % _fl] = ("bench-read.c", _fl, True)
for _fl in ("memb", "qsbr"):
    BINARIES["read-%s-call" % _fl] = ("bench-read.c", _fl, False)
# Our read side is inline even without _LGPL_SOURCE; URCU_NO_INLINE_READ_SIDE
# makes it library calls again (liburcu ignores the macro: calls either way).
BINARIES["read-memb-outofline"] = ("bench-read.c", "memb", False)
EXTRA_CFLAGS = {"read-memb-outofline": ["-DURCU_NO_INLINE_READ_SIDE"]}
for _fl in ("memb", "mb", "qsbr", "bp", "signal"):
    BINARIES["sync-%s" % _fl] = ("bench-sync.c", _fl, True)
BINARIES["callback-memb"] = ("bench-callback.c", "memb", True)
BINARIES["hash-memb"] = ("bench-hash.c", "memb", True)
# Stacks and queues through the libraries' functions (no _LGPL_SOURCE).
BINARIES["cds-memb"] = ("bench-cds.c", "memb", False)
BINARIES["scale-memb"] = ("bench-scale.c", "memb", True)

# Extra libraries a binary links (the data-structure benchmarks).
EXTRA_LIBS = {"hash-memb": ["-lurcu-cds"], "cds-memb": ["-lurcu-cds"]}

# Benchmarks that may be missing from our library without that being an
# error: call_rcu lands separately from the core.
OPTIONAL_OURS = {"callback-memb"}

# The data-structure benchmarks run only when asked for (--only hash, or
# --data-structures): they take a few minutes of their own.
DATA_STRUCTURE_BINARIES = {"hash-memb", "cds-memb"}

# Runs, in the order of a round: (binary, arguments, processes per side per
# round, metrics it prints).  The read-side figures move between processes
# of the same binary (placement of the thread's data, what shares the core),
# so each round runs several short read processes per side, interleaved, and
# keeps their median.
READ_REPEAT = 3
RUNS = [
    ("read-memb-inline", [], READ_REPEAT, ["read.memb.inline"]),
    ("read-memb-call", [], READ_REPEAT, ["read.memb.call"]),
    ("read-memb-outofline", [], READ_REPEAT, ["read.memb.outofline"]),
    ("read-qsbr-inline", [], READ_REPEAT, ["read.qsbr.inline"]),
    ("read-qsbr-call", [], READ_REPEAT, ["read.qsbr.call"]),
    ("read-mb-inline", [], READ_REPEAT, ["read.mb.inline"]),
    ("read-bp-inline", [], READ_REPEAT, ["read.bp.inline"]),
    ("read-signal-inline", [], READ_REPEAT, ["read.signal.inline"]),
]
for _fl in ("memb", "mb", "qsbr", "bp", "signal"):
    # memb and bp also time a bare membarrier after each grace period (the
    # floor, in the same process): .floor and .over_floor (p50 / floor p50)
    RUNS.append(("sync-" + _fl, [], 1,
                 ["sync.%s.%s" % (_fl, s)
                  for s in ("p50", "mean", "p99", "samples", "reader_cpu")
                  + (("floor", "over_floor") if _fl in ("memb", "bp") else ())]))
for _fl in ("memb", "mb", "qsbr", "bp", "signal"):
    # synchronize_rcu from a thread that never registered, no reader at all
    RUNS.append(("sync-" + _fl, ["-m", "unregistered"], 1, ["sync.%s.unreg_call" % _fl]))
RUNS += [
    # gp/s with several callers swings with what else runs (whether the
    # reader's CPU is busy decides what a membarrier costs): shorter,
    # interleaved repeats pair up better than one long run
    ("sync-memb", ["-c", "4", "-t", "1"], 3, ["sync4.memb.gps", "sync4.memb.mean",
                                                 "sync4.memb.reader_cpu"]),
    ("callback-memb", ["-m", "latency"], 1,
     ["cblat.memb.p50", "cblat.memb.p99", "cblat.memb.mean", "cblat.memb.reader_cpu",
      "cblat.memb.disturbed", "cblat.memb.p99_undisturbed", "cblat.memb.p99_disturbed",
      "cblat.memb.rq_wait.p99"]),
    ("callback-memb", ["-m", "throughput", "-t", "1"], 2,
     ["cbtput.memb.rate", "cbtput.memb.enqueue_rate", "cbtput.memb.max_backlog",
      "cbtput.memb.stalls", "cbtput.memb.reader_cpu"]),
    # two enqueuer threads on the updater CPU
    ("callback-memb", ["-m", "throughput", "-c", "2", "-t", "1"], 1,
     ["cbtput2.memb.rate", "cbtput2.memb.enqueue_rate", "cbtput2.memb.max_backlog",
      "cbtput2.memb.stalls", "cbtput2.memb.reader_cpu"]),
]
# The hardware floor under a memb grace period (one cross-CPU membarrier,
# and the same with no IPI), how synchronize_rcu grows with idle registered
# threads, and thread registration churn while grace periods run.
RUNS += [
    ("scale-memb", ["-m", "floor"], 1, ["floor.membarrier.p50"]),
    ("scale-memb", ["-m", "floor-same"], 1, ["floor.membarrier_same.p50"]),
    # a spinner on every other CPU: the floor with a reader on each CPU
    # (docs/PERFORMANCE.md; equal to the first row on 2 CPUs)
    ("scale-memb", ["-m", "floor-all"], 1, ["floor.membarrier_all.p50",
                                           "floor.membarrier_all.cpus"]),
]
IDLE_SIZES = (1, 16, 256, 1024)
for _n in IDLE_SIZES:
    RUNS.append(("scale-memb", ["-m", "idle", "-n", str(_n)], 1,
                 ["idle%d.memb.p50" % _n, "idle%d.memb.p99" % _n, "idle%d.memb.reader_cpu" % _n,
                  "idle%d.memb.floor" % _n]))
RUNS.append(("scale-memb", ["-m", "churn"], 1,
             ["churn.memb.rate", "churn.memb.gps", "churn.memb.threads",
              "churn.memb.register.p50", "churn.memb.register.p99",
              "churn.memb.unregister.p50", "churn.memb.unregister.p99"]))

# The A/A rows: our build runs these a second time in every round (after
# both sides' runs, so that ours/ours spans the same stretch of time as
# ours/liburcu), and the ours/ours ratios give this run's noise floor for the
# class of metrics each stands for (noise_class()).
AA_RUNS = [
    ("read-memb-inline", []),
    ("sync-memb", []),
    ("callback-memb", ["-m", "latency"]),
    ("scale-memb", ["-m", "idle", "-n", "16"]),
]


# Rows that describe the run rather than measure the library (how much CPU
# the reader had, sample counts, ...): no noise floor, no "vs liburcu".
DIAGNOSTIC_SUFFIXES = (".reader_cpu", ".samples", ".disturbed", ".rq_wait.p99", ".stalls",
                       ".threads", ".max_backlog", ".gps", ".cpus", ".floor", ".depth", ".csw")


def is_diagnostic(metric):
    return metric.endswith(DIAGNOSTIC_SUFFIXES) and not metric.startswith("sync4.")


def noise_class(metric):
    """The A/A class a metric's noise is taken from: its family, and whether
    it is a tail (p99) or a central figure (p50, mean, rate)."""
    head = metric.split(".", 1)[0]
    if head == "read":
        family = "read side"
    elif head.startswith(("cblat", "cbtput")):
        family = "callbacks"
    elif head.startswith(("sync", "idle", "floor")):
        family = "grace periods"
    else:
        family = "other"
    return "%s, %s" % (family, "p99" if ".p99" in metric else "central")


# Estimated seconds per process (full, quick), for --plan and the header:
# from the binaries' default run lengths plus start-up, measured on a
# quiet 2-CPU machine; retries of preempted runs are not included.
def estimate_s(name, args, quick):
    a = " ".join(args)
    if name.startswith("read-"):
        return 0.35 if quick else 0.9
    if name.startswith("sync-"):
        if "unregistered" in a:
            return 0.35 if quick else 1.05
        if "-c" in args:
            return 1.1
        return 0.6 if quick else 2.1
    if name.startswith("callback-"):
        if "latency" in a:
            return 0.6 if quick else 2.1
        return 1.3
    if name.startswith("scale-"):
        if "floor" in a:
            return 0.1
        if "churn" in a:
            return CHURN_CAP_S[1 if quick else 0] + 0.2
        return 0.6 if quick else 1.2
    if name.startswith("hash-"):
        if "resize" in a:
            return 6.0
        if "mixed" in a and "1000000" in args:
            # filling 10^6 keys from one bucket, and the teardown
            return 2.5 if quick else 3.5
        return 0.5 if quick else 1.5
    if name.startswith("cds-"):
        return 0.8 if quick else 3.3
    if name.startswith("breakdown-"):
        return 0.6 if quick else 2.1
    return 1.0


# bench-scale -m churn stops after this many seconds (full, quick) even if
# its thread count is not reached (its defaults, mirrored here for the plan);
# the rate is threads / elapsed either way.
CHURN_CAP_S = (10.0, 2.0)

# The hash table: lookups that hit at 1,000 keys (in cache) and
# 1,000,000 keys (memory-bound), misses, a mixed workload with auto-resize,
# an explicit resize storm, and the memory cost of an empty table.
for _n in (1000, 1000000):
    for _t in (1, 2):
        RUNS.append(("hash-memb", ["-m", "hit", "-n", str(_n), "-c", str(_t)], 1,
                     ["hash.hit%d.t%d" % (_n, _t)]))
RUNS += [
    ("hash-memb", ["-m", "miss", "-n", "1000000", "-c", "1"], 1, ["hash.miss1000000.t1"]),
    ("hash-memb", ["-m", "mixed", "-n", "1000000", "-c", "1"], 1, ["hash.mixed1000000.t1"]),
    ("hash-memb", ["-m", "mixed", "-n", "1000000", "-c", "2"], 1, ["hash.mixed1000000.t2"]),
    # liburcu's runhash.sh small key range (-A -M 10 -N 10 -O 10), lookups only
    ("hash-memb", ["-m", "hit-auto", "-n", "10", "-c", "1"], 1, ["hash.hitauto10.t1"]),
    ("hash-memb", ["-m", "mixed-auto", "-n", "1000", "-c", "2"], 1, ["hash.mixedauto1000.t2"]),
    ("hash-memb", ["-m", "mixed-auto", "-n", "1000000", "-c", "2"], 1,
     ["hash.mixedauto1000000.t2"]),
    ("hash-memb", ["-m", "resize", "-n", "1000000"], 1, ["hash.grow", "hash.shrink"]),
    ("hash-memb", ["-m", "mem", "-n", "1000"], 1, ["hash.mem.per_table"]),
]

# Stacks and queues, one producer and one consumer: throughput with the
# regime it ran in beside it (queue depth, push-to-pop latency, consumer
# sleeps; bench-cds.c explains why).
for _s in ("wfcqueue", "wfstack", "lfstack", "rculfqueue"):
    RUNS.append(("cds-memb", ["-m", _s, "-c", "1"], 1,
                 ["cds.%s.1x1%s" % (_s, _m) for _m in
                  ("", ".cpu", ".depth", ".lat.p50", ".lat.p99", ".csw")]))
# The same queue with 64 nodes per producer: the consumer on the producer's
# heels, where a consumer that sleeps on a half-done enqueue loses.
RUNS.append(("cds-memb", ["-m", "wfcqueue", "-c", "1", "-n", "64"], 1,
             ["cds.wfcqueue.1x1.n64%s" % _m for _m in
              ("", ".cpu", ".depth", ".lat.p50", ".lat.p99", ".csw")]))

# The project's performance targets: what each metric must reach for the
# library to be worth using instead of liburcu.
#   ("ratio<=", x): ours/liburcu at most x;  ("ratio>=", x): at least x;
#   ("ours<=", x): our absolute value at most x (in the metric's unit).
TARGETS = {
    # memb and bp synchronize_rcu p50 within 1.2x of the membarrier floor
    # measured in the same process: a grace period costs little more than
    # the one system call it cannot avoid
    "sync.memb.over_floor": ("ours<=", 1.2),
    "sync.bp.over_floor": ("ours<=", 1.2),
    "read.memb.inline": ("ratio<=", 0.75),
    "read.memb.call": ("ours<=", 3.0),
    "read.qsbr.inline": ("ratio<=", 1.0),
    "sync.memb.p50": ("ratio<=", 0.55),
    "sync.bp.mean": ("ratio<=", 0.5),
    "sync.signal.p50": ("ratio<=", 0.2),
    "sync4.memb.gps": ("ratio>=", 1.5),
    "cblat.memb.p50": ("ours<=", 250.0),
    "cblat.memb.p99": ("ours<=", 2000.0),
    "cbtput.memb.rate": ("ratio>=", 0.95),
    # synchronize_rcu from a thread that never registered, no reader
    "sync.memb.unreg_call": ("ratio<=", 1.05),
    "sync.mb.unreg_call": ("ratio<=", 1.05),
    "sync.qsbr.unreg_call": ("ratio<=", 1.05),
    "sync.bp.unreg_call": ("ratio<=", 1.05),
    "sync.signal.unreg_call": ("ratio<=", 1.05),
    # idle registered threads and registration churn
    "idle256.memb.p50": ("ratio<=", 0.5),
    "idle1024.memb.p50": ("ratio<=", 0.5),
    "churn.memb.rate": ("ratio>=", 1.0),
    # the hash table
    "hash.hit1000.t1": ("ratio>=", 1.2),
    "hash.hit1000.t2": ("ratio>=", 1.2),
    "hash.hit1000000.t1": ("ratio>=", 1.15),
    "hash.hit1000000.t2": ("ratio>=", 1.15),
    "hash.miss1000000.t1": ("ratio>=", 1.15),
    "hash.mixed1000000.t1": ("ratio>=", 0.95),
    "hash.mixed1000000.t2": ("ratio>=", 1.2),
    "hash.hitauto10.t1": ("ratio>=", 1.0),
    "hash.grow": ("ratio<=", 1 / 1.5),
    "hash.shrink": ("ratio<=", 1 / 1.5),
    "hash.mem.per_table": ("ratio<=", 0.6),
}

# The regression gate (--quick, --check, --write-baseline): the rows whose
# ratio ours/liburcu --check compares with the stored baseline.  --quick
# makes exactly the runs that print one of them (hash rows included).
GATE_METRICS = (
    "read.memb.inline", "read.memb.call", "read.qsbr.inline",
    "sync.memb.p50", "sync.memb.over_floor", "sync.bp.mean", "sync.bp.over_floor",
    "sync.signal.p50", "sync4.memb.gps",
    "sync.memb.unreg_call", "sync.mb.unreg_call", "sync.qsbr.unreg_call",
    "sync.bp.unreg_call", "sync.signal.unreg_call",
    "cblat.memb.p50", "cblat.memb.p99", "cbtput.memb.rate",
    "hash.mixed1000000.t1", "hash.hitauto10.t1", "hash.mem.per_table",
)

# Rounds of a --quick (gate) run: short processes, more rounds than a full
# run, within 5 minutes on 2 CPUs (--plan --quick).
GATE_ROUNDS = 5

SIDES = ("ours", "liburcu")

# --- The Concurrency Kit peer (ck_epoch, Debian's libck-dev) ---------------
# The second peer: what a C programmer takes instead of RCU for safe memory
# reclamation.  Its build of a binary (same name, in <workdir>/ck) comes
# from CK_SOURCES[name] compiled with -DBENCH_PEER_CK (bench-ck.h: the
# liburcu calls mapped onto ck_epoch) against libck, and joins only the
# runs of CK_RUNS, printing the metrics listed there (flavor name "ck").
# Its rows are informational: the regression gate never runs ck.
PEERS = ("liburcu", "ck")
CK_SOURCES = {"read-memb-inline": "bench-read.c", "sync-memb": "bench-sync.c",
              "callback-memb": "bench-callback.c", "hash-memb": "bench-ck-hash.c"}
CK_RUNS = {
    ("read-memb-inline", ()): ["read.ck.inline"],
    ("sync-memb", ()): ["sync.ck.%s" % s for s in ("p50", "mean", "p99", "samples", "reader_cpu")],
    ("callback-memb", ("-m", "throughput", "-t", "1")):
        ["cbtput.ck.%s" % s for s in ("rate", "enqueue_rate", "max_backlog", "reader_cpu")],
    ("callback-memb", ("-m", "throughput", "-c", "2", "-t", "1")):
        ["cbtput2.ck.%s" % s for s in ("rate", "enqueue_rate", "max_backlog", "reader_cpu")],
    ("hash-memb", ("-m", "mixed", "-n", "1000000", "-c", "1")): ["hash.ck.mixed1000000.t1"],
    ("hash-memb", ("-m", "mixed", "-n", "1000000", "-c", "2")): ["hash.ck.mixed1000000.t2"],
}
# The ck table: (our row, ck's row beside it, what differs: a key of CK_DIFFERS).
CK_ROWS = [
    ("read.memb.inline", "read.ck.inline", "read"),
    ("read.mb.inline", "read.ck.inline", "read-mb"),
    ("sync.memb.p50", "sync.ck.p50", "sync"),
    ("sync.memb.p99", "sync.ck.p99", "sync"),
    ("sync.mb.p50", "sync.ck.p50", "sync-mb"),
    ("sync.memb.reader_cpu", "sync.ck.reader_cpu", "diag"),
    ("cbtput.memb.rate", "cbtput.ck.rate", "defer"),
    ("cbtput2.memb.rate", "cbtput2.ck.rate", "defer"),
    ("cbtput.memb.max_backlog", "cbtput.ck.max_backlog", "diag"),
    ("hash.mixed1000000.t1", "hash.ck.mixed1000000.t1", "hash"),
    ("hash.mixed1000000.t2", "hash.ck.mixed1000000.t2", "hash"),
]
# What each side guarantees, per row (docs/PERFORMANCE.md, "Concurrency Kit").
CK_DIFFERS = {
    "read": "ck_epoch_begin is an atomic exchange (a full fence on x86) on every outermost "
            "section; memb's rcu_read_lock is a plain store, the writer pays with membarrier",
    "read-mb": "the same design on both sides (the reader fences): like for like",
    "sync": "ck_epoch_synchronize spins on the caller's CPU (no sleep, no IPI: the readers "
            "fenced); synchronize_rcu sends one membarrier and sleeps when it has to wait",
    "sync-mb": "both rely on the readers' own fences; ck spins, mb sleeps on a futex",
    "defer": "ck: callbacks run only inside ck_epoch_poll/barrier, in the enqueuing thread "
             "(here after every 64 calls); call_rcu: a worker thread runs them, nobody polls",
    "hash": "ck_hs allows one writer at a time (adds/deletes under a mutex here); rculfhash "
            "updates are lock-free; both free removed items after a grace period",
    "diag": "describes the run (reader's CPU share, backlog), no verdict",
}

# The grace-period benchmarks assume their reader owns its CPU: a memb grace
# period interrupts only CPUs that are running the reader, so a reader that
# other work keeps preempting makes grace periods look cheap.  Below this
# share of CPU time such a run is repeated, up to READER_RETRIES times.
READER_MIN_CPU = 90.0
READER_RETRIES = 2


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def multiarch():
    try:
        out = subprocess.run(["gcc", "-print-multiarch"], capture_output=True,
                             text=True, check=False).stdout.strip()
        if out:
            return out
    except OSError:
        pass
    return "x86_64-linux-gnu"


def meson_compile(build, targets, what):
    """meson compile of targets; on failure, logs and goes on with what is there."""
    try:
        r = subprocess.run(["meson", "compile", "-C", build] + targets,
                           capture_output=True, text=True, check=False)
    except OSError:
        log("bench: meson not found; using the %s as they are" % what)
        return
    if r.returncode != 0:
        log("bench: warning: meson compile of the %s failed, using them as they are:\n%s"
            % (what, "\n".join((r.stdout + r.stderr).strip().splitlines()[-5:])))


def rebuild_libraries(build):
    """Brings our shared libraries (only those) up to date, so that the
    measurement matches the source revision printed in the header."""
    names = ["urcu-common", "urcu-cds"] + ["urcu-" + fl for fl in ("memb", "mb", "qsbr", "bp", "signal")]
    libdir = os.path.join(build, "liburcu")
    targets = ["%s:shared_library" % n for n in names
               if os.path.lexists(os.path.join(libdir, "lib%s.so" % n))]
    meson_compile(build, targets, "libraries")


def find_tree(root, triplet, header, libs):
    """(include dir, lib dir) of an unpacked -dev package under @root: the
    first include dir holding @header, the first lib dir holding one of
    @libs; None when either is missing."""
    for inc in (os.path.join(root, "usr/include", triplet), os.path.join(root, "usr/include")):
        if os.path.isfile(os.path.join(inc, header)):
            break
    else:
        return None
    for lib in (os.path.join(root, "usr/lib", triplet), os.path.join(root, "usr/lib")):
        if any(os.path.exists(os.path.join(lib, name)) for name in libs):
            return inc, lib
    return None


def find_ref_tree(root, triplet):
    """Returns (include dir, lib dir) of an unpacked liburcu, or None."""
    return find_tree(root, triplet, "urcu.h", ("liburcu-memb.so", "liburcu.so"))


def fetch_debs(cache, package_sets):
    """apt-get download the first of @package_sets that downloads (unless
    debs are already there) and dpkg -x them into @cache; False on failure."""
    debs = os.path.join(cache, "debs")
    os.makedirs(debs, exist_ok=True)
    if not glob.glob(os.path.join(debs, "*.deb")):
        for pkgs in package_sets:
            log("bench: fetching %s with apt-get download into %s" % (" ".join(pkgs), debs))
            r = subprocess.run(["apt-get", "download"] + pkgs, cwd=debs, check=False,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if r.returncode == 0:
                break
        else:
            return False
    for deb in sorted(glob.glob(os.path.join(debs, "*.deb"))):
        r = subprocess.run(["dpkg", "-x", deb, cache], check=False)
        if r.returncode != 0:
            log("bench: dpkg -x %s failed" % deb)
            return False
    return True


def fetch_ref(cache, triplet):
    """liburcu fetched into @cache; returns the tree or None."""
    # liburcu8 on bookworm; the runtime package was renamed on later releases
    if not fetch_debs(cache, (["liburcu-dev", "liburcu8"], ["liburcu-dev", "liburcu8t64"])):
        return None
    return find_ref_tree(cache, triplet)


def find_ck_tree(root, triplet):
    """(include dir, lib dir) of an unpacked libck-dev + libck0, or None."""
    return find_tree(root, triplet, "ck_epoch.h", ("libck.so",))


def ck_tree(opts, workdir):
    """libck from --ck-dir, else fetched into the build directory (never
    installed); None, with one line, when there is none: no ck rows."""
    triplet = multiarch()
    cache = os.path.join(workdir, "ck-ref")
    tree = (find_ck_tree(opts.ck_dir, triplet) if opts.ck_dir else None) or \
        find_ck_tree(cache, triplet)
    if tree is None and fetch_debs(cache, (["libck-dev", "libck0"], ["libck-dev", "libck0t64"])):
        tree = find_ck_tree(cache, triplet)
    if tree is None:
        log("bench: Concurrency Kit (libck-dev) not found%s nor fetchable into %s: "
            "ck rows skipped" % (" in " + opts.ck_dir if opts.ck_dir else "", cache))
    return tree


def pc_version(lib, pc_name):
    """A library's version from its pkg-config file, else "unknown"."""
    try:
        with open(os.path.join(lib, "pkgconfig", pc_name)) as f:
            for line in f:
                if line.startswith("Version:"):
                    return line.split(":", 1)[1].strip()
    except (OSError, TypeError):
        pass
    return "unknown"


def ref_version(inc, lib):
    """liburcu's version from its pkg-config file."""
    return pc_version(lib, "liburcu.pc")


def source_revision():
    """Commit of the source tree, with '+dirty' if the library sources differ from it."""
    try:
        rev = subprocess.run(["git", "-C", SRC_ROOT, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=False).stdout.strip()
        dirty = subprocess.run(["git", "-C", SRC_ROOT, "status", "--porcelain", "--",
                                "liburcu", "arch"],
                               capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return "unknown"
    return (rev or "unknown") + ("+dirty" if dirty else "")


def cpu_times():
    """(busy, steal, total) jiffies of all CPUs from /proc/stat, or None."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    steal = fields[7] if len(fields) > 7 else 0
    total = sum(fields[:8])
    return total - idle - steal, steal, total


def sh(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


def compile_parts(name, ck):
    """(defines, sources, libraries) of binary @name, for our and liburcu's
    build or, @ck, for ck's (CK_SOURCES)."""
    if ck:
        src = CK_SOURCES[name]
        extra = [] if src == "bench-ck-hash.c" else ["bench-reader.c", "bench-ck.c"]
        return ["-DBENCH_PEER_CK", "-D_LGPL_SOURCE"], [src, "bench-util.c"] + extra, ["-lck"]
    src, flavor, inline = BINARIES[name]
    defines = ["-DBENCH_FLAVOR_" + flavor.upper()] + (["-D_LGPL_SOURCE"] if inline else [])
    libs = EXTRA_LIBS.get(name, []) + ["-lurcu-" + flavor, "-lurcu-common"]
    return defines + EXTRA_CFLAGS.get(name, []), [src] + COMMON_SOURCES, libs


def compile_one(name, outdir, incs, libdir, cc, ck=False):
    """Returns (executable or None, last error line or None, log text)."""
    defines, sources, libs = compile_parts(name, ck)
    exe = os.path.join(outdir, name)
    cmd = [cc, "-O2", "-g", "-std=gnu11", "-pthread", "-Wall", "-D_GNU_SOURCE"] + defines
    cmd += ["-I" + d for d in incs]
    cmd += [os.path.join(HERE, s) for s in sources]
    # DT_RPATH (not RUNPATH) so that it also wins for the libraries' own
    # dependency on liburcu-common, whatever LD_LIBRARY_PATH says.
    cmd += ["-o", exe, "-L" + libdir, "-Wl,--disable-new-dtags,-rpath," + libdir] + libs \
        + ["-lpthread"]
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    text = "$ %s\n%s%s\n" % (sh(cmd), r.stdout, r.stderr)
    if r.returncode != 0:
        return None, (r.stderr.strip().splitlines() or ["?"])[-1], text
    return exe, None, text


def check_linkage(exe, libdir, prefix="liburcu", forbid=None):
    """True when every library named @prefix* that @exe loads comes from
    @libdir, and none is named @forbid*."""
    r = subprocess.run(["ldd", exe], capture_output=True, text=True, check=False,
                       env=clean_env())
    real = os.path.realpath(libdir)
    for line in r.stdout.splitlines():
        parts = line.split()
        if parts and forbid and parts[0].startswith(forbid):
            return False
        if parts and parts[0].startswith(prefix):
            if len(parts) < 3 or not os.path.realpath(parts[2]).startswith(real + os.sep):
                return False
    return True


def clean_env():
    """The environment for the benchmarks: meson test points LD_LIBRARY_PATH
    at our libraries (which share liburcu's sonames) and sets MALLOC_PERTURB_
    (which makes every malloc and free touch the memory)."""
    env = dict(os.environ)
    for var in ("LD_LIBRARY_PATH", "LD_PRELOAD", "MALLOC_PERTURB_", "MALLOC_CHECK_"):
        env.pop(var, None)
    return env


def run_one(exe, args):
    """Runs one benchmark; returns (metrics dict or None, error text or None)."""
    try:
        r = subprocess.run([exe] + args, capture_output=True, text=True,
                           timeout=RUN_TIMEOUT_S, check=False, env=clean_env())
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % RUN_TIMEOUT_S
    if r.returncode != 0:
        why = ("killed by signal %d" % -r.returncode) if r.returncode < 0 \
            else ("exit status %d" % r.returncode)
        tail = " | ".join(r.stderr.strip().splitlines()[-3:])
        return None, "%s%s" % (why, (": " + tail) if tail else "")
    metrics = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        if parts[1] == "skip":
            metrics[parts[0]] = None
            continue
        try:
            metrics[parts[0]] = (float(parts[1]), parts[2])
        except ValueError:
            pass
    return metrics, None


def run_reader_checked(exe, args, name, metrics, where, preempted, side):
    """run_one(), retried when the background reader of a grace-period
    benchmark (sync-*, scale-* -m idle) was off its CPU too much for the figures to mean what they
    say; counts in @preempted the measurements kept all the same."""
    check = next((m for m in metrics if m.endswith(".reader_cpu")), None)
    # grace-period rows, the idle-thread ones included: a reader off its
    # CPU needs no IPI, and the figure drops to a fraction of the floor
    if not (name.startswith("sync-") or (check or "").startswith("idle")):
        check = None
    for attempt in range(1 + READER_RETRIES):
        out, err = run_one(exe, args)
        if out is None or check is None or not out.get(check):
            return out, err
        if out[check][0] >= READER_MIN_CPU:
            return out, err
        if attempt < READER_RETRIES:
            log("bench: %s %s: reader on its CPU only %.0f%% of the time, running again"
                % (where, name, out[check][0]))
    key = (side, check)
    preempted[key] = preempted.get(key, 0) + 1
    return out, err


def fmt(value, unit):
    if value is None:
        return "skip"
    if unit in ("gp/s", "cb/s", "op/s", "thr/s"):
        for div, suf in ((1e6, "M"), (1e3, "k")):
            if value >= div:
                return "%.3g%s %s" % (value / div, suf, unit)
        return "%.3g %s" % (value, unit)
    if unit in ("cbs", "count", "gps"):
        return "%d %s" % (round(value), unit)
    if value >= 100:
        return "%.0f %s" % (value, unit)
    return "%.3g %s" % (value, unit)


HIGHER_IS_BETTER = ("gp/s", "cb/s", "op/s", "thr/s")


# A floor from a pair or two of A/A runs can come out at 0% by chance (the
# read-side figures are quantized); below this it is taken as this.
MIN_NOISE = 1.03


def round_spread(spreads):
    """A metric's floor from its per-round spreads: the median round's with
    three rounds or more, like the ratio it is compared with (a median over
    rounds), so that one disturbed round (a reader preempted for part of a
    run: one A/A pair 16x apart, every grace-period row "within noise") does
    not set it; the largest with fewer rounds."""
    if len(spreads) >= 3:
        return statistics.median(spreads)
    return max(spreads)


def compute_noise(results):
    """The A/A noise floor of this run: for each metric our build measured
    more than once in a round (AA_RUNS' second run, and the repeated runs of
    a side), the max/min of our values within one round, taken over the
    rounds by round_spread(), as a factor (1.10 = +-10%; at least MIN_NOISE).
    Returns (per metric, per class)."""
    per_metric = {}
    for m, spreads in results.get("aa_spread", {}).items():
        spreads = [x for x in spreads if x]
        if is_diagnostic(m) or not spreads:
            continue
        per_metric[m] = max(MIN_NOISE, round_spread(spreads))
    per_class = {}
    for m, f in per_metric.items():
        # the noise of a class is that of its noisiest A/A metric (p99s included)
        c = noise_class(m)
        per_class[c] = max(per_class.get(c, 1.0), f)
    return per_metric, per_class


def noise_for(metric, noise):
    """(factor, how it was obtained) for @metric, or (None, why not)."""
    per_metric, per_class = noise
    if is_diagnostic(metric):
        return None, "diagnostic"
    if metric in per_metric:
        return per_metric[metric], "A/A"
    c = noise_class(metric)
    if c in per_class:
        return per_class[c], "class"
    # no A/A row of this family: the largest floor of the same kind (p99 or not)
    same_kind = [f for k, f in per_class.items() if k.endswith(c.rsplit(", ", 1)[1])]
    if same_kind:
        return max(same_kind), "largest"
    return None, "none"


def versus(metric, ratio, unit, noise):
    """How ours compares with liburcu, given the noise floor: "within noise",
    "better" or "worse" (with the noise band used)."""
    if ratio is None or is_diagnostic(metric):
        return "-"
    f, how = noise_for(metric, noise)
    if f is None:
        return "no A/A"
    band = "+-%.0f%%%s" % ((f - 1) * 100, "" if how == "A/A" else "*")
    if max(ratio, 1 / ratio) <= f:
        return "within noise (%s)" % band
    better = ratio > 1 if unit in HIGHER_IS_BETTER else ratio < 1
    return "%s (%s)" % ("better" if better else "worse", band)


def verdict(metric, ours, theirs, noise=None):
    target = TARGETS.get(metric)
    if not target:
        return "", "-"
    kind, x = target
    if kind == "ratio<=":
        text = "<= %gx" % x
    elif kind == "ratio>=":
        text = ">= %gx" % x
    else:
        text = "<= %g" % x
    if ours is None or (kind.startswith("ratio") and (theirs is None or theirs == 0)):
        return text, "n/a"
    if kind == "ratio<=":
        ok = ours / theirs <= x
    elif kind == "ratio>=":
        ok = ours / theirs >= x
    else:
        ok = ours <= x
    word = "meets" if ok else "misses"
    f = noise_for(metric, noise)[0] if noise else None
    if kind.startswith("ratio") and f is not None:
        r = ours / theirs
        if x == 1.0 and max(r, 1 / r) <= f:
            # "no worse than liburcu": a ratio inside the noise is not a loss
            word = "meets (within noise)"
        elif max(r / x, x / r) <= f:
            word += " (within noise of the target)"
    return text, word


def median_of(results, side, metric):
    vals = [v for v in results.get(side, {}).get(metric, []) if v is not None]
    return statistics.median(vals) if vals else None


def round_ratios(results, metric):
    """ours / liburcu of each round where both sides measured."""
    return pair_ratios(results, metric, "ours", metric, "liburcu")


def pair_ratios(results, a, side_a, b, side_b):
    """side_a's @a / side_b's @b of each round where both were measured."""
    return [x / y for x, y in zip(results.get(side_a, {}).get(a, []),
                                  results.get(side_b, {}).get(b, []))
            if x is not None and y]


def ck_rows(results, units, failed, noise):
    """The ck table's rows (CK_ROWS that either side measured): our metric,
    ck's, both medians as shown, ratio ours/ck, per-round ratio range,
    verdict against our noise floor, what-differs key."""
    rows = []
    for ours_m, ck_m, key in CK_ROWS:
        ours, theirs = median_of(results, "ours", ours_m), median_of(results, "ck", ck_m)
        if (ours is None and ("ours", ours_m) not in failed) or \
           (theirs is None and ("ck", ck_m) not in failed):
            continue
        shown = [fmt(ours, units.get(ours_m, "")),
                 "FAILED" if ("ck", ck_m) in failed and theirs is None
                 else fmt(theirs, units.get(ck_m, ""))]
        ratio = ours / theirs if ours is not None and theirs else None
        rs = pair_ratios(results, ours_m, "ours", ck_m, "ck")
        rows.append((ours_m, ck_m, "FAILED" if ours is None else shown[0], shown[1],
                     "-" if ratio is None else "%.2f" % ratio,
                     "%.2f-%.2f" % (min(rs), max(rs)) if len(rs) > 1 else "-",
                     versus(ours_m, ratio, units.get(ours_m, ""), noise) if noise else "-",
                     key))
    return rows


def print_rows(head, rows):
    """A markdown-style table."""
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))


def print_ck_table(results, units, rounds, failed, noise):
    """Ours beside Concurrency Kit's ck_epoch (informational, no target)."""
    rows = ck_rows(results, units, failed, noise)
    if not rows:
        return
    print("Concurrency Kit (ck_epoch), the second peer: ours / ck, median over %d round(s)"
          % rounds)
    print_rows(("metric (ours)", "ck metric", "ours", "ck", "ratio", "ratio range", "vs ck",
                "differs"), rows)
    print()
    print("What differs (lower ratio is better except cb/s, op/s; 'vs ck' against our A/A "
          "noise floor; docs/PERFORMANCE.md, 'Concurrency Kit'):")
    for key in dict.fromkeys(r[7] for r in rows):
        print("  %s: %s" % (key, CK_DIFFERS[key]))


def print_table(results, units, rounds, failed, noise=None):
    rows = []
    for _, _, _, metrics in RUNS:
        for m in metrics:
            if m not in results["ours"] and m not in results["liburcu"]:
                continue
            if any(r[0] == m for r in rows):
                continue
            med = {side: median_of(results, side, m) for side in SIDES}
            ours, theirs = med["ours"], med["liburcu"]
            unit = units.get(m, "")
            shown = {side: "FAILED" if (side, m) in failed and med[side] is None
                     else fmt(med[side], unit) for side in SIDES}
            ratio = "-"
            if ours is not None and theirs:
                ratio = "%.2f" % (ours / theirs)
            spread = "-"
            rs = round_ratios(results, m)
            if len(rs) > 1:
                spread = "%.2f-%.2f" % (min(rs), max(rs))
            target, verd = verdict(m, ours, theirs, noise)
            vs = versus(m, ours / theirs if ours is not None and theirs else None,
                        unit, noise) if noise else "-"
            rows.append((m, shown["ours"], shown["liburcu"], ratio, spread, vs,
                         target or "-", verd))
    print_rows(("metric", "ours", "liburcu", "ratio", "ratio range", "vs liburcu", "target",
                "verdict"), rows)
    print_derived(results)
    print()
    print("ours / liburcu = median over %d round(s); ratio range = min-max of the per-round "
          "ratios; lower is better except gp/s, cb/s, op/s and thr/s." % rounds)
    if noise:
        print("vs liburcu: 'within noise' when max(ratio, 1/ratio) is inside the A/A noise "
              "floor of this run (+-x%: the metric's own ours/ours spread, median round; +-x%*: the "
              "largest spread of its class (family, p99 or central), or of any family when "
              "its own has no A/A row).  Rows that describe the run (reader CPU share, "
              "sample counts) have none.")


def print_derived(results):
    """Figures computed from two rows: a grace period against its hardware
    floor (target: memb synchronize_rcu p50 within 1.2x of one cross-CPU
    membarrier), and the cost of each idle registered thread (target: at
    most 30 ns per idle reader over the 1-reader p50)."""
    def med(side, m):
        return median_of(results, side, m)

    lines = []
    inline = med("ours", "read.memb.inline")
    for m in ("read.memb.call", "read.memb.outofline"):
        v = med("ours", m)
        if inline and v:
            lines.append("ours: %s / read.memb.inline = %.2f%s"
                         % (m, v / inline, " (target <= 1.5)" if m.endswith("call")
                            else ""))
    for side in SIDES:
        floor = med(side, "floor.membarrier.p50")
        sync = med(side, "sync.memb.p50")
        if floor and sync:
            lines.append("%s: sync.memb.p50 / floor.membarrier.p50 = %.2f (target <= 1.2 for ours)"
                         % (side, sync / floor))
        for fl in ("memb", "bp"):
            v = med(side, "sync.%s.over_floor" % fl)
            if v:
                lines.append("%s: sync.%s.p50 / its in-process membarrier floor = %.2f%s"
                             % (side, fl, v, " (target <= 1.2)" if side == "ours" else ""))
        base = med(side, "idle1.memb.p50")
        base_floor = med(side, "idle1.memb.floor")
        for n in IDLE_SIZES[1:]:
            v = med(side, "idle%d.memb.p50" % n)
            if base is not None and v is not None:
                slope = (v - base) * 1000.0 / (n - 1)
                lines.append("%s: idle%d: %+.1f ns per idle registered thread%s"
                             % (side, n, slope, " (target <= 30)" if side == "ours" else ""))
            # the same with each run's own membarrier floor taken off, which
            # removes the drift of the IPI cost between processes
            vf = med(side, "idle%d.memb.floor" % n)
            if None not in (base, base_floor, v, vf):
                slope = ((v - vf) - (base - base_floor)) * 1000.0 / (n - 1)
                lines.append("%s: idle%d: %+.1f ns per idle registered thread over the floor"
                             % (side, n, slope))
    if lines:
        print()
        print("Derived (medians):")
        for line in lines:
            print("  " + line)


def is_aa(name, args):
    return any(name == n and list(args) == a for n, a in AA_RUNS)


def default_peers(opts):
    """liburcu and ck, except for the gate (--quick, --check,
    --write-baseline), --self-compare and --breakdown: liburcu only."""
    if getattr(opts, "quick", False) or getattr(opts, "self_compare", False) \
            or getattr(opts, "breakdown", False):
        return ("liburcu",)
    return PEERS


def parse_peers(text):
    """--peers: a comma-separated subset of PEERS, returned in PEERS' order;
    ValueError on an unknown name or an empty list."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in PEERS]
    if unknown or not names:
        raise ValueError("--peers takes a comma-separated list of %s, not %r"
                         % (", ".join(PEERS), text))
    return tuple(p for p in PEERS if p in names)


def run_sides(opts):
    """The sides of a run: ours, then the peers."""
    return ("ours",) + tuple(getattr(opts, "peers", None) or default_peers(opts))


def default_rounds(opts):
    if opts.quick:
        return 1 if opts.breakdown else GATE_ROUNDS
    return 3


def run_selected(opts, name, metrics):
    """Whether a run of RUNS belongs to this command: --only, then --quick
    (the gate's runs, data structures included) or --data-structures."""
    if opts.only and opts.only not in name:
        return False
    if opts.quick:
        return any(m in GATE_METRICS for m in metrics)
    return name not in DATA_STRUCTURE_BINARIES or bool(opts.only or opts.data_structures)


def selected_runs(opts):
    return [r for r in RUNS if run_selected(opts, r[0], r[3])]


def selected_binaries(opts):
    return list(dict.fromkeys(r[0] for r in selected_runs(opts)))


def planned_runs(opts, rounds):
    """Every process a side-by-side run makes: (name, args, side, estimated s)."""
    runs = []
    every = {"ours": BINARIES, "liburcu": BINARIES, "ck": CK_SOURCES}
    for _ in range(rounds):
        for name, args, repeat, _ in selected_runs(opts):
            sides = [side for side, _ in round_sides(0, run_sides(opts), name, args, every)]
            for _ in range(repeat):
                for side in sides:
                    runs.append((name, args, side, estimate_s(name, args, opts.quick)))
    return runs


def planned_breakdown(opts, rounds):
    runs = []
    for _ in range(rounds):
        for fl in BREAKDOWN_FLAVORS:
            runs.append(("breakdown-" + fl, ["-q"] if opts.quick else [], "ours",
                         estimate_s("breakdown-" + fl, [], opts.quick)))
            runs.append(("sync-" + fl, [], "ours", estimate_s("sync-" + fl, [], opts.quick)))
        for mode in ("floor", "floor-same", "floor-all"):
            runs.append(("scale-memb", ["-m", mode], "ours", estimate_s("scale-memb", ["-m", mode],
                                                                       opts.quick)))
    return runs


# Compiling the benchmarks, two at a time (seconds per binary, estimate).
COMPILE_S = 0.6


def plan_summary(runs, nbinaries):
    total = sum(r[3] for r in runs) + COMPILE_S * nbinaries
    return total, "%d processes, about %.0f s (%.1f min) including ~%.0f s of compiling; " \
        "retries of preempted grace-period runs come on top" % (
            len(runs), total, total / 60.0, COMPILE_S * nbinaries)


# --breakdown: the flavors in the order the table lists them, and the phases of
# liburcu/src/urcu-phase-trace.c (names as bench-breakdown prints them).
BREAKDOWN_FLAVORS = ("memb", "bp", "qsbr", "mb", "signal")
BREAKDOWN_PHASES = (
    ("entry", "entry: misuse check, fence, target"),
    ("leader_lock", "leader lock (trylock)"),
    ("wait_leader", "asleep behind another leader"),
    ("reg_lock", "registry lock + GP number"),
    ("order", "B1 force order (membarrier / signals / fence)"),
    ("flip", "flip (gp.ctr += STEP)"),
    ("scan_spin", "scan, spinning part"),
    ("scan_arm", "scan: arm waiter flag + B1 + rescan"),
    ("scan_sleep", "scan, sleeping part (futex)"),
    ("gp_end", "registry unlock + done store"),
    ("wake", "leader unlock, epoch bump, wake waiters"),
    ("exit", "exit fence"),
)


def rebuild_breakdown(build):
    """Builds the bench-only traced libraries and bench-breakdown-<flavor>."""
    targets = ["tools/bench/bench-breakdown-%s" % fl for fl in BREAKDOWN_FLAVORS
               if os.path.exists(os.path.join(build, "liburcu", "liburcu-%s.so" % fl))]
    meson_compile(build, targets, "breakdown binaries")


def run_checked(exe, args, share_metric, where):
    """run_one(), retried (READER_RETRIES) while the reader was below
    READER_MIN_CPU; returns (metrics, error, kept although preempted)."""
    for attempt in range(1 + READER_RETRIES):
        out, err = run_one(exe, args)
        if out is None or not out.get(share_metric):
            return out, err, False
        if out[share_metric][0] >= READER_MIN_CPU:
            return out, err, False
        if attempt < READER_RETRIES:
            log("bench: %s: reader on its CPU only %.0f%% of the time, running again"
                % (where, out[share_metric][0]))
    return out, err, True


def run_breakdown(opts, rounds, build, exes, failures):
    """--breakdown: the per-phase table, ours only (liburcu has no hooks)."""
    extra = ["-q"] if opts.quick else []
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    load_before = load_text()
    t_start = time.monotonic()
    print("# grace-period breakdown: ours (%s, source %s); liburcu has no hooks"
          % (build, source_revision()))
    print("# command: %s" % sh([sys.argv[0]] + sys.argv[1:]))
    print("# started %s, load (uptime) %s, %d CPUs, %d round(s)%s"
          % (stamp, load_before, os.cpu_count() or 0, rounds, ", quick" if opts.quick else ""))
    print("# planned: %s" % plan_summary(planned_breakdown(opts, rounds),
                                         2 * len(BREAKDOWN_FLAVORS) + 1)[1])
    vals = {}          # (flavor, key) -> [per-round value]
    doubtful = []

    def keep(fl, key, out, metric):
        if out and out.get(metric):
            vals.setdefault((fl, key), []).append(out[metric][0])

    for rnd in range(rounds):
        for fl in BREAKDOWN_FLAVORS:
            exe = os.path.join(build, "tools", "bench", "bench-breakdown-" + fl)
            if os.path.exists(exe):
                out, err, pre = run_checked(exe, extra, "bd.%s.reader_cpu" % fl,
                                            "breakdown-%s round %d" % (fl, rnd + 1))
                if out is None:
                    failures.append("breakdown-%s (round %d): %s" % (fl, rnd + 1, err))
                    log("bench: %s" % failures[-1])
                else:
                    if pre:
                        doubtful.append("breakdown-%s round %d" % (fl, rnd + 1))
                    for key, _ in BREAKDOWN_PHASES:
                        keep(fl, key, out, "bd.%s.%s.p50" % (fl, key))
                        keep(fl, key + ".mean", out, "bd.%s.%s.mean" % (fl, key))
                    for d in ("sig_send", "sig_wait"):
                        keep(fl, d, out, "bd.%s.%s.p50" % (fl, d))
                        keep(fl, d + ".mean", out, "bd.%s.%s.mean" % (fl, d))
                    for key in ("sum_p50", "sum_mean", "traced.p50", "sync.p50", "sync.mean",
                                "outside.p50", "marks", "mark_cost", "slept", "reader_cpu"):
                        keep(fl, key, out, "bd.%s.%s" % (fl, key))
            elif rnd == 0:
                failures.append("breakdown-%s: %s not built (meson compile -C %s "
                                "tools/bench/bench-breakdown-%s)" % (fl, exe, build, fl))
                log("bench: %s" % failures[-1])
            prod = exes.get("sync-" + fl)
            if prod:
                out, err, pre = run_checked(prod, extra, "sync.%s.reader_cpu" % fl,
                                            "sync-%s round %d" % (fl, rnd + 1))
                if out is None:
                    failures.append("sync-%s (round %d): %s" % (fl, rnd + 1, err))
                    log("bench: %s" % failures[-1])
                else:
                    if pre:
                        doubtful.append("sync-%s round %d" % (fl, rnd + 1))
                    keep(fl, "prod.p50", out, "sync.%s.p50" % fl)
        if exes.get("scale-memb"):
            for mode, metric in (("floor", "floor.membarrier.p50"),
                                 ("floor-same", "floor.membarrier_same.p50"),
                                 ("floor-all", "floor.membarrier_all.p50")):
                out, err = run_one(exes["scale-memb"], ["-m", mode] + extra)
                if out is None:
                    failures.append("scale-memb -m %s (round %d): %s" % (mode, rnd + 1, err))
                    log("bench: %s" % failures[-1])
                keep("floor", metric, out, metric)
        log("bench: breakdown round %d/%d done" % (rnd + 1, rounds))

    print("# finished %s after %.0f s, load (uptime) %s"
          % (datetime.datetime.now(datetime.timezone.utc).strftime("%H:%M:%S UTC"),
             time.monotonic() - t_start, load_text()))
    print()

    def med(fl, key):
        v = vals.get((fl, key))
        return statistics.median(v) if v else None

    def cell(v, unit="us"):
        if v is None:
            return "-"
        if unit == "%":
            return "%.0f%%" % v
        if unit == "x":
            return "%.2fx" % v
        return "%.3g" % v if v < 100 else "%.0f" % v

    flv = [fl for fl in BREAKDOWN_FLAVORS if any(k[0] == fl for k in vals)]
    rows = []
    for key, label in BREAKDOWN_PHASES:
        rows.append([label + " p50 / mean"] +
                    ["%s / %s" % (cell(med(fl, key)), cell(med(fl, key + ".mean")))
                     for fl in flv])
        if key == "order":
            for d, dlabel in (("sig_send", "  of which signal round: sending"),
                              ("sig_wait", "  of which signal round: acknowledged")):
                rows.append([dlabel + " p50 / mean"] +
                            ["%s / %s" % (cell(med(fl, d)), cell(med(fl, d + ".mean")))
                             if med(fl, d) is not None else "-" for fl in flv])
    rows.append(["sum of the phase p50s"] + [cell(med(fl, "sum_p50")) for fl in flv])
    rows.append(["sum of the phase means (= traced mean)"] +
                [cell(med(fl, "sum_mean")) for fl in flv])
    rows.append(["synchronize_rcu p50, traced build"] + [cell(med(fl, "sync.p50")) for fl in flv])
    rows.append(["synchronize_rcu mean, traced build"] + [cell(med(fl, "sync.mean")) for fl in flv])
    rows.append(["caller's time outside the trace, p50"] +
                [cell(med(fl, "outside.p50")) for fl in flv])
    rows.append(["synchronize_rcu p50, production library"] +
                [cell(med(fl, "prod.p50")) for fl in flv])
    rows.append(["clock reads per call x cost (in the phases)"] +
                ["%.0f x %.0f ns" % (med(fl, "marks"), med(fl, "mark_cost"))
                 if med(fl, "marks") and med(fl, "mark_cost") else "-" for fl in flv])
    floor = med("floor", "floor.membarrier.p50")
    same = med("floor", "floor.membarrier_same.p50")
    rows.append(["membarrier floor, reader CPU (cross-CPU IPI)"] + [cell(floor) for fl in flv])
    rows.append(["membarrier floor, a spinner on every other CPU"] +
                [cell(med("floor", "floor.membarrier_all.p50")) for fl in flv])
    rows.append(["production p50 / floor"] +
                [cell(med(fl, "prod.p50") / floor, "x") if floor and med(fl, "prod.p50")
                 else "-" for fl in flv])
    rows.append(["B1 (order) p50 / floor"] +
                [cell(med(fl, "order") / floor, "x") if floor and med(fl, "order") is not None
                 else "-" for fl in flv])
    rows.append(["all but B1: traced mean - B1 mean"] +
                [cell(med(fl, "sum_mean") - med(fl, "order.mean"))
                 if med(fl, "sum_mean") is not None and med(fl, "order.mean") is not None
                 else "-" for fl in flv])
    rows.append(["traced p50 / floor"] +
                [cell(med(fl, "sync.p50") / floor, "x") if floor and med(fl, "sync.p50")
                 else "-" for fl in flv])
    rows.append(["calls that slept on the futex"] + [cell(med(fl, "slept"), "%") for fl in flv])
    rows.append(["reader on its CPU"] + [cell(med(fl, "reader_cpu"), "%") for fl in flv])
    print_rows(["us (median over %d round(s))" % rounds] + flv, rows)
    print()
    print("Each phase includes one clock read (the cost above); the p50s of the phases do not "
          "add up to the p50 of the call, the means do.")
    print("membarrier floor: one membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) with a spinner "
          "pinned on the reader CPU; same CPU (no IPI): %s us. It is memb's and bp's floor; "
          "signal's B1 is a signal round, mb's and qsbr's a fence." % cell(same))
    if doubtful:
        print("Reader below %.0f%% of its CPU even after %d retries (figures kept, doubtful): %s"
              % (READER_MIN_CPU, READER_RETRIES, ", ".join(doubtful)))
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"started": stamp, "rounds": rounds, "quick": opts.quick,
                       "breakdown": {"%s %s" % k: v for k, v in vals.items()},
                       "failures": failures}, f, indent=1)
    if failures:
        print()
        print("FAILED:")
        for f_ in failures:
            print("  " + f_)
        return 1
    return 0


def load_text():
    """The load as uptime shows it, plus runnable/total threads, from /proc/loadavg."""
    try:
        with open("/proc/loadavg") as f:
            f1, f5, f15, runq = f.read().split()[:4]
    except (OSError, ValueError):
        return "?"
    return "%s %s %s (1/5/15 min; %s runnable/threads)" % (f1, f5, f15, runq)


def print_noise(noise, rounds):
    per_metric, per_class = noise
    if not per_class:
        print("# A/A noise floor: not measured (no A/A row ran)")
        return
    print("# A/A noise floor (our build run more than once per round, %d round(s); "
          "at least +-%.0f%%): %s"
          % (rounds, (MIN_NOISE - 1) * 100, "; ".join("%s +-%.0f%%" % (c, (f - 1) * 100)
                               for c, f in sorted(per_class.items()))))
    print("#   per metric: %s" % ", ".join("%s +-%.0f%%" % (m, (f - 1) * 100)
                                         for m, f in sorted(per_metric.items())))
    if rounds < 3:
        print("#   (from %d round(s): a floor this thin can understate the noise)" % rounds)


def print_plan(opts, rounds):
    if opts.breakdown:
        runs = planned_breakdown(opts, rounds)
        nbin = 2 * len(BREAKDOWN_FLAVORS) + 1
    else:
        runs = planned_runs(opts, rounds)
        nbin = 2 * len(selected_binaries(opts))
    per = {}
    for name, args, side, est in runs:
        key = "%s %s" % (name, " ".join(args))
        n, t = per.get(key, (0, 0.0))
        per[key] = (n + 1, t + est)
    print("# plan: %s" % plan_summary(runs, nbin)[1])
    for key, (n, t) in per.items():
        print("  %-45s %3d processes  ~%5.1f s" % (key.strip(), n, t))


# --- The regression gate -------------------------------------------------

BASELINE = os.path.join(HERE, "baseline.json")
# The smallest margin --check allows a row, whatever the A/A spreads say.
CHECK_MIN_MARGIN = 1.05


def row_ratio(results, metric):
    """The table's ratio: median of ours / median of liburcu, or None."""
    ours, theirs = median_of(results, "ours", metric), median_of(results, "liburcu", metric)
    return ours / theirs if ours is not None and theirs else None


def aa_row_spread(results, metric):
    """A --self-compare run's spread of @metric (both sides are liburcu):
    max/min of the two sides in each round, over the rounds as
    round_spread() takes them; None when not measured."""
    spreads = [max(r, 1 / r) for r in round_ratios(results, metric) if r]
    return round_spread(spreads) if spreads else None


def digits(x):
    """@x to 4 significant digits (a baseline that diffs well), or None."""
    return None if x is None else float("%.4g" % x)


def make_baseline(run, aa):
    """The baseline from a gate run and a --self-compare gate run (records
    as --json writes them): per gate row the ratio, the A/A spread, the unit
    and both medians (for the reader), plus when and where it was measured."""
    if not aa.get("self_compare"):
        raise ValueError("the A/A run is not a --self-compare run")
    rows = {}
    for m in GATE_METRICS:
        ratio = row_ratio(run["results"], m)
        if ratio is None:
            continue
        rows[m] = {"ratio": digits(ratio), "aa_spread": digits(aa_row_spread(aa["results"], m)),
                   "unit": run["units"].get(m, ""),
                   "ours": digits(median_of(run["results"], "ours", m)),
                   "liburcu": digits(median_of(run["results"], "liburcu", m))}
    keys = ("started", "commit", "liburcu", "cpus", "load_start", "load_end", "rounds", "only")
    meta = {k: run.get(k) for k in keys}
    meta["aa_run"] = {k: aa.get(k) for k in keys}
    return {"format": 1, "meta": meta, "rows": rows}


def judge(base, now, unit, margin):
    """'SLIPPED' when the ratio got worse than @base by more than @margin
    (lower for rates, higher for times and sizes), 'better' when it got
    better by more, else 'ok'."""
    if unit in HIGHER_IS_BETTER:
        worse = base / now if now else math.inf
    else:
        worse = now / base
    if worse > margin:
        return "SLIPPED"
    if worse < 1 / margin:
        return "better"
    return "ok"


def metric_binary(metric):
    return next((name for name, _, _, metrics in RUNS if metric in metrics), None)


def missing_verdict(metric, run):
    """(verdict, fails) for a baseline row the run did not measure."""
    name = metric_binary(metric)
    if run.get("only") and name and run["only"] not in name:
        return "not run (--only)", False
    if name in OPTIONAL_OURS and name not in run.get("built_ours", []):
        return "missing (%s not built: optional)" % name, False
    return "MISSING", True


def check_rows(baseline, run):
    """One (metric, baseline ratio, ratio now, margin, verdict, fails) per
    row of the baseline, then the gate rows it lacks.  A row's margin is the
    largest of its stored A/A spread, this run's A/A floor for it
    (noise_for()) and CHECK_MIN_MARGIN."""
    noise = compute_noise(run["results"])
    rows = []
    for m, b in baseline["rows"].items():
        now = row_ratio(run["results"], m)
        if now is None:
            rows.append((m, b["ratio"], None, None) + missing_verdict(m, run))
            continue
        margin = max(x for x in (b.get("aa_spread"), noise_for(m, noise)[0], CHECK_MIN_MARGIN)
                     if x)
        v = judge(b["ratio"], now, run["units"].get(m) or b.get("unit", ""), margin)
        rows.append((m, b["ratio"], now, margin, v, v == "SLIPPED"))
    for m in GATE_METRICS:
        now = row_ratio(run["results"], m)
        if m not in baseline["rows"] and now is not None:
            rows.append((m, None, now, None, "new (not in the baseline)", False))
    return rows


def ours_failures(run):
    """The failures of our build (a crash or a timeout of liburcu's is
    reported, but is no regression of ours; an A/A run has only liburcu)."""
    if run.get("self_compare"):
        return []
    return [f for f in run.get("failures", []) if f.startswith(("ours/", "ours2/"))]


def check_status(rows, run):
    return 1 if ours_failures(run) or any(r[5] for r in rows) else 0


def print_check(rows, baseline, run):
    def num(x, suffix=""):
        return "-" if x is None else "%.3f%s" % (x, suffix)

    table = [(m, num(b), num(now), num(margin, "x"), v) for m, b, now, margin, v, _ in rows]
    head = ("metric", "baseline ratio", "now", "margin", "verdict")
    widths = [max(len(r[i]) for r in table + [head]) for i in range(len(head))]
    print()
    print("Regression gate: ratio ours/liburcu now against the baseline (worse beyond the "
          "margin = SLIPPED)")
    for r in [head] + table:
        print("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    meta = baseline.get("meta", {})
    if meta.get("cpus") and meta["cpus"] != run.get("cpus"):
        print("warning: the baseline was measured on %s CPUs, this run on %s"
              % (meta["cpus"], run.get("cpus")))
    count = {}
    for r in rows:
        key = r[4].split(" (", 1)[0]
        count[key] = count.get(key, 0) + 1
    failed = len(ours_failures(run))
    print("bench-check: %s: %d rows (%s)%s; baseline of %s (commit %s, load %s)"
          % ("FAILED" if check_status(rows, run) else "passed", len(rows),
             ", ".join("%d %s" % (n, k) for k, n in sorted(count.items())),
             ", %d failure(s) of our build" % failed if failed else "",
             meta.get("started", "?"), meta.get("commit", "?"),
             (meta.get("load_start") or "?").split(" (")[0]))


def load_record(path):
    with open(path) as f:
        return json.load(f)


def gate_check(opts, rounds):
    """--check: 0 when no row slipped, 1 when one did (or is missing, or our
    build failed), 77 (skip) without a baseline, 2 on a bad file."""
    if not os.path.exists(opts.baseline):
        print("bench-check: no baseline %s: skipped (write one with --write-baseline)"
              % opts.baseline)
        return 77
    try:
        baseline = load_record(opts.baseline)
        run = load_record(opts.from_json) if opts.from_json else None
    except (OSError, ValueError) as e:
        log("bench-check: %s" % e)
        return 2
    if run is None:
        rc, run = side_by_side(opts, rounds, False)
        if run is None:
            return rc
        if opts.json:
            write_json(opts.json, run)
    rows = check_rows(baseline, run)
    print_check(rows, baseline, run)
    return check_status(rows, run)


def aa_json_path(path):
    root, ext = os.path.splitext(path)
    return root + "-aa" + (ext or ".json")


def gate_write_baseline(opts, rounds):
    """--write-baseline FILE: from --from-json and --aa-json, or from a gate
    run then a --self-compare gate run made here."""
    try:
        if opts.from_json:
            run, aa = load_record(opts.from_json), load_record(opts.aa_json)
        else:
            run, aa = gate_runs(opts, rounds)
            if run is None:
                return aa
        baseline = make_baseline(run, aa)
    except (OSError, ValueError) as e:
        log("bench: --write-baseline: %s" % e)
        return 2
    if ours_failures(run):
        log("bench: --write-baseline: our build failed in the gate run; no baseline written")
        return 1
    for f in run.get("failures", []) + aa.get("failures", []):
        log("bench: warning: liburcu failed (its rows take the other rounds): %s" % f)
    lacking = [m for m in GATE_METRICS if m not in baseline["rows"]]
    if lacking:
        log("bench: warning: the baseline lacks %s" % ", ".join(lacking))
    write_json(opts.write_baseline, baseline)
    print("bench: baseline of %d rows written to %s" % (len(baseline["rows"]),
                                                       opts.write_baseline))
    return 0


def gate_runs(opts, rounds):
    """The gate run, then the A/A gate run: (run, aa), or (None, status);
    no A/A run after a failure of our build."""
    records = []
    for self_compare in (False, True):
        rc, record = side_by_side(opts, rounds, self_compare)
        if record is None:
            return None, rc
        if opts.json:
            write_json(aa_json_path(opts.json) if self_compare else opts.json, record)
        if ours_failures(record):
            log("bench: --write-baseline: our build failed in the gate run; no baseline written")
            return None, 1
        records.append(record)
    return records[0], records[1]


def fake_record(rounds_ours, rounds_liburcu, units, aa=None, **extra):
    """A run's record as --json writes it, from per-round values."""
    results = {"ours": rounds_ours, "liburcu": rounds_liburcu, "ours2": {},
               "aa_spread": aa or {}}
    return dict({"results": results, "units": units, "failures": []}, **extra)


def gate_self_test(check):
    """--self-test: the gate's verdicts and baseline on made-up figures."""
    units = {"sync.memb.p50": "us", "sync.bp.mean": "us", "read.memb.inline": "ns",
             "read.qsbr.inline": "ns", "sync4.memb.gps": "gp/s", "cbtput.memb.rate": "cb/s",
             "sync.qsbr.unreg_call": "ns"}
    now = {"sync.memb.p50": 0.60, "sync.bp.mean": 0.43, "read.memb.inline": 0.50,
           "read.qsbr.inline": 1.15, "sync4.memb.gps": 1.40, "cbtput.memb.rate": 1.03,
           "sync.qsbr.unreg_call": 1.0}
    # this run's A/A: read side +-20% (read.qsbr.inline's own), grace periods +-3%
    run = fake_record({m: [r] for m, r in now.items()}, {m: [1.0] for m in now}, units,
                      aa={"read.qsbr.inline": [1.2], "sync.memb.p50": [1.01]},
                      built_ours=["sync-memb"], only=None)
    base = {"rows": {
        "sync.memb.p50": {"ratio": 0.50, "aa_spread": 1.04},
        "sync.bp.mean": {"ratio": 0.40, "aa_spread": 1.10},
        "read.memb.inline": {"ratio": 0.70, "aa_spread": 1.02},
        "read.qsbr.inline": {"ratio": 1.00, "aa_spread": 1.00},
        "sync4.memb.gps": {"ratio": 1.60, "aa_spread": 1.03},
        "cbtput.memb.rate": {"ratio": 1.00, "aa_spread": None},
        "hash.mem.per_table": {"ratio": 0.45, "aa_spread": 1.00},
        "cblat.memb.p50": {"ratio": 0.90, "aa_spread": 1.00}}}
    rows = check_rows(base, run)
    got = {r[0]: r for r in rows}
    check(got["sync.memb.p50"][4] == "SLIPPED" and got["sync.memb.p50"][5],
          "a time 1.2x worse, margin 1.05: SLIPPED")
    check(got["sync.bp.mean"][4] == "ok", "1.075x worse inside its stored A/A spread 1.10: ok")
    check(got["read.qsbr.inline"][4] == "ok" and abs(got["read.qsbr.inline"][3] - 1.2) < 1e-9,
          "1.15x worse inside this run's own A/A floor 1.2: ok")
    check(got["read.memb.inline"][4] == "better" and not got["read.memb.inline"][5],
          "a clearly better row: better, no failure")
    check(got["sync4.memb.gps"][4] == "SLIPPED", "a rate dropping 1.14x: SLIPPED")
    check(got["cbtput.memb.rate"][4] == "ok", "a rate rising inside the margin: ok")
    check(got["hash.mem.per_table"][4] == "MISSING" and got["hash.mem.per_table"][5],
          "a baseline row the run lacks: MISSING, a failure")
    check(got["cblat.memb.p50"][4].startswith("missing") and not got["cblat.memb.p50"][5],
          "unless its optional binary (call_rcu) was not built")
    check(got["sync.qsbr.unreg_call"][4].startswith("new"), "a gate row new to the baseline")
    check(check_status(rows, run) == 1, "any of these: exit status 1")
    calm = {"rows": {m: base["rows"][m] for m in ("sync.bp.mean", "read.memb.inline",
                                                   "cbtput.memb.rate", "cblat.memb.p50")}}
    check(check_status(check_rows(calm, run), run) == 0, "nothing slipped: exit status 0")
    run["failures"] = ["liburcu/hash-memb -m mixed (round 1): timed out after 120 s"]
    check(check_status(check_rows(calm, run), run) == 0, "liburcu failing is no regression")
    run["failures"].append("ours/sync-memb  (round 2): killed by signal 11")
    check(check_status(check_rows(calm, run), run) == 1, "our build failing is")
    check(not ours_failures(dict(run, self_compare=True)), "an A/A run's failures are liburcu's")
    run["only"] = "sync"
    got = {r[0]: r for r in check_rows(base, run)}
    check(got["hash.mem.per_table"][4] == "not run (--only)" and not got["hash.mem.per_table"][5],
          "rows left out by --only: not run, no failure")
    # the baseline: median ratio, and the A/A run's median-round spread
    gate = fake_record({"sync.memb.p50": [0.5, 0.6, 0.55]}, {"sync.memb.p50": [1.0] * 3},
                       {"sync.memb.p50": "us"}, rounds=3)
    aa = fake_record({"sync.memb.p50": [1.0, 1.1, 0.95]}, {"sync.memb.p50": [1.0] * 3},
                     {"sync.memb.p50": "us"}, rounds=3, self_compare=True)
    row = make_baseline(gate, aa)["rows"]["sync.memb.p50"]
    check(row["ratio"] == 0.55 and row["aa_spread"] == 1.053,
          "baseline row: median ratio 0.55, A/A spread of the median round 1.053")
    try:
        make_baseline(gate, gate)
        check(False, "a baseline needs a --self-compare A/A run")
    except ValueError:
        check(True, "a baseline needs a --self-compare A/A run")
    with contextlib.redirect_stdout(io.StringIO()):
        status = gate_check(argparse.Namespace(baseline="/nonexistent/baseline.json"), 1)
    check(status == 77, "--check without a baseline: exit status 77 (skip)")


def peers_self_test(check):
    """--self-test: peer selection, run order and the ck table on made-up data."""
    check(parse_peers("ck,liburcu") == ("liburcu", "ck") and parse_peers("ck") == ("ck",),
          "--peers: a subset of liburcu,ck, in that order")
    try:
        parse_peers("liburcu,urcu")
        check(False, "--peers rejects an unknown peer")
    except ValueError:
        check(True, "--peers rejects an unknown peer")
    full = argparse.Namespace(quick=False, peers=None)
    check(run_sides(full) == ("ours", "liburcu", "ck"), "a full run has both peers by default")
    check(run_sides(argparse.Namespace(quick=True, peers=None)) == ("ours", "liburcu"),
          "the gate (--quick) runs liburcu only")
    exes = {"ours": {"sync-memb": 1}, "liburcu": {"sync-memb": 1}, "ck": {"sync-memb": 1}}
    sides = run_sides(full)
    check([x[0] for x in round_sides(0, sides, "sync-memb", [], exes)]
          == ["ours", "liburcu", "ck", "ours2"] and [x[0] for x in round_sides(1, sides, "sync-memb", [], exes)]
          == ["ck", "liburcu", "ours", "ours2"],
          "sides alternate: ours first in even rounds, last in odd ones (then the A/A run)")
    check("ck" not in [x[0] for x in round_sides(0, sides, "sync-memb", ["-m", "unregistered"],
                                                 exes)], "ck joins only the runs of CK_RUNS")
    exes["ck"] = {}
    check("ck" not in [x[0] for x in round_sides(0, sides, "sync-memb", [], exes)],
          "nor where its binary was not built (no libck: no ck rows)")
    quick = argparse.Namespace(only=None, data_structures=False, quick=True, breakdown=False)
    check(all(r[2] != "ck" for r in planned_runs(quick, 1)), "no ck process in the gate's plan")
    res = {"ours": {"read.memb.inline": [0.5, 0.6, 0.7], "sync.memb.p50": [10.0, 12.0, 11.0]},
           "ck": {"read.ck.inline": [5.0, 6.0, 7.0], "sync.ck.p50": [None, 2.0, 4.0]}}
    units = {"read.memb.inline": "ns", "read.ck.inline": "ns", "sync.memb.p50": "us",
             "sync.ck.p50": "us"}
    rows = {r[0]: r for r in ck_rows(res, units, {("ck", "sync.ck.p50")}, None)}
    check(rows["read.memb.inline"][4:6] == ("0.10", "0.10-0.10"),
          "ck table: ratio of the medians ours/ck, range of the per-round ratios")
    check(rows["sync.memb.p50"][4:6] == ("3.67", "2.75-6.00"),
          "a round ck did not measure pairs with nothing")
    check("read.mb.inline" not in rows and "sync.memb.p99" not in rows,
          "rows a side did not measure (and did not fail) are left out")
    rows = {r[0]: r for r in ck_rows({"ours": {"sync.memb.p50": [1.0]}, "ck": {}}, units,
                                     {("ck", "sync.ck.p50")}, None)}
    check(rows["sync.memb.p50"][3] == "FAILED", "a ck row that failed says so")


def self_test():
    """--self-test: the noise and verdict logic on made-up figures (TAP)."""
    checks = []

    def check(ok, what):
        checks.append((bool(ok), what))

    res = {"ours": {}, "liburcu": {}, "ours2": {},
           "aa_spread": {"sync.memb.p50": [1.02, 1.08], "sync.memb.p99": [1.5, 1.2],
                         "read.memb.inline": [1.01], "sync.memb.reader_cpu": [3.0]}}
    per_metric, per_class = compute_noise(res)
    check(abs(per_metric["sync.memb.p50"] - 1.08) < 1e-9,
          "with fewer than 3 rounds a metric's floor is its largest spread")
    res3 = {"aa_spread": {"idle16.memb.p50": [16.25, 1.03, 1.13],
                          "sync.memb.p50": [1.01, 1.04, 1.02]}}
    pm3, pc3 = compute_noise(res3)
    check(abs(pm3["idle16.memb.p50"] - 1.13) < 1e-9,
          "with 3 rounds, one disturbed round does not set the floor (median round)")
    check(abs(pc3["grace periods, central"] - 1.13) < 1e-9,
          "nor its class floor")
    check(per_metric["read.memb.inline"] == MIN_NOISE, "a floor is never below MIN_NOISE")
    check("sync.memb.reader_cpu" not in per_metric, "diagnostic rows get no floor")
    check(per_class["grace periods, p99"] == 1.5 and per_class["grace periods, central"] == 1.08,
          "p99 and central figures have separate class floors")
    noise = (per_metric, per_class)
    check(versus("sync.memb.p50", 1.05, "us", noise).startswith("within noise"),
          "a ratio inside the floor is within noise")
    check(versus("sync.memb.p50", 1 / 1.05, "us", noise).startswith("within noise"),
          "so is its inverse")
    check(versus("sync.memb.p50", 1.2, "us", noise).startswith("worse"),
          "a larger latency ratio is worse")
    check(versus("sync4.memb.gps", 1.2, "gp/s", noise).startswith("better"),
          "a larger rate ratio is better")
    check(versus("sync.bp.p50", 0.5, "us", noise) == "better (+-8%*)",
          "a metric without A/A takes its class floor, marked *")
    check(versus("sync.bp.p99", 1.4, "us", noise).startswith("within noise (+-50%*)"),
          "a p99 takes the p99 floor")
    check(versus("cblat.memb.p50", 1.05, "us", noise).startswith("within noise (+-8%*)"),
          "a family without A/A takes the largest central floor")
    check(versus("sync.memb.reader_cpu", 2.0, "%", noise) == "-", "no verdict on diagnostic rows")
    check(verdict("churn.memb.rate", 0.97, 1.0, noise)[1] == "meets (within noise)",
          "a no-worse-than-liburcu target is met within noise")
    check(verdict("churn.memb.rate", 0.8, 1.0, noise)[1] == "misses",
          "and missed outside it")
    check(verdict("sync.memb.p50", 0.57, 1.0, noise)[1] == "misses (within noise of the target)",
          "a miss inside the noise of the target says so")
    check(verdict("sync.memb.p50", 0.40, 1.0, noise)[1] == "meets", "a clear meet is plain")
    gate_self_test(check)
    peers_self_test(check)
    # the time budgets (full run 10 min, --quick 5 min), on the plan (a quiet
    # machine's estimates)
    for quick, budget in ((False, 600.0), (True, 300.0)):
        o = argparse.Namespace(only=None, data_structures=False, quick=quick, breakdown=False)
        total = plan_summary(planned_runs(o, default_rounds(o)), 2 * len(selected_binaries(o)))[0]
        check(total <= budget, "planned %s run %.0f s <= %.0f s"
              % ("--quick" if quick else "full", total, budget))
    printed = [m for _, _, _, metrics in selected_runs(o) for m in metrics]
    check(all(m in printed for m in GATE_METRICS), "--quick runs every gate row")
    check(all(any(m in GATE_METRICS for m in r[3]) for r in selected_runs(o)),
          "and only runs that print one")
    print("1..%d" % len(checks))
    for i, (ok, what) in enumerate(checks, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
    return 0 if all(ok for ok, _ in checks) else 1


def parse_args():
    ap = argparse.ArgumentParser(description="Benchmarks this project's RCU core against "
                                 "Debian's liburcu and Concurrency Kit's ck_epoch, same "
                                 "source, same run (details: the module docstring).")
    ap.add_argument("--build-dir", default=os.environ.get("BUILD_DIR",
                                                          os.path.join(SRC_ROOT, "build")),
                    help="Meson build directory holding liburcu/liburcu-*.so (default: "
                    "$BUILD_DIR or <source>/build)")
    ap.add_argument("--ref-dir", default="/opt/liburcu-ref",
                    help="dpkg -x tree of liburcu-dev + liburcu8 (default: /opt/liburcu-ref; "
                    "fetched into the build directory when absent)")
    ap.add_argument("--peers", "--peer", default=None, metavar="LIST",
                    help="the peers to run beside ours, comma-separated, of: %s (default: "
                    "both, ck when libck can be had; the gate, --self-compare and --breakdown: "
                    "liburcu only)" % ", ".join(PEERS))
    ap.add_argument("--ck-dir", default=None,
                    help="dpkg -x tree of libck-dev + libck0 (default: fetched into the build "
                    "directory; none there: the ck rows are skipped)")
    ap.add_argument("--quick", action="store_true",
                    help="the regression gate's rows only, short runs, %d rounds (~3 min)"
                    % GATE_ROUNDS)
    ap.add_argument("--rounds", type=int, default=None,
                    help="interleaved rounds (default 3, %d with --quick)" % GATE_ROUNDS)
    ap.add_argument("--only", default=None,
                    help="run only benchmarks whose binary name contains this string")
    ap.add_argument("--data-structures", action="store_true",
                    help="also run the data-structure benchmarks (hash table, stacks, queues)")
    ap.add_argument("--json", default=None,
                    help="also write every per-round value here (with --write-baseline, the "
                    "A/A run goes to the same name with -aa before the extension)")
    ap.add_argument("--cc", default="gcc", help="C compiler (default gcc)")
    ap.add_argument("--no-rebuild", action="store_true",
                    help="do not bring the build directory's libraries up to date first")
    ap.add_argument("--self-test", action="store_true",
                    help="check the noise-floor, verdict and gate logic on made-up figures (TAP)")
    ap.add_argument("--plan", action="store_true",
                    help="print the runs this command would make and their estimated time, "
                    "run nothing")
    ap.add_argument("--breakdown", action="store_true",
                    help="ours only: the per-phase breakdown of one grace period per flavor "
                    "(bench-breakdown-<flavor> from tools/bench/meson.build)")
    ap.add_argument("--self-compare", action="store_true",
                    help="build liburcu on both sides (an A/A run): the ratios then show "
                    "the noise floor of this machine")
    ap.add_argument("--check", action="store_true",
                    help="the regression gate: run the gate (--quick) or take --from-json, "
                    "compare each row's ratio with the baseline; exit 1 when one slipped, "
                    "77 when there is no baseline")
    ap.add_argument("--baseline", default=BASELINE,
                    help="the baseline --check compares with (default: %s)"
                    % os.path.relpath(BASELINE, SRC_ROOT))
    ap.add_argument("--write-baseline", metavar="FILE", default=None,
                    help="write a baseline: from a gate run and a --self-compare gate run, "
                    "or from --from-json and --aa-json")
    ap.add_argument("--from-json", metavar="RUN.json", default=None,
                    help="--check, --write-baseline: take the gate run from this --json file")
    ap.add_argument("--aa-json", metavar="SELF.json", default=None,
                    help="--write-baseline: take the A/A run from this --json file of a "
                    "--self-compare gate run")
    opts = ap.parse_args()
    if (opts.from_json or opts.aa_json) and not (opts.check or opts.write_baseline):
        ap.error("--from-json and --aa-json go with --check or --write-baseline")
    if (opts.check or opts.write_baseline) and (opts.breakdown or opts.self_compare):
        ap.error("--check and --write-baseline take neither --breakdown nor --self-compare")
    if opts.check and (opts.write_baseline or opts.aa_json):
        ap.error("--check takes neither --write-baseline nor --aa-json")
    if opts.write_baseline and bool(opts.from_json) != bool(opts.aa_json):
        ap.error("--write-baseline takes both --from-json and --aa-json, or neither")
    if opts.check or opts.write_baseline:
        opts.quick = True
    if opts.peers is not None:
        try:
            opts.peers = parse_peers(opts.peers)
        except ValueError as e:
            ap.error(str(e))
        if opts.peers != ("liburcu",) and (opts.quick or opts.self_compare or opts.breakdown):
            ap.error("--quick, --check, --write-baseline, --self-compare and --breakdown run "
                     "liburcu only (the gate's rows and baseline do not change)")
    return opts


def main():
    opts = parse_args()
    rounds = opts.rounds or default_rounds(opts)
    sys.stdout.reconfigure(line_buffering=True)
    if opts.self_test:
        return self_test()
    if opts.plan:
        print_plan(opts, rounds)
        return 0
    if opts.check:
        return gate_check(opts, rounds)
    if opts.write_baseline:
        return gate_write_baseline(opts, rounds)
    rc, record = side_by_side(opts, rounds, opts.self_compare)
    if record is not None and opts.json:
        write_json(opts.json, record)
    return rc


def write_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


def side_by_side(opts, rounds, self_compare):
    """One run (or --breakdown): builds both sides, runs them, prints the
    table; returns (exit status, the run's record as --json writes it, or
    None)."""
    build = os.path.abspath(opts.build_dir)
    if not os.path.isdir(os.path.join(build, "liburcu")):
        log("bench: no %s/liburcu: configure and build first (meson setup %s %s && ninja -C %s)"
            % (build, build, SRC_ROOT, build))
        return 2, None
    if not opts.no_rebuild and not self_compare:
        rebuild_libraries(build)
    if opts.breakdown and not opts.no_rebuild:
        rebuild_breakdown(build)
    workdir = os.path.join(build, "bench-side-by-side")
    os.makedirs(workdir, exist_ok=True)
    sides = ("ours",) if opts.breakdown else run_sides(opts)
    ref = liburcu_tree(opts, workdir) if "liburcu" in sides else (None, None)
    if ref is None:
        return 2, None
    ck = ck_tree(opts, workdir) if "ck" in sides else None
    built = build_benchmarks(opts, build, workdir, (ref, ck), self_compare)
    if built is None:
        return 2, None
    exes, failures, nbin = built
    if opts.breakdown:
        return run_breakdown(opts, rounds, build, exes["ours"], failures), None
    return measure(opts, rounds, build, (ref, ck), exes, failures, nbin, self_compare)


def liburcu_tree(opts, workdir):
    """(include dir, lib dir) of liburcu: --ref-dir, else fetched into the
    build directory; None (logged) when neither works."""
    triplet = multiarch()
    ref = find_ref_tree(opts.ref_dir, triplet)
    if ref is None:
        cache = os.path.join(workdir, "liburcu-ref")
        ref = find_ref_tree(cache, triplet) or fetch_ref(cache, triplet)
        if ref is None:
            log("bench: liburcu not found in %s and could not be fetched into %s"
                % (opts.ref_dir, cache))
    return ref


def build_setups(build, trees, self_compare):
    """{side: (include dirs, lib dir)} of the sides that can be built;
    @trees is (liburcu's tree or (None, None), ck's tree or None)."""
    our_libdir = os.path.join(build, "liburcu")
    our_incs = [os.path.join(SRC_ROOT, "liburcu/include"), os.path.join(SRC_ROOT, "arch/include")]
    our_incs += [d for d in (os.path.join(build, "arch/include"),
                             os.path.join(build, "liburcu/include")) if os.path.isdir(d)]
    (ref_inc, ref_lib), ck = trees
    setups = {"ours": (our_incs, our_libdir)}
    if ref_inc:
        setups["liburcu"] = ([ref_inc], ref_lib)
        if self_compare:
            setups["ours"] = setups["liburcu"]
    if ck:
        setups["ck"] = ([ck[0]], ck[1])
    return setups


def build_jobs(opts, setups, workdir):
    """(side, name, outdir, include dirs, lib dir) of every binary to build."""
    if opts.breakdown:
        names = ["sync-" + fl for fl in BREAKDOWN_FLAVORS] + ["scale-memb"]
    else:
        names = selected_binaries(opts)
    jobs = []
    for side in (("ours",) if opts.breakdown else run_sides(opts)):
        if side not in setups:
            continue
        incs, libdir = setups[side]
        outdir = os.path.join(workdir, side)
        os.makedirs(outdir, exist_ok=True)
        for name in names:
            if side == "ck":
                if name in CK_SOURCES:
                    jobs.append((side, name, outdir, incs, libdir))
                continue
            flavor = BINARIES[name][1]
            if not os.path.exists(os.path.join(libdir, "liburcu-%s.so" % flavor)):
                log("bench: %s: no liburcu-%s in %s, skipped" % (side, flavor, libdir))
                continue
            jobs.append((side, name, outdir, incs, libdir))
    return jobs


def build_benchmarks(opts, build, workdir, trees, self_compare):
    """Compiles everything first (two compilers at a time), so that no
    compile runs between measurements.  Returns ({side: {name: exe}},
    failures, number of binaries), or None when one loads the wrong library.
    Only our build failing is a failure; a peer's binary is skipped."""
    jobs = build_jobs(opts, build_setups(build, trees, self_compare), workdir)
    failures = []
    exes = {side: {} for side in SIDES + ("ck",)}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        built = list(pool.map(lambda j: compile_one(j[1], j[2], j[3], j[4], opts.cc,
                                                    j[0] == "ck"), jobs))
    with open(os.path.join(workdir, "build.log"), "w") as log_f:
        for (side, name, _, _, libdir), (exe, err, text) in zip(jobs, built):
            log_f.write(text)
            if exe is None:
                if side == "ours" and name not in OPTIONAL_OURS:
                    failures.append("%s/%s: build failed: %s" % (side, name, err))
                log("bench: %s/%s does not build (%s), skipped; see %s/build.log"
                    % (side, name, err, workdir))
                continue
            linked = check_linkage(exe, libdir, "libck", "liburcu") if side == "ck" \
                else check_linkage(exe, libdir)
            if not linked:
                log("bench: %s/%s does not load its libraries from %s" % (side, name, libdir))
                return None
            exes[side][name] = exe
    return exes, failures, len(jobs)


def round_sides(rnd, sides, name, args, exes):
    """The sides of one run in round @rnd, in order, with the metrics each
    prints: @sides (ours first) in even rounds and reversed in odd ones,
    then our A/A second run; ck only in CK_RUNS, and only where built."""
    order = list(sides) if rnd % 2 == 0 else list(reversed(sides))
    seq = []
    for side in order + (["ours2"] if is_aa(name, args) else []):
        if exes.get("ours" if side == "ours2" else side, {}).get(name) is None:
            continue
        metrics = CK_RUNS.get((name, tuple(args))) if side == "ck" else True
        if metrics:
            seq.append((side, metrics))
    return seq


def run_rounds(opts, rounds, exes):
    """The interleaved rounds.  Returns (results, units, failed, failures,
    preempted): results[side][metric] holds one value per round (None when
    not measured), results["aa_spread"][metric] the A/A spread of each round."""
    results = {side: {} for side in SIDES + ("ck", "ours2")}
    results["aa_spread"] = {}
    units = {}
    failed = set()
    failures = []
    preempted = {}
    extra = ["-q"] if opts.quick else []
    for rnd in range(rounds):
        for name, args, repeat, metrics in selected_runs(opts):
            seq = [(side, metrics if m is True else m)
                   for side, m in round_sides(rnd, run_sides(opts), name, args, exes)]
            got = {side: {m: [] for m in ms} for side, ms in seq}
            for _ in range(repeat):
                for side, ms in seq:
                    exe = exes["ours" if side == "ours2" else side][name]
                    out, err = run_reader_checked(exe, args + extra, name, ms,
                                                  "%s round %d" % (side, rnd + 1), preempted, side)
                    if out is None:
                        failed.update((side, m) for m in ms)
                        failures.append("%s/%s %s (round %d): %s"
                                        % (side, name, " ".join(args), rnd + 1, err))
                        log("bench: %s" % failures[-1])
                        continue
                    for m in ms:
                        if out.get(m):
                            got[side][m].append(out[m][0])
                            units[m] = out[m][1]
            # one entry per round (None when not measured), so rounds pair up
            for side, ms in seq:
                for m in ms:
                    vals = got[side][m]
                    results[side].setdefault(m, []).append(
                        statistics.median(vals) if vals else None)
            # every run of our build in this round is an A/A sample: the
            # repeats of one side and the AA_RUNS second run
            for m in metrics:
                ours_all = [v for v in got.get("ours", {}).get(m, []) +
                            got.get("ours2", {}).get(m, []) if v]
                if len(ours_all) > 1:
                    results["aa_spread"].setdefault(m, []).append(max(ours_all) / min(ours_all))
        log("bench: round %d/%d done" % (rnd + 1, rounds))
    return results, units, failed, failures, preempted


def measure(opts, rounds, build, trees, exes, failures, nbin, self_compare):
    """Runs the rounds and prints the header, the table and the failures;
    returns (exit status, the run's record)."""
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    load_before = load_text()
    ref, ck = trees
    version = ref_version(*ref) if ref[1] else "not run"
    ck_version = pc_version(ck[1], "ck.pc") if ck and exes["ck"] else None
    if self_compare:
        print("# A/A run: liburcu %s on both sides (column 'ours' is liburcu too)" % version)
    else:
        print("# side-by-side: ours (%s, source %s) vs liburcu %s (%s)"
              % (build, source_revision(), version, ref[1] or "--peers without liburcu"))
    if ck_version:
        print("# second peer: Concurrency Kit %s, ck_epoch (%s); its rows in their own table"
              % (ck_version, ck[1]))
    print("# command: %s" % sh([sys.argv[0]] + sys.argv[1:]))
    print("# started %s, load (uptime) %s, %d CPUs, %d round(s)%s"
          % (stamp, load_before, os.cpu_count() or 0, rounds, ", quick" if opts.quick else ""))
    print("# planned: %s" % plan_summary(planned_runs(opts, rounds), nbin)[1])
    sys.stdout.flush()

    t_start = time.monotonic()
    cpu_before = cpu_times()
    results, units, failed, run_failures, preempted = run_rounds(opts, rounds, exes)
    failures = failures + run_failures
    load_after = load_text()
    cpu_after = cpu_times()
    usage = ""
    if cpu_before and cpu_after and cpu_after[2] > cpu_before[2]:
        span = cpu_after[2] - cpu_before[2]
        usage = ", CPUs busy %.0f%% (steal %.0f%%) during the run" % (
            100.0 * (cpu_after[0] - cpu_before[0]) / span,
            100.0 * (cpu_after[1] - cpu_before[1]) / span)
    print("# finished %s after %.0f s, load (uptime) %s%s"
          % (datetime.datetime.now(datetime.timezone.utc).strftime("%H:%M:%S UTC"),
             time.monotonic() - t_start, load_after, usage))
    noise = compute_noise(results)
    print_noise(noise, rounds)
    try:
        busiest = max(float(load_before.split()[0]), float(load_after.split()[0]))
    except (ValueError, IndexError):
        busiest = 0
    if busiest > (os.cpu_count() or 1):
        print("# warning: load average above the CPU count: other work shared these CPUs, "
              "expect large run-to-run swings (see --self-compare for this machine's noise)")
    print()
    print_table(results, units, rounds, failed, noise)
    if exes["ck"]:
        print()
        print_ck_table(results, units, rounds, failed, noise)

    if preempted:
        print()
        print("Reader below %.0f%% of its CPU even after %d retries (figures kept, doubtful):"
              % (READER_MIN_CPU, READER_RETRIES))
        for (side, m), n in sorted(preempted.items()):
            print("  %s: %s in %d measurement(s)" % (m.rsplit(".", 1)[0], side, n))
    if failures:
        print()
        print("FAILED:")
        for f in failures:
            print("  " + f)
    record = {"started": stamp, "rounds": rounds, "quick": opts.quick, "only": opts.only,
              "self_compare": self_compare, "commit": source_revision(), "liburcu": version,
              "ck": ck_version, "peers": list(run_sides(opts)[1:]),
              "cpus": os.cpu_count() or 0, "load_start": load_before, "load_end": load_after,
              "built_ours": sorted(exes["ours"]),
              "units": units, "results": results, "failures": failures,
              "preempted": ["%s %s %d" % (k[0], k[1], v) for k, v in preempted.items()]}
    return (1 if failures else 0), record


if __name__ == "__main__":
    sys.exit(main())
