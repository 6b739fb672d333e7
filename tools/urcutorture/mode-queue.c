/* SPDX-License-Identifier: MIT */
/*
 * queue mode: the producer/consumer structures of liburcu-cds.
 *
 * Structures (--structures=LIST, default all but the test-only one):
 *   rculfqueue  Michael-Scott queue, urcu/rculfqueue.h: enqueue and dequeue
 *               inside read-side critical sections, nodes freed after a grace
 *               period.
 *   lfstack     urcu/lfstack.h with RCU-protected pops (discipline 1):
 *               __cds_lfs_pop inside a section, now and then __cds_lfs_pop_all.
 *   rculfstack  the deprecated urcu/rculfstack.h: cds_lfs_pop_rcu in a section.
 *   wfstack     urcu/wfstack.h under the RCU discipline: __cds_wfs_pop_blocking
 *               and __cds_wfs_pop_nonblocking in a section, now and then
 *               __cds_wfs_pop_all walked with cds_wfs_next_blocking.
 *   wfcqueue    urcu/wfcqueue.h: half of the consumer steps splice the whole
 *               queue into a private one (__cds_wfcq_splice_blocking, several
 *               consumers at once: the exclusion table allows concurrent
 *               splices from one source) and dequeue that; the other half
 *               dequeue with cds_wfcq_dequeue_blocking or (under the queue's
 *               dequeue lock) __cds_wfcq_dequeue_nonblocking.  A rwlock keeps
 *               dequeues apart from splices and from each other (the table's
 *               X entries) and lets splices overlap (read side).
 *   wfqueue     the deprecated urcu/wfqueue.h: cds_wfq_dequeue_blocking, or
 *               __cds_wfq_dequeue_blocking under the queue's own mutex.
 *   busted-wfstack (test-only) wfstack whose pop takes a half-done push for
 *               the bottom of the stack (queue-seeded.c): must FAIL with
 *               lost_node.
 * wfcqueue and wfqueue have no RCU protection (a dequeued node belongs to its
 * consumer); the others are walked by the readers.
 *
 * Threads.  Producers (--enqueuers, default 2) allocate nodes and push them
 * to the selected structures in turn.  Consumers (as many) take from them in
 * turn as above and hand every node they took to the flavor's call_rcu
 * (through the tool's callback accounting); the callback poisons the node,
 * then frees it.  Readers (--readers, default 1) walk the RCU-protected
 * structures from their head inside a read-side critical section, as an RCU
 * reader of a published list may, and check every node they reach (a wfstack
 * walk stops at a node whose push is half done).  A bound on the nodes in
 * flight per structure and --max-outstanding keep memory bounded.
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
 *   the section (a stack's list from its head is the stack's contents at
 *   the load of the head, since a node's next never changes while it can be
 *   reached once linked; the queue's list from its head holds nodes still
 *   queued at the load of the head plus nodes appended later).  So the node
 *   left the structure, and its call_rcu was posted, after the section
 *   began, and the grace period that precedes the callback waits for the
 *   section to end: the magic is still LIVE at every check inside it (the
 *   readers check once on reaching a node and again after lingering).  A
 *   consumer gets a node from a dequeue, pop or splice, which returns only
 *   queued nodes (nodes not yet reclaimed).  With the busted flavor the
 *   callback runs at once, so a reader still holding a just-consumed node
 *   sees POISON.
 *
 * duplicate_node - a node was consumed twice: the consumer's atomic
 *   exchange of `consumed` (0 -> 1) returned 1, or the final drain found a
 *   node already consumed.  Each node is produced once, and a correct queue
 *   or stack hands each one to exactly one dequeue/pop/splice
 *   (linearizability; two splices from one source take disjoint parts).
 *
 * lost_node - at the end, after every thread joined and every callback ran,
 *   the controller drains every structure; for each, nodes produced must
 *   equal nodes consumed (first consumption only) plus nodes left.  Any
 *   difference is a node the structure dropped (or invented).
 *
 * fifo_order - the queues (rculfqueue, wfcqueue, wfqueue).  A consumer
 *   remembers, per structure and producer, the last sequence number it took;
 *   the next one from that producer must be larger.  A producer's enqueues
 *   are ordered by its program order and the queue is linearizable and FIFO,
 *   so two takes by one consumer (also ordered by program order) return that
 *   producer's nodes in enqueue order; a splice takes a prefix of the queue
 *   in order, so the nodes of the private queue it fills follow the same
 *   rule.  The readers check the same along the rculfqueue list they walk:
 *   the list is in enqueue order, so a producer's sequence numbers increase
 *   along it.
 *
 * stack_order - the stacks, checked by the readers.  A node's next is set
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

/* The deprecated structures are tested on purpose: no deprecation warnings. */
#define CDS_WFQ_DEPRECATED
#define CDS_LFS_RCU_DEPRECATED

#include <urcu/compiler.h>
#include <urcu/flavor.h>
#include <urcu/lfstack.h>
#include <urcu/rculfqueue.h>
#include <urcu/rculfstack.h>
#include <urcu/wfcqueue.h>
#include <urcu/wfqueue.h>
#include <urcu/wfstack.h>

