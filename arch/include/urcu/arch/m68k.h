// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/m68k.h>: liburcu's m68k architecture file. m68k has no file of
 * its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds m68k barriers, so a program including it there is in
 * error.
 */
#ifndef URCU_ARCH_M68K_H
#define URCU_ARCH_M68K_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_M68K
#error "urcu/arch/m68k.h is for m68k; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_M68K_H */
