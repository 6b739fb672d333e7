// SPDX-License-Identifier: MIT
/*
 * Compiler helpers shared by every urcu header: the compiler barrier, a
 * once-only access, branch hints, type-generic min/max, container_of,
 * build-time checks and the visibility marker of public declarations.
 *
 * Everything here is usable from C (gnu11 or later; C99 with GNU extensions)
 * and from C++ (g++/clang++), and has to stay -Wall -Wextra -pedantic clean:
 * GNU statement expressions are always written behind __extension__.
 */
#ifndef URCU_COMPILER_H
#define URCU_COMPILER_H

#include <stddef.h>	/* offsetof, NULL */

/*
 * Compiler barrier: the compiler may not move memory accesses across it nor
 * cache values read before it.  It emits no instruction and orders nothing
 * at the hardware level.
 */
#define cmm_barrier()	__asm__ __volatile__ ("" : : : "memory")

/*
 * Access x exactly once, through a volatile lvalue: the compiler can neither
 * tear, fuse, repeat nor drop the access.  Usable on both sides of '='.
 *
 * In C the volatile pointer comes from initialising a one-element compound
 * literal, not from a cast: gcc's -Wcast-qual flags a cast from T ** to
 * T * volatile * ("all intermediate pointers must be const"), which every
 * CMM_LOAD_SHARED of a pointer would be.  The array is optimised away.
 * g++ does not flag the cast, and C++ has no compound literals.
 */
#ifdef __cplusplus
#define CMM_ACCESS_ONCE(x)	(*(__volatile__ __typeof__(x) *) &(x))
#else
#define CMM_ACCESS_ONCE(x)	(*(__volatile__ __typeof__(x) *[1]){ &(x) }[0])
#endif

/*
 * URCU_I_TSAN: this translation unit is built with ThreadSanitizer (gcc
 * defines __SANITIZE_THREAD__, clang answers __has_feature).  Test builds
 * only (docs/VERIFICATION.md): the barriers and CMM_LOAD/STORE_SHARED then
 * take forms TSan models (urcu/arch.h, urcu/system.h); other builds never
 * see a difference.
 */
#if defined(__SANITIZE_THREAD__)
#define URCU_I_TSAN 1
#elif defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  define URCU_I_TSAN 1
# endif
#endif

/* Branch hints: the result is 0 or 1, so they can be used as booleans. */
#define caa_likely(x)		__builtin_expect(!!(x), 1)
#define caa_unlikely(x)		__builtin_expect(!!(x), 0)

/* Marks a variable, parameter or function that may legitimately be unused. */
#define caa_unused		__attribute__((unused))

/*
 * Public declarations of the libraries.  They are built with
 * -fvisibility=hidden, so only what carries this marker is exported.
 */
#define URCU_API		__attribute__((visibility("default")))

/* Deprecation marker with a message (liburcu's CDS_DEPRECATED). */
#define CDS_DEPRECATED(msg)	__attribute__((deprecated(msg)))

/*
 * Type-generic maximum and minimum.  Each argument is evaluated exactly once;
 * the comparison is done in the usual arithmetic conversions of a and b.
 */
#define caa_max(a, b)						\
	__extension__ ({					\
		__typeof__(a) urcu_i_max_a = (a);		\
		__typeof__(b) urcu_i_max_b = (b);		\
		urcu_i_max_a > urcu_i_max_b ?			\
			urcu_i_max_a : urcu_i_max_b;		\
	})

#define caa_min(a, b)						\
	__extension__ ({					\
		__typeof__(a) urcu_i_min_a = (a);		\
		__typeof__(b) urcu_i_min_b = (b);		\
		urcu_i_min_a < urcu_i_min_b ?			\
			urcu_i_min_a : urcu_i_min_b;		\
	})

/*
 * From a pointer to the member `member' of an object of type `type', get a
 * pointer to the object.  The initialisation of the temporary checks that
 * ptr points to something of the member's type.  The address is computed as
 * an integer (same code at -O2): a (char *) cast of the const temporary
 * would draw -Wcast-qual in every list iteration of the user's code.
 */
#define caa_container_of(ptr, type, member)				\
	__extension__ ({						\
		const __typeof__(((type *) NULL)->member) *		\
			urcu_i_cof_mptr = (ptr);			\
		(type *) ((__UINTPTR_TYPE__) urcu_i_cof_mptr -		\
			offsetof(type, member));			\
	})

/*
 * caa_container_of, except that a NULL ptr gives NULL (liburcu 0.15): lets
 * iteration macros convert an end-of-walk NULL without arithmetic on it.
 */
