/* SPDX-License-Identifier: MIT */
/*
 * queue mode: the RCU-protected producer/consumer structures of liburcu-cds,
 * rculfqueue (Michael-Scott queue, urcu/rculfqueue.h) and lfstack used with
 * RCU-protected pops (urcu/lfstack.h, discipline 1): the two structures
 * whose safety rests on grace periods.
 *
 * Threads.  Producers (--enqueuers, default 2) allocate nodes and alternate
 * between the queue (cds_lfq_enqueue_rcu inside a read-side critical
 * section) and the stack (cds_lfs_push).  Consumers (as many) alternate
 * between cds_lfq_dequeue_rcu and __cds_lfs_pop, each inside a read-side
 * critical section, now and then a __cds_lfs_pop_all, and hand every node
 * they took to the flavor's call_rcu (through the tool's callback
 * accounting); the callback poisons the node, then frees it.  Readers
 * (--readers, default 1) walk each structure from its head inside a
 * read-side critical section, as an RCU reader of a published list may, and
 * check every node they reach.  A bound on the nodes in flight per structure
 * and --max-outstanding keep memory bounded.
 *
 * Every node carries a magic word (LIVE until the reclaim callback, POISON
 * after), its producer's number, a sequence number per producer and
 * structure (1, 2, 3, ...), and a "consumed" word set by atomic exchange.
 * The queue's dummy nodes are the library's; their `dummy` field says so and
 * the readers skip them.
 *
 * What each check catches, and why it cannot fire on a correct library:
 *
 * poisoned_node - a reader or consumer reached a node whose magic is not
 *   LIVE.  A node is poisoned only by its reclaim callback, posted with
 *   call_rcu after the node left its structure.  A reader reaches a node by
 *   following pointers from the structure's head inside one critical
 *   section; every node on that path was in the structure at some instant of
 *   the section (the stack's list from its head is the stack's contents at
 *   the load of the head, since a node's next never changes while it can be
 *   reached; the queue's list from its head holds nodes still queued at the
 *   load of the head plus nodes appended later).  So the node left the
 *   structure, and its call_rcu was posted, after the section began, and the
 *   grace period that precedes the callback waits for the section to end:
 *   the magic is still LIVE at every check inside it (the readers check once
 *   on reaching a node and again after lingering).  A consumer gets a node
 *   from a dequeue or pop, which returns only queued nodes (nodes not yet
 *   reclaimed).  With the busted flavor the callback runs at once, so a
 *   reader still holding a just-consumed node sees POISON.
 *
 * duplicate_node - a node was consumed twice: the consumer's atomic
 *   exchange of `consumed` (0 -> 1) returned 1, or the final drain found a
 *   node already consumed.  Each node is produced once, and a correct queue
 *   or stack hands each one to exactly one dequeue/pop (linearizability).
 *
 * lost_node - at the end, after every thread joined and every callback ran,
 *   the controller drains both structures; for each, nodes produced must
 *   equal nodes consumed (first consumption only) plus nodes left.  Any
 *   difference is a node the structure dropped (or invented).
 *
 * fifo_order - rculfqueue only.  A consumer remembers, per producer, the
 *   last sequence number it dequeued; the next one from that producer must
 *   be larger.  A producer's enqueues are ordered by its program order and
 *   the queue is linearizable and FIFO, so two dequeues by one consumer (also
 *   ordered by program order) return that producer's nodes in enqueue order.
 *   The readers check the same along the list they walk: the list is in
 *   enqueue order, so a producer's sequence numbers increase along it.
 *
 * stack_order - lfstack only, checked by the readers.  A node's next is set
 *   at its push to the node that was on top then, pushed earlier; so along
 *   any chain from the head a producer's sequence numbers decrease.
 *
 * The busted flavor.  Its call_rcu runs the callback on the spot, so a node
 * is poisoned while readers and other consumers may still hold it.  The
 * structures stay sound because the poison touches only the tool's fields
 * (never the library's link fields), because the library's own dummies are
 * reclaimed through the real flavor's call_rcu (rcu_flavor->update_call_rcu),
 * and because busted nodes are never freed during the run: the callback puts
 * them on a graveyard freed after the threads are joined.  So no node is ever
 * reused (no ABA) and every check reads mapped memory: busted ends in
 * FAILURE through poisoned_node, never in a crash.  The graveyard is capped;
 * at the cap the consumers idle (the detection has long happened by then).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/compiler.h>
#include <urcu/flavor.h>
#include <urcu/lfstack.h>
#include <urcu/rculfqueue.h>

#include "callbacks.h"
#include "json.h"
#include "reclaim.h"

enum { Q_READER, Q_PRODUCER, Q_CONSUMER };

static const struct ut_mode_role q_roles[] = {
	[Q_READER] = { "reader", UT_ROLE_READER, true },
	[Q_PRODUCER] = { "producer", UT_ROLE_UPDATER, false },
	[Q_CONSUMER] = { "consumer", UT_ROLE_UPDATER, false },
};

enum { QS_QUEUE, QS_STACK, QS_COUNT };
static const char *const qs_names[QS_COUNT] = { "rculfqueue", "lfstack" };

enum { QE_LOST, QE_DUP, QE_POISON, QE_FIFO, QE_LIFO };
static const char *const q_errors[] = {
	"lost_node", "duplicate_node", "poisoned_node", "fifo_order", "stack_order", NULL
};

#define QN_LIVE		0x51a11feu
#define QN_POISON	0xdeadbeefu
#define Q_BOUND		2048		/* nodes in flight per structure */
#define Q_GRAVE_MAX	(1u << 18)	/* busted: nodes kept unfreed */
#define Q_WALK_MAX	32		/* nodes a reader visits per walk */
#define Q_RECHECK	4		/* nodes rechecked after lingering */

