// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/riscv.h>: liburcu's RISC-V architecture file. RISC-V has no
 * file of its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds RISC-V barriers, so a program including it there is
 * in error.
 */
#ifndef URCU_ARCH_RISCV_H
#define URCU_ARCH_RISCV_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_RISCV
#error "urcu/arch/riscv.h is for RISC-V; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_RISCV_H */
