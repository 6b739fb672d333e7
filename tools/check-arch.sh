#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Cross-build urcu for another Debian architecture and run its quick test
# suites under qemu-user.
#
#   tools/check-arch.sh [--arch-only] [--torture] ARCH [BUILDDIR]
#
# ARCH is a Debian architecture name: arm64, armhf, armel, i386, ppc64el,
# s390x (big-endian), riscv64, mips64el.  The build uses Debian's cross
# compilers (gcc-<triplet>, g++-<triplet>) and the cross file arch/cross/<triplet>.ini, whose exe_wrapper runs each test under
# qemu-<cpu> with the cross sysroot /usr/<triplet>.  BUILDDIR defaults to
# $TMPDIR/urcu-<ARCH>-<user>.
#
# First the architecture-layer tests (suite 'arch'; --arch-only stops
# there), then the quick suites (arch, lists, unit, callrcu, cds, hash,
# faults, names, placement, breakdown: a few seconds each natively), built
# alone: only the targets those tests need (tools/cross-tests.py targets),
# not the whole project.  --torture adds urcutorture under qemu-user:
# --mode=litmus, then a short stress run of every flavor.  The torture-short
# suite is left out: its driver runs urcutorture itself, not through the exe
# wrapper, and its deadlines assume native speed.  MESON_TEST_ARGS adds
# `meson test` arguments (e.g. MESON_TEST_ARGS="--repeat 2");
# TIMEOUT_MULTIPLIER (default 4) scales the tests' timeouts.
#
# Exit status: 0 all passed, 1 a build or test failed, 77 the cross
# toolchain or qemu is missing (as root, the script installs them instead;
# otherwise it prints the apt-get line), or qemu-user cannot run a threaded
# test at all.
#
# qemu-user limitations excused, each listed by name with its reason
# (tools/cross-tests.py, shared with `tools/dev.sh test32`):
#  - a failure whose log carries qemu's own signature (a line qemu prints,
#    never one of ours), e.g. the cpu_exec assertion of a multithreaded
#    guest's fork();
#  - the fork tests are left out: qemu 7.x asserts in the child of a
#    multithreaded guest's fork(), or hangs the whole emulator with no
#    signature at all.

set -u

arch_only=0
torture=0
while [ $# -gt 0 ]; do
	case "$1" in
	--arch-only) arch_only=1; shift ;;
	--torture) torture=1; shift ;;
	--) shift; break ;;
	-*) echo "check-arch: unknown option $1" >&2; exit 64 ;;
	*) break ;;
	esac
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: tools/check-arch.sh [--arch-only] [--torture] ARCH [BUILDDIR]" >&2
	echo "  ARCH: arm64 armhf armel i386 ppc64el s390x riscv64 mips64el" >&2
	exit 64
fi
arch=$1

# Debian architecture -> GNU triplet, qemu-user binary.
case "$arch" in
arm64)    triplet=aarch64-linux-gnu; qemu="qemu-aarch64" ;;
armhf)    triplet=arm-linux-gnueabihf; qemu="qemu-arm" ;;
armel)    triplet=arm-linux-gnueabi; qemu="qemu-arm" ;;
i386)     triplet=i686-linux-gnu; qemu="qemu-i386" ;;
ppc64el)  triplet=powerpc64le-linux-gnu; qemu="qemu-ppc64le" ;;
s390x)    triplet=s390x-linux-gnu; qemu="qemu-s390x" ;;
riscv64)  triplet=riscv64-linux-gnu; qemu="qemu-riscv64" ;;
mips64el) triplet=mips64el-linux-gnuabi64; qemu="qemu-mips64el" ;;
*)
	echo "check-arch: unknown architecture '$arch'" \
		"(arm64 armhf armel i386 ppc64el s390x riscv64 mips64el)" >&2
	exit 64
	;;
esac

src=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-${TMPDIR:-/tmp}/urcu-$arch-$(id -un)}
cross="$src/arch/cross/$triplet.ini"
helper="$src/tools/cross-tests.py"
jobs=${URCU_JOBS:-${JOBS:-2}}	# keep the load light: the machine may be shared
multiplier=${TIMEOUT_MULTIPLIER:-4}
start=$(date +%s)

step() {
	echo "check-arch[$arch]: $*"
}

elapsed() {
	echo "$(( $(date +%s) - start )) s"
}

# What the build and the tests need, as Debian packages and as commands.
# (i386 too: Debian's i686 cross compiler, not gcc -m32, whose gcc-multilib
# conflicts with every Debian cross compiler.)
packages="gcc-$triplet g++-$triplet qemu-user"
compilers="$triplet-gcc $triplet-g++"
wrapper="$qemu -L /usr/$triplet"
# As in arch/cross/i686-linux-gnu.ini: keep the cross ld.so away from the
# host's own i386 libc (libc6-i386, named by the host's ld.so.cache).
[ "$arch" = i386 ] && wrapper="$wrapper -E LD_LIBRARY_PATH=/usr/$triplet/lib"
packages="$packages meson ninja-build python3"
have_all() {
	for c in $compilers "$qemu" meson ninja python3; do
		command -v "$c" >/dev/null 2>&1 || return 1
	done
	return 0
}
if ! have_all; then
	if [ "$(id -u)" -ne 0 ]; then
		step "missing a cross compiler or qemu-user for $arch"
		step "install them with: apt-get install $packages"
		exit 77
	fi
	step "installing: $packages"
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	if ! { apt-get update -qq && apt-get install -y -qq $packages >/dev/null; } || ! have_all; then
		step "FAIL: could not install $packages"
		exit 77
	fi