struct qnode {
	union {
		struct cds_lfq_node_rcu q;
		struct cds_lfs_node s;
	} link;			/* the library's; never poisoned */
	uint32_t magic;		/* QN_*; relaxed (poison races only when busted) */
	uint32_t producer;
	uint64_t seq;		/* per producer and structure, from 1 */
	int consumed;		/* 0 -> 1 by atomic exchange */
	int which;		/* QS_* */
	struct ut_run *run;
	struct ut_dead grave;	/* graveyard, or finish's list to free */
	struct ut_cb cb;
};

struct qrun {
	struct cds_lfq_queue_rcu q;
	struct __cds_lfs_stack s;
	int64_t in_flight[QS_COUNT];	/* produced - taken; relaxed, a bound only */
	struct ut_deadlist graveyard;	/* busted: poisoned nodes, freed by finish */
	int nproducers;
};

struct q_counts {
	uint64_t produced[QS_COUNT];
	uint64_t consumed[QS_COUNT];
	uint64_t empty[QS_COUNT];
	uint64_t pop_alls;
	uint64_t walks[QS_COUNT];
	uint64_t walked;		/* nodes visited by readers */
};

struct q_result {
	struct q_counts c;
	uint64_t left[QS_COUNT];	/* found by the final drain */
	uint64_t graveyard;		/* busted: nodes poisoned but kept */
};

static struct qrun *qrun_of(struct ut_run *run)
{
	return run->mode_data;
}

static uint32_t magic_of(struct qnode *n)
{
	return __atomic_load_n(&n->magic, __ATOMIC_RELAXED);
}

/*
 * Read a node's producer and sequence number; true if the node is live.
 * The fields are read first, with acquire, pairing with the release stores
 * of their poison in qnode_reclaim (which poisons the magic before them):
 * a poisoned field comes with a poisoned magic, so a race with the
 * poisoning (busted only) counts as poison, never as an order violation.
 */
static bool node_read(struct qnode *n, uint32_t *producer, uint64_t *seq)
{
	*seq = __atomic_load_n(&n->seq, __ATOMIC_ACQUIRE);
	*producer = __atomic_load_n(&n->producer, __ATOMIC_ACQUIRE);
	return magic_of(n) == QN_LIVE;
}

/* ---- reclamation ---- */

