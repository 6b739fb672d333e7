// SPDX-License-Identifier: MIT
/*
 * uatomic on 1-, 2-, 4- and 8-byte integers, signed and unsigned: every
 * operation liburcu programs use, with its result checked, compiled with
 * -Wall -Wextra -Werror (meson.build).  The operands are chosen to overflow
 * any narrower type, so an implementation that switches on sizeof and
 * converts the operands for every branch (liburcu's x86 uatomic_cmpxchg on
 * an unsigned int) would trip -Woverflow here.  Built twice: with the
 * architecture file and with URCU_ARCH_FORCE_GENERIC.
 *
 * Single-threaded: this checks values and types, not atomicity (the arch
 * suite's threaded tests do that).
 */
#include <stdint.h>
#include <string.h>

#include <urcu/uatomic.h>

#include "tap.h"

/*
 * 1- and 2-byte operands only where <urcu/uatomic.h> says they are atomic
 * (the compiler makes them lock-free: x86, arm64, ppc64el, s390x, ...; not
 * riscv64 with gcc 12, which calls libatomic), as liburcu programs check.
 * x86 must have them.
 */
#if defined(UATOMIC_HAS_ATOMIC_BYTE) && defined(UATOMIC_HAS_ATOMIC_SHORT)
#define HAS_NARROW 1
#elif defined(__x86_64__) || defined(__i386__)
#error "UATOMIC_HAS_ATOMIC_BYTE and UATOMIC_HAS_ATOMIC_SHORT must be defined on x86"
#else
#define HAS_NARROW 0
#endif

/*
 * One type's worth of checks.  a and b are two values of type T with
 * a & b, a | b, a + b, a - b all distinct from a and b; name labels the lines.
 */
#define CHECK_TYPE(T, name, a, b)						\
	do {									\
		T v = (a);							\
		T r;								\
										\
		/* xchg returns the old value, stores the new. */		\
		r = uatomic_xchg(&v, (T) (b));					\
		tap_ok(r == (T) (a) && v == (T) (b), name " xchg");		\
		uatomic_set(&v, (T) (a));					\
		tap_ok(uatomic_read(&v) == (T) (a), name " set/read");		\
										\
		/* cmpxchg: returns what it found; stores only on a match. */	\
		r = uatomic_cmpxchg(&v, (T) (b), (T) (a));			\
		tap_ok(r == (T) (a) && v == (T) (a), name " cmpxchg mismatch");	\
		r = uatomic_cmpxchg(&v, (T) (a), (T) (b));			\
		tap_ok(r == (T) (a) && v == (T) (b), name " cmpxchg match");	\
										\
		/* add/sub and their _return forms, wrapping as T does. */	\
		v = (T) (a);							\
		uatomic_add(&v, (T) (b));					\
		tap_ok(v == (T) ((T) (a) + (T) (b)), name " add");		\
		uatomic_sub(&v, (T) (b));					\
		tap_ok(v == (T) (a), name " sub");				\
		r = uatomic_add_return(&v, (T) (b));				\
		tap_ok(r == (T) ((T) (a) + (T) (b)) && v == r,			\
		       name " add_return");					\
		r = uatomic_sub_return(&v, (T) (b));				\
		tap_ok(r == (T) (a) && v == r, name " sub_return");		\
										\
		/* inc/dec. */							\
		uatomic_inc(&v);						\
		tap_ok(v == (T) ((T) (a) + 1), name " inc");			\
		uatomic_dec(&v);						\
		uatomic_dec(&v);						\
		tap_ok(v == (T) ((T) (a) - 1), name " dec");			\
										\
		/* and/or. */							\
		v = (T) (a);							\
		uatomic_and(&v, (T) (b));					\
		tap_ok(v == (T) ((T) (a) & (T) (b)), name " and");		\
		v = (T) (a);							\
		uatomic_or(&v, (T) (b));					\
		tap_ok(v == (T) ((T) (a) | (T) (b)), name " or");		\
										\
		/* 0.15 memory-order forms. */					\
		uatomic_store(&v, (T) (b), CMM_RELEASE);			\
		tap_ok(uatomic_load(&v, CMM_ACQUIRE) == (T) (b),		\
		       name " store/load with order");				\
		r = uatomic_cmpxchg_mo(&v, (T) (b), (T) (a),			\
				       CMM_SEQ_CST, CMM_RELAXED);		\
		tap_ok(r == (T) (b) && v == (T) (a), name " cmpxchg_mo");	\
		r = uatomic_xchg_mo(&v, (T) (b), CMM_ACQ_REL);			\
		tap_ok(r == (T) (a) && v == (T) (b), name " xchg_mo");		\
		uatomic_add_mo(&v, 1, CMM_RELAXED);				\
		uatomic_inc_mo(&v, CMM_SEQ_CST_FENCE);				\
		uatomic_dec_mo(&v, CMM_RELAXED);				\
		tap_ok(v == (T) ((T) (b) + 1), name " add_mo/inc_mo/dec_mo");	\
		r = uatomic_add_return_mo(&v, 2, CMM_SEQ_CST);			\
		tap_ok(r == (T) ((T) (b) + 3), name " add_return_mo");		\
	} while (0)

#if HAS_NARROW
/* Neighbours in memory are untouched by a narrow operation. */
static void check_neighbours(void)
{
	union {
		uint64_t all;
		uint8_t b[8];
		uint16_t h[4];
	} u;

	u.all = 0;
	uatomic_add(&u.b[3], 0xff);
	uatomic_or(&u.h[2], 0xa5a5);
	tap_ok(u.b[0] == 0 && u.b[1] == 0 && u.b[2] == 0 && u.b[3] == 0xff
	       && u.h[2] == 0xa5a5 && u.h[3] == 0,
	       "1- and 2-byte operations leave the neighbouring bytes alone");
}
#endif

int main(void)
{
#if HAS_NARROW
	CHECK_TYPE(uint8_t, "uint8_t", 0xc3, 0x5a);
	CHECK_TYPE(int8_t, "int8_t", -61, 90);
	CHECK_TYPE(uint16_t, "uint16_t", 0xc3c3, 0x5a5a);
	CHECK_TYPE(int16_t, "int16_t", -15421, 23130);
#else
	tap_skip("1- and 2-byte operands: UATOMIC_HAS_ATOMIC_BYTE/SHORT not defined here "
		 "(the compiler's narrow atomics are not lock-free)");
#endif
	CHECK_TYPE(unsigned int, "unsigned int", 0xdeadbeefU, 0x12345678U);
	CHECK_TYPE(int, "int", -559038737, 305419896);
	CHECK_TYPE(uint64_t, "uint64_t", 0xfedcba9876543210ULL, 0x0123456789abcdefULL);
	CHECK_TYPE(int64_t, "int64_t", -81985529216486896LL, 81985529216486895LL);
	CHECK_TYPE(unsigned long, "unsigned long", ~0UL - 5, 7UL);

#if HAS_NARROW
	check_neighbours();
#endif
	return tap_done();
}
