// SPDX-License-Identifier: MIT
/*
 * call_rcu(), the worker layout (default, per-CPU, per-thread), freeing
 * workers, rcu_barrier() and the statistics extension.  Compiled once per
 * flavor; the worker threads are in call-rcu-workers.c, fork handling in
 * call-rcu-fork.c.
 *
 * Choosing a worker.  call_rcu() uses, in order: the calling thread's worker
 * (set_thread_call_rcu_data), the worker of the CPU it runs on
 * (set_cpu_call_rcu_data / create_all_cpu_call_rcu_data), the default worker
 * (created on first use).  The per-CPU array is allocated once and never
 * freed; its entries are RCU-protected pointers: call_rcu() looks a worker
 * up and enqueues inside a read-side critical section, and whoever detaches
 * a worker from a CPU waits for a grace period before freeing it
 * (free_all_cpu_call_rcu_data does so itself), so no enqueue can reach a
 * freed worker.
 *
 * Freeing a worker (call_rcu_data_free).  The worker is asked to stop; it
 * finishes the batch in hand (its grace period and callbacks) and exits.
 * Then, under callrcu.lock, the callbacks left in its queue move, in order,
 * to the default worker, and it leaves the worker list.  Those callbacks
 * have not yet had their grace period started by anyone, and the default
 * worker starts one after it splices them, so none runs early; none is lost.
 *
 * rcu_barrier() proof sketch.  Claim: when it returns, every callback whose
 * call_rcu() returned before rcu_barrier() was called has been invoked.
 * Under callrcu.lock, rcu_barrier() enqueues one barrier callback on every
 * worker of the list.  A callback c queued before is, at that moment, either
 * (a) already invoked, (b) in a batch a worker is processing, (c) in a
 * worker's queue, or (d) being moved by call_rcu_data_free(), which holds
 * callrcu.lock while moving: so at the time of our enqueues, (d) is
 * impossible.  (b): the worker finishes its batch before it splices again,
 * and our barrier callback is spliced later.  (c): queues are FIFO, batches
 * are invoked in order, so c runs before the barrier callback behind it.
 * If that worker is freed afterwards, c and the barrier callback move
 * together, in order, to the default worker.  Each barrier callback
 * decrements a counter; rcu_barrier() sleeps on it (futex) until zero.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <urcu/uatomic.h>
#include <urcu/pointer.h>
#include <urcu/static/wfcqueue.h>

#include "call-rcu-internal.h"
#include "urcu-stall.h"
#include "probes.h"
#include "urcu-steps.h"

struct urcu_i_callrcu URCU_FN(i_callrcu) = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.workers = CDS_LIST_HEAD_INIT(URCU_FN(i_callrcu).workers),
};

/* Per-thread worker.  initial-exec: call_rcu() reads it on every call. */
static __thread struct call_rcu_data *thread_crdp
	__attribute__((tls_model("initial-exec")));

#define callrcu URCU_FN(i_callrcu)

/* Number of configured CPUs (size of the per-CPU array), or -1. */
static int nr_cpus(void)
{
	int n = uatomic_read(&callrcu.nr_cpus);

	if (n == 0) {
		long conf = sysconf(_SC_NPROCESSORS_CONF);

		n = conf > 0 && conf < INT_MAX ? (int) conf : -1;
		uatomic_set(&callrcu.nr_cpus, n);
	}
	return n;
}

/* Create the default worker if needed.  Called with callrcu.lock held. */
struct call_rcu_data *URCU_FN(i_default_locked)(void)
{
	struct call_rcu_data *crdp = callrcu.default_crdp;

	if (crdp)
		return crdp;
	crdp = URCU_FN(i_crdp_create)(0, -1);
	if (!crdp)
		urcu_common_die("get_default_call_rcu_data", "cannot create the default call_rcu worker: %s",
				strerror(errno));
	cds_list_add_tail(&crdp->node, &callrcu.workers);
	/* Release: the worker is initialized before call_rcu() can see it. */
	rcu_set_pointer(&callrcu.default_crdp, crdp);
	return crdp;
}

/*
 * get_default_call_rcu_data: the default worker, created on first use.
 * Never NULL (aborts with a message if no thread can be created).  Does not
 * wait for the worker to start; callable inside a read-side critical section.
 */
