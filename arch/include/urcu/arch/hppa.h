// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/hppa.h>: liburcu's PA-RISC architecture file. PA-RISC has no
 * file of its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds PA-RISC barriers, so a program including it there is
 * in error.
 */
#ifndef URCU_ARCH_HPPA_H
#define URCU_ARCH_HPPA_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_HPPA
#error "urcu/arch/hppa.h is for PA-RISC; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_HPPA_H */
