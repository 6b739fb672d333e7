// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/aarch64.h>: liburcu's AArch64 atomic operations. AArch64
 * uses the generic ones here (urcu/uatomic/generic.h, on the compiler's
 * __atomic builtins), so this header gives exactly what <urcu/uatomic.h>
 * gives. On any other machine it stops the build, as liburcu's AArch64 file
 * would be wrong there.
 */
#ifndef URCU_UATOMIC_AARCH64_H
#define URCU_UATOMIC_AARCH64_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_AARCH64
#error "urcu/uatomic/aarch64.h is for AArch64; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_AARCH64_H */
