// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/hppa.h>: liburcu's PA-RISC atomic operations. PA-RISC uses
 * the generic ones here (urcu/uatomic/generic.h, on the compiler's __atomic
 * builtins), so this header gives exactly what <urcu/uatomic.h> gives. On
 * any other machine it stops the build, as liburcu's PA-RISC file would be
 * wrong there.
 */
#ifndef URCU_UATOMIC_HPPA_H
#define URCU_UATOMIC_HPPA_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_HPPA
#error "urcu/uatomic/hppa.h is for PA-RISC; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_HPPA_H */
