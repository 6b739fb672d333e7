// SPDX-License-Identifier: MIT
/*
 * N producers x M consumers on one stack or queue, under one of its
 * synchronization disciplines.  Not a benchmark: the point is to break the
 * structure if it can be broken.
 *
 * Workload.  Each producer pushes (enqueues) items numbered 0..n-1, taking
 * the nodes from its own small pool; consumers pop (dequeue) them, now and
 * then with a pop-all, check each and give the node back to its producer's
 * pool: at once under the mutex and single-consumer disciplines, after a
 * grace period (call_rcu) under the RCU one, where nodes are poisoned when
 * they are freed.  Pools are small, so nodes are reused many times: a wrong
 * reclamation or an ABA shows up as a poisoned, duplicated or lost item.
 *
 * Checks, once every thread is done and the structure has been drained:
 *   - every item was consumed exactly once, and no consumer got a poisoned
 *     node;
 *   - queues: each consumer saw each producer's items in increasing order;
 *   - wfstack: pushes that found the stack empty == pops that reported
 *     CDS_WFS_STATE_LAST + non-empty pop-alls (each empty -> non-empty
 *     transition is matched by one non-empty -> empty transition);
 *   - no deadline hit.
 *
 * Usage: test_cds_stress STRUCT DISCIPLINE PRODUCERS CONSUMERS ITEMS [SECONDS]
 *   STRUCT: lfstack wfstack rculfqueue wfqueue rculfstack
 *   DISCIPLINE: rcu mutex single nonblocking (nonblocking: wfstack only; the
 *   pops are __cds_wfs_pop_*_nonblocking under the stack's mutex, retried on
 *   CDS_WFS_WOULDBLOCK)
 * Built per flavor (-DTEST_FLAVOR_<X>).  With -DTEST_SEED_BUG the lfstack's
 * RCU-discipline pop is replaced by a test-local copy whose compare-and-swap
 * is a plain store: that build must fail (it is registered with should_fail).
 */
#define CDS_WFQ_DEPRECATED
#define CDS_LFS_RCU_DEPRECATED
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <urcu/cds.h>

#include "flavor-select.h"
#include "test-util.h"
#include "cds-test.h"

enum t_struct { S_LFSTACK, S_WFSTACK, S_RCULFQUEUE, S_WFQUEUE, S_RCULFSTACK };
enum t_disc { D_RCU, D_MUTEX, D_SINGLE, D_NONBLOCKING };

static const char *const struct_names[] = {
	"lfstack", "wfstack", "rculfqueue", "wfqueue", "rculfstack",
};
static const char *const disc_names[] = { "rcu", "mutex", "single", "nonblocking" };

#define POOL_SIZE	256	/* nodes per producer */
#define T_TAKEN		0x7a4e7a4eU	/* popped, not yet freed */
#define POP_ALL_EVERY	16	/* one pop-all every so many consumer operations */

struct t_node {
	union {
		struct cds_lfs_node lfs;
		struct cds_wfs_node wfs;
		struct cds_lfq_node_rcu lfq;
		struct cds_wfq_node wfq;
		struct cds_lfs_node_rcu lfsr;
	} link;
	unsigned int magic;		/* T_LIVE pushed, T_TAKEN popped, T_POISON freed */
	unsigned int producer;
	unsigned long seq;
	struct rcu_head rcu;
	struct t_node *free_next;
};

struct t_producer {
	unsigned int id;
	pthread_t tid;
	struct t_node *pool;
	pthread_mutex_t free_lock;
	struct t_node *free_list;
	unsigned long saw_empty;	/* pushes that found the stack empty */
	unsigned long waits;		/* times the pool was empty */
};

struct t_consumer {
	pthread_t tid;
	unsigned long ops;
	unsigned long poisoned, taken_twice, bad, order, cycles;
	unsigned long last_pops, nonempty_pop_alls, wouldblock;
	long *last_seq;			/* per producer, -1 before the first */
};

static struct {
	enum t_struct s;
	enum t_disc d;
	unsigned int nprod, ncons;
	unsigned long items;		/* per producer */
	double seconds;
} cfg;