static void qnode_reclaim(struct rcu_head *head)
{
	struct qnode *n = caa_container_of(head, struct qnode, cb.head);
	struct ut_run *run = n->run;

	if (ut_cb_begin(run, &n->cb)) {
		struct qrun *qr = qrun_of(run);

		/*
		 * After a real grace period nobody reads them.  Under busted,
		 * the releases order the magic's poison before the other
		 * fields': pairs with the acquire loads in node_read.
		 */
		__atomic_store_n(&n->magic, QN_POISON, __ATOMIC_RELAXED);
		__atomic_store_n(&n->seq, UINT64_MAX, __ATOMIC_RELEASE);
		__atomic_store_n(&n->producer, UINT32_MAX, __ATOMIC_RELEASE);
		ut_reclaim_dispose(run, &qr->graveyard, &n->grave, n);
	}
	ut_cb_end(run);
}

/* ---- producers ---- */

static struct qnode *qnode_new(struct ut_thread *t, int which, uint64_t seq)
{
	struct qnode *n = malloc(sizeof(*n));

	if (!n)
		return NULL;
	memset(n, 0, sizeof(*n));
	n->magic = QN_LIVE;
	n->producer = (uint32_t)t->idx;
	n->seq = seq;
	n->which = which;
	n->run = t->run;
	return n;
}

static void *q_producer(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct qrun *qr = qrun_of(run);
	struct q_counts *c = t->mode_data;
	uint64_t seq[QS_COUNT] = { 0 };
	unsigned long i = 0;

	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		int w = (int)((i++ + (unsigned long)t->idx) & 1);
		struct qnode *n;

		if (__atomic_load_n(&qr->in_flight[w], __ATOMIC_RELAXED) >= Q_BOUND) {
			w ^= 1;
			if (__atomic_load_n(&qr->in_flight[w], __ATOMIC_RELAXED) >= Q_BOUND) {
				ut_thread_set_state(t, "structures full");
				ut_rcu_pause(t, 20000);
				ut_count(&t->progress, 1);
				continue;
			}
		}
		n = qnode_new(t, w, seq[w] + 1);
		if (!n) {
			ut_thread_set_state(t, "out of memory");
			ut_rcu_pause(t, 1000000);
			continue;
		}
		seq[w]++;
		__atomic_add_fetch(&qr->in_flight[w], 1, __ATOMIC_RELAXED);
		if (w == QS_QUEUE) {
			ut_thread_set_state(t, "cds_lfq_enqueue_rcu");
			cds_lfq_node_init_rcu(&n->link.q);
			ops->read_lock();
			/* A full barrier inside: n's fields are visible before n is. */
			cds_lfq_enqueue_rcu(&qr->q, &n->link.q);
			ops->read_unlock();
		} else {
			ut_thread_set_state(t, "cds_lfs_push");
			cds_lfs_node_init(&n->link.s);
			/* Likewise a full barrier; push needs no read-side section. */
			cds_lfs_push(&qr->s, &n->link.s);
		}
		ops->quiescent_state();
		ut_count(&c->produced[w], 1);
		ut_count(&t->updates, 1);
		ut_count(&t->progress, 1);
	}
	ut_thread_end(t);
	return NULL;
}

/* ---- consumers ---- */

/*
 * One node taken from structure w: check it, then reclaim it.  last_seq is
 * this consumer's last sequence number per producer (queue only).
 */
static void q_consume(struct ut_thread *t, struct qnode *n, int w, uint64_t *last_seq)
{
	struct ut_run *run = t->run;
	struct qrun *qr = qrun_of(run);
	struct q_counts *c = t->mode_data;
	uint32_t p;
	uint64_t s;

	if (!node_read(n, &p, &s)) {
		/* Reclaimed already: taken after its callback ran. */
		ut_count(&t->mode_errors[QE_POISON], 1);
		return;
	}
	/* Relaxed: ownership came with the dequeue/pop's full barrier. */
	if (__atomic_exchange_n(&n->consumed, 1, __ATOMIC_RELAXED)) {
		ut_count(&t->mode_errors[QE_DUP], 1);
		return;
	}
	if (w == QS_QUEUE && p < (uint32_t)qr->nproducers) {
		if (s <= last_seq[p])
			ut_count(&t->mode_errors[QE_FIFO], 1);
		last_seq[p] = s;
	}
	__atomic_sub_fetch(&qr->in_flight[w], 1, __ATOMIC_RELAXED);
	ut_count(&c->consumed[w], 1);
	ut_count(&t->updates, 1);
	ut_cb_post(run, t, &n->cb, qnode_reclaim);
	ut_count(&t->posted, 1);
}