#include "callbacks.h"
#include "json.h"
#include "queue-seeded.h"
#include "reclaim.h"

enum { Q_READER, Q_PRODUCER, Q_CONSUMER };

static void *q_reader(struct ut_thread *t);
static void *q_producer(struct ut_thread *t);
static void *q_consumer(struct ut_thread *t);

/* Its own option: which structures run (checked by q_configure). */
static const struct ut_opt q_opts[] = {
	{ .name = "structures", .type = UT_OPT_LIST, .def_text = "all", .value = "LIST",
	  .flags = UT_OPTF_OWNER_ONLY | UT_OPTF_NO_LINE,
	  .help = "rculfqueue, lfstack, rculfstack, wfstack, wfcqueue, wfqueue, or all; test-only: "
		  "busted-wfstack (a pop that takes a half-done push for the bottom: must FAIL "
		  "with lost_node)" },
	{ NULL }
};

static const struct ut_mode_role q_roles[] = {
	[Q_READER] = { "reader", UT_ROLE_READER, true, q_reader },
	[Q_PRODUCER] = { "producer", UT_ROLE_UPDATER, false, q_producer },
	[Q_CONSUMER] = { "consumer", UT_ROLE_UPDATER, false, q_consumer },
};

enum { QS_LFQ, QS_LFS, QS_RLFS, QS_WFS, QS_WFCQ, QS_WFQ, QS_BWFS, QS_COUNT };

static const struct {
	const char *name;	/* --structures, reports, JSON */
	bool fifo;		/* a queue: consumers check the order per producer */
	bool walk;		/* RCU-protected: the readers walk it */
	bool test_only;		/* not in "all"; named explicitly */
} qs[QS_COUNT] = {
	[QS_LFQ] = { "rculfqueue", true, true, false },
	[QS_LFS] = { "lfstack", false, true, false },
	[QS_RLFS] = { "rculfstack", false, true, false },
	[QS_WFS] = { "wfstack", false, true, false },
	[QS_WFCQ] = { "wfcqueue", true, false, false },
	[QS_WFQ] = { "wfqueue", true, false, false },
	[QS_BWFS] = { "busted-wfstack", false, true, true },
};

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
		struct cds_lfs_node_rcu rs;
		struct cds_wfs_node ws;
		struct cds_wfcq_node cq;
		struct cds_wfq_node wq;
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
	struct cds_lfs_stack_rcu rs;
	struct __cds_wfs_stack ws;
	struct __cds_wfs_stack bws;	/* busted-wfstack */
	struct cds_wfcq_head cq_head;
	struct cds_wfcq_tail cq_tail;
	/* wfcqueue: splices take it shared, dequeues exclusive. */
	pthread_rwlock_t cq_splice;
	struct cds_wfq_queue wq;
	int on[QS_COUNT];		/* the selected structures, in QS_* order */
	int non;
	int walk[QS_COUNT];		/* of them, those the readers walk */
	int nwalk;
	int64_t in_flight[QS_COUNT];	/* produced - taken; relaxed, a bound only */
	struct ut_deadlist graveyard;	/* busted: poisoned nodes, freed by finish */
	int nproducers;
};

struct q_counts {
	uint64_t produced[QS_COUNT];
	uint64_t consumed[QS_COUNT];
	uint64_t empty[QS_COUNT];
	uint64_t walks[QS_COUNT];
	uint64_t wouldblock[QS_COUNT];	/* nonblocking pops/dequeues told to retry */
	uint64_t pop_alls;		/* lfstack and wfstack */
	uint64_t splices;		/* wfcqueue splices that took something */
	uint64_t walked;		/* nodes visited by readers */
};

struct q_result {
	struct q_counts c;
	uint64_t left[QS_COUNT];	/* found by the final drain */
	uint64_t graveyard;		/* busted: nodes poisoned but kept */
	unsigned int mask;		/* the structures that ran (1 << QS_*) */
};

static struct qrun *qrun_of(struct ut_run *run)
{
	return run->mode_data;
}