static struct cds_lfs_stack lfs;
static struct cds_wfs_stack wfs;
static struct cds_lfq_queue_rcu lfq;
static struct cds_wfq_queue wfq;
static struct cds_lfs_stack_rcu lfsr;

static struct t_producer *producers;
static struct t_consumer *consumers;
static unsigned int *seen;		/* per item: times consumed */
static unsigned long consumed;		/* items consumed so far */
static int stop;			/* deadline passed */
static unsigned long long deadline_ns;
static int go;

#ifdef TEST_SEED_BUG
/* The seeded bug: Treiber's pop with its compare-and-swap made a plain store. */
static struct cds_lfs_node *t_broken_pop(struct cds_lfs_stack *s)
{
	struct cds_lfs_head *top = uatomic_load(&s->head, CMM_ACQUIRE);
	struct cds_lfs_node *next;
	int i;

	if (top == NULL)
		return NULL;
	next = CMM_LOAD_SHARED(top->node.next);
	/*
	 * Widen the window between the read and the store, as a slow or
	 * preempted CPU would, so that a short run on two CPUs sees the race.
	 */
	for (i = 0; i < 100; i++)
		caa_cpu_relax();
	uatomic_store(&s->head, (struct cds_lfs_head *) next, CMM_RELEASE);
	return &top->node;
}
# define T_RCU_LFS_POP(s)	t_broken_pop(s)
#else
# define T_RCU_LFS_POP(s)	__cds_lfs_pop(s)
#endif

static bool t_past_deadline(void)
{
	if (t_load(&stop))
		return true;
	if (t_now_ns() > deadline_ns) {
		t_store(&stop, 1);
		return true;
	}
	return false;
}

/* ---- node pools ------------------------------------------------------- */

static void t_free(struct t_node *n)
{
	struct t_producer *p = &producers[n->producer];

	__atomic_store_n(&n->magic, T_POISON, __ATOMIC_RELAXED);
	pthread_mutex_lock(&p->free_lock);
	n->free_next = p->free_list;
	p->free_list = n;
	pthread_mutex_unlock(&p->free_lock);
}

static void t_free_cb(struct rcu_head *head)
{
	t_free(caa_container_of(head, struct t_node, rcu));
}

static void t_reclaim(struct t_node *n)
{
	if (cfg.d == D_RCU)
		T_FN(call_rcu)(&n->rcu, t_free_cb);
	else
		t_free(n);
}

static struct t_node *t_alloc(struct t_producer *p)
{
	struct t_node *n;

	for (;;) {
		pthread_mutex_lock(&p->free_lock);
		n = p->free_list;
		if (n)
			p->free_list = n->free_next;
		pthread_mutex_unlock(&p->free_lock);
		if (n || t_past_deadline())
			return n;
		/* Wait for consumers (and grace periods) to give nodes back. */
		p->waits++;
		T_FN(quiescent_state)();
		{
			struct timespec ts = { 0, 20000L };

			nanosleep(&ts, NULL);
		}
	}
}

/* ---- the structure under test ----------------------------------------- */

/* Returns true if the push found the stack empty. */
static bool t_push(struct t_node *n)
{
	switch (cfg.s) {
	case S_LFSTACK:
		return !cds_lfs_push(&lfs, &n->link.lfs);
	case S_WFSTACK:
		return cds_wfs_push(&wfs, &n->link.wfs) == 0;
	case S_RCULFQUEUE:
		T_FN(read_lock)();
		cds_lfq_enqueue_rcu(&lfq, &n->link.lfq);
		t_reader_exit();
		return false;
	case S_WFQUEUE:
		cds_wfq_enqueue(&wfq, &n->link.wfq);
		return false;
	case S_RCULFSTACK:
		return cds_lfs_push_rcu(&lfsr, &n->link.lfsr) == 0;
	}
	return false;
}

