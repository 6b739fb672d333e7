#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# One-stop developer entry point (the README's two commands):
#   tools/dev.sh run    install what is missing, build, run urcutorture (~10 s)
#   tools/dev.sh test   install what is missing, build, run the default tests
#   tools/dev.sh test32 the same tests on a native 32-bit (-m32) build
#                       (BUILD32_DIR, default build-m32; CI runs it after test)
# Extra arguments after the verb go to urcutorture (run) or meson test (test).
# BUILD_DIR (default: build) selects the build directory.
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

# Whether this kernel runs 32-bit x86 programs (IA32 emulation).
can_run_m32() {
	local t
	t="$(mktemp -d)"
	echo 'int main(void) { return 0; }' > "$t/m32.c"
	gcc -m32 "$t/m32.c" -o "$t/m32" 2>/dev/null && "$t/m32" 2>/dev/null
	local rc=$?
	rm -rf "$t"
	return $rc
}

build_tree() {
	if [ ! -f "$build/build.ninja" ]; then
		meson setup "$build" "$here"
	fi
	ninja -C "$build"
}

case "$verb" in
run)
	install_missing
	build_tree
	exec "$build/tools/urcutorture" "$@"
	;;
test)
	install_missing
	build_tree
	exec meson test -C "$build" --print-errorlogs --no-suite torture --no-suite bench --no-suite model --no-suite seeded --no-suite consumers "$@"
	;;
test32)
	# Debian ships no 32-bit hwloc/numa -dev packages installable beside
	# the 64-bit ones: those optional features are off in this build.
	# The install suite is left to the 64-bit run: its scripts compile
	# with plain cc (64-bit) and compare against Debian's 64-bit liburcu.
	packages+=(gcc-multilib g++-multilib)
	install_missing
	build32="${BUILD32_DIR:-$here/build-m32}"
	if ! can_run_m32; then
		# A kernel without IA32 emulation (seen on some VMs) cannot run
		# -m32 programs, so Meson's native sanity check fails.  Build
		# everything as a cross build instead (catches 32-bit compile
		# errors and warnings) and say plainly that nothing ran.
		build32="${build32}-cross"
		cross="$build32.ini"
		printf '%s\n' "[binaries]" "c = ['gcc', '-m32']" "cpp = ['g++', '-m32']" \
			"ar = 'ar'" "strip = 'strip'" "pkg-config = 'false'" \
			"[properties]" "needs_exe_wrapper = true" \
			"[host_machine]" "system = 'linux'" "cpu_family = 'x86'" \
			"cpu = 'i686'" "endian = 'little'" > "$cross"
		[ -f "$build32/build.ninja" ] || meson setup "$build32" "$here" \
			--cross-file "$cross" -Dhwloc=disabled -Dnuma=disabled
		ninja -C "$build32"
		echo "test32: SKIPPED running the 32-bit tests: this kernel cannot execute" \
			"32-bit x86 programs (Exec format error); the -m32 build compiled (warnings, if any, above)"
		exit 0
	fi
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