/* --structures: "all" (every structure but the test-only ones) or a list. */
static int qs_parse(const char *text, unsigned int *mask, char *err, size_t len)
{
	char buf[256], *save = NULL;

	*mask = 0;
	if (!text || !strcmp(text, "all")) {
		for (int w = 0; w < QS_COUNT; w++)
			if (!qs[w].test_only)
				*mask |= 1u << w;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int w = 0;

		while (w < QS_COUNT && strcmp(tok, qs[w].name))
			w++;
		if (w == QS_COUNT) {
			snprintf(err, len, "--structures: unknown structure '%s' (rculfqueue, lfstack, "
				 "rculfstack, wfstack, wfcqueue, wfqueue, all; test-only: busted-wfstack)",
				 tok);
			return -1;
		}
		*mask |= 1u << w;
	}
	if (!*mask) {
		snprintf(err, len, "--structures: empty list");
		return -1;
	}
	return 0;
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

/*
 * Publish n on structure w.  Every push and enqueue below is a full barrier
 * before n becomes reachable, so n's fields are visible to whoever reaches it.
 */
static void q_push(struct ut_thread *t, struct qnode *n, int w)
{
	const struct ut_flavor_ops *ops = t->run->ops;
	struct qrun *qr = qrun_of(t->run);

	switch (w) {
	case QS_LFQ:
		ut_thread_set_state(t, "cds_lfq_enqueue_rcu");
		cds_lfq_node_init_rcu(&n->link.q);
		ops->read_lock();
		cds_lfq_enqueue_rcu(&qr->q, &n->link.q);
		ops->read_unlock();
		break;
	case QS_LFS:
		/* Push needs no read-side section (nor do the two below). */
		ut_thread_set_state(t, "cds_lfs_push");
		cds_lfs_node_init(&n->link.s);
		cds_lfs_push(&qr->s, &n->link.s);
		break;
	case QS_RLFS:
		ut_thread_set_state(t, "cds_lfs_push_rcu");
		cds_lfs_node_init_rcu(&n->link.rs);
		cds_lfs_push_rcu(&qr->rs, &n->link.rs);
		break;
	case QS_WFS:
		ut_thread_set_state(t, "cds_wfs_push");
		cds_wfs_node_init(&n->link.ws);
		cds_wfs_push(&qr->ws, &n->link.ws);
		break;
	case QS_BWFS:
		/*
		 * Inside a section, though a push needs none: the seeded pop
		 * may hand n to a consumer before this push stores n's link,
		 * and the section keeps n from being freed until that late
		 * store is done, so the bug shows as lost nodes (lost_node),
		 * not as a write to freed memory (a crash).
		 */
		ut_thread_set_state(t, "cds_wfs_push (busted-wfstack)");
		cds_wfs_node_init(&n->link.ws);
		ops->read_lock();
		cds_wfs_push(&qr->bws, &n->link.ws);
		ops->read_unlock();
		break;
	case QS_WFCQ:
		ut_thread_set_state(t, "cds_wfcq_enqueue");
		cds_wfcq_node_init(&n->link.cq);
		cds_wfcq_enqueue(&qr->cq_head, &qr->cq_tail, &n->link.cq);
		break;
	default:
		ut_thread_set_state(t, "cds_wfq_enqueue");
		cds_wfq_node_init(&n->link.wq);
		cds_wfq_enqueue(&qr->wq, &n->link.wq);
		break;
	}
}

/* The next selected structure from k on that is not full, -1 if all are. */
static int q_pick_room(struct qrun *qr, unsigned long k)
{
	for (int i = 0; i < qr->non; i++) {
		int w = qr->on[(k + (unsigned long)i) % (unsigned long)qr->non];

		if (__atomic_load_n(&qr->in_flight[w], __ATOMIC_RELAXED) < Q_BOUND)
			return w;
	}
	return -1;
}

static void *q_producer(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	struct qrun *qr = qrun_of(run);
	struct q_counts *c = t->mode_data;
	uint64_t seq[QS_COUNT] = { 0 };
	unsigned long i = 0;

	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		int w = q_pick_room(qr, i++ + (unsigned long)t->idx);
		struct qnode *n;

		if (w < 0) {
			ut_thread_set_state(t, "structures full");
			ut_rcu_pause(t, 20000);
			ut_count(&t->progress, 1);
			continue;
		}
		n = qnode_new(t, w, seq[w] + 1);
		if (!n) {
			ut_thread_set_state(t, "out of memory");
			ut_rcu_pause(t, 1000000);
			continue;
		}
		seq[w]++;
		__atomic_add_fetch(&qr->in_flight[w], 1, __ATOMIC_RELAXED);
		q_push(t, n, w);
		run->ops->quiescent_state();
		ut_count(&c->produced[w], 1);
		ut_count(&t->updates, 1);
		ut_count(&t->progress, 1);
	}
	ut_thread_end(t);
	return NULL;
}

/* ---- consumers ---- */

/* A consumer's view: its last sequence number per structure and producer. */
struct q_taker {
	struct ut_thread *t;
	struct qrun *qr;
	struct q_counts *c;
	uint64_t *last_seq;	/* [w * nproducers + producer] */
};

/* One node taken from structure w: check it, then reclaim it. */
static void q_consume(struct q_taker *tk, struct qnode *n, int w)
{
	struct ut_thread *t = tk->t;
	struct qrun *qr = tk->qr;
	uint32_t p;
	uint64_t s;

	if (!node_read(n, &p, &s)) {
		/* Reclaimed already: taken after its callback ran. */
		ut_count(&t->mode_errors[QE_POISON], 1);
		return;
	}
	/* Relaxed: ownership came with the take's full barrier. */
	if (__atomic_exchange_n(&n->consumed, 1, __ATOMIC_RELAXED)) {
		ut_count(&t->mode_errors[QE_DUP], 1);
		return;
	}
	if (qs[w].fifo && p < (uint32_t)qr->nproducers) {
		uint64_t *last = &tk->last_seq[w * qr->nproducers + (int)p];

		if (s <= *last)
			ut_count(&t->mode_errors[QE_FIFO], 1);
		*last = s;
	}
	__atomic_sub_fetch(&qr->in_flight[w], 1, __ATOMIC_RELAXED);
	ut_count(&tk->c->consumed[w], 1);
	ut_count(&t->updates, 1);
	ut_cb_post(t->run, t, &n->cb, qnode_reclaim);
	ut_count(&t->posted, 1);
}

