#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Cross-build urcu for aarch64 and run its tests under qemu-user.
#
#   tools/check-aarch64.sh [--arch-only] [builddir]
#
# First the architecture-layer tests (suite 'arch'), then, unless
# --arch-only is given, the whole project and its quick suites (arch, lists,
# unit, callrcu).  The torture suites are left out: their driver runs
# urcutorture directly rather than through the exe wrapper, and the long ones
# take minutes even natively.  Extra `meson test` arguments can be given in
# MESON_TEST_ARGS (e.g. MESON_TEST_ARGS="--suite callrcu").
# Exit status: 0 all passed, 1 a build or test failed, 77 the cross
# toolchain or qemu is missing (the apt-get line to install them is printed).
#
# Two qemu-user limitations make some project tests fail for reasons that
# are not ours; a failure is excused (and listed) only when its log carries
# qemu's own signature:
#  - a guest killed by a signal makes qemu print "qemu: uncaught target
#    signal ..." on the guest's stderr, which breaks tests that check the
#    exact stderr of a child that aborts on purpose (the misuse tests);
#  - qemu 7.x asserts in cpu_exec / qemu_plugin_vcpu_init_hook when a
#    multithreaded guest calls fork() (the fork tests).

set -u

arch_only=0
if [ "${1:-}" = "--arch-only" ]; then
	arch_only=1
	shift
fi

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${TMPDIR:-/tmp}/urcu-aarch64-$(id -un)}
cross="$src/arch/cross/aarch64-linux-gnu.ini"

missing=""
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing="$missing aarch64-linux-gnu-gcc"
command -v qemu-aarch64 >/dev/null 2>&1 || missing="$missing qemu-aarch64"
if [ -n "$missing" ]; then
	echo "check-aarch64: missing:$missing"
	echo "check-aarch64: install them with: apt-get install gcc-aarch64-linux-gnu qemu-user"
	exit 77
fi

# Keep the load light: the machine is shared.
jobs=${JOBS:-2}

step() {
	echo "check-aarch64: $*"
}

if [ ! -f "$build/build.ninja" ]; then
	step "configuring $build"
	if ! meson setup --cross-file "$cross" "$build" "$src" >"$build.setup.log" 2>&1; then
		cat "$build.setup.log"
		step "FAIL: meson setup (log above)"
		exit 1
	fi
fi

# 1. The architecture layer.
arch_targets=$(cd "$build" && ninja -t targets all 2>/dev/null |
	sed -n 's/^\(tests\/arch\/test-arch-[^:]*\): .*/\1/p' | grep -v '\.p/' | sort -u)
if [ -z "$arch_targets" ]; then
	step "FAIL: no arch test targets in $build"
	exit 1
fi
step "building the arch tests"
# shellcheck disable=SC2086
if ! ninja -C "$build" -j "$jobs" $arch_targets; then
	step "FAIL: arch tests do not build"
	exit 1
fi
step "running the arch tests under qemu-aarch64"
if ! meson test -C "$build" --no-rebuild --suite arch --num-processes "$jobs" \
		--timeout-multiplier 4 --print-errorlogs; then
	step "FAIL: arch tests"
	exit 1
fi
step "arch tests passed on aarch64"

[ "$arch_only" = 1 ] && exit 0

# 2. The whole project.
step "building the whole project"
if ! ninja -C "$build" -j "$jobs"; then
	step "FAIL: the project does not build for aarch64 (the arch layer itself passed)"
	exit 1
fi
suites=${MESON_TEST_ARGS:-"--suite arch --suite lists --suite unit --suite callrcu"}
step "running the project tests under qemu-aarch64 ($suites)"
# shellcheck disable=SC2086
if ! meson test -C "$build" --no-rebuild --num-processes "$jobs" \
		--timeout-multiplier 4 $suites; then
	# Excuse only failures that show a qemu signature; print the rest.
	if ! python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, sys

QEMU_SIGNATURES = (
    "qemu: uncaught target signal",
    "cpu_exec: assertion failed",
    "qemu_plugin_vcpu_init_hook: assertion failed",
)
real, excused = [], []
for line in open(sys.argv[1]):
    t = json.loads(line)
    if t["result"] in ("OK", "SKIP", "EXPECTEDFAIL"):
        continue
    log = (t.get("stdout") or "") + (t.get("stderr") or "")
    (excused if any(s in log for s in QEMU_SIGNATURES) else real).append(t)
for t in excused:
    print("check-aarch64: qemu-user limitation, not counted: %s" % t["name"])
for t in real:
    print("check-aarch64: FAILED: %s\n%s%s" % (t["name"], t.get("stdout") or "",
                                             t.get("stderr") or ""))
sys.exit(1 if real else 0)
PY
	then
		step "FAIL: project tests on aarch64"
		exit 1
	fi
	step "project tests passed on aarch64, apart from the qemu-user limitations above"
	exit 0
fi
step "all tests passed on aarch64"
exit 0
