#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Print the root of a private, unpacked copy of Debian's liburcu (headers and
# libraries), for the side-by-side benchmarks and the binary-identity test.
#   tools/liburcu-ref.sh CACHE_DIR
# Uses /opt/liburcu-ref if it holds one; otherwise `apt-get download`s
# liburcu-dev and its runtime package into CACHE_DIR/debs and `dpkg -x`es them
# into CACHE_DIR/root (never installed system-wide: its headers would hide
# ours).  Exit 1 with one line on stderr when none can be had.
set -euo pipefail
cache="${1:?usage: tools/liburcu-ref.sh CACHE_DIR}"

has_tree() { ls "$1"/usr/lib/*/liburcu.so.* "$1"/usr/lib/liburcu.so.* >/dev/null 2>&1; }

if has_tree /opt/liburcu-ref; then
	echo /opt/liburcu-ref
	exit 0
fi
root="$cache/root"
if ! has_tree "$root"; then
	mkdir -p "$cache/debs" "$root"
	ok=0
	# liburcu8 on bookworm; the runtime package was renamed on later releases
	for pkgs in "liburcu-dev liburcu8" "liburcu-dev liburcu8t64"; do
		# shellcheck disable=SC2086
		if (cd "$cache/debs" && apt-get download $pkgs >/dev/null 2>&1); then
			ok=1
			break
		fi
	done
	if [ "$ok" != 1 ]; then
		echo "liburcu-ref.sh: cannot obtain Debian's liburcu (apt-get download liburcu-dev liburcu8 failed)" >&2
		exit 1
	fi
	for deb in "$cache"/debs/*.deb; do
		dpkg -x "$deb" "$root"
	done
fi
echo "$root"