static void t_consume(struct t_consumer *c, struct t_node *n)
{
	unsigned long seq;
	unsigned int p;

	/*
	 * Claim the node: only the claim that finds it T_LIVE may reclaim it,
	 * so that even a broken structure that hands a node out twice cannot
	 * make the test hand it to call_rcu twice.
	 */
	switch (__atomic_exchange_n(&n->magic, T_TAKEN, __ATOMIC_RELAXED)) {
	case T_LIVE:
		break;
	case T_TAKEN:
		c->taken_twice++;
		return;
	default:
		c->poisoned++;
		return;
	}
	p = n->producer;
	seq = n->seq;
	if (p >= cfg.nprod || seq >= cfg.items) {
		c->bad++;
		return;
	}
	__atomic_add_fetch(&seen[(unsigned long) p * cfg.items + seq], 1, __ATOMIC_RELAXED);
	if (cfg.s == S_RCULFQUEUE || cfg.s == S_WFQUEUE) {
		if (c->last_seq[p] >= 0 && (long) seq <= c->last_seq[p])
			c->order++;
		c->last_seq[p] = (long) seq;
	}
	__atomic_add_fetch(&consumed, 1, __ATOMIC_RELAXED);
	t_reclaim(n);
}

/* Bound on a pop-all walk: more nodes than exist means a cycle. */
static unsigned long t_max_nodes(void)
{
	return (unsigned long) cfg.nprod * POOL_SIZE + 1;
}

static unsigned long t_consume_lfs_list(struct t_consumer *c, struct cds_lfs_head *head)
{
	struct cds_lfs_node *node, *n;
	unsigned long count = 0;

	cds_lfs_for_each_safe(head, node, n) {
		if (++count > t_max_nodes()) {
			c->cycles++;
			break;
		}
		t_consume(c, caa_container_of(node, struct t_node, link.lfs));
	}
	return count;
}

static unsigned long t_consume_wfs_list(struct t_consumer *c, struct cds_wfs_head *head)
{
	struct cds_wfs_node *node, *n;
	unsigned long count = 0;

	if (head)
		c->nonempty_pop_alls++;
	cds_wfs_for_each_blocking_safe(head, node, n) {
		if (++count > t_max_nodes()) {
			c->cycles++;
			break;
		}
		t_consume(c, caa_container_of(node, struct t_node, link.wfs));
	}
	return count;
}

static struct t_node *t_node_of(void *link)
{
	return link ? caa_container_of((struct cds_lfs_node *) link, struct t_node, link.lfs) : NULL;
}

/* One consumer operation; returns the number of items consumed. */
static unsigned long t_pop_some(struct t_consumer *c)
{
	bool all = (++c->ops % POP_ALL_EVERY) == 0;
	struct t_node *n = NULL;
	void *link = NULL;
	int state = 0;

	switch (cfg.s) {
	case S_LFSTACK:
		if (all) {
			struct cds_lfs_head *h;

			if (cfg.d == D_MUTEX)
				h = cds_lfs_pop_all_blocking(&lfs);
			else
				h = __cds_lfs_pop_all(&lfs);	/* rcu: needs no read-side section */
			return t_consume_lfs_list(c, h);
		}
		if (cfg.d == D_MUTEX) {
			link = cds_lfs_pop_blocking(&lfs);
		} else if (cfg.d == D_RCU) {
			T_FN(read_lock)();
			link = T_RCU_LFS_POP(&lfs);
			t_reader_exit();
		} else {
			link = __cds_lfs_pop(&lfs);
		}
		break;
	case S_WFSTACK:
		if (all) {
			struct cds_wfs_head *h;

			if (cfg.d == D_MUTEX) {
				h = cds_wfs_pop_all_blocking(&wfs);
			} else if (cfg.d == D_NONBLOCKING) {
				cds_wfs_pop_lock(&wfs);
				h = __cds_wfs_pop_all(&wfs);
				cds_wfs_pop_unlock(&wfs);
			} else {
				h = __cds_wfs_pop_all(&wfs);
			}
			return t_consume_wfs_list(c, h);
		}
		if (cfg.d == D_MUTEX) {
			link = cds_wfs_pop_with_state_blocking(&wfs, &state);
		} else if (cfg.d == D_RCU) {
			T_FN(read_lock)();
			link = __cds_wfs_pop_with_state_blocking(&wfs, &state);
			t_reader_exit();
		} else if (cfg.d == D_NONBLOCKING) {
			cds_wfs_pop_lock(&wfs);
			link = __cds_wfs_pop_with_state_nonblocking(&wfs, &state);
			cds_wfs_pop_unlock(&wfs);
			if (link == CDS_WFS_WOULDBLOCK) {
				c->wouldblock++;
				if (state != 0)
					c->bad++;
				return 0;
			}
		} else {
			link = __cds_wfs_pop_with_state_blocking(&wfs, &state);
		}
		if (link && (state & CDS_WFS_STATE_LAST))
			c->last_pops++;
		if (!link && state != 0)
			c->bad++;
		break;
	case S_RCULFQUEUE:
		T_FN(read_lock)();
		link = cds_lfq_dequeue_rcu(&lfq);
		t_reader_exit();
		break;
	case S_WFQUEUE:
		if (cfg.d == D_MUTEX)
			link = cds_wfq_dequeue_blocking(&wfq);
		else
			link = __cds_wfq_dequeue_blocking(&wfq);
		break;
	case S_RCULFSTACK:
		T_FN(read_lock)();
		link = cds_lfs_pop_rcu(&lfsr);
		t_reader_exit();
		break;
	}
	/* Every link member sits at offset 0 of struct t_node. */
	n = t_node_of(link);
	if (n == NULL)
		return 0;
	t_consume(c, n);
	return 1;
}

