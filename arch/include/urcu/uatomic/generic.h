// SPDX-License-Identifier: MIT
/*
 * Generic uatomic operations on the GCC/clang __atomic builtins, which accept
 * any 1, 2, 4 or 8-byte integer or pointer type, in C and in C++.  Included
 * by <urcu/uatomic.h> after the architecture file; each name is defined
 * only if that file did not define it.  The contract of every operation is
 * in <urcu/uatomic.h>.
 *
 * Statement expressions are avoided where a plain expression will do, so
 * that uatomic calls nest inside one another's arguments freely.
 */
/*
 * Included on its own, go through the entry point first: it defines enum
 * cmm_memorder and the architecture facts, then includes this file, whose
 * guard makes the inclusion below a no-op.
 */
#include <urcu/uatomic.h>

#ifndef URCU_UATOMIC_GENERIC_H
#define URCU_UATOMIC_GENERIC_H

#include <urcu/compiler.h>
#include <urcu/arch.h>

/*
 * 1- and 2-byte operands (and int, long long: liburcu 0.15 names them too):
 * the builtins take them wherever the compiler can make them lock-free (on
 * a few targets they would otherwise become calls into libatomic, which
 * urcu does not link).  liburcu's names for the fact.
 */
#if !defined(UATOMIC_HAS_ATOMIC_BYTE) && defined(__GCC_ATOMIC_CHAR_LOCK_FREE)
# if __GCC_ATOMIC_CHAR_LOCK_FREE == 2
#  define UATOMIC_HAS_ATOMIC_BYTE	1
# endif
#endif
#if !defined(UATOMIC_HAS_ATOMIC_SHORT) && defined(__GCC_ATOMIC_SHORT_LOCK_FREE)
# if __GCC_ATOMIC_SHORT_LOCK_FREE == 2
#  define UATOMIC_HAS_ATOMIC_SHORT	1
# endif
#endif
#if !defined(UATOMIC_HAS_ATOMIC_INT) && defined(__GCC_ATOMIC_INT_LOCK_FREE)
# if __GCC_ATOMIC_INT_LOCK_FREE == 2
#  define UATOMIC_HAS_ATOMIC_INT	1
# endif
#endif
#if !defined(UATOMIC_HAS_ATOMIC_LLONG) && defined(__GCC_ATOMIC_LLONG_LOCK_FREE)
# if __GCC_ATOMIC_LLONG_LOCK_FREE == 2
#  define UATOMIC_HAS_ATOMIC_LLONG	1
# endif
#endif

/* ------------------------------------------------------------------------ */
/* Memory orders                                                            */

/* The C11 order of an enum cmm_memorder (CMM_SEQ_CST_FENCE -> seq_cst). */
#define urcu_i_mo_c11(mo)						\
	((int) (mo) == (int) CMM_SEQ_CST_FENCE ? __ATOMIC_SEQ_CST : (int) (mo))

/*
 * Order for the failure (load-only) path of a compare-exchange: C11 forbids
 * release there, so release weakens to relaxed and acq_rel to acquire.
 */
#define urcu_i_mo_c11_fail(mo)						\
	((int) (mo) == (int) CMM_RELEASE ? __ATOMIC_RELAXED :		\
	 (int) (mo) == (int) CMM_ACQ_REL ? __ATOMIC_ACQUIRE :		\
	 urcu_i_mo_c11(mo))

/*
 * The extra fences of CMM_SEQ_CST_FENCE.  A seq_cst load is only an acquire
 * towards plain accesses, so the earlier accesses need a full fence before
 * it; a seq_cst store or read-modify-write has release semantics for what
 * precedes it, and a full fence after it orders it (and everything before)
 * against whatever follows.  These fences pair with whatever barrier or
 * ordered access the other side of the caller's protocol uses; they only
 * widen the access into a full barrier.
 */
static inline void urcu_i_uatomic_fence_before_load(int mo)
{
	if (mo == (int) CMM_SEQ_CST_FENCE)
		cmm_smp_mb();
}

static inline void urcu_i_uatomic_fence_after_store(int mo)
{
	if (mo == (int) CMM_SEQ_CST_FENCE) {
#ifdef URCU_I_UATOMIC_STORE_FULL_BARRIER
		cmm_barrier();
#else
		cmm_smp_mb();
#endif
	}
}

