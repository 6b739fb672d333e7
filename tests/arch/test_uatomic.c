// SPDX-License-Identifier: MIT
/*
 * Single-threaded semantics of every uatomic operation on 1, 2, 4 and 8-byte
 * integers (signed and unsigned) and on pointers: values stored, values
 * returned, cmpxchg success and failure, the _mo forms with every memory
 * order, the optional-order spellings, and volatile-qualified targets.
 *
 * Built twice: with the architecture files and with URCU_ARCH_FORCE_GENERIC
 * (the C11 fallback), see meson.build.
 */
#include <stdint.h>
#include <string.h>
#include <urcu/uatomic.h>
#include "tap.h"

#ifdef URCU_ARCH_FORCE_GENERIC
#define VARIANT "generic"
#else
#define VARIANT "arch"
#endif

/*
 * One battery of checks for an integer type T.  Values are chosen so that a
 * wrong operand width (e.g. a 4-byte operation on an 8-byte word) or a sign
 * error changes the result.
 */
#define CHECK_INT_TYPE(T, name, big)					\
	do {								\
		T v = 0;						\
		volatile T vv = 0;					\
		T r;							\
		int ok;							\
									\
		uatomic_set(&v, (T) 5);					\
		tap_ok(uatomic_read(&v) == 5 && v == 5,			\
			"%s set/read", name);				\
		uatomic_store(&v, (T) (big), CMM_RELEASE);		\
		tap_ok(uatomic_load(&v, CMM_ACQUIRE) == (T) (big),	\
			"%s store/load big value", name);		\
		uatomic_store(&v, (T) 7);				\
		tap_ok(uatomic_load(&v) == 7,				\
			"%s store/load without order", name);		\
		uatomic_add(&v, 3);					\
		tap_ok(v == 10, "%s add", name);			\
		uatomic_sub(&v, 4);					\
		tap_ok(v == 6, "%s sub", name);				\
		uatomic_inc(&v);					\
		uatomic_inc(&v);					\
		uatomic_dec(&v);					\
		tap_ok(v == 7, "%s inc/inc/dec", name);			\
		uatomic_and(&v, 0x5);					\
		tap_ok(v == 5, "%s and", name);				\
		uatomic_or(&v, 0x8);					\
		tap_ok(v == 13, "%s or", name);				\
		r = uatomic_add_return(&v, 2);				\
		tap_ok(r == 15 && v == 15, "%s add_return", name);	\
		r = uatomic_sub_return(&v, 5);				\
		tap_ok(r == 10 && v == 10, "%s sub_return", name);	\
		r = uatomic_xchg(&v, (T) 42);				\
		tap_ok(r == 10 && v == 42, "%s xchg", name);		\
		r = uatomic_cmpxchg(&v, (T) 42, (T) 43);		\
		tap_ok(r == 42 && v == 43, "%s cmpxchg success", name);	\
		r = uatomic_cmpxchg(&v, (T) 42, (T) 44);		\
		tap_ok(r == 43 && v == 43, "%s cmpxchg failure", name);	\
		/* wrap-around and the top bit */			\
		uatomic_set(&v, (T) 0);					\
		uatomic_dec(&v);					\
		tap_ok(v == (T) -1, "%s dec wraps to all ones", name);	\
		r = uatomic_add_return(&v, 1);				\
		tap_ok(r == 0 && v == 0, "%s add_return wraps to 0", name); \
		uatomic_set(&v, (T) (big));				\
		r = uatomic_cmpxchg(&v, (T) (big), (T) ~(T) (big));	\
		tap_ok(r == (T) (big) && v == (T) ~(T) (big),		\
			"%s cmpxchg on high bits", name);		\
		/* _mo forms, every order that is valid for each */	\
		uatomic_set(&v, (T) 1);					\
		uatomic_add_mo(&v, 1, CMM_RELAXED);			\
		uatomic_sub_mo(&v, 1, CMM_RELEASE);			\
		uatomic_inc_mo(&v, CMM_ACQ_REL);			\
		uatomic_dec_mo(&v, CMM_SEQ_CST);			\
		uatomic_or_mo(&v, 6, CMM_SEQ_CST_FENCE);		\
		uatomic_and_mo(&v, 3, CMM_ACQUIRE);			\
		tap_ok(v == 3, "%s void _mo forms", name);		\
		ok = uatomic_add_return_mo(&v, 4, CMM_RELAXED) == 7;	\
		ok &= uatomic_sub_return_mo(&v, 2, CMM_ACQ_REL) == 5;	\
		ok &= uatomic_add_return(&v, 1, CMM_SEQ_CST_FENCE) == 6; \
		ok &= uatomic_sub_return(&v, 1, CMM_RELEASE) == 5;	\
		ok &= v == 5;						\
		tap_ok(ok, "%s add/sub_return _mo forms", name);	\
		ok = uatomic_xchg_mo(&v, (T) 9, CMM_ACQUIRE) == 5;	\
		ok &= uatomic_xchg(&v, (T) 8, CMM_RELAXED) == 9;	\
		ok &= uatomic_xchg_mo(&v, (T) 7, CMM_SEQ_CST_FENCE) == 8; \
		ok &= v == 7;						\
		tap_ok(ok, "%s xchg _mo forms", name);			\
		ok = uatomic_cmpxchg_mo(&v, (T) 7, (T) 6,		\
			CMM_ACQ_REL, CMM_ACQUIRE) == 7;			\
		ok &= uatomic_cmpxchg_mo(&v, (T) 7, (T) 5,		\
			CMM_RELEASE, CMM_RELAXED) == 6;			\
		ok &= uatomic_cmpxchg(&v, (T) 6, (T) 4,			\
			CMM_SEQ_CST_FENCE, CMM_SEQ_CST_FENCE) == 6;	\
		ok &= uatomic_cmpxchg_mo(&v, (T) 4, (T) 3,		\
			CMM_RELAXED, CMM_RELAXED) == 4;			\
		ok &= v == 3;						\
		tap_ok(ok, "%s cmpxchg _mo forms", name);		\
		ok = uatomic_load_mo(&v, CMM_SEQ_CST_FENCE) == 3;	\
		uatomic_store_mo(&v, (T) 2, CMM_SEQ_CST_FENCE);		\
		ok &= uatomic_load(&v, CMM_CONSUME) == 2;		\
		uatomic_store(&v, (T) 1, CMM_SEQ_CST);			\
		ok &= uatomic_load(&v, CMM_SEQ_CST) == 1;		\
		tap_ok(ok, "%s load/store _mo forms", name);		\
		/* volatile-qualified targets */			\
		uatomic_set(&vv, (T) 3);				\
		uatomic_inc(&vv);					\
		ok = uatomic_cmpxchg(&vv, (T) 4, (T) 11) == 4;		\
		ok &= uatomic_xchg(&vv, (T) 12) == 11;			\
		ok &= uatomic_add_return(&vv, 1) == 13;			\
		ok &= uatomic_read(&vv) == 13;				\
		tap_ok(ok, "%s on a volatile object", name);		\
	} while (0)

