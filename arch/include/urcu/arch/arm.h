// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/arm.h>: liburcu's 32-bit ARM architecture file. 32-bit ARM has
 * no file of its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds 32-bit ARM barriers, so a program including it there
 * is in error.
 */
#ifndef URCU_ARCH_ARM_H
#define URCU_ARCH_ARM_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_ARM
#error "urcu/arch/arm.h is for 32-bit ARM; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_ARM_H */
