#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Binary identity: we are source-compatible with liburcu, never binary-
# compatible, so the two must never mix at load time.
#  1. A program built against Debian's liburcu, run with our library
#     directory first in LD_LIBRARY_PATH, still loads Debian's liburcu.so.8
#     (our SONAMEs differ) and runs.
#  2. A program built against ours, run where only liburcu's libraries are,
#     refuses to start with a loader error naming our library.
#  3. Our program's urcu symbols are bound to our own version node.
# Needs a private copy of Debian's liburcu (tools/liburcu-ref.sh); skipped
# (exit 77) when none can be had.
set -euo pipefail
build="$1"; src="$2"
here="$(cd "$(dirname "$0")" && pwd)"
ref="$("$here/../../tools/liburcu-ref.sh" "$build/liburcu-ref")" || exit 77
multiarch="$(cc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)"
refinc="$ref/usr/include/$multiarch"; [ -f "$refinc/urcu.h" ] || refinc="$ref/usr/include"
reflib="$ref/usr/lib/$multiarch"; [ -d "$reflib" ] || reflib="$ref/usr/lib"
ours="$build/liburcu"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "not ok - $*"; echo "Bail out!"; exit 1; }

refso="$(basename "$(ls "$reflib"/liburcu.so.[0-9]* | head -1)")"
oursoname="$(readelf -d "$ours/liburcu.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')"
echo "# liburcu's library: $refso; ours: soname $oursoname"
[ -n "$oursoname" ] || fail "cannot read our SONAME"
case "$oursoname" in liburcu.so.[0-8]|liburcu.so.[0-8].*) fail "our SONAME $oursoname is one liburcu uses";; esac

# 1. Built against Debian's liburcu, our directory first: Debian's is loaded.
cc -o "$tmp/prog-ref" "$src/binary-identity.c" -I"$refinc" -L"$reflib" -Wl,-rpath-link,"$reflib" -lurcu -lpthread
out="$(LD_LIBRARY_PATH="$ours:$reflib" "$tmp/prog-ref" 2>&1)" || fail "liburcu-built program failed next to our install: $out"
loaded="$(LD_LIBRARY_PATH="$ours:$reflib" LD_TRACE_LOADED_OBJECTS=1 "$tmp/prog-ref" | grep 'liburcu\.so' || true)"
echo "# liburcu-built program loads: $loaded"
case "$loaded" in *"$reflib"/liburcu.so.*) ;; *) fail "liburcu-built program did not load Debian's liburcu";; esac
case "$loaded" in *"$ours"/*) fail "liburcu-built program loaded our library";; esac
echo "ok 1 - a program built against liburcu loads liburcu's library with ours first in the path"

# 2. Built against ours, only liburcu's libraries available: loader error naming ours.
# shellcheck disable=SC2046
cc -o "$tmp/prog-ours" "$src/binary-identity.c" -lpthread \
	$(PKG_CONFIG_PATH="$build/meson-uninstalled" pkg-config --cflags --libs liburcu-uninstalled)
LD_LIBRARY_PATH="$ours" "$tmp/prog-ours" >/dev/null || fail "our program does not run against our library"
if out="$(LD_LIBRARY_PATH="$reflib" "$tmp/prog-ours" 2>&1)"; then
	fail "our program ran against liburcu's libraries: $out"
fi
echo "# against liburcu's libraries: $out"
case "$out" in *"$oursoname"*) ;; *) fail "the loader error does not name $oursoname";; esac
echo "ok 2 - a program built against ours refuses liburcu's libraries, naming $oursoname"

# 3. Every reference of ours is bound to our version node, so a future
#    liburcu that versions its symbols (with any node but ours) is refused
#    by the loader even under our SONAME.  (liburcu 0.13's symbols carry no
#    version at all; glibc only warns about such a library, so for it the
#    SONAME of step 2 is the guard.)
needs="$(readelf -V "$tmp/prog-ours" | sed -n '/Version needs section/,$p')"
grep -q "File: $oursoname" <<<"$needs" || fail "our program has no version needs on $oursoname"
grep -q "Name: URCU_DROPIN_1" <<<"$needs" || fail "our program does not require version URCU_DROPIN_1"
echo "$needs" | grep -E "Name: (LIBURCU|URCU_[0-9])" && fail "our program requires a liburcu-style version node"
echo "ok 3 - our program binds its urcu symbols to version node URCU_DROPIN_1"
echo "1..3"
