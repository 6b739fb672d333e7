// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/ppc.h>: liburcu's PowerPC atomic operations. PowerPC uses
 * the generic ones here (urcu/uatomic/generic.h, on the compiler's __atomic
 * builtins), so this header gives exactly what <urcu/uatomic.h> gives. On
 * any other machine it stops the build, as liburcu's PowerPC file would be
 * wrong there.
 */
#ifndef URCU_UATOMIC_PPC_H
#define URCU_UATOMIC_PPC_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_PPC
#error "urcu/uatomic/ppc.h is for PowerPC; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_PPC_H */
