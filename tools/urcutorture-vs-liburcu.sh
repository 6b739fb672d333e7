#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# urcutorture-vs-liburcu.sh: build the same urcutorture source against
# Debian's liburcu (liburcu-dev) and run the same scenarios with both
# libraries, then print our numbers beside liburcu's as ratios (ours/liburcu;
# below 1 means ours is faster or has lower latency).
#
# Scenarios (each run with the same seed and options for both):
#   gp-latency  per flavor, synchronize_rcu latency p50 / p99 with readers
#   read-cost   per flavor, ns per read-side critical section (mean of runs)
#   callback    memb, call_rcu enqueue -> invoke latency p50 / p99 at a rate
# Each scenario runs --repeat times, alternating the two libraries, and the
# median of the repetitions is compared, to damp the noise of a shared machine.
# Our build also runs a second time in each repetition (an A/A run, "ours2"):
# the spread of ours/ours2 is this run's noise floor for the metric, and a
# ratio inside it is reported as "within noise", not as a win or a loss.
#
# usage: tools/urcutorture-vs-liburcu.sh [--ours PATH] [--build-dir DIR]
#            [--liburcu-root DIR] [--duration DUR] [--repeat N]
#            [--flavors "memb qsbr ..."] [--quick]
#   --ours          our urcutorture (default: build/tools/urcutorture)
#   --build-dir     where the liburcu build of the tool goes (default: a temp dir)
#   --liburcu-root  an unpacked liburcu-dev + liburcu8 (default: /opt/liburcu-ref
#                   if present, else `apt-get download` + `dpkg -x` into the
#                   build dir; liburcu is never installed system-wide)
#   --duration      per scenario, library and repetition (default 2s)
#   --repeat        repetitions per scenario (default 3)
#   --quick         a smoke run: --duration=1s --repeat=1 (same as the
#                   benchmark runner's --quick, so one --test-args serves both)
# Exit: 0 done, 77 when liburcu or a compiler is unavailable, 1 on a failed run.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$here/tools/urcutorture"
ours="$here/build/tools/urcutorture"
build=""
root=""
duration=2s
repeat=3
flavors="memb mb qsbr bp signal"

while [ $# -gt 0 ]; do
	case "$1" in
	--ours) ours="$2"; shift 2 ;;
	--build-dir) build="$2"; shift 2 ;;
	--liburcu-root) root="$2"; shift 2 ;;
	--duration) duration="$2"; shift 2 ;;
	--repeat) repeat="$2"; shift 2 ;;
	--flavors) flavors="$2"; shift 2 ;;
	--quick) duration=1s; repeat=1; shift ;;
	-h|--help) sed -n '3,30p' "$0"; exit 0 ;;
	*) echo "urcutorture-vs-liburcu.sh: unknown argument '$1'" >&2; exit 64 ;;
	esac
done

if [ ! -x "$ours" ]; then
	echo "urcutorture-vs-liburcu.sh: --ours: '$ours' is not an executable (build first)" >&2
	exit 77
fi
if [ -z "$build" ]; then
	build="$(mktemp -d /tmp/urcutorture-vs-liburcu.XXXXXX)"
fi
mkdir -p "$build"
build="$(cd "$build" && pwd)"

# ---- liburcu headers and libraries ----
if [ -z "$root" ]; then
	root="$("$(dirname "$0")/liburcu-ref.sh" "$build/liburcu-ref")" || exit 77
fi
multiarch="$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)"
inc="$root/usr/include/$multiarch"
[ -d "$inc/urcu" ] || inc="$root/usr/include"
lib="$root/usr/lib/$multiarch"
[ -d "$lib" ] || lib="$root/usr/lib"
if [ ! -f "$inc/urcu.h" ] || ! ls "$lib"/liburcu.so* >/dev/null 2>&1; then
	echo "urcutorture-vs-liburcu.sh: no liburcu headers/libraries under $root" >&2
	exit 77
