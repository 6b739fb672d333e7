// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/loongarch.h>: liburcu's LoongArch architecture file. LoongArch
 * has no file of its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds LoongArch barriers, so a program including it there
 * is in error.
 */
#ifndef URCU_ARCH_LOONGARCH_H
#define URCU_ARCH_LOONGARCH_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_LOONGARCH
#error "urcu/arch/loongarch.h is for LoongArch; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_LOONGARCH_H */
