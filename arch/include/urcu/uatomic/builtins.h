// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/builtins.h>: liburcu 0.15's implementation of uatomic on the
 * compiler's __atomic builtins (what its --enable-compiler-atomic-builtins
 * selects).  Ours is always that implementation (urcu/uatomic/generic.h,
 * with x86's facts from urcu/uatomic/x86.h), so this header gives exactly
 * what <urcu/uatomic.h> gives.
 */
#ifndef URCU_UATOMIC_BUILTINS_H
#define URCU_UATOMIC_BUILTINS_H

#include <urcu/uatomic.h>

#endif /* URCU_UATOMIC_BUILTINS_H */
