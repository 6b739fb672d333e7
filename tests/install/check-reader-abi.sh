#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Reader ABI (docs/DESIGN.md, "Reader ABI"): every program inlines the read
# side, so the layout of the reader and global words is ABI, guarded by the
# version node URCU_DROPIN_READER_<n>.  A library whose node was bumped (what
# a layout change requires) must not load under a program built against the
# old one.
#
# Usage: check-reader-abi.sh INLINE_PROG CALL_PROG BUMPED_LIB [FLAVOR PROG ...]
#   INLINE_PROG  reader-abi.c built without _LGPL_SOURCE (inline read side)
#   CALL_PROG    the same with -DURCU_NO_INLINE_READ_SIDE (library calls)
#   BUMPED_LIB   liburcu-memb built from the same objects with the reader
#                node's number bumped
#   FLAVOR PROG  reader-abi.c built for another flavor, without _LGPL_SOURCE:
#                it too must inline its read side, bind it to the reader
#                node, and run
# TAP output.
#
# Searches read a variable through a here-string, never `echo "$v" | grep -q`:
# bash's echo writes a pipe line by line, grep -q exits at its first match,
# and the write after that dies of SIGPIPE, which pipefail turns into a
# failed search (seen once in CI on a busy machine).
set -euo pipefail
inline="$1"; call="$2"; bumped="$3"; shift 3
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
n=0; failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { local text="$1"; shift; if "$@"; then ok "$text"; else notok "$text"; fi; }
# Runs a program; its output becomes TAP comments.
runs() {
	local out rc=0
	out="$(timeout 20 "$@" 2>&1)" || rc=$?
	[ -z "$out" ] || echo "$out" | sed 's/^/# /'
	return "$rc"
}
# Whether program $1 requires version $2 of library file $3.
requires() {
	readelf -V "$1" | awk -v file="File: $3" -v name="Name: $2 " '
		/File:/ { cur = index($0, file) > 0 }
		cur && index($0, name) { found = 1 }
		END { exit !found }'
}

# The soname the programs need, and the reader node they require from it.
soname="$(readelf -d "$inline" | sed -n 's/.*Shared library: \[\(liburcu-memb\.so\.[0-9]*\)\]/\1/p' || true)"
needs="$(readelf -V "$inline" | sed -n '/Version needs section/,$p')"
node="$(echo "$needs" | grep -o 'Name: URCU_DROPIN_READER_[0-9]*' | head -1 | sed 's/Name: //' || true)"
echo "# programs need $soname; inline reader node: ${node:-none}"
[ -n "$soname" ] || { echo "Bail out! no liburcu-memb soname in $inline"; exit 1; }
check "the inline program requires a reader node (URCU_DROPIN_READER_<n>) of $soname" \
	requires "$inline" "${node:-URCU_DROPIN_READER_<none>}" "$soname"

# Without _LGPL_SOURCE the read side is inlined: the program references the
# reader TLS word and the global word, not the exported read side (read_lock,
# read_unlock, read_ongoing, quiescent_state; memb: thread_offline/online,
# which are no-ops, too).  The global word may be a copy relocation, defined
# in the program.
inlined() {
	local fl="$1" prog="$2" dyn
	dyn="$(nm -D "$prog")"
	grep -q " urcu_${fl}_i_reader@URCU_DROPIN_READER" <<<"$dyn" \
		&& grep -q " urcu_${fl}_i_gp@@*URCU_DROPIN_READER" <<<"$dyn" \
		&& ! grep -qE " urcu_${fl}_(read_lock|read_unlock|read_ongoing|quiescent_state)@" <<<"$dyn" \
		&& { [ "$fl" = qsbr ] || ! grep -qE " urcu_${fl}_thread_(offline|online)@" <<<"$dyn"; }
}
check "without _LGPL_SOURCE the read side is inline (i_reader, i_gp referenced; no read-side call)" \
	inlined memb "$inline"
callneeds="$(readelf -V "$call" | sed -n '/Version needs section/,$p')"
nodeless() {
	! grep -q 'URCU_DROPIN_READER' <<<"$callneeds" \
		&& grep -q ' urcu_memb_read_lock@URCU_DROPIN_1' <<<"$(nm -D --undefined-only "$call")"
}
check "with URCU_NO_INLINE_READ_SIDE the program calls read_lock and needs no reader node" nodeless

# Both run against the library they were built with.
check "the inline program runs against its library" runs "$inline"
check "the call program runs against its library" runs "$call"

# The bumped library, under the soname the programs look for, first in the
# path; the rest (liburcu-common) from where the program found it.
libdir="$(LD_TRACE_LOADED_OBJECTS=1 "$inline" | sed -n 's/.*liburcu-common\.so\.[0-9]* => \(.*\)\/liburcu-common.*/\1/p')"
path="$tmp${libdir:+:$libdir}"
ln -s "$(cd "$(dirname "$bumped")" && pwd)/$(basename "$bumped")" "$tmp/$soname"
bumpednode="$(readelf -V "$bumped" | grep -o 'Name: URCU_DROPIN_READER_[0-9]*' | head -1 | sed 's/Name: //' || true)"
echo "# bumped library defines ${bumpednode:-no reader node}"
check "the bumped library defines another reader node ($bumpednode)" \
	test -n "$bumpednode" -a "$bumpednode" != "$node"

rc=0
out="$(LD_LIBRARY_PATH="$path" timeout 10 "$inline" 2>&1)" || rc=$?
echo "# inline program against the bumped library: exit $rc: $out"
refused() {
	[ "$rc" -ne 0 ] && case "$out" in
		*"$soname: version \`$node' not found"*) true ;;
		*) false ;;
	esac
}
check "the inline program refuses to load: $soname: version \`$node' not found" refused
check "the inline program did not start (no output of its own)" \
	bash -c '! grep -q "reader-abi:" <<<"$1"' _ "$out"

# The failure is the node alone: the same library serves a program that
# does not inline the read side.
rc=0
out="$(LD_LIBRARY_PATH="$path" timeout 10 "$call" 2>&1)" || rc=$?
echo "# call program against the bumped library: exit $rc: $out"
check "the call program runs against the bumped library" test "$rc" -eq 0

# The other flavors: the same program, inline read side bound to the node.
while [ $# -ge 2 ]; do
	fl="$1"; prog="$2"; shift 2
	flso="${soname/liburcu-memb/liburcu-$fl}"
	check "$fl: the program requires $node of $flso" requires "$prog" "$node" "$flso"
	check "$fl: without _LGPL_SOURCE the read side is inline" inlined "$fl" "$prog"
	check "$fl: the program runs" runs "$prog"
done

echo "1..$n"
[ "$failed" -eq 0 ]
