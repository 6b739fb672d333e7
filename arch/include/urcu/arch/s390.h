// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/s390.h>: liburcu's s390 architecture file. s390 has no file of
 * its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds s390 barriers, so a program including it there is in
 * error.
 */
#ifndef URCU_ARCH_S390_H
#define URCU_ARCH_S390_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_S390
#error "urcu/arch/s390.h is for s390; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_S390_H */
