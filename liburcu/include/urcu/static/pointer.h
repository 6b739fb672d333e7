// SPDX-License-Identifier: MIT
/*
 * RCU pointer primitives: the definitions behind <urcu/pointer.h>.
 *
 * Every primitive is a macro that expands to one atomic operation plus, at
 * most, a compile-time test, so the same definitions serve users with and
 * without _LGPL_SOURCE: nothing here calls into a library.  The macros are
 * GNU C (statement expressions, __typeof__, __atomic builtins) and compile as
 * C and as C++11.
 *
 * Type checking: each primitive copies the new value into a temporary of the
 * target's own type (__typeof__(*(pp))) before storing it, so publishing a
 * struct foo * into a struct bar * slot draws the same diagnostic as a plain
 * assignment would (an incompatible-pointer-type warning in C, an error in
 * C++).
 *
 * Why rcu_dereference() is an __ATOMIC_CONSUME load by default: GCC and Clang
 * implement consume as acquire.  On x86 and s390 that is an ordinary load;
 * on arm64 it becomes ldar/ldapr and on POWER a load followed by lwsync, a
 * small price.  In exchange the ordering does not rest on the compiler
 * keeping the address dependency intact: with a plain volatile load an
 * optimiser that learns "p == &some_object" (after a comparison) may load
 * through &some_object instead of p, and the hardware then no longer orders
 * the two loads.  An atomic load is also visible to ThreadSanitizer.  Users
 * who want the Linux-kernel style (volatile load, then
 * cmm_smp_read_barrier_depends(), which only Alpha needs) define
 * URCU_DEREFERENCE_USE_VOLATILE before including this header, the switch
 * liburcu itself uses; they should then compare pointers with cmm_ptr_eq().
 *
 * Layering, as in liburcu: the underscore names (_rcu_dereference,
 * _rcu_set_pointer, _rcu_assign_pointer, _rcu_xchg_pointer,
 * _rcu_cmpxchg_pointer) are the implementation and never expand through a
 * plain name; the plain names (end of this header) map onto them.  So a
 * program may #undef a plain name and rebuild it on the underscore one, e.g.
 *	#undef rcu_dereference
 *	#define rcu_dereference(p) my_check(_rcu_dereference(p))
 * and the iterators of urcu/rculist.h and urcu/rcuhlist.h, which expand at
 * the use site, then go through the program's version.  liburcu defines the
 * plain names this way with _LGPL_SOURCE and calls its library without it;
 * ours have nothing to call, so the mapping is the same in both modes.
 */
#ifndef URCU_STATIC_POINTER_H
#define URCU_STATIC_POINTER_H

#include <stdint.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

/*
 * URCU_I_UNQUAL_TYPEOF(x): the type of x without const/volatile, for
 * temporaries and casts built from a possibly qualified lvalue.  An rvalue
 * has no qualifiers: in C a comma expression yields one, in C++ (where the
 * comma keeps an lvalue) unary plus does, for pointers and arithmetic types
 * alike.
 */
#ifdef __cplusplus
#define URCU_I_UNQUAL_TYPEOF(x)	__typeof__(+(x))
#else
#define URCU_I_UNQUAL_TYPEOF(x)	__typeof__(((void) 0, (x)))
#endif

/*
 * _rcu_dereference(p): load the RCU-protected pointer p (an lvalue) for use
 * inside a read-side critical section.  Usable as an expression:
 * rcu_dereference(head)->field.
 *
 * Ordering: accesses made through the returned pointer (and anything
 * computed from it) observe every write that preceded the
 * rcu_set_pointer()/rcu_assign_pointer()/rcu_xchg_pointer()/
 * rcu_cmpxchg_pointer() that published it.  Nothing is ordered for memory
 * not reached through the pointer.
 */
#ifdef URCU_DEREFERENCE_USE_VOLATILE
/*
 * The volatile load keeps the compiler from fusing or re-reading p;
 * cmm_smp_read_barrier_depends() pairs with the release in rcu_set_pointer()
 * on architectures that do not order dependent loads (Alpha).  A function
 * rather than a statement expression so that nested uses do not shadow one
 * another.  Reading the pointer through a void * lvalue is sound with GCC
 * and Clang, whose type-based alias analysis lets void * alias every
 * pointer type.
 */
static inline void *urcu_i_deref_volatile(void *const volatile *pp)
{
#ifndef URCU_I_TSAN
	void *p = *pp;
#else
	/* ThreadSanitizer builds only: TSan treats volatile as plain. */
	void *p = __atomic_load_n(pp, __ATOMIC_ACQUIRE);
#endif

	cmm_smp_read_barrier_depends();
	return p;
}
#define _rcu_dereference(p)						\
	((URCU_I_UNQUAL_TYPEOF(p))					\
	 urcu_i_deref_volatile((void *const volatile *) &(p)))
#else
/* Consume load: pairs with the release store in rcu_set_pointer(). */
#define _rcu_dereference(p)	__atomic_load_n(&(p), __ATOMIC_CONSUME)
#endif

