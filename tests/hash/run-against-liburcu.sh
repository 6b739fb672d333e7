#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Build the hash-table tests by hand against a reference liburcu (Debian's
# liburcu 0.13.2 by default) and run them: this checks the tests themselves,
# independently of our implementation.  Features the reference lacks are
# skipped through TEST_LIBURCU_REF (see hash-test.h).
#
#   tests/hash/run-against-liburcu.sh [-v VERSION] [-r REFROOT] [-o OUTDIR] [TEST...]
#
# TEST is a source base name (test_hash_api) optionally followed by
# :flavor (test_hash_api:qsbr); default: every test, every flavor.
# Extra test arguments: HASH_TEST_ARGS in the environment.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
ver=1302
ref=$top/build/liburcu-ref/root
out=${TMPDIR:-/tmp}/hash-vs-liburcu
while getopts v:r:o: opt; do
	case $opt in
	v) ver=$OPTARG ;;
	r) ref=$OPTARG ;;
	o) out=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
inc=$ref/usr/include/x86_64-linux-gnu
[ -d "$inc" ] || inc=$ref/usr/include
lib=$ref/usr/lib/x86_64-linux-gnu
[ -d "$lib" ] || lib=$ref/usr/lib
mkdir -p "$out"

tests=${*:-"test_hash_api test_hash_cxx test_hash_concurrent test_hash_destroy test_hash_fork test_hash_mm test_hash_autoresize test_hash_umbrella test_hash_misuse test_hash_accounting"}
flavors="memb mb qsbr bp signal"
fail=0
for t in $tests; do
	case $t in
	*:*) fl=${t#*:}; t=${t%%:*} ;;
	*) fl=$flavors ;;
	esac
	for f in $fl; do
		src=$here/$t.c
		cc=gcc
		std=-std=gnu11
		if [ -f "$here/$t.cpp" ]; then
			src=$here/$t.cpp; cc=g++; std=-std=gnu++11
		fi
		F=$(echo "$f" | tr a-z A-Z)
		exe=$out/$t-$f
		if ! $cc $std -O2 -g -Wall -Wextra -Wno-unused-parameter \
				-DTEST_LIBURCU_REF="$ver" -DTEST_FLAVOR_"$F" \
				-I"$here" -I"$top/tests/unit" -I"$top/tests/common" -I"$inc" \
				"$src" -o "$exe" -L"$lib" -lurcu-cds -lurcu-"$f" -lurcu-common -lpthread \
				${HASH_CFLAGS:-}; then
			echo "BUILD FAILED: $t $f"; fail=1; continue
		fi
		LD_LIBRARY_PATH=$lib timeout "${HASH_TIMEOUT:-120}" "$exe" ${HASH_TEST_ARGS:-} \
			> "$exe.log" 2>&1
		rc=$?
		nok=$(grep -c '^ok' "$exe.log")
		nnok=$(grep -c '^not ok' "$exe.log")
		nskip=$(grep -c '^ok .*# SKIP' "$exe.log")
		echo "$t $f: rc=$rc ok=$nok (skip $nskip) not_ok=$nnok"
		grep -E '^not ok|^Bail' "$exe.log" | sed 's/^/    /'
		[ "$rc" = 0 ] || fail=1
	done
done
exit $fail
