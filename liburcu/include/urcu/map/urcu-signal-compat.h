// SPDX-License-Identifier: MIT
/*
 * liburcu's suffixed names for the signal flavor (rcu_read_lock_sig,
 * synchronize_rcu_sig, call_rcu_sig, ...), from before the prefixed API,
 * still mapped by liburcu 0.13-0.15 unless URCU_NO_COMPAT_IDENTIFIERS is
 * defined.  Included by <urcu/urcu-signal.h>: unlike the generic names
 * (urcu/map/urcu-signal.h), these name one flavor, so any number of flavors' sets
 * can be visible in one translation unit.
 *
 * Not provided, as in liburcu where they name nothing usable:
 * rcu_reader_sig and rcu_gp_sig (liburcu's internal reader and grace-period
 * state) and rcu_sig_before_fork/after_fork_parent/after_fork_child (liburcu
 * maps them to functions only the bp flavor has).  urcu(7), "Deliberate
 * differences".
 */
#ifndef URCU_MAP_URCU_SIGNAL_COMPAT_H
#define URCU_MAP_URCU_SIGNAL_COMPAT_H

/* The _urcu_signal_* inline names the _rcu_*_sig aliases expand to. */
#include <urcu/static/urcu-signal.h>

#ifndef URCU_NO_COMPAT_IDENTIFIERS

/* Read side; the underscore forms are the inline fast paths. */
#define rcu_read_lock_sig               urcu_signal_read_lock
#define _rcu_read_lock_sig              _urcu_signal_read_lock
#define rcu_read_unlock_sig             urcu_signal_read_unlock
#define _rcu_read_unlock_sig            _urcu_signal_read_unlock
#define rcu_read_ongoing_sig            urcu_signal_read_ongoing
#define _rcu_read_ongoing_sig           _urcu_signal_read_ongoing
#define rcu_register_thread_sig         urcu_signal_register_thread
#define rcu_unregister_thread_sig       urcu_signal_unregister_thread
#define rcu_init_sig                    urcu_signal_init
#define rcu_exit_sig                    urcu_signal_exit

/* Update side, call_rcu and defer_rcu. */
#define synchronize_rcu_sig             urcu_signal_synchronize_rcu
#define get_cpu_call_rcu_data_sig       urcu_signal_get_cpu_call_rcu_data
#define get_call_rcu_thread_sig         urcu_signal_get_call_rcu_thread
#define create_call_rcu_data_sig        urcu_signal_create_call_rcu_data
#define set_cpu_call_rcu_data_sig       urcu_signal_set_cpu_call_rcu_data
#define get_default_call_rcu_data_sig   urcu_signal_get_default_call_rcu_data
#define get_call_rcu_data_sig           urcu_signal_get_call_rcu_data
#define get_thread_call_rcu_data_sig    urcu_signal_get_thread_call_rcu_data
#define set_thread_call_rcu_data_sig    urcu_signal_set_thread_call_rcu_data
#define create_all_cpu_call_rcu_data_sig \
	urcu_signal_create_all_cpu_call_rcu_data
#define free_all_cpu_call_rcu_data_sig  urcu_signal_free_all_cpu_call_rcu_data
#define call_rcu_sig                    urcu_signal_call_rcu
#define call_rcu_data_free_sig          urcu_signal_call_rcu_data_free
#define call_rcu_before_fork_sig        urcu_signal_call_rcu_before_fork
#define call_rcu_after_fork_parent_sig  urcu_signal_call_rcu_after_fork_parent
#define call_rcu_after_fork_child_sig   urcu_signal_call_rcu_after_fork_child
#define rcu_barrier_sig                 urcu_signal_barrier
#define defer_rcu_sig                   urcu_signal_defer_rcu
#define rcu_defer_register_thread_sig   urcu_signal_defer_register_thread
#define rcu_defer_unregister_thread_sig urcu_signal_defer_unregister_thread
#define rcu_defer_barrier_sig           urcu_signal_defer_barrier
#define rcu_defer_barrier_thread_sig    urcu_signal_defer_barrier_thread
#define rcu_defer_exit_sig              urcu_signal_defer_exit

/* The flavor table and the hash table's fork hooks. */
#define rcu_flavor_sig                  urcu_signal_flavor
#define urcu_register_rculfhash_atfork_sig \
	urcu_signal_register_rculfhash_atfork
#define urcu_unregister_rculfhash_atfork_sig \
	urcu_signal_unregister_rculfhash_atfork

/* Pointer operations: the same for every flavor (urcu/pointer.h). */
#define rcu_dereference_sig             rcu_dereference
#define rcu_cmpxchg_pointer_sig         rcu_cmpxchg_pointer
#define rcu_xchg_pointer_sig            rcu_xchg_pointer
#define rcu_set_pointer_sig             rcu_set_pointer

#endif /* URCU_NO_COMPAT_IDENTIFIERS */

#endif /* URCU_MAP_URCU_SIGNAL_COMPAT_H */
