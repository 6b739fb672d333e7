// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/ia64.h>: liburcu's IA-64 atomic operations. IA-64 uses the
 * generic ones here (urcu/uatomic/generic.h, on the compiler's __atomic
 * builtins), so this header gives exactly what <urcu/uatomic.h> gives. On
 * any other machine it stops the build, as liburcu's IA-64 file would be
 * wrong there.
 */
#ifndef URCU_UATOMIC_IA64_H
#define URCU_UATOMIC_IA64_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_IA64
#error "urcu/uatomic/ia64.h is for IA-64; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_IA64_H */
