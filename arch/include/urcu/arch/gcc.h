// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/gcc.h>: liburcu's architecture file for machines without one
 * of their own, built on the compiler's builtins.  That is what our generic
 * layer (urcu/arch/generic.h) is, on every machine, so this header gives
 * exactly what <urcu/arch.h> gives: on x86 and AArch64 that includes their
 * own files, so a program that includes both headers still sees a single
 * definition of each barrier.
 */
#ifndef URCU_ARCH_GCC_H
#define URCU_ARCH_GCC_H

#include <urcu/arch.h>

#endif /* URCU_ARCH_GCC_H */
