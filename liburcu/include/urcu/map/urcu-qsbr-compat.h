// SPDX-License-Identifier: MIT
/*
 * liburcu's suffixed names for the qsbr flavor (rcu_read_lock_qsbr,
 * synchronize_rcu_qsbr, call_rcu_qsbr, ...), from before the prefixed API,
 * still mapped by liburcu 0.13-0.15 unless URCU_NO_COMPAT_IDENTIFIERS is
 * defined.  Included by <urcu/urcu-qsbr.h>: unlike the generic names
 * (urcu/map/urcu-qsbr.h), these name one flavor, so any number of flavors' sets
 * can be visible in one translation unit.
 *
 * Not provided, as in liburcu where they name nothing usable:
 * rcu_reader_qsbr and rcu_gp_qsbr (liburcu's internal reader and grace-period
 * state) and rcu_qsbr_before_fork/after_fork_parent/after_fork_child (liburcu
 * maps them to functions only the bp flavor has).  urcu(7), "Deliberate
 * differences".
 */
#ifndef URCU_MAP_URCU_QSBR_COMPAT_H
#define URCU_MAP_URCU_QSBR_COMPAT_H

/* The _urcu_qsbr_* inline names the _rcu_*_qsbr aliases expand to. */
#include <urcu/static/urcu-qsbr.h>

#ifndef URCU_NO_COMPAT_IDENTIFIERS

/* Read side; the underscore forms are the inline fast paths. */
#define rcu_read_lock_qsbr              urcu_qsbr_read_lock
#define _rcu_read_lock_qsbr             _urcu_qsbr_read_lock
#define rcu_read_unlock_qsbr            urcu_qsbr_read_unlock
#define _rcu_read_unlock_qsbr           _urcu_qsbr_read_unlock
#define rcu_read_ongoing_qsbr           urcu_qsbr_read_ongoing
#define _rcu_read_ongoing_qsbr          _urcu_qsbr_read_ongoing
#define rcu_register_thread_qsbr        urcu_qsbr_register_thread
#define rcu_unregister_thread_qsbr      urcu_qsbr_unregister_thread
#define rcu_init_qsbr                   urcu_qsbr_init
#define rcu_exit_qsbr                   urcu_qsbr_exit

/* Update side, call_rcu and defer_rcu. */
#define synchronize_rcu_qsbr            urcu_qsbr_synchronize_rcu
#define get_cpu_call_rcu_data_qsbr      urcu_qsbr_get_cpu_call_rcu_data
#define get_call_rcu_thread_qsbr        urcu_qsbr_get_call_rcu_thread
#define create_call_rcu_data_qsbr       urcu_qsbr_create_call_rcu_data
#define set_cpu_call_rcu_data_qsbr      urcu_qsbr_set_cpu_call_rcu_data
#define get_default_call_rcu_data_qsbr  urcu_qsbr_get_default_call_rcu_data
#define get_call_rcu_data_qsbr          urcu_qsbr_get_call_rcu_data
#define get_thread_call_rcu_data_qsbr   urcu_qsbr_get_thread_call_rcu_data
#define set_thread_call_rcu_data_qsbr   urcu_qsbr_set_thread_call_rcu_data
#define create_all_cpu_call_rcu_data_qsbr \
	urcu_qsbr_create_all_cpu_call_rcu_data
#define free_all_cpu_call_rcu_data_qsbr urcu_qsbr_free_all_cpu_call_rcu_data
#define call_rcu_qsbr                   urcu_qsbr_call_rcu
#define call_rcu_data_free_qsbr         urcu_qsbr_call_rcu_data_free
#define call_rcu_before_fork_qsbr       urcu_qsbr_call_rcu_before_fork
#define call_rcu_after_fork_parent_qsbr urcu_qsbr_call_rcu_after_fork_parent
#define call_rcu_after_fork_child_qsbr  urcu_qsbr_call_rcu_after_fork_child
#define rcu_barrier_qsbr                urcu_qsbr_barrier
#define defer_rcu_qsbr                  urcu_qsbr_defer_rcu
#define rcu_defer_register_thread_qsbr  urcu_qsbr_defer_register_thread
#define rcu_defer_unregister_thread_qsbr \
	urcu_qsbr_defer_unregister_thread
#define rcu_defer_barrier_qsbr          urcu_qsbr_defer_barrier
#define rcu_defer_barrier_thread_qsbr   urcu_qsbr_defer_barrier_thread
#define rcu_defer_exit_qsbr             urcu_qsbr_defer_exit

/* The flavor table and the hash table's fork hooks. */
#define rcu_flavor_qsbr                 urcu_qsbr_flavor
#define urcu_register_rculfhash_atfork_qsbr \
	urcu_qsbr_register_rculfhash_atfork
#define urcu_unregister_rculfhash_atfork_qsbr \
	urcu_qsbr_unregister_rculfhash_atfork

/* Pointer operations: the same for every flavor (urcu/pointer.h). */
#define rcu_dereference_qsbr            rcu_dereference
#define rcu_cmpxchg_pointer_qsbr        rcu_cmpxchg_pointer
#define rcu_xchg_pointer_qsbr           rcu_xchg_pointer
#define rcu_set_pointer_qsbr            rcu_set_pointer

#endif /* URCU_NO_COMPAT_IDENTIFIERS */

#endif /* URCU_MAP_URCU_QSBR_COMPAT_H */
