#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Helpers for running the test suites of a cross build under qemu-user.

Used by tools/check-arch.sh (any Debian architecture) and by
`tools/dev.sh test32` (i386 under qemu-i386), so that both build the same
way and excuse the same failures:

SUITE... names suites to include, -SUITE ones to leave out, and 'default'
stands for what a plain `meson test` runs (e.g. `default -install`).

  cross-tests.py targets BUILDDIR SUITE...
      Print the ninja targets (paths relative to BUILDDIR) that the tests
      of the given suites need, so a cross build compiles those rather
      than the whole project (about 1000 steps).

  cross-tests.py tests BUILDDIR SUITE...
      Print the names of the tests of those suites to run under qemu-user:
      all but the ones LEFT_OUT names.

  cross-tests.py verdict BUILDDIR [--tag NAME] [SUITE...]
      Read BUILDDIR/meson-logs/testlog.json (the last `meson test` run),
      list the tests of SUITE... left out (with the reason), print every
      failure, separating those excused as qemu-user limitations (each with
      its reason) from real ones, then one line of counts.  Exit 0 when no
      failure is real, 1 otherwise.

A failure is excused only when its log carries qemu's own signature (a
message qemu prints, never one of ours) that explains it; everything else
counts, including a timeout that shows no such signature.  A test is left
out (LEFT_OUT, listed with the reason) only for a qemu-user defect that can
also hang the emulator, where no signature would be printed, or where its
data describes another architecture.
"""

import ast
import configparser
import json
import os
import subprocess
import sys

# (signature in the test's output, the qemu-user limitation it shows).
# Each signature is text qemu itself prints; our programs never do.
QEMU_SIGNATURES = (
    ("qemu: uncaught target signal",
     "qemu-user reports a guest killed by a signal with its own line "
     "'qemu: uncaught target signal ...' on the guest's stderr, which breaks "
     "a test comparing the exact stderr of a child that aborts on purpose"),
    ("cpu_exec: assertion failed",
     "qemu 7.x asserts in cpu_exec when a multithreaded guest calls fork()"),
    ("qemu_plugin_vcpu_init_hook: assertion failed",
     "qemu 7.x asserts in qemu_plugin_vcpu_init_hook when a multithreaded "
     "guest calls fork()"),
)


# (word in the test's name, CPU families it is left out on or None for all,
#  why it does not run in a cross build under qemu-user).
LEFT_OUT = (
    ("fork", None,
     "qemu-user limitation: forks a multithreaded process: qemu-user 7.x asserts "
     "in the child (cpu_exec / qemu_plugin_vcpu_init_hook) or deadlocks the "
     "emulator with no output (hash-fork_window-signal-call: 240 s, then the "
     "meson timeout)"),
    ("names-liburcu", ("aarch64", "arm", "ppc64", "s390x", "riscv64", "mips64", "mips"),
     "x86-only data: tests/names/names.tsv holds liburcu 0.13.2's names as its "
     "headers define them on x86-64, x86-only macros of <urcu/arch.h> included "
     "(URCU_ARCH_X86, rdtscll, CONFIG_RCU_HAVE_FENCE), which no other "
     "architecture's liburcu defines either"),
)


def host_cpu_family(builddir):
    """The cpu_family of the cross file the build was configured with (meson
    1.0 has no introspection of the machines); None for a native build."""
    cmd_line = configparser.ConfigParser()
    cmd_line.read(os.path.join(builddir, "meson-private", "cmd_line.txt"))
    files = cmd_line.get("properties", "cross_file", fallback="[]")
    for path in ast.literal_eval(files):
        cross = configparser.ConfigParser()
        cross.read(path)
        family = cross.get("host_machine", "cpu_family", fallback=None)
        if family:
            return family.strip("'\"")
    return None


def left_out_reason(name, cpu_family=None):
    for word, families, reason in LEFT_OUT:
        if word in name and (families is None or cpu_family in families):
            return reason
    return None


def introspect(builddir, what):
    out = subprocess.run(["meson", "introspect", what, builddir],
                         stdout=subprocess.PIPE, check=True, text=True).stdout
    return json.loads(out)


def suite_names(test):
    """'urcu:unit' -> 'unit' (meson prefixes the project name)."""
    return {s.split(":", 1)[-1] for s in test["suite"]}


def default_names(builddir):
    """The tests a plain `meson test` runs (the default setup's exclusions)."""
    out = subprocess.run(["meson", "test", "-C", builddir, "--no-rebuild", "--list"],
                         stdout=subprocess.PIPE, check=True, text=True).stdout
    return {line.split(" / ", 1)[1] for line in out.splitlines() if " / " in line}


def suite_tests(builddir, specs):
    """The tests SPECS select.  A word is a suite to include, -SUITE one to
    leave out, or 'default': what a plain `meson test` runs."""
    tests = introspect(builddir, "--tests")
    include = {w for w in specs if not w.startswith("-") and w != "default"}
    exclude = {w[1:] for w in specs if w.startswith("-")}
    if "default" in specs:
        names = default_names(builddir)
        tests = [t for t in tests if t["name"] in names]
    if include:
        tests = [t for t in tests if suite_names(t) & include]
    return [t for t in tests if not suite_names(t) & exclude]


def left_out(builddir, suites):
    """[(test name, reason)] of the tests SUITES select that do not run."""
    cpu = host_cpu_family(builddir)
    return [(t["name"], left_out_reason(t["name"], cpu))
            for t in suite_tests(builddir, suites) if left_out_reason(t["name"], cpu)]


def runnable(builddir, suites):
    skip = {name for name, _ in left_out(builddir, suites)}
    tests = [t for t in suite_tests(builddir, suites) if t["name"] not in skip]
    if not tests:
        print("cross-tests: no test to run in suites %s" % " ".join(suites), file=sys.stderr)
        sys.exit(1)
    return tests


def cmd_tests(builddir, suites):
    print("\n".join(t["name"] for t in runnable(builddir, suites)))
    return 0


def cmd_targets(builddir, suites):
    tests = runnable(builddir, suites)
    by_id = {t["id"]: t for t in introspect(builddir, "--targets")}
    root = os.path.realpath(builddir)
    paths = set()
    for test in tests:
        for dep in test["depends"]:
            target = by_id.get(dep)
            if target is None:
                continue        # a custom target meson does not list: ninja builds it via its users
            for f in target["filename"]:
                paths.add(os.path.relpath(os.path.realpath(f), root))
    print("\n".join(sorted(paths)))
    return 0


def excuse_reason(test):
    log = (test.get("stdout") or "") + (test.get("stderr") or "")
    for signature, reason in QEMU_SIGNATURES:
        if signature in log:
            return signature, reason
    return None


def cmd_verdict(builddir, tag, suites):
    path = os.path.join(builddir, "meson-logs", "testlog.json")
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        print("%s: no test log: %s" % (tag, e))
        return 1
    ok = skipped = 0
    excused, real = [], []
    for line in lines:
        test = json.loads(line)
        result = test["result"]
        if result in ("OK", "EXPECTEDFAIL"):
            ok += 1
        elif result == "SKIP":
            skipped += 1
        else:
            why = excuse_reason(test)
            (excused if why else real).append((test, why))
    not_run = left_out(builddir, suites)
    for name, reason in not_run:
        print("%s: LEFT OUT %s: %s" % (tag, name, reason))
    for test, (signature, reason) in excused:
        print("%s: EXCUSED (qemu-user limitation) %s: '%s': %s"
              % (tag, test["name"], signature, reason))
    for test, _ in real:
        print("%s: FAILED %s (%s)\n%s%s" % (tag, test["name"], test["result"],
                                            test.get("stdout") or "",
                                            test.get("stderr") or ""))
    print("%s: %d ok, %d skipped, %d excused (%d left out, %d failed with a qemu "
          "signature), %d failed" % (tag, ok, skipped, len(not_run) + len(excused),
                                     len(not_run), len(excused), len(real)))
    return 1 if real else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "targets":
        return cmd_targets(argv[2], argv[3:])
    if len(argv) >= 3 and argv[1] == "tests":
        return cmd_tests(argv[2], argv[3:])
    if len(argv) >= 3 and argv[1] == "verdict":
        tag, suites = "cross-tests", argv[3:]
        if len(suites) >= 2 and suites[0] == "--tag":
            tag, suites = suites[1], suites[2:]
        return cmd_verdict(argv[2], tag, suites)
    print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv))
