// SPDX-License-Identifier: MIT
/*
 * <urcu/static/urcu-mb.h>: liburcu's name for the inline fast paths of the
 * mb flavor, which programs include directly with _LGPL_SOURCE.
 *
 * Ours live in the template urcu/static/urcu-reader.h, instantiated by
 * <urcu/urcu-mb.h> as urcu_mb_i_read_lock() etc.; this header includes the
 * flavor's API and gives the inline versions liburcu's names,
 * _urcu_mb_read_lock(), _urcu_mb_read_unlock(), _urcu_mb_read_ongoing(),
 * which is what the legacy _rcu_read_lock() and friends expand to
 * (urcu/map/urcu-mb.h, urcu/map/urcu-mb-compat.h).  They are defined with
 * or without _LGPL_SOURCE: the inline read side is the same code the
 * library's exported functions run.
 *
 * The rest of liburcu's header is its reader and grace-period state
 * (urcu_mb_gp, urcu_mb_reader and their helpers), which ours does not
 * share: urcu(7), "Deliberate differences".
 */
#ifndef URCU_STATIC_URCU_MB_H
#define URCU_STATIC_URCU_MB_H

#include <urcu/urcu-mb.h>
#include <urcu/static/urcu-common.h>

#define _urcu_mb_read_lock              urcu_mb_i_read_lock
#define _urcu_mb_read_unlock            urcu_mb_i_read_unlock
#define _urcu_mb_read_ongoing           urcu_mb_i_read_ongoing
/* Not a qsbr flavor: announcing a quiescent state does nothing. */
#define _urcu_mb_quiescent_state        urcu_mb_i_qsbr_only_noop

#endif /* URCU_STATIC_URCU_MB_H */
