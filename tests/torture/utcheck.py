# SPDX-License-Identifier: MIT
"""Helpers shared by the urcutorture checks (check.py, check-cds.py,
check-batch.py): TAP ok/diag lines with a running count, running the tool,
the last non-blank line of an output, and the closing plan.

A check script sets utcheck.EXE to the urcutorture binary, calls ok() for
each assertion and returns finish() as its exit status.
"""
import subprocess
import sys

EXE = None
failures = 0
count = 0


def ok(cond, what, detail=""):
    """One TAP line; on failure, the last 25 lines of DETAIL as diagnostics."""
    global failures, count
    count += 1
    if cond:
        print("ok %d - %s" % (count, what))
    else:
        failures += 1
        print("not ok %d - %s" % (count, what))
        for line in str(detail).splitlines()[-25:]:
            print("#   " + line)
    sys.stdout.flush()
    return bool(cond)


def run(args, timeout=120):
    """Run EXE with ARGS (stdin closed); returns (exit status, stdout, stderr)."""
    p = subprocess.run([EXE] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, text=True, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def finish():
    """Print the TAP plan; returns the exit status (1 if any check failed)."""
    print("1..%d" % count)
    return 1 if failures else 0
