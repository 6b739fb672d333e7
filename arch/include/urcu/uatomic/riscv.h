// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/riscv.h>: liburcu's RISC-V atomic operations. RISC-V uses
 * the generic ones here (urcu/uatomic/generic.h, on the compiler's __atomic
 * builtins), so this header gives exactly what <urcu/uatomic.h> gives. On
 * any other machine it stops the build, as liburcu's RISC-V file would be
 * wrong there.
 */
#ifndef URCU_UATOMIC_RISCV_H
#define URCU_UATOMIC_RISCV_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_RISCV
#error "urcu/uatomic/riscv.h is for RISC-V; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_RISCV_H */
