// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/builtins-x86.h>: in liburcu 0.15, what the __atomic builtins
 * implementation knows about x86: a sequentially consistent store or
 * read-modify-write is already a full barrier, so CMM_SEQ_CST_FENCE needs
 * no extra fence after it.  Ours says the same in urcu/uatomic/x86.h, which
 * <urcu/uatomic.h> includes on x86, so this header gives exactly what
 * <urcu/uatomic.h> gives.  On any other machine it stops the build: those
 * facts are false there.
 */
#ifndef URCU_UATOMIC_BUILTINS_X86_H
#define URCU_UATOMIC_BUILTINS_X86_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_X86
#error "urcu/uatomic/builtins-x86.h is for x86; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_BUILTINS_X86_H */