struct call_rcu_data *URCU_FN(get_default_call_rcu_data)(void)
{
	struct call_rcu_data *crdp = rcu_dereference(callrcu.default_crdp);

	if (caa_likely(crdp != NULL))
		return crdp;
	urcu_i_callrcu_lock();
	crdp = URCU_FN(i_default_locked)();
	urcu_i_callrcu_unlock();
	return crdp;
}

/*
 * get_cpu_call_rcu_data: the worker assigned to cpu, or NULL.  Call inside a
 * read-side critical section; the result stays valid until its end.
 */
struct call_rcu_data *URCU_FN(get_cpu_call_rcu_data)(int cpu)
{
	struct call_rcu_data **per_cpu = rcu_dereference(callrcu.per_cpu);

	if (!per_cpu || cpu < 0 || cpu >= uatomic_read(&callrcu.nr_cpus))
		return NULL;
	return rcu_dereference(per_cpu[cpu]);
}

/* get_thread_call_rcu_data: the calling thread's worker, or NULL. */
struct call_rcu_data *URCU_FN(get_thread_call_rcu_data)(void)
{
	return thread_crdp;
}

/*
 * set_thread_call_rcu_data: make crdp the calling thread's worker (NULL:
 * back to per-CPU/default).  The caller keeps crdp alive while it is set.
 */
void URCU_FN(set_thread_call_rcu_data)(struct call_rcu_data *crdp)
{
	thread_crdp = crdp;
}

void URCU_FN(i_thread_crdp_reset)(void)
{
	thread_crdp = NULL;
}

/*
 * get_call_rcu_data: the worker call_rcu() would use now: per-thread, else
 * this CPU's, else the default (created if needed).  Call inside a read-side
 * critical section if per-CPU workers may be freed concurrently.
 */
struct call_rcu_data *URCU_FN(get_call_rcu_data)(void)
{
	struct call_rcu_data *crdp = thread_crdp;

	if (crdp)
		return crdp;
	if (rcu_dereference(callrcu.per_cpu)) {
		int cpu = sched_getcpu();

		if (cpu >= 0) {
			crdp = URCU_FN(get_cpu_call_rcu_data)(cpu);
			if (crdp)
				return crdp;
		}
	}
	return URCU_FN(get_default_call_rcu_data)();
}

/* get_call_rcu_thread: the worker's thread. */
pthread_t URCU_FN(get_call_rcu_thread)(struct call_rcu_data *crdp)
{
	return crdp->tid;
}

/*
 * The worker call_rcu() uses, for a caller that is not a reader (not
 * registered, or qsbr offline).  Called with callrcu.lock held, which stands
 * in for the read-side section of the reader path: a per-CPU worker is
 * unpublished (set_cpu_call_rcu_data) under that lock before it can be
 * freed, so the one found here stays alive until the lock is released.
 */
static struct call_rcu_data *crdp_for_nonreader_locked(void)
{
	struct call_rcu_data *crdp = thread_crdp;
	int cpu;

	if (crdp)
		return crdp;
	if (callrcu.per_cpu) {
		cpu = sched_getcpu();
		if (cpu >= 0 && cpu < uatomic_read(&callrcu.nr_cpus) && callrcu.per_cpu[cpu])
			return callrcu.per_cpu[cpu];
	}
	return URCU_FN(i_default_locked)();
}

/*
 * call_rcu: func(head) runs on a worker thread after a grace period that
 * begins after this call; everything the caller did before call_rcu() is
 * visible to func (the enqueue is a full memory barrier).  Never waits for a
 * grace period; may be called inside a read-side critical section.  As in
 * liburcu, the caller need not be a registered thread (nor online, for qsbr):
 * a reader finds its worker inside a read-side section, any other caller
 * under the call_rcu lock (a little slower, never less safe).
 */
