// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/sparc64.h>: liburcu's SPARC architecture file. SPARC has no
 * file of its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds SPARC barriers, so a program including it there is in
 * error.
 */
#ifndef URCU_ARCH_SPARC64_H
#define URCU_ARCH_SPARC64_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_SPARC64
#error "urcu/arch/sparc64.h is for SPARC; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_SPARC64_H */
