# SPDX-License-Identifier: MIT
# xfsprogs (Debian source package xfsprogs): libxfs is built with
# -D_LGPL_SOURCE (the inline memb read side), takes rcu_read_lock around its
# per-AG lookups, registers every worker thread (libfrog workqueue, repair's
# prefetch and progress threads, xfs_copy's writers) and uses the uatomic
# API for its atomics.  xfsprogs has no test suite of its own (that is
# xfstests, which needs mounts): the tests here are functional runs of the
# built tools on image files (truncate), no mount and no root-only step.
# Sourced by run-consumer.sh.

SRCPKG=xfsprogs
# Build-Depends of xfsprogs 6.1.0 this configuration needs (xfs_scrub, which
# needs a mount to run, gettext, editline and LTO are disabled).
DEPS=(libinih-dev uuid-dev libblkid-dev)

c_configure() {
	# xfsprogs looks for <urcu.h> (AC_CHECK_HEADERS) and links -lurcu; its
	# make uses CFLAGS and LDFLAGS from configure (not CPPFLAGS).  -MD: the
	# dependency files tell which urcu headers were read.
	./configure --enable-scrub=no --enable-gettext=no --enable-editline=no \
		--enable-lto=no --enable-blkid=yes \
		CPPFLAGS="$URCU_CFLAGS" CFLAGS="-O2 -g0 -MD $URCU_CFLAGS" LDFLAGS="$URCU_LDFLAGS"
	grep -E '^(LIBURCU|HAVE_LIBURCU_ATOMIC64) ' include/builddefs
}

c_build() {
	make -j"$JOBS" V=1
}

c_binaries() {
	echo mkfs/mkfs.xfs
	echo repair/xfs_repair
	echo db/xfs_db
	echo copy/xfs_copy
}

# A mkfs.xfs prototype file (mkfs.xfs(8), -p) describing the directory $1:
# directories and regular files with plain names, recursively.
xfs_proto() {
	echo /dev/null
	echo 0 0
	echo "d--755 0 0"
	xfs_proto_dir "$1" ""
	echo '$'
}
xfs_proto_dir() {
	local d="$1" indent="$2" f name
	for f in "$d"/*; do
		name="${f##*/}"
		[[ "$name" =~ ^[A-Za-z0-9._+-]+$ ]] || continue
		if [ -L "$f" ]; then
			continue
		elif [ -d "$f" ]; then
			echo "$indent$name d--755 0 0"
			xfs_proto_dir "$f" "$indent "
			echo "$indent\$"
		elif [ -f "$f" ]; then
			echo "$indent$name ---644 0 0 $f"
		fi
	done
}

# step NAME EXPECTED_STATUS COMMAND...: run one functional test; it passes
# when COMMAND exits with EXPECTED_STATUS (and, when XFS_EXPECT is set,
# its output matches that extended regular expression).
xfs_step() {
	local name="$1" want="$2" log="$SIDE_DIR/tests/$1.log" rc=0
	shift 2
	{ echo "+ $*"; timeout 900 "$@"; } >"$log" 2>&1 || rc=$?
	echo "exit status $rc (expected $want)" >>"$log"
	if [ "$rc" = "$want" ] && { [ -z "${XFS_EXPECT:-}" ] || grep -q -E "$XFS_EXPECT" "$log"; }; then
		echo -e "$name\tpass\t$log" >>"$XFS_RESULTS"
	else
		[ -n "${XFS_EXPECT:-}" ] && echo "expected output matching: $XFS_EXPECT" >>"$log"
		echo -e "$name\tfail\t$log" >>"$XFS_RESULTS"
	fi
	echo "$name: exit $rc (expected $want)"
	XFS_EXPECT=""
}

