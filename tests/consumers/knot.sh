# SPDX-License-Identifier: MIT
# Knot DNS (Debian source package knot): the server (knotd, libknotd) reads
# its configuration, zone database and modules under rcu_read_lock (memb
# flavor) and swaps them with rcu_xchg_pointer/synchronize_rcu; the unit
# tests (`make check`, C TAP harness tests/tap/runtests) cover the daemon
# library, libknot, libdnssec, libzscanner and contrib.
# Sourced by run-consumer.sh.

SRCPKG=knot
# Build-Depends of knot 3.2.6 that this configuration needs (the others
# feed options disabled below: XDP, QUIC, dnstap, systemd, maxminddb,
# libcap-ng, IDN, DoH, the documentation and the Python bindings).
DEPS=(libgnutls28-dev libedit-dev liblmdb-dev)

c_configure() {
	# knot's configure takes liburcu from pkg-config (PKG_CHECK_MODULES
	# liburcu); the rpath pins the side's library for the libtool-run
	# tests, whose wrappers prepend their own LD_LIBRARY_PATH.
	./configure \
		--disable-documentation --disable-fastparser --disable-static \
		--enable-xdp=no --enable-quic=no --enable-systemd=no \
		--enable-maxminddb=no --enable-cap-ng=no \
		--without-libidn --without-libnghttp2 \
		CFLAGS="-O2 -g0" LDFLAGS="-Wl,-rpath,$URCU_LIBDIR"
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
	grep -E '^(All tests successful|Failed [0-9]|Aborted|Killed|Files=)' "$SIDE_DIR/check.log" || true
}
