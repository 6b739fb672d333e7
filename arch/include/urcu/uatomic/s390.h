// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/s390.h>: liburcu's s390 atomic operations. s390 uses the
 * generic ones here (urcu/uatomic/generic.h, on the compiler's __atomic
 * builtins), so this header gives exactly what <urcu/uatomic.h> gives. On
 * any other machine it stops the build, as liburcu's s390 file would be
 * wrong there.
 */
#ifndef URCU_UATOMIC_S390_H
#define URCU_UATOMIC_S390_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_S390
#error "urcu/uatomic/s390.h is for s390; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_S390_H */
