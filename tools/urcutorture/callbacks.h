/* SPDX-License-Identifier: MIT */
/* Callback accounting and other helpers shared by the modes (callbacks.c). */
#ifndef UT_CALLBACKS_H
#define UT_CALLBACKS_H

#include "ut-mode.h"

enum { UT_CB_IDLE, UT_CB_POSTED, UT_CB_INVOKED };

struct ut_cb {
	struct rcu_head head;
	uint64_t seq;
	uint64_t enqueue_ns;
	int state;		/* UT_CB_*, atomic */
	int worker;		/* tool's worker index at post time */
};

/* Post cb through the flavor's call_rcu, counting it. */
void ut_cb_post(struct ut_run *run, struct ut_thread *t, struct ut_cb *cb,
		void (*func)(struct rcu_head *head));
/* First thing in a callback: false (and an error counted) on a duplicate. */
bool ut_cb_begin(struct ut_run *run, struct ut_cb *cb);
/* Last thing in a callback, after any re-post. */
void ut_cb_end(struct ut_run *run);
/* After the drain: posted but never invoked -> callback_lost. */
void ut_cb_check_lost(struct ut_run *run);
void ut_outstanding_note(struct ut_run *run);
uint64_t ut_outstanding(struct ut_run *run);
/* The stat lines' callback figure, labelled as the end table's order is:
 * "cbs posted/invoked P/I" (relaxed snapshots). */
void ut_cbs_stat(struct ut_run *run, char *buf, size_t len);
/* Sleep; qsbr threads go offline meanwhile. */
void ut_rcu_pause(struct ut_thread *t, uint64_t ns);

/* Reader loop of the measuring modes: lock, dereference, --read-delay,
 * unlock, quiescent state; counts reads. */
void *ut_plain_reader(struct ut_thread *t);

/*
 * A data-structure reader's pause inside its read-side section, with nodes
 * in hand (mode-hash.c, mode-queue.c): --read-delay when given; else, drawn
 * from the thread's random stream, 20-50 us when the bits of long_mask are
 * all zero, short_ns .. short_ns + 2 us when those of short_mask are, and
 * no pause otherwise.
 */
static inline void ut_reader_linger(struct ut_thread *t, uint64_t long_mask,
				    uint64_t short_mask, uint64_t short_ns)
{
	const struct ut_config *cfg = t->run->cfg;
	uint64_t r;

	if (cfg->read_delay_ns) {
		ut_spin_ns(cfg->read_delay_ns);
		return;
	}
	r = ut_rng_next(&t->rng);
	if ((r & long_mask) == 0)
		ut_spin_ns(20000 + (r >> 40) % 30000);
	else if ((r & short_mask) == 0)
		ut_spin_ns(short_ns + (r >> 40) % 2000);
}

#endif /* UT_CALLBACKS_H */
