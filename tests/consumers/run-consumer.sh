#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Consumer suite (docs/CONSUMERS.md): build a real liburcu user from its
# Debian source package twice -- against Debian's liburcu (the reference)
# and against our install -- run the consumer's own tests on both, and
# compare.  TAP on stdout; everything the builds print goes to log files.
#
#   run-consumer.sh BUILD_DIR SOURCE_ROOT CONSUMER
#
# CONSUMER names tests/consumers/<CONSUMER>.sh, which defines:
#   SRCPKG              the Debian source package
#   DEPS=(...)          the Build-Depends the build below needs, by name
#                       (never liburcu-dev: the reference is unpacked
#                       privately, and our headers must be the only ones)
#   c_configure, c_build    run in the unpacked tree (cwd)
#   c_test RESULTS      runs the consumer's tests; appends one line per test
#                       to RESULTS: "name<TAB>pass|fail|skip<TAB>log file|-";
#                       may print "summary: ..." lines (finer counts), shown
#                       for both sides at the end
#   c_binaries          prints paths (relative to the tree) of built files
#                       that must link our/liburcu's libraries
# The environment they see: URCU_SIDE (ours|ref), URCU_ROOT (the root the
# urcu headers and libraries live under), URCU_LIBDIR, URCU_PCDIR,
# PKG_CONFIG_PATH (URCU_PCDIR first), URCU_CFLAGS and URCU_LDFLAGS
# (pkg-config's --cflags and --libs-only-L of liburcu, plus an RPATH to
# URCU_LIBDIR), LD_LIBRARY_PATH (URCU_LIBDIR first), JOBS, SIDE_DIR (the
# side's scratch directory, for logs and images), SOURCE_TREE (the
# unpacked source, read-only: the same input files for both sides).
#
# Cache (downloads, the private apt state, the build trees and logs of the
# last run): $URCU_CONSUMERS_CACHE, default BUILD_DIR/consumers-cache.
# Debian's liburcu is unpacked by tools/liburcu-ref.sh into
# CACHE/liburcu-ref (or taken from /opt/liburcu-ref).
# Nothing else is written, except that, as root, missing Build-Depends are
# installed with apt-get (by name, from the system's own sources).
#
# Result: ok when every test the reference passes also passes against ours
# (and so ours passes at least as many); "1..0 # SKIP" when a Build-Depend
# is missing and we are not root, when the source or Debian's liburcu
# cannot be downloaded, or when this is not a Debian-like system.
set -euo pipefail

build="$(cd "${1:?usage: run-consumer.sh BUILD_DIR SOURCE_ROOT CONSUMER}" && pwd)"
srcroot="$(cd "${2:?usage: run-consumer.sh BUILD_DIR SOURCE_ROOT CONSUMER}" && pwd)"
consumer="${3:?usage: run-consumer.sh BUILD_DIR SOURCE_ROOT CONSUMER}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${URCU_CONSUMERS_CACHE:-$build/consumers-cache}"
mkdir -p "$cache"
cache="$(cd "$cache" && pwd)"
export JOBS="${URCU_CONSUMERS_JOBS:-$(nproc 2>/dev/null || echo 2)}"
# meson test sets a random MALLOC_PERTURB_ and puts our uninstalled
# libraries on LD_LIBRARY_PATH; the consumers run in a plain environment,
# the same for both sides, with only the side's library directory.
unset MALLOC_PERTURB_ LD_LIBRARY_PATH