#define caa_container_of_check_null(ptr, type, member)			\
	__extension__ ({						\
		const __typeof__(((type *) NULL)->member) *		\
			urcu_i_cofn_mptr = (ptr);			\
		urcu_i_cofn_mptr ? (type *) ((__UINTPTR_TYPE__)		\
			urcu_i_cofn_mptr -				\
			offsetof(type, member)) : (type *) NULL;	\
	})

/* Number of elements of an array (not of a pointer). */
#define CAA_ARRAY_SIZE(x)	(sizeof(x) / sizeof((x)[0]))

/*
 * CAA_COMBINE_TOKENS(a, b) (liburcu 0.15): a and b pasted into one token
 * after both are macro-expanded, e.g. CAA_COMBINE_TOKENS(name_, __LINE__).
 */
#define URCU_I_COMBINE_TOKENS(a, b)	a ## b
#define CAA_COMBINE_TOKENS(a, b)	URCU_I_COMBINE_TOKENS(a, b)

/* Width of long in bits; a plain integer so that #if can test it. */
#define CAA_BITS_PER_LONG	(__CHAR_BIT__ * __SIZEOF_LONG__)

/*
 * Build-time checks.  CAA_BUILD_BUG_ON(cond) is a statement that fails to
 * compile when the constant cond is true; CAA_BUILD_BUG_ON_ZERO(cond) is an
 * expression of value 0 (type size_t) with the same check, for use inside
 * other constant expressions.  Both use an array of negative size, which C
 * and C++ reject alike.
 */
#define CAA_BUILD_BUG_ON(cond)	((void) sizeof(char[1 - 2 * !!(cond)]))
#define CAA_BUILD_BUG_ON_ZERO(cond)	(sizeof(char[1 - 2 * !!(cond)]) - 1)

/*
 * urcu_static_assert(expr, "message", c_identifier): a declaration, valid at
 * file and block scope, that stops the build when expr is false.  The third
 * argument names the check where neither C11 _Static_assert nor C++11
 * static_assert is available.
 */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define urcu_static_assert(expr, msg, c_identifier_msg)	\
	static_assert(expr, msg)
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define urcu_static_assert(expr, msg, c_identifier_msg)	\
	_Static_assert(expr, msg)
#else
#define urcu_static_assert(expr, msg, c_identifier_msg)	\
	typedef char urcu_static_assert_##c_identifier_msg[(expr) ? 1 : -1] caa_unused
#endif

/* True when the integer type `type' is signed. */
#define caa_is_signed_type(type)	((type) -1 < (type) 1)

/*
 * v as an unsigned long; a signed v is sign-extended first (the C
 * conversion rules do that for any integer no wider than long).
 */
#define caa_cast_long_keep_sign(v)	((unsigned long) (v))

/*
 * GCC's version as one number (major * 10000 + minor * 100 + patch), for
 * working around a given release; left undefined for clang, which poses as
 * some GCC version in __GNUC__.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define URCU_GCC_VERSION \
	(__GNUC__ * 10000 + __GNUC_MINOR__ * 100 + __GNUC_PATCHLEVEL__)
#endif

/*
 * Cast that is allowed to drop qualifiers and change pointer types, for the
 * few places (such as rcu_dereference on a const object) where C++ would
 * otherwise reject the implicit conversion C accepts.
 */
#define URCU_FORCE_CAST(type, arg)	((type) (arg))

/*
 * cmm_cast_volatile(ptr): ptr as a pointer to volatile (liburcu 0.15), so
 * that an access made through it with an __atomic builtin is also a
 * volatile access, which the compiler may neither fuse with its neighbours
 * nor repeat: __atomic_load_n(cmm_cast_volatile(&x), __ATOMIC_RELAXED).
 * Evaluates ptr once.  In C the qualifier is added by initialisation, not
 * by a cast, so -Wcast-qual stays silent on pointers to pointers; in C++ a
 * function template does the same (extern "C++": a program may include the
 * urcu headers inside an extern "C" block).
 */
#ifdef __cplusplus
extern "C++" {
template <typename T>
static inline volatile T *cmm_cast_volatile(T *ptr)
{
	return ptr;
}
}
#else
#define cmm_cast_volatile(ptr)						\
	((volatile __typeof__(*(ptr)) *[1]){ (ptr) }[0])
#endif

/*
 * Annotation for pointers that are published and read under RCU.  It expands
 * to nothing; it exists so that code written for liburcu, which spells it
 * this way, keeps compiling.  (The reserved spelling is liburcu's, not ours.)
 */
#ifndef __rcu
#define __rcu
#endif

#endif /* URCU_COMPILER_H */
