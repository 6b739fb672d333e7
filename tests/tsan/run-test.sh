#!/bin/sh
# SPDX-License-Identifier: MIT
#
# exe_wrapper of the `tsan` test setup (top meson.build): runs one test's
# command line unchanged, unless tests/tsan/skip.txt names the test.
#
# skip.txt, one entry a line (# comments): PATTERN<TAB>PROTOCOL<TAB>REASON.
# PATTERN is a shell glob matched against the base name of every word of
# the command line (the program, or the script an interpreter runs, and the
# arguments).  A skipped TAP test prints "1..0 # SKIP REASON" and exits 0; a
# skipped exit-code test exits 77.  Either way meson counts it as SKIP and
# shows the reason.
#
# The TSan options (suppressions file, exit code 66 on a report) come from
# the setup's TSAN_OPTIONS.
set -u

here=$(cd "$(dirname "$0")" && pwd)
skip="$here/skip.txt"

if [ $# -eq 0 ]; then
	echo "usage: run-test.sh PROGRAM [ARGS...]" >&2
	exit 64
fi

tab=$(printf '\t')
while IFS="$tab" read -r pattern protocol reason; do
	case "$pattern" in
	''|'#'*) continue ;;
	esac
	for word in "$@"; do
		# shellcheck disable=SC2254 # PATTERN is a glob on purpose
		case "${word##*/}" in
		$pattern)
			if [ "$protocol" = tap ]; then
				echo "1..0 # SKIP under ThreadSanitizer: $reason"
				exit 0
			fi
			echo "SKIP under ThreadSanitizer: $reason"
			exit 77
			;;
		esac
	done
done < "$skip"

exec "$@"
