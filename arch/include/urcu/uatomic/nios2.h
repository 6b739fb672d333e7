// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/nios2.h>: liburcu's Nios II atomic operations. Nios II uses
 * the generic ones here (urcu/uatomic/generic.h, on the compiler's __atomic
 * builtins), so this header gives exactly what <urcu/uatomic.h> gives. On
 * any other machine it stops the build, as liburcu's Nios II file would be
 * wrong there.
 */
#ifndef URCU_UATOMIC_NIOS2_H
#define URCU_UATOMIC_NIOS2_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_NIOS2
#error "urcu/uatomic/nios2.h is for Nios II; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_NIOS2_H */
