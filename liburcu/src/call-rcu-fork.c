// SPDX-License-Identifier: MIT
/*
 * fork() support for call_rcu, and the registry of fork hooks of data
 * structures with their own threads (rculfhash).  Compiled once per flavor.
 *
 * The application calls, around fork():
 *   call_rcu_before_fork()        in the parent, before fork()
 *   call_rcu_after_fork_parent()  in the parent, after fork()
 *   call_rcu_after_fork_child()   in the child, after fork()
 * (the library does not install pthread_atfork handlers itself; an
 * application may pass these three to pthread_atfork()).
 *
 * before_fork runs the registered hooks' before_fork, takes callrcu.lock and
 * parks every worker at a safe point: between batches, unregistered from the
 * reader registry (so that the child's registry holds no record of a thread
 * that does not exist there), holding no lock.  It returns with
 * callrcu.lock held, so the child inherits a consistent worker list.
 *
 * after_fork_parent unparks the workers, releases the lock and runs the
 * hooks' after_fork_parent.
 *
 * after_fork_child: only the forking thread exists in the child, so every
 * worker of the list is a dead copy.  Their queues are moved to a fresh
 * default worker (started now), and they are freed; the per-CPU assignments
 * and the calling thread's own assignment are cleared (create new ones if
 * wanted); struct call_rcu_data pointers kept from before the fork are
 * invalid in the child.  Callbacks that were pending at fork time are therefore pending in
 * both processes, and each process runs its copy once: the parent frees its
 * objects, the child frees its own copies of them.  An enqueue that another
 * parent thread had half done at fork time never completes in the child; the
 * callbacks behind it in that queue are left alone (the parent runs them).
 * The hooks' after_fork_child run first, before the child's call_rcu
 * thread starts (as in liburcu): while they run, the calling thread is the
 * only one in the child (rculfhash-worker.c relies on it).
 *
 * Registration never waits for atfork_lock, which the fork functions hold
 * from before_fork to after_fork_*: the hash table registers its hooks from
 * cds_lfht_new(), which may run inside a read-side critical section or a
 * call_rcu callback, and before_fork waits for grace periods and for the
 * call_rcu threads, so a registration that waited for the lock could
 * deadlock the fork.  A registration that finds the lock taken
 * pushes its entry onto the lock-free stack `pending' (one CAS); every
 * holder of the lock moves pending entries into the list right after it
 * takes the lock and right before it releases it, and looks again after
 * releasing it (unlock_atfork: Dekker with the registration's push and
 * trylock, full barriers on both sides, so no entry is left behind).  A
 * registration that returned before call_rcu_before_fork() started is
 * therefore in the list that before_fork walks; one that comes during a
 * fork takes effect from the next fork on (its after hooks do not run for
 * a before hook that did not).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <urcu/uatomic.h>
#include <urcu/pointer.h>
#include <urcu/static/wfcqueue.h>

#include "call-rcu-internal.h"
#include "urcu-internal.h"

#define callrcu URCU_FN(i_callrcu)

/* Registered fork hooks, under atfork_lock. */
struct atfork_entry {
	struct urcu_atfork *atfork;
	struct cds_list_head node;
	struct atfork_entry *pending_next;	/* on `pending' */
};

static pthread_mutex_t atfork_lock = PTHREAD_MUTEX_INITIALIZER;
static CDS_LIST_HEAD(atfork_hooks);
static struct atfork_entry *pending;	/* registrations not yet listed, newest first */

/*
 * The first entries come from here, not malloc: the hash table registers
 * its one hook per flavor from cds_lfht_new(), which must return NULL
 * rather than abort when memory runs out (tests/faults/test_faults_hash.c).
 * A slot is free while its atfork is NULL: claimed by a CAS (register),
 * freed under atfork_lock once off the list (unregister).
 */
#define ATFORK_STATIC_ENTRIES	4
static struct atfork_entry atfork_static[ATFORK_STATIC_ENTRIES];

