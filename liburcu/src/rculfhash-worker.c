// SPDX-License-Identifier: MIT
/*
 * RCU lock-free hash table: the background thread.  One thread per
 * process, shared by every CDS_LFHT_AUTO_RESIZE table of every flavor,
 * started by the first request (with every signal blocked) and stopped by
 * the library destructor.  It runs two kinds of work, in request order:
 *
 *  - resize: register with the table's flavor, take the table's resize
 *    lock, resize towards resize_target, unlock, unregister;
 *  - destroy: take the resize lock (waiting out an explicit resize that
 *    another thread still runs), free the table.
 *
 * A table is on the queue at most once; its work field (under wq.lock)
 * says what is asked.  A destroy after a queued resize replaces it; a
 * destroy while the thread is resizing that table is queued again and runs
 * after the resize, which LFHT_DESTROYING cuts short.  Requests come from
 * update paths (inside read-side critical sections) and from
 * cds_lfht_destroy() (possibly in a call_rcu callback); they only take
 * wq.lock briefly and never wait for the thread, so they cannot deadlock
 * with it.
 *
 * Fork.  The first auto-resize table of each flavor registers the hooks
 * below with the flavor's register_rculfhash_atfork(): before_fork parks
 * the thread between two items and returns holding wq.lock;
 * after_fork_parent releases both; after_fork_child, in the child where
 * the thread does not exist, resets the state and starts a new thread if
 * work is pending.  A program that forks without calling the flavor's
 * call_rcu_before_fork()/after_fork_*() gets a new thread in the child on
 * its next request (the pid changed), provided no thread held wq.lock
 * at the fork.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "rculfhash-internal.h"

/* Seconds the library destructor waits for queued destroys. */
#define LFHT_EXIT_WAIT_S	1

static struct {
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* the thread: work, unpause, stop */
	pthread_cond_t idle;		/* waiters: the thread between items */
	struct cds_lfht *head, *tail;	/* FIFO through work_next */
	pthread_t thread;
	pid_t pid;			/* process the thread runs in */
	bool running;			/* the thread exists (in this process) */
	bool busy;			/* it is working on an item */
	bool stop;			/* destructor: finish destroys, then exit */
	unsigned int paused;		/* fork in progress */
} wq = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.wake = PTHREAD_COND_INITIALIZER,
	.idle = PTHREAD_COND_INITIALIZER,
};

/* Nesting of before_fork in this thread (one call per registered flavor). */
static __thread unsigned int fork_depth;

static void destroy_now(struct cds_lfht *ht)
{
	urcu_i_lfht_resize_lock(ht);	/* an explicit resize may still run */
	urcu_i_lfht_free(ht);
}

static void *worker(void *arg caa_unused)
{
	struct cds_lfht *ht;
	uint32_t what;

	pthread_mutex_lock(&wq.lock);
	for (;;) {
		while (wq.paused || (!wq.head && !wq.stop)) {
			pthread_cond_broadcast(&wq.idle);
			pthread_cond_wait(&wq.wake, &wq.lock);
		}
		if (!wq.head)
			break;		/* stopping, nothing left */
		ht = wq.head;
		wq.head = ht->work_next;
		if (!wq.head)
			wq.tail = NULL;
		what = ht->work;
		ht->work = 0;
		wq.busy = true;
		pthread_mutex_unlock(&wq.lock);

		if (what & LFHT_WORK_DESTROY)
			destroy_now(ht);
		else if (!CMM_LOAD_SHARED(wq.stop))	/* a late stop costs one resize */
			urcu_i_lfht_background_resize(ht);

		pthread_mutex_lock(&wq.lock);
		wq.busy = false;
	}
	wq.running = false;
	pthread_cond_broadcast(&wq.idle);
	pthread_mutex_unlock(&wq.lock);
	return NULL;
}