static inline void urcu_i_uatomic_fence_after_rmw(int mo)
{
#ifndef URCU_I_UATOMIC_RMW_FULL_BARRIER
	if (mo == (int) CMM_SEQ_CST_FENCE)
		cmm_smp_mb();
#else
	(void) mo;
#endif
}

/*
 * Value of a read-modify-write expression followed by its fence.  Where the
 * read-modify-write is itself a full barrier this is just the expression.
 */
#ifdef URCU_I_UATOMIC_RMW_FULL_BARRIER
#define urcu_i_uatomic_rmw_value(expr, mo)	(expr)
#else
#define urcu_i_uatomic_rmw_value(expr, mo)				\
	__extension__ ({						\
		__typeof__(expr) urcu_i_rmw_value = (expr);		\
		urcu_i_uatomic_fence_after_rmw(mo);			\
		urcu_i_rmw_value;					\
	})
#endif

/* ------------------------------------------------------------------------ */
/* Loads and stores                                                         */

#ifndef uatomic_load_mo
#define uatomic_load_mo(addr, mo)					\
	(urcu_i_uatomic_fence_before_load(mo),				\
	 __atomic_load_n((addr), urcu_i_mo_c11(mo)))
#endif

#ifndef uatomic_store_mo
#define uatomic_store_mo(addr, v, mo)					\
	(__atomic_store_n((addr), (v), urcu_i_mo_c11(mo)),		\
	 urcu_i_uatomic_fence_after_store(mo))
#endif

#ifndef uatomic_read
#define uatomic_read(addr)	__atomic_load_n((addr), __ATOMIC_RELAXED)
#endif

#ifndef uatomic_set
#define uatomic_set(addr, v)						\
	((void) __atomic_store_n((addr), (v), __ATOMIC_RELAXED))
#endif

/* ------------------------------------------------------------------------ */
/* Read-modify-write with a memory order                                    */

#ifndef uatomic_xchg_mo
#define uatomic_xchg_mo(addr, v, mo)					\
	urcu_i_uatomic_rmw_value(					\
		__atomic_exchange_n((addr), (v), urcu_i_mo_c11(mo)), mo)
#endif

/*
 * The expected value lives in a temporary of the unqualified type of *addr
 * (the result type of an atomic load), which the builtin overwrites with
 * the value found when the comparison fails.  old is converted with a cast,
 * as liburcu converts it (to unsigned long, then to the size of *addr):
 * uatomic_cmpxchg(&u, -1UL, 0) on an unsigned int draws no -Woverflow.
 */
#ifndef uatomic_cmpxchg_mo
#define uatomic_cmpxchg_mo(addr, old, newv, mos, mof)			\
	__extension__ ({						\
		__typeof__(__atomic_load_n((addr), __ATOMIC_RELAXED))	\
			urcu_i_cmpxchg_seen = (__typeof__(		\
			__atomic_load_n((addr), __ATOMIC_RELAXED))) (old); \
		(void) __atomic_compare_exchange_n((addr),		\
			&urcu_i_cmpxchg_seen, (newv), 0,		\
			urcu_i_mo_c11(mos), urcu_i_mo_c11_fail(mof));	\
		urcu_i_uatomic_fence_after_rmw(mos);			\
		if ((int) (mos) != (int) (mof))				\
			urcu_i_uatomic_fence_after_rmw(mof);		\
		urcu_i_cmpxchg_seen;					\
	})
#endif

#ifndef uatomic_add_return_mo
#define uatomic_add_return_mo(addr, v, mo)				\
	urcu_i_uatomic_rmw_value(					\
		__atomic_add_fetch((addr), (v), urcu_i_mo_c11(mo)), mo)
#endif

#ifndef uatomic_sub_return_mo
#define uatomic_sub_return_mo(addr, v, mo)				\
	urcu_i_uatomic_rmw_value(					\
		__atomic_sub_fetch((addr), (v), urcu_i_mo_c11(mo)), mo)
#endif

#ifndef uatomic_add_mo
#define uatomic_add_mo(addr, v, mo)					\
	((void) __atomic_add_fetch((addr), (v), urcu_i_mo_c11(mo)),	\
	 urcu_i_uatomic_fence_after_rmw(mo))
#endif

#ifndef uatomic_sub_mo
#define uatomic_sub_mo(addr, v, mo)					\
	((void) __atomic_sub_fetch((addr), (v), urcu_i_mo_c11(mo)),	\
	 urcu_i_uatomic_fence_after_rmw(mo))