start_time=$SECONDS
ntap=0
failed=0
tap_ok() { ntap=$((ntap + 1)); echo "ok $ntap - $*"; }
# A failure goes to stderr too: meson shows a TAP test's stderr, not its stdout.
tap_not_ok() { ntap=$((ntap + 1)); failed=1; echo "not ok $ntap - $*"; echo "not ok $ntap - $*" >&2; }
diag() { sed 's/^/# /'; }
skip_all() { echo "1..0 # SKIP $consumer: $*"; exit 0; }
# A command that fails where nothing expects it: say where, as a TAP failure.
set -E
trap 'st=$?; trap - ERR; tap_not_ok "run-consumer.sh: unexpected failure (status $st) at line $LINENO: $BASH_COMMAND"; finish' ERR
# Under meson (protocol tap) a non-zero exit would turn FAIL into ERROR.
finish() { echo "1..$ntap"; [ "$failed" = 0 ] || [ -n "${URCU_CONSUMERS_MESON:-}" ] || exit 1; exit 0; }
bail() { tap_not_ok "$*"; finish; }
# The last lines of a log, or the lines naming urcu when there are any.
log_excerpt() {
	local log="$1" n="${2:-15}"
	[ -f "$log" ] || { echo "(no log $log)"; return; }
	if grep -q -i 'urcu\|rcu_' "$log"; then
		grep -i -m 8 'urcu\|rcu_' "$log"
		echo "--- last lines of $log:"
		tail -n 5 "$log"
	else
		tail -n "$n" "$log"
	fi
}
# The compiler's error lines of a build log (first few), else its tail.
build_errors() {
	local log="$1"
	if grep -q -E 'error:|Error [0-9]|undefined reference|FATAL' "$log"; then
		grep -E -m 12 'error:|Error [0-9]|undefined reference|FATAL' "$log"
	else
		tail -n 15 "$log"
	fi
}

[ -f "$here/$consumer.sh" ] || bail "no consumer definition $here/$consumer.sh"
# shellcheck source=/dev/null
. "$here/$consumer.sh"

# --- Environment -------------------------------------------------------------
for tool in apt-get dpkg-query dpkg-source; do
	command -v "$tool" >/dev/null || skip_all "needs a Debian-like system ($tool not found)"
done
codename="$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")"
[ -n "$codename" ] || skip_all "no VERSION_CODENAME in /etc/os-release"

# Debian's liburcu-dev installed system-wide would put its headers on the
# default include path, where they could be picked up instead of either
# side's: refuse to compare then.
if [ -e /usr/include/urcu.h ] || [ -e /usr/include/urcu ] ||
   dpkg-query -W -f='${Status}' liburcu-dev 2>/dev/null | grep -q 'install ok installed'; then
	bail "liburcu-dev (or urcu headers in /usr/include) is installed system-wide; remove it: its headers would shadow the side under test"
fi

# --- Build-Depends, by name --------------------------------------------------
common_deps=(gcc make pkg-config dpkg-dev xz-utils)
for p in "${DEPS[@]}"; do
	case "$p" in liburcu*) bail "$consumer.sh lists $p in DEPS";; esac
done
missing=()
for p in "${common_deps[@]}" "${DEPS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	line="apt-get install -y --no-install-recommends ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "# missing Build-Depends of $SRCPKG; as root: $line"
		echo "1..0 # SKIP $consumer: missing Build-Depends; run as root: $line"
		exit 0
	fi
	echo "# installing Build-Depends of $SRCPKG: $line"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$cache/apt-install-$consumer.log" 2>&1; then
		apt-get update -qq >>"$cache/apt-install-$consumer.log" 2>&1 || true
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$cache/apt-install-$consumer.log" 2>&1 \
			|| { tail -n 5 "$cache/apt-install-$consumer.log" | diag; bail "cannot install Build-Depends: $line"; }
	fi
	# Never let an install drag liburcu-dev in.
	if dpkg-query -W -f='${Status}' liburcu-dev 2>/dev/null | grep -q 'install ok installed'; then
		bail "installing ${missing[*]} pulled liburcu-dev in"
	fi
fi
tap_ok "$SRCPKG Build-Depends present (${#DEPS[@]} listed; liburcu-dev not installed)"

# --- Source package, through a private apt configuration ---------------------
# Its own sources.list (deb-src for this release only), lists and cache;
# the system's sources and state are never written.
aptdir="$cache/apt"
mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" "$aptdir/sources.list.d"
# The mirror: URCU_CONSUMERS_MIRROR, else the archive of the system's own apt
# sources (sources.list, sources.list.d/*.list and *.sources, deb822 included)
# whose entry lists this release's suite with main (apt-mirror.py): a local
# mirror or proxy apt uses serves the suite too.
mirror="${URCU_CONSUMERS_MIRROR:-$(python3 "$here/apt-mirror.py" "$codename" || true)}"
if [ -z "$mirror" ]; then
	tap_not_ok "no apt source lists $codename main to take the archive from; set URCU_CONSUMERS_MIRROR"
	finish
