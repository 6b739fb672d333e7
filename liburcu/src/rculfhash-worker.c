// SPDX-License-Identifier: MIT
/*
 * RCU lock-free hash table: the background thread.  One thread per
 * process, shared by every CDS_LFHT_AUTO_RESIZE table of every flavor,
 * started when the first such table is created (every signal blocked but
 * the faults: common.h)
 * and stopped by the library destructor.  It runs two kinds of work, in
 * request order:
 *
 *  - resize: register with the table's flavor, take the table's resize
 *    lock, resize towards resize_target, unlock, unregister;
 *  - destroy: take the resize lock (waiting out an explicit resize that
 *    another thread still runs), free the table.
 *
 * Requests come from updaters inside read-side critical sections (a grow
 * or shrink decision) and from cds_lfht_destroy() (possibly in a call_rcu
 * callback).  A request takes no lock and never waits for this thread, nor
 * for anything the fork functions hold, so a fork, a grace period and a
 * request can never wait for one another (were a request to take a lock
 * that before_fork holds across the fork, an updater would block inside its
 * read-side section, the grace period that before_fork waits for would
 * never end, and the fork would hang).
 *
 * The request protocol.  ht->work holds LFHT_WORK_QUEUED, what is asked
 * (LFHT_WORK_RESIZE, LFHT_WORK_DESTROY) and, above LFHT_WORK_GEN_SHIFT,
 * the fork generation wq.gen at which QUEUED was set.
 *  R1 A request CASes its bits into ht->work.  The CAS that sets QUEUED
 *     (or replaces a QUEUED of an older generation) makes its caller the
 *     pusher: it links ht onto the request stack wq.stack by one CAS
 *     (Treiber push; push-only, the worker takes the whole stack with one
 *     xchg, so no ABA), then wakes the thread.  Every other request only
 *     ORs its bits in.  A request is lock-free: each retry follows another
 *     thread's successful CAS.
 *  R2 The thread takes the stack with xchg, reverses it (oldest first:
 *     requests are served in order, which test_hash_fork.c relies on), and
 *     for each table clears ht->work with xchg, then does what it read.
 *     A table is on the stack, or in the taken batch, at most once: only
 *     the pusher of R1 links it, and QUEUED stays set (of the current
 *     generation) until the xchg of R2, which happens after ht left the
 *     batch.  A request that finds QUEUED set has its bits read by that
 *     xchg (the CAS precedes it in ht->work's modification order); one
 *     that comes after the xchg finds QUEUED clear and pushes again.
 *  R3 After a destroy request's push nobody touches ht (the thread may
 *     free it at once); cds_lfht_destroy reads what it returns before.
 *
 * Sleeping and waking (Dekker, full barriers on both sides):
 *     thread:  futex = SLEEPING; mb; if no stack, pause or stop: futex_wait
 *     waker:   publish (push CAS / pause add / stop xchg); mb; if futex ==
 *              SLEEPING: futex = AWAKE, futex_wake
 *  At least one side sees the other's store, so no wake-up is lost.
 *
 * Fork.  The first auto-resize table of each flavor registers the hooks
 * below with the flavor's register_rculfhash_atfork(), which run from the
 * flavor's call_rcu_before_fork()/after_fork_*():
 *  - before_fork raises wq.pause, wakes the thread and waits until it
 *    says PARKED (in wq.state).  The thread parks only between two tables:
 *    holding no lock, in no read-side critical section, registered with no
 *    flavor.  The forking thread holds nothing while it waits, so updaters
 *    and callbacks keep running, and the resize in progress (which may wait
 *    for grace periods) finishes.  Same Dekker pattern as above between
 *    pause and the thread's RUNNING: a thread that resumes either is seen
 *    RUNNING by the next before_fork, or sees its pause and parks again.
 *  - after_fork_parent lowers wq.pause and wakes the thread.
 *  - after_fork_child, where the thread does not exist, at the first of
 *    the nested calls (call_rcu_after_fork_child runs the hooks before it
 *    starts any thread of the child): lowers wq.pause to 0, moves the
 *    taken batch and the stack onto a new stack, gives every table on it
 *    the next generation, and starts a new thread.  A request that another
 *    parent thread had half done at the fork (QUEUED set, push not done)
 *    left its table QUEUED with the old generation, and nowhere: R1 treats
 *    that as not queued, so the table's next request in the child pushes
 *    it again (without the generation it would never be resized again).
 *  The hooks nest (one call per registered flavor; fork_depth), and
 *  wq.pause counts the threads forking at once (two flavors' fork
 *  functions in two threads).
 *  wq.pid names the process the state belongs to; adopt() hands it to a
 *  new process once (a CAS on wq.pid).
 *  A program that forks without calling the fork functions gets a new
 *  thread in the child on the first request or auto-resize table creation
 *  there (the pid changed), which goes on with the dead thread's batch;
 *  the table the parent's thread was working on at the fork is lost in
 *  that child (it keeps its resize lock held: cds_lfht_resize and destroy
 *  of that table block there), which is why the functions exist.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "rculfhash-internal.h"

/* Seconds the library destructor waits for queued destroys. */
#define LFHT_EXIT_WAIT_S	1

