// SPDX-License-Identifier: MIT
/*
 * call_rcu worker threads: creation, the callback loop, the enqueue-side
 * wake-up, stop/pause requests and statistics.  Compiled once per flavor.
 *
 * The callback loop.  A worker owns the dequeue side of its wait-free queue.
 * Each round it splices the whole queue into a private batch, waits for ONE
 * grace period (URCU_FN(synchronize_rcu)), then invokes every callback of the
 * batch.  Every callback in the batch was enqueued before the splice, hence
 * before that grace period began, so it runs after a grace period that began
 * after its call_rcu(): a reader that held the object when call_rcu() was
 * called has unlocked by then.
 *
 * Wake-up protocol of a normal (non-RT) worker (Dekker pattern on two
 * variables: the queue and crdp->sleep).
 *
 *   worker, queue found empty            enqueuer (call_rcu)
 *   (S1) sleep = CRDP_SLEEPING           (E1) tail xchg (enqueue): full barrier
 *   (S2) smp_mb                          (E2) if the queue was empty before E1:
 *   (S3) if queue still empty                   load sleep
 *          futex_wait(&sleep, SLEEPING)  (E3)   if SLEEPING and
 *   (S4) sleep = CRDP_AWAKE                       cmpxchg(sleep, SLEEPING, AWAKE)
 *                                                 succeeds: futex_wake
 *
 * Claim: the worker never sleeps while a callback sits in its queue.
 * Suppose it sleeps at S3 with callback c queued.  Its S3 load found the
 * queue empty, so the enqueue of c (E1) is not visible to it; by the full
 * barriers S2 and E1 (store-load ordering on both sides), the enqueuer's E2
 * load then sees S1's SLEEPING.  If c was enqueued into a non-empty queue,
 * apply the argument to the enqueue that made the queue non-empty instead:
 * the worker's empty reading at S3 means every earlier callback was spliced
 * away, so the queue became non-empty again after S3's view through an
 * enqueue that returned "was empty".  That enqueuer sets sleep to AWAKE
 * (E3) and wakes the futex; futex_wait(&sleep, SLEEPING) either sees AWAKE
 * and returns at once or is woken.  Only one enqueuer wins the cmpxchg, so
 * at most one futex_wake per sleep.
 * Cost: an enqueue into a non-empty queue makes no extra access at all; an
 * enqueue into an empty queue reads one shared word and enters the kernel
 * only if the worker actually sleeps.  A busy worker is never woken.
 *
 * Stop and pause requests use the same word: the requester sets its bit in
 * crdp->state (full barrier), then stores AWAKE into sleep and wakes it.  The
 * worker checks state after S2, so either it sees the bit or the requester's
 * AWAKE store comes after S1 and its futex_wait returns.
 *
 * Gathering (normal workers).  Before each batch the worker estimates the
 * rate of the stream that feeds it, in windows of GATHER_WINDOW_NS (1 ms):
 * the callbacks queued in the window now open, and those of the last
 * window closed (scaled to 1 ms when it spanned more, an idle spell).  At
 * GATHER_MIN_CB (8) or more in either, the stream is dense: the worker
 * naps GATHER_NS (1 ms), offline, before the splice, so that a dense stream
 * costs about one grace period per millisecond instead of one grace period
 * (and a wake-up, when the worker had slept) per few callbacks.  A sparser
 * stream, and a callback after an idle spell, are served at once.  Counting
 * over fixed windows keeps a periodic stream below the threshold whatever
 * the phase of its batches: a first version napped whenever a batch was
 * due within 100 us of the previous batch's end, and with one callback
 * every 300 us a single nap shifted the batches against the stream so that
 * a third of the later gaps fell under 100 us, nap after nap.  Why it
 * matters: every grace period costs the readers running meanwhile (a
 * membarrier IPI on their CPUs, a cache miss on their reader word after
 * the scan), and the default worker inherits its creator's affinity:
 * created by a thread pinned to one CPU, it competes with that thread for
 * its CPU, preempting it inside read-side sections that its grace period
 * must then wait for.  Without the nap, a reader deleting 5 % of its
 * hash-table operations ran at 0.6-0.9x liburcu's speed, its worker taking
 * a quarter of the CPU they shared (docs/PERFORMANCE.md, "call_rcu").  The
 * nap changes no ordering and no part of the wake-up protocol: it only
 * delays the splice.
 *
 * RT workers (URCU_CALL_RCU_RT) never sleep on the futex: they poll the queue
 * (spin, then sched_yield, then short naps when idle for long), and
 * enqueuers never read crdp->sleep, so call_rcu() makes no system call.
 *
 * qsbr: a worker is online only while it invokes callbacks and waits for the
 * grace period; it is offline while idle or sleeping, so an idle worker never
 * holds up grace periods.  A parked worker (fork) is not even registered.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <urcu/uatomic.h>
#include <urcu/static/wfcqueue.h>

#include "call-rcu-internal.h"
#include "probes.h"
#include "urcu-steps.h"

/* Enqueuers and the worker write different cache lines. */
_Static_assert(offsetof(struct call_rcu_data, cbs_head) == CAA_CACHE_LINE_SIZE,
		"call_rcu_data: the worker side must start on its own cache line");

