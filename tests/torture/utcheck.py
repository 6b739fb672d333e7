# SPDX-License-Identifier: MIT
"""Helpers shared by the urcutorture checks (check.py, check-cds.py,
check-batch.py, check-litmus.py): TAP ok/diag lines with a running count,
running the tool, the last non-blank line of an output, the closing plan
(or a skip), and the command line's dispatch to one check.

Cross builds: meson puts the cross file's exe wrapper (qemu-user) in
MESON_EXE_WRAPPER for a test whose arguments include a cross-built
program; command() starts urcutorture behind it, so these checks run
under emulation too (tools/check-arch.sh, `tools/dev.sh test32`).

A check script either sets utcheck.EXE to the urcutorture binary, calls
ok() for each assertion and returns finish() as its exit status, or hands
main() a table of its checks, which does all three from the command line.
"""
import os
import shlex
import subprocess
import sys

EXE = None
ARGS = []  # the command line's words after the check's name (main())
failures = 0
count = 0


def ok(cond, what, detail=""):
    """One TAP line; on failure, the last 25 lines of DETAIL as diagnostics,
    written to stderr as well: meson parses a TAP test's stdout and shows
    only its stderr on the console."""
    global failures, count
    count += 1
    if cond:
        print("ok %d - %s" % (count, what))
    else:
        failures += 1
        lines = ["not ok %d - %s" % (count, what)]
        lines += ["#   " + line for line in str(detail).splitlines()[-25:]]
        print("\n".join(lines))
        print("\n".join(lines), file=sys.stderr)
        sys.stderr.flush()
    sys.stdout.flush()
    return bool(cond)


def command(exe=None):
    """The words that start urcutorture (EXE, or exe): behind the exe
    wrapper of a cross build (MESON_EXE_WRAPPER, e.g. qemu-aarch64 -L ...)
    when meson sets one, else the program alone."""
    return shlex.split(os.environ.get("MESON_EXE_WRAPPER", "")) + [exe or EXE]


def run(args, timeout=120):
    """Run EXE with ARGS (stdin closed); returns (exit status, stdout, stderr)."""
    p = subprocess.run(command() + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, text=True, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def skip_all(reason):
    """Nothing to check here: a TAP plan that skips everything, exit 77."""
    print("1..0 # SKIP " + reason)
    sys.stdout.flush()
    sys.exit(77)


def finish():
    """Print the TAP plan; returns the exit status (1 if any check failed)."""
    print("1..%d" % count)
    return 1 if failures else 0


def main(usage, checks):
    """The command line URCUTORTURE CHECK [ARG...]: sets EXE and ARGS, runs
    checks[CHECK]() and returns finish().  Too few words print USAGE, an
    unknown CHECK one line naming it; both return 64 (a usage error)."""
    global EXE, ARGS
    if len(sys.argv) < 3:
        print(usage, file=sys.stderr)
        return 64
    EXE, name, ARGS = sys.argv[1], sys.argv[2], sys.argv[3:]
    if name not in checks:
        print("%s: unknown check %s" % (os.path.basename(sys.argv[0]), name), file=sys.stderr)
        return 64
    checks[name]()
    return finish()
