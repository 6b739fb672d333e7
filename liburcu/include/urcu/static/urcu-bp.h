// SPDX-License-Identifier: MIT
/*
 * <urcu/static/urcu-bp.h>: liburcu's name for the inline fast paths of the
 * bp flavor, which programs include directly with _LGPL_SOURCE.
 *
 * Ours live in the template urcu/static/urcu-reader.h, instantiated by
 * <urcu/urcu-bp.h> as urcu_bp_i_read_lock() etc.; this header includes the
 * flavor's API and gives the inline versions liburcu's names,
 * _urcu_bp_read_lock(), _urcu_bp_read_unlock(), _urcu_bp_read_ongoing(),
 * which is what the legacy _rcu_read_lock() and friends expand to
 * (urcu/map/urcu-bp.h, urcu/map/urcu-bp-compat.h).  They are defined with
 * or without _LGPL_SOURCE: the inline read side is the same code the
 * library's exported functions run.
 *
 * The rest of liburcu's header is its reader and grace-period state
 * (urcu_bp_gp, urcu_bp_reader and their helpers), which ours does not
 * share: urcu(7), "Deliberate differences".
 */
#ifndef URCU_STATIC_URCU_BP_H
#define URCU_STATIC_URCU_BP_H

#include <urcu/urcu-bp.h>
#include <urcu/static/urcu-common.h>

#define _urcu_bp_read_lock              urcu_bp_i_read_lock
#define _urcu_bp_read_unlock            urcu_bp_i_read_unlock
#define _urcu_bp_read_ongoing           urcu_bp_i_read_ongoing
/* Not a qsbr flavor: announcing a quiescent state does nothing. */
#define _urcu_bp_quiescent_state        urcu_bp_i_qsbr_only_noop

#endif /* URCU_STATIC_URCU_BP_H */