/* Start the thread, every signal blocked in it.  wq.lock held. */
static void start_locked(void)
{
	sigset_t all, old;

	sigfillset(&all);
	if (pthread_sigmask(SIG_BLOCK, &all, &old))
		return;
	if (!pthread_create(&wq.thread, NULL, worker, NULL)) {
		wq.running = true;
		wq.pid = getpid();
	}
	/* On failure the work stays queued; the next request tries again. */
	(void) pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* In a child forked without the hooks: the thread is not there.  Locked. */
static void forget_thread_locked(void)
{
	wq.running = false;
	wq.busy = false;
	pthread_cond_init(&wq.wake, NULL);
	pthread_cond_init(&wq.idle, NULL);
}

void urcu_i_lfht_queue_work(struct cds_lfht *ht, uint32_t what)
{
	pthread_mutex_lock(&wq.lock);
	if (wq.running && wq.pid != getpid())
		forget_thread_locked();
	ht->work |= what;
	if (!(ht->work & LFHT_WORK_QUEUED)) {
		ht->work |= LFHT_WORK_QUEUED;
		ht->work_next = NULL;
		if (wq.tail)
			wq.tail->work_next = ht;
		else
			wq.head = ht;
		wq.tail = ht;
	}
	if (!wq.running && !wq.stop)
		start_locked();
	pthread_cond_signal(&wq.wake);
	pthread_mutex_unlock(&wq.lock);
}

/* ---- fork hooks ----------------------------------------------------------- */

static void lfht_before_fork(void *priv caa_unused)
{
	if (fork_depth++)
		return;
	pthread_mutex_lock(&wq.lock);
	wq.paused++;
	while (wq.running && wq.busy)
		pthread_cond_wait(&wq.idle, &wq.lock);
	/* Return holding wq.lock: the child inherits a consistent queue. */
}

static void lfht_after_fork_parent(void *priv caa_unused)
{
	if (!fork_depth || --fork_depth)
		return;
	wq.paused--;
	pthread_cond_signal(&wq.wake);
	pthread_mutex_unlock(&wq.lock);
}

static void lfht_after_fork_child(void *priv caa_unused)
{
	if (!fork_depth || --fork_depth)
		return;
	wq.paused--;
	forget_thread_locked();
	if (wq.head && !wq.stop)
		start_locked();
	pthread_mutex_unlock(&wq.lock);
}

static struct urcu_atfork lfht_atfork = {
	.before_fork = lfht_before_fork,
	.after_fork_parent = lfht_after_fork_parent,
	.after_fork_child = lfht_after_fork_child,
	.priv = NULL,
};

/* Flavors the hooks are registered with ("first table wins, kept"). */
#define LFHT_MAX_FLAVORS	8
static pthread_mutex_t atfork_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct rcu_flavor_struct *atfork_flavors[LFHT_MAX_FLAVORS];

void urcu_i_lfht_atfork_flavor(const struct rcu_flavor_struct *flavor)
{
	unsigned int i;

	if (!flavor->register_rculfhash_atfork)
		return;
	pthread_mutex_lock(&atfork_lock);
	for (i = 0; i < LFHT_MAX_FLAVORS; i++) {
		if (atfork_flavors[i] == flavor)
			break;
		if (!atfork_flavors[i]) {
			atfork_flavors[i] = flavor;
			flavor->register_rculfhash_atfork(&lfht_atfork);
			break;
		}
	}
	pthread_mutex_unlock(&atfork_lock);
}

/* ---- library destructor ----------------------------------------------------- */

/*
 * Let the thread free the tables whose destroy is queued (resizes still
 * queued are dropped), then join it; give up after LFHT_EXIT_WAIT_S if it
 * is stuck (a resize waiting for a grace period that an exiting reader
 * holds up), leaving it to die with the process.
 */
__attribute__((destructor))
static void lfht_worker_exit(void)
{
	struct timespec deadline;
	bool joinable;

	pthread_mutex_lock(&wq.lock);
	if (!wq.running || wq.pid != getpid()) {
		wq.stop = true;
		pthread_mutex_unlock(&wq.lock);
		return;
	}
	CMM_STORE_SHARED(wq.stop, true);
	pthread_cond_signal(&wq.wake);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += LFHT_EXIT_WAIT_S;
	while (wq.running && !wq.paused) {
		if (pthread_cond_timedwait(&wq.idle, &wq.lock, &deadline) == ETIMEDOUT)
			break;
	}
	joinable = !wq.running;
	pthread_mutex_unlock(&wq.lock);
	if (joinable)
		pthread_join(wq.thread, NULL);
}