/* rculfqueue and rculfstack: one take in a read-side section. */
static uint64_t take_rcu(struct q_taker *tk, int w)
{
	const struct ut_flavor_ops *ops = tk->t->run->ops;
	struct qnode *n = NULL;

	ut_thread_set_state(tk->t, w == QS_LFQ ? "cds_lfq_dequeue_rcu" : "cds_lfs_pop_rcu");
	ops->read_lock();
	if (w == QS_LFQ) {
		struct cds_lfq_node_rcu *ln = cds_lfq_dequeue_rcu(&tk->qr->q);

		if (ln)
			n = caa_container_of(ln, struct qnode, link.q);
	} else {
		struct cds_lfs_node_rcu *rn = cds_lfs_pop_rcu(&tk->qr->rs);

		if (rn)
			n = caa_container_of(rn, struct qnode, link.rs);
	}
	ops->read_unlock();
	if (!n)
		return 0;
	q_consume(tk, n, w);
	return 1;
}

/* lfstack: __cds_lfs_pop in a section, one in 64 a __cds_lfs_pop_all. */
static uint64_t take_lfs(struct q_taker *tk)
{
	const struct ut_flavor_ops *ops = tk->t->run->ops;
	struct cds_lfs_node *sn, *sn_next;
	uint64_t got = 0;

	if ((ut_rng_next(&tk->t->rng) & 63) == 0) {
		struct cds_lfs_head *h;

		/* Discipline 1 needs no read-side section around pop_all. */
		ut_thread_set_state(tk->t, "__cds_lfs_pop_all");
		h = __cds_lfs_pop_all(&tk->qr->s);
		if (!h)
			return 0;
		ut_count(&tk->c->pop_alls, 1);
		cds_lfs_for_each_safe(h, sn, sn_next) {
			q_consume(tk, caa_container_of(sn, struct qnode, link.s), QS_LFS);
			got++;
		}
		return got;
	}
	ut_thread_set_state(tk->t, "__cds_lfs_pop");
	ops->read_lock();
	sn = __cds_lfs_pop(&tk->qr->s);
	ops->read_unlock();
	if (!sn)
		return 0;
	q_consume(tk, caa_container_of(sn, struct qnode, link.s), QS_LFS);
	return 1;
}

/*
 * wfstack (and busted-wfstack) under the RCU discipline: a blocking or a
 * nonblocking pop in a read-side section, one in 64 a pop-all (an exchange:
 * no section needed) walked with cds_wfs_next_blocking.
 */
static uint64_t take_wfs(struct q_taker *tk, int w)
{
	const struct ut_flavor_ops *ops = tk->t->run->ops;
	struct __cds_wfs_stack *s = w == QS_WFS ? &tk->qr->ws : &tk->qr->bws;
	uint64_t r = ut_rng_next(&tk->t->rng), got = 0;
	struct cds_wfs_node *sn, *sn_next;

	if ((r & 63) == 0) {
		struct cds_wfs_head *h;

		ut_thread_set_state(tk->t, "__cds_wfs_pop_all");
		h = __cds_wfs_pop_all(s);
		if (!h)
			return 0;
		ut_count(&tk->c->pop_alls, 1);
		cds_wfs_for_each_blocking_safe(h, sn, sn_next) {
			q_consume(tk, caa_container_of(sn, struct qnode, link.ws), w);
			got++;
		}
		return got;
	}
	ops->read_lock();
	if (w == QS_BWFS) {
		ut_thread_set_state(tk->t, "seeded wfstack pop");
		sn = ut_seeded_wfs_pop(s);
	} else if (r & 64) {
		ut_thread_set_state(tk->t, "__cds_wfs_pop_nonblocking");
		sn = __cds_wfs_pop_nonblocking(s);
	} else {
		ut_thread_set_state(tk->t, "__cds_wfs_pop_blocking");
		sn = __cds_wfs_pop_blocking(s);
	}
	ops->read_unlock();
	if (sn == CDS_WFS_WOULDBLOCK) {
		ut_count(&tk->c->wouldblock[w], 1);
		return 0;
	}
	if (!sn)
		return 0;
	q_consume(tk, caa_container_of(sn, struct qnode, link.ws), w);
	return 1;
}