fi
signed=""
[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] &&
	signed=" [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]"
echo "deb-src$signed $mirror $codename main" >"$aptdir/sources.list"
cat >"$aptdir/apt.conf" <<EOF
Dir::Etc::SourceList "$aptdir/sources.list";
Dir::Etc::SourceParts "$aptdir/sources.list.d";
Dir::State::Lists "$aptdir/lists";
Dir::Cache "$aptdir/cache";
Acquire::Languages "none";
EOF
papt() { APT_CONFIG="$aptdir/apt.conf" apt-get -q "$@"; }

srcdir="$cache/src/$SRCPKG"
mkdir -p "$srcdir"
fetch_log="$srcdir/fetch.log"
: >"$fetch_log"
dsc_of() { find "$srcdir" -maxdepth 1 -name "${SRCPKG}_*.dsc" | sort -V | tail -n 1; }
if ! ls "$aptdir"/lists/*_Sources* >/dev/null 2>&1; then
	papt update >>"$fetch_log" 2>&1 || true
fi
if ! (cd "$srcdir" && papt source --download-only "$SRCPKG" >>"$fetch_log" 2>&1); then
	# stale lists (a new upload): refresh once and retry
	papt update >>"$fetch_log" 2>&1 || true
	(cd "$srcdir" && papt source --download-only "$SRCPKG" >>"$fetch_log" 2>&1) || true
fi
dsc="$(dsc_of)"
if [ -z "$dsc" ]; then
	tail -n 3 "$fetch_log" | diag
	skip_all "cannot download the source package $SRCPKG (deb-src $mirror $codename main)"
fi
version="$(sed -n 's/^Version: //p' "$dsc" | head -n 1)"
pristine="$srcdir/tree-$version"
if [ ! -f "$pristine/.unpacked" ]; then
	rm -rf "$pristine"
	if ! dpkg-source --no-check -x "$dsc" "$pristine" >>"$fetch_log" 2>&1; then
		tail -n 5 "$fetch_log" | diag
		# the download may have been partial (a file missing on the mirror)
		skip_all "cannot unpack $dsc (incomplete download?)"
	fi
	touch "$pristine/.unpacked"
fi
tap_ok "$SRCPKG $version source unpacked ($(basename "$dsc"), deb-src $codename, private apt state in $aptdir)"

# --- The two sides: Debian's liburcu and our install -------------------------
work="$cache/work/$consumer"
# The reference side (work/ref) is kept between runs and reused while its
# inputs are the same (see ref_key below); everything else is redone.
mkdir -p "$work"
find "$work" -mindepth 1 -maxdepth 1 ! -name ref -exec rm -rf {} +
multiarch="$(gcc -print-multiarch 2>/dev/null || true)"

# A private pkg-config directory for an unpacked root: the .pc files with
# every absolute path variable moved under the root (PKG_CONFIG_SYSROOT_DIR
# would move the other packages' paths too: gnutls, libudev, ...).
make_pcdir() {
	local root="$1" pcdir="$2" pc
	mkdir -p "$pcdir"
	for pc in $(find "$root" -path '*/pkgconfig/liburcu*.pc'); do
		sed -E "s|^([A-Za-z_]+)=/|\\1=$root/|" "$pc" >"$pcdir/$(basename "$pc")"
	done
	[ -f "$pcdir/liburcu.pc" ]
}

ref_root="$("$srcroot/tools/liburcu-ref.sh" "$cache/liburcu-ref" 2>"$work/liburcu-ref.log")" ||
	{ diag <"$work/liburcu-ref.log"; skip_all "cannot obtain Debian's liburcu (tools/liburcu-ref.sh)"; }
ref_root="$(cd "$ref_root" && pwd)"
make_pcdir "$ref_root" "$work/pc-ref" || bail "no liburcu.pc under $ref_root"

ours_root="$work/root-ours"
if ! meson install -C "$build" --destdir "$ours_root" --no-rebuild --quiet >"$work/meson-install.log" 2>&1; then
	build_errors "$work/meson-install.log" | diag
	bail "meson install --destdir of our build failed"
