#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# One-stop developer entry point (the README's two commands):
#   tools/dev.sh run    install what is missing, build, run urcutorture (~10 s)
#   tools/dev.sh test   install what is missing, build, run the default tests
#   tools/dev.sh test32 the same tests on a 32-bit x86 (-m32) build
#                       (BUILD32_DIR, default build-m32; CI runs it after test),
#                       natively, or under qemu-i386 (in build-m32-qemu) where
#                       the kernel cannot execute 32-bit x86 programs
# Extra arguments after the verb go to urcutorture (run) or meson test (test).
# BUILD_DIR (default: build) selects the build directory.  URCU_JOBS=N runs
# N compile jobs at once (ninja -j N; default: ninja's own, CPUs + 2).
# run builds only the libraries and urcutorture (with its seeded-flavor
# modules); test builds everything (the tests' programs) before testing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$here/build}"
verb="${1:-}"
[ $# -gt 0 ] && shift

usage() {
	echo "usage: tools/dev.sh run|test|test32 [args...]" >&2
	exit 64
}

# Debian packages the build, the tests and urcutorture need.
packages=(gcc g++ meson ninja-build pkg-config python3 libhwloc-dev libnuma-dev
	  hwloc-nox man-db groff-base strace spin python3-matplotlib systemtap-sdt-dev gdb)

install_missing() {
	local missing=()
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
			|| missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "missing packages; run as root:" >&2
		echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
	echo "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Whether this kernel runs 32-bit x86 programs (IA32 emulation): a 93-byte
# static i386 ELF written here (no 32-bit compiler needed) that exits 42.
can_run_m32() {
	local t rc=0
	t="$(mktemp -d)"
	python3 - "$t/probe" <<'PY'
import struct, sys
base, code = 0x08048000, b"\xb8\x01\x00\x00\x00\xbb\x2a\x00\x00\x00\xcd\x80"  # exit(42)
size = 52 + 32 + len(code)
elf = (b"\x7fELF\x01\x01\x01" + bytes(9)
       + struct.pack("<HHIIIIIHHHHHH", 2, 3, 1, base + 84, 52, 0, 0, 52, 32, 1, 0, 0, 0)
       + struct.pack("<8I", 1, 0, base, base, size, size, 5, 0x1000) + code)
open(sys.argv[1], "wb").write(elf)
PY
	chmod +x "$t/probe"
	"$t/probe" 2>/dev/null || rc=$?
	rm -rf "$t"
	[ "$rc" -eq 42 ]
}

# ninja's -j from URCU_JOBS (nothing when unset: ninja's default).
jobs=()
if [ -n "${URCU_JOBS:-}" ]; then
	case "$URCU_JOBS" in
	*[!0-9]* | 0) echo "URCU_JOBS: a number of jobs (got '$URCU_JOBS')" >&2; exit 64 ;;
	esac
	jobs=(-j "$URCU_JOBS")
fi

setup_tree() {
	if [ ! -f "$build/build.ninja" ]; then
		meson setup "$build" "$here"
	fi
}

build_tree() {
	setup_tree
	ninja -C "$build" "${jobs[@]}"
}

# The ninja targets of dev.sh run: every library (liburcu/meson.build),
# urcutorture and its seeded-flavor modules, as paths in the build directory.
run_targets() {
	meson introspect "$build" --targets | python3 -c '
import json, os, sys
build, src = sys.argv[1], sys.argv[2]
for t in json.load(sys.stdin):
    where = os.path.relpath(t["defined_in"], src)
    if where == os.path.join("liburcu", "meson.build") or \
            t["name"] == "urcutorture" or t["name"].startswith("ut-busted-"):
        for f in t["filename"]:
            print(os.path.relpath(f, build))
' "$build" "$here"
}

build_for_run() {
	local targets

	setup_tree
	mapfile -t targets < <(run_targets)
	if [ ${#targets[@]} -eq 0 ] || ! grep -qx 'tools/urcutorture' <<<"$(printf '%s\n' "${targets[@]}")"; then
		echo "dev.sh run: no urcutorture in $build (configured with -Dtorture=false?)" >&2
		exit 1
	fi
	ninja -C "$build" "${jobs[@]}" "${targets[@]}"
}

case "$verb" in
run)
	install_missing
	build_for_run
	exec "$build/tools/urcutorture" "$@"
	;;
test)
	install_missing
	build_tree
	exec meson test -C "$build" --no-rebuild --print-errorlogs --no-suite torture --no-suite bench --no-suite model --no-suite seeded --no-suite consumers "$@"
	;;
test32)
	# Debian ships no 32-bit hwloc/numa -dev packages installable beside
	# the 64-bit ones: those optional features are off in this build.
	# The install suite is left to the 64-bit run: its scripts compile
	# with plain cc (64-bit) and compare against Debian's 64-bit liburcu.
	build32="${BUILD32_DIR:-$here/build-m32}"
	if ! can_run_m32; then
		# A kernel without IA32 emulation (seen on some VMs) cannot run
		# 32-bit x86 programs: cross-build with Debian's i686 cross
		# compiler (arch/cross/i686-linux-gnu.ini; not gcc-multilib,
		# which conflicts with every Debian cross compiler, so apt
		# would remove those tools/check-arch.sh needs) and run the
		# same tests under qemu-i386.  The torture drivers start
		# urcutorture through the wrapper too (MESON_EXE_WRAPPER, which
		# meson sets).  qemu-user limitations (its own signature in the
		# log; the fork tests, left out) are listed and excused by
		# tools/cross-tests.py, shared with tools/check-arch.sh.
		packages+=(gcc-i686-linux-gnu g++-i686-linux-gnu qemu-user)
		install_missing
		build32="${build32}-qemu"
		[ -f "$build32/build.ninja" ] || meson setup "$build32" "$here" \
			--cross-file "$here/arch/cross/i686-linux-gnu.ini" \
			-Dhwloc=disabled -Dnuma=disabled
		ninja -C "$build32" "${jobs[@]}"
		# Left to the native run: the model (spin on the host, no
		# 32-bit code) and the consumers suite (Debian sources built
		# with the host's compiler).
		specs=(default -install -model-quick -consumers)
		mapfile -t names < <("$here/tools/cross-tests.py" tests "$build32" "${specs[@]}")
		[ ${#names[@]} -gt 0 ] || { echo "test32: no tests listed" >&2; exit 1; }
		echo "test32: running ${#names[@]} tests under qemu-i386 (this kernel cannot" \
			"execute 32-bit x86 programs: no IA32 emulation)"
		meson test -C "$build32" --no-rebuild --print-errorlogs \
			--timeout-multiplier "${TIMEOUT_MULTIPLIER:-3}" "$@" "${names[@]}" || true
		if "$here/tools/cross-tests.py" verdict "$build32" --tag "test32 (qemu-i386)" \
				"${specs[@]}"; then
			echo "test32: passed under qemu-i386, apart from the qemu-user limitations listed"
			exit 0
		fi
		echo "test32: FAILED under qemu-i386"
		exit 1
	fi
	# gcc-multilib: apt removes the cross compilers to install it (and
	# tools/check-arch.sh removes it to install them).
	packages+=(gcc-multilib g++-multilib)
	install_missing
	echo "test32: running natively (the kernel executes 32-bit x86 programs)"
	if [ ! -f "$build32/build.ninja" ]; then
		meson setup "$build32" "$here" -Dc_args=-m32 -Dc_link_args=-m32 \
			-Dcpp_args=-m32 -Dcpp_link_args=-m32 -Dhwloc=disabled -Dnuma=disabled
	fi
	BUILD_DIR="$build32" exec "$here/tools/dev.sh" test --no-suite install "$@"
	;;
*)
	usage
	;;
esac