/* Move the pending registrations into the list, in registration order.  Locked. */
static void take_pending(void)
{
	struct atfork_entry *e, *next, *rev = NULL;

	/* Full barrier (xchg): pairs with the push CAS in register: e's fields are seen. */
	for (e = uatomic_xchg(&pending, (struct atfork_entry *) NULL); e; e = next) {
		next = e->pending_next;
		e->pending_next = rev;
		rev = e;
	}
	for (e = rev; e; e = e->pending_next)
		cds_list_add_tail(&e->node, &atfork_hooks);
}

/*
 * atfork_lock is held while before_fork waits for workers, whose batches
 * wait for grace periods: qsbr waiters go offline.
 */
static void lock_atfork(void)
{
	bool was_online = urcu_i_quiesce_begin();

	pthread_mutex_lock(&atfork_lock);
	urcu_i_quiesce_end(was_online);
	take_pending();
}

/* Release atfork_lock, leaving no registration pending (see the top). */
static void unlock_atfork(void)
{
	for (;;) {
		take_pending();
		pthread_mutex_unlock(&atfork_lock);
		/*
		 * Full barrier: the unlock before the read of pending; pairs
		 * with the full barrier of the push CAS in register, which
		 * precedes its trylock: either it gets the lock, or we see
		 * its entry here.
		 */
		cmm_smp_mb();
		if (!uatomic_read(&pending) || pthread_mutex_trylock(&atfork_lock))
			return;
	}
}

/*
 * register_rculfhash_atfork: run atfork's hooks from the call_rcu fork
 * functions of this flavor (before_fork in registration order, the after
 * hooks in reverse order), from the next call_rcu_before_fork() that
 * starts after this returns.  Never waits (see the top of the file):
 * callable inside a read-side critical section, in a call_rcu callback,
 * and while another thread is between before_fork and after_fork_*.
 * Ordering: a full barrier before the entry is published.
 */
void URCU_FN(register_rculfhash_atfork)(struct urcu_atfork *atfork)
{
	struct atfork_entry *e = NULL, *head, *found;

	/* Full barrier CAS: claims a free static slot (freed by unregister). */
	for (int i = 0; i < ATFORK_STATIC_ENTRIES && !e; i++)
		if (!uatomic_read(&atfork_static[i].atfork)
				&& !uatomic_cmpxchg(&atfork_static[i].atfork,
					(struct urcu_atfork *) NULL, atfork))
			e = &atfork_static[i];
	if (!e) {
		e = malloc(sizeof(*e));
		if (!e)
			urcu_common_die("urcu_register_rculfhash_atfork", "out of memory");
		e->atfork = atfork;
	}
	head = uatomic_read(&pending);
	for (;;) {
		e->pending_next = head;
		/*
		 * Full barrier CAS: publishes e (pairs with take_pending()'s
		 * xchg) and orders the push before the trylock below (pairs
		 * with unlock_atfork()'s barrier).
		 */
		found = uatomic_cmpxchg(&pending, head, e);
		if (found == head)
			break;
		head = found;
	}
	if (!pthread_mutex_trylock(&atfork_lock))
		unlock_atfork();	/* moves it in */
}

/* unregister_rculfhash_atfork: forget atfork (no-op if not registered). */
void URCU_FN(unregister_rculfhash_atfork)(struct urcu_atfork *atfork)
{
	struct atfork_entry *e, *tmp;

	lock_atfork();
	cds_list_for_each_entry_safe(e, tmp, &atfork_hooks, node) {
		if (e->atfork == atfork) {
			cds_list_del(&e->node);
			if (e >= atfork_static && e < atfork_static + ATFORK_STATIC_ENTRIES)
				uatomic_set(&e->atfork, NULL);	/* free for register's CAS */
			else
				free(e);
			break;
		}
	}
	unlock_atfork();
}

/* All workers parked (or stopped)?  Called with callrcu.lock held. */
static bool all_parked(void)
{
	struct call_rcu_data *crdp;

	cds_list_for_each_entry(crdp, &callrcu.workers, node) {
		/* Acquire: pairs with the worker's ack RMW. */
		if (!(uatomic_load(&crdp->state, CMM_ACQUIRE) & (CRDP_PAUSED | CRDP_STOPPED)))
			return false;
	}
	return true;
}