static void *q_consumer(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct qrun *qr = qrun_of(run);
	struct q_counts *c = t->mode_data;
	uint64_t *last_seq = calloc((size_t)qr->nproducers + 1, sizeof(*last_seq));
	unsigned long i = 0;
	int empties = 0;

	ut_thread_begin(t);
	while (last_seq && !ut_should_stop(run)) {
		int w = (int)((i++ + (unsigned long)t->idx) & 1);
		struct qnode *n = NULL;

		if (ut_reclaim_bound(t, &qr->graveyard, Q_GRAVE_MAX))
			continue;
		if (w == QS_QUEUE) {
			struct cds_lfq_node_rcu *ln;

			ut_thread_set_state(t, "cds_lfq_dequeue_rcu");
			ops->read_lock();
			ln = cds_lfq_dequeue_rcu(&qr->q);
			ops->read_unlock();
			if (ln)
				n = caa_container_of(ln, struct qnode, link.q);
		} else if ((ut_rng_next(&t->rng) & 63) == 0) {
			struct cds_lfs_head *h;
			struct cds_lfs_node *sn, *sn_next;

			/* Discipline 1 needs no read-side section around pop_all. */
			ut_thread_set_state(t, "__cds_lfs_pop_all");
			h = __cds_lfs_pop_all(&qr->s);
			if (h) {
				ut_count(&c->pop_alls, 1);
				cds_lfs_for_each_safe(h, sn, sn_next)
					q_consume(t, caa_container_of(sn, struct qnode, link.s),
						  QS_STACK, last_seq);
				ops->quiescent_state();
				empties = 0;
				ut_count(&t->progress, 1);
				continue;
			}
		} else {
			struct cds_lfs_node *sn;

			ut_thread_set_state(t, "__cds_lfs_pop");
			ops->read_lock();
			sn = __cds_lfs_pop(&qr->s);
			ops->read_unlock();
			if (sn)
				n = caa_container_of(sn, struct qnode, link.s);
		}
		ops->quiescent_state();
		if (!n) {
			ut_count(&c->empty[w], 1);
			ut_count(&t->progress, 1);
			/* Both empty in a row: let the producers run. */
			if (++empties >= 2) {
				ut_thread_set_state(t, "empty");
				ut_rcu_pause(t, 2000);
				empties = 0;
			}
			continue;
		}
		empties = 0;
		q_consume(t, n, w, last_seq);
		ut_outstanding_note(run);
		ops->quiescent_state();
		ut_count(&t->progress, 1);
	}
	ut_thread_end(t);
	free(last_seq);
	return NULL;
}

/* ---- readers ---- */

/*
 * Check one node met on a walk: LIVE, and its producer's sequence numbers
 * monotonic along the walk (increasing on the queue, decreasing on the
 * stack).  seen[] holds the (producer, last seq) pairs of this walk.
 */
struct walk_seen {
	uint32_t producer;
	uint64_t seq;
};

static bool walk_check(struct ut_thread *t, struct qnode *n, int w, struct walk_seen *seen,
		       int *nseen)
{
	uint32_t p;
	uint64_t s;
	int k;

	if (!node_read(n, &p, &s)) {
		ut_count(&t->mode_errors[QE_POISON], 1);
		return false;
	}
	for (k = 0; k < *nseen; k++)
		if (seen[k].producer == p)
			break;
	if (k < *nseen) {
		if (w == QS_QUEUE ? s <= seen[k].seq : s >= seen[k].seq)
			ut_count(&t->mode_errors[w == QS_QUEUE ? QE_FIFO : QE_LIFO], 1);
		seen[k].seq = s;
	} else if (*nseen < Q_WALK_MAX) {
		seen[*nseen].producer = p;
		seen[*nseen].seq = s;
		(*nseen)++;
	}
	return true;
}

