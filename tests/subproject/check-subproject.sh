#!/bin/sh
# SPDX-License-Identifier: MIT
#
# urcu used as a Meson subproject, without installing anything: the consumer
# project in consumer/ asks for liburcu-qsbr and liburcu-cds and falls back
# to subprojects/urcu, a link to this source tree made in a scratch
# directory.  The fallback is forced (and pkg-config pointed at nothing), so
# an installed liburcu cannot stand in.  TAP.
#
# Usage: check-subproject.sh <urcu source root> <consumer dir>
# Skips (77) without meson or ninja.  $CC, when set, is the compiler.

src=$1
consumer=$2
if ! command -v meson >/dev/null 2>&1 || ! command -v ninja >/dev/null 2>&1; then
	echo "1..0 # SKIP meson or ninja not found"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/urcu-subproject.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
failed=0
ok() {	# ok <status> <description>
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
	fi
}
show() {	# the tail of a log, as TAP comments
	tail -n 25 "$1" | sed 's/^/# /'
}

cp -R "$consumer" "$tmp/consumer"
mkdir "$tmp/consumer/subprojects"
ln -s "$(cd "$src" && pwd)" "$tmp/consumer/subprojects/urcu"

# Only what the consumer needs: one flavor, shared libraries, no tests,
# manual pages or urcutorture.
PKG_CONFIG_LIBDIR="$tmp/no-pkgconfig" PKG_CONFIG_PATH= \
meson setup "$tmp/build" "$tmp/consumer" \
	--force-fallback-for=liburcu-qsbr,liburcu-cds \
	-Durcu:flavors=qsbr -Durcu:tests=false -Durcu:man=false \
	-Durcu:torture=false -Durcu:default_library=shared \
	>"$tmp/setup.log" 2>&1
st=$?
ok $st "meson setup: liburcu-qsbr and liburcu-cds from subprojects/urcu"
[ $st -eq 0 ] || show "$tmp/setup.log"
if [ $st -eq 0 ]; then
	grep -q 'liburcu-qsbr.*found: NO' "$tmp/setup.log" \
		&& { echo "# the fallback was not used:"; show "$tmp/setup.log"; }
	ninja -j 2 -C "$tmp/build" >"$tmp/build.log" 2>&1
	st=$?
	ok $st "the consumer builds and links against the subproject"
	[ $st -eq 0 ] || show "$tmp/build.log"
fi
if [ $st -eq 0 ]; then
	"$tmp/build/consumer" >"$tmp/run.log" 2>&1
	st=$?
	sed 's/^/# /' "$tmp/run.log"
	grep -q '^consumer: ok$' "$tmp/run.log"
	ok $(( st != 0 || $? != 0 )) "the consumer runs: qsbr, call_rcu, wfcqueue"

	# The libraries it loads are the ones just built (not an installed copy).
	libs=$(ldd "$tmp/build/consumer" 2>/dev/null)
	echo "$libs" | grep -q "liburcu-qsbr.so.100 => $tmp/build/subprojects/urcu/" \
		&& echo "$libs" | grep -q "liburcu-cds.so.100 => $tmp/build/subprojects/urcu/"
	st=$?
	ok $st "it loads liburcu-qsbr and liburcu-cds from the subproject build"
	[ $st -eq 0 ] || echo "$libs" | sed 's/^/# /'

	if grep -q '^lfstack: not available$' "$tmp/run.log"; then
		n=$((n + 1))
		echo "ok $n - lfstack of liburcu-cds # SKIP urcu/lfstack.h not written yet"
	else
		grep -q '^lfstack push/pop: ok$' "$tmp/run.log"
		ok $? "lfstack of liburcu-cds"
	fi
fi
echo "1..$n"
exit $failed
