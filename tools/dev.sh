#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# One-stop developer entry point (the README's two commands):
#   tools/dev.sh run    install what is missing, build, run urcutorture (~10 s)
#   tools/dev.sh test   install what is missing, build, run the default tests
# Extra arguments after the verb go to urcutorture (run) or meson test (test).
# BUILD_DIR (default: build) selects the build directory.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$here/build}"
verb="${1:-}"
[ $# -gt 0 ] && shift

usage() {
	echo "usage: tools/dev.sh run|test [args...]" >&2
	exit 64
}

# Debian packages the build, the tests and urcutorture need.
packages=(gcc g++ meson ninja-build pkg-config python3 libhwloc-dev libnuma-dev
	  hwloc-nox man-db groff-base strace spin python3-matplotlib)

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
	exec meson test -C "$build" --print-errorlogs --no-suite torture --no-suite bench --no-suite model --no-suite seeded "$@"
	;;
*)
	usage
	;;
esac