static void *q_reader(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct qrun *qr = qrun_of(run);
	struct q_counts *c = t->mode_data;
	unsigned long i = 0;

	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		int w = (int)(i++ & 1), nseen = 0, nkeep = 0, visited = 0;
		struct walk_seen seen[Q_WALK_MAX];
		struct qnode *keep[Q_RECHECK];

		ops->read_lock();
		if (w == QS_QUEUE) {
			/*
			 * Acquire: pairs with the library's full-barrier
			 * compare-and-swaps that published each pointer (enqueue
			 * E2, dequeue D4), so the node's fields are visible.
			 */
			struct cds_lfq_node_rcu *ln = __atomic_load_n(&qr->q.head, __ATOMIC_ACQUIRE);

			while (ln && visited < Q_WALK_MAX) {
				/* Plain: set before the node was published, never changed after. */
				if (!ln->dummy) {
					struct qnode *n = caa_container_of(ln, struct qnode, link.q);

					if (walk_check(t, n, w, seen, &nseen) && nkeep < Q_RECHECK)
						keep[nkeep++] = n;
				}
				visited++;
				/* Acquire: pairs with enqueue E2 that linked the next node. */
				ln = __atomic_load_n(&ln->next, __ATOMIC_ACQUIRE);
			}
		} else {
			/* Acquire: pairs with the push's full-barrier compare-and-swap. */
			struct cds_lfs_head *h = __atomic_load_n(&qr->s.head, __ATOMIC_ACQUIRE);
			struct cds_lfs_node *sn = h ? &h->node : NULL;

			while (sn && visited < Q_WALK_MAX) {
				struct qnode *n = caa_container_of(sn, struct qnode, link.s);

				if (walk_check(t, n, w, seen, &nseen) && nkeep < Q_RECHECK)
					keep[nkeep++] = n;
				visited++;
				/*
				 * Acquire: next was written before the push that
				 * published the node below (its full barrier), and
				 * never changes while the node can be reached.
				 */
				sn = __atomic_load_n(&sn->next, __ATOMIC_ACQUIRE);
			}
		}
		/* linger: 20-50 us once in 1024, 0.5-2.5 us once in 8 */
		ut_reader_linger(t, 0x3ff, 0x7, 500);
		/* Still inside the section: nothing reached may be reclaimed yet. */
		for (int k = 0; k < nkeep; k++)
			if (magic_of(keep[k]) != QN_LIVE)
				ut_count(&t->mode_errors[QE_POISON], 1);
		ops->read_unlock();
		ops->quiescent_state();
		ut_count(&c->walks[w], 1);
		ut_count(&c->walked, (uint64_t)visited);
		ut_count(&t->reads, 1);
		ut_count(&t->progress, 1);
	}
	ut_thread_end(t);
	return NULL;
}

static void *q_thread(void *arg)
{
	struct ut_thread *t = arg;

	switch (t->role) {
	case Q_READER: return q_reader(t);
	case Q_PRODUCER: return q_producer(t);
	default: return q_consumer(t);
	}
}

/* ---- the mode's table ---- */

static void q_count(const struct ut_config *cfg, int n[], bool posts[])
{
	n[Q_READER] = cfg->readers;
	n[Q_PRODUCER] = cfg->enqueuers;
	n[Q_CONSUMER] = cfg->enqueuers;
	posts[Q_CONSUMER] = true;
}

/* One reader, two producers and two consumers unless told otherwise. */
static int q_configure(struct ut_config *cfg, const struct ut_given *given, char *err, size_t len)
{
	if (!given->readers)
		cfg->readers = 1;
	if (!given->enqueuers)
		cfg->enqueuers = 2;
	return 0;
}

static int q_setup(struct ut_run *run)
{
	struct qrun *qr = calloc(1, sizeof(*qr));

	if (!qr)
		return -1;
	run->mode_data = qr;
	/*
	 * The queue reclaims its dummies through the real flavor's call_rcu,
	 * also under busted: only the mode's own reclamation is broken there.
	 */
	cds_lfq_init_rcu(&qr->q, run->ops->rcu_flavor->update_call_rcu);
	__cds_lfs_init(&qr->s);
	qr->nproducers = run->cfg->enqueuers;
	return 0;
}

