/* SPDX-License-Identifier: MIT */
/*
 * Deferred-free lists of the data-structure modes (see reclaim.h).
 *
 * The shared push is a lock-free Treiber push with relaxed atomics only:
 * nothing pops concurrently, and the list is read (and freed) only after
 * every thread that pushed was joined, the join giving the ordering.
 */
#include <stdlib.h>

#include "callbacks.h"
#include "common.h"
#include "reclaim.h"

void ut_dead_push_shared(struct ut_deadlist *l, struct ut_dead *d)
{
	struct ut_dead *old = __atomic_load_n(&l->head, __ATOMIC_RELAXED);

	/* Relaxed: the list is read only after the threads are joined. */
	do
		d->next = old;
	while (!__atomic_compare_exchange_n(&l->head, &old, d, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	__atomic_add_fetch(&l->count, 1, __ATOMIC_RELAXED);
}

void ut_dead_push(struct ut_deadlist *l, struct ut_dead *d)
{
	d->next = l->head;
	l->head = d;
	l->count++;
}

bool ut_reclaim_bound(struct ut_thread *t, const struct ut_deadlist *graveyard, uint64_t cap)
{
	struct ut_run *run = t->run;

	/* Relaxed: a bound only, as ut_outstanding. */
	if (ut_outstanding(run) < run->cfg->max_outstanding &&
	    __atomic_load_n(&graveyard->count, __ATOMIC_RELAXED) < cap)
		return false;
	ut_thread_set_state(t, "reclaim bound");
	ut_rcu_pause(t, 20000);
	ut_count(&t->progress, 1);
	return true;
}

void ut_dead_free_all(struct ut_deadlist *l, size_t offset)
{
	while (l->head) {
		struct ut_dead *d = l->head;

		l->head = d->next;
		free((char *)d - offset);
	}
	l->count = 0;
}

void ut_reclaim_dispose(const struct ut_run *run, struct ut_deadlist *graveyard,
			struct ut_dead *link, void *node)
{
	if (run->ops->is_busted)
		ut_dead_push_shared(graveyard, link);
	else
		free(node);
}

void ut_graveyard_report(const struct ut_config *cfg, uint64_t n)
{
	if (n)
		ut_out(&cfg->inv->sink, "  busted          %llu poisoned nodes kept unfreed until the end\n",
		       (unsigned long long)n);
}
