# SPDX-License-Identifier: MIT
# Knot DNS (Debian source package knot): the server (knotd, libknotd) reads
# its configuration, zone database and modules under rcu_read_lock (memb
# flavor) and swaps them with rcu_xchg_pointer/synchronize_rcu; the unit
# tests (`make check`, C TAP harness tests/tap/runtests) cover the daemon
# library, libknot, libdnssec, libzscanner and contrib; then a functional
# run of knotd (serve, query, reload, stop) on 127.0.0.1.
# Sourced by run-consumer.sh.

SRCPKG=knot
# Build-Depends of knot 3.2.6 that this configuration needs (the others
# feed options disabled below: XDP, QUIC, dnstap, systemd, maxminddb,
# libcap-ng, IDN, DoH, the documentation and the Python bindings).
DEPS=(libgnutls28-dev libedit-dev liblmdb-dev)

c_configure() {
	# knot's configure takes liburcu from pkg-config (PKG_CHECK_MODULES
	# liburcu); the RPATH in URCU_LDFLAGS pins the side's library for the
	# libtool-run tests, whose wrappers prepend their own LD_LIBRARY_PATH.
	./configure \
		--disable-documentation --disable-fastparser --disable-static \
		--enable-xdp=no --enable-quic=no --enable-systemd=no \
		--enable-maxminddb=no --enable-cap-ng=no \
		--without-libidn --without-libnghttp2 \
		CFLAGS="-O2 -g0" LDFLAGS="$URCU_LDFLAGS"
	grep -E '^liburcu_(CFLAGS|LIBS) =' Makefile
}

c_build() {
	make -j"$JOBS"
	make -j"$JOBS" -C tests check-compile
}

c_binaries() {
	local f
	for f in src/.libs/knotd src/.libs/knotc ; do
		[ -f "$f" ] && echo "$f"
	done
	[ -f src/.libs/knotd ] || echo src/.libs/knotd
}

c_test() {
	local results="$1" name res log logdir="$SIDE_DIR/tests"
	mkdir -p "$logdir"
	# Knot's own `make check`: tests/tap/runtests over every check program.
	make -k check >"$SIDE_DIR/check.log" 2>&1 || true
	cat "$SIDE_DIR/check.log"
	# runtests prints "name.....ok", "....ok (skipped N tests)", "....skipped
	# (reason)", or FAILED/MISSED/ABORTED/dubious with a status or signal.
	sed -n -E 's/^([A-Za-z0-9_./+-]+[A-Za-z0-9_])\.{2,}(ok.*|dubious.*|FAILED.*|MISSED.*|ABORTED.*|skipped.*)$/\1\t\2/p' \
		"$SIDE_DIR/check.log" |
	while IFS=$'\t' read -r name res; do
		case "$res" in
		ok*) echo -e "$name\tpass\t-" >>"$results";;
		skipped*) echo -e "$name\tskip\t-" >>"$results";;
		*)
			# runtests sends the test's stderr to /dev/null: run it alone
			# (runtests -o) to keep the whole output, abort messages included.
			log="$logdir/${name//\//_}.log"
			{
				echo "runtests: $res"
				(cd tests && timeout 600 ./tap/runtests -o -s . -b . "$name") 2>&1
				echo "exit status $?"
			} >"$log" 2>&1
			echo -e "$name\tfail\t$log" >>"$results"
			;;
		esac
	done
	grep -E '^(All tests successful|Failed [0-9]|Aborted|Killed|Files=)' "$SIDE_DIR/check.log" |
		sed 's/^/summary: runtests: /' || true
	knot_smoke "$results"
}

# knot_result RESULTS NAME OK LOG: record one step of the functional run.
knot_result() {
	if [ "$3" = 1 ]; then echo -e "$2\tpass\t$4" >>"$1"; else echo -e "$2\tfail\t$4" >>"$1"; fi
	echo "$2: $([ "$3" = 1 ] && echo pass || echo fail)"
}

knot_zone() {
	printf '%s\n' '$ORIGIN example.com.' '$TTL 3600' \
		"@ SOA ns1 hostmaster $2 3600 900 604800 86400" '@ NS ns1' \
		'ns1 A 192.0.2.1' "www A $3" >"$1/zones/example.com.zone"
}

# knot_answer PORT ADDRESS: the server answers www.example.com A with
# ADDRESS (within 10 s: zones load in the background).
knot_answer() {
	local i
	for i in $(seq 50); do
		src/kdig @127.0.0.1 -p "$1" www.example.com A +short +timeout=1 2>&1 | grep -q -x "$2" && return 0
		sleep 0.2
	done
	return 1
}

# A functional run of the server: knotd serves a zone on 127.0.0.1, kdig
# queries it, knotc reloads the zone and the whole configuration (the
# server swaps both under RCU) and stops it; knotd must exit 0 without a
# word from urcu.
knot_smoke() {
	local results="$1" dir="$SIDE_DIR/knotd" port log conf pid i ok rc
	mkdir -p "$dir/zones" "$dir/db" "$dir/run"
	port=$((20000 + RANDOM % 20000))
	conf="$dir/knot.conf"
	log="$dir/knotd.log"
	printf '%s\n' 'server:' "    rundir: \"$dir/run\"" "    listen: 127.0.0.1@$port" \
		'log:' '  - target: stderr' '    any: info' \
		'database:' "    storage: \"$dir/db\"" \
		'control:' "    listen: \"$dir/run/knot.sock\"" \
		'template:' '  - id: default' "    storage: \"$dir/zones\"" '    file: "%s.zone"' \
		'zone:' '  - domain: example.com' >"$conf"
	knot_zone "$dir" 1 192.0.2.80
	src/knotd -c "$conf" >"$log" 2>&1 &
	pid=$!
	ok=0
	for i in $(seq 100); do
		if src/knotc -c "$conf" status >>"$dir/knotc.log" 2>&1; then ok=1; break; fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	knot_result "$results" knotd-start "$ok" "$log"
	if [ "$ok" = 1 ]; then
		ok=0; knot_answer "$port" 192.0.2.80 && ok=1
		knot_result "$results" knotd-query "$ok" "$log"
		knot_zone "$dir" 2 192.0.2.81
		src/knotc -c "$conf" zone-reload example.com >>"$dir/knotc.log" 2>&1 || true
		ok=0; knot_answer "$port" 192.0.2.81 && ok=1
		knot_result "$results" knotd-zone-reload "$ok" "$log"
		ok=0
		src/knotc -c "$conf" reload >>"$dir/knotc.log" 2>&1 && knot_answer "$port" 192.0.2.81 && ok=1
		knot_result "$results" knotd-conf-reload "$ok" "$log"
		src/knotc -c "$conf" stop >>"$dir/knotc.log" 2>&1 || true
	fi
	for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
	kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
	rc=0
	wait "$pid" || rc=$?
	echo "knotd exit status $rc" >>"$log"
	ok=0
	if [ "$rc" = 0 ] && ! grep -q 'urcu' "$log"; then ok=1; fi
	knot_result "$results" knotd-stop "$ok" "$log"
}