/*
 * RT idle polling: spin, then yield, then nap; naps double from RT_NAP_MIN_NS
 * to RT_NAP_MAX_NS while the queue stays empty, so a long-idle RT worker
 * costs about a thousand wake-ups per second and picks up a new callback
 * within a millisecond.
 */
#define GATHER_NS		1000000L	/* see "Gathering" above */
#define GATHER_WINDOW_NS	1000000ULL
#define GATHER_MIN_CB		8UL

#define RT_SPIN_LOOPS		1000
#define RT_YIELD_LOOPS		2000
#define RT_NAP_MIN_NS		50000L
#define RT_NAP_MAX_NS		1000000L

/*
 * Flood control: an enqueuer that outruns a normal worker (both busy, the
 * worker starved of CPU) yields the CPU once every THROTTLE_EVERY enqueues
 * while the worker's backlog exceeds THROTTLE_BACKLOG.  A yield is not a wait
 * for a grace period (call_rcu() stays callable inside read-side critical
 * sections); it bounds the backlog when the worker shares the enqueuer's CPU.
 * RT workers are never throttled: their enqueuers make no system call.
 */
#define THROTTLE_EVERY		256UL	/* power of two */
#define THROTTLE_BACKLOG	(128UL * 1024)

static void throttle(struct call_rcu_data *crdp, unsigned long queued)
{
	/* Relaxed: a heuristic; invoked is the worker's own counter. */
	if (queued - uatomic_read(&crdp->invoked) > THROTTLE_BACKLOG)
		(void) sched_yield();
}

void URCU_FN(i_crdp_enqueue)(struct call_rcu_data *crdp, struct cds_wfcq_node *node)
{
	/* Relaxed: statistics and flood control only. */
	unsigned long queued = uatomic_add_return_mo(&crdp->queued, 1, CMM_RELAXED);

	/* E1: full barrier, pairs with S2 in worker_wait(). */
	if (cds_wfcq_i_enqueue(&crdp->cbs_head, &crdp->cbs_tail, node)) {
		/* E2: queue was not empty, nothing to wake. */
		if (caa_unlikely(!(queued & (THROTTLE_EVERY - 1)))
				&& !(crdp->flags & URCU_CALL_RCU_RT))
			throttle(crdp, queued);
		return;
	}
	if (crdp->flags & URCU_CALL_RCU_RT)
		return;
	/*
	 * E2/E3: the load is ordered after E1 by E1's barrier.  The cmpxchg
	 * (full barrier) lets one enqueuer issue the wake; a worker not yet
	 * in futex_wait sees AWAKE there and returns at once.
	 */
	if (uatomic_read(&crdp->sleep) == CRDP_SLEEPING
			&& uatomic_cmpxchg(&crdp->sleep, CRDP_SLEEPING, CRDP_AWAKE)
				== CRDP_SLEEPING)
		urcu_common_futex_wake(&crdp->sleep, 1);
}

/* Set request bits and make sure the worker looks at them. */
void URCU_FN(i_crdp_request)(struct call_rcu_data *crdp, int32_t bits)
{
	/* The caller's earlier stores (a detached layout) precede the request. */
	cmm_smp_mb();
	uatomic_or(&crdp->state, bits);
	/*
	 * The request precedes the AWAKE store: pairs with S2 in
	 * worker_wait() (either the worker sees the bit, or its futex_wait
	 * sees AWAKE).
	 */
	cmm_smp_mb();
	uatomic_set(&crdp->sleep, CRDP_AWAKE);
	urcu_common_futex_wake(&crdp->sleep, 1);
	urcu_common_futex_wake(&crdp->state, INT_MAX);
}

