// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/ia64.h>: liburcu's IA-64 architecture file. IA-64 has no file
 * of its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds IA-64 barriers, so a program including it there is in
 * error.
 */
#ifndef URCU_ARCH_IA64_H
#define URCU_ARCH_IA64_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_IA64
#error "urcu/arch/ia64.h is for IA-64; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_IA64_H */
