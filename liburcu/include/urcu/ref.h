// SPDX-License-Identifier: MIT
/*
 * Atomic reference counts (struct urcu_ref).
 *
 * An object embeds a struct urcu_ref, starts at one reference
 * (urcu_ref_init()), gains references with urcu_ref_get() and loses them
 * with urcu_ref_put(), which calls the release function when the count
 * reaches zero.  urcu_ref_get_unless_zero() is for finding objects through
 * a structure that may still show them while their count drops to zero (an
 * RCU-protected list or hash table): it refuses an object already on its
 * way out.
 *
 * The count saturates at LONG_MAX: urcu_ref_get() reports the overflow and
 * aborts rather than wrap to a count that would free the object under its
 * users.  Dropping below zero is reported the same way.
 */
#ifndef URCU_REF_H
#define URCU_REF_H

#include <assert.h>	/* liburcu's ref.h brings assert and static_assert in */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <urcu/compiler.h>
#include <urcu/uatomic.h>

#ifdef __cplusplus
extern "C" {
#endif

struct urcu_ref {
	long refcount;	/* accessed with uatomic_* only */
};

/*
 * Set the count to val.  Ordering: none (a relaxed store); meant for
 * initialisation before the object is shared.
 */
static inline void urcu_ref_set(struct urcu_ref *ref, long val)
{
	uatomic_set(&ref->refcount, val);
}

/* Start the count at one reference.  Ordering: none, as urcu_ref_set(). */
static inline void urcu_ref_init(struct urcu_ref *ref)
{
	urcu_ref_set(ref, 1);
}

/*
 * Add one reference unless the count is at limit or would pass LONG_MAX;
 * return whether it was added.  A compare-and-exchange loop, so the count
 * never moves unless the reference is granted.
 */
static inline bool urcu_i_ref_get_if_above(struct urcu_ref *ref, long limit)
{
	long old = uatomic_read(&ref->refcount);

	for (;;) {
		long seen;

		if (old <= limit || old == LONG_MAX)
			return false;
		/* Full barrier (uatomic_cmpxchg): see the callers. */
		seen = uatomic_cmpxchg(&ref->refcount, old, old + 1);
		if (seen == old)
			return true;
		old = seen;
	}
}

/*
 * Take a reference, failing (false) instead of overflowing when the count
 * is already LONG_MAX.  The caller must already hold a reference or
 * otherwise know the object is alive.  Ordering: full barrier when the
 * reference is taken.
 */
static inline bool __attribute__((warn_unused_result))
urcu_ref_get_safe(struct urcu_ref *ref)
{
	return urcu_i_ref_get_if_above(ref, LONG_MIN);
}

/*
 * Take a reference; the caller must already hold one or otherwise know the
 * object is alive.  Aborts with a message if the count would overflow.
 * Ordering: full barrier.
 */
static inline void urcu_ref_get(struct urcu_ref *ref)
{
	if (caa_unlikely(!urcu_ref_get_safe(ref))) {
		fprintf(stderr, "urcu_ref_get: reference count overflow (LONG_MAX references)\n");
		abort();
	}
}

/*
 * Drop a reference; the one that brings the count to zero calls
 * release(ref).  Ordering: full barrier (uatomic_sub_return()), so
 * everything a holder did before its put happens before release() runs in
 * whichever thread drops the last reference.  Aborts with a message if the
 * count goes negative (more puts than gets).
 */
static inline void urcu_ref_put(struct urcu_ref *ref,
		void (*release)(struct urcu_ref *))
{
	/* Full barrier: pairs with the other holders' puts (see above). */
	long res = uatomic_sub_return(&ref->refcount, 1);

	if (caa_unlikely(res < 0)) {
		fprintf(stderr, "urcu_ref_put: reference count went negative (put without get)\n");
		abort();
	}
	if (res == 0)
		release(ref);
}

/*
 * Take a reference if the count is not zero (nor LONG_MAX); return whether
 * it was taken.  The object's memory must be guaranteed to exist by other
 * means, typically an RCU read-side critical section around a lookup with
 * release deferred by call_rcu().  Ordering: full barrier when taken, so
 * reads of the object made afterwards are ordered after the count check.
 */
static inline bool urcu_ref_get_unless_zero(struct urcu_ref *ref)
{
	return urcu_i_ref_get_if_above(ref, 0);
}

#ifdef __cplusplus
}
#endif

#endif /* URCU_REF_H */
