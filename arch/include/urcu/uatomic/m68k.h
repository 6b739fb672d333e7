// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/m68k.h>: liburcu's m68k atomic operations. m68k uses the
 * generic ones here (urcu/uatomic/generic.h, on the compiler's __atomic
 * builtins), so this header gives exactly what <urcu/uatomic.h> gives. On
 * any other machine it stops the build, as liburcu's m68k file would be
 * wrong there.
 */
#ifndef URCU_UATOMIC_M68K_H
#define URCU_UATOMIC_M68K_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_M68K
#error "urcu/uatomic/m68k.h is for m68k; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_M68K_H */