fi

if [ ! -f "$build/build.ninja" ]; then
	step "configuring $build"
	mkdir -p "$(dirname "$build")"
	setup_log=$(mktemp)
	if ! meson setup --cross-file "$cross" -Dhwloc=disabled -Dnuma=disabled \
			"$build" "$src" >"$setup_log" 2>&1; then
		cat "$setup_log"
		rm -f "$setup_log"
		step "FAIL: meson setup (log above)"
		exit 1
	fi
	rm -f "$setup_log"
fi
# This script's logs, beside meson's own.
logs="$build/meson-logs"

# Build what SUITE... needs; $targets is set for the caller.
build_for() {
	if ! targets=$("$helper" targets "$build" "$@"); then
		step "FAIL: no tests found for suites $*"
		exit 1
	fi
	step "building the targets of suites $* ($(echo "$targets" | wc -l) files)"
	# shellcheck disable=SC2086
	if ! nice -n 5 ninja -C "$build" -j "$jobs" $targets >"$logs/check-arch-ninja.log" 2>&1; then
		tail -50 "$logs/check-arch-ninja.log"
		step "FAIL: the build for $arch failed (log above; whole log: $logs/check-arch-ninja.log)"
		exit 1
	fi
	grep -i 'warning:' "$logs/check-arch-ninja.log" | sort -u | head -20
}

# 1. The architecture layer.
build_for arch
# A qemu-user that cannot start a thread (seen: qemu-i386 running the cross
# ld.so against the host's libc6-i386, before the LD_LIBRARY_PATH above)
# would time out every threaded test: one threaded test, 60 s at most,
# decides first.
probe="$build/tests/arch/test-arch-uatomic-threads"
# shellcheck disable=SC2086
if ! timeout 60 $wrapper "$probe" >/dev/null 2>&1; then
	step "SKIP: $qemu does not run a threaded test ($probe; $($qemu --version | head -1))"
	exit 77
fi
step "running the arch tests under $qemu"
if ! meson test -C "$build" --no-rebuild --suite arch --num-processes "$jobs" \
		--timeout-multiplier "$multiplier" --print-errorlogs >"$logs/check-arch-arch.log" 2>&1; then
	cat "$logs/check-arch-arch.log"
	step "FAIL: arch tests ($(elapsed))"
	exit 1
fi
step "arch tests passed on $arch ($(elapsed))"
[ "$arch_only" = 1 ] && exit 0

# 2. The quick suites.
suites="arch lists unit callrcu cds hash faults names placement breakdown"
# shellcheck disable=SC2086
build_for $suites
step "built ($(elapsed))"
# shellcheck disable=SC2086
names=$("$helper" tests "$build" $suites) || exit 1
step "running $(echo "$names" | wc -l) tests of suites $suites under $qemu"
# shellcheck disable=SC2086
meson test -C "$build" --no-rebuild --num-processes "$jobs" \
	--timeout-multiplier "$multiplier" ${MESON_TEST_ARGS:-} $names >"$logs/check-arch-test.log" 2>&1
grep -E '^ *[0-9]+/[0-9]+ ' "$logs/check-arch-test.log" | grep -vE ' (OK|EXPECTEDFAIL|SKIP) '
# shellcheck disable=SC2086
"$helper" verdict "$build" --tag "check-arch[$arch]" $suites
rc=$?
step "tests done ($(elapsed))"

# 3. urcutorture under qemu-user.
if [ "$torture" = 1 ]; then
	step "building urcutorture"
	if ! nice -n 5 ninja -C "$build" -j "$jobs" tools/urcutorture >"$logs/check-arch-ninja.log" 2>&1; then
		tail -30 "$logs/check-arch-ninja.log"
		step "FAIL: urcutorture does not build"
		exit 1
	fi
	: >"$logs/check-arch-torture.log"
	torture_run() {
		step "urcutorture $* (under $qemu)"
		# shellcheck disable=SC2086
		timeout 300 $wrapper "$build/tools/urcutorture" "$@" >"$logs/check-arch-torture.run" 2>&1
		t_rc=$?
		cat "$logs/check-arch-torture.run" >>"$logs/check-arch-torture.log"
		grep -E '^--- |litmus rounds|^  errors|^End of test' "$logs/check-arch-torture.run"
		if [ $t_rc -ne 0 ]; then
			tail -20 "$logs/check-arch-torture.run"
			step "FAIL: urcutorture $* exited $t_rc"
			rc=1
		fi
	}
	# The store-buffering race of read_lock against synchronize_rcu, every
	# flavor; then the stress mode's exact checks, flavor by flavor.
	torture_run --mode=litmus --flavor=all --duration="${TORTURE_LITMUS:-4s}"
	for flavor in memb mb qsbr bp signal; do
		torture_run --flavor="$flavor" --duration="${TORTURE_DURATION:-5s}"
	done
	step "urcutorture done ($(elapsed))"
fi

if [ $rc -ne 0 ]; then
	step "FAIL on $arch ($(elapsed))"
	exit 1
fi
step "all passed on $arch, apart from the qemu-user limitations listed ($(elapsed))"
exit 0
