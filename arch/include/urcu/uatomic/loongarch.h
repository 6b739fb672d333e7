// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/loongarch.h>: liburcu's LoongArch atomic operations.
 * LoongArch uses the generic ones here (urcu/uatomic/generic.h, on the
 * compiler's __atomic builtins), so this header gives exactly what
 * <urcu/uatomic.h> gives. On any other machine it stops the build, as
 * liburcu's LoongArch file would be wrong there.
 */
#ifndef URCU_UATOMIC_LOONGARCH_H
#define URCU_UATOMIC_LOONGARCH_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_LOONGARCH
#error "urcu/uatomic/loongarch.h is for LoongArch; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_LOONGARCH_H */