void URCU_FN(i_crdp_clear)(struct call_rcu_data *crdp, int32_t bits)
{
	/* Our earlier stores precede the clear; pairs with the acquire load in worker_park(). */
	cmm_smp_mb();
	uatomic_and(&crdp->state, ~bits);
	urcu_common_futex_wake(&crdp->state, INT_MAX);
}

/* Wait until one of bits is set in crdp->state. */
void URCU_FN(i_crdp_wait_state)(struct call_rcu_data *crdp, int32_t bits)
{
	bool was_online = urcu_i_quiesce_begin();
	int32_t s;

	/* Acquire: pairs with the worker's RMW that set the bit. */
	while (!((s = uatomic_load(&crdp->state, CMM_ACQUIRE)) & bits))
		urcu_common_futex_wait(&crdp->state, s);
	urcu_i_quiesce_end(was_online);
}

/* Worker side: announce an acknowledgement bit. */
static void worker_ack(struct call_rcu_data *crdp, int32_t bit)
{
	/*
	 * The worker's prior work (its last batch, its unregistration)
	 * precedes the ack; pairs with the acquire loads of state in
	 * i_crdp_wait_state() and all_parked().
	 */
	cmm_smp_mb();
	uatomic_or(&crdp->state, bit);
	/* Full barrier (add_return): the ack precedes the bump that wakes before_fork. */
	(void) uatomic_add_return(&URCU_FN(i_callrcu).park_seq, 1);
	urcu_common_futex_wake(&crdp->state, INT_MAX);
	urcu_common_futex_wake(&URCU_FN(i_callrcu).park_seq, INT_MAX);
}

/* Park while CRDP_PAUSE is set (fork in progress).  Called offline. */
static void worker_park(struct call_rcu_data *crdp)
{
	int32_t s;

	worker_ack(crdp, CRDP_PAUSED);
	/* Acquire: pairs with the barrier of i_crdp_clear(). */
	while ((s = uatomic_load(&crdp->state, CMM_ACQUIRE)) & CRDP_PAUSE)
		urcu_common_futex_wait(&crdp->state, s);
	/* Relaxed: nobody waits for PAUSED to clear. */
	uatomic_and(&crdp->state, ~CRDP_PAUSED);
}

static bool queue_empty(struct call_rcu_data *crdp)
{
	return cds_wfcq_i_empty(&crdp->cbs_head, &crdp->cbs_tail);
}

static bool requested(struct call_rcu_data *crdp)
{
	return uatomic_read(&crdp->state) & (CRDP_STOP | CRDP_PAUSE);
}

/* Normal worker: sleep until the queue is non-empty or a request arrives. */
static void worker_wait(struct call_rcu_data *crdp)
{
	uatomic_set(&crdp->sleep, CRDP_SLEEPING);		/* S1 */
	/* S2: pairs with E1 in i_crdp_enqueue() and with i_crdp_request(). */
	cmm_smp_mb();
	if (queue_empty(crdp) && !requested(crdp))		/* S3 */
		urcu_common_futex_wait(&crdp->sleep, CRDP_SLEEPING);
	uatomic_set(&crdp->sleep, CRDP_AWAKE);			/* S4 */
}

/* RT worker: poll; the enqueuer never wakes us. */
static void worker_poll(struct call_rcu_data *crdp)
{
	unsigned long loops = 0;
	long nap_ns = RT_NAP_MIN_NS;

	while (queue_empty(crdp) && !requested(crdp)) {
		if (loops < RT_SPIN_LOOPS) {
			caa_cpu_relax();
		} else if (loops < RT_SPIN_LOOPS + RT_YIELD_LOOPS) {
			(void) sched_yield();
		} else {
			struct timespec ts = { 0, nap_ns };

			(void) nanosleep(&ts, NULL);
			nap_ns = nap_ns * 2 > RT_NAP_MAX_NS ? RT_NAP_MAX_NS : nap_ns * 2;
		}
		loops++;
	}
}

/* The worker's estimate of its stream's rate ("Gathering" above). */
struct gather_window {
	uint64_t start;		/* when the open window began */
	unsigned long queued;	/* crdp->queued then */
	unsigned long last;	/* callbacks of the last closed window, per 1 ms */
};

