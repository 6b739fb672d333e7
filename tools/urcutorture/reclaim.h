/* SPDX-License-Identifier: MIT */
/*
 * Deferred-free lists of the data-structure modes (reclaim.c): the busted
 * graveyard, where a reclaim callback keeps the nodes it poisoned (under
 * busted a reader may still hold them, so they are freed only once every
 * thread is joined), and the lists finish builds while draining.
 */
#ifndef UT_RECLAIM_H
#define UT_RECLAIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ut-mode.h"

/* The link a node embeds; the node itself came from malloc. */
struct ut_dead {
	struct ut_dead *next;
};

struct ut_deadlist {
	struct ut_dead *head;
	uint64_t count;
};

/* Push from any thread, concurrently with other pushes (the callbacks). */
void ut_dead_push_shared(struct ut_deadlist *l, struct ut_dead *d);
/* Push from the only thread left (finish). */
void ut_dead_push(struct ut_deadlist *l, struct ut_dead *d);
/*
 * An updater's check before it removes more: true (after a short pause,
 * counted as progress) while --max-outstanding callbacks are pending or
 * graveyard holds cap nodes or more.
 */
bool ut_reclaim_bound(struct ut_thread *t, const struct ut_deadlist *graveyard, uint64_t cap);
/* Free every node on l, whose link is at offset in the node; empties l. */
void ut_dead_free_all(struct ut_deadlist *l, size_t offset);

/*
 * The end of a reclaim callback, after the node was poisoned: under the
 * busted flavor keep it on graveyard, otherwise free it.
 */
void ut_reclaim_dispose(const struct ut_run *run, struct ut_deadlist *graveyard,
			struct ut_dead *link, void *node);
/* The report's line for a non-empty graveyard of n nodes. */
void ut_graveyard_report(const struct ut_config *cfg, uint64_t n);

#endif /* UT_RECLAIM_H */
