#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Model-check tests/model/urcu-gp.pml with spin; TAP on stdout.

Each check generates the verifier (spin -a with the check's -D macros),
compiles it with gcc, runs it under nice and a timeout, and reads the
"errors: N" line.  A correct configuration must give 0 errors after a
complete search (no depth or memory limit hit); a seeded bug or a witness
must give at least one error of the expected kind (an assertion naming the
expected expression, or an acceptance cycle for a liveness bug).

  run-model.py --quick      the reduced check (suite model-quick, seconds)
  run-model.py --full       the full check (suite model, opt-in, minutes)
  run-model.py --list       list the checks of --quick and --full
  run-model.py --only NAME  run the named checks (repeatable)
  --workdir DIR             where to build the verifiers (default: a
                            temporary directory, removed unless a check fails)
  --keep                    keep the work directory
  --trail NAME              replay the counterexample of NAME (after a run
                            with --keep --workdir DIR) and print its steps

Exit status: 0 when every check passed, 1 otherwise, 77 (skip) when spin or
gcc is missing.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "urcu-gp.pml")

# Memory bound of one verifier run (MiB, pan's -DMEMLIM) and search depth
# (the deepest search needs about 11000; hitting the bound fails the check).
MEMLIM_MB = 4096
# The weak model's two-reader and two-caller checks need more.
WEAK_BIG_MB = 12288
DEPTH = 200000

POISON = "held["


class Check:
    """One spin run.

    defs:   -D macros for spin (model configuration, bug, witness)
    mode:   "live": the LTL claim with weak fairness (pan -a -f), which also
              checks the assertions in every reachable state;
            "safety": assertions and invalid end states (-DSAFETY); with
              -DREADS=k the readers leave after k critical sections, every
              execution is finite, and an updater stuck for ever is an
              invalid end state, so this checks liveness as well;
            "cycles": any cycle at all (non-progress cycles with no progress
              label, pan -l): 0 errors proves every execution of a -DREADS
              configuration finite, which is what makes "safety" a liveness
              check there.
    expect: None (0 errors after a complete search), or text that pan's
            first error must contain (an assertion, "acceptance cycle",
            "invalid end state").
    big:    compile with -O2 and state compression (slow to build, fast and
            small to run).
    model:  the Promela file in tests/model (default urcu-gp.pml).
    memlim: pan's memory bound in MiB (hitting it fails the check).
    """

    def __init__(self, name, defs, mode, expect=None, why="", big=False,
                 model="urcu-gp.pml", memlim=MEMLIM_MB):
        assert mode in ("live", "safety", "cycles")
        self.name = name
        self.model = model
        self.memlim = memlim
        self.defs = defs
        self.mode = mode
        self.live = mode == "live"
        self.expect = expect
        self.why = why
        self.big = big


def quick_checks():
    """1 reader, 1 updater, nesting 2: every flavor, the four seeded bugs."""
    return gp_quick_checks() + module_checks("quick")


def gp_quick_checks():
    small = ["-DNR=1", "-DNU=1", "-DNEST=2"]
    return [
        Check("memb", small, "live", why="safety + liveness, membarrier/signal ordering"),
        Check("mb", small + ["-DFLAVOR_MB"], "live", why="safety + liveness, fenced readers"),
        Check("qsbr", small + ["-DFLAVOR_QSBR"], "live",
              why="safety + liveness, online/offline/quiescent state"),
        Check("bp", small + ["-DFLAVOR_BP"], "live",
              why="safety + liveness, lazy registration and thread exit"),
        Check("bug-skip-ordering", small + ["-DBUG_SKIP_ORDERING"], "safety", POISON,
              "(a) the updater skips B1 (busted-order-updater)"),
        Check("bug-reader-no-fence", small + ["-DFLAVOR_MB", "-DBUG_READER_NO_FENCE"],
              "safety", POISON, "(b) the mb reader skips its fence (busted-order-reader)"),
        Check("bug-lost-wakeup", small + ["-DBUG_LOST_WAKEUP"], "live", "acceptance cycle",
              "(c) the futex wait checks, then sleeps: lost wake-up"),
        Check("bug-scan-skip", small + ["-DBUG_SCAN_SKIP"], "safety", POISON,
              "(d) the scan forgets a reader"),
        Check("bug-waited-late", small + ["-DREADS=1", "-DBUG_WAITED_LATE"], "safety",
              "invalid end state",
              "(e) the waited bytes set after the force order: the reader's last exit "
              "misses its byte, the updater sleeps for ever"),
        # 3 buffer entries: a registering reader's count, unlock and
        # snapshot stores all buffered before it loads the pointer
        Check("register-sb3", small + ["-DSB=3"], "safety",
              why="(g)'s twin: with the fence, a registering reader is safe"),
        Check("bug-register-no-fence", small + ["-DSB=3", "-DBUG_REGISTER_NO_FENCE"], "safety", POISON,
              "(g) registration without its fence: a synchronize_rcu that finds no "
              "registered thread misses a reader registering meanwhile"),
    ] + weak_quick_checks()