/* wq.state: the thread's life. */
enum {
	WQ_NONE = 0,		/* no thread (never started, or start failed) */
	WQ_STARTING,		/* pthread_create in progress */
	WQ_RUNNING,
	WQ_PARKED,		/* paused for a fork, between two tables */
	WQ_STOPPED,		/* exited (library destructor) */
};

/* wq.futex: what the thread sleeps on. */
enum { WQ_AWAKE = 0, WQ_SLEEPING = 1 };

#define LFHT_WORK_ASKED		(LFHT_WORK_RESIZE | LFHT_WORK_DESTROY)
#define LFHT_WORK_GEN_MASK	(~(uint32_t) 0 << LFHT_WORK_GEN_SHIFT)

static struct {
	struct cds_lfht *stack;		/* requests (R1), newest first */
	struct cds_lfht *batch;		/* taken by the thread, oldest first (R2) */
	int32_t futex;			/* WQ_AWAKE / WQ_SLEEPING */
	int32_t state;			/* WQ_*; futex word of before_fork */
	int32_t pause;			/* threads in before_fork; futex word */
	int32_t stop;			/* destructor: finish destroys, then exit */
	uint32_t gen;			/* fork generation, in ht->work (R1) */
	pid_t pid;			/* process the state belongs to (adopt()) */
	bool thread_wanted;		/* an auto-resize table was created */
	pthread_t thread;
} wq;

/* Nesting of before_fork in this thread (one call per registered flavor). */
static __thread unsigned int fork_depth;

/* futex_wait with a relative time-out (the destructor's only). */
static void futex_wait_for(int32_t *addr, int32_t val, const struct timespec *rel)
{
	(void) syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, rel, NULL, 0);
}

/* ---- the thread ------------------------------------------------------------ */

/* Reverse a work_next chain. */
static struct cds_lfht *reverse(struct cds_lfht *ht)
{
	struct cds_lfht *prev = NULL, *next;

	for (; ht; ht = next) {
		next = ht->work_next;
		ht->work_next = prev;
		prev = ht;
	}
	return prev;
}

/* R2: take every request pushed so far, oldest first. */
static struct cds_lfht *take_requests(void)
{
	/*
	 * Full barrier (xchg): pairs with the push CAS (R1), so the work_next
	 * links the pushers wrote before it are seen.
	 */
	return reverse(uatomic_xchg(&wq.stack, (struct cds_lfht *) NULL));
}

/* Wake the thread if it sleeps.  The caller published its news with a full barrier. */
static void wake_worker(void)
{
	if (uatomic_read(&wq.futex) == WQ_SLEEPING) {
		uatomic_set(&wq.futex, WQ_AWAKE);
		urcu_common_futex_wake(&wq.futex, 1);
	}
}

