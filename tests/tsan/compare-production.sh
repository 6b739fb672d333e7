#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Production builds are untouched by the ThreadSanitizer hunks: build the
# libraries (and a few inline-reader programs) without a sanitizer twice,
# from this tree and from a copy whose URCU_I_TSAN hunks are removed
# (strip-tsan-hunks.py), and compare the binaries, stripped of symbols,
# debug information and build ID (which hashes the debug information, and
# so the build directory's absolute path).
#
# Usage: tests/tsan/compare-production.sh WORKDIR [TARGET...]
# WORKDIR (created, must not exist) receives main/ (the copy), build/ (its
# build) and build-hooked/ (this tree's build).  The default
# targets are the eight shared libraries and three inline-reader tests.
# Exit 0 when every target is identical.  Takes a few minutes.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: compare-production.sh WORKDIR [TARGET...]" >&2; exit 64; }
work=$1
shift
[ ! -e "$work" ] || { echo "$work exists" >&2; exit 64; }
if [ $# -eq 0 ]; then
	set -- liburcu/liburcu-common.so.100.0.0 liburcu/liburcu-memb.so.100.0.0 \
		liburcu/liburcu.so.100.0.0 liburcu/liburcu-mb.so.100.0.0 \
		liburcu/liburcu-qsbr.so.100.0.0 liburcu/liburcu-bp.so.100.0.0 \
		liburcu/liburcu-signal.so.100.0.0 liburcu/liburcu-cds.so.100.0.0 \
		tests/unit/unit-gp_waits_reader-memb-inline \
		tests/unit/unit-gp_waits_reader-bp-inline \
		tests/unit/unit-gp_waits_reader-signal-inline
fi

mkdir -p "$work/main"
(cd "$src" && tar cf - --exclude='./build*' --exclude=./.git .) | (cd "$work/main" && tar xf -)
files=$(cd "$work/main" && grep -rl -e URCU_I_TSAN -e __SANITIZE_THREAD__ \
	--include='*.h' --include='*.c' liburcu arch)
(cd "$work/main" && python3 "$here/strip-tsan-hunks.py" $files)
echo "stripped: $files"

# The two source trees sit at different places: map each one's path, as the
# compiler sees it, to the same name, so that __FILE__ strings match.
setup() {	# BUILD_DIR SOURCE_DIR
	mkdir -p "$1"
	rel=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[2], sys.argv[1]))' "$1" "$2")
	meson setup "$1" "$2" -Dtorture=false -Dman=false \
		-Dc_args="-ffile-prefix-map=$rel=SRC" >/dev/null
}
setup "$work/build" "$work/main"
setup "$work/build-hooked" "$src"
ninja -C "$work/build" "$@" >/dev/null
ninja -C "$work/build-hooked" "$@" >/dev/null

status=0
for t in "$@"; do
	objcopy --strip-all --remove-section=.note.gnu.build-id "$work/build/$t" "$work/a.bin"
	objcopy --strip-all --remove-section=.note.gnu.build-id "$work/build-hooked/$t" "$work/b.bin"
	if cmp -s "$work/a.bin" "$work/b.bin"; then
		echo "identical: $t"
	else
		echo "DIFFERENT: $t"
		status=1
	fi
done
exit $status
