// SPDX-License-Identifier: MIT
/*
 * The runtime flavor table urcu_<flavor>_flavor (rcu_flavor under an
 * umbrella header): the flavor's exported functions, for flavor-agnostic
 * code such as the lock-free hash table.  Compiled once per flavor.
 */
/* The table must point at the exported functions, not at inline copies. */
#undef _LGPL_SOURCE

#include "flavor.h"

const struct rcu_flavor_struct URCU_FN(flavor) = {
	.read_lock			= URCU_FN(read_lock),
	.read_unlock			= URCU_FN(read_unlock),
	.read_ongoing			= URCU_FN(read_ongoing),
	.read_quiescent_state		= URCU_FN(quiescent_state),
	.update_call_rcu		= URCU_FN(call_rcu),
	.update_synchronize_rcu		= URCU_FN(synchronize_rcu),
	.update_defer_rcu		= URCU_FN(defer_rcu),
	.thread_offline			= URCU_FN(thread_offline),
	.thread_online			= URCU_FN(thread_online),
	.register_thread		= URCU_FN(register_thread),
	.unregister_thread		= URCU_FN(unregister_thread),
	.barrier			= URCU_FN(barrier),
	.register_rculfhash_atfork	= URCU_FN(register_rculfhash_atfork),
	.unregister_rculfhash_atfork	= URCU_FN(unregister_rculfhash_atfork),
	.update_start_poll_synchronize_rcu = URCU_FN(start_poll_synchronize_rcu),
	.update_poll_state_synchronize_rcu = URCU_FN(poll_state_synchronize_rcu),
	.urcu_i_thread_registered	= URCU_FN(i_registered),
};