/*
 * call_rcu_before_fork: park this flavor's call_rcu workers and take its
 * locks (see the top of the file).  Blocks until every worker has finished
 * its current batch; must not be called inside a read-side critical section.
 */
void URCU_FN(call_rcu_before_fork)(void)
{
	struct call_rcu_data *crdp;
	struct atfork_entry *e;
	bool was_online;

	/* qsbr: offline throughout, the workers' last batches need GPs. */
	was_online = urcu_i_quiesce_begin();
	pthread_mutex_lock(&atfork_lock);
	take_pending();
	cds_list_for_each_entry(e, &atfork_hooks, node)
		e->atfork->before_fork(e->atfork->priv);

	/*
	 * Wait with callrcu.lock released, so that a callback that needs it
	 * (creating a worker) cannot deadlock with us; re-check the list each
	 * time we take it, since workers may have been added meanwhile.
	 */
	for (;;) {
		int32_t seq = uatomic_load(&callrcu.park_seq, CMM_ACQUIRE);

		urcu_i_callrcu_lock();
		cds_list_for_each_entry(crdp, &callrcu.workers, node) {
			if (!(uatomic_read(&crdp->state) & CRDP_PAUSE))
				URCU_FN(i_crdp_request)(crdp, CRDP_PAUSE);
		}
		if (all_parked())
			break;		/* keep callrcu.lock across fork() */
		urcu_i_callrcu_unlock();
		/* Every ack bumps park_seq after setting its bit. */
		urcu_common_futex_wait(&callrcu.park_seq, seq);
	}
	/* Grace-period and registry locks too: the child prunes the registry. */
	URCU_FN(i_fork_prepare)();
	urcu_i_quiesce_end(was_online);
}

/* call_rcu_after_fork_parent: resume the workers and release the locks. */
void URCU_FN(call_rcu_after_fork_parent)(void)
{
	struct call_rcu_data *crdp;
	struct atfork_entry *e;

	URCU_FN(i_fork_parent)();
	cds_list_for_each_entry(crdp, &callrcu.workers, node)
		URCU_FN(i_crdp_clear)(crdp, CRDP_PAUSE);
	urcu_i_callrcu_unlock();
	cds_list_for_each_entry_reverse(e, &atfork_hooks, node)
		e->atfork->after_fork_parent(e->atfork->priv);
	unlock_atfork();
}

/*
 * call_rcu_after_fork_child: rebuild the call_rcu state of the child (see
 * the top of the file).  call_rcu() works again when it returns.
 */
void URCU_FN(call_rcu_after_fork_child)(void)
{
	struct call_rcu_data *crdp, *tmp, *def = NULL;
	struct cds_list_head dead;
	struct atfork_entry *e;
	int n = uatomic_read(&callrcu.nr_cpus);

	/* Keep only this thread's reader record; release the GP locks. */
	URCU_FN(i_fork_child)();
	/* The hooks first: no other thread exists in the child yet. */
	cds_list_for_each_entry_reverse(e, &atfork_hooks, node)
		e->atfork->after_fork_child(e->atfork->priv);
	/* The dead workers leave the list; the new default joins it. */
	CDS_INIT_LIST_HEAD(&dead);
	cds_list_splice(&callrcu.workers, &dead);
	CDS_INIT_LIST_HEAD(&callrcu.workers);
	callrcu.default_crdp = NULL;
	if (callrcu.per_cpu) {
		for (int cpu = 0; cpu < n; cpu++)
			callrcu.per_cpu[cpu] = NULL;
	}
	URCU_FN(i_thread_crdp_reset)();
	uatomic_set(&callrcu.park_seq, 0);

	if (!cds_list_empty(&dead))
		def = URCU_FN(i_default_locked)();
	cds_list_for_each_entry_safe(crdp, tmp, &dead, node) {
		/* Non-blocking: a half-done enqueue will never complete here. */
		URCU_FN(i_crdp_move_all)(def, crdp, false);
		cds_list_del(&crdp->node);
		URCU_FN(i_crdp_destroy)(crdp);
	}
	urcu_i_callrcu_unlock();
	unlock_atfork();
}
