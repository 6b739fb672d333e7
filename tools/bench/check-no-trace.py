#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that no shipped library carries the bench-only phase trace.

usage: check-no-trace.py LIBRARY...

The URCU_I_PHASE_TRACE hooks of liburcu/src/urcu-gp.c must be empty in the
installed libraries; only tools/bench/meson.build's static copies define
the macro.  Each LIBRARY is listed with `nm` (all symbols, hidden ones
included): any urcu_i_pt_* symbol, or a reference to one, fails the check.
Prints TAP.
"""
import subprocess
import sys


def main():
    libs = sys.argv[1:]
    if not libs:
        print("usage: check-no-trace.py LIBRARY...", file=sys.stderr)
        return 2
    print("1..%d" % len(libs))
    bad = 0
    for i, lib in enumerate(libs, 1):
        r = subprocess.run(["nm", "-a", lib], capture_output=True, text=True, check=False)
        if r.returncode != 0:
            print("not ok %d - %s: nm failed: %s" % (i, lib, r.stderr.strip()))
            bad += 1
            continue
        hits = [line.split()[-1] for line in r.stdout.splitlines()
                if "urcu_i_pt_" in line]
        if hits:
            print("not ok %d - %s carries the phase trace: %s" % (i, lib, ", ".join(hits[:5])))
            bad += 1
        else:
            print("ok %d - %s: no phase-trace symbol" % (i, lib))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
