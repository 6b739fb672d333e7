// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/api.h>: liburcu 0.15's uatomic API, the names whose memory
 * order argument is optional: uatomic_load(addr[, mo]),
 * uatomic_store(addr, v[, mo]), uatomic_xchg(addr, v[, mo]),
 * uatomic_cmpxchg(addr, old, new[, mo_success, mo_failure]), ...  liburcu
 * builds them on the <op>_mo operations of whichever implementation was
 * included before this header.  Here both halves are in
 * urcu/uatomic/generic.h, and <urcu/uatomic.h> (included below) documents
 * the default order of each name, so this header gives exactly what
 * <urcu/uatomic.h> gives and can come before or after it.
 */
#ifndef URCU_UATOMIC_API_H
#define URCU_UATOMIC_API_H

#include <urcu/uatomic.h>

#endif /* URCU_UATOMIC_API_H */
