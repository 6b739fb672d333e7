#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of urcutorture's litmus mode and the seeded ordering-bug flavors.

usage: check-litmus.py URCUTORTURE run FLAVOR DURATION
       check-litmus.py URCUTORTURE modules BUILD_ROOT MODULE...

run: one --mode=litmus run.  A real flavor must end in SUCCESS (exit 0) with
no error, after rounds in which its reader saw both the old and the new
object (the window was swept, not missed).  A seeded flavor (kind
"seeded" in --list-flavors: busted-order-updater, busted-order-reader)
must end in FAILURE, exit 1, through the litmus detector (a poisoned
object read inside a read-side section), the first detection ending the
run well before DURATION.

Both kinds are judged by the rounds the threads ran, not by the time they
were given: on a loaded machine a round completes only when the reader and
the updater happen to be on CPU at once, and a run may do few or none.  A
real flavor whose reader saw one side only is run again, longer, up to
twice (3 s, then 10 s; a retry no longer than the first run is left out).
A seeded run that detects nothing is run once
more; a second miss fails only when the two runs did at least
MIN_SEEDED_ROUNDS rounds (detection took at most 15,321 rounds in 200
measured runs, docs/TORTURE-SEEDED.md); with fewer the check is skipped
and says how many ran.  It is skipped too under an emulator
(MESON_EXE_WRAPPER set: qemu-user on x86 does not reproduce the
reordering).

modules: each seeded module exports exactly ut_seed_flavor_ops (its copy of
the engine is local), and no compile command of the build other than the
seeded modules' defines a URCU_I_SEED_* macro: the libraries are production
code (skipped in a -Dseeded_bug build, where every command defines one).

