#!/bin/sh
# SPDX-License-Identifier: MIT
#
# <urcu/rcu.hpp> with g++ and clang++, -std=c++17 and -std=c++20,
# -Wall -Wextra -Werror -pedantic: compiles and links test_cxx_include.cpp
# with <urcu.h> after the header and, with _LGPL_SOURCE, before it (TAP,
# one check per build).  A compiler that is not installed is a skipped
# check; with neither, the test is skipped.
#
# usage: check-compilers.sh SRCDIR LIBDIR INCDIR...
# CXX_EXTRA_FLAGS: the build's own C++ flags (e.g. -m32), passed on.
set -u
src="$1"; libdir="$2"; shift 2
incs=""
for d in "$@"; do incs="$incs -I$d"; done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0; failed=0; found=0
for cxx in g++ clang++; do
	for std in c++17 c++20; do
		for order in after before; do
			n=$((n + 1))
			what="$cxx -std=$std, <urcu.h> $order <urcu/rcu.hpp>"
			if ! command -v "$cxx" >/dev/null 2>&1; then
				echo "ok $n - $what # SKIP $cxx is not installed"
				continue
			fi
			found=1
			defs="-DCXX_NO_TAP"
			[ "$order" = before ] && defs="$defs -DCXX_URCU_H_FIRST -D_LGPL_SOURCE"
			# shellcheck disable=SC2086 # word lists on purpose
			if "$cxx" -std="$std" -Wall -Wextra -Werror -pedantic ${CXX_EXTRA_FLAGS:-} $defs $incs \
				-o "$tmp/a.out" "$src/test_cxx_include.cpp" \
				-L"$libdir" -lurcu -lurcu-common -pthread >"$tmp/log" 2>&1; then
				echo "ok $n - $what"
			else
				failed=$((failed + 1))
				echo "not ok $n - $what"
				sed 's/^/# /' "$tmp/log" | head -40
			fi
		done
	done
done
if [ "$found" = 0 ]; then
	echo "1..0 # SKIP neither g++ nor clang++ is installed"
	exit 0
fi
echo "1..$n"
[ "$failed" = 0 ]
