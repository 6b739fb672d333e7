// SPDX-License-Identifier: MIT
/*
 * <urcu/debug.h>: kept for programs written against liburcu 0.13, where
 * urcu_assert() was declared here.  The assertions now live in
 * <urcu/assert.h>.
 */
#ifndef URCU_DEBUG_H
#define URCU_DEBUG_H

#include <urcu/assert.h>
#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * urcu_misuse_events: how many API misuses the libraries have let run so far
 * in this process (a read-side section on an unregistered thread, which
 * registers it implicitly; rcu_barrier() inside a read-side section, which
 * returns at once; ...; the list is in urcu(7), "Misuse").  Misuses that
 * would deadlock or corrupt memory abort with a message instead and are not
 * counted.  With URCU_DEBUG=1 in the environment (or a debug_checks build)
 * each event also prints one line on standard error naming the function;
 * URCU_DEBUG=abort aborts after that line.  Exported by liburcu-common,
 * which every flavor library links.  No ordering: a statistic.
 */
URCU_API unsigned long urcu_misuse_events(void);

#ifdef __cplusplus
}
#endif

#endif /* URCU_DEBUG_H */