/* Sleep until a request, a pause or the stop (see "Sleeping and waking"). */
static void idle(void)
{
	uatomic_set(&wq.futex, WQ_SLEEPING);
	/*
	 * Full barrier: SLEEPING before the reads below; pairs with the full
	 * barrier of the push CAS, of before_fork's pause add and of the
	 * destructor's stop xchg, each followed by wake_worker()'s read.
	 */
	cmm_smp_mb();
	if (!uatomic_read(&wq.stack) && !uatomic_read(&wq.pause) && !uatomic_read(&wq.stop))
		urcu_common_futex_wait(&wq.futex, WQ_SLEEPING);
	uatomic_set(&wq.futex, WQ_AWAKE);
}

/* Paused by a fork: say so, wait for the end of the pause. */
static void park(void)
{
	int32_t p;

	/*
	 * Release: the thread's work so far (wq.batch, freed tables, released
	 * resize locks) before PARKED; pairs with the acquire load in
	 * lfht_before_fork(), so the forking thread, and the child's copy of
	 * memory, see it all.
	 */
	uatomic_store(&wq.state, WQ_PARKED, CMM_RELEASE);
	urcu_common_futex_wake(&wq.state, INT_MAX);
	/* Acquire: pairs with the release in lfht_after_fork_parent(). */
	while ((p = uatomic_load(&wq.pause, CMM_ACQUIRE)) != 0)
		urcu_common_futex_wait(&wq.pause, p);
	uatomic_set(&wq.state, WQ_RUNNING);
	/*
	 * Full barrier: RUNNING before the next read of pause; pairs with the
	 * full barrier after before_fork's pause add: either the next
	 * before_fork sees RUNNING and waits, or we see its pause and park
	 * again without doing anything in between.
	 */
	cmm_smp_mb();
}

static void destroy_now(struct cds_lfht *ht)
{
	urcu_i_lfht_resize_lock(ht);	/* an explicit resize may still run */
	urcu_i_lfht_free(ht);
}

static void *worker(void *arg caa_unused)
{
	struct cds_lfht *ht;
	uint32_t what;

	uatomic_set(&wq.state, WQ_RUNNING);
	cmm_smp_mb();	/* as at the end of park(): RUNNING before reading pause */
	urcu_common_futex_wake(&wq.state, INT_MAX);	/* starters waiting for the start */
	for (;;) {
		if (uatomic_read(&wq.pause)) {
			park();
			continue;
		}
		if (!wq.batch)
			wq.batch = take_requests();
		ht = wq.batch;
		if (ht) {
			wq.batch = ht->work_next;
			/*
			 * Full barrier (xchg): R2.  Reads every bit a request
			 * CASed in before it, and orders our reads of the
			 * table (resize_target, state) after those requests'
			 * writes (pairs with their full barrier CAS).
			 */
			what = uatomic_xchg(&ht->work, 0);
			if (what & LFHT_WORK_DESTROY)
				destroy_now(ht);
			else if (!uatomic_read(&wq.stop))	/* a late stop costs one resize */
				urcu_i_lfht_background_resize(ht);
			continue;
		}
		/* Acquire: pairs with the destructor's xchg (nothing to publish but the flag). */
		if (uatomic_load(&wq.stop, CMM_ACQUIRE))
			break;
		idle();
	}
	/* Release: every destroy done before STOPPED; pairs with the destructor's acquire. */
	uatomic_store(&wq.state, WQ_STOPPED, CMM_RELEASE);
	urcu_common_futex_wake(&wq.state, INT_MAX);
	return NULL;
}

/*
 * Make sure the thread exists in this process: start it unless it runs or
 * is being started (then wait for that start: one pthread_create).  Every
 * signal but the faults is blocked in it.  Returns false if it could not
 * be started, or was stopped.
 */
