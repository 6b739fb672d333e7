// SPDX-License-Identifier: MIT
/*
 * x86 (x86-64, i386) facts used by urcu/uatomic/generic.h.  Included by
 * <urcu/uatomic.h>.  A program that includes this file directly gets
 * <urcu/uatomic.h> whole, as with liburcu's file: the include below comes
 * before the guard, so <urcu/uatomic.h> includes this file, then the
 * generic operations.  Under URCU_ARCH_FORCE_GENERIC that is all it gets.
 *
 * Every read-modify-write the compiler emits on x86 carries the lock prefix
 * (lock xadd, lock cmpxchg, xchg, lock add/and/or), whatever the memory
 * order asked for, and a locked instruction is a full barrier.  The
 * operations themselves are the generic __atomic builtins: they produce the
 * same instructions a hand-written asm would.
 */
#include <urcu/uatomic.h>

#ifndef URCU_ARCH_X86
#error "urcu/uatomic/x86.h is for x86; include <urcu/uatomic.h>"
#elif !defined(URCU_UATOMIC_X86_H) && !defined(URCU_ARCH_FORCE_GENERIC)
#define URCU_UATOMIC_X86_H

#include <urcu/arch.h>	/* as liburcu's uatomic/x86.h */
#include <urcu/compiler.h>

/*
 * Every operation works on 1- and 2-byte integers too (lock-prefixed byte
 * and word instructions); liburcu's names for that, which programs test
 * before using uatomic on char and short.
 */
#define UATOMIC_HAS_ATOMIC_BYTE		1
#define UATOMIC_HAS_ATOMIC_SHORT	1

/*
 * A seq_cst read-modify-write is already a full barrier here: the
 * CMM_SEQ_CST_FENCE forms (xchg, cmpxchg, add_return, ...) need nothing more.
 */
#define URCU_I_UATOMIC_RMW_FULL_BARRIER 1

/*
 * A seq_cst store is compiled as xchg (or mov; mfence): the hardware barrier
 * is there, only the compiler must still be kept from hoisting later
 * accesses above it.
 */
#define URCU_I_UATOMIC_STORE_FULL_BARRIER 1

/*
 * The relaxed add/sub/inc/dec/and/or are locked instructions, so the
 * hardware already orders them as full barriers; stopping the compiler from
 * moving accesses across them is all that is left to do.
 */
#define cmm_smp_mb__before_uatomic_add()	cmm_barrier()
#define cmm_smp_mb__after_uatomic_add()		cmm_barrier()
#define cmm_smp_mb__before_uatomic_sub()	cmm_barrier()
#define cmm_smp_mb__after_uatomic_sub()		cmm_barrier()
#define cmm_smp_mb__before_uatomic_inc()	cmm_barrier()
#define cmm_smp_mb__after_uatomic_inc()		cmm_barrier()
#define cmm_smp_mb__before_uatomic_dec()	cmm_barrier()
#define cmm_smp_mb__after_uatomic_dec()		cmm_barrier()
#define cmm_smp_mb__before_uatomic_and()	cmm_barrier()
#define cmm_smp_mb__after_uatomic_and()		cmm_barrier()
#define cmm_smp_mb__before_uatomic_or()		cmm_barrier()
#define cmm_smp_mb__after_uatomic_or()		cmm_barrier()

#endif /* URCU_UATOMIC_X86_H */