c_test() {
	XFS_RESULTS="$1"
	local tree bin img="$SIDE_DIR/img"
	tree="$(pwd)"
	bin="$SIDE_DIR/bin"
	mkdir -p "$SIDE_DIR/tests" "$bin" "$img"
	# The built tools first on PATH: xfs_admin and xfs_metadump are shell
	# scripts that run xfs_db and xfs_repair from PATH.
	ln -sf "$tree/mkfs/mkfs.xfs" "$tree/repair/xfs_repair" "$tree/db/xfs_db" \
		"$tree/copy/xfs_copy" "$tree/mdrestore/xfs_mdrestore" \
		"$tree/logprint/xfs_logprint" "$bin/"
	ln -sf "$tree/db/xfs_admin.sh" "$bin/xfs_admin"
	ln -sf "$tree/db/xfs_metadump.sh" "$bin/xfs_metadump"
	export PATH="$bin:$PATH"
	# The same files on both sides: the unpacked source (not this tree,
	# which holds this side's objects).
	xfs_proto "$SOURCE_TREE" >"$SIDE_DIR/proto"
	local uuid=5b1f4d0c-2c35-4f0e-9a86-0c0e0f5e7a11

	truncate -s 1G "$img/empty.img"
	XFS_EXPECT='^meta-data=' \
	xfs_step mkfs-empty 0 mkfs.xfs -f -m uuid=$uuid "$img/empty.img"
	xfs_step repair-n-empty 0 xfs_repair -n -f "$img/empty.img"
	XFS_EXPECT='magicnum = 0x58465342' \
	xfs_step db-sb-print 0 xfs_db -r -f -c 'sb 0' -c print "$img/empty.img"
	XFS_EXPECT="UUID = $uuid" \
	xfs_step admin-uuid 0 xfs_admin -f -u "$img/empty.img"
	# (on the log mkfs wrote: once xfs_repair or xfs_db -x have written the
	# image, xfs_logprint 6.1 reports "Log inconsistent" on either side)
	XFS_EXPECT='xfs_logprint: logical end of log' \
	xfs_step logprint 0 xfs_logprint -f -c "$img/empty.img"

	# A populated file system, written by mkfs from a prototype file.
	truncate -s 1G "$img/full.img"
	xfs_step mkfs-proto 0 mkfs.xfs -f -m uuid=$uuid -p "$SIDE_DIR/proto" "$img/full.img"
	xfs_step repair-n-proto 0 xfs_repair -n -f "$img/full.img"
	XFS_EXPECT='xfs_ag\.c' \
	xfs_step db-path-ls 0 xfs_db -r -f -c 'path /libxfs' -c ls "$img/full.img"
	XFS_EXPECT='libxfs/xfs_ag\.c' \
	xfs_step db-blockget-ncheck 0 xfs_db -r -f -c 'blockget -n' -c ncheck "$img/full.img"
	XFS_EXPECT='total free extents' \
	xfs_step db-freesp-frag 0 xfs_db -r -f -c 'freesp -s' -c frag "$img/full.img"
	xfs_step admin-label 0 xfs_admin -f -L consumers "$img/full.img"
	XFS_EXPECT='label = "consumers"' \
	xfs_step admin-label-read 0 xfs_admin -f -l "$img/full.img"

	# Copies: metadump/mdrestore (xfs_db) and xfs_copy (threaded writers).
	xfs_step metadump 0 xfs_metadump -f -o "$img/full.img" "$img/full.md"
	xfs_step mdrestore 0 xfs_mdrestore "$img/full.md" "$img/restored.img"
	xfs_step repair-n-restored 0 xfs_repair -n -f "$img/restored.img"
	xfs_step copy 0 xfs_copy "$img/full.img" "$img/copy.img"
	xfs_step repair-n-copy 0 xfs_repair -n -f "$img/copy.img"

	# Damage an AG header: the dry run must find it (status 1), the repair
	# fix it, and a second dry run find nothing.
	xfs_step db-corrupt-agf 0 xfs_db -x -f -c 'agf 1' -c 'write -d magicnum 0' "$img/full.img"
	xfs_step repair-n-detects 1 xfs_repair -n -f "$img/full.img"
	xfs_step repair-fixes 0 xfs_repair -f "$img/full.img"
	xfs_step repair-n-after-fix 0 xfs_repair -n -f "$img/full.img"

	# Many AGs, small blocks, rmap and reflink btrees; repair with one
	# thread per two AGs and the prefetch threads.
	truncate -s 2G "$img/many.img"
	xfs_step mkfs-16ag-rmap-reflink 0 mkfs.xfs -f -b size=1024 -d agcount=16 \
		-m rmapbt=1,reflink=1 -p "$SIDE_DIR/proto" "$img/many.img"
	xfs_step repair-ag-stride 0 xfs_repair -f -o ag_stride=2 "$img/many.img"
	xfs_step repair-n-many 0 xfs_repair -n -f "$img/many.img"
	rm -rf "$img"
}
