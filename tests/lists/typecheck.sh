#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The pointer primitives are type-checked: storing a struct foo * into a
# struct bar * slot, or reading one as the other, must not compile with
# -Werror.  Each case is a function body compiled at test time with the
# compiler the project uses; the "accepts" cases (same code with matching
# types) prove that a rejection comes from the type and not from a broken
# harness.  TAP output.
#
# usage: typecheck.sh c|c++ COMPILER [ARG...] -- CFLAGS...
#   e.g. typecheck.sh c cc -- -std=gnu11 -I... -I...

lang=$1
shift
cc=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	cc="$cc $1"
	shift
done
[ "$1" = "--" ] && shift
flags="$*"
if [ -z "$cc" ]; then
	echo "typecheck.sh: no compiler given" >&2
	exit 2
fi

case $lang in
c) ext=c ;;
c++) ext=cpp ;;
*) echo "typecheck.sh: language must be c or c++, not '$lang'" >&2; exit 2 ;;
esac

dir=$(mktemp -d "${TMPDIR:-/tmp}/urcu-typecheck.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT

n=0
failed=0

# case EXPECT NAME BODY [PRELUDE]: EXPECT is "accepts" or "rejects";
# PRELUDE goes before the #include.
case_() {
	n=$((n + 1))
	src="$dir/case$n.$ext"
	cat > "$src" <<EOF
${4:-}
#include <urcu/pointer.h>
struct foo { int a; };
struct bar { int b; struct bar *next; };
struct bar *bp;
struct bar *volatile vbp;
struct foo fobj;
struct bar bobj;
int fn(void);
int fn(void)
{
	$3
	return 0;
}
EOF
	# shellcheck disable=SC2086
	if $cc $flags -Werror -fsyntax-only "$src" > "$dir/log$n" 2>&1; then
		got=accepts
	else
		got=rejects
	fi
	if [ "$got" = "$1" ]; then
		echo "ok $n - $lang $1: $2"
	else
		echo "not ok $n - $lang $1: $2 (the compiler $got it)"
		sed 's/^/# /' "$dir/log$n" | head -n 20
		failed=$((failed + 1))
	fi
}

case_ accepts "rcu_assign_pointer of the right type and of NULL" \
	'rcu_assign_pointer(bp, &bobj); rcu_assign_pointer(bp, NULL);'
case_ accepts "rcu_set_pointer of the right type" \
	'rcu_set_pointer(&bp, &bobj);'
case_ accepts "rcu_xchg_pointer of the right type" \
	'struct bar *o = rcu_xchg_pointer(&bp, &bobj); (void) o;'
case_ accepts "rcu_cmpxchg_pointer of the right types" \
	'struct bar *o = rcu_cmpxchg_pointer(&bp, &bobj, NULL); (void) o;'
case_ accepts "rcu_dereference into the right type, and ->field" \
	'struct bar *p = rcu_dereference(bp); return p->b + rcu_dereference(bp)->b;'
case_ accepts "cmm_ptr_eq of the same type" \
	'return cmm_ptr_eq(bp, &bobj);'
qualified='const struct bar *c = &bobj; struct bar *o;
	o = rcu_dereference(c->next); o = rcu_dereference(vbp);
	o = rcu_xchg_pointer(&vbp, o); o = rcu_cmpxchg_pointer(&vbp, o, NULL);
	rcu_assign_pointer(vbp, o); return o != NULL;'
case_ accepts "qualified pointers (const holder, volatile slot), no warning" \
	"$qualified"
case_ accepts "the same with URCU_DEREFERENCE_USE_VOLATILE" \
	"$qualified" '#define URCU_DEREFERENCE_USE_VOLATILE'
case_ rejects "rcu_assign_pointer(struct bar *, struct foo *)" \
	'rcu_assign_pointer(bp, &fobj);'
case_ rejects "rcu_set_pointer(struct bar **, struct foo *)" \
	'rcu_set_pointer(&bp, &fobj);'
case_ rejects "rcu_xchg_pointer(struct bar **, struct foo *)" \
	'(void) rcu_xchg_pointer(&bp, &fobj);'
case_ rejects "rcu_cmpxchg_pointer with a struct foo * new value" \
	'(void) rcu_cmpxchg_pointer(&bp, &bobj, &fobj);'
case_ rejects "rcu_cmpxchg_pointer with a struct foo * old value" \
	'(void) rcu_cmpxchg_pointer(&bp, &fobj, &bobj);'
case_ rejects "rcu_dereference(struct bar *) into a struct foo *" \
	'struct foo *p = rcu_dereference(bp); (void) p;'
case_ rejects "rcu_assign_pointer of an integer" \
	'rcu_assign_pointer(bp, 42);'
case_ rejects "cmm_ptr_eq(struct bar *, struct foo *)" \
	'return cmm_ptr_eq(bp, &fobj);'

echo "1..$n"
[ "$failed" -eq 0 ]
