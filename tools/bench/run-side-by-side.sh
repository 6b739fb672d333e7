#!/bin/sh
# SPDX-License-Identifier: MIT
# Side-by-side benchmarks against Debian's liburcu; see run-side-by-side.py.
# usage: tools/bench/run-side-by-side.sh [--build-dir DIR] [--quick] [--rounds N] [--only NAME] [--json FILE]
exec python3 "$(dirname "$0")/run-side-by-side.py" "$@"
