// SPDX-License-Identifier: MIT
/*
 * Generic RCU names mapped onto the memb flavor (default; membarrier-based).
 *
 * Included by umbrella headers only: a program that includes a direct
 * header (<urcu/urcu-memb.h>) keeps the generic names free.  The flavor's
 * suffixed names (rcu_read_lock_memb, ...) are in urcu/map/urcu-memb-compat.h,
 * which the direct header includes.
 */
#ifndef URCU_MAP_URCU_MEMB_H
#define URCU_MAP_URCU_MEMB_H

/* memb is the flavor <urcu.h> picks when none is named; liburcu says so. */
#if !defined(RCU_MEMBARRIER) && !defined(RCU_MB) && !defined(RCU_SIGNAL)
#define RCU_MEMBARRIER
#endif

#define rcu_read_lock                    urcu_memb_read_lock
#define rcu_read_unlock                  urcu_memb_read_unlock
#define rcu_read_ongoing                 urcu_memb_read_ongoing
#define rcu_quiescent_state              urcu_memb_quiescent_state

/* The inline fast paths under their legacy names (urcu/static/urcu-memb.h). */
#define _rcu_read_lock                   _urcu_memb_read_lock
#define _rcu_read_unlock                 _urcu_memb_read_unlock
#define _rcu_read_ongoing                _urcu_memb_read_ongoing
#define _rcu_quiescent_state             _urcu_memb_quiescent_state

#define rcu_thread_offline               urcu_memb_thread_offline
#define rcu_thread_online                urcu_memb_thread_online
#define rcu_register_thread              urcu_memb_register_thread
#define rcu_unregister_thread            urcu_memb_unregister_thread
#define rcu_init                         urcu_memb_init
#define rcu_exit                         urcu_memb_exit
#define synchronize_rcu                  urcu_memb_synchronize_rcu
#define start_poll_synchronize_rcu       urcu_memb_start_poll_synchronize_rcu
#define poll_state_synchronize_rcu       urcu_memb_poll_state_synchronize_rcu
#define get_cpu_call_rcu_data            urcu_memb_get_cpu_call_rcu_data
#define get_call_rcu_thread              urcu_memb_get_call_rcu_thread
#define create_call_rcu_data             urcu_memb_create_call_rcu_data
#define set_cpu_call_rcu_data            urcu_memb_set_cpu_call_rcu_data
#define get_default_call_rcu_data        urcu_memb_get_default_call_rcu_data
#define get_call_rcu_data                urcu_memb_get_call_rcu_data
#define get_thread_call_rcu_data         urcu_memb_get_thread_call_rcu_data
#define set_thread_call_rcu_data         urcu_memb_set_thread_call_rcu_data
#define create_all_cpu_call_rcu_data     urcu_memb_create_all_cpu_call_rcu_data
#define free_all_cpu_call_rcu_data       urcu_memb_free_all_cpu_call_rcu_data
#define call_rcu                         urcu_memb_call_rcu
#define call_rcu_data_free               urcu_memb_call_rcu_data_free
#define call_rcu_before_fork             urcu_memb_call_rcu_before_fork
#define call_rcu_after_fork_parent       urcu_memb_call_rcu_after_fork_parent
#define call_rcu_after_fork_child        urcu_memb_call_rcu_after_fork_child
#define rcu_barrier                      urcu_memb_barrier
#define defer_rcu                        urcu_memb_defer_rcu
#define rcu_defer_register_thread        urcu_memb_defer_register_thread
#define rcu_defer_unregister_thread      urcu_memb_defer_unregister_thread
#define rcu_defer_barrier                urcu_memb_defer_barrier
#define rcu_defer_barrier_thread         urcu_memb_defer_barrier_thread
#define rcu_defer_exit                   urcu_memb_defer_exit
/* Tells urcu/rculfhash.h that rcu_flavor names this flavor (cds_lfht_new). */
#ifndef URCU_API_MAP
#define URCU_API_MAP
#endif
#define rcu_flavor                       urcu_memb_flavor
#define urcu_register_rculfhash_atfork   urcu_memb_register_rculfhash_atfork
#define urcu_unregister_rculfhash_atfork urcu_memb_unregister_rculfhash_atfork

#endif /* URCU_MAP_URCU_MEMB_H */