/*
 * Normal worker about to start a batch: is the stream dense?  Relaxed read
 * of queued: a rate estimate.
 */
static bool stream_dense(struct call_rcu_data *crdp, struct gather_window *w)
{
	unsigned long queued = uatomic_read(&crdp->queued);
	uint64_t now = urcu_common_now_ns(), len = now - w->start;

	if (len >= GATHER_WINDOW_NS) {
		w->last = (unsigned long) ((uint64_t) (queued - w->queued)
				* GATHER_WINDOW_NS / len);
		w->start = now;
		w->queued = queued;
	}
	return queued - w->queued >= GATHER_MIN_CB || w->last >= GATHER_MIN_CB;
}

/*
 * A dense stream: let it gather for GATHER_NS.  Offline, so that qsbr
 * grace periods do not wait for the nap.  A stop or pause request already
 * made skips it; one made during it waits (GATHER_NS at most).
 */
static void worker_gather(struct call_rcu_data *crdp)
{
	struct timespec ts = { 0, GATHER_NS };

	if (requested(crdp))
		return;
	URCU_FN(thread_offline)();
	(void) nanosleep(&ts, NULL);
	URCU_FN(thread_online)();
}

/* One round: splice, one grace period, invoke.  Called online. */
static void worker_run_batch(struct call_rcu_data *crdp)
{
	struct __cds_wfcq_head batch;
	struct cds_wfcq_tail batch_tail;
	struct cds_wfcq_node *node, *next;
	unsigned long first = crdp->invoked, invoked = first, backlog;

	cds_wfcq_i_init_nolock(&batch, &batch_tail);
	if (cds_wfcq_i_splice_blocking(&batch, &batch_tail, &crdp->cbs_head,
			&crdp->cbs_tail) == CDS_WFCQ_RET_SRC_EMPTY)
		return;
	backlog = uatomic_read(&crdp->queued) - invoked;
	if (backlog > crdp->max_backlog)
		uatomic_set(&crdp->max_backlog, backlog);
	URCU_PROBE(cb_batch_start, URCU_PROBE_FLAVOR, crdp, backlog);

	/* One grace period for the whole batch (full barrier on both sides). */
	URCU_I_STEP_BATCH_GP();
	uatomic_set(&crdp->grace_periods, crdp->grace_periods + 1);

	/* next is read before the callback frees node. */
	for (node = cds_wfcq_i_first_blocking(&batch, &batch_tail); node; node = next) {
		struct rcu_head *head = caa_container_of(node, struct rcu_head, next);

		next = cds_wfcq_i_next_blocking(&batch, &batch_tail, node);
		/* The nodes were written on other CPUs: fetch the next one early. */
		if (next)
			__builtin_prefetch(next);
		URCU_I_STEP_INVOKE(head, invoked);
		/* Per callback, so that stats read after rcu_barrier() are exact. */
		uatomic_set(&crdp->invoked, ++invoked);
	}
	URCU_PROBE(cb_batch_end, URCU_PROBE_FLAVOR, crdp, invoked - first);
}

static void *worker_thread(void *arg)
{
	struct call_rcu_data *crdp = arg;
	bool rt = crdp->flags & URCU_CALL_RCU_RT;
	struct gather_window window = { 0, 0, 0 };

	URCU_FN(register_thread)();
	/* Callbacks that call call_rcu() feed this worker. */
	URCU_FN(set_thread_call_rcu_data)(crdp);
	for (;;) {
		int32_t s = uatomic_read(&crdp->state);

		/* Pause before stop: a parked worker must not exit (fork). */
		if (s & CRDP_PAUSE) {
			/*
			 * Leave the reader registry while parked: in a fork
			 * child this thread does not exist, and glibc may
			 * give its stack and TLS (our reader record) to a
			 * new thread, which must find the record unlinked.
			 */
			URCU_FN(unregister_thread)();
			worker_park(crdp);
			URCU_FN(register_thread)();
			continue;
		}
		if (s & CRDP_STOP)
			break;
		if (queue_empty(crdp)) {
			URCU_FN(thread_offline)();
			if (rt)
				worker_poll(crdp);
			else
				worker_wait(crdp);
			URCU_FN(thread_online)();
			continue;
		}
		if (!rt && stream_dense(crdp, &window))
			worker_gather(crdp);
		worker_run_batch(crdp);
	}
	URCU_FN(unregister_thread)();
	worker_ack(crdp, CRDP_STOPPED);
	return NULL;
}

