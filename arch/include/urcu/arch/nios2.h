// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/nios2.h>: liburcu's Nios II architecture file. Nios II has no
 * file of its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds Nios II barriers, so a program including it there is
 * in error.
 */
#ifndef URCU_ARCH_NIOS2_H
#define URCU_ARCH_NIOS2_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_NIOS2
#error "urcu/arch/nios2.h is for Nios II; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_NIOS2_H */
