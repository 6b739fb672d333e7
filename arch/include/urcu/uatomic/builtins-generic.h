// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/builtins-generic.h>: in liburcu 0.15, the uatomic operations
 * written on the compiler's __atomic builtins, included by
 * <urcu/uatomic/builtins.h>.  Ours are urcu/uatomic/generic.h, which
 * <urcu/uatomic.h> completes with the memory order type and the
 * architecture facts it needs, so this header gives exactly what
 * <urcu/uatomic.h> gives.
 */
#ifndef URCU_UATOMIC_BUILTINS_GENERIC_H
#define URCU_UATOMIC_BUILTINS_GENERIC_H

#include <urcu/uatomic.h>

#endif /* URCU_UATOMIC_BUILTINS_GENERIC_H */
