// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/alpha.h>: liburcu's Alpha atomic operations. Alpha uses the
 * generic ones here (urcu/uatomic/generic.h, on the compiler's __atomic
 * builtins), so this header gives exactly what <urcu/uatomic.h> gives. On
 * any other machine it stops the build, as liburcu's Alpha file would be
 * wrong there.
 */
#ifndef URCU_UATOMIC_ALPHA_H
#define URCU_UATOMIC_ALPHA_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_ALPHA
#error "urcu/uatomic/alpha.h is for Alpha; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_ALPHA_H */
