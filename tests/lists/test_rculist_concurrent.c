// SPDX-License-Identifier: MIT
/*
 * One updater and one reader on the same list, concurrently: the updater
 * changes the list only with the _rcu primitives while the reader walks it
 * with the _rcu iterators and checks every element it reaches.  Not a
 * benchmark; each phase stops after about 0.3 s or when its pool runs out.
 *
 * There is no RCU library here, so nothing is ever freed or reused while the
 * reader runs: elements come from a pool and each one is inserted at most
 * once.  Removed elements stay intact, which is exactly what a reader still
 * standing on one may rely on before a grace period ends.
 *
 * Workload and invariant.  Elements carry a sequence number.  Insertions at
 * the tail take increasing numbers from 0, insertions at the front take
 * decreasing numbers from -1, and a replacement takes the number of the
 * element it replaces, so the list is always sorted.  A removed element's
 * next pointer is frozen on a successor with a larger number, so a reader
 * that is overtaken by removals still sees strictly increasing numbers.
 * The reader therefore checks, for each element: a valid magic word, the
 * check field equal to ~seq (both written before publication), numbers
 * strictly increasing along the walk, and a walk no longer than the number
 * of elements that exist (no cycle).  Phase 1 uses cds_list_*_rcu, phase 2
 * cds_hlist_*_rcu.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <urcu/rculist.h>
#include <urcu/rcuhlist.h>
#include "tap.h"

#define POOL_SIZE	200000
#define RUN_NS		300000000LL
#define RUN_MAX_NS	10000000000LL
#define WALKS_WANTED	10
#define LIVE_MAX	64
#define ELEM_MAGIC	0x5eedf00dUL

struct elem {
	unsigned long magic;
	long seq;
	long check;
	struct cds_list_head node;
	struct cds_hlist_node hnode;
};

static struct elem *pool;
static long pool_used;

static CDS_LIST_HEAD(list);
static struct cds_hlist_head hlist;

static int stop;		/* uatomic_load / uatomic_store, relaxed */
static int reader_started;	/* likewise */
/* Non-empty walks of the current phase's reader (relaxed): the updaters go on
 * past RUN_NS, up to RUN_MAX_NS, until the reader has walked a busy list. */
static long nonempty_now;