/* wfcqueue: splice everything into a private queue (shared lock), then take it. */
static uint64_t take_wfcq_splice(struct q_taker *tk)
{
	struct qrun *qr = tk->qr;
	struct __cds_wfcq_head ph;
	struct cds_wfcq_tail pt;
	struct cds_wfcq_node *cn, *cn_next;
	enum cds_wfcq_ret ret;
	uint64_t got = 0;

	__cds_wfcq_init(&ph, &pt);
	ut_thread_set_state(tk->t, "__cds_wfcq_splice_blocking");
	pthread_rwlock_rdlock(&qr->cq_splice);
	ret = __cds_wfcq_splice_blocking(&ph, &pt, &qr->cq_head, &qr->cq_tail);
	pthread_rwlock_unlock(&qr->cq_splice);
	if (ret == CDS_WFCQ_RET_SRC_EMPTY)
		return 0;
	ut_count(&tk->c->splices, 1);
	/* The private queue is this thread's alone. */
	__cds_wfcq_for_each_blocking_safe(&ph, &pt, cn, cn_next) {
		q_consume(tk, caa_container_of(cn, struct qnode, link.cq), QS_WFCQ);
		got++;
	}
	return got;
}

/* wfcqueue: half splices, a quarter blocking and a quarter nonblocking dequeues. */
static uint64_t take_wfcq(struct q_taker *tk)
{
	struct qrun *qr = tk->qr;
	uint64_t r = ut_rng_next(&tk->t->rng) & 3;
	struct cds_wfcq_node *cn;

	if (r < 2)
		return take_wfcq_splice(tk);
	pthread_rwlock_wrlock(&qr->cq_splice);
	if (r == 2) {
		ut_thread_set_state(tk->t, "cds_wfcq_dequeue_blocking");
		cn = cds_wfcq_dequeue_blocking(&qr->cq_head, &qr->cq_tail);
	} else {
		ut_thread_set_state(tk->t, "__cds_wfcq_dequeue_nonblocking");
		cds_wfcq_dequeue_lock(&qr->cq_head, &qr->cq_tail);
		cn = __cds_wfcq_dequeue_nonblocking(&qr->cq_head, &qr->cq_tail);
		cds_wfcq_dequeue_unlock(&qr->cq_head, &qr->cq_tail);
	}
	pthread_rwlock_unlock(&qr->cq_splice);
	if (cn == CDS_WFCQ_WOULDBLOCK) {
		ut_count(&tk->c->wouldblock[QS_WFCQ], 1);
		return 0;
	}
	if (!cn)
		return 0;
	q_consume(tk, caa_container_of(cn, struct qnode, link.cq), QS_WFCQ);
	return 1;
}

/* wfqueue: the locked dequeue, or the bare one under the queue's own mutex. */
static uint64_t take_wfq(struct q_taker *tk)
{
	struct qrun *qr = tk->qr;
	struct cds_wfq_node *wn;

	if (ut_rng_next(&tk->t->rng) & 1) {
		ut_thread_set_state(tk->t, "cds_wfq_dequeue_blocking");
		wn = cds_wfq_dequeue_blocking(&qr->wq);
	} else {
		ut_thread_set_state(tk->t, "__cds_wfq_dequeue_blocking");
		pthread_mutex_lock(&qr->wq.lock);
		wn = __cds_wfq_dequeue_blocking(&qr->wq);
		pthread_mutex_unlock(&qr->wq.lock);
	}
	if (!wn)
		return 0;
	q_consume(tk, caa_container_of(wn, struct qnode, link.wq), QS_WFQ);
	return 1;
}

static uint64_t q_take(struct q_taker *tk, int w)
{
	switch (w) {
	case QS_LFQ:
	case QS_RLFS: return take_rcu(tk, w);
	case QS_LFS: return take_lfs(tk);
	case QS_WFS:
	case QS_BWFS: return take_wfs(tk, w);
	case QS_WFCQ: return take_wfcq(tk);
	default: return take_wfq(tk);
	}
}

static void *q_consumer(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	struct qrun *qr = qrun_of(run);
	struct q_taker tk = { .t = t, .qr = qr, .c = t->mode_data };
	unsigned long i = 0;
	int empties = 0;

	tk.last_seq = calloc((size_t)QS_COUNT * (size_t)(qr->nproducers + 1), sizeof(uint64_t));
	ut_thread_begin(t);
	while (tk.last_seq && !ut_should_stop(run)) {
		int w = qr->on[(i++ + (unsigned long)t->idx) % (unsigned long)qr->non];
		uint64_t got;

		if (ut_reclaim_bound(t, &qr->graveyard, Q_GRAVE_MAX))
			continue;
		got = q_take(&tk, w);
		run->ops->quiescent_state();
		ut_count(&t->progress, 1);
		if (!got) {
			ut_count(&tk.c->empty[w], 1);
			/* Every structure empty in a row: let the producers run. */
			if (++empties >= qr->non) {
				ut_thread_set_state(t, "empty");
				ut_rcu_pause(t, 2000);
				empties = 0;
			}
			continue;
		}
		empties = 0;
		ut_outstanding_note(run);
	}
	ut_thread_end(t);
	free(tk.last_seq);
	return NULL;
}

/* ---- readers ---- */

