// SPDX-License-Identifier: MIT
/*
 * The suffixed aliases of every flavor in one translation unit: the five
 * direct headers together define rcu_read_lock_memb, rcu_read_lock_mb,
 * rcu_read_lock_sig, rcu_read_lock_qsbr, rcu_read_lock_bp, ... side by side
 * (liburcu's "prior undocumented multiflavor usage"), and each reaches its
 * own flavor.  Built with and without _LGPL_SOURCE.
 */
#include <stddef.h>

#include <urcu/urcu-memb.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-signal.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-bp.h>

#include "tap.h"

/*
 * One flavor's round: register, a nested read-side critical section through
 * the plain and the underscore aliases, a grace period, unregister.  qsbr's
 * "ongoing" means online; its grace period is waited for offline.
 */
#define ROUND(sfx, is_qsbr)							\
	do {									\
		int inside, after;						\
										\
		rcu_register_thread_##sfx();					\
		rcu_read_lock_##sfx();						\
		_rcu_read_lock_##sfx();						\
		inside = rcu_read_ongoing_##sfx() && _rcu_read_ongoing_##sfx();\
		_rcu_read_unlock_##sfx();					\
		rcu_read_unlock_##sfx();					\
		after = rcu_read_ongoing_##sfx();				\
		if (is_qsbr)							\
			rcu_unregister_thread_##sfx();				\
		synchronize_rcu_##sfx();					\
		rcu_barrier_##sfx();						\
		if (!(is_qsbr))							\
			rcu_unregister_thread_##sfx();				\
		tap_ok(inside && (is_qsbr ? after : !after),			\
		       #sfx ": read side through the suffixed aliases");	\
	} while (0)

int main(void)
{
	ROUND(memb, 0);
	ROUND(mb, 0);
	ROUND(sig, 0);
	ROUND(qsbr, 1);
	ROUND(bp, 0);

	/* Five different tables: each alias reaches its own flavor. */
	tap_ok(rcu_flavor_memb.update_synchronize_rcu == urcu_memb_synchronize_rcu
	       && rcu_flavor_mb.update_synchronize_rcu == urcu_mb_synchronize_rcu
	       && rcu_flavor_sig.update_synchronize_rcu == urcu_signal_synchronize_rcu
	       && rcu_flavor_qsbr.update_synchronize_rcu == urcu_qsbr_synchronize_rcu
	       && rcu_flavor_bp.update_synchronize_rcu == urcu_bp_synchronize_rcu,
	       "rcu_flavor_<suffix> is each flavor's own table");
	return tap_done();
}
