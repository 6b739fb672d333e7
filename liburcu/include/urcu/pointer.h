// SPDX-License-Identifier: MIT
/*
 * RCU pointer primitives, usable with every flavor:
 *
 *   rcu_dereference(p)                 read an RCU-protected pointer (consume)
 *   rcu_assign_pointer(p, v)           publish v in the lvalue p (release)
 *   rcu_set_pointer(&p, v)             the same, given the address (release)
 *   rcu_xchg_pointer(&p, v)            exchange, return the old value (full)
 *   rcu_cmpxchg_pointer(&p, old, new)  compare-and-exchange, return the old
 *                                      value (full)
 *   cmm_ptr_eq(a, b)                   compare without letting the compiler
 *                                      substitute one pointer for the other
 *
 * They are macros with identical definitions whether or not _LGPL_SOURCE is
 * defined (there is no out-of-line version to call); the definitions and
 * each one's ordering contract are in <urcu/static/pointer.h>.  Values are
 * type-checked against the pointer they are stored into.
 */
#ifndef URCU_POINTER_H
#define URCU_POINTER_H

#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/static/pointer.h>

#endif /* URCU_POINTER_H */