fi
make_pcdir "$ours_root" "$work/pc-ours" || bail "our install has no liburcu.pc"
ref_version="$(PKG_CONFIG_PATH="$work/pc-ref" pkg-config --modversion liburcu)"
ours_version="$(PKG_CONFIG_PATH="$work/pc-ours" pkg-config --modversion liburcu)"
tap_ok "reference: Debian liburcu $ref_version under $ref_root; ours: $ours_version installed to $ours_root"

# Set up the environment of one side.
enter_side() {
	local side="$1"
	export URCU_SIDE="$side" SIDE_DIR="$work/$side" SOURCE_TREE="$pristine"
	if [ "$side" = ours ]; then URCU_ROOT="$ours_root"; else URCU_ROOT="$ref_root"; fi
	export URCU_ROOT URCU_PCDIR="$work/pc-$side"
	export PKG_CONFIG_PATH="$URCU_PCDIR${ORIG_PKG_CONFIG_PATH:+:$ORIG_PKG_CONFIG_PATH}"
	URCU_LIBDIR="$(pkg-config --variable=libdir liburcu)"
	export URCU_LIBDIR
	URCU_CFLAGS="$(pkg-config --cflags liburcu)"
	# DT_RPATH, not RUNPATH: the executable's RPATH also serves its
	# libraries' own dependencies (our liburcu.so.100 needs
	# liburcu-common.so.100), and a test harness that sets its own
	# LD_LIBRARY_PATH (multipath-tools') must still find the side's.
	URCU_LDFLAGS="$(pkg-config --libs-only-L liburcu) -Wl,--disable-new-dtags,-rpath,$URCU_LIBDIR"
	export URCU_CFLAGS URCU_LDFLAGS
	export LD_LIBRARY_PATH="$URCU_LIBDIR${ORIG_LD_LIBRARY_PATH:+:$ORIG_LD_LIBRARY_PATH}"
}
export ORIG_PKG_CONFIG_PATH="${PKG_CONFIG_PATH:-}" ORIG_LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}"