def weak_quick_checks():
    """The weak (ARMv8-like) memory model: every flavor, and the seeded
    bugs that only weak ordering exposes, each beside its TSO twin, which
    must verify."""
    small = ["-DNR=1", "-DNU=1", "-DNEST=1"]
    w = ["-DWEAK"]
    c = []
    for f in ("memb", "mb", "qsbr"):
        fl = [] if f == "memb" else ["-DFLAVOR_" + f.upper()]
        c.append(Check(f + "-weak", small + w + fl, "live",
                       why="weak memory: safety + liveness"))
    c.append(Check("bp-weak-leave", small + w + ["-DFLAVOR_BP", "-DREADS=1"], "safety",
                   why="weak memory, bp: safety + no updater stuck (readers that leave)"))
    c.append(Check("publish-weak", small + w + ["-DPUBLISH"], "safety",
                   why="weak memory: rcu_assign_pointer publishes an initialised object"))
    for name, defs, why in WEAK_SEEDS:
        c.append(Check(name + "-tso-passes", small + defs, "safety",
                       why="TSO hides it: " + why))
        c.append(Check("bug-" + name + "-weak", small + w + defs, "safety",
                       "assertion violated", why=why))
    c.append(Check("qs-wmb-c11-weak", small + w + ["-DFLAVOR_QSBR", "-DBUG_QS_WMB",
                                                  "-DWMB_C11"], "safety",
                   why="the same wmb as generic.h's C11 release fence: correct"))
    return c


# Seeded bugs that are correct under TSO, wrong under weak ordering.
WEAK_SEEDS = [
    ("unlock-relaxed", ["-DBUG_UNLOCK_RELAXED"],
     "the reader's unlock store relaxed, not release: its section's loads may "
     "be performed after the updater sees it idle"),
    ("qs-wmb", ["-DFLAVOR_QSBR", "-DBUG_QS_WMB"],
     "qsbr: the fence before the quiescent-state store weakened to a store-store "
     "fence (aarch64 dmb ishst) and the store relaxed"),
    ("offline-relaxed", ["-DFLAVOR_QSBR", "-DBUG_OFFLINE_RELAXED"],
     "qsbr: the offline store relaxed, without the fence before it"),
    ("publish-relaxed", ["-DPUBLISH", "-DBUG_PUBLISH_RELAXED"],
     "rcu_assign_pointer relaxed: the reader finds the new object uninitialised"),
]


def full_checks():
    return gp_full_checks() + weak_full_checks() + module_checks("full")