static bool start_worker(void)
{
	sigset_t all, old;
	int32_t s;
	int err;

	for (;;) {
		/* Acquire: pairs with the release stores of the thread's states. */
		s = uatomic_load(&wq.state, CMM_ACQUIRE);
		if (s == WQ_STARTING) {
			urcu_common_futex_wait(&wq.state, s);
			continue;
		}
		if (s != WQ_NONE)
			return s != WQ_STOPPED;
		/* Full barrier CAS: one starter; pairs with nothing else. */
		if (uatomic_cmpxchg(&wq.state, WQ_NONE, WQ_STARTING) == WQ_NONE)
			break;
	}
	/* Every signal blocked but the faults (common.h). */
	urcu_common_thread_sigmask(&all);
	err = pthread_sigmask(SIG_BLOCK, &all, &old);
	if (!err) {
		err = pthread_create(&wq.thread, NULL, worker, NULL);
		(void) pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (err) {
		/* Release: pairs with the acquire loads of waiting starters. */
		uatomic_store(&wq.state, WQ_NONE, CMM_RELEASE);
		urcu_common_futex_wake(&wq.state, INT_MAX);
		return false;
	}
	return true;
}

/*
 * Make the state this process's (pid is the value read, me ours): in the
 * first process, before the thread is first started (pid 0); in a child,
 * whose copy of the state describes a thread that is not there.  Once per
 * process: the CAS elects the first caller (the child hook, a request in a
 * child forked without the hooks, a table creation).  wq.pause is left
 * alone: only the child hook knows that no thread of this process is
 * between before_fork and after_fork.  False if another caller did it.
 */
static bool adopt(pid_t pid, pid_t me)
{
	/* Full barrier CAS: one adopter per process. */
	if (uatomic_cmpxchg(&wq.pid, pid, me) != pid)
		return false;
	if (!pid)
		return true;	/* the first process: nothing to forget */
	uatomic_set(&wq.futex, WQ_AWAKE);
	if (uatomic_read(&wq.state) != WQ_STOPPED)
		uatomic_set(&wq.state, WQ_NONE);
	return true;
}

/*
 * The thread exists in this process, or is being started, or could not
 * be started (false).  Starts it if needed; adopts the state first in a
 * new process (the new thread goes on with the dead one's batch).
 */
static bool ensure_worker(void)
{
	pid_t me = getpid(), pid = uatomic_read(&wq.pid);

	if (pid != me)
		(void) adopt(pid, me);
	return start_worker();
}

/*
 * After a push: in a child forked without the fork functions (the pid
 * changed), or where the thread could not be started, start one.  One
 * getpid() per push; pushes happen once per resize decision or destroy.
 */
static void check_worker(void)
{
	if (caa_likely(uatomic_read(&wq.pid) == getpid()
			&& uatomic_read(&wq.state) != WQ_NONE))
		return;
	(void) ensure_worker();
}

/* ---- requests ------------------------------------------------------------- */

/* R1: link ht onto the request stack. */
static void push(struct cds_lfht *ht)
{
	struct cds_lfht *head = uatomic_read(&wq.stack), *found;

	for (;;) {
		ht->work_next = head;	/* published by the CAS */
		/*
		 * Full barrier CAS: publishes work_next (pairs with the
		 * thread's xchg in take_requests()) and orders the push before
		 * wake_worker()'s read of wq.futex (pairs with idle()'s barrier).
		 */
		found = uatomic_cmpxchg(&wq.stack, head, ht);
		if (found == head)
			return;
		head = found;
	}
}

void urcu_i_lfht_queue_work(struct cds_lfht *ht, uint32_t what)
{
	uint32_t old = uatomic_read(&ht->work), newv, found, tag;
	bool queued;

	for (;;) {
		/* Read again after a failed CAS: the child hook retags (see there). */
		tag = uatomic_read(&wq.gen) << LFHT_WORK_GEN_SHIFT;
		queued = (old & LFHT_WORK_QUEUED) && (old & LFHT_WORK_GEN_MASK) == tag;
		if (queued)
			newv = old | what;
		else
			newv = tag | LFHT_WORK_QUEUED | (old & LFHT_WORK_ASKED) | what;
		if (newv == old)
			return;		/* asked already, not yet read: see R2 */
		/*
		 * Full barrier CAS: the caller's writes (resize_target,
		 * LFHT_DESTROYING) before the request; pairs with the
		 * thread's xchg of ht->work (R2).
		 */
		found = uatomic_cmpxchg(&ht->work, old, newv);
		if (found == old)
			break;
		old = found;
	}
	if (queued)
		return;
	push(ht);	/* R3: ht may be freed from here on */
	wake_worker();
	check_worker();
}

/* ---- fork hooks ----------------------------------------------------------- */

static void lfht_before_fork(void *priv caa_unused)
{
	int32_t s;

	if (fork_depth++)
		return;
	/*
	 * Full barrier (add_return): pause before reading wq.futex and
	 * wq.state; pairs with the barriers in idle() and park().
	 */
	(void) uatomic_add_return(&wq.pause, 1);
	wake_worker();
	if (uatomic_read(&wq.pid) != getpid())
		return;		/* no thread here (a child forked without these hooks) */
	/* Acquire: pairs with park()'s release store of PARKED. */
	while ((s = uatomic_load(&wq.state, CMM_ACQUIRE)) == WQ_STARTING || s == WQ_RUNNING)
		urcu_common_futex_wait(&wq.state, s);
}

static void lfht_after_fork_parent(void *priv caa_unused)
{
	if (!fork_depth || --fork_depth)
		return;
	/* Full barrier (sub_return): pairs with the acquire load in park(). */
	(void) uatomic_sub_return(&wq.pause, 1);
	urcu_common_futex_wake(&wq.pause, 1);
}

/*
 * Give ht the generation of tag and push it, unless a request in this
 * child did already (it found the old generation and pushed: only in the
 * case described at lfht_after_fork_child()).  Full barrier CAS: pairs with
 * the requests' CAS (R1).
 */
static void requeue(struct cds_lfht *ht, uint32_t tag)
{
	uint32_t old = uatomic_read(&ht->work), found;

	for (;;) {
		if ((old & LFHT_WORK_QUEUED) && (old & LFHT_WORK_GEN_MASK) == tag)
			return;
		found = uatomic_cmpxchg(&ht->work, old,
				tag | LFHT_WORK_QUEUED | (old & LFHT_WORK_ASKED));
		if (found == old)
			break;
		old = found;
	}
	push(ht);
}

/*
 * The child.  The work is done at the FIRST call (the hooks nest, one call
 * per flavor), before any thread of the child exists:
 * call_rcu_after_fork_child runs the hooks before it starts the child's
 * call_rcu thread.  Every table still to be served (the parked thread's
 * batch, then the stack, oldest first) goes onto a new stack with the next
 * generation (see the top of the file), and a new thread starts.  If the
 * program called first the after_fork_child of a flavor without hash
 * tables, that flavor's call_rcu thread runs already and a callback's
 * request may have adopted the state first (check_worker): then the
 * thread runs, and only the tables left QUEUED by a request half done at
 * the fork are not served again.  Requests may run concurrently with the
 * requeue in that case only, hence the CASes.
 */
static void lfht_after_fork_child(void *priv caa_unused)
{
	static pid_t done_in;		/* the process this ran in */
	struct cds_lfht *todo, *ht, *next;
	pid_t me = getpid(), pid = uatomic_read(&wq.pid);
	uint32_t tag;

	if (!fork_depth)
		return;
	fork_depth--;
	if (done_in == me)
		return;		/* an earlier call in this child did it */
	done_in = me;
	/* Only this thread exists, and it leaves its fork: no pause. */
	uatomic_set(&wq.pause, 0);
	urcu_common_futex_wake(&wq.pause, INT_MAX);
	if (pid == me || !adopt(pid, me))
		return;		/* a request adopted first (see above) */
	uatomic_set(&wq.gen, (uatomic_read(&wq.gen) + 1) & (LFHT_WORK_GEN_MASK >> LFHT_WORK_GEN_SHIFT));
	cmm_smp_mb();	/* the new generation before the retags; pairs with R1's CAS and re-read */
	tag = uatomic_read(&wq.gen) << LFHT_WORK_GEN_SHIFT;
	todo = wq.batch;
	wq.batch = NULL;
	ht = take_requests();
	if (todo) {
		for (next = todo; next->work_next; next = next->work_next)
			;
		next->work_next = ht;
	} else {
		todo = ht;
	}
	for (ht = todo; ht; ht = next) {
		next = ht->work_next;
		requeue(ht, tag);
	}
	if (uatomic_read(&wq.state) == WQ_NONE && wq.thread_wanted)
		(void) start_worker();
}

static struct urcu_atfork lfht_atfork = {
	.before_fork = lfht_before_fork,
	.after_fork_parent = lfht_after_fork_parent,
	.after_fork_child = lfht_after_fork_child,
	.priv = NULL,
};

/*
 * Flavors the hooks are registered with: a slot is claimed by a CAS, and
 * marked done once registered (register_rculfhash_atfork never waits for a
 * lock held across fork: call-rcu-fork.c).
 */
#define LFHT_MAX_FLAVORS	8
static const struct rcu_flavor_struct *atfork_flavors[LFHT_MAX_FLAVORS];
static int32_t atfork_done[LFHT_MAX_FLAVORS];

static void atfork_flavor(const struct rcu_flavor_struct *flavor)
{
	const struct rcu_flavor_struct *f;
	unsigned int i;

	if (!flavor->register_rculfhash_atfork)
		return;
	for (i = 0; i < LFHT_MAX_FLAVORS; i++) {
		/* Acquire: pairs with the CAS that claimed the slot. */
		f = uatomic_load(&atfork_flavors[i], CMM_ACQUIRE);
		if (!f) {
			/* Full barrier CAS: one registration per flavor. */
			f = uatomic_cmpxchg(&atfork_flavors[i],
					(const struct rcu_flavor_struct *) NULL, flavor);
			if (!f) {
				flavor->register_rculfhash_atfork(&lfht_atfork);
				/* Release: registered before done; pairs with the loop below. */
				uatomic_store(&atfork_done[i], 1, CMM_RELEASE);
				return;
			}
		}
		if (f != flavor)
			continue;
		/*
		 * Another thread creating this flavor's first table registers
		 * right now (no lock, no wait inside): let it finish, so that
		 * our table never exists without the hooks.  Acquire: pairs
		 * with the release above.
		 */
		while (!uatomic_load(&atfork_done[i], CMM_ACQUIRE))
			sched_yield();
		return;
	}
}

bool urcu_i_lfht_worker_attach(const struct rcu_flavor_struct *flavor)
{
	atfork_flavor(flavor);
	if (!uatomic_read(&wq.thread_wanted))
		uatomic_set(&wq.thread_wanted, true);
	return ensure_worker();
}

/* ---- library destructor ----------------------------------------------------- */

/*
 * Let the thread free the tables whose destroy is queued (resizes still
 * queued are dropped), then join it; give up after LFHT_EXIT_WAIT_S if it
 * is stuck (a resize waiting for a grace period that an exiting reader
 * holds up) or parked by a fork in progress, leaving it to die with the
 * process.
 */
__attribute__((destructor))
static void lfht_worker_exit(void)
{
	struct timespec start, now, left;
	long ns;
	int32_t s;

	/* Full barrier (xchg): stop before wake_worker()'s read; pairs with idle(). */
	(void) uatomic_xchg(&wq.stop, 1);
	if (uatomic_read(&wq.pid) != getpid())
		return;
	s = uatomic_load(&wq.state, CMM_ACQUIRE);
	if (s != WQ_RUNNING)
		return;		/* none, starting, stopped, or parked by a fork */
	wake_worker();
	clock_gettime(CLOCK_MONOTONIC, &start);
	/* Acquire: pairs with the worker's release store of STOPPED. */
	while ((s = uatomic_load(&wq.state, CMM_ACQUIRE)) == WQ_RUNNING) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		ns = (now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec);
		ns = LFHT_EXIT_WAIT_S * 1000000000L - ns;
		if (ns <= 0)
			return;
		left.tv_sec = ns / 1000000000L;
		left.tv_nsec = ns % 1000000000L;
		futex_wait_for(&wq.state, s, &left);
	}
	if (s == WQ_STOPPED)
		pthread_join(wq.thread, NULL);
}
