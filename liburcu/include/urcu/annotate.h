// SPDX-License-Identifier: MIT
/*
 * Memory-ordering annotations for ThreadSanitizer (liburcu 0.15's
 * urcu/annotate.h, which liburcu calls experimental).
 *
 * ThreadSanitizer does not model stand-alone fences, so code that orders
 * plain or relaxed accesses with cmm_smp_mb() and friends looks racy to it.
 * These annotations name the memory a fence is meant to order, so that the
 * tool sees the happens-before edge:
 *
 *	cmm_annotate_define(g);			one group of accesses
 *	v = uatomic_load(&x, CMM_RELAXED);
 *	cmm_annotate_group_mem_acquire(&g, &x);	x was read before...
 *	cmm_annotate_group_mb_acquire(&g);	...this acquire fence
 *
 *	cmm_annotate_group_mb_release(&g);	a release fence, then...
 *	uatomic_store(&y, 1, CMM_RELAXED);
 *	cmm_annotate_group_mem_release(&g, &y);	...y is written after it
 *
 *	cmm_annotate_mem_acquire(&x);		no group: acquire on x
 *	cmm_annotate_mem_release(&y);		no group: release on y
 *
 * A group records what was annotated so far (CMM_ANNOTATE_VOID, _LOAD,
 * _STORE, _MB) and checks the order: in an acquire group the loads come
 * before its one fence, in a release group the stores after it.
 *
 * What they compile to.  In a ThreadSanitizer build (gcc or clang with
 * -fsanitize=thread, detected by <urcu/compiler.h>, or any build that
 * defines CMM_SANITIZE_THREAD as liburcu allows) the mem annotations call
 * the runtime's __tsan_acquire()/__tsan_release() on the address, and the
 * group checks run: a group used out of order prints one line naming the
 * file, function and line, then aborts, as liburcu's do.  Everywhere else
 * every annotation compiles to nothing (the group is only evaluated, for
 * its diagnostics), so the fences alone order the accesses, as they always
 * do on the hardware.  These headers' own fences need no annotation: in
 * ThreadSanitizer builds they are atomic read-modify-writes of one shared
 * word, which the tool models (urcu/arch.h).
 */
#ifndef URCU_ANNOTATE_H
#define URCU_ANNOTATE_H

#include <stdio.h>
#include <stdlib.h>
#include <urcu/compiler.h>

/* What a group has seen so far. */
enum cmm_annotate {
	CMM_ANNOTATE_VOID,	/* nothing yet */
	CMM_ANNOTATE_LOAD,	/* loads, awaiting the acquire fence */
	CMM_ANNOTATE_STORE,	/* kept for liburcu's checks; never recorded */
	CMM_ANNOTATE_MB,	/* the group's fence */
};

typedef enum cmm_annotate cmm_annotate_t;

/* Define (and start) a group of annotated accesses named name. */
#define cmm_annotate_define(name)					\
	cmm_annotate_t name __attribute__((unused)) = CMM_ANNOTATE_VOID

#if defined(CMM_SANITIZE_THREAD) || defined(URCU_I_TSAN)

#ifdef __cplusplus
extern "C" {
#endif
/* ThreadSanitizer's runtime: an acquire / release on the address. */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#ifdef __cplusplus
}
#endif

/* An annotation used out of order: say where, and stop. */
#define cmm_annotate_die(msg)						\
	do {								\
		fprintf(stderr, "(" __FILE__ ":%s@%u) Annotation ERROR: %s\n", \
			__func__, (unsigned int) __LINE__, msg);	\
		abort();						\
	} while (0)

/* The group's state; also checks at compile time that group points to one. */
static inline cmm_annotate_t cmm_annotate_dereference(cmm_annotate_t *group)
{
	return *group;
}

#define cmm_annotate_group_mb_acquire(group)				\
	do {								\
		cmm_annotate_t urcu_i_ann_s = cmm_annotate_dereference(group); \
		if (urcu_i_ann_s == CMM_ANNOTATE_STORE)			\
			cmm_annotate_die("store for acquire group");	\
		else if (urcu_i_ann_s == CMM_ANNOTATE_MB)		\
			cmm_annotate_die("redundant mb for acquire group"); \
		*(group) = CMM_ANNOTATE_MB;				\
	} while (0)

#define cmm_annotate_group_mb_release(group)				\
	do {								\
		cmm_annotate_t urcu_i_ann_s = cmm_annotate_dereference(group); \
		if (urcu_i_ann_s == CMM_ANNOTATE_LOAD)			\
			cmm_annotate_die("load before release group");	\
		else if (urcu_i_ann_s == CMM_ANNOTATE_STORE)		\
			cmm_annotate_die("store before release group");	\
		else if (urcu_i_ann_s == CMM_ANNOTATE_MB)		\
			cmm_annotate_die("redundant mb of release group"); \
		*(group) = CMM_ANNOTATE_MB;				\
	} while (0)

#define cmm_annotate_group_mem_acquire(group, mem)			\
	do {								\
		cmm_annotate_t urcu_i_ann_s;				\
									\
		__tsan_acquire((void *) (mem));				\
		urcu_i_ann_s = cmm_annotate_dereference(group);		\
		if (urcu_i_ann_s == CMM_ANNOTATE_VOID)			\
			*(group) = CMM_ANNOTATE_LOAD;			\
		else if (urcu_i_ann_s == CMM_ANNOTATE_MB)		\
			cmm_annotate_die("load after mb for acquire group"); \
	} while (0)

#define cmm_annotate_group_mem_release(group, mem)			\
	do {								\
		__tsan_release((void *) (mem));				\
		if (cmm_annotate_dereference(group) != CMM_ANNOTATE_MB)	\
			cmm_annotate_die("missing mb for release group"); \
	} while (0)

#define cmm_annotate_mem_acquire(mem)	__tsan_acquire((void *) (mem))
#define cmm_annotate_mem_release(mem)	__tsan_release((void *) (mem))

#else /* no ThreadSanitizer */

#define cmm_annotate_group_mb_acquire(group)		((void) (group))
#define cmm_annotate_group_mb_release(group)		((void) (group))
#define cmm_annotate_group_mem_acquire(group, mem)	((void) (group))
#define cmm_annotate_group_mem_release(group, mem)	((void) (group))
#define cmm_annotate_mem_acquire(mem)			do { } while (0)
#define cmm_annotate_mem_release(mem)			do { } while (0)

#endif /* ThreadSanitizer */

#endif /* URCU_ANNOTATE_H */
