#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the build into a scratch DESTDIR, then build a liburcu-style program
# against the installed headers and libraries with pkg-config, and run it.
# Also checks that every library has its .pc file and that man pages landed,
# and builds a C++ program that includes only <urcu/rcu.hpp> the same way.
set -euo pipefail
build="$1"; src="$2"
dest="$(mktemp -d)"
trap 'rm -rf "$dest"' EXIT

meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null
pcdir="$(dirname "$(find "$dest" -name liburcu-qsbr.pc | head -1)")"
[ -n "$pcdir" ] || { echo "FAIL: liburcu-qsbr.pc not installed"; exit 1; }
for pc in liburcu liburcu-memb liburcu-mb liburcu-qsbr liburcu-bp liburcu-signal liburcu-common liburcu-cds; do
	[ -f "$pcdir/$pc.pc" ] || { echo "FAIL: $pc.pc not installed"; exit 1; }
done
export PKG_CONFIG_PATH="$pcdir" PKG_CONFIG_SYSROOT_DIR="$dest"
flags="$(pkg-config --cflags --libs liburcu-qsbr)"
echo "pkg-config --cflags --libs liburcu-qsbr: $flags"
case "$flags" in *-lurcu-qsbr*-lurcu-common*|*-lurcu-common*-lurcu-qsbr*) ;;
	*) echo "FAIL: .pc does not link urcu-qsbr and urcu-common"; exit 1;; esac
# The headers must come from the install tree only.
for h in urcu.h urcu-qsbr.h urcu-bp.h urcu/urcu-memb.h urcu/rculist.h urcu/arch.h urcu/uatomic.h urcu/config.h; do
	[ -f "$(find "$dest" -path "*/include/$h" | head -1)" ] || { echo "FAIL: $h not installed"; exit 1; }
done
# Every per-architecture and uatomic header of liburcu 0.15 (the list
# tests/names checks in the tree) is installed too.
incdir="$(dirname "$(dirname "$(find "$dest" -path '*/include/urcu/arch.h' | head -1)")")"
while IFS=$'\t' read -r h _; do
	case "$h" in ''|'#'*) continue;; esac
	[ -f "$incdir/$h" ] || { echo "FAIL: $h not installed (tests/names/arch-headers.tsv)"; exit 1; }
done < "$src/../names/arch-headers.tsv"
# shellcheck disable=SC2086
cc -Wall -Werror -o "$dest/example" "$src/liburcu-list-example.c" $flags -lpthread
# pkg-config versions differ on whether --variable applies the sysroot: take
# the directory the library was installed into instead.
libdir="$(dirname "$(find "$dest" -name 'liburcu-qsbr.so' | head -1)")"
LD_LIBRARY_PATH="$libdir" "$dest/example"
# The C++ interface: a program that includes only <urcu/rcu.hpp> builds
# with liburcu's flags and -pthread alone (README's example).
if command -v c++ >/dev/null 2>&1; then
	[ -f "$incdir/urcu/rcu.hpp" ] || { echo "FAIL: urcu/rcu.hpp not installed"; exit 1; }
	cxxflags="$(pkg-config --cflags --libs liburcu)"
	# shellcheck disable=SC2086
	c++ -std=c++17 -Wall -Werror -o "$dest/example-cxx" "$src/rcu-hpp-example.cpp" \
		$cxxflags -pthread
	LD_LIBRARY_PATH="$libdir" "$dest/example-cxx"
else
	echo "no c++ compiler: the <urcu/rcu.hpp> program is not built"
fi
echo "PASS"
