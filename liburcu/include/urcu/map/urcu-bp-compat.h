// SPDX-License-Identifier: MIT
/*
 * liburcu's suffixed names for the bp flavor (rcu_read_lock_bp,
 * synchronize_rcu_bp, call_rcu_bp, ...), from before the prefixed API,
 * still mapped by liburcu 0.13-0.15 unless URCU_NO_COMPAT_IDENTIFIERS is
 * defined.  Included by <urcu/urcu-bp.h>: unlike the generic names
 * (urcu/map/urcu-bp.h), these name one flavor, so any number of flavors' sets
 * can be visible in one translation unit.
 *
 * Not provided, as in liburcu where they name nothing usable:
 * rcu_reader_bp and rcu_gp_bp (liburcu's internal reader and grace-period
 * state), rcu_yield_active_bp and rcu_rand_yield_bp (its debug-yield
 * internals).  urcu(7), "Deliberate differences".
 */
#ifndef URCU_MAP_URCU_BP_COMPAT_H
#define URCU_MAP_URCU_BP_COMPAT_H

/* The _urcu_bp_* inline names the _rcu_*_bp aliases expand to. */
#include <urcu/static/urcu-bp.h>

#ifndef URCU_NO_COMPAT_IDENTIFIERS

/* Read side; the underscore forms are the inline fast paths. */
#define rcu_read_lock_bp                urcu_bp_read_lock
#define _rcu_read_lock_bp               _urcu_bp_read_lock
#define rcu_read_unlock_bp              urcu_bp_read_unlock
#define _rcu_read_unlock_bp             _urcu_bp_read_unlock
#define rcu_read_ongoing_bp             urcu_bp_read_ongoing
#define _rcu_read_ongoing_bp            _urcu_bp_read_ongoing
#define rcu_register_thread_bp          urcu_bp_register_thread
#define rcu_unregister_thread_bp        urcu_bp_unregister_thread
#define rcu_init_bp                     urcu_bp_init
#define rcu_exit_bp                     urcu_bp_exit

/* Update side, call_rcu and defer_rcu. */
#define synchronize_rcu_bp              urcu_bp_synchronize_rcu
#define get_cpu_call_rcu_data_bp        urcu_bp_get_cpu_call_rcu_data
#define get_call_rcu_thread_bp          urcu_bp_get_call_rcu_thread
#define create_call_rcu_data_bp         urcu_bp_create_call_rcu_data
#define set_cpu_call_rcu_data_bp        urcu_bp_set_cpu_call_rcu_data
#define get_default_call_rcu_data_bp    urcu_bp_get_default_call_rcu_data
#define get_call_rcu_data_bp            urcu_bp_get_call_rcu_data
#define get_thread_call_rcu_data_bp     urcu_bp_get_thread_call_rcu_data
#define set_thread_call_rcu_data_bp     urcu_bp_set_thread_call_rcu_data
#define create_all_cpu_call_rcu_data_bp urcu_bp_create_all_cpu_call_rcu_data
#define free_all_cpu_call_rcu_data_bp   urcu_bp_free_all_cpu_call_rcu_data
#define call_rcu_bp                     urcu_bp_call_rcu
#define call_rcu_data_free_bp           urcu_bp_call_rcu_data_free
#define call_rcu_before_fork_bp         urcu_bp_call_rcu_before_fork
#define call_rcu_after_fork_parent_bp   urcu_bp_call_rcu_after_fork_parent
#define call_rcu_after_fork_child_bp    urcu_bp_call_rcu_after_fork_child
#define rcu_barrier_bp                  urcu_bp_barrier
#define defer_rcu_bp                    urcu_bp_defer_rcu
#define rcu_defer_register_thread_bp    urcu_bp_defer_register_thread
#define rcu_defer_unregister_thread_bp  urcu_bp_defer_unregister_thread
#define rcu_defer_barrier_bp            urcu_bp_defer_barrier
#define rcu_defer_barrier_thread_bp     urcu_bp_defer_barrier_thread
#define rcu_defer_exit_bp               urcu_bp_defer_exit

/* The flavor table and the hash table's fork hooks. */
#define rcu_flavor_bp                   urcu_bp_flavor
#define urcu_register_rculfhash_atfork_bp \
	urcu_bp_register_rculfhash_atfork
#define urcu_unregister_rculfhash_atfork_bp \
	urcu_bp_unregister_rculfhash_atfork

/* Pointer operations (bp's own spellings below) and the fork handlers. */
#define rcu_dereference_bp              urcu_bp_dereference
#define rcu_cmpxchg_pointer_bp          urcu_bp_cmpxchg_pointer
#define rcu_xchg_pointer_bp             urcu_bp_xchg_pointer
#define rcu_set_pointer_bp              urcu_bp_set_pointer
#define rcu_bp_before_fork              urcu_bp_before_fork
#define rcu_bp_after_fork_parent        urcu_bp_after_fork_parent
#define rcu_bp_after_fork_child         urcu_bp_after_fork_child

#endif /* URCU_NO_COMPAT_IDENTIFIERS */

/*
 * bp's prefixed spellings of the pointer operations, which liburcu's
 * <urcu/urcu-bp.h> declares whatever URCU_NO_COMPAT_IDENTIFIERS says.  The
 * operations do not depend on the flavor: they are urcu/pointer.h's.
 */
#define urcu_bp_dereference             rcu_dereference
#define urcu_bp_cmpxchg_pointer         rcu_cmpxchg_pointer
#define urcu_bp_xchg_pointer            rcu_xchg_pointer
#define urcu_bp_set_pointer             rcu_set_pointer

#endif /* URCU_MAP_URCU_BP_COMPAT_H */