/*
 * Check one node met on a walk: LIVE, and its producer's sequence numbers
 * monotonic along the walk (increasing on the queue, decreasing on the
 * stacks).  seen[] holds the (producer, last seq) pairs of this walk.
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
		if (qs[w].fifo ? s <= seen[k].seq : s >= seen[k].seq)
			ut_count(&t->mode_errors[qs[w].fifo ? QE_FIFO : QE_LIFO], 1);
		seen[k].seq = s;
	} else if (*nseen < Q_WALK_MAX) {
		seen[*nseen].producer = p;
		seen[*nseen].seq = s;
		(*nseen)++;
	}
	return true;
}

/*
 * The top node of stack w, NULL when empty.  Acquire: pairs with the push's
 * full-barrier exchange or compare-and-swap that published the node.
 */
static struct qnode *stack_top(struct qrun *qr, int w)
{
	if (w == QS_LFS) {
		struct cds_lfs_head *h = __atomic_load_n(&qr->s.head, __ATOMIC_ACQUIRE);

		return h ? caa_container_of(&h->node, struct qnode, link.s) : NULL;
	}
	if (w == QS_RLFS) {
		struct cds_lfs_node_rcu *rn = __atomic_load_n(&qr->rs.head, __ATOMIC_ACQUIRE);

		return rn ? caa_container_of(rn, struct qnode, link.rs) : NULL;
	} else {
		struct cds_wfs_head *h = __atomic_load_n(w == QS_WFS ? &qr->ws.head : &qr->bws.head,
							 __ATOMIC_ACQUIRE);

		return ut_wfs_is_end(h) ? NULL : caa_container_of(&h->node, struct qnode, link.ws);
	}
}

/*
 * The node below n on stack w, NULL at the bottom (or, on a wfstack, while
 * n's push is half done: the walk stops there).  Acquire: next was written
 * before the push that published the node below (its full barrier; the
 * wfstack's link store is a release), and never changes while the node can
 * be reached once set.
 */
static struct qnode *stack_below(struct qnode *n, int w)
{
	if (w == QS_LFS) {
		struct cds_lfs_node *x = __atomic_load_n(&n->link.s.next, __ATOMIC_ACQUIRE);

		return x ? caa_container_of(x, struct qnode, link.s) : NULL;
	}
	if (w == QS_RLFS) {
		struct cds_lfs_node_rcu *x = __atomic_load_n(&n->link.rs.next, __ATOMIC_ACQUIRE);

		return x ? caa_container_of(x, struct qnode, link.rs) : NULL;
	} else {
		struct cds_wfs_node *x = __atomic_load_n(&n->link.ws.next, __ATOMIC_ACQUIRE);

		return !x || ut_wfs_is_end(x) ? NULL : caa_container_of(x, struct qnode, link.ws);
	}
}

/* One walk of structure w from its head; the nodes to recheck go to keep[]. */
static int q_walk(struct ut_thread *t, int w, struct qnode **keep, int *nkeep)
{
	struct qrun *qr = qrun_of(t->run);
	struct walk_seen seen[Q_WALK_MAX];
	int nseen = 0, visited = 0;

	if (w == QS_LFQ) {
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

				if (walk_check(t, n, w, seen, &nseen) && *nkeep < Q_RECHECK)
					keep[(*nkeep)++] = n;
			}
			visited++;
			/* Acquire: pairs with enqueue E2 that linked the next node. */
			ln = __atomic_load_n(&ln->next, __ATOMIC_ACQUIRE);
		}
		return visited;
	}
	for (struct qnode *n = stack_top(qr, w); n && visited < Q_WALK_MAX; n = stack_below(n, w)) {
		if (walk_check(t, n, w, seen, &nseen) && *nkeep < Q_RECHECK)
			keep[(*nkeep)++] = n;
		visited++;
	}
	return visited;
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
		int nkeep = 0, visited, w;
		struct qnode *keep[Q_RECHECK];

		if (!qr->nwalk) {
			/* Nothing RCU-protected selected: nothing to walk. */
			ut_thread_set_state(t, "nothing to walk");
			ut_rcu_pause(t, 1000000);
			ut_count(&t->progress, 1);
			continue;
		}
		w = qr->walk[i++ % (unsigned long)qr->nwalk];
		ops->read_lock();
		visited = q_walk(t, w, keep, &nkeep);
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

/* ---- the mode's table ---- */

static void q_count(const struct ut_config *cfg, int n[], bool posts[])
{
	n[Q_READER] = cfg->readers;
	n[Q_PRODUCER] = cfg->enqueuers;
	n[Q_CONSUMER] = cfg->enqueuers;
	posts[Q_CONSUMER] = true;
}

/* One reader, two producers and two consumers unless told otherwise. */
static int q_configure(struct ut_config *cfg, char *err, size_t len)
{
	unsigned int mask;

	if (!ut_given(cfg, "readers"))
		cfg->readers = 1;
	if (!ut_given(cfg, "enqueuers"))
		cfg->enqueuers = 2;
	return qs_parse(ut_opt_text(cfg, &q_opts[0]), &mask, err, len);
}

