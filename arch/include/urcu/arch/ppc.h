// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/ppc.h>: liburcu's PowerPC architecture file. PowerPC has no
 * file of its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds PowerPC barriers, so a program including it there is
 * in error.
 */
#ifndef URCU_ARCH_PPC_H
#define URCU_ARCH_PPC_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_PPC
#error "urcu/arch/ppc.h is for PowerPC; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_PPC_H */