fi
libversion="$(ls "$lib"/liburcu.so.*.*.* 2>/dev/null | head -1 | sed 's/.*\.so\.//')"
[ -n "$libversion" ] || libversion=unknown
if [ -f "$root/usr/share/doc/liburcu-dev/changelog.Debian.gz" ]; then
	v="$(zcat "$root/usr/share/doc/liburcu-dev/changelog.Debian.gz" | head -1 | sed -n 's/.*(\([^)-]*\).*/\1/p')"
	[ -n "$v" ] && libversion="$v"
fi

# ---- build urcutorture against liburcu ----
cc="${CC:-cc}"
command -v "$cc" >/dev/null || { echo "urcutorture-vs-liburcu.sh: no C compiler" >&2; exit 77; }
cflags=(-O2 -g -std=gnu11 -I"$inc" -I"$src"
	-DUT_VERSION="\"$(sed -n "s/^  version: '\(.*\)',/\1/p" "$here/meson.build" | head -1)\""
	-DUT_LIB_NAME='"liburcu"' -DUT_LIB_VERSION="\"$libversion\"")
ldlibs=(-L"$lib" -Wl,-rpath,"$lib")
placement_flags=()
placement_libs=()
if pkg-config --exists hwloc 2>/dev/null; then
	placement_flags+=(-DUT_HAVE_HWLOC $(pkg-config --cflags hwloc))
	placement_libs+=($(pkg-config --libs hwloc))
fi
if pkg-config --exists numa 2>/dev/null || [ -f /usr/include/numa.h ]; then
	placement_flags+=(-DUT_HAVE_NUMA)
	placement_libs+=(-lnuma)
fi

objs=()
have=()
for f in $flavors; do
	F="$(echo "$f" | tr a-z A-Z)"
	if [ ! -e "$lib/liburcu-$f.so" ] && [ "$f" != memb ]; then
		continue
	fi
	"$cc" "${cflags[@]}" -DUT_FLAVOR_"$F" -c "$src/flavor-ops.c" -o "$build/flavor-$f.o"
	objs+=("$build/flavor-$f.o")
	have+=(-DUT_HAVE_FLAVOR_"$F")
	if [ "$f" = memb ]; then ldlibs+=(-lurcu-memb); else ldlibs+=(-lurcu-"$f"); fi
