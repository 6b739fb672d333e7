// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/gcc.h>: liburcu's atomic operations for machines without a
 * file of their own, built on the compiler's builtins.  Ours are that on
 * every machine (urcu/uatomic/generic.h), so this header gives exactly what
 * <urcu/uatomic.h> gives, x86's facts included where they apply.
 */
#ifndef URCU_UATOMIC_GCC_H
#define URCU_UATOMIC_GCC_H

#include <urcu/uatomic.h>

#endif /* URCU_UATOMIC_GCC_H */