#endif

#ifndef uatomic_and_mo
#define uatomic_and_mo(addr, mask, mo)					\
	((void) __atomic_and_fetch((addr), (mask), urcu_i_mo_c11(mo)),	\
	 urcu_i_uatomic_fence_after_rmw(mo))
#endif

#ifndef uatomic_or_mo
#define uatomic_or_mo(addr, mask, mo)					\
	((void) __atomic_or_fetch((addr), (mask), urcu_i_mo_c11(mo)),	\
	 urcu_i_uatomic_fence_after_rmw(mo))
#endif

#ifndef uatomic_inc_mo
#define uatomic_inc_mo(addr, mo)	uatomic_add_mo((addr), 1, mo)
#endif

#ifndef uatomic_dec_mo
#define uatomic_dec_mo(addr, mo)	uatomic_sub_mo((addr), 1, mo)
#endif

/* ------------------------------------------------------------------------ */
/* liburcu's names; the memory order argument is optional                   */

/*
 * Selecting on the argument count lets uatomic_load(addr) and
 * uatomic_load(addr, mo), uatomic_xchg(addr, v) and uatomic_xchg(addr, v,
 * mo), etc. coexist, as in liburcu 0.15.  The defaults are the historical
 * semantics: relaxed loads, stores and void read-modify-writes, full
 * barriers for the value-returning read-modify-writes.
 */
#define URCU_I_PICK2(a, b, name, ...)			name
#define URCU_I_PICK3(a, b, c, name, ...)		name
#define URCU_I_PICK5(a, b, c, d, e, name, ...)		name

#define urcu_i_load_relaxed(addr)		uatomic_load_mo(addr, CMM_RELAXED)
#define urcu_i_store_relaxed(addr, v)		uatomic_store_mo(addr, v, CMM_RELAXED)
#define urcu_i_xchg_full(addr, v)					\
	uatomic_xchg_mo(addr, v, CMM_SEQ_CST_FENCE)
#define urcu_i_cmpxchg_full(addr, old, newv)				\
	uatomic_cmpxchg_mo(addr, old, newv, CMM_SEQ_CST_FENCE, CMM_SEQ_CST_FENCE)
#define urcu_i_add_return_full(addr, v)					\
	uatomic_add_return_mo(addr, v, CMM_SEQ_CST_FENCE)
#define urcu_i_sub_return_full(addr, v)					\
	uatomic_sub_return_mo(addr, v, CMM_SEQ_CST_FENCE)
#define urcu_i_add_relaxed(addr, v)		uatomic_add_mo(addr, v, CMM_RELAXED)
#define urcu_i_sub_relaxed(addr, v)		uatomic_sub_mo(addr, v, CMM_RELAXED)
#define urcu_i_and_relaxed(addr, v)		uatomic_and_mo(addr, v, CMM_RELAXED)
#define urcu_i_or_relaxed(addr, v)		uatomic_or_mo(addr, v, CMM_RELAXED)
#define urcu_i_inc_relaxed(addr)		uatomic_inc_mo(addr, CMM_RELAXED)
#define urcu_i_dec_relaxed(addr)		uatomic_dec_mo(addr, CMM_RELAXED)

#ifndef uatomic_load
#define uatomic_load(...)						\
	URCU_I_PICK2(__VA_ARGS__, uatomic_load_mo,			\
		urcu_i_load_relaxed, ~)(__VA_ARGS__)
#endif
#ifndef uatomic_store
#define uatomic_store(...)						\
	URCU_I_PICK3(__VA_ARGS__, uatomic_store_mo,			\
		urcu_i_store_relaxed, ~, ~)(__VA_ARGS__)
#endif
#ifndef uatomic_xchg
#define uatomic_xchg(...)						\
	URCU_I_PICK3(__VA_ARGS__, uatomic_xchg_mo,			\
		urcu_i_xchg_full, ~, ~)(__VA_ARGS__)
#endif
#ifndef uatomic_cmpxchg
#define uatomic_cmpxchg(...)						\
	URCU_I_PICK5(__VA_ARGS__, uatomic_cmpxchg_mo, ~,		\
		urcu_i_cmpxchg_full, ~, ~, ~)(__VA_ARGS__)
