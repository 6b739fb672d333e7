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
data describes another architecture; PROBED_LEFT_OUT rules apply only where a
small probe program (tools/qemu-probes/) shows the qemu defect in this build.
"""

import ast
import configparser
import json
import os
import subprocess
import sys

# (signature in the test's output, the qemu-user limitation it shows).
# Each signature is text qemu itself prints; our programs never do.
# (Not qemu's 'uncaught target signal' line: it follows any abort, ours
# included, so it explains nothing; the misuse tests drop it themselves.)
QEMU_SIGNATURES = (
    ("cpu_exec: assertion failed",
     "qemu 7.x asserts in cpu_exec when a multithreaded guest calls fork()"),
    ("qemu_plugin_vcpu_init_hook: assertion failed",
     "qemu 7.x asserts in qemu_plugin_vcpu_init_hook when a multithreaded "
     "guest calls fork()"),
    ("i386_tr_init_disas_context: assertion failed",
     "qemu 7.2's i386 translator (target/i386/tcg/translate.c) asserts that "
     "the IOPL it cached for a block matches the CPU state, which a user-mode "
     "guest cannot change; seen under qemu-i386 in 3 multithreaded urcutorture "
     "runs of one test32 pass (json, queue mb/per-cpu, queue bp/rt), which pass "
     "natively and under the other emulators"),
)


# (word in the test's name, CPU families it is left out on or None for all,
#  why it does not run in a cross build under qemu-user).
LEFT_OUT = (
    ("fork", None,
     "qemu-user limitation: forks a multithreaded process: qemu-user 7.x asserts "
     "in the child (cpu_exec / qemu_plugin_vcpu_init_hook) or deadlocks the "
     "emulator with no output (hash-fork_window-signal-call: 240 s, then the "
     "meson timeout)"),
    ("names-liburcu", ("x86", "aarch64", "arm", "ppc64", "s390x", "riscv64", "mips64", "mips"),
     "x86-64-only data: tests/names/names.tsv holds liburcu 0.13.2's names as its "
     "headers define them on x86-64, x86-64-only macros of <urcu/arch.h> included "
     "(URCU_ARCH_AMD64, CONFIG_RCU_HAVE_FENCE; on other architectures also "
     "URCU_ARCH_X86, rdtscll), which liburcu defines nowhere else either"),
    ("meson-subproject", None,
     "needs a native compiler: it configures a consumer project with the "
     "build's compiler, whose programs meson's sanity check must run "
     "directly, and a cross compiler's cannot run here without the wrapper"),
)


# (words in the test's name, CPU families, probe in tools/qemu-probes/, why):
# left out only where the probe, built for the cross build and run under its
# exe_wrapper, shows the defect (exit 1), so a fixed qemu runs them again.
PROBED_LEFT_OUT = (
    (("signal", "multiflavor-umbrella", "urcutorture-scenario", "hash-progress",
      "progress-frozen"), ("x86",), "signal-tls.c",
     "qemu-user limitation, shown by tools/qemu-probes/signal-tls.c: after a "
     "signal handler returns, qemu-i386 reloads the thread's %gs from one "
     "descriptor table shared by all guest threads, so the thread reads the "
     "thread-local storage of the last thread created; the signal flavor's "
     "grace periods signal every reader (its tests abort with 'called "
     "without a matching rcu_read_lock' or hang); multiflavor-umbrella "
     "and urcutorture-scenario's smoke scenario run the signal flavor too, "
     "and hash-progress and progress-frozen stop a thread mid-operation "
     "with a signal"),
)


def cross_file(builddir):
    """The cross file the build was configured with (a ConfigParser), or
    None for a native build (meson 1.0 has no introspection of it)."""
    cmd_line = configparser.ConfigParser()
    cmd_line.read(os.path.join(builddir, "meson-private", "cmd_line.txt"))
    files = cmd_line.get("properties", "cross_file", fallback="[]")
    for path in ast.literal_eval(files):
        cross = configparser.ConfigParser()
        cross.read(path)
        return cross
    return None


def probe_shows_defect(builddir, probe):
    """Build tools/qemu-probes/PROBE with the cross C compiler and run it
    under the exe_wrapper; True when it exits 1 (the defect is there).  The
    verdict is kept in BUILDDIR so that `tests` and `verdict` agree."""
    result = os.path.join(builddir, "qemu-probe-%s.result" % os.path.splitext(probe)[0])
    if not os.path.exists(result):
        cross = cross_file(builddir)
        if cross is None:
            return False
        cc = ast.literal_eval(cross.get("binaries", "c"))
        wrapper = ast.literal_eval(cross.get("binaries", "exe_wrapper"))
        cc = [cc] if isinstance(cc, str) else list(cc)
        wrapper = [wrapper] if isinstance(wrapper, str) else list(wrapper)
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "qemu-probes", probe)
        exe = result[:-len(".result")]
        subprocess.run(cc + ["-O2", "-pthread", src, "-o", exe], check=True)
        try:
            run = subprocess.run(wrapper + [exe], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True, timeout=120)
            code, out = run.returncode, run.stdout.strip()
        except subprocess.TimeoutExpired:
            code, out = 1, "timed out after 120 s"
        with open(result, "w") as f:
            f.write("%d %s\n" % (code, out))
        print("cross-tests: probe %s: %s (exit %d)" % (probe, out, code), file=sys.stderr)
    return open(result).read().split(" ", 1)[0] == "1"


def host_cpu_family(builddir):
    """The cpu_family of the cross file; None for a native build."""
    cross = cross_file(builddir)
    if cross is None:
        return None
    family = cross.get("host_machine", "cpu_family", fallback=None)
    return family.strip("'\"") if family else None


def left_out_reason(name, cpu_family=None, builddir=None):
    for word, families, reason in LEFT_OUT:
        if word in name and (families is None or cpu_family in families):
            return reason
    for words, families, probe, reason in PROBED_LEFT_OUT:
        if (any(w in name for w in words) and cpu_family in families
                and builddir and probe_shows_defect(builddir, probe)):
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
    return [(t["name"], reason) for t in suite_tests(builddir, suites)
            for reason in [left_out_reason(t["name"], cpu, builddir)] if reason]


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