void URCU_FN(call_rcu)(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	struct call_rcu_data *crdp;

	head->func = func;
	if (caa_likely(URCU_FN(i_online)())) {
		/*
		 * The read-side section (inline fast path) keeps a per-CPU
		 * worker alive until the node is enqueued.
		 */
		URCU_FN(i_read_lock)();
		crdp = URCU_FN(get_call_rcu_data)();
		URCU_FN(i_crdp_enqueue)(crdp, &head->next);
		URCU_PROBE(call_rcu, URCU_PROBE_FLAVOR, crdp, head, func);
		URCU_FN(i_read_unlock)();
		return;
	}
	urcu_i_callrcu_lock();
	crdp = crdp_for_nonreader_locked();
	URCU_FN(i_crdp_enqueue)(crdp, &head->next);
	URCU_PROBE(call_rcu, URCU_PROBE_FLAVOR, crdp, head, func);
	urcu_i_callrcu_unlock();
}

/*
 * create_call_rcu_data: a new worker, with its own thread (bound to
 * cpu_affinity when >= 0; if that CPU cannot be used, the worker runs
 * unbound).  flags: URCU_CALL_RCU_RT or 0.  NULL with errno on failure.
 */
struct call_rcu_data *URCU_FN(create_call_rcu_data)(unsigned long flags, int cpu_affinity)
{
	struct call_rcu_data *crdp = URCU_FN(i_crdp_create)(flags, cpu_affinity);

	if (!crdp)
		return NULL;
	urcu_i_callrcu_lock();
	cds_list_add_tail(&crdp->node, &callrcu.workers);
	urcu_i_callrcu_unlock();
	return crdp;
}

/*
 * set_cpu_call_rcu_data: assign crdp to cpu (NULL detaches; then wait for a
 * grace period before freeing the old worker).  Returns 0, or a negative
 * errno value with errno set as well (liburcu's convention): -EINVAL (no such
 * CPU), -ENOMEM, or -EEXIST (cpu already has a worker and crdp is not NULL).
 * Publication is a release: call_rcu() on that CPU sees an initialized
 * worker.
 */
int URCU_FN(set_cpu_call_rcu_data)(int cpu, struct call_rcu_data *crdp)
{
	struct call_rcu_data **per_cpu;
	int n = nr_cpus();

	if (n <= 0 || cpu < 0 || cpu >= n) {
		errno = EINVAL;
		return -EINVAL;
	}
	urcu_i_callrcu_lock();
	per_cpu = callrcu.per_cpu;
	if (!per_cpu) {
		per_cpu = calloc((size_t) n, sizeof(*per_cpu));
		if (!per_cpu) {
			urcu_i_callrcu_unlock();
			errno = ENOMEM;
			return -ENOMEM;
		}
		/* Release: the zeroed array before its pointer. */
		rcu_set_pointer(&callrcu.per_cpu, per_cpu);
	}
	if (per_cpu[cpu] && crdp) {
		urcu_i_callrcu_unlock();
		errno = EEXIST;
		return -EEXIST;
	}
	/* Release: pairs with rcu_dereference in get_cpu_call_rcu_data(). */
	rcu_set_pointer(&per_cpu[cpu], crdp);
	urcu_i_callrcu_unlock();
	return 0;
}

/*
 * create_all_cpu_call_rcu_data: give every CPU without one a worker of its
 * own, bound to it.  Returns 0, or a negative errno value with errno set
 * (-ENOMEM, -EAGAIN: thread creation; -EINVAL: CPU count unknown); CPUs done
 * before the error keep their workers.
 */
int URCU_FN(create_all_cpu_call_rcu_data)(unsigned long flags)
{
	int n = nr_cpus();

	if (n <= 0) {
		errno = EINVAL;
		return -EINVAL;
	}
	for (int cpu = 0; cpu < n; cpu++) {
		struct call_rcu_data *crdp;
		bool has_worker;

		/*
		 * Under the lock rather than a read-side section, so that an
		 * unregistered thread may call this too (as liburcu allows).
		 */
		urcu_i_callrcu_lock();
		has_worker = callrcu.per_cpu && callrcu.per_cpu[cpu];
		urcu_i_callrcu_unlock();
		if (has_worker)
			continue;
		crdp = URCU_FN(create_call_rcu_data)(flags, cpu);
		if (!crdp)
			return -errno;
		if (URCU_FN(set_cpu_call_rcu_data)(cpu, crdp)) {
			int err = errno;

			URCU_FN(call_rcu_data_free)(crdp);
			if (err == EEXIST)	/* another thread was faster */
				continue;
			errno = err;
			return -err;
		}
	}
	return 0;
}