def weak_full_checks():
    """The weak memory model in the larger configurations (minutes)."""
    def fl(name):
        return [] if name == "memb" else ["-DFLAVOR_" + name.upper()]

    w = ["-DWEAK"]
    small = ["-DNR=1", "-DNU=1", "-DNEST=1"]
    r2 = ["-DNR=2", "-DNU=1", "-DNEST=1"]
    u2 = ["-DNR=1", "-DNU=2", "-DNEST=1", "-DREADS=2"]
    c = [Check("witness-weak-stale-scan", small + w + ["-DWITNESS_STALE"], "safety",
               "(me>=1)", why="reached: the scan reads a reader's word out of date"),
         Check("witness-weak-stale-ptr", small + w + ["-DWITNESS_STALE_PTR"], "safety",
               "(me<1)", why="reached: a reader loads a pointer already replaced"),
         Check("bp-weak", small + w + fl("bp"), "live", big=True,
               why="weak memory, bp: safety + liveness (LTL)"),
         Check("memb-nest2-weak", ["-DNR=1", "-DNU=1", "-DNEST=2"] + w, "live", big=True,
               why="weak memory, nesting: safety + liveness (LTL)"),
         Check("memb-sb3-weak", small + w + ["-DSB=3"], "live", big=True,
               why="weak memory, 3-entry store buffers: safety + liveness (LTL)"),
         Check("memb-2gp-weak", ["-DNR=1", "-DNU=1", "-DNUPD=2", "-DSEQ_BITS=2"] + w,
               "live", big=True, why="weak memory, two grace periods: safety + liveness")]
    for f in ("memb", "mb", "qsbr", "bp"):
        c.append(Check(f + "-2r1u-weak", r2 + w + fl(f), "safety", big=True,
                       memlim=WEAK_BIG_MB, why="weak memory, two readers: safety"))
        c.append(Check(f + "-1r2u-leave-weak", u2 + w + fl(f), "safety", big=True,
                       memlim=WEAK_BIG_MB,
                       why="weak memory, two callers sharing grace periods: safety + "
                       "no caller stuck"))
    # The TSO seeded bugs stay bugs under the weak model.
    for name, defs, expect in (
            ("skip-ordering", ["-DBUG_SKIP_ORDERING"], POISON),
            ("reader-no-fence", ["-DFLAVOR_MB", "-DBUG_READER_NO_FENCE"], POISON),
            ("scan-skip", ["-DBUG_SCAN_SKIP"], POISON),
            ("waited-late", ["-DREADS=1", "-DBUG_WAITED_LATE"], "invalid end state")):
        c.append(Check("bug-" + name + "-weak", small + w + defs, "safety", expect,
                       why="the TSO bug under the weak model too"))
    # (The weak-only seeds with two readers: the depth-first search wanders
    # the larger space for minutes before it reaches the one-reader
    # counterexample, so they stay one-reader checks, in model-quick.)
    return c