# Which liburcu a built file loads: the NEEDED entries, and where the
# loader finds them.
check_linkage() {
	local side="$1" tree="$2" f needed resolved want bad=0 checked=0
	if [ "$side" = ours ]; then want='liburcu[-a-z]*\.so\.100'; else want='liburcu[-a-z]*\.so\.8'; fi
	for f in $(cd "$tree" && c_binaries); do
		[ -e "$tree/$f" ] || { echo "missing $f"; bad=1; continue; }
		needed="$(readelf -d "$tree/$f" 2>/dev/null | sed -n 's/.*Shared library: \[\(liburcu[^]]*\)\]/\1/p' | tr '\n' ' ')"
		resolved="$(ldd "$tree/$f" 2>/dev/null | awk '/liburcu/ {print $3}' | tr '\n' ' ')"
		echo "$f: NEEDED $needed-> $resolved"
		checked=$((checked + 1))
		[ -n "$needed" ] || { echo "  $f needs no liburcu library"; bad=1; }
		for n in $needed; do
			grep -q -x "$want" <<<"$n" || { echo "  $n is not the $side library"; bad=1; }
		done
		for r in $resolved; do
			case "$r" in "$URCU_ROOT"/*) ;; *) echo "  $r is outside $URCU_ROOT"; bad=1;; esac
		done
	done
	[ "$checked" -gt 0 ] && [ "$bad" = 0 ]
}

# Which urcu headers the compiler read: every dependency file of the build
# (.Plo/.Po of automake, .d of -MD) that names one; each must be under the
# side's root.
check_headers() {
	local tree="$1" list
	list="$(find "$tree" -type f \( -name '*.Plo' -o -name '*.Po' -o -name '*.d' -o -name '.dep' -o -name '.ltdep' \) \
		-exec grep -h -o '[^ :\\]*/urcu[^ :\\]*\.h' {} + 2>/dev/null | sort -u || true)"
	if [ -z "$list" ]; then
		echo "no dependency file names a urcu header"
		return 2
	fi
	local n outside
	n="$(echo "$list" | wc -l)"
	outside="$(echo "$list" | while read -r h; do
		case "$(realpath -m "$h")" in "$URCU_ROOT"/*) ;; *) echo "$h";; esac; done)"
	if [ -n "$outside" ]; then
		echo "urcu headers read from outside $URCU_ROOT:"
		echo "$outside" | head -n 10
		return 1
	fi
	echo "$n distinct urcu headers read, all under $URCU_ROOT"
}

# What the reference side's build and results depend on: the source
# package, Debian's liburcu (version, files and where it is unpacked), the
# compiler and this consumer's definition.
ref_key() {
	{
		echo "$SRCPKG $version"
		echo "liburcu $ref_version $ref_root $(cd "$ref_root" && find . -name 'liburcu*.so.*' -type f -printf '%p %s\n' | sort)"
		gcc --version | head -n 1
		cat "$here/$consumer.sh"
	} | sha256sum | cut -d' ' -f1
}

declare -A built
run_side() {
	local side="$1" tree="$work/$1/tree" t0=$SECONDS key=""
	enter_side "$side"
	local label="$SRCPKG $version against $([ "$side" = ours ] && echo "ours ($ours_version)" || echo "Debian liburcu $ref_version")"
	if [ "$side" = ref ]; then
		key="$(ref_key)"
		if [ -z "${URCU_CONSUMERS_FRESH:-}" ] && [ -f "$SIDE_DIR/key" ] &&
		   [ "$(cat "$SIDE_DIR/key")" = "$key" ] && [ -s "$SIDE_DIR/results" ]; then
			tap_ok "$label: reusing the build and test results of $(date -r "$SIDE_DIR/key" '+%F %T') (same source, liburcu, compiler and $consumer.sh; URCU_CONSUMERS_FRESH=1 redoes them)"
			built[$side]=1
			check_side "$side" "$tree"
			return
		fi
	fi
	rm -rf "$SIDE_DIR"
	mkdir -p "$SIDE_DIR"
	cp -a "$pristine" "$tree"
	if ! (cd "$tree" && c_configure) >"$SIDE_DIR/configure.log" 2>&1; then
		build_errors "$SIDE_DIR/configure.log" | diag
		tap_not_ok "$label: configure failed (log: $SIDE_DIR/configure.log)"
		built[$side]=0
		return
	fi
	if ! (cd "$tree" && c_build) >"$SIDE_DIR/build.log" 2>&1; then
		build_errors "$SIDE_DIR/build.log" | diag
		tap_not_ok "$label: build failed (log: $SIDE_DIR/build.log)"
		built[$side]=0
		return
	fi
	tap_ok "$label: built in $((SECONDS - t0)) s"
	built[$side]=1
	warnings_summary "$SIDE_DIR/build.log" >"$SIDE_DIR/summary"
	check_side "$side" "$tree"
	t0=$SECONDS
	: >"$SIDE_DIR/results"
	(cd "$tree" && c_test "$SIDE_DIR/results") >"$SIDE_DIR/test.log" 2>&1 || true
	echo "# $side: tests ran in $((SECONDS - t0)) s (log: $SIDE_DIR/test.log)"
	[ -z "$key" ] || echo "$key" >"$SIDE_DIR/key"
}
# The compiler's warnings in a build log: how many, how many located in a
# urcu header (the header's own line, or a macro of it expanded in the
# consumer's code), and the most frequent of those.
warnings_summary() {
	local log="$1" all urcu
	all="$(grep -c ': warning: ' "$log" || true)"
	urcu="$({ grep -E ': warning: |: note: in (definition|expansion) of macro' "$log" || true; } |
		awk '/: warning: / { if (w != "" && u) n++; w = $0; u = ($0 ~ /\/urcu[^ :]*\.h:/) ; next }
		     { if ($0 ~ /\/urcu[^ :]*\.h:/) u = 1 }
		     END { if (w != "" && u) n++; print n + 0 }')"
	echo "summary: compiler warnings: $all, of which located in urcu headers: $urcu"
	{ grep -E '/urcu[^ :]*\.h:[0-9]+(:[0-9]+)?: warning: ' "$log" || true; } | sed -E 's|^.*/(urcu[^ :]*\.h:)|\1|' |
		sort | uniq -c | sort -rn | head -n 3 | sed -E 's/^ *([0-9]+) (.*)/summary:   \1x \2/'
}

# The "summary: ..." lines of the build (warnings) and of c_test (finer
# counts: TAP cases, cmocka cases), side by side at the end.
summaries() {
	local f
	for f in "$work/$1/summary" "$work/$1/test.log"; do
		[ -f "$f" ] && sed -n 's/^summary: //p' "$f"
	done
	return 0
}