/*
 * call_rcu_data_free: stop crdp's thread and free it; its pending callbacks
 * move to the default worker (never lost, never run before their grace
 * period).  crdp must no longer be reachable: not a thread's worker, and
 * detached from its CPUs one grace period ago.  Freeing NULL or the default
 * worker does nothing.  Blocks until the worker's current batch is done; must
 * not be called from a callback of crdp itself.
 */
void URCU_FN(call_rcu_data_free)(struct call_rcu_data *crdp)
{
	if (!crdp || crdp == rcu_dereference(callrcu.default_crdp))
		return;
	if (pthread_equal(pthread_self(), crdp->tid))
		urcu_common_die("call_rcu_data_free",
			"a call_rcu worker cannot free itself (called from one of its callbacks)");
	URCU_FN(i_crdp_request)(crdp, CRDP_STOP);
	URCU_FN(i_crdp_wait_state)(crdp, CRDP_STOPPED);
	(void) pthread_join(crdp->tid, NULL);

	urcu_i_callrcu_lock();
	if (!cds_wfcq_i_empty(&crdp->cbs_head, &crdp->cbs_tail))
		URCU_FN(i_crdp_move_all)(URCU_FN(i_default_locked)(), crdp, true);
	cds_list_del(&crdp->node);
	urcu_i_callrcu_unlock();
	URCU_FN(i_crdp_destroy)(crdp);
}

/*
 * free_all_cpu_call_rcu_data: detach every per-CPU worker, wait for a grace
 * period, then free them (their pending callbacks move to the default
 * worker).  Must not be called inside a read-side critical section.
 */
void URCU_FN(free_all_cpu_call_rcu_data)(void)
{
	struct call_rcu_data **old;
	int n = nr_cpus(), nr_old = 0;

	if (n <= 0 || !rcu_dereference(callrcu.per_cpu))
		return;
	old = calloc((size_t) n, sizeof(*old));
	if (!old)
		urcu_common_die("free_all_cpu_call_rcu_data", "out of memory");
	urcu_i_callrcu_lock();
	for (int cpu = 0; cpu < n; cpu++) {
		struct call_rcu_data *crdp = callrcu.per_cpu[cpu];
		int i;

		if (!crdp)
			continue;
		rcu_set_pointer(&callrcu.per_cpu[cpu], NULL);
		/* One worker may serve several CPUs: free it once. */
		for (i = 0; i < nr_old && old[i] != crdp; i++)
			;
		if (i == nr_old)
			old[nr_old++] = crdp;
	}
	urcu_i_callrcu_unlock();
	if (nr_old) {
		/* No call_rcu() still holds a detached worker after this. */
		URCU_FN(synchronize_rcu)();
		for (int i = 0; i < nr_old; i++)
			URCU_FN(call_rcu_data_free)(old[i]);
	}
	free(old);
}

/* ---- rcu_barrier --------------------------------------------------------- */

struct barrier_completion {
	int32_t remaining;	/* futex: barrier callbacks not yet run */
};

struct barrier_head {
	struct rcu_head head;
	struct barrier_completion *done;
};

static void barrier_callback(struct rcu_head *head)
{
	struct barrier_head *bh = caa_container_of(head, struct barrier_head, head);
	int32_t *remaining = &bh->done->remaining;

	/*
	 * Full barrier (RMW): every callback this worker ran before us is
	 * complete before rcu_barrier() can see zero; pairs with the acquire
	 * load in barrier_wait().  After the decrement to zero the waiter may
	 * return and reuse the memory: only the address is passed to the
	 * kernel below, nothing is accessed through it.
	 */
	if (uatomic_sub_return(remaining, 1) == 0)
		urcu_common_futex_wake(remaining, 1);
}

/*
 * Wait until the n barrier callbacks of heads have run (done counts them
 * down), then free heads.  Blocks; qsbr: an online caller goes offline
 * while waiting.
 */