/* Neighbours of the target must not be touched by a narrow operation. */
static void check_no_spill(void)
{
	union {
		uint64_t whole;
		uint8_t b[8];
		uint16_t h[4];
		uint32_t w[2];
	} u;
	/* 0x80 in the word's first byte, b[0], on either endianness (s390x). */
	const uint8_t first[4] = { 0x80, 0, 0, 0 };
	uint32_t mask;
	int ok;

	memcpy(&mask, first, sizeof(mask));
	u.whole = 0;
	uatomic_dec(&u.b[3]);
	uatomic_add(&u.h[2], 0x1234);
	uatomic_xchg(&u.w[0], uatomic_read(&u.w[0]) | mask);
	ok = u.b[3] == 0xff && u.h[2] == 0x1234 && u.b[0] == 0x80
		&& u.b[1] == 0 && u.b[2] == 0 && u.b[7] == 0 && u.b[6] == 0;
	tap_ok(ok, "narrow operations leave neighbouring bytes alone");
}

struct node {
	int a;
	int b;
};

static void check_pointers(void)
{
	struct node n1 = { 1, 2 }, n2 = { 3, 4 }, n3 = { 5, 6 };
	struct node *p = NULL, *r;
	struct node *volatile vp = &n1;
	char buf[16];
	char *cp = buf;
	int ok;

	uatomic_set(&p, &n1);
	tap_ok(uatomic_read(&p) == &n1, "pointer set/read");
	uatomic_store(&p, &n2, CMM_RELEASE);
	r = uatomic_load(&p, CMM_ACQUIRE);
	tap_ok(r == &n2 && r->b == 4, "pointer store/load");
	r = uatomic_xchg(&p, &n3);
	tap_ok(r == &n2 && p == &n3, "pointer xchg");
	r = uatomic_cmpxchg(&p, &n3, &n1);
	tap_ok(r == &n3 && p == &n1, "pointer cmpxchg success");
	r = uatomic_cmpxchg(&p, &n3, &n2);
	tap_ok(r == &n1 && p == &n1, "pointer cmpxchg failure");
	r = uatomic_cmpxchg_mo(&p, &n1, NULL, CMM_ACQ_REL, CMM_ACQUIRE);
	tap_ok(r == &n1 && p == NULL, "pointer cmpxchg to NULL");
	r = uatomic_xchg_mo(&vp, &n2, CMM_SEQ_CST);
	tap_ok(r == &n1 && vp == &n2, "volatile pointer xchg");
	/* liburcu's add on a pointer moves the address by bytes */
	uatomic_add(&cp, 3);
	uatomic_inc(&cp);
	ok = cp == buf + 4;
	ok &= uatomic_add_return(&cp, 2) == buf + 6;
	ok &= uatomic_sub_return(&cp, 6) == buf;
	tap_ok(ok, "pointer add/inc/add_return/sub_return (bytes)");
}