/* A node the final drain found: check it, count it, keep it for freeing. */
static void drain_one(struct ut_run *run, struct qnode *n, int w, struct ut_deadlist *keep)
{
	struct q_result *res = run->res->mode_data;

	if (magic_of(n) != QN_LIVE) {
		run->res->mode_errors[QE_POISON]++;
		return;		/* reclaimed already: not ours to free */
	}
	if (n->consumed) {
		run->res->mode_errors[QE_DUP]++;
		return;
	}
	res->left[w]++;
	ut_dead_push(keep, &n->grave);
}

static void q_finish(struct ut_run *run)
{
	const struct ut_flavor_ops *ops = run->ops;
	struct qrun *qr = qrun_of(run);
	struct q_result *res = run->res->mode_data;
	struct ut_deadlist keep = { 0 };
	struct cds_lfq_node_rcu *ln;
	struct cds_lfs_head *h;
	struct cds_lfs_node *sn, *sn_next;

	for (int i = 0; i < run->nthreads; i++) {
		const struct q_counts *c = run->threads[i].mode_data;

		for (int w = 0; w < QS_COUNT; w++) {
			res->c.produced[w] += c->produced[w];
			res->c.consumed[w] += c->consumed[w];
			res->c.empty[w] += c->empty[w];
			res->c.walks[w] += c->walks[w];
		}
		res->c.pop_alls += c->pop_alls;
		res->c.walked += c->walked;
	}
	run->res->gp_lat_what = "none";
	if (!qr)
		return;

	/*
	 * Every thread is joined and every callback ran: drain both
	 * structures.  The controller is registered (offline under qsbr).
	 */
	if (ops->is_qsbr)
		ops->thread_online();
	ops->read_lock();
	while ((ln = cds_lfq_dequeue_rcu(&qr->q)))
		drain_one(run, caa_container_of(ln, struct qnode, link.q), QS_QUEUE, &keep);
	ops->read_unlock();
	h = __cds_lfs_pop_all(&qr->s);
	if (h)
		cds_lfs_for_each_safe(h, sn, sn_next)
			drain_one(run, caa_container_of(sn, struct qnode, link.s), QS_STACK, &keep);
	if (cds_lfq_destroy_rcu(&qr->q))
		run->res->mode_errors[QE_LOST]++;	/* it says it is not empty */
	if (ops->is_qsbr)
		ops->thread_offline();
	/* The dummies the drain retired went to call_rcu: let them run. */
	ops->rcu_flavor->barrier();

	for (int w = 0; w < QS_COUNT; w++) {
		uint64_t got = res->c.consumed[w] + res->left[w];

		if (got != res->c.produced[w])
			run->res->mode_errors[QE_LOST] += got > res->c.produced[w] ?
				got - res->c.produced[w] : res->c.produced[w] - got;
	}
	/* No thread is left to reach any of them. */
	ut_dead_free_all(&keep, offsetof(struct qnode, grave));
	res->graveyard = qr->graveyard.count;
	ut_dead_free_all(&qr->graveyard, offsetof(struct qnode, grave));
}

static void q_stat(struct ut_run *run, char *buf, size_t len)
{
	uint64_t p[QS_COUNT] = { 0 }, c[QS_COUNT] = { 0 }, walks = 0;

	for (int i = 0; i < run->nthreads; i++) {
		const struct q_counts *qc = run->threads[i].mode_data;

		for (int w = 0; w < QS_COUNT; w++) {
			p[w] += ut_read(&qc->produced[w]);
			c[w] += ut_read(&qc->consumed[w]);
			walks += ut_read(&qc->walks[w]);
		}
	}
	snprintf(buf, len, "queue enq %llu deq %llu stack push %llu pop %llu walks %llu cbs %llu/%llu",
		 (unsigned long long)p[QS_QUEUE], (unsigned long long)c[QS_QUEUE],
		 (unsigned long long)p[QS_STACK], (unsigned long long)c[QS_STACK],
		 (unsigned long long)walks,
		 (unsigned long long)__atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED),
		 (unsigned long long)__atomic_load_n(&run->cb_posted, __ATOMIC_RELAXED));
}