def gp_full_checks():
    """Two readers or two concurrent callers, every feature (minutes).

    Two readers with two updaters do not fit an exhaustive search in 2 GiB,
    so each check has either two readers or two updaters.  "-leave" checks
    use readers that leave (-DREADS=2): safety + liveness by a plain search,
    proved finite by the matching "-cycles" check.
    """
    def fl(name):
        return [] if name == "memb" else ["-DFLAVOR_" + name.upper()]

    r2 = ["-DNR=2", "-DNU=1"]
    u2 = ["-DNR=1", "-DNU=2", "-DNEST=1"]
    leave = ["-DREADS=2"]
    c = []
    # Two readers: one may wake the updater while the other is still inside.
    c.append(Check("memb-2r1u", r2 + ["-DNEST=2"], "safety", big=True,
                   why="two readers, nesting: safety"))
    c.append(Check("memb-2r1u-live", r2 + ["-DNEST=1"], "live", big=True,
                   why="two readers that keep reading: safety + liveness (LTL, weak fairness)"))
    c.append(Check("memb-2r1u-leave", r2 + ["-DNEST=1"] + leave, "safety", big=True,
                   why="two readers that leave: safety + no updater stuck"))
    c.append(Check("memb-2r1u-leave-cycles", r2 + ["-DNEST=1"] + leave, "cycles", big=True,
                   why="no cycle: every execution of memb-2r1u-leave is finite"))
    c.append(Check("mb-2r1u", r2 + ["-DNEST=2"] + fl("mb"), "safety", big=True,
                   why="two fenced readers, nesting: safety"))
    c.append(Check("qsbr-2r1u-live", r2 + fl("qsbr"), "live", big=True,
                   why="two qsbr readers: safety + liveness (LTL, weak fairness)"))
    c.append(Check("bp-2r1u", r2 + ["-DNEST=1"] + fl("bp"), "safety", big=True,
                   why="two bp readers registering and exiting: safety"))
    # Two concurrent synchronize_rcu callers sharing grace periods.
    for f in ("memb", "mb", "qsbr", "bp"):
        c.append(Check(f + "-1r2u-leave", u2 + leave + fl(f), "safety", big=True,
                       why="two callers sharing grace periods: safety + no caller stuck"))
    c.append(Check("memb-1r2u-leave-cycles", u2 + leave, "cycles", big=True,
                   why="no cycle: every execution of memb-1r2u-leave is finite"))
    c.append(Check("memb-1r2u-live", u2, "live", big=True,
                   why="two callers, a reader that keeps reading: safety + liveness (LTL)"))
    # Two updates in a row: the sequence moves twice, within the wrap bound.
    c.append(Check("memb-2gp", ["-DNR=1", "-DNU=1", "-DNUPD=2", "-DSEQ_BITS=2"], "live",
                   why="two grace periods, 2-bit sequence (no wrap): safety + liveness"))
    # The wrap bound broken: with a 1-bit sequence two grace periods wrap it.
    c.append(Check("wrap-1bit", ["-DNR=1", "-DNU=1", "-DNUPD=2", "-DSEQ_BITS=1"], "safety",
                   POISON, "the sequence wraps while a reader holds an old snapshot"))
    # The seeded bugs in the larger configurations.
    c.append(Check("bug-skip-ordering-mb-1r2u", u2 + fl("mb") + ["-DBUG_SKIP_ORDERING"],
                   "safety", POISON, big=True,
                   why="(a) fenced flavors: B1 is what orders a concurrent caller's removal"))
    c.append(Check("bug-skip-ordering-2r1u", r2 + ["-DBUG_SKIP_ORDERING"], "safety", POISON,
                   "(a) two readers"))
    c.append(Check("bug-reader-no-fence-2r1u", r2 + fl("mb") + ["-DBUG_READER_NO_FENCE"],
                   "safety", POISON, "(b) two readers"))
    c.append(Check("bug-lost-wakeup-2r1u-leave", r2 + ["-DNEST=1", "-DBUG_LOST_WAKEUP"] + leave,
                   "safety", "invalid end state",
                   "(c) readers that leave: the updater sleeps for ever"))
    c.append(Check("bug-lost-wakeup-qsbr", ["-DNR=1", "-DNU=1", "-DBUG_LOST_WAKEUP"] + fl("qsbr"),
                   "live", "acceptance cycle", "(c) qsbr"))
    c.append(Check("bug-scan-skip-2r1u", r2 + ["-DBUG_SCAN_SKIP"], "safety", POISON,
                   "(d) the scan forgets the second of two readers"))
    c.append(Check("bug-reader-clears-qsbr-1r2u-leave",
                   u2 + leave + fl("qsbr") + ["-DBUG_READER_CLEARS"], "safety",
                   "invalid end state", big=True,
                   why="(f) a reader clears its own waited byte: its buffered clear lands after "
                   "the updater's next set, a stale quiescent state consumed the wake-up"))
    c.append(Check("bug-waited-late-2r1u-leave",
                   r2 + ["-DNEST=1", "-DBUG_WAITED_LATE"] + leave, "safety",
                   "invalid end state", "(e) readers that leave: the updater sleeps for ever"))
    # Witnesses: the model reaches the situations the checks are about.
    c.append(Check("witness-shared", u2 + ["-DWITNESS_SHARED"], "safety", "(d>=",
                   "two callers served by one grace period"))
    c.append(Check("witness-wake", r2 + ["-DWITNESS_WAKE"], "safety", "!(slept)",
                   "the updater sleeps on gp.futex and a departing reader wakes it"))
    c.append(Check("witness-wake-qsbr", ["-DNR=1", "-DNU=1", "-DWITNESS_WAKE"] + fl("qsbr"),
                   "safety", "!(slept)", "qsbr: a quiescent state or offline wakes the updater"))
    c.append(Check("witness-no-reader", ["-DNR=1", "-DNU=1", "-DWITNESS_NO_READER"], "safety",
                   "(d!=0)", why="a synchronize_rcu call finds no registered thread"))
    c.append(Check("witness-nested", ["-DNR=1", "-DNU=1", "-DNEST=2", "-DWITNESS_NESTED"],
                   "safety", "((v&3)!=2)", "the scan waits for a reader in a nested section"))
    return c


def module_checks(kind):
    """Checks of the other models: each tests/model/checks_*.py defines
    checks(Check, kind) with kind "quick" or "full" and returns a list."""
    import importlib.util
    out = []
    for f in sorted(os.listdir(HERE)):
        if f.startswith("checks_") and f.endswith(".py"):
            spec = importlib.util.spec_from_file_location(f[:-3], os.path.join(HERE, f))
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            out.extend(mod.checks(Check, kind))
    return out


