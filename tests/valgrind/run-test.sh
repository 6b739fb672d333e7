#!/bin/sh
# SPDX-License-Identifier: MIT
#
# exe_wrapper of the `valgrind` test setup (top meson.build): runs one test
# program under valgrind memcheck.  Any memcheck error or definitely lost
# block makes the program exit 99, which meson reports as a failure.
#
# A test whose command is an interpreter (a Python or shell check) runs
# unwrapped: memcheck would examine the interpreter, not our code.
set -u

here=$(cd "$(dirname "$0")" && pwd)

if [ $# -eq 0 ]; then
	echo "usage: run-test.sh PROGRAM [ARGS...]" >&2
	exit 64
fi

case "${1##*/}" in
python*|sh|bash|dash|env|perl*)
	exec "$@"
	;;
esac

# --fair-sched: valgrind runs one thread at a time; without a fair lock a
# thread spinning on a flag can starve the thread that would set it.
exec valgrind --tool=memcheck --quiet \
	--error-exitcode=99 \
	--leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
	--fair-sched=yes \
	--suppressions="$here/suppressions.txt" \
	"$@"