Output is TAP; exit status 0 when every check passed, 1 otherwise.
"""
import json
import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import utcheck  # noqa: E402
from utcheck import ok, last_line  # noqa: E402


def seeded_flavors():
    """The flavors urcutorture --list-flavors marks seeded."""
    rc, out, err = utcheck.run(["--list-flavors"], timeout=10)
    if rc != 0:
        ok(False, "--list-flavors: exit 0 (got %d)" % rc, out + err)
    return {w[0] for w in (line.split() for line in out.splitlines())
            if len(w) > 1 and w[1] == "seeded"}


def parse_s(text):
    return float(text[:-1]) if text.endswith("s") else float(text)


def litmus(flavor, duration):
    args = ["--mode=litmus", "--flavor=" + flavor, "--duration=" + duration,
            "--stat-interval=0"]
    t0 = time.monotonic()
    rc, out, err = utcheck.run(args, timeout=120)
    took = time.monotonic() - t0
    want = parse_s(duration) + 10
    # The run ends on time: the controller's sleeps once never ended under
    # the signal flavor's SIGRCU storm (a 5 s run ran for 10 minutes).
    ok(took < want, "litmus %s --duration=%s ended in %.1f s (< %.0f s)"
       % (flavor, duration, took, want))
    m = re.search(r"litmus rounds\s+(\d+) .*the old object (\d+), the new (\d+)", out)
    rounds, old, new = (int(x) for x in m.groups()) if m else (0, 0, 0)
    return rc, out, err, rounds, old, new


# Rounds two undetected seeded runs must reach before the miss is a failure:
# more than 3 times the slowest detection measured (15,321 rounds).
MIN_SEEDED_ROUNDS = 50000

# Longer runs for a real flavor whose reader saw one side of the race only.
REAL_RETRIES = ["3s", "10s"]


def load_text():
    """The load, for the messages: the race needs the reader and the updater
    on CPU at the same instant, which a busy machine seldom grants."""
    return "load average %.1f on %d CPUs" % (os.getloadavg()[0], os.cpu_count() or 1)


def check_run(flavor, duration):
    seeded = flavor in seeded_flavors()
    rc, out, err, rounds, old, new = litmus(flavor, duration)
    if seeded and rc == 0:
        # Not detected: once more; a second miss fails if the race ran.
        print("# %s: not detected in %s (%d rounds, %s); running again"
              % (flavor, duration, rounds, load_text()))
        first = rounds
        rc, out, err, rounds, old, new = litmus(flavor, duration)
        wrapper = os.environ.get("MESON_EXE_WRAPPER", "").split()
        if rc == 0 and wrapper:
            # qemu-user on an x86 host runs the guest with the host's TSO
            # and its own fences: the store-buffering reordering this seed
            # needs mostly never happens there (README, "Architectures").
            utcheck.count += 1
            print("ok %d - # SKIP litmus %s: not detected in 2 x %s (%d rounds) under %s, "
                  "which does not reproduce the reordering" % (utcheck.count, flavor, duration,
                                                              rounds, wrapper[0]))
            return
        if rc == 0 and first + rounds < MIN_SEEDED_ROUNDS:
            utcheck.count += 1
            print("ok %d - # SKIP litmus %s: not detected, but only %d rounds ran in 2 x %s "
                  "(%s; %d judge a miss): the two threads were seldom on CPU at once"
                  % (utcheck.count, flavor, first + rounds, duration, load_text(),
                     MIN_SEEDED_ROUNDS))
            return
    for longer in REAL_RETRIES:
        if seeded or rc != 0 or (old > 0 and new > 0):
            break
        if parse_s(longer) <= parse_s(duration):
            continue
        # A loaded machine can starve one side for the whole short run, so
        # that every round ends the same way (or none ran): once more, longer.
        print("# %s: %d rounds, one side only (old %d / new %d) in %s (%s); running %s"
              % (flavor, rounds, old, new, duration, load_text(), longer))
        duration = longer
        rc, out, err, rounds, old, new = litmus(flavor, duration)
    text = out + err
    tag = "litmus %s" % flavor
    if seeded:
        ok(rc == 1, "%s: exit 1 (got %d)" % (tag, rc), text)
        ok("poisoned inside its read-side section" in out,
           "%s: the litmus detector fired" % tag, text)
        ok(last_line(out).startswith("End of test: FAILURE"), "%s: FAILURE" % tag, text)
        d = re.search(r"first poisoned read after ([0-9.]+) s", out)
        ok(d is not None, "%s: time to detection reported (%s s)"
           % (tag, d.group(1) if d else "?"), text)
    else:
        ok(rc == 0, "%s: exit 0 (got %d)" % (tag, rc), text)
        ok(last_line(out).startswith("End of test: SUCCESS"), "%s: SUCCESS" % tag, text)
        ok(rounds > 0 and old > 0 and new > 0,
           "%s: %d rounds, reader saw old %d / new %d (both sides of the race)"
           % (tag, rounds, old, new), text)
        # memb, mb, signal: rounds registered by read_lock and rounds that
        # unregister inside the section, the misuse counted by the library.
        m = re.search(r"litmus implicit (\d+) rounds registered by read_lock, (\d+) unregistering", out)
        if flavor in ("memb", "mb", "signal"):
            ok(m is not None and int(m.group(1)) > 0 and int(m.group(2)) > 0,
               "%s: implicit-registration rounds ran (%s)" % (tag, m.groups() if m else "none"), text)
            g = re.search(r"(\d+) misuse events \(urcutorture caused (\d+)\)", out)
            ok(g is not None and int(g.group(1)) >= int(g.group(2)) > 0,
               "%s: the library counted the misuse events (%s)" % (tag, g.groups() if g else "none"),
               text)
        else:
            ok(m is None, "%s: no implicit-registration rounds" % tag, text)


def check_modules(root, modules):
    for mod in modules:
        p = subprocess.run(["nm", "-D", "--defined-only", mod], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        syms = sorted(l.split()[-1] for l in p.stdout.splitlines()
                      if len(l.split()) == 3 and l.split()[1] in "TDBRVW")
        ok(p.returncode == 0 and syms == ["ut_seed_flavor_ops"],
           "%s exports ut_seed_flavor_ops only" % os.path.basename(mod), p.stdout)
    opts = json.load(open(os.path.join(root, "meson-info", "intro-buildoptions.json")))
    seeded = [o.get("value") for o in opts if o.get("name") == "seeded_bug"]
    if seeded and seeded[0]:
        print("ok %d - # SKIP a -Dseeded_bug=%s build defines URCU_I_SEED_* everywhere"
              % (utcheck.count + 1, seeded[0]))
        utcheck.count += 1
        return
    cmds = json.load(open(os.path.join(root, "compile_commands.json")))
    seed_cmds = [c for c in cmds if "URCU_I_SEED_" in c.get("command", "")]
    stray = [c["output"] for c in seed_cmds
             if not re.search(r"(ut-seed-[a-z-]+-engine|ut-busted-order-[a-z]+\.so)\.",
                              c.get("output", ""))]
    ok(len(seed_cmds) > 0, "the seeded modules' sources are compiled with their seed "
       "(%d commands)" % len(seed_cmds))
    ok(not stray, "no other compile command defines URCU_I_SEED_* (%d)" % len(stray),
       "\n".join(stray))


CHECKS = {"run": lambda: check_run(utcheck.ARGS[0], utcheck.ARGS[1]),
          "modules": lambda: check_modules(utcheck.ARGS[0], utcheck.ARGS[1:])}


if __name__ == "__main__":
    sys.exit(utcheck.main(__doc__, CHECKS))
