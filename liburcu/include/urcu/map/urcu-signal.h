// SPDX-License-Identifier: MIT
/*
 * Generic RCU names mapped onto the signal flavor (deprecated).
 *
 * Included by umbrella headers only: a program that includes a direct
 * header (<urcu/urcu-signal.h>) keeps the generic names free.  The flavor's
 * suffixed names (rcu_read_lock_sig, ...) are in urcu/map/urcu-signal-compat.h,
 * which the direct header includes.
 */
#ifndef URCU_MAP_URCU_SIGNAL_H
#define URCU_MAP_URCU_SIGNAL_H

#define rcu_read_lock                    urcu_signal_read_lock
#define rcu_read_unlock                  urcu_signal_read_unlock
#define rcu_read_ongoing                 urcu_signal_read_ongoing
#define rcu_quiescent_state              urcu_signal_quiescent_state

/* The inline fast paths under their legacy names (urcu/static/urcu-signal.h). */
#define _rcu_read_lock                   _urcu_signal_read_lock
#define _rcu_read_unlock                 _urcu_signal_read_unlock
#define _rcu_read_ongoing                _urcu_signal_read_ongoing
#define _rcu_quiescent_state             _urcu_signal_quiescent_state

#define rcu_thread_offline               urcu_signal_thread_offline
#define rcu_thread_online                urcu_signal_thread_online
#define rcu_register_thread              urcu_signal_register_thread
#define rcu_unregister_thread            urcu_signal_unregister_thread
#define rcu_init                         urcu_signal_init
#define rcu_exit                         urcu_signal_exit
#define synchronize_rcu                  urcu_signal_synchronize_rcu
#define start_poll_synchronize_rcu       urcu_signal_start_poll_synchronize_rcu
#define poll_state_synchronize_rcu       urcu_signal_poll_state_synchronize_rcu
#define get_cpu_call_rcu_data            urcu_signal_get_cpu_call_rcu_data
#define get_call_rcu_thread              urcu_signal_get_call_rcu_thread
#define create_call_rcu_data             urcu_signal_create_call_rcu_data
#define set_cpu_call_rcu_data            urcu_signal_set_cpu_call_rcu_data
#define get_default_call_rcu_data        urcu_signal_get_default_call_rcu_data
#define get_call_rcu_data                urcu_signal_get_call_rcu_data
#define get_thread_call_rcu_data         urcu_signal_get_thread_call_rcu_data
#define set_thread_call_rcu_data         urcu_signal_set_thread_call_rcu_data
#define create_all_cpu_call_rcu_data     urcu_signal_create_all_cpu_call_rcu_data
#define free_all_cpu_call_rcu_data       urcu_signal_free_all_cpu_call_rcu_data
#define call_rcu                         urcu_signal_call_rcu
#define call_rcu_data_free               urcu_signal_call_rcu_data_free
#define call_rcu_before_fork             urcu_signal_call_rcu_before_fork
#define call_rcu_after_fork_parent       urcu_signal_call_rcu_after_fork_parent
#define call_rcu_after_fork_child        urcu_signal_call_rcu_after_fork_child
#define rcu_barrier                      urcu_signal_barrier
#define defer_rcu                        urcu_signal_defer_rcu
#define rcu_defer_register_thread        urcu_signal_defer_register_thread
#define rcu_defer_unregister_thread      urcu_signal_defer_unregister_thread
#define rcu_defer_barrier                urcu_signal_defer_barrier
#define rcu_defer_barrier_thread         urcu_signal_defer_barrier_thread
#define rcu_defer_exit                   urcu_signal_defer_exit
/* Tells urcu/rculfhash.h that rcu_flavor names this flavor (cds_lfht_new). */
#ifndef URCU_API_MAP
#define URCU_API_MAP
#endif
#define rcu_flavor                       urcu_signal_flavor
#define urcu_register_rculfhash_atfork   urcu_signal_register_rculfhash_atfork
#define urcu_unregister_rculfhash_atfork urcu_signal_unregister_rculfhash_atfork

#endif /* URCU_MAP_URCU_SIGNAL_H */
