# SPDX-License-Identifier: MIT
# multipath-tools (Debian source package multipath-tools): libmultipath
# publishes its configuration with rcu_assign_pointer and reads it under
# rcu_read_lock (get_multipath_config/put_multipath_config, memb flavor,
# from threads that may never have registered), multipathd registers its
# threads, frees with call_rcu and tears down with rcu_barrier; the path
# checkers use the uatomic API.  Tests: the project's own cmocka unit
# tests (`make test`, 18 programs) and `multipath -t` (parse and print the
# configuration: a functional run through the RCU-published config).
# Sourced by run-consumer.sh.

SRCPKG=multipath-tools
# Build-Depends of multipath-tools 0.9.4 this configuration needs, plus
# libcmocka-dev, which the unit tests need and the Debian package (which
# does not run them) does not list.  libjson-c-dev (libdmmp, off below),
# libsystemd-dev (optional) and systemd are left out.
DEPS=(libaio-dev libdevmapper-dev libedit-dev libudev-dev libcmocka-dev)

# multipath-tools' Makefiles take CPPFLAGS, CFLAGS and LDFLAGS from the
# environment and link -lurcu; libdmmp (no urcu) is not built, nor the
# systemd integration (SYSTEMD= : create-config.mk would enable it from
# `systemctl --version` even without libsystemd-dev).
# tests/Makefile passes these on unquoted (CFLAGS=$(ORIG_CFLAGS) $(MAKE)):
# each must be one word.  CFLAGS stays multipath-tools' own (-O2 -g).
mpt_make() {
	local cppflags
	cppflags="$(echo $URCU_CFLAGS)"
	case "$cppflags" in *" "*) echo "liburcu's cflags are not one word: $cppflags"; return 1;; esac
	CPPFLAGS="$cppflags" LDFLAGS="-Wl,-L$URCU_LIBDIR,--disable-new-dtags,-rpath,$URCU_LIBDIR" \
		make ENABLE_LIBDMMP=0 SYSTEMD= "$@"
}

c_configure() {
	mpt_make config.mk
	cat config.mk
}

c_build() {
	mpt_make -j"$JOBS" all
	mpt_make -j"$JOBS" test-progs
}

c_binaries() {
	echo libmultipath/libmultipath.so.0
	echo multipathd/multipathd
}

c_test() {
	local results="$1" tests t log rc
	mkdir -p "$SIDE_DIR/tests"
	tests="$(make -s -C tests -f Makefile -f - print-tests <<<'print-tests: ; @echo $(TESTS)')"
	echo "tests: $tests"
	# The project's own test target, one test at a time; -k: all of them.
	mpt_make -k -C tests all >"$SIDE_DIR/check.log" 2>&1 || true
	cat "$SIDE_DIR/check.log"
	for t in $tests; do
		log="$SIDE_DIR/tests/$t.log"
		if [ -f "tests/$t.out" ]; then cp "tests/$t.out" "$log"; else echo "tests/$t.out not produced" >"$log"; fi
		if grep -q -E "\\[Makefile:[0-9]+: $t(\\.out|-test)\\] Error" "$SIDE_DIR/check.log" ||
		   [ ! -f "tests/$t.out" ]; then
			echo -e "$t\tfail\t$log" >>"$results"
		else
			echo -e "$t\tpass\t$log" >>"$results"
		fi
	done
	echo "summary: cmocka test cases passed: $(cat tests/*.out 2>/dev/null | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s += $1} END {print s + 0}')"

	# multipath -t: read the (absent, so default) configuration and print it.
	log="$SIDE_DIR/tests/multipath-t.log"
	rc=0
	LD_LIBRARY_PATH="libmultipath:libmpathutil:libmpathcmd:libmpathpersist:$LD_LIBRARY_PATH" \
		timeout 60 multipath/multipath -t >"$log" 2>&1 || rc=$?
	echo "exit status $rc" >>"$log"
	if [ "$rc" = 0 ] && grep -q '^defaults {' "$log"; then
		echo -e "multipath-t\tpass\t$log" >>"$results"
	else
		echo -e "multipath-t\tfail\t$log" >>"$results"
	fi
}
