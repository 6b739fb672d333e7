// SPDX-License-Identifier: MIT
/*
 * The runtime flavor table: one constant struct per flavor
 * (urcu_memb_flavor, urcu_qsbr_flavor, ...; rcu_flavor under an umbrella
 * header) through which flavor-agnostic code such as the lock-free hash table
 * calls the flavor chosen by the application.
 */
#ifndef URCU_FLAVOR_H
#define URCU_FLAVOR_H

#include <stdbool.h>
#include <urcu/compiler.h>
#include <urcu/urcu-poll.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rcu_head;

/*
 * Fork hooks a data structure with its own worker threads (rculfhash's
 * resize workers) registers with the flavor's call_rcu machinery.  They are
 * called, with priv, by call_rcu_before_fork(), call_rcu_after_fork_parent()
 * and call_rcu_after_fork_child() respectively.
 */
struct urcu_atfork {
	void (*before_fork)(void *priv);
	void (*after_fork_parent)(void *priv);
	void (*after_fork_child)(void *priv);
	void *priv;
};

/*
 * Field order is part of the ABI (liburcu's order, then the polled grace
 * period entries of liburcu 0.14 at the end).  qsbr-only entries
 * (read_quiescent_state, thread_offline, thread_online) are no-ops in the
 * other flavors.
 */
struct rcu_flavor_struct {
	void (*read_lock)(void);
	void (*read_unlock)(void);
	int (*read_ongoing)(void);
	void (*read_quiescent_state)(void);
	void (*update_call_rcu)(struct rcu_head *head,
			void (*func)(struct rcu_head *head));
	void (*update_synchronize_rcu)(void);
	void (*update_defer_rcu)(void (*fct)(void *p), void *p);

	void (*thread_offline)(void);
	void (*thread_online)(void);
	void (*register_thread)(void);
	void (*unregister_thread)(void);

	void (*barrier)(void);

	void (*register_rculfhash_atfork)(struct urcu_atfork *atfork);
	void (*unregister_rculfhash_atfork)(struct urcu_atfork *atfork);

	struct urcu_gp_poll_state (*update_start_poll_synchronize_rcu)(void);
	bool (*update_poll_state_synchronize_rcu)(struct urcu_gp_poll_state state);

	/*
	 * Ours, after liburcu's fields: non-zero when the calling thread is
	 * registered with the flavor (always, for bp).  Lets flavor-agnostic
	 * code such as cds_lfht_resize() report an unregistered caller by
	 * its own name.  A flavor table written by hand may leave it NULL.
	 */
	int (*urcu_i_thread_registered)(void);
};

/*
 * Per-flavor registration of fork hooks (urcu_register_rculfhash_atfork under
 * an umbrella header).  The hooks are kept in a list; registering the same
 * struct twice is not allowed.  Declared for every flavor here, by its
 * prefixed name only, so that flavors coexist in one translation unit.
 */
#define URCU_I_DECLARE_ATFORK(flavor)						\
	URCU_API void urcu_##flavor##_register_rculfhash_atfork(struct urcu_atfork *atfork); \
	URCU_API void urcu_##flavor##_unregister_rculfhash_atfork(struct urcu_atfork *atfork);

URCU_I_DECLARE_ATFORK(memb)
URCU_I_DECLARE_ATFORK(mb)
URCU_I_DECLARE_ATFORK(qsbr)
URCU_I_DECLARE_ATFORK(bp)
URCU_I_DECLARE_ATFORK(signal)

#undef URCU_I_DECLARE_ATFORK

/*
 * DEFINE_RCU_FLAVOR(name): define a flavor table from the generic names of
 * the flavor selected by the umbrella header included before it.  Kept for
 * source compatibility; the library defines urcu_<flavor>_flavor itself.
 */
#define DEFINE_RCU_FLAVOR(x)						\
const struct rcu_flavor_struct x = {					\
	.read_lock			= rcu_read_lock,			\
	.read_unlock			= rcu_read_unlock,			\
	.read_ongoing			= rcu_read_ongoing,			\
	.read_quiescent_state		= rcu_quiescent_state,			\
	.update_call_rcu		= call_rcu,				\
	.update_synchronize_rcu		= synchronize_rcu,			\
	.update_defer_rcu		= defer_rcu,				\
	.thread_offline			= rcu_thread_offline,			\
	.thread_online			= rcu_thread_online,			\
	.register_thread		= rcu_register_thread,			\
	.unregister_thread		= rcu_unregister_thread,		\
	.barrier			= rcu_barrier,				\
	.register_rculfhash_atfork	= urcu_register_rculfhash_atfork,	\
	.unregister_rculfhash_atfork	= urcu_unregister_rculfhash_atfork,	\
	.update_start_poll_synchronize_rcu = start_poll_synchronize_rcu,	\
	.update_poll_state_synchronize_rcu = poll_state_synchronize_rcu,	\
}

#ifdef __cplusplus
}
#endif

#endif /* URCU_FLAVOR_H */
