// SPDX-License-Identifier: MIT
/*
 * Prototypes of one flavor's public API, written once for all flavors.
 *
 * This is a template: it has no include guard and is included by each direct
 * flavor header (urcu/urcu-memb.h, ...) with URCU_I_FLAVOR(name) defined to
 * paste the flavor prefix, e.g. URCU_I_FLAVOR(call_rcu) -> urcu_memb_call_rcu.
 * Token pasting does not macro-expand its operands, so generic names that an
 * umbrella header already mapped (call_rcu, rcu_barrier, ...) cannot leak into
 * a second flavor's declarations.
 *
 * The ordering contract of each function is documented at its definition in
 * liburcu/src/ and in its man page; the short form is repeated here.
 */
#ifndef URCU_I_FLAVOR
#error "urcu/static/urcu-flavor-api.h is included by the flavor headers only"
#endif

/* Every header below has its own guard: repeated inclusion is free. */
#include <stdbool.h>
#include <pthread.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>
#include <urcu/pointer.h>
#include <urcu/urcu-poll.h>
#include <urcu/call-rcu.h>
#include <urcu/defer.h>
#include <urcu/flavor.h>
#include <urcu/static/urcu-gp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Lifetime.  init is idempotent; exit may be called as many times as init. */
URCU_API void URCU_I_FLAVOR(init)(void);
URCU_API void URCU_I_FLAVOR(exit)(void);

/* Registration of the calling thread as a reader (bp: optional, lazy). */
URCU_API void URCU_I_FLAVOR(register_thread)(void);
URCU_API void URCU_I_FLAVOR(unregister_thread)(void);

/*
 * Read side.  read_lock/read_unlock nest.  A grace period that begins after
 * the outermost read_lock waits for the matching outermost read_unlock;
 * accesses inside the critical section are ordered inside it.
 */
URCU_API URCU_I_HOT void URCU_I_FLAVOR(read_lock)(void);
URCU_API URCU_I_HOT void URCU_I_FLAVOR(read_unlock)(void);
URCU_API URCU_I_HOT int URCU_I_FLAVOR(read_ongoing)(void);

/* qsbr only; no-ops in the other flavors so portable code may call them. */
URCU_API URCU_I_HOT void URCU_I_FLAVOR(quiescent_state)(void);
URCU_API void URCU_I_FLAVOR(thread_offline)(void);
URCU_API void URCU_I_FLAVOR(thread_online)(void);

/*
 * Update side.  synchronize_rcu returns after every read-side critical section
 * that began before the call has ended; it is a full memory barrier.
 */
URCU_API void URCU_I_FLAVOR(synchronize_rcu)(void);
URCU_API struct urcu_gp_poll_state URCU_I_FLAVOR(start_poll_synchronize_rcu)(void);
URCU_API bool URCU_I_FLAVOR(poll_state_synchronize_rcu)(struct urcu_gp_poll_state state);

/* call_rcu and its worker threads (urcu/call-rcu.h has the types). */
URCU_API void URCU_I_FLAVOR(call_rcu)(struct rcu_head *head,
		void (*func)(struct rcu_head *head));
URCU_API struct call_rcu_data *URCU_I_FLAVOR(create_call_rcu_data)(unsigned long flags,
		int cpu_affinity);
URCU_API void URCU_I_FLAVOR(call_rcu_data_free)(struct call_rcu_data *crdp);
URCU_API struct call_rcu_data *URCU_I_FLAVOR(get_default_call_rcu_data)(void);
URCU_API struct call_rcu_data *URCU_I_FLAVOR(get_cpu_call_rcu_data)(int cpu);
URCU_API struct call_rcu_data *URCU_I_FLAVOR(get_thread_call_rcu_data)(void);
URCU_API struct call_rcu_data *URCU_I_FLAVOR(get_call_rcu_data)(void);
URCU_API pthread_t URCU_I_FLAVOR(get_call_rcu_thread)(struct call_rcu_data *crdp);
URCU_API void URCU_I_FLAVOR(set_thread_call_rcu_data)(struct call_rcu_data *crdp);
URCU_API int URCU_I_FLAVOR(set_cpu_call_rcu_data)(int cpu, struct call_rcu_data *crdp);
URCU_API int URCU_I_FLAVOR(create_all_cpu_call_rcu_data)(unsigned long flags);
URCU_API void URCU_I_FLAVOR(free_all_cpu_call_rcu_data)(void);
URCU_API void URCU_I_FLAVOR(call_rcu_before_fork)(void);
URCU_API void URCU_I_FLAVOR(call_rcu_after_fork_parent)(void);
URCU_API void URCU_I_FLAVOR(call_rcu_after_fork_child)(void);
URCU_API void URCU_I_FLAVOR(barrier)(void);

/* defer_rcu (urcu/defer.h). */
URCU_API void URCU_I_FLAVOR(defer_rcu)(void (*fct)(void *p), void *p);
URCU_API int URCU_I_FLAVOR(defer_register_thread)(void);
URCU_API void URCU_I_FLAVOR(defer_unregister_thread)(void);
URCU_API void URCU_I_FLAVOR(defer_barrier)(void);
URCU_API void URCU_I_FLAVOR(defer_barrier_thread)(void);
URCU_API void URCU_I_FLAVOR(defer_exit)(void);

/* Hooks run by the call_rcu fork functions (for lock-free hash tables). */
URCU_API void URCU_I_FLAVOR(register_rculfhash_atfork)(struct urcu_atfork *atfork);
URCU_API void URCU_I_FLAVOR(unregister_rculfhash_atfork)(struct urcu_atfork *atfork);

#ifdef URCU_I_FLAVOR_HAS_FORK_HANDLERS
/*
 * bp only: call around fork() so the reader registry stays consistent:
 * before_fork in the parent before fork(), after_fork_parent in the parent
 * after it, after_fork_child in the child (which keeps only its own thread).
 */
URCU_API void URCU_I_FLAVOR(before_fork)(void);
URCU_API void URCU_I_FLAVOR(after_fork_parent)(void);
URCU_API void URCU_I_FLAVOR(after_fork_child)(void);
#endif

/* Runtime flavor table (urcu/flavor.h). */
URCU_API extern const struct rcu_flavor_struct URCU_I_FLAVOR(flavor);

#ifdef __cplusplus
}
#endif