# The built tree links the side's libraries and read the side's headers.
check_side() {
	local side="$1" tree="$2" out rc=0
	out="$(check_linkage "$side" "$tree" 2>&1)" || rc=1
	if [ $rc = 0 ]; then
		echo "$out" | diag
		tap_ok "$SRCPKG ($side) links the $side liburcu"
	else
		echo "$out" | diag
		tap_not_ok "$SRCPKG ($side) does not link the $side liburcu"
	fi
	rc=0
	out="$(check_headers "$tree" 2>&1)" || rc=$?
	case $rc in
	0) tap_ok "$SRCPKG ($side) compiled with its own urcu headers: $out";;
	2) tap_ok "$SRCPKG ($side) urcu headers: $out (the build writes no dependency files; no urcu headers exist outside the two roots)";;
	*) echo "$out" | diag; tap_not_ok "$SRCPKG ($side) read urcu headers from elsewhere";;
	esac
}

run_side ref
[ "${built[ref]}" = 1 ] || bail "the reference build (Debian's liburcu) failed: the comparison needs it"
run_side ours

# --- Compare -----------------------------------------------------------------
count() { awk -F'\t' -v r="$2" '$2 == r' "$1" | wc -l; }
ref_res="$work/ref/results"
ours_res="$work/ours/results"
[ -f "$ours_res" ] || : >"$ours_res"
ref_pass=$(count "$ref_res" pass); ref_fail=$(count "$ref_res" fail); ref_skip=$(count "$ref_res" skip)
ours_pass=$(count "$ours_res" pass); ours_fail=$(count "$ours_res" fail); ours_skip=$(count "$ours_res" skip)
total=$(cut -f1 "$ref_res" "$ours_res" | sort -u | wc -l)
[ "$total" -gt 0 ] || bail "the reference ran no tests (log: $work/ref/test.log)"

result_of() { awk -F'\t' -v n="$2" '$1 == n {print $2; exit}' "$1"; }
log_of() { awk -F'\t' -v n="$2" '$1 == n {print $3; exit}' "$1"; }
regressions=()
while IFS= read -r name; do
	r="$(result_of "$ref_res" "$name")"; o="$(result_of "$ours_res" "$name")"
	r="${r:-absent}"; o="${o:-absent}"
	if [ "$r" = pass ] && [ "$o" != pass ]; then
		regressions+=("$name")
		log="$(log_of "$ours_res" "$name")"
		if [ -n "$log" ] && [ "$log" != - ]; then log_excerpt "$log" | diag; fi
		tap_not_ok "$SRCPKG test $name: liburcu $r, ours $o${log:+ (log: $log)}"
	else
		note=""
		[ "$r" != "$o" ] && note=" (differs)"
		tap_ok "$SRCPKG test $name: liburcu $r, ours $o$note"
	fi
done < <(cut -f1 "$ref_res" "$ours_res" | awk '!seen[$0]++')

printf '# %-32s %-16s %8s %8s %8s\n' consumer side passed failed skipped
printf '# %-32s %-16s %8s %8s %8s\n' "$SRCPKG $version" "liburcu $ref_version" "$ref_pass" "$ref_fail" "$ref_skip"
printf '# %-32s %-16s %8s %8s %8s\n' "$SRCPKG $version" "ours $ours_version" "$ours_pass" "$ours_fail" "$ours_skip"
summaries ref | sed "s/^/# liburcu $ref_version: /"
summaries ours | sed "s/^/# ours $ours_version: /"
if [ "${built[ours]}" = 1 ] && [ ${#regressions[@]} -eq 0 ] && [ "$ours_pass" -ge "$ref_pass" ]; then
	tap_ok "$SRCPKG: ours passes $ours_pass/$total, liburcu $ref_pass/$total: every test liburcu passes passes against ours"
else
	tap_not_ok "$SRCPKG: ours passes $ours_pass/$total, liburcu $ref_pass/$total; ${#regressions[@]} pass against liburcu only${regressions[*]:+: ${regressions[*]}}"
fi
echo "# total time $((SECONDS - start_time)) s; trees and logs in $work"
finish
