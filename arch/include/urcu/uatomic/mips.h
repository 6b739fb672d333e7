// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/mips.h>: liburcu's MIPS atomic operations. MIPS uses the
 * generic ones here (urcu/uatomic/generic.h, on the compiler's __atomic
 * builtins), so this header gives exactly what <urcu/uatomic.h> gives. On
 * any other machine it stops the build, as liburcu's MIPS file would be
 * wrong there.
 */
#ifndef URCU_UATOMIC_MIPS_H
#define URCU_UATOMIC_MIPS_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_MIPS
#error "urcu/uatomic/mips.h is for MIPS; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_MIPS_H */
