// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/alpha.h>: liburcu's Alpha architecture file. Alpha has no file
 * of its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On Alpha that includes the one barrier
 * other machines do without: cmm_read_barrier_depends() is an "mb"
 * instruction. On any other machine it stops the build: liburcu's file holds
 * Alpha barriers, so a program including it there is in error.
 */
#ifndef URCU_ARCH_ALPHA_H
#define URCU_ARCH_ALPHA_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_ALPHA
#error "urcu/arch/alpha.h is for Alpha; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_ALPHA_H */
