// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/mips.h>: liburcu's MIPS architecture file. MIPS has no file of
 * its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds MIPS barriers, so a program including it there is in
 * error.
 */
#ifndef URCU_ARCH_MIPS_H
#define URCU_ARCH_MIPS_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_MIPS
#error "urcu/arch/mips.h is for MIPS; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_MIPS_H */