/* ---- threads ---------------------------------------------------------- */

static void *t_producer_thread(void *arg)
{
	struct t_producer *p = (struct t_producer *) arg;
	unsigned long seq;

	T_FN(register_thread)();
	while (!t_load(&go))
		sched_yield();
	for (seq = 0; seq < cfg.items; seq++) {
		struct t_node *n = t_alloc(p);

		if (n == NULL)
			break;		/* deadline */
		n->producer = p->id;
		n->seq = seq;
		__atomic_store_n(&n->magic, T_LIVE, __ATOMIC_RELAXED);
		if (t_push(n))
			p->saw_empty++;
		T_FN(quiescent_state)();
	}
	T_FN(unregister_thread)();
	return NULL;
}

static void *t_consumer_thread(void *arg)
{
	struct t_consumer *c = (struct t_consumer *) arg;
	unsigned long total = (unsigned long) cfg.nprod * cfg.items;
	unsigned int idle = 0;

	T_FN(register_thread)();
	while (!t_load(&go))
		sched_yield();
	while (__atomic_load_n(&consumed, __ATOMIC_RELAXED) < total) {
		/* Also when busy: a broken structure may yield nodes forever. */
		if (c->ops % 1024 == 0 && t_past_deadline())
			break;
		if (t_pop_some(c) != 0) {
			idle = 0;
			continue;
		}
		/* Empty (or would block): let producers run on a small machine. */
		if (++idle % 64 == 0 && t_past_deadline())
			break;
		sched_yield();
	}
	T_FN(unregister_thread)();
	return NULL;
}

/* ---- setup, drain, checks --------------------------------------------- */

static void t_init_structure(void)
{
	switch (cfg.s) {
	case S_LFSTACK:
		cds_lfs_init(&lfs);
		break;
	case S_WFSTACK:
		cds_wfs_init(&wfs);
		break;
	case S_RCULFQUEUE:
		cds_lfq_init_rcu(&lfq, T_FN(call_rcu));
		break;
	case S_WFQUEUE:
		cds_wfq_init(&wfq);
		break;
	case S_RCULFSTACK:
		cds_lfs_init_rcu(&lfsr);
		break;
	}
}

/* Destroy the structure; non-zero if it still held a node. */
static int t_destroy_structure(void)
{
	int ret = 0;

	switch (cfg.s) {
	case S_LFSTACK:
		ret = !cds_lfs_empty(&lfs);
		cds_lfs_destroy(&lfs);
		break;
	case S_WFSTACK:
		ret = !cds_wfs_empty(&wfs);
		cds_wfs_destroy(&wfs);
		break;
	case S_RCULFQUEUE:
		ret = cds_lfq_destroy_rcu(&lfq);
		break;
	case S_WFQUEUE:
		ret = __cds_wfq_dequeue_blocking(&wfq) != NULL;
		cds_wfq_destroy(&wfq);
		break;
	case S_RCULFSTACK:
		ret = lfsr.head != NULL;
		break;
	}
	return ret;
}