#endif
#ifndef uatomic_add_return
#define uatomic_add_return(...)						\
	URCU_I_PICK3(__VA_ARGS__, uatomic_add_return_mo,		\
		urcu_i_add_return_full, ~, ~)(__VA_ARGS__)
#endif
#ifndef uatomic_sub_return
#define uatomic_sub_return(...)						\
	URCU_I_PICK3(__VA_ARGS__, uatomic_sub_return_mo,		\
		urcu_i_sub_return_full, ~, ~)(__VA_ARGS__)
#endif
#ifndef uatomic_add
#define uatomic_add(...)						\
	URCU_I_PICK3(__VA_ARGS__, uatomic_add_mo,			\
		urcu_i_add_relaxed, ~, ~)(__VA_ARGS__)
#endif
#ifndef uatomic_sub
#define uatomic_sub(...)						\
	URCU_I_PICK3(__VA_ARGS__, uatomic_sub_mo,			\
		urcu_i_sub_relaxed, ~, ~)(__VA_ARGS__)
#endif
#ifndef uatomic_and
#define uatomic_and(...)						\
	URCU_I_PICK3(__VA_ARGS__, uatomic_and_mo,			\
		urcu_i_and_relaxed, ~, ~)(__VA_ARGS__)
#endif
#ifndef uatomic_or
#define uatomic_or(...)							\
	URCU_I_PICK3(__VA_ARGS__, uatomic_or_mo,			\
		urcu_i_or_relaxed, ~, ~)(__VA_ARGS__)
#endif
#ifndef uatomic_inc
#define uatomic_inc(...)						\
	URCU_I_PICK2(__VA_ARGS__, uatomic_inc_mo,			\
		urcu_i_inc_relaxed, ~)(__VA_ARGS__)
#endif
#ifndef uatomic_dec
#define uatomic_dec(...)						\
	URCU_I_PICK2(__VA_ARGS__, uatomic_dec_mo,			\
		urcu_i_dec_relaxed, ~)(__VA_ARGS__)
#endif

/* ------------------------------------------------------------------------ */
/* Ordering around the relaxed read-modify-writes                           */

/*
 * Full barriers to place before / after uatomic_add, _sub, _inc, _dec, _and,
 * _or when the caller needs them ordered.  They pair with whatever barrier
 * the reader of the updated word uses.  Architectures whose read-modify-
 * writes are already full barriers reduce them to compiler barriers.
 */
#ifndef cmm_smp_mb__before_uatomic_add
#define cmm_smp_mb__before_uatomic_add()	cmm_smp_mb()
#endif
#ifndef cmm_smp_mb__after_uatomic_add
#define cmm_smp_mb__after_uatomic_add()		cmm_smp_mb()
#endif
#ifndef cmm_smp_mb__before_uatomic_sub
#define cmm_smp_mb__before_uatomic_sub()	cmm_smp_mb()
#endif
#ifndef cmm_smp_mb__after_uatomic_sub
#define cmm_smp_mb__after_uatomic_sub()		cmm_smp_mb()
#endif
#ifndef cmm_smp_mb__before_uatomic_inc
#define cmm_smp_mb__before_uatomic_inc()	cmm_smp_mb()
#endif
#ifndef cmm_smp_mb__after_uatomic_inc
#define cmm_smp_mb__after_uatomic_inc()		cmm_smp_mb()
#endif
#ifndef cmm_smp_mb__before_uatomic_dec
#define cmm_smp_mb__before_uatomic_dec()	cmm_smp_mb()
#endif
#ifndef cmm_smp_mb__after_uatomic_dec
#define cmm_smp_mb__after_uatomic_dec()		cmm_smp_mb()
#endif
#ifndef cmm_smp_mb__before_uatomic_and
#define cmm_smp_mb__before_uatomic_and()	cmm_smp_mb()
#endif
#ifndef cmm_smp_mb__after_uatomic_and
#define cmm_smp_mb__after_uatomic_and()		cmm_smp_mb()
#endif
#ifndef cmm_smp_mb__before_uatomic_or
#define cmm_smp_mb__before_uatomic_or()		cmm_smp_mb()
#endif
#ifndef cmm_smp_mb__after_uatomic_or
#define cmm_smp_mb__after_uatomic_or()		cmm_smp_mb()
#endif

#endif /* URCU_UATOMIC_GENERIC_H */
