// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic.h>: type-generic atomic operations on 1, 2, 4 and 8-byte
 * integers and on pointers, in liburcu's vocabulary.
 *
 * Ordering contract (liburcu's):
 *   uatomic_read, uatomic_set           relaxed: atomic, no ordering
 *   uatomic_load(addr, mo)              atomic load with memory order mo
 *   uatomic_store(addr, v, mo)          atomic store with memory order mo
 *   uatomic_add/sub/inc/dec/and/or      relaxed read-modify-write, no result;
 *                                       order them with
 *                                       cmm_smp_mb__{before,after}_uatomic_<op>()
 *   uatomic_xchg, uatomic_cmpxchg,      FULL barriers: every access before
 *   uatomic_add_return,                 the call is ordered before every
 *   uatomic_sub_return                  access after it, as cmm_smp_mb()
 *   <op>_mo(..., mo)                    the same operation with order mo
 *
 * Memory orders (enum cmm_memorder) are C11's, plus CMM_SEQ_CST_FENCE: a
 * sequentially consistent access that is also a full memory barrier for
 * the surrounding plain and relaxed accesses (C11 seq_cst alone orders only
 * against other seq_cst operations).  The full-barrier operations above are
 * the CMM_SEQ_CST_FENCE forms.
 *
 * Return values: xchg returns the previous value; cmpxchg(addr, old, new)
 * returns the value it found (equal to old exactly when it stored new);
 * add_return/sub_return return the new value.  On pointers, add/sub work
 * on the address in bytes.
 *
 * Layering as in <urcu/arch.h>: urcu/uatomic/<arch>.h, then
 * urcu/uatomic/generic.h for whatever is left (URCU_ARCH_FORCE_GENERIC
 * skips the architecture file).
 */
#ifndef URCU_UATOMIC_H
#define URCU_UATOMIC_H

#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/system.h>

/* The values of the C11 orders are the compiler's, so they pass through. */
enum cmm_memorder {
	CMM_RELAXED = __ATOMIC_RELAXED,
	CMM_CONSUME = __ATOMIC_CONSUME,
	CMM_ACQUIRE = __ATOMIC_ACQUIRE,
	CMM_RELEASE = __ATOMIC_RELEASE,
	CMM_ACQ_REL = __ATOMIC_ACQ_REL,
	CMM_SEQ_CST = __ATOMIC_SEQ_CST,
	CMM_SEQ_CST_FENCE,
};

#if !defined(URCU_ARCH_FORCE_GENERIC) && defined(URCU_ARCH_X86)
#include <urcu/uatomic/x86.h>
#endif

#ifdef URCU_I_TSAN
/*
 * ThreadSanitizer builds only: a locked instruction's full barrier is as
 * invisible to TSan as a fence, so the full-barrier forms and the
 * cmm_smp_mb__{before,after}_uatomic_* get the explicit fences of the
 * generic file, which urcu/arch.h turns into accesses TSan models.
 */
# undef URCU_I_UATOMIC_RMW_FULL_BARRIER
# undef URCU_I_UATOMIC_STORE_FULL_BARRIER
# undef cmm_smp_mb__before_uatomic_add
# undef cmm_smp_mb__after_uatomic_add
# undef cmm_smp_mb__before_uatomic_sub
# undef cmm_smp_mb__after_uatomic_sub
# undef cmm_smp_mb__before_uatomic_inc
# undef cmm_smp_mb__after_uatomic_inc
# undef cmm_smp_mb__before_uatomic_dec
# undef cmm_smp_mb__after_uatomic_dec
# undef cmm_smp_mb__before_uatomic_and
# undef cmm_smp_mb__after_uatomic_and
# undef cmm_smp_mb__before_uatomic_or
# undef cmm_smp_mb__after_uatomic_or
#endif

#include <urcu/uatomic/generic.h>

#ifdef URCU_I_TSAN
/*
 * ThreadSanitizer builds only: TSan cannot pair a fence with the relaxed
 * access next to it (C11's fence-to-atomic synchronisation, which the
 * library uses throughout: "fence; relaxed store" read by an acquire load,
 * as in wfcqueue's enqueue), so every uatomic access takes the strongest
 * order (seq_cst: acquire for loads, release for stores, both for
 * read-modify-writes).  TSan then checks every plain access and every
 * object lifetime against the library's synchronisation, but not the
 * memory orders of the atomics themselves: that is tests/model's job
 * (docs/VERIFICATION.md).  Applies to the macros expanded after this point.
 */
# undef urcu_i_mo_c11
# undef urcu_i_mo_c11_fail
# undef uatomic_read
# undef uatomic_set
# define urcu_i_mo_c11(mo)		__ATOMIC_SEQ_CST
# define urcu_i_mo_c11_fail(mo)		__ATOMIC_SEQ_CST
# define uatomic_read(addr)		__atomic_load_n((addr), __ATOMIC_SEQ_CST)
# define uatomic_set(addr, v)					\
	((void) __atomic_store_n((addr), (v), __ATOMIC_SEQ_CST))
#endif

#endif /* URCU_UATOMIC_H */
