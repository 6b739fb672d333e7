// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/sparc64.h>: liburcu's SPARC atomic operations. SPARC uses
 * the generic ones here (urcu/uatomic/generic.h, on the compiler's __atomic
 * builtins), so this header gives exactly what <urcu/uatomic.h> gives. On
 * any other machine it stops the build, as liburcu's SPARC file would be
 * wrong there.
 */
#ifndef URCU_UATOMIC_SPARC64_H
#define URCU_UATOMIC_SPARC64_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_SPARC64
#error "urcu/uatomic/sparc64.h is for SPARC; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_SPARC64_H */