def parse(out):
    """Numbers and verdict from pan's report."""
    r = {}
    m = re.search(r"errors: (\d+)", out)
    r["errors"] = int(m.group(1)) if m else None
    m = re.search(r"State-vector (\d+) byte", out)
    r["vector"] = int(m.group(1)) if m else None
    m = re.search(r"(\d+) states, stored", out)
    r["stored"] = int(m.group(1)) if m else None
    m = re.search(r"states, stored \(([0-9.e+]+) visited\)", out)
    r["visited"] = int(float(m.group(1))) if m else None
    m = re.search(r"pan: elapsed time ([0-9.e+]+) seconds", out)
    r["time"] = float(m.group(1)) if m else None
    m = re.search(r"^pan:1: (.*)$", out, re.M)
    r["first"] = m.group(1) if m else ""
    incomplete = []
    for pat in ["max search depth too small", "reached -DMEMLIM bound",
                "out of memory", "Search not completed", "aborting"]:
        if pat in out:
            incomplete.append(pat)
    r["incomplete"] = incomplete
    return r


def run(cmd, cwd, timeout):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=timeout)
    return p.returncode, p.stdout


def build(check, d, spin, cc):
    """spin -a, then gcc; returns an error message or None."""
    os.makedirs(d, exist_ok=True)
    defs = list(check.defs) + (["-DLIVENESS"] if check.live else [])
    rc, out = run([spin, "-a"] + defs + [os.path.join(HERE, check.model)], d, 120)
    if rc != 0 or not os.path.exists(os.path.join(d, "pan.c")):
        return "spin -a failed:\n" + out
    cflags = ["-O2" if check.big else "-O0", "-w", "-DNOBOUNDCHECK",
              "-DMEMLIM=%d" % check.memlim]
    if check.big:
        cflags.append("-DCOLLAPSE")	# state compression: memory for time
    if check.mode == "live":
        cflags.append("-DNFAIR=3")
    elif check.mode == "cycles":
        cflags.append("-DNP")
    else:
        cflags.append("-DSAFETY")
    rc, out = run(["nice", "-n", "10", cc] + cflags + ["-o", "pan", "pan.c"], d, 600)
    if rc != 0:
        return "gcc failed:\n" + out
    return None


def verify(check, d, full):
    args = ["-m%d" % DEPTH, "-w%d" % (26 if check.big else 20)]
    if check.mode == "live":
        args = ["-a", "-f"] + args
    elif check.mode == "cycles":
        args = ["-l"] + args
    limit = 3600 if check.big else 600
    t0 = time.time()
    try:
        rc, out = run(["nice", "-n", "10", "timeout", str(limit), "./pan"] + args, d,
                      limit + 30)
    except subprocess.TimeoutExpired:
        return None, "timed out", 0
    with open(os.path.join(d, "pan.out"), "w") as f:
        f.write(out)
    if rc == 124:
        return None, "timed out after %d s" % limit, time.time() - t0
    return parse(out), out, time.time() - t0


def describe(r, wall):
    parts = []
    if r["stored"] is not None:
        parts.append("%d states" % r["stored"])
    if r.get("visited"):
        parts.append("%d visited" % r["visited"])
    if r["vector"] is not None:
        parts.append("vector %d B" % r["vector"])
    parts.append("%.1f s" % (r["time"] if r["time"] is not None else wall))
    return ", ".join(parts)


def judge(check, r):
    """None when the result is the expected one, else why not."""
    if r["errors"] is None:
        return "no 'errors:' line in pan's output"
    if check.expect is None:
        if r["errors"] != 0:
            return "%d error(s): %s" % (r["errors"], r["first"])
        if r["incomplete"]:
            return "search incomplete: " + ", ".join(r["incomplete"])
        return None
    if r["errors"] < 1:
        if r["incomplete"]:
            return "no counterexample, search incomplete: " + ", ".join(r["incomplete"])
        return "no counterexample found"
    if check.expect not in r["first"]:
        return "counterexample of the wrong kind: %s (expected %s)" % (r["first"],
                                                                        check.expect)
    return None


