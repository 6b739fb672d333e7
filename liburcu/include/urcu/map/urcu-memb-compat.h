// SPDX-License-Identifier: MIT
/*
 * liburcu's suffixed names for the memb flavor (rcu_read_lock_memb,
 * synchronize_rcu_memb, call_rcu_memb, ...), from before the prefixed API,
 * still mapped by liburcu 0.13-0.15 unless URCU_NO_COMPAT_IDENTIFIERS is
 * defined.  Included by <urcu/urcu-memb.h>: unlike the generic names
 * (urcu/map/urcu-memb.h), these name one flavor, so any number of flavors' sets
 * can be visible in one translation unit.
 *
 * Not provided, as in liburcu where they name nothing usable:
 * rcu_reader_memb and rcu_gp_memb (liburcu's internal reader and grace-period
 * state) and rcu_memb_before_fork/after_fork_parent/after_fork_child (liburcu
 * maps them to functions only the bp flavor has).  urcu(7), "Deliberate
 * differences".
 */
#ifndef URCU_MAP_URCU_MEMB_COMPAT_H
#define URCU_MAP_URCU_MEMB_COMPAT_H

/* The _urcu_memb_* inline names the _rcu_*_memb aliases expand to. */
#include <urcu/static/urcu-memb.h>

#ifndef URCU_NO_COMPAT_IDENTIFIERS

/* Read side; the underscore forms are the inline fast paths. */
#define rcu_read_lock_memb              urcu_memb_read_lock
#define _rcu_read_lock_memb             _urcu_memb_read_lock
#define rcu_read_unlock_memb            urcu_memb_read_unlock
#define _rcu_read_unlock_memb           _urcu_memb_read_unlock
#define rcu_read_ongoing_memb           urcu_memb_read_ongoing
#define _rcu_read_ongoing_memb          _urcu_memb_read_ongoing
#define rcu_register_thread_memb        urcu_memb_register_thread
#define rcu_unregister_thread_memb      urcu_memb_unregister_thread
#define rcu_init_memb                   urcu_memb_init
#define rcu_exit_memb                   urcu_memb_exit

/* Update side, call_rcu and defer_rcu. */
#define synchronize_rcu_memb            urcu_memb_synchronize_rcu
#define get_cpu_call_rcu_data_memb      urcu_memb_get_cpu_call_rcu_data
#define get_call_rcu_thread_memb        urcu_memb_get_call_rcu_thread
#define create_call_rcu_data_memb       urcu_memb_create_call_rcu_data
#define set_cpu_call_rcu_data_memb      urcu_memb_set_cpu_call_rcu_data
#define get_default_call_rcu_data_memb  urcu_memb_get_default_call_rcu_data
#define get_call_rcu_data_memb          urcu_memb_get_call_rcu_data
#define get_thread_call_rcu_data_memb   urcu_memb_get_thread_call_rcu_data
#define set_thread_call_rcu_data_memb   urcu_memb_set_thread_call_rcu_data
#define create_all_cpu_call_rcu_data_memb \
	urcu_memb_create_all_cpu_call_rcu_data
#define free_all_cpu_call_rcu_data_memb urcu_memb_free_all_cpu_call_rcu_data
#define call_rcu_memb                   urcu_memb_call_rcu
#define call_rcu_data_free_memb         urcu_memb_call_rcu_data_free
#define call_rcu_before_fork_memb       urcu_memb_call_rcu_before_fork
#define call_rcu_after_fork_parent_memb urcu_memb_call_rcu_after_fork_parent
#define call_rcu_after_fork_child_memb  urcu_memb_call_rcu_after_fork_child
#define rcu_barrier_memb                urcu_memb_barrier
#define defer_rcu_memb                  urcu_memb_defer_rcu
#define rcu_defer_register_thread_memb  urcu_memb_defer_register_thread
#define rcu_defer_unregister_thread_memb \
	urcu_memb_defer_unregister_thread
#define rcu_defer_barrier_memb          urcu_memb_defer_barrier
#define rcu_defer_barrier_thread_memb   urcu_memb_defer_barrier_thread
#define rcu_defer_exit_memb             urcu_memb_defer_exit

/* The flavor table and the hash table's fork hooks. */
#define rcu_flavor_memb                 urcu_memb_flavor
#define urcu_register_rculfhash_atfork_memb \
	urcu_memb_register_rculfhash_atfork
#define urcu_unregister_rculfhash_atfork_memb \
	urcu_memb_unregister_rculfhash_atfork

/* Pointer operations: the same for every flavor (urcu/pointer.h). */
#define rcu_dereference_memb            rcu_dereference
#define rcu_cmpxchg_pointer_memb        rcu_cmpxchg_pointer
#define rcu_xchg_pointer_memb           rcu_xchg_pointer
#define rcu_set_pointer_memb            rcu_set_pointer

#endif /* URCU_NO_COMPAT_IDENTIFIERS */

#endif /* URCU_MAP_URCU_MEMB_COMPAT_H */