done
for c in "$src"/*.c; do
	base="$(basename "$c" .c)"
	# flavor-ops.c is built per flavor above; seed-module.c is the seeded
	# flavors' dlopen module (tools/meson.build), not part of the tool
	case "$base" in flavor-ops|seed-module) continue ;; esac
	"$cc" "${cflags[@]}" "${have[@]}" "${placement_flags[@]}" -c "$c" -o "$build/$base.o"
	objs+=("$build/$base.o")
done
# the built-in scenarios, embedded as tools/meson.build does
python3 "$src/scenarios/embed.py" "$build/scenarios-builtin.c" "$src"/scenarios/*.scn
"$cc" "${cflags[@]}" -c "$build/scenarios-builtin.c" -o "$build/scenarios-builtin.o"
objs+=("$build/scenarios-builtin.o")
# the data-structure modes (hash, queue) need liburcu-cds
"$cc" -o "$build/urcutorture-liburcu" "${objs[@]}" "${ldlibs[@]}" -lurcu-cds -lurcu-common \
	"${placement_libs[@]}" -lpthread -lm
theirs="$build/urcutorture-liburcu"

# ---- scenarios ----
seed=20260101
out="$build/results"
mkdir -p "$out"
run_both() {	# name args...
	local name="$1"; shift
	for rep in $(seq 1 "$repeat"); do
		for who in ours liburcu ours2; do
			local exe="$ours" tag="$name.$who.$rep"
			[ "$who" = liburcu ] && exe="$theirs"
			if ! "$exe" "$@" --seed=$((seed + rep)) --duration="$duration" --stat-interval=0 \
				--json="$out/$tag.json" >"$out/$tag.log" 2>&1; then
				echo "urcutorture-vs-liburcu.sh: $name failed with $who (see $out/$tag.log)" >&2
				tail -3 "$out/$tag.log" >&2
				return 1
			fi
		done
	done
}

status=0
scenarios=()
for f in $flavors; do
	"$theirs" --flavor="$f" --dry-run >/dev/null 2>&1 || continue
	"$ours" --flavor="$f" --dry-run >/dev/null 2>&1 || continue
	echo "gp-latency $f ..." >&2
	run_both "gp-latency-$f" --mode=gp-latency --flavor="$f" && scenarios+=("gp-latency-$f") || status=1
	echo "read-cost $f ..." >&2
	run_both "read-cost-$f" --mode=read-cost --flavor="$f" --runs=3 && scenarios+=("read-cost-$f") || status=1
done
echo "callback memb ..." >&2
run_both "callback-memb" --mode=callback --flavor=memb --rate=50000 && scenarios+=("callback-memb") || status=1

python3 - "$out" "$libversion" "$repeat" "${scenarios[@]}" <<'PY'
import json, statistics, sys
out, libversion, repeat, names = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
def load(name, who, rep):
    with open("%s/%s.%s.%d.json" % (out, name, who, rep)) as f:
        return json.load(f)["results"][0]
def metrics(name, r):
    if name.startswith("gp-latency"):
        g = r["gp_latency_ns"] or {}
        return [("GP latency p50 (ns)", g.get("p50")), ("GP latency p99 (ns)", g.get("p99"))]
    if name.startswith("read-cost"):
        return [("read-side section (ns)", r["read_cost"]["mean"])]
    c = r["callbacks"]["latency_ns"] or {}
    return [("callback latency p50 (ns)", c.get("p50")), ("callback latency p99 (ns)", c.get("p99"))]
def per_rep(name, who):
    return [metrics(name, load(name, who, rep)) for rep in range(1, repeat + 1)]
def median(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None
def fmt(v):
    if v is None:
        return "-"
    return "%.2f" % v if v < 100 else "%.0f" % v
def spread(r):
    return max(r, 1 / r) - 1 if r and r > 0 else None
# Noise floor of a metric: the largest ours/ours2 disagreement over the
# repetitions (at least 3 %).  The verdict compares the medians' ratio with it.
FLOOR = 0.03
print("%-20s %-28s %12s %14s %7s %8s  %s" % ("scenario", "metric", "ours", "liburcu " + libversion,
      "ratio", "A/A", "vs liburcu"))
worse = 0
for name in names:
    o, l, o2 = per_rep(name, "ours"), per_rep(name, "liburcu"), per_rep(name, "ours2")
    for i, (m, _) in enumerate(o[0]):
        x = median([r[i][1] for r in o])
        y = median([r[i][1] for r in l])
        aa = [spread(a[i][1] / b[i][1]) for a, b in zip(o, o2)
              if a[i][1] is not None and b[i][1]]
        aa = [v for v in aa if v is not None]
        noise = max(aa + [FLOOR])
        if x is None or not y:
            ratio, verdict = "%7s" % "-", "-"
        else:
            r = x / y
            ratio = "%7.3g" % r
            if spread(r) <= noise:
                verdict = "within noise"
            elif r < 1:
                verdict = "better"
            else:
                verdict = "worse"
                worse += 1
        print("%-20s %-28s %12s %14s %s %7s  %s" % (name, m, fmt(x), fmt(y), ratio,
              "+-%.0f%%" % (100 * noise), verdict))
print("(median of %d alternating runs each; ratio = ours / liburcu, < 1 is better for ours;"
      " same seeds, options and machine; A/A = the largest ours/ours2 spread of the"
      " repetitions, at least 3%%)" % repeat)
print("rows worse than liburcu beyond the noise: %d" % worse)
PY
exit $status