static double q_per_s(uint64_t n, double s)
{
	return s > 0 ? n / s : 0;
}

static void q_report(const struct ut_config *cfg, const struct ut_result *r, enum ut_section at)
{
	const struct q_result *q = r->mode_data;
	uint64_t p = 0, c = 0;

	if (at != UT_SECTION_COUNTS || !q)
		return;
	for (int w = 0; w < QS_COUNT; w++) {
		p += q->c.produced[w];
		c += q->c.consumed[w];
		ut_out(&cfg->sink, "  %-15s enqueued %llu (%.3g/s) dequeued %llu (%.3g/s) left %llu empty %llu\n",
		       qs_names[w], (unsigned long long)q->c.produced[w],
		       q_per_s(q->c.produced[w], r->seconds), (unsigned long long)q->c.consumed[w],
		       q_per_s(q->c.consumed[w], r->seconds), (unsigned long long)q->left[w],
		       (unsigned long long)q->c.empty[w]);
	}
	ut_out(&cfg->sink, "  enqueues        %llu (%.3g/s), dequeues %llu (%.3g/s), pop_all %llu\n",
	       (unsigned long long)p, q_per_s(p, r->seconds), (unsigned long long)c,
	       q_per_s(c, r->seconds), (unsigned long long)q->c.pop_alls);
	ut_out(&cfg->sink, "  reader walks    %llu queue, %llu stack, %llu nodes checked\n",
	       (unsigned long long)q->c.walks[QS_QUEUE], (unsigned long long)q->c.walks[QS_STACK],
	       (unsigned long long)q->c.walked);
	ut_graveyard_report(cfg, q->graveyard);
}

static void q_json(struct uj *j, const struct ut_config *cfg, const struct ut_result *r,
		   enum ut_section at)
{
	const struct q_result *q = r->mode_data;
	uint64_t p = 0, c = 0;

	if (at != UT_SECTION_COUNTS || !q)
		return;
	uj_obj(j, "queue");
	for (int w = 0; w < QS_COUNT; w++) {
		p += q->c.produced[w];
		c += q->c.consumed[w];
		uj_obj(j, qs_names[w]);
		uj_u64(j, "enqueued", q->c.produced[w]);
		uj_dbl(j, "enqueues_per_s", q_per_s(q->c.produced[w], r->seconds));
		uj_u64(j, "dequeued", q->c.consumed[w]);
		uj_dbl(j, "dequeues_per_s", q_per_s(q->c.consumed[w], r->seconds));
		uj_u64(j, "left", q->left[w]);
		uj_u64(j, "empty", q->c.empty[w]);
		uj_u64(j, "reader_walks", q->c.walks[w]);
		uj_end_obj(j);
	}
	uj_u64(j, "enqueues", p);
	uj_dbl(j, "enqueues_per_s", q_per_s(p, r->seconds));
	uj_u64(j, "dequeues", c);
	uj_dbl(j, "dequeues_per_s", q_per_s(c, r->seconds));
	uj_u64(j, "pop_alls", q->c.pop_alls);
	uj_u64(j, "nodes_checked_by_readers", q->c.walked);
	uj_u64(j, "busted_graveyard", q->graveyard);
	uj_end_obj(j);
}

const struct ut_mode_ops ut_mode_queue = {
	.name = "queue",
	.help = "queue: producers and consumers on rculfqueue and on lfstack\n"
		"  with RCU-protected pops (--enqueuers producers and as many\n"
		"  consumers, default 2; --readers walkers, default 1)",
	.roles = q_roles,
	.nroles = 3,
	.count = q_count,
	.thread_size = sizeof(struct q_counts),
	.result_size = sizeof(struct q_result),
	.errors = q_errors,
	.configure = q_configure,
	.setup = q_setup,
	.thread_fn = q_thread,
	.finish = q_finish,
	.stat_line = q_stat,
	.report = q_report,
	.json = q_json,
};