static void barrier_wait(struct barrier_completion *done, struct barrier_head *heads,
		int n)
{
	bool was_online = urcu_i_quiesce_begin();
	int32_t v;

	/* Acquire: pairs with the decrement in barrier_callback(). */
	while ((v = uatomic_load(&done->remaining, CMM_ACQUIRE)) != 0)
		urcu_common_futex_wait(&done->remaining, v);
	urcu_i_quiesce_end(was_online);
	free(heads);
	URCU_PROBE(barrier_end, URCU_PROBE_FLAVOR, n);
}

/*
 * rcu_barrier: returns after every callback queued (call_rcu() returned)
 * before the call, on every worker, has been invoked; what those callbacks
 * wrote is visible to the caller when it returns.  Blocks (qsbr: an online
 * caller goes offline while waiting).  Inside a read-side critical section
 * it returns at once without waiting, as liburcu does (a misuse, counted
 * and reported under URCU_DEBUG); from a call_rcu callback it aborts with a
 * message (it would wait for itself).
 */
void URCU_FN(barrier)(void)
{
	struct barrier_completion done;
	struct barrier_head *heads;
	struct call_rcu_data *crdp;
	int n = 0, i = 0;

#if !URCU_FLAVOR_IS_QSBR
	/* liburcu reports this and returns at once, not waiting: so do we. */
	if (URCU_FN(i_read_ongoing)()) {
		urcu_common_misuse("rcu_barrier",
			"called inside a read-side critical section (urcu_%s flavor); "
			"returned without waiting", URCU_FLAVOR_NAME);
		return;
	}
#endif
	if (URCU_FN(get_thread_call_rcu_data)()
			&& pthread_equal(pthread_self(),
				URCU_FN(get_thread_call_rcu_data)()->tid))
		urcu_common_die("rcu_barrier", "called from a call_rcu callback: this would deadlock");

	URCU_PROBE(barrier_start, URCU_PROBE_FLAVOR);
	urcu_i_callrcu_lock();
	cds_list_for_each_entry(crdp, &callrcu.workers, node)
		n++;
	if (n == 0) {
		urcu_i_callrcu_unlock();
		URCU_PROBE(barrier_end, URCU_PROBE_FLAVOR, n);
		return;
	}
	heads = calloc((size_t) n, sizeof(*heads));
	if (!heads)
		urcu_common_die("rcu_barrier", "out of memory");
	uatomic_set(&done.remaining, n);
	cds_list_for_each_entry(crdp, &callrcu.workers, node) {
		heads[i].done = URCU_I_STEP_BARRIER_COMPLETION(&done);
		heads[i].head.func = barrier_callback;
		URCU_FN(i_crdp_enqueue)(crdp, &heads[i].head.next);
		i++;
	}
	urcu_i_callrcu_unlock();
	URCU_I_STEP_BARRIER_WAIT(barrier_wait(&done, heads, n));
}

/* ---- Statistics (urcu/call-rcu-stats.h) ---------------------------------- */

int URCU_FN(call_rcu_stats)(struct urcu_call_rcu_stats *out, int max)
{
	struct call_rcu_data *crdp;
	int n = 0;

	urcu_i_callrcu_lock();
	cds_list_for_each_entry(crdp, &callrcu.workers, node) {
		if (out && n < max)
			URCU_FN(i_crdp_stats)(crdp, &out[n]);
		n++;
	}
	urcu_i_callrcu_unlock();
	return n;
}

/*
 * For stall reports (urcu-stall.c): never waits for the call_rcu lock, whose
 * holder may itself wait for the stalled grace period (call_rcu_before_fork
 * waits for the workers to park).
 */
int URCU_FN(i_callrcu_stats_try)(struct urcu_call_rcu_stats *out, int max)
{
	struct call_rcu_data *crdp;
	int n = 0;

	if (pthread_mutex_trylock(&URCU_FN(i_callrcu).lock) != 0)
		return -1;
	cds_list_for_each_entry(crdp, &callrcu.workers, node) {
		if (n < max)
			URCU_FN(i_crdp_stats)(crdp, &out[n]);
		n++;
	}
	urcu_i_callrcu_unlock();
	return n;
}

int URCU_FN(call_rcu_data_stats)(struct call_rcu_data *crdp, struct urcu_call_rcu_stats *out)
{
	if (!crdp || !out) {
		errno = EINVAL;
		return -1;
	}
	URCU_FN(i_crdp_stats)(crdp, out);
	return 0;
}