def config_value(defs, name, default):
    for d in defs:
        if d.startswith("-D%s=" % name):
            return int(d.split("=", 1)[1])
    return default


def trail(check, d, spin):
    """Replay the counterexample: one line per step, with what it changed."""
    if check.model != "urcu-gp.pml":
        # Another model: spin's own replay (no address names to decode).
        src = os.path.join(HERE, check.model)
        defs = list(check.defs) + (["-DLIVENESS"] if check.live else [])
        shutil.copy(src, os.path.join(d, check.model))
        for inc in os.listdir(HERE):
            if inc.endswith(".pml") and inc != check.model:
                shutil.copy(os.path.join(HERE, inc), os.path.join(d, inc))
        rc, out = run([spin, "-t", "-p", "-g", "-l"] + defs + [check.model], d, 300)
        print(out)
        return rc
    if not os.path.exists(os.path.join(d, "urcu-gp.pml.trail")):
        print("no trail in %s (run with --keep --workdir first)" % d)
        return 1
    defs = list(check.defs) + (["-DLIVENESS"] if check.live else [])
    shutil.copy(MODEL, os.path.join(d, "urcu-gp.pml"))
    rc, out = run([spin, "-t", "-p", "-g", "-l"] + defs + ["urcu-gp.pml"], d, 300)
    nr = config_value(check.defs, "NR", 1)
    nu = config_value(check.defs, "NU", 1)
    sb = config_value(check.defs, "SB", 2)
    addr = (["gp.ctr", "gp.futex", "started", "done", "requested", "epoch",
             "nwaiters", "leader_lock", "reg_lock"]
            + ["ptr%d" % j for j in range(nu)] + ["rctr%d" % i for i in range(nr)] + ["waited%d" % i for i in range(nr)]
            + ["init%d" % j for j in range(nu)])
    owner = ["reader%d" % i for i in range(nr)] + ["updater%d" % j for j in range(nu)]
    src = open(MODEL).read().split("\n")
    # Lines before this one are the memory-model helpers: show the caller.
    helpers_end = next((i for i, l in enumerate(src, 1) if "registration and wake-up" in l),
                       0)
    quiet = {"ti", "tj", "tk", "tf", "i", "ri", "v", "loops", "slot", "mayold", "sb_r"}
    step_re = re.compile(r"\s*(\d+):\s+proc\s+(\d+) \(([:\w]+):\d+\) \S+:(\d+) ")
    var_re = re.compile(r"\s+(?:([:\w]+)\((\d+)\):)?(\w+)(?:\[(\d+)\])? = (-?\d+)$")
    values = {}
    steps = []
    cur = None
    for line in out.split("\n"):
        if "START OF CYCLE" in line:
            steps.append("cycle")
            cur = None
            continue
        m = step_re.match(line)
        if m:
            key = (m.group(1), m.group(2))
            if cur is None or cur["key"] != key:
                cur = {"key": key, "who": m.group(3), "pid": int(m.group(2)),
                       "lines": [], "changes": []}
                steps.append(cur)
            cur["lines"].append(int(m.group(4)))
            continue
        m = var_re.match(line)
        if m and cur is not None:
            proc, pid, var, idx, val = m.groups()
            k = (proc, pid, var, idx)
            if values.get(k) != val:
                values[k] = val
                cur["changes"].append((proc, var, idx, int(val)))
    # Render.
    bufs = {}
    for st in steps:
        if st == "cycle":
            print("  ---- start of the cycle (repeats forever) ----")
            continue
        if st["who"] in (":init:",):
            continue
        lines = [n for n in st["lines"] if n > helpers_end] or st["lines"]
        n = lines[0]
        text = src[n - 1].strip() if 0 < n <= len(src) else ""
        notes = []
        touched = set()
        for proc, var, idx, val in st["changes"]:
            if proc or var in quiet:
                if proc and var not in quiet:
                    notes.append("%s=%d" % (var, val))
                continue
            if var == "mem":
                notes.append("%s=%d" % (addr[int(idx)] if int(idx) < len(addr) else idx, val))
            elif var in ("sb_a", "sb_v", "sb_n"):
                p = int(idx) // sb if var != "sb_n" else int(idx)
                bufs.setdefault(p, {})[(var, int(idx))] = val
                touched.add(p)
            else:
                notes.append("%s%s=%d" % (var, "[%s]" % idx if idx is not None else "", val))
        for p in sorted(touched):
            b = bufs[p]
            cnt = b.get(("sb_n", p), 0)
            ents = ["%s:%d" % (addr[b.get(("sb_a", p * sb + e), 0)],
                               b.get(("sb_v", p * sb + e), 0)) for e in range(cnt)]
            notes.append("buf(%s)=[%s]" % (owner[p] if p < len(owner) else p, " ".join(ents)))
        who = st["who"] + str(st["pid"])
        if not notes and all(n <= helpers_end for n in st["lines"]):
            continue	# a sub-step of a memory-model helper that changed nothing
        if st["who"] == "drainer":
            print("  %-9s %s" % (who, " ".join(notes)))
        else:
            print("  %-9s %4d %-44s %s" % (who, n, text[:44], " ".join(notes)))
    for t in re.findall(r"spin: (urcu-gp.pml:\d+, Error: .*|text of failed .*)", out):
        print("  spin: " + t)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true")
    g.add_argument("--full", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--workdir")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--trail")
    ap.add_argument("--spin", default=os.environ.get("SPIN", "spin"))
    ap.add_argument("--cc", default=os.environ.get("CC_MODEL", "gcc"))
    a = ap.parse_args()

    full = a.full
    checks = full_checks() if full else quick_checks()
    if a.only or a.trail:
        every = {c.name: c for c in quick_checks() + full_checks()}
        names = a.only or [a.trail]
        unknown = [n for n in names if n not in every]
        if unknown:
            print("unknown check(s): %s (see --list)" % " ".join(unknown), file=sys.stderr)
            return 2
        checks = [every[n] for n in names]
        full = full or any(c in full_checks_names() for c in names)
    if a.list:
        for title, cs in (("quick", quick_checks()), ("full", full_checks())):
            for c in cs:
                print("%-30s %-6s %s  %s" % (c.name, title,
                                             " ".join(c.defs), c.why))
        return 0

    spin = shutil.which(a.spin)
    cc = shutil.which(a.cc)
    if not spin or not cc:
        print("1..0 # SKIP %s not installed (Debian: apt-get install spin gcc)"
              % ("spin" if not spin else a.cc))
        return 77

    if a.trail:
        if not a.workdir:
            print("--trail needs the --workdir of a --keep run", file=sys.stderr)
            return 2
        return trail(checks[0], os.path.join(a.workdir, checks[0].name), spin)

    workdir = a.workdir or tempfile.mkdtemp(prefix="urcu-model-")
    os.makedirs(workdir, exist_ok=True)
    print("1..%d" % len(checks))
    failed = 0
    for i, c in enumerate(checks, 1):
        d = os.path.join(workdir, c.name)
        shutil.rmtree(d, ignore_errors=True)
        err = build(c, d, spin, cc)
        if err:
            failed += 1
            print("not ok %d - %s: %s" % (i, c.name, err.strip().split("\n")[0]))
            for line in err.strip().split("\n")[1:20]:
                print("# " + line)
            continue
        r, out, wall = verify(c, d, full)
        if r is None:
            failed += 1
            print("not ok %d - %s: %s" % (i, c.name, out))
            continue
        why = judge(c, r)
        what = ("%d error(s) expected, got %d: %s" % (1, r["errors"], r["first"])
                if c.expect else "0 errors")
        if why:
            failed += 1
            print("not ok %d - %s: %s (%s)" % (i, c.name, why, describe(r, wall)))
            print("# %s: %s" % (c.name, c.why))
            print("# pan output: %s" % os.path.join(d, "pan.out"))
            if r["errors"]:
                print("# replay: %s --trail %s --workdir %s" % (sys.argv[0], c.name, workdir))
        else:
            if c.expect:
                what = "counterexample: %s" % r["first"]
            print("ok %d - %s: %s (%s) [%s]" % (i, c.name, what, describe(r, wall),
                                                 c.why))
        sys.stdout.flush()
    if failed:
        print("# %d of %d checks failed; work directory kept: %s" % (failed, len(checks),
                                                                      workdir))
    elif not a.keep and not a.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failed else 0


def full_checks_names():
    return {c.name for c in full_checks()}


if __name__ == "__main__":
    sys.exit(main())
