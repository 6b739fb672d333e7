// SPDX-License-Identifier: MIT
/*
 * wfcqueue: several threads splice from ONE source queue at once, with no
 * lock between them, while nodes are enqueued into it.  liburcu's
 * synchronization table allows that pair (splice as source against splice
 * as source), and programs written for liburcu do it (its own
 * test_urcu_wfcq -s), so ours must allow it too.  A stress test, not a
 * benchmark.
 *
 * SPLICERS threads splice the source into a private destination again and
 * again, and drain it, with the three splice forms: cds_wfcq_splice_blocking
 * (takes the source's mutex, which the others ignore), twice
 * __cds_wfcq_splice_blocking, and __cds_wfcq_splice_nonblocking (retried on
 * CDS_WFCQ_RET_WOULDBLOCK).  Meanwhile:
 *  1. free run: PRODUCERS threads enqueue ITEMS nodes each (argument 1,
 *     default 100000), yielding the CPU every BURST nodes so that the
 *     splicers run between their bursts even on 2 CPUs;
 *  2. stalled enqueue, ROUNDS times: the main thread enqueues one node into
 *     the empty source by hand, as an enqueuer preempted between its
 *     exchange of the tail and its link would (the tail moves, the head
 *     link comes STALL_US later).  The source is not empty, so the blocking
 *     splicers enter their splice and wait for the link together: the
 *     moment where splicers that read the head's link with a plain load
 *     all take the same chain.
 *
 * Checks: every node is drained exactly once (a per-node counter; a node
 * seen twice means two splicers took the same chain, and stops the run
 * before a cycle can spin forever), none is lost, and the run ends (a
 * splicer that appended the source's own dummy node to its destination
 * waits forever for a link: the watchdog names it after WATCHDOG_S).
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <urcu/compiler.h>
#include <urcu/uatomic.h>
#include <urcu/wfcqueue.h>

#include "tap.h"
#include "test-time.h"

enum {
	PRODUCERS = 2,
	SPLICERS = 4,
	BURST = 16,		/* enqueues between two yields of a producer */
	ROUNDS = 200,		/* stalled enqueues */
	MAX_ROUNDS = 4000,	/* more while fewer than 2 splicers took chains */
	STALL_US = 300,		/* between the tail exchange and the link */
	WATCHDOG_S = 50,	/* a run takes about a second, under 20 s loaded */
};

struct item {
	struct cds_wfcq_node node;
	unsigned int seen;	/* times drained */
};

static struct item *items;
static long nitems;		/* per producer */
static struct cds_wfcq_head src;
static struct cds_wfcq_tail src_tail;
static int stop;		/* all drained, or a duplicate: everybody leaves */
static int exited;		/* splicers that returned */
static int started;		/* start gate: splicers past their first splice */
static int busy;		/* splicers that took at least one chain */
static long drained_total, dups;
static long drained[SPLICERS], splices[SPLICERS], wouldblock[SPLICERS];

static const char *const form[SPLICERS] = {
	"locked blocking", "blocking", "blocking", "non-blocking",
};

static const char *phase = "the free run";

static void watchdog(int sig)
{
	static const char msg[] = "Bail out! watchdog: the splicers hung (two of them took "
		"the same chain, or the source's dummy node) in ";
	ssize_t r;

	(void) sig;
	r = write(STDOUT_FILENO, msg, sizeof(msg) - 1);
	r = write(STDOUT_FILENO, phase, strlen(phase));
	r = write(STDOUT_FILENO, "\n", 1);
	(void) r;
	_exit(1);
}

static void sleep_us(long us)
{
	struct timespec ts = { 0, us * 1000L };

	nanosleep(&ts, NULL);
}

static void *producer(void *arg)
{
	long p = (long) arg, i;

	for (i = 0; i < nitems && !uatomic_load(&stop, CMM_RELAXED); i++) {
		cds_wfcq_enqueue(&src, &src_tail, &items[p * nitems + i].node);
		if (!(i % BURST))
			sched_yield();	/* let the splicers meet (2 CPUs) */
	}
	return NULL;
}

/* Drain a private destination; false on a duplicate. */
static bool drain(int k, struct cds_wfcq_head *dest, struct cds_wfcq_tail *dest_tail)
{
	struct cds_wfcq_node *node;
	struct item *it;

	while ((node = __cds_wfcq_dequeue_blocking(dest, dest_tail)) != NULL) {
		it = caa_container_of(node, struct item, node);
		if (uatomic_add_return(&it->seen, 1) != 1) {
			uatomic_add(&dups, 1);
			uatomic_set(&stop, 1);
			return false;
		}
		drained[k]++;
		uatomic_add(&drained_total, 1);
	}
	return true;
}

static void *splicer(void *arg)
{
	int k = (int) (long) arg;
	struct cds_wfcq_head dest;
	struct cds_wfcq_tail dest_tail;
	enum cds_wfcq_ret ret;
	bool counted = false;

	cds_wfcq_init(&dest, &dest_tail);
	while (!uatomic_load(&stop, CMM_RELAXED)) {
		switch (k) {
		case 0:
			ret = cds_wfcq_splice_blocking(&dest, &dest_tail, &src, &src_tail);
			break;
		case SPLICERS - 1:
			ret = __cds_wfcq_splice_nonblocking(&dest, &dest_tail, &src, &src_tail);
			break;
		default:
			ret = __cds_wfcq_splice_blocking(&dest, &dest_tail, &src, &src_tail);
			break;
		}
		if (!counted) {
			counted = true;
			uatomic_inc(&started);	/* relaxed: a count, nothing published */
		}
		if (ret == CDS_WFCQ_RET_WOULDBLOCK)
			wouldblock[k]++;
		if (ret == CDS_WFCQ_RET_WOULDBLOCK || ret == CDS_WFCQ_RET_SRC_EMPTY) {
			sched_yield();
			continue;
		}
		if (!splices[k]++)
			uatomic_inc(&busy);	/* relaxed: a count, nothing published */
		if (!drain(k, &dest, &dest_tail))
			break;
	}
	cds_wfcq_destroy(&dest, &dest_tail);
	uatomic_add(&exited, 1);
	return NULL;
}

