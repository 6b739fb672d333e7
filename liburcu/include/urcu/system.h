// SPDX-License-Identifier: MIT
/*
 * <urcu/system.h>: loads and stores of shared variables that other threads
 * access concurrently without locks.
 *
 * CMM_LOAD_SHARED(x) reads x once (a volatile access, never torn for
 * naturally aligned words, never repeated or elided by the compiler); it is
 * preceded by cmm_smp_rmc() so that, on a cache-incoherent machine, the read
 * sees other processors' flushed writes.  CMM_STORE_SHARED(x, v) writes v
 * once, follows it with cmm_smp_wmc() to push it out, and yields v.
 *
 * Ordering contract: neither orders anything at the hardware level.  Both
 * are compiler barriers (cmm_smp_rmc/wmc are compiler barriers on every
 * coherent machine), so the compiler keeps them in program order with the
 * accesses around them; pair them with cmm_smp_* barriers or uatomic
 * operations with a memory order for inter-thread ordering.
 */
#ifndef URCU_SYSTEM_H
#define URCU_SYSTEM_H

#include <urcu/compiler.h>
#include <urcu/arch.h>

#ifndef URCU_I_TSAN
#define CMM_LOAD_SHARED(x)					\
	__extension__ ({					\
		cmm_smp_rmc();					\
		CMM_ACCESS_ONCE(x);				\
	})

#define CMM_STORE_SHARED(x, v)					\
	__extension__ ({					\
		__typeof__(x) urcu_i_store_shared_v = (v);	\
		CMM_ACCESS_ONCE(x) = urcu_i_store_shared_v;	\
		cmm_smp_wmc();					\
		urcu_i_store_shared_v;				\
	})
#else
/*
 * ThreadSanitizer builds only: TSan treats a volatile access as a plain one
 * and would report every shared load and store as a race, so they are
 * atomic here; acquire and release because TSan cannot pair them with the
 * fences next to them (urcu/uatomic.h, end, says what that costs).
 */
#define CMM_LOAD_SHARED(x)					\
	__extension__ ({					\
		cmm_smp_rmc();					\
		__atomic_load_n(&(x), __ATOMIC_ACQUIRE);	\
	})

#define CMM_STORE_SHARED(x, v)					\
	__extension__ ({					\
		__typeof__(x) urcu_i_store_shared_v = (v);	\
		__atomic_store_n(&(x), urcu_i_store_shared_v,	\
				 __ATOMIC_RELEASE);		\
		cmm_smp_wmc();					\
		urcu_i_store_shared_v;				\
	})
#endif

#endif /* URCU_SYSTEM_H */