/* Arguments are evaluated once, even the ones macros reuse. */
static void check_single_evaluation(void)
{
	long arr[3] = { 10, 20, 30 };
	int i = 0, calls = 0;
	long r;

	r = uatomic_add_return(&arr[i++], (calls++, 5));
	tap_ok(r == 15 && i == 1 && calls == 1 && arr[0] == 15,
		"add_return evaluates its arguments once");
	r = uatomic_cmpxchg(&arr[i++], (calls++, 20L), (calls++, 21L));
	tap_ok(r == 20 && i == 2 && calls == 3 && arr[1] == 21,
		"cmpxchg evaluates its arguments once");
	uatomic_inc(&arr[i++]);
	tap_ok(i == 3 && arr[2] == 31, "inc evaluates its argument once");
}

/* Nested uatomic expressions (a read as an operand of another op). */
static void check_nesting(void)
{
	unsigned long a = 3, b = 4;

	uatomic_set(&a, uatomic_read(&b) + uatomic_add_return(&b, 1));
	tap_ok(a == 9 && b == 5, "nested uatomic expressions");
	tap_ok(uatomic_cmpxchg(&a, uatomic_read(&a),
			uatomic_xchg(&b, 0UL)) == 9 && a == 5 && b == 0,
		"cmpxchg with uatomic operands");
}

static void check_barriers_compile(void)
{
	int x = 0;

	/* All of these must be statements usable anywhere. */
	cmm_barrier();
	cmm_mb(); cmm_rmb(); cmm_wmb();
	cmm_smp_mb(); cmm_smp_rmb(); cmm_smp_wmb();
	cmm_mc(); cmm_rmc(); cmm_wmc();
	cmm_smp_mc(); cmm_smp_rmc(); cmm_smp_wmc();
	cmm_read_barrier_depends(); cmm_smp_read_barrier_depends();
	cmm_smp_mb__before_uatomic_add(); uatomic_add(&x, 1); cmm_smp_mb__after_uatomic_add();
	cmm_smp_mb__before_uatomic_sub(); uatomic_sub(&x, 1); cmm_smp_mb__after_uatomic_sub();
	cmm_smp_mb__before_uatomic_inc(); uatomic_inc(&x); cmm_smp_mb__after_uatomic_inc();
	cmm_smp_mb__before_uatomic_dec(); uatomic_dec(&x); cmm_smp_mb__after_uatomic_dec();
	cmm_smp_mb__before_uatomic_and(); uatomic_and(&x, 0); cmm_smp_mb__after_uatomic_and();
	cmm_smp_mb__before_uatomic_or(); uatomic_or(&x, 2); cmm_smp_mb__after_uatomic_or();
	caa_cpu_relax();
	tap_ok(x == 2, "every barrier macro is a statement");
}

int main(void)
{
	tap_diag("uatomic semantics, %s implementation", VARIANT);
	CHECK_INT_TYPE(int8_t, "int8", 0x7f);
	CHECK_INT_TYPE(uint8_t, "uint8", 0xa5);
	CHECK_INT_TYPE(int16_t, "int16", 0x7abc);
	CHECK_INT_TYPE(uint16_t, "uint16", 0xabcd);
	CHECK_INT_TYPE(int32_t, "int32", 0x7abcdef0);
	CHECK_INT_TYPE(uint32_t, "uint32", 0xabcdef01u);
	CHECK_INT_TYPE(int64_t, "int64", INT64_C(0x7abcdef012345678));
	CHECK_INT_TYPE(uint64_t, "uint64", UINT64_C(0xabcdef0123456789));
	CHECK_INT_TYPE(unsigned long, "ulong", (unsigned long) -3L);
	CHECK_INT_TYPE(long, "long", (long) 0x12345678L);
	check_no_spill();
	check_pointers();
	check_single_evaluation();
	check_nesting();
	check_barriers_compile();
	return tap_done();
}
