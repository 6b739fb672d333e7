// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/arm.h>: liburcu's 32-bit ARM atomic operations. 32-bit ARM
 * uses the generic ones here (urcu/uatomic/generic.h, on the compiler's
 * __atomic builtins), so this header gives exactly what <urcu/uatomic.h>
 * gives. On any other machine it stops the build, as liburcu's 32-bit ARM
 * file would be wrong there.
 */
#ifndef URCU_UATOMIC_ARM_H
#define URCU_UATOMIC_ARM_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_ARM
#error "urcu/uatomic/arm.h is for 32-bit ARM; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_ARM_H */
