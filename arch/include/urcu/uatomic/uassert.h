// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/uassert.h>: build-time checks that uatomic works on objects
 * of a given size on this machine (liburcu 0.15).
 *
 *   _uatomic_has_atomic_type(len)       constant expression, nonzero when len
 *                                       is 1, 2, 4 or 8 and the machine has
 *                                       lock-free atomic operations on
 *                                       objects of len bytes
 *   _uatomic_static_assert_atomic(len)  a declaration (file or block scope)
 *                                       that stops the build when it has not
 *
 * len must be an integer constant expression, typically sizeof(*addr).  The
 * answer comes from the UATOMIC_HAS_ATOMIC_{BYTE,SHORT,INT,LLONG} facts of
 * <urcu/uatomic.h>, which this header includes (liburcu's requires its
 * includer to have defined them first).  The names keep liburcu's spelling,
 * leading underscore included, so that code written for it compiles.
 */
#ifndef URCU_UATOMIC_UASSERT_H
#define URCU_UATOMIC_UASSERT_H

#include <urcu/compiler.h>
#include <urcu/uatomic.h>

#ifdef UATOMIC_HAS_ATOMIC_BYTE
#define URCU_I_UATOMIC_HAS_1	1
#else
#define URCU_I_UATOMIC_HAS_1	0
#endif
#ifdef UATOMIC_HAS_ATOMIC_SHORT
#define URCU_I_UATOMIC_HAS_2	1
#else
#define URCU_I_UATOMIC_HAS_2	0
#endif
#ifdef UATOMIC_HAS_ATOMIC_INT
#define URCU_I_UATOMIC_HAS_4	1
#else
#define URCU_I_UATOMIC_HAS_4	0
#endif
#ifdef UATOMIC_HAS_ATOMIC_LLONG
#define URCU_I_UATOMIC_HAS_8	1
#else
#define URCU_I_UATOMIC_HAS_8	0
#endif

#define _uatomic_has_atomic_type(len)					\
	(((len) == 1 && URCU_I_UATOMIC_HAS_1) ||			\
	 ((len) == 2 && URCU_I_UATOMIC_HAS_2) ||			\
	 ((len) == 4 && URCU_I_UATOMIC_HAS_4) ||			\
	 ((len) == 8 && URCU_I_UATOMIC_HAS_8))

#define _uatomic_static_assert_atomic(len)				\
	urcu_static_assert(_uatomic_has_atomic_type(len),		\
		"uatomic: no lock-free atomic operations on objects of "	\
		#len " bytes on this machine",				\
		uatomic_atomic_type_not_supported)

#endif /* URCU_UATOMIC_UASSERT_H */