/*
 * _rcu_set_pointer(pp, v): publish v in *pp.  A statement (no value).
 *
 * Ordering: release.  Every load and store before it (typically the
 * initialisation of *v) is visible to a reader whose rcu_dereference()
 * returns v.  Storing a compile-time NULL publishes nothing, so that case is
 * a relaxed store, decided at compile time.
 */
#define _rcu_set_pointer(pp, v)						\
	do {								\
		__typeof__(*(pp)) urcu_i_setp_v = (v);			\
		if (__builtin_constant_p(v) && urcu_i_setp_v == NULL)	\
			__atomic_store_n((pp), urcu_i_setp_v,		\
					 __ATOMIC_RELAXED);		\
		else /* release: pairs with rcu_dereference() */	\
			__atomic_store_n((pp), urcu_i_setp_v,		\
					 __ATOMIC_RELEASE);		\
	} while (0)

/*
 * _rcu_assign_pointer(p, v): _rcu_set_pointer() on the lvalue p itself, as
 * in rcu_assign_pointer(head->next, node).  Same ordering: release, relaxed
 * for a constant NULL.
 */
#define _rcu_assign_pointer(p, v)	_rcu_set_pointer(&(p), (v))

/*
 * _rcu_xchg_pointer(pp, v): store v in *pp and return the previous value.
 *
 * Ordering: full, as uatomic_xchg(): a full barrier before and after, so it
 * both publishes v (pairs with rcu_dereference() like a release) and orders
 * later accesses after the read of the old value.
 */
#define _rcu_xchg_pointer(pp, v)					\
	__extension__ ({						\
		__typeof__(*(pp)) urcu_i_xchg_v = (v);			\
		(URCU_I_UNQUAL_TYPEOF(*(pp)))				\
			uatomic_xchg((pp), urcu_i_xchg_v);		\
	})

/*
 * _rcu_cmpxchg_pointer(pp, old, newv): if *pp equals old, store newv; return
 * the value *pp held before (equal to old exactly when the store happened).
 *
 * Ordering: full, as uatomic_cmpxchg(): a full barrier before and after, so a
 * successful exchange publishes newv (pairs with rcu_dereference()).
 */
#define _rcu_cmpxchg_pointer(pp, old, newv)				\
	__extension__ ({						\
		__typeof__(*(pp)) urcu_i_cmpxchg_old = (old);		\
		__typeof__(*(pp)) urcu_i_cmpxchg_new = (newv);		\
		(URCU_I_UNQUAL_TYPEOF(*(pp)))				\
			uatomic_cmpxchg((pp), urcu_i_cmpxchg_old,	\
					urcu_i_cmpxchg_new);		\
	})

/*
 * cmm_ptr_eq(a, b): a == b, without letting the compiler use the outcome.
 *
 * After a plain "if (p == q)" the compiler may substitute q for p (or the
 * reverse) in the code the test guards; if p came from rcu_dereference() and
 * q did not, the substitution drops the address dependency that orders the
 * reads through p.  Here the comparison is made on integer copies of the two
 * addresses that have each passed through an empty asm, so the compiler
 * knows nothing about their relation to a or b and the outcome proves
 * nothing it could exploit.  The unevaluated sizeof keeps the diagnostics of
 * a == b (comparing unrelated pointer types warns).  Evaluates a and b once.
 *
 * Ordering: none; this is a pure comparison.
 *
 * A call expands to the macro; the bare name, cmm_ptr_eq, is a function
 * (liburcu 0.15 makes it one) doing the same for two const void *, so that
 * a pointer to it can be taken.
 */
static inline int (cmm_ptr_eq)(const void *urcu_i_eq_pa,
			       const void *urcu_i_eq_pb)
{
	uintptr_t urcu_i_eq_x = (uintptr_t) urcu_i_eq_pa;
	uintptr_t urcu_i_eq_y = (uintptr_t) urcu_i_eq_pb;

	__asm__ ("" : "+r" (urcu_i_eq_x));
	__asm__ ("" : "+r" (urcu_i_eq_y));
	return urcu_i_eq_x == urcu_i_eq_y;
}

#define cmm_ptr_eq(a, b)						\
	__extension__ ({						\
		uintptr_t urcu_i_eq_a = (uintptr_t) (a);		\
		uintptr_t urcu_i_eq_b = (uintptr_t) (b);		\
		(void) sizeof((a) == (b));				\
		__asm__ ("" : "+r" (urcu_i_eq_a));			\
		__asm__ ("" : "+r" (urcu_i_eq_b));			\
		urcu_i_eq_a == urcu_i_eq_b;				\
	})

/*
 * The public names, mapped onto the implementation above.  As in liburcu,
 * rcu_assign_pointer() goes through the plain rcu_set_pointer(), so a
 * program's own rcu_set_pointer() also serves rcu_assign_pointer().
 */
#define rcu_dereference(p)		_rcu_dereference(p)
#define rcu_set_pointer(pp, v)		_rcu_set_pointer(pp, v)
#define rcu_xchg_pointer(pp, v)		_rcu_xchg_pointer(pp, v)
#define rcu_cmpxchg_pointer(pp, old, newv) \
	_rcu_cmpxchg_pointer(pp, old, newv)
#define rcu_assign_pointer(p, v)	rcu_set_pointer(&(p), (v))

#endif /* URCU_STATIC_POINTER_H */