static int t_parse(int argc, char **argv)
{
	unsigned int i;

	if (argc < 6)
		return -1;
	for (i = 0; i < CAA_ARRAY_SIZE(struct_names); i++)
		if (!strcmp(argv[1], struct_names[i]))
			cfg.s = (enum t_struct) i;
	for (i = 0; i < CAA_ARRAY_SIZE(disc_names); i++)
		if (!strcmp(argv[2], disc_names[i]))
			cfg.d = (enum t_disc) i;
	if (strcmp(argv[1], struct_names[cfg.s]) || strcmp(argv[2], disc_names[cfg.d]))
		return -1;
	cfg.nprod = (unsigned int) atoi(argv[3]);
	cfg.ncons = (unsigned int) atoi(argv[4]);
	cfg.items = strtoul(argv[5], NULL, 10);
	cfg.seconds = argc > 6 ? atof(argv[6]) : 20.0;
	if (!cfg.nprod || !cfg.ncons || !cfg.items || cfg.nprod > 64 || cfg.ncons > 64)
		return -1;
	if (cfg.d == D_SINGLE && cfg.ncons != 1)
		return -1;
	if (cfg.d == D_NONBLOCKING && cfg.s != S_WFSTACK)
		return -1;
	if ((cfg.s == S_RCULFQUEUE || cfg.s == S_RCULFSTACK) && cfg.d != D_RCU)
		return -1;
	if (cfg.s == S_WFQUEUE && cfg.d != D_MUTEX && cfg.d != D_SINGLE)
		return -1;
	return 0;
}