/*
 * Wait until n nodes in all were drained, or a duplicate; at most
 * T_START_LIMIT_MS, generous for splicers that a loaded machine runs late.
 */
static void wait_drained(long n)
{
	unsigned long long start = t_now_ns();

	while (uatomic_load(&drained_total, CMM_RELAXED) < n && !uatomic_load(&stop, CMM_RELAXED)
			&& t_ms_since(start) < T_START_LIMIT_MS)
		sleep_us(50);
}

/*
 * Enqueue it by hand, stalled between the tail exchange and the link (as
 * the enqueue of urcu/static/wfcqueue.h, E1-E3, with a pause after E2).
 */
static void stalled_enqueue(struct item *it)
{
	struct cds_wfcq_node *prev;

	it->node.next = NULL;				/* E1 */
	prev = uatomic_xchg(&src_tail.p, &it->node);	/* E2, full barrier */
	sleep_us(STALL_US);
	CMM_STORE_SHARED(prev->next, &it->node);	/* E3 */
}

int main(int argc, char **argv)
{
	pthread_t prod[PRODUCERS], spl[SPLICERS];
	long missing = 0, i, n, r;
	int k;

	nitems = argc > 1 ? atol(argv[1]) : 100000;
	n = PRODUCERS * nitems;
	items = calloc((size_t) (n + MAX_ROUNDS), sizeof(*items));
	if (!items)
		tap_bail("out of memory");
	for (i = 0; i < n + MAX_ROUNDS; i++)
		cds_wfcq_node_init(&items[i].node);
	cds_wfcq_init(&src, &src_tail);
	signal(SIGALRM, watchdog);
	alarm(WATCHDOG_S);

	for (k = 0; k < SPLICERS; k++)
		if (pthread_create(&spl[k], NULL, splicer, (void *) (long) k))
			tap_bail("pthread_create");
	/* The race needs splicers that run: every one has tried a splice. */
	for (i = 0; uatomic_load(&started, CMM_RELAXED) < SPLICERS; i++) {
		if (i > T_START_LIMIT_MS)
			tap_bail("%d of %d splicers ran in %d ms", uatomic_load(&started,
				CMM_RELAXED), SPLICERS, T_START_LIMIT_MS);
		sleep_us(1000);
	}
	for (k = 0; k < PRODUCERS; k++)
		if (pthread_create(&prod[k], NULL, producer, (void *) (long) k))
			tap_bail("pthread_create");
	for (k = 0; k < PRODUCERS; k++)
		pthread_join(prod[k], NULL);
	wait_drained(n);
	tap_ok(!dups, "free run: no node taken by two splicers (%ld seen twice)", dups);

	/* ROUNDS, and on (MAX_ROUNDS at most) until 2 splicers have taken chains. */
	phase = "the stalled enqueues";
	for (r = 0; (r < ROUNDS || (uatomic_load(&busy, CMM_RELAXED) < 2 && r < MAX_ROUNDS))
			&& !uatomic_load(&stop, CMM_RELAXED); r++) {
		stalled_enqueue(&items[n + r]);
		wait_drained(n + r + 1);
	}
	tap_ok(!dups, "stalled enqueues: no node taken by two splicers (%ld seen twice, "
		"%ld rounds run)", dups, r);

	phase = "the end";
	uatomic_set(&stop, 1);
	for (i = 0; i < T_START_LIMIT_MS && uatomic_load(&exited, CMM_RELAXED) < SPLICERS; i++)
		sleep_us(1000);
	k = uatomic_load(&exited, CMM_RELAXED);
	/*
	 * A splicer that passed the empty test and then waits for the head's
	 * link, which another splicer took meanwhile, waits inside the splice
	 * of an empty source until the next enqueue: it must return
	 * CDS_WFCQ_RET_SRC_EMPTY instead.
	 */
	if (!tap_ok(k == SPLICERS, "every splicer returned after the end (%d of %d; "
			"one still inside a splice waits on an empty source for the chain "
			"another splicer took)", k, SPLICERS))
		return tap_done();	/* cannot join them */
	for (k = 0; k < SPLICERS; k++)
		pthread_join(spl[k], NULL);
	alarm(0);

	for (k = 0; k < SPLICERS; k++)
		tap_diag("splicer %d (%s): %ld splices, %ld nodes, %ld would-block", k,
			form[k], splices[k], drained[k], wouldblock[k]);
	for (i = 0; i < n + r; i++)
		missing += items[i].seen == 0;
	tap_ok(!dups && drained_total == n + r && !missing, "every node drained exactly "
		"once (%ld of %ld, %ld never)", drained_total, n + r, missing);
	tap_ok(cds_wfcq_empty(&src, &src_tail), "the source ends empty");
	tap_ok(busy >= 2, "%d of %d splicers took chains (the race was run)", busy, SPLICERS);
	cds_wfcq_destroy(&src, &src_tail);
	free(items);
	return tap_done();
}