static int q_setup(struct ut_run *run)
{
	struct qrun *qr = calloc(1, sizeof(*qr));
	unsigned int mask;
	char err[200];

	if (!qr)
		return -1;
	run->mode_data = qr;
	/*
	 * The queue reclaims its dummies through the real flavor's call_rcu,
	 * also under busted: only the mode's own reclamation is broken there.
	 * Every structure is set up (finish drains and destroys them all).
	 */
	cds_lfq_init_rcu(&qr->q, run->ops->rcu_flavor->update_call_rcu);
	__cds_lfs_init(&qr->s);
	cds_lfs_init_rcu(&qr->rs);
	__cds_wfs_init(&qr->ws);
	__cds_wfs_init(&qr->bws);
	cds_wfcq_init(&qr->cq_head, &qr->cq_tail);
	pthread_rwlock_init(&qr->cq_splice, NULL);
	cds_wfq_init(&qr->wq);
	qr->nproducers = run->cfg->enqueuers;
	if (qs_parse(ut_opt_text(run->cfg, &q_opts[0]), &mask, err, sizeof(err)))
		return -1;	/* q_configure checked it */
	for (int w = 0; w < QS_COUNT; w++) {
		if (!(mask & (1u << w)))
			continue;
		qr->on[qr->non++] = w;
		if (qs[w].walk)
			qr->walk[qr->nwalk++] = w;
	}
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

/* The stacks and the non-RCU queues (every thread joined: nothing waits). */
static void drain_others(struct ut_run *run, struct ut_deadlist *keep)
{
	struct qrun *qr = qrun_of(run);
	struct cds_lfs_head *h;
	struct cds_lfs_node *sn, *sn_next;
	struct cds_lfs_node_rcu *rn;
	struct cds_wfs_node *wn, *wn_next;
	struct cds_wfcq_node *cn;
	struct cds_wfq_node *qn;

	h = __cds_lfs_pop_all(&qr->s);
	if (h)
		cds_lfs_for_each_safe(h, sn, sn_next)
			drain_one(run, caa_container_of(sn, struct qnode, link.s), QS_LFS, keep);
	run->ops->read_lock();
	while ((rn = cds_lfs_pop_rcu(&qr->rs)))
		drain_one(run, caa_container_of(rn, struct qnode, link.rs), QS_RLFS, keep);
	run->ops->read_unlock();
	for (int w = QS_WFS; w <= QS_BWFS; w += QS_BWFS - QS_WFS) {
		struct cds_wfs_head *wh = __cds_wfs_pop_all(w == QS_WFS ? &qr->ws : &qr->bws);

		if (wh)
			cds_wfs_for_each_blocking_safe(wh, wn, wn_next)
				drain_one(run, caa_container_of(wn, struct qnode, link.ws), w, keep);
	}
	while ((cn = cds_wfcq_dequeue_blocking(&qr->cq_head, &qr->cq_tail)))
		drain_one(run, caa_container_of(cn, struct qnode, link.cq), QS_WFCQ, keep);
	while ((qn = cds_wfq_dequeue_blocking(&qr->wq)))
		drain_one(run, caa_container_of(qn, struct qnode, link.wq), QS_WFQ, keep);
	cds_wfcq_destroy(&qr->cq_head, &qr->cq_tail);
	pthread_rwlock_destroy(&qr->cq_splice);
	cds_wfq_destroy(&qr->wq);
}

static void q_fold(struct ut_run *run)
{
	struct q_result *res = run->res->mode_data;

	for (int i = 0; i < run->nthreads; i++) {
		const struct q_counts *c = run->threads[i].mode_data;

		for (int w = 0; w < QS_COUNT; w++) {
			res->c.produced[w] += c->produced[w];
			res->c.consumed[w] += c->consumed[w];
			res->c.empty[w] += c->empty[w];
			res->c.walks[w] += c->walks[w];
			res->c.wouldblock[w] += c->wouldblock[w];
		}
		res->c.pop_alls += c->pop_alls;
		res->c.splices += c->splices;
		res->c.walked += c->walked;
	}
}

static void q_finish(struct ut_run *run)
{
	const struct ut_flavor_ops *ops = run->ops;
	struct qrun *qr = qrun_of(run);
	struct q_result *res = run->res->mode_data;
	struct ut_deadlist keep = { 0 };
	struct cds_lfq_node_rcu *ln;

	q_fold(run);
	run->res->gp_lat_what = "none";
	if (!qr)
		return;
	for (int i = 0; i < qr->non; i++)
		res->mask |= 1u << qr->on[i];

	/*
	 * Every thread is joined and every callback ran: drain every
	 * structure.  The controller is registered (offline under qsbr).
	 */
	if (ops->is_qsbr)
		ops->thread_online();
	ops->read_lock();
	while ((ln = cds_lfq_dequeue_rcu(&qr->q)))
		drain_one(run, caa_container_of(ln, struct qnode, link.q), QS_LFQ, &keep);
	ops->read_unlock();
	if (cds_lfq_destroy_rcu(&qr->q))
		run->res->mode_errors[QE_LOST]++;	/* it says it is not empty */
	drain_others(run, &keep);
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
	char cbs[96];
	uint64_t p = 0, c = 0, walks = 0;

	for (int i = 0; i < run->nthreads; i++) {
		const struct q_counts *qc = run->threads[i].mode_data;

		for (int w = 0; w < QS_COUNT; w++) {
			p += ut_read(&qc->produced[w]);
			c += ut_read(&qc->consumed[w]);
			walks += ut_read(&qc->walks[w]);
		}
	}
	ut_cbs_stat(run, cbs, sizeof(cbs));
	snprintf(buf, len, "enq %llu deq %llu on %d structures, walks %llu %s",
		 (unsigned long long)p, (unsigned long long)c, qrun_of(run) ? qrun_of(run)->non : 0,
		 (unsigned long long)walks, cbs);
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
		if (!(q->mask & (1u << w)))
			continue;
		p += q->c.produced[w];
		c += q->c.consumed[w];
		ut_out(&cfg->inv->sink, "  %-15s enqueued %llu (%.3g/s) dequeued %llu (%.3g/s) left %llu "
		       "empty %llu would-block %llu\n",
		       qs[w].name, (unsigned long long)q->c.produced[w],
		       q_per_s(q->c.produced[w], r->seconds), (unsigned long long)q->c.consumed[w],
		       q_per_s(q->c.consumed[w], r->seconds), (unsigned long long)q->left[w],
		       (unsigned long long)q->c.empty[w], (unsigned long long)q->c.wouldblock[w]);
	}
	ut_out(&cfg->inv->sink, "  enqueues        %llu (%.3g/s), dequeues %llu (%.3g/s), pop_all %llu, "
	       "splices %llu\n",
	       (unsigned long long)p, q_per_s(p, r->seconds), (unsigned long long)c,
	       q_per_s(c, r->seconds), (unsigned long long)q->c.pop_alls,
	       (unsigned long long)q->c.splices);
	ut_out(&cfg->inv->sink, "  reader walks   ");
	for (int w = 0; w < QS_COUNT; w++)
		if ((q->mask & (1u << w)) && qs[w].walk)
			ut_out(&cfg->inv->sink, " %llu %s,", (unsigned long long)q->c.walks[w], qs[w].name);
	ut_out(&cfg->inv->sink, " %llu nodes checked\n", (unsigned long long)q->c.walked);
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
	uj_arr(j, "structures");
	for (int w = 0; w < QS_COUNT; w++)
		if (q->mask & (1u << w))
			uj_str(j, NULL, qs[w].name);
	uj_end_arr(j);
	for (int w = 0; w < QS_COUNT; w++) {
		if (!(q->mask & (1u << w)))
			continue;
		p += q->c.produced[w];
		c += q->c.consumed[w];
		uj_obj(j, qs[w].name);
		uj_u64(j, "enqueued", q->c.produced[w]);
		uj_dbl(j, "enqueues_per_s", q_per_s(q->c.produced[w], r->seconds));
		uj_u64(j, "dequeued", q->c.consumed[w]);
		uj_dbl(j, "dequeues_per_s", q_per_s(q->c.consumed[w], r->seconds));
		uj_u64(j, "left", q->left[w]);
		uj_u64(j, "empty", q->c.empty[w]);
		uj_u64(j, "would_block", q->c.wouldblock[w]);
		if (qs[w].walk)
			uj_u64(j, "reader_walks", q->c.walks[w]);
		else
			uj_null(j, "reader_walks");
		uj_end_obj(j);
	}
	uj_u64(j, "enqueues", p);
	uj_dbl(j, "enqueues_per_s", q_per_s(p, r->seconds));
	uj_u64(j, "dequeues", c);
	uj_dbl(j, "dequeues_per_s", q_per_s(c, r->seconds));
	uj_u64(j, "pop_alls", q->c.pop_alls);
	uj_u64(j, "splices", q->c.splices);
	uj_u64(j, "nodes_checked_by_readers", q->c.walked);
	uj_u64(j, "busted_graveyard", q->graveyard);
	uj_end_obj(j);
	(void)cfg;
}

const struct ut_mode_ops ut_mode_queue = {
	.name = "queue",
	.help = "queue: producers and consumers on the cds queues and stacks\n"
		"  (rculfqueue, lfstack, rculfstack, wfstack, wfcqueue with\n"
		"  blocking/nonblocking dequeue and concurrent splices, wfqueue;\n"
		"  --structures), --enqueuers producers and as many consumers\n"
		"  (default 2), --readers walkers of the RCU-protected ones\n"
		"  (default 1)",
	.roles = q_roles,
	.nroles = 3,
	.count = q_count,
	.thread_size = sizeof(struct q_counts),
	.result_size = sizeof(struct q_result),
	.errors = q_errors,
	.configure = q_configure,
	.opts = q_opts,
	.setup = q_setup,
	.finish = q_finish,
	.stat_line = q_stat,
	.report = q_report,
	.json = q_json,
};