struct reader_result {
	long walks;
	long nonempty_walks;
	long visits;
	long max_len;
	char error[200];
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct elem *new_elem(long seq)
{
	struct elem *e;

	if (pool_used == POOL_SIZE)
		return NULL;
	e = &pool[pool_used++];
	e->seq = seq;
	e->check = ~seq;
	e->magic = ELEM_MAGIC;
	return e;
}

/*
 * Check one element reached by a walk; prev_seq is the number of the element
 * before it.  Returns 0 and fills r->error on the first problem.
 */
static int visit(struct reader_result *r, const struct elem *e, long *prev_seq,
		 long *len, int first)
{
	if (e < pool || e >= pool + POOL_SIZE) {
		snprintf(r->error, sizeof(r->error), "walk left the pool (%p)", (const void *) e);
		return 0;
	}
	if (e->magic != ELEM_MAGIC || e->check != ~e->seq) {
		snprintf(r->error, sizeof(r->error),
			 "element %ld seen uninitialised (magic %#lx, check %ld)",
			 (long) (e - pool), e->magic, e->check);
		return 0;
	}
	if (!first && e->seq <= *prev_seq) {
		snprintf(r->error, sizeof(r->error),
			 "numbers not increasing: %ld after %ld", e->seq, *prev_seq);
		return 0;
	}
	if (++*len > POOL_SIZE) {
		snprintf(r->error, sizeof(r->error), "walk longer than the pool: cycle");
		return 0;
	}
	*prev_seq = e->seq;
	return 1;
}

static void finish_walk(struct reader_result *r, long len)
{
	r->walks++;
	if (len) {
		r->nonempty_walks++;
		uatomic_store(&nonempty_now, r->nonempty_walks, CMM_RELAXED);
	}
	r->visits += len;
	if (len > r->max_len)
		r->max_len = len;
}

/*
 * One walk of the list, alternating between the two iterator forms from
 * walk to walk; its length in *len.  0 on the first problem (in r->error).
 */
static int walk_list(struct reader_result *r, long *len)
{
	long prev = 0;

	if (r->walks & 1) {
		struct elem *e;

		cds_list_for_each_entry_rcu(e, &list, node) {
			if (!visit(r, e, &prev, len, *len == 0))
				return 0;
		}
	} else {
		struct cds_list_head *pos;

		cds_list_for_each_rcu(pos, &list) {
			if (!visit(r, cds_list_entry(pos, struct elem, node),
				   &prev, len, *len == 0))
				return 0;
		}
	}
	return 1;
}

/* The same for the hlist, with the kernel-style and the liburcu iterator. */
static int walk_hlist(struct reader_result *r, long *len)
{
	struct elem *e;
	long prev = 0;

	if (r->walks & 1) {
		cds_hlist_for_each_entry_rcu_2(e, &hlist, hnode) {
			if (!visit(r, e, &prev, len, *len == 0))
				return 0;
		}
	} else {
		struct cds_hlist_node *pos;

		cds_hlist_for_each_entry_rcu(e, pos, &hlist, hnode) {
			if (!visit(r, e, &prev, len, *len == 0))
				return 0;
		}
	}
	return 1;
}

/* Walk until told to stop or until a walk finds a problem. */
static void reader_loop(struct reader_result *r,
			int (*walk)(struct reader_result *r, long *len))
{
	while (!uatomic_load(&stop, CMM_RELAXED)) {
		long len = 0;

		if (!walk(r, &len))
			break;
		finish_walk(r, len);
		uatomic_store(&reader_started, 1, CMM_RELAXED);
	}
	uatomic_store(&reader_started, 1, CMM_RELAXED);
}

static void *list_reader(void *arg)
{
	reader_loop((struct reader_result *) arg, walk_list);
	return NULL;
}

static void *hlist_reader(void *arg)
{
	reader_loop((struct reader_result *) arg, walk_hlist);
	return NULL;
}

/* xorshift: the updater's choices, reproducible from run to run */
static unsigned long rnd(void)
{
	static unsigned long long x = 88172645463325252ULL;	/* 64-bit state on ILP32 too */

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

struct update_stats {
	long inserts, removals, replacements;
};

/*
 * RUN_NS of updates, longer (up to RUN_MAX_NS) while the reader has not yet
 * walked the list WALKS_WANTED times with elements in it: on a loaded
 * machine it may not have run at all in the first RUN_NS.
 */
static int keep_updating(long long start)
{
	long long t = now_ns() - start;

	return t < RUN_NS ||
	       (t < RUN_MAX_NS && uatomic_load(&nonempty_now, CMM_RELAXED) <= WALKS_WANTED);
}

/* The list updater: returns when time or the pool runs out. */
static void update_list(struct update_stats *st)
{
	struct elem *live[LIVE_MAX];
	long next_tail = 0, next_front = -1;
	long long start = now_ns();
	int nlive = 0;

	while (keep_updating(start)) {
		unsigned long op = rnd() % 4;
		struct elem *e;
		int i;

		if (nlive < LIVE_MAX / 4)
			op = 0;
		else if (nlive == LIVE_MAX)
			op = 2;
		if (op <= 1) {
			e = new_elem(op == 0 ? next_tail : next_front);
			if (!e)
				break;
			if (op == 0) {
				next_tail++;
				cds_list_add_tail_rcu(&e->node, &list);
			} else {
				next_front--;
				cds_list_add_rcu(&e->node, &list);
			}
			live[nlive++] = e;
			st->inserts++;
		} else if (op == 2) {
			i = (int) (rnd() % (unsigned long) nlive);
			cds_list_del_rcu(&live[i]->node);
			live[i] = live[--nlive];
			st->removals++;
		} else {
			i = (int) (rnd() % (unsigned long) nlive);
			e = new_elem(live[i]->seq);
			if (!e)
				break;
			cds_list_replace_rcu(&live[i]->node, &e->node);
			live[i] = e;
			st->replacements++;
		}
	}
}

/* The hlist updater: front insertions (decreasing numbers) and removals. */
static void update_hlist(struct update_stats *st)
{
	struct elem *live[LIVE_MAX];
	long next_front = -1;
	long long start = now_ns();
	int nlive = 0;

	while (keep_updating(start)) {
		int insert = nlive < LIVE_MAX / 4 ||
			     (nlive < LIVE_MAX && (rnd() & 1));

		if (insert) {
			struct elem *e = new_elem(next_front--);

			if (!e)
				break;
			cds_hlist_add_head_rcu(&e->hnode, &hlist);
			live[nlive++] = e;
			st->inserts++;
		} else {
			int i = (int) (rnd() % (unsigned long) nlive);

			cds_hlist_del_rcu(&live[i]->hnode);
			live[i] = live[--nlive];
			st->removals++;
		}
	}
}

static void run_phase(const char *name, void *(*reader)(void *),
		      void (*updater)(struct update_stats *))
{
	struct reader_result r;
	struct update_stats st;
	pthread_t tid;
	int err;

	memset(&r, 0, sizeof(r));
	memset(&st, 0, sizeof(st));
	pool_used = 0;
	memset(pool, 0, sizeof(*pool) * POOL_SIZE);
	uatomic_store(&stop, 0, CMM_RELAXED);
	uatomic_store(&reader_started, 0, CMM_RELAXED);
	uatomic_store(&nonempty_now, 0, CMM_RELAXED);

	err = pthread_create(&tid, NULL, reader, &r);
	if (err) {
		tap_ok(0, "%s: pthread_create: %s", name, strerror(err));
		return;
	}
	/* Let the reader begin walking before the updates start. */
	while (!uatomic_load(&reader_started, CMM_RELAXED))
		sched_yield();
	updater(&st);
	uatomic_store(&stop, 1, CMM_RELAXED);
	pthread_join(tid, NULL);

	tap_diag("%s: %ld inserts, %ld removals, %ld replacements; reader: %ld walks "
		 "(%ld non-empty), %ld elements visited, longest walk %ld",
		 name, st.inserts, st.removals, st.replacements, r.walks,
		 r.nonempty_walks, r.visits, r.max_len);
	tap_ok(r.error[0] == '\0', "%s: reader always saw a well-formed list%s%s",
	       name, r.error[0] ? ": " : "", r.error);
	tap_ok(st.inserts > 1000 && st.removals > 100,
	       "%s: the updater made enough changes (%ld inserts, %ld removals)",
	       name, st.inserts, st.removals);
	tap_ok(r.nonempty_walks > WALKS_WANTED,
	       "%s: the reader walked the list during the updates (%ld non-empty walks)",
	       name, r.nonempty_walks);
}

/* After the run: forward and backward links agree, numbers sorted. */
static int list_consistent(void)
{
	struct cds_list_head *pos;
	long prev = 0;
	int first = 1;

	for (pos = list.next; pos != &list; pos = pos->next) {
		struct elem *e = cds_list_entry(pos, struct elem, node);

		if (pos->next->prev != pos || (!first && e->seq <= prev))
			return 0;
		prev = e->seq;
		first = 0;
	}
	return list.prev->next == &list;
}

static int hlist_consistent(void)
{
	struct cds_hlist_node *pos, *before = (struct cds_hlist_node *) (void *) &hlist;
	long prev = 0;
	int first = 1;

	for (pos = hlist.next; pos; before = pos, pos = pos->next) {
		struct elem *e = cds_hlist_entry(pos, struct elem, hnode);

		if (pos->prev != before || (!first && e->seq <= prev))
			return 0;
		prev = e->seq;
		first = 0;
	}
	return 1;
}

int main(void)
{
	pool = (struct elem *) calloc(POOL_SIZE, sizeof(*pool));
	if (!pool) {
		fprintf(stderr, "test_rculist_concurrent: out of memory for the pool\n");
		return 1;
	}

	run_phase("cds_list rcu", list_reader, update_list);
	tap_ok(list_consistent(), "cds_list: links consistent and sorted after the run");

	CDS_INIT_HLIST_HEAD(&hlist);
	run_phase("cds_hlist rcu", hlist_reader, update_hlist);
	tap_ok(hlist_consistent(), "cds_hlist: links consistent and sorted after the run");

	free(pool);
	return tap_done();
}