/*
 * Allocate a worker and start its thread, bound to cpu when cpu >= 0 (the
 * thread is created with that affinity, so it never runs elsewhere).  An
 * unbound worker inherits the creating thread's affinity, as in liburcu: the
 * default worker, created by the first call_rcu(), shares that caller's CPUs,
 * which is also what lets the flood control above hand it CPU time.  Does
 * not wait for the thread: safe inside a read-side critical section.
 * Returns NULL with errno set on failure.  The caller adds it to the list.
 */
struct call_rcu_data *URCU_FN(i_crdp_create)(unsigned long flags, int cpu)
{
	struct call_rcu_data *crdp;
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	ret = posix_memalign((void **) &crdp, CAA_CACHE_LINE_SIZE, sizeof(*crdp));
	if (ret) {
		errno = ret;
		return NULL;
	}
	memset(crdp, 0, sizeof(*crdp));
	cds_wfcq_i_init_nolock(&crdp->cbs_head, &crdp->cbs_tail);
	crdp->flags = flags & URCU_CALL_RCU_RT;
	crdp->cpu_affinity = cpu < 0 ? -1 : cpu;
	crdp->sleep = CRDP_AWAKE;
	CDS_INIT_LIST_HEAD(&crdp->node);

	ret = pthread_attr_init(&attr);
	if (ret)
		goto fail;
	if (cpu >= 0 && cpu < CPU_SETSIZE) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		(void) pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	ret = pthread_create(&crdp->tid, &attr, worker_thread, crdp);
	if (ret == EINVAL && cpu >= 0) {
		/*
		 * The CPU is not usable (offline, outside our cpuset): run
		 * with the creator's affinity.
		 */
		crdp->cpu_affinity = -1;
		(void) pthread_attr_destroy(&attr);
		(void) pthread_attr_init(&attr);
		ret = pthread_create(&crdp->tid, &attr, worker_thread, crdp);
	}
	(void) pthread_attr_destroy(&attr);
	if (ret)
		goto fail;
	return crdp;
fail:
	free(crdp);
	errno = ret;
	return NULL;
}

/*
 * Move every callback of src to dest, in order (dest's worker is woken if
 * needed).  src's worker has stopped or does not exist (fork child).
 * blocking: wait for enqueuers still linking into src; otherwise move what is
 * linked and leave the rest (after fork, an enqueue interrupted by the fork
 * never completes).
 */
void URCU_FN(i_crdp_move_all)(struct call_rcu_data *dest, struct call_rcu_data *src,
		bool blocking)
{
	struct cds_wfcq_node *node;
	unsigned long n = 0;

	for (;;) {
		if (blocking)
			node = cds_wfcq_i_dequeue_blocking(&src->cbs_head, &src->cbs_tail);
		else
			node = cds_wfcq_i_dequeue_nonblocking(&src->cbs_head, &src->cbs_tail);
		if (!node || node == CDS_WFCQ_WOULDBLOCK)
			break;
		URCU_FN(i_crdp_enqueue)(dest, node);
		n++;
	}
	/* The moved callbacks count as invoked for src's backlog. */
	uatomic_set(&src->invoked, src->invoked + n);
}

/* Free a worker whose thread has exited (or never exists: fork child). */
void URCU_FN(i_crdp_destroy)(struct call_rcu_data *crdp)
{
	free(crdp);
}

void URCU_FN(i_crdp_stats)(struct call_rcu_data *crdp, struct urcu_call_rcu_stats *out)
{
	unsigned long queued = uatomic_read(&crdp->queued);
	unsigned long invoked = uatomic_read(&crdp->invoked);

	memset(out, 0, sizeof(*out));
	out->queued = queued;
	out->invoked = invoked;
	out->grace_periods = uatomic_read(&crdp->grace_periods);
	/* Two relaxed reads: invoked may be newer than queued. */
	out->backlog = queued - invoked > queued ? 0 : queued - invoked;
	/* As recorded by the worker when it takes a batch (see the header). */
	out->max_backlog = uatomic_read(&crdp->max_backlog);
	out->cpu_affinity = crdp->cpu_affinity;
	out->flags = crdp->flags;
	out->thread = crdp->tid;
}