static void t_watchdog(int sig)
{
	static const char msg[] = "Bail out! watchdog: the test hung past its deadline\n";

	(void) sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

int main(int argc, char **argv)
{
	unsigned long total, missing = 0, dups = 0, saw_empty = 0, last = 0, drained = 0;
	struct t_consumer drain_c;
	struct t_consumer sum;
	unsigned long long start;
	unsigned int i;
	int timed_out;

	if (t_parse(argc, argv)) {
		fprintf(stderr, "usage: %s lfstack|wfstack|rculfqueue|wfqueue|rculfstack "
			"rcu|mutex|single|nonblocking PRODUCERS CONSUMERS ITEMS [SECONDS]\n"
			"(single: 1 consumer; nonblocking: wfstack; rculfqueue, rculfstack: rcu; "
			"wfqueue: mutex or single)\n", argv[0]);
		return 2;
	}
	tap_diag("%s, %s discipline, %u producers x %u consumers, %lu items each, "
		"%s flavor, %s%s", struct_names[cfg.s], disc_names[cfg.d], cfg.nprod, cfg.ncons,
		cfg.items, T_FLAVOR, T_CDS_MODE,
#ifdef TEST_SEED_BUG
		", SEEDED BUG (must fail)"
#else
		""
#endif
		);
	signal(SIGALRM, t_watchdog);
	alarm((unsigned int) cfg.seconds + 30);

	total = (unsigned long) cfg.nprod * cfg.items;
	seen = (unsigned int *) calloc(total, sizeof(*seen));
	producers = (struct t_producer *) calloc(cfg.nprod, sizeof(*producers));
	consumers = (struct t_consumer *) calloc(cfg.ncons, sizeof(*consumers));
	if (!seen || !producers || !consumers)
		tap_bail("out of memory");
	t_init_structure();
	for (i = 0; i < cfg.nprod; i++) {
		struct t_producer *p = &producers[i];
		unsigned int k;

		p->id = i;
		pthread_mutex_init(&p->free_lock, NULL);
		p->pool = (struct t_node *) calloc(POOL_SIZE, sizeof(*p->pool));
		if (!p->pool)
			tap_bail("out of memory");
		for (k = 0; k < POOL_SIZE; k++) {
			p->pool[k].producer = i;
			p->pool[k].free_next = p->free_list;
			p->free_list = &p->pool[k];
		}
	}
	for (i = 0; i <= cfg.ncons; i++) {
		struct t_consumer *c = i < cfg.ncons ? &consumers[i] : &drain_c;
		unsigned int k;

		if (c == &drain_c)
			memset(c, 0, sizeof(*c));
		c->last_seq = (long *) malloc(cfg.nprod * sizeof(long));
		if (!c->last_seq)
			tap_bail("out of memory");
		for (k = 0; k < cfg.nprod; k++)
			c->last_seq[k] = -1;
	}

	deadline_ns = t_now_ns() + (unsigned long long) (cfg.seconds * 1e9);
	for (i = 0; i < cfg.ncons; i++)
		consumers[i].tid = t_thread_start(t_consumer_thread, &consumers[i]);
	for (i = 0; i < cfg.nprod; i++)
		producers[i].tid = t_thread_start(t_producer_thread, &producers[i]);
	start = t_now_ns();
	t_store(&go, 1);
	for (i = 0; i < cfg.nprod; i++)
		t_thread_join(producers[i].tid);
	for (i = 0; i < cfg.ncons; i++)
		t_thread_join(consumers[i].tid);
	tap_diag("ran %.0f ms", t_ms_since(start));
	timed_out = t_load(&stop);

	/*
	 * Registered only now: a registered qsbr thread blocked in
	 * pthread_join would hold back every grace period.
	 */
	T_FN(register_thread)();

	/*
	 * Drain what is left (items of a duplicate-ridden run, or of a run cut
	 * by the deadline), single-threaded; pop-alls included.
	 */
	{
		unsigned long before = __atomic_load_n(&consumed, __ATOMIC_RELAXED);
		unsigned int empty = 0;

		deadline_ns = t_now_ns() + 5000000000ULL;
		t_store(&stop, 0);
		while (empty < 2 * POP_ALL_EVERY && !t_past_deadline())
			empty = t_pop_some(&drain_c) ? 0 : empty + 1;
		drained = __atomic_load_n(&consumed, __ATOMIC_RELAXED) - before;
	}
	T_FN(barrier)();	/* every node back in its pool */

	memset(&sum, 0, sizeof(sum));
	for (i = 0; i <= cfg.ncons; i++) {
		struct t_consumer *c = i < cfg.ncons ? &consumers[i] : &drain_c;

		sum.poisoned += c->poisoned;
		sum.taken_twice += c->taken_twice;
		sum.bad += c->bad;
		sum.order += c->order;
		sum.cycles += c->cycles;
		sum.last_pops += c->last_pops;
		sum.nonempty_pop_alls += c->nonempty_pop_alls;
		sum.wouldblock += c->wouldblock;
		free(c->last_seq);
	}
	for (i = 0; i < cfg.nprod; i++)
		saw_empty += producers[i].saw_empty;
	for (unsigned long k = 0; k < total; k++) {
		if (seen[k] == 0)
			missing++;
		else if (seen[k] > 1)
			dups += seen[k] - 1;
	}
	if (drained)
		tap_diag("%lu items were left for the final drain", drained);
	if (sum.wouldblock)
		tap_diag("%lu non-blocking pops returned CDS_WFS_WOULDBLOCK", sum.wouldblock);
	tap_ok(!timed_out && drained == 0, "all items consumed before the deadline");
	tap_ok(missing == 0 && dups == 0,
		"every item consumed exactly once (%lu missing, %lu duplicated of %lu)",
		missing, dups, total);
	tap_ok(sum.poisoned == 0 && sum.taken_twice == 0 && sum.bad == 0 && sum.cycles == 0,
		"no freed node popped, no node popped twice, no corrupt item, no cycle "
		"(%lu, %lu, %lu, %lu)", sum.poisoned, sum.taken_twice, sum.bad, sum.cycles);
	if (cfg.s == S_RCULFQUEUE || cfg.s == S_WFQUEUE)
		tap_ok(sum.order == 0, "each consumer saw each producer's items in order "
			"(%lu violations)", sum.order);
	if (cfg.s == S_WFSTACK) {
		last = sum.last_pops + sum.nonempty_pop_alls;
		tap_ok(saw_empty == last, "pushes onto an empty stack (%lu) == last pops (%lu) "
			"+ non-empty pop-alls (%lu)", saw_empty, sum.last_pops,
			sum.nonempty_pop_alls);
	}
	tap_ok(t_destroy_structure() == 0, "the structure is empty at the end");

	T_FN(barrier)();
	for (i = 0; i < cfg.nprod; i++) {
		free(producers[i].pool);
		pthread_mutex_destroy(&producers[i].free_lock);
	}
	free(producers);
	free(consumers);
	free(seen);
	T_FN(unregister_thread)();
	return tap_done();
}
