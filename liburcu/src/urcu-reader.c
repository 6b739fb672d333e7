// SPDX-License-Identifier: MIT
/*
 * Reader registration, the exported (non-inline) read side, library
 * init/exit, and bp's fork handlers; compiled once per flavor.
 *
 * A thread's reader record lives in its TLS (initial-exec).  Registering
 * links it into the registry that grace periods scan; a pthread key makes
 * thread exit unregister it, so a thread that forgets to unregister (or a bp
 * thread, which never registers explicitly) cannot leave a dangling record.
 * The record's word starts as URCU_READER_UNREGISTERED, which the inline
 * read side turns into an implicit registration without a test on its fast
 * path: bp by design, the other flavors because a liburcu program may read
 * under RCU from a thread it never registered (or no longer registers, as
 * in a library destructor) and must keep running; registered, such a
 * thread is also protected, where liburcu merely lets it run.  An implicit
 * registration ("lazy") is undone at thread exit through the pthread key,
 * and an explicit rcu_register_thread() adopts it.  qsbr never registers a
 * thread behind its back: an online qsbr thread that announces no
 * quiescent states would stall every grace period.  docs/DESIGN.md,
 * "Misuse", lists what aborts and what runs.  Registration's link into the
 * registry, the deferred unregistration inside a section and the section
 * that a lazy registration enters are named steps (URCU_I_STEP_LINK,
 * _DEFER_UNREGISTER, _LAZY_LOCK in urcu-steps.h), which test-only seeded
 * builds replace.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "urcu-internal.h"
#include "probes.h"
#include "urcu-steps.h"

URCU_API __thread struct urcu_i_reader URCU_FN(i_reader) URCU_I_TLS_MODEL = {
	.ctr = URCU_READER_UNREGISTERED,
};

struct urcu_i_registry URCU_FN(i_registry) = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.readers = CDS_LIST_HEAD_INIT(URCU_FN(i_registry).readers),
};

/* The flavor's name for the USDT probes (probes.h). */
URCU_PROBE_FLAVOR_DEFINE;

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long init_count;
static pthread_key_t exit_key;
static int exit_key_ready;

static void reader_thread_exit(void *arg);

/* The reader word says it all: URCU_READER_UNREGISTERED until registered. */
static bool reader_registered(const struct urcu_i_reader *r)
{
	return r->ctr != URCU_READER_UNREGISTERED;
}

/*
 * init: sets up the flavor (membarrier registration, signal handler).  Runs
 * as a constructor; idempotent; counted, so that exit undoes it only when
 * called as many times as init was.
 */
void URCU_FN(init)(void)
{
	URCU_FN(i_lock)(&init_lock);
	/*
	 * Atomic update, though under the lock: do_register() reads the count
	 * without it (a data race TSan found between a call_rcu worker's
	 * registration and exit() run by the destructor at process exit).
	 * Relaxed: the lock orders everything else.
	 */
	if (uatomic_add_return_mo(&init_count, 1, CMM_RELAXED) == 1) {
		if (!exit_key_ready) {
			int ret = pthread_key_create(&exit_key, reader_thread_exit);

			if (ret)
				urcu_common_die("rcu_init", "pthread_key_create: %s", strerror(ret));
			exit_key_ready = 1;
		}
		URCU_FN(i_order_init)();
	}
	URCU_FN(i_unlock)(&init_lock);
}

/* exit: undoes one init; the last one tears the flavor's setup down. */
void URCU_FN(exit)(void)
{
	URCU_FN(i_lock)(&init_lock);
	/* Atomic update: see init(). */
	if (init_count > 0 && uatomic_sub_return_mo(&init_count, 1, CMM_RELAXED) == 0)
		URCU_FN(i_order_exit)();
	URCU_FN(i_unlock)(&init_lock);
}

static void __attribute__((constructor)) flavor_constructor(void)
{
	URCU_PROBE_FLAVOR_TOUCH();
	URCU_FN(init)();
}

static void __attribute__((destructor)) flavor_destructor(void)
{
	URCU_FN(exit)();
}

static void do_register(struct urcu_i_reader *r, bool lazy)
{
	struct urcu_i_registry *reg = &URCU_FN(i_registry);

	/* Registration may precede our constructor (other constructors). */
	if (!uatomic_read(&init_count))
		URCU_FN(init)();
	r->tid = pthread_self();
	r->ktid = (int32_t) syscall(SYS_gettid);
	r->need_mb = 0;
	r->lazy = lazy;
	r->waited = 0;
	URCU_I_STEP_REGISTER_LOCK(&reg->lock);
	uatomic_store(&r->ctr, 0UL, CMM_RELAXED);
	URCU_I_STEP_LINK(r, &reg->readers, lazy);
	reg->gen++;
	uatomic_store(&reg->count, reg->count + 1, CMM_RELAXED);
	/*
	 * Full fence: the count store before every load of the thread's
	 * critical sections; pairs with the fence in sync_target() (urcu-gp.c,
	 * store-buffering): a synchronize_rcu() that reads the old count has
	 * its removal visible to our sections.
	 */
	cmm_smp_mb();
	URCU_I_STEP_REGISTER_UNLOCK(&reg->lock);
	URCU_PROBE(thread_register, URCU_PROBE_FLAVOR, r->ktid, (int) lazy);
	if (exit_key_ready) {
		int ret = pthread_setspecific(exit_key, r);

		/*
		 * Without the key the record would stay linked after the
		 * thread exits.  glibc allocates the slots of keys past its
		 * 32nd, so this can run out of memory; a void call can only
		 * report that by dying (tests/faults/test_faults_register.c).
		 */
		if (ret)
			urcu_common_die(lazy ? "rcu_read_lock" : "rcu_register_thread",
				"cannot set up the thread's unregistration at exit: %s",
				strerror(ret));
	}
}

static void do_unregister(struct urcu_i_reader *r)
{
	struct urcu_i_registry *reg = &URCU_FN(i_registry);

	URCU_FN(i_lock)(&reg->lock);
	cds_list_del(&r->node);
	reg->gen++;
	/*
	 * Release: like an unlock, in case the thread dies inside a critical
	 * section; the record leaves the registry under the lock anyway.
	 */
	uatomic_store(&r->ctr, URCU_READER_UNREGISTERED, CMM_RELEASE);
	/*
	 * Release: the thread's critical sections happen before a
	 * synchronize_rcu() that reads this count with acquire and finds no
	 * reader (sync_target() in urcu-gp.c).
	 */
	uatomic_store(&reg->count, reg->count - 1, CMM_RELEASE);
	URCU_FN(i_unlock)(&reg->lock);
	URCU_PROBE(thread_unregister, URCU_PROBE_FLAVOR, r->ktid);
	/* A grace period may be asleep waiting for this (dead) reader. */
	URCU_FN(i_wake_updater)();
}

/*
 * Set once the thread's exit cleanup has run: a read-side section in a later
 * TLS destructor must not register the thread again (pthread runs a key's
 * destructor only a bounded number of rounds, so a record linked then could
 * outlive the thread).  Such a section runs unprotected, as in liburcu.
 */
static __thread unsigned char thread_exiting;

/* Thread exit with the record still registered: unregister it. */
static void reader_thread_exit(void *arg)
{
	struct urcu_i_reader *r = arg;

	thread_exiting = 1;
	if (r && reader_registered(r))
		do_unregister(r);
}

/*
 * register_thread: makes the calling thread a reader (qsbr: online).
 * Ordering: a grace period that starts after this returns takes the thread
 * into account.  A thread registered implicitly (by a read-side section)
 * registers explicitly without complaint, and is then unregistered
 * explicitly or at exit.  bp: registering again does nothing (as liburcu's
 * bp).  Registering twice explicitly with another flavor aborts with a
 * message, as liburcu's assertion does.
 */
void URCU_FN(register_thread)(void)
{
	struct urcu_i_reader *r = &URCU_FN(i_reader);

	if (reader_registered(r)) {
		if (r->lazy || URCU_FLAVOR_IS_BP) {
			r->lazy = 0;
			return;
		}
		urcu_common_die("rcu_register_thread",
			"thread already registered with the urcu_%s flavor", URCU_FLAVOR_NAME);
	}
	do_register(r, false);
#if URCU_FLAVOR_IS_QSBR
	URCU_I_STEP_REGISTER_ONLINE(r);
#endif
}

/*
 * unregister_thread: removes the calling thread from the readers (qsbr: it
 * goes offline first).  Ordering: grace periods that start after this
 * returns no longer wait for the thread.  Unregistering a thread that is not
 * registered aborts with a message (liburcu's assertion; its list removal
 * would crash).  Called inside a read-side critical section (which liburcu
 * lets run unprotected), the thread stays registered, implicitly: the
 * section stays protected, and the registration ends at thread exit or with
 * the next rcu_unregister_thread() outside a section.
 */
void URCU_FN(unregister_thread)(void)
{
	struct urcu_i_reader *r = &URCU_FN(i_reader);

	if (!reader_registered(r))
		urcu_common_die("rcu_unregister_thread",
			"thread is not registered with the urcu_%s flavor", URCU_FLAVOR_NAME);
#if URCU_FLAVOR_IS_QSBR
	if (r->debug_nest) {
		URCU_FN(i_debug_misuse)("rcu_unregister_thread");
		r->debug_nest = 0;	/* reported once, not again by thread_offline */
	}
	if (URCU_FN(i_read_ongoing)())
		URCU_FN(thread_offline)();
#else
	if (URCU_FN(i_read_ongoing)()) {
		urcu_common_misuse("rcu_unregister_thread",
			"called inside a read-side critical section; the thread stays registered "
			"until it exits (urcu_%s flavor)", URCU_FLAVOR_NAME);
		if (URCU_I_STEP_DEFER_UNREGISTER(r))
			return;
	}
#endif
	do_unregister(r);
	if (exit_key_ready)
		(void) pthread_setspecific(exit_key, NULL);
}

int URCU_FN(i_registered)(void)
{
	return URCU_FLAVOR_IS_BP || reader_registered(&URCU_FN(i_reader));
}

int URCU_FN(i_online)(void)
{
#if URCU_FLAVOR_IS_QSBR
	return reader_registered(&URCU_FN(i_reader)) && URCU_FN(i_reader).ctr != 0;
#else
	return URCU_FN(i_registered)();
#endif
}

/* ---- the exported read side (the inline versions, out of line) ---------- */

void URCU_FN(read_lock)(void)
{
	URCU_FN(i_read_lock)();
}

void URCU_FN(read_unlock)(void)
{
	URCU_FN(i_read_unlock)();
}

int URCU_FN(read_ongoing)(void)
{
	return URCU_FN(i_read_ongoing)();
}

#if URCU_FLAVOR_IS_QSBR
/* ---- qsbr read side ------------------------------------------------------ */

void URCU_FN(quiescent_state)(void)
{
	URCU_FN(i_quiescent_state)();
}

/*
 * Debug builds (the depth count of urcu/static/urcu-qsbr.h): none of these
 * misuses breaks liburcu's qsbr, whose read_lock and read_unlock are empty,
 * so they are reported (urcu_common_misuse) and the caller carries on.
 */
void URCU_FN(i_debug_misuse)(const char *func)
{
	if (URCU_FN(i_reader).ctr == URCU_READER_UNREGISTERED)
		urcu_common_misuse(func, "thread is not registered with urcu_qsbr");
	else if (URCU_FN(i_reader).debug_nest == 0)
		urcu_common_misuse(func, "called without a matching rcu_read_lock");
	else
		urcu_common_misuse(func, "called inside a read-side critical section");
}

void URCU_FN(i_quiescent_state_slow)(unsigned long g)
{
	struct urcu_i_reader *r = &URCU_FN(i_reader);

	/*
	 * Full fence: accesses before the quiescent state complete before
	 * the updater can see it; pairs with the acquire scan load.
	 */
	cmm_smp_mb();
	uatomic_store(&r->ctr, g, CMM_RELEASE);
	/*
	 * Full fence: the announcement precedes later read-side loads (pairs
	 * with B1 in run_one_gp) and our check of URCU_GP_WAITER (pairs with
	 * the fence after the updater sets it).
	 */
	cmm_smp_mb();
	if (CMM_LOAD_SHARED(URCU_FN(i_gp).ctr) & URCU_GP_WAITER)
		URCU_FN(i_wake_updater_for)(r);
}

/*
 * thread_offline: the thread stops reading RCU-protected data; grace
 * periods stop waiting for it.  Full fences on both sides.
 */
void URCU_FN(thread_offline)(void)
{
	struct urcu_i_reader *r = &URCU_FN(i_reader);

	if (!reader_registered(r)) {
		/* liburcu runs this on an unregistered thread: nothing to undo. */
		urcu_common_misuse("rcu_thread_offline", "thread is not registered with urcu_qsbr");
		return;
	}
	if (r->debug_nest)
		URCU_FN(i_debug_misuse)("rcu_thread_offline");
	/* Full fence: read-side accesses end before we look offline. */
	cmm_smp_mb();
	uatomic_store(&r->ctr, 0UL, CMM_RELEASE);
	/* Full fence: the offline store before the URCU_GP_WAITER check. */
	cmm_smp_mb();
	if (CMM_LOAD_SHARED(URCU_FN(i_gp).ctr) & URCU_GP_WAITER)
		URCU_FN(i_wake_updater_for)(r);
}

/*
 * thread_online: the thread may read RCU-protected data again.  On a thread
 * that is not registered it does nothing but count a misuse (liburcu runs
 * it, with no effect on grace periods; registering the thread here would
 * leave it online with nobody announcing its quiescent states).
 */
void URCU_FN(thread_online)(void)
{
	struct urcu_i_reader *r = &URCU_FN(i_reader);

	if (!reader_registered(r)) {
		urcu_common_misuse("rcu_thread_online",
			"thread is not registered with urcu_qsbr; it stays unprotected");
		return;
	}
	URCU_I_STEP_ONLINE_PUBLISH(r);
	/*
	 * Full fence: the online announcement precedes the read-side loads
	 * that follow; pairs with B1 in run_one_gp().
	 */
	cmm_smp_mb();
}

#else /* !URCU_FLAVOR_IS_QSBR */
/* ---- memb, mb, signal, bp read side -------------------------------------- */

/* qsbr-only operations: no-ops here, so portable code may call them. */
void URCU_FN(quiescent_state)(void)
{
}

void URCU_FN(thread_offline)(void)
{
}

void URCU_FN(thread_online)(void)
{
}

void URCU_FN(i_read_lock_slow)(void)
{
	struct urcu_i_reader *r = &URCU_FN(i_reader);
	unsigned long nest = r->ctr & URCU_GP_NEST_MASK;

	if (nest == URCU_READER_UNREGISTERED) {
		/* bp registers this way by design; the others on a misuse. */
		if (thread_exiting) {
			urcu_common_misuse("rcu_read_lock",
				"thread is exiting (urcu_%s flavor); the section runs unprotected",
				URCU_FLAVOR_NAME);
			return;
		}
		if (!URCU_FLAVOR_IS_BP)
			urcu_common_misuse("rcu_read_lock",
				"thread is not registered with the urcu_%s flavor; registered it "
				"implicitly until it exits", URCU_FLAVOR_NAME);
		do_register(r, true);
		URCU_I_STEP_LAZY_LOCK();
		return;
	}
	/* liburcu: the depth carries into its phase bit, breaking grace periods. */
	urcu_common_die("rcu_read_lock", "read-side critical sections nested too deeply (%lu)",
			nest);
}

void URCU_FN(i_read_unlock_misuse)(void)
{
	unsigned long nest = URCU_FN(i_reader).ctr & URCU_GP_NEST_MASK;

	/* The end of a section that lazy registration entered uncounted. */
	if (URCU_I_STEP_UNCOUNTED_UNLOCK(nest))
		return;
	if (nest == URCU_READER_UNREGISTERED) {
		/*
		 * Not registered, so no section to end (read_lock would have
		 * registered the thread): liburcu runs this harmlessly.
		 */
		urcu_common_misuse("rcu_read_unlock",
			"thread is not registered with the urcu_%s flavor", URCU_FLAVOR_NAME);
		return;
	}
	/*
	 * A registered thread at depth 0: liburcu's word would underflow into
	 * "inside a section with a stale phase", so its grace periods stall
	 * while the thread is outside its sections and stop protecting the
	 * sections themselves.
	 */
	urcu_common_die("rcu_read_unlock", "called without a matching rcu_read_lock");
}

void URCU_FN(i_read_unlock_slow)(void)
{
	unsigned long g = CMM_LOAD_SHARED(URCU_FN(i_gp).ctr);

	if (g & URCU_GP_FENCE) {
		/*
		 * Fenced readers: our idle store before the URCU_GP_WAITER
		 * check; pairs with the updater's fence after setting it.
		 */
		cmm_smp_mb();
		g = CMM_LOAD_SHARED(URCU_FN(i_gp).ctr);
	}
	if (g & URCU_GP_WAITER)
		URCU_FN(i_wake_updater_for)(&URCU_FN(i_reader));
}
#endif /* !URCU_FLAVOR_IS_QSBR */

/* ---- fork ------------------------------------------------------------------ */

/*
 * Fork support shared by bp's handlers and the call_rcu fork functions (an
 * application may call both sets; the depth count makes nesting harmless).
 * prepare takes the grace-period and registry locks so the child inherits a
 * consistent registry; the child then keeps only its own thread's record:
 * every other registered thread is gone there, and a record of one caught
 * inside a critical section (or online, for qsbr) would stall grace periods
 * in the child forever.
 */
static unsigned int fork_depth;

void URCU_FN(i_fork_prepare)(void)
{
	if (fork_depth++ == 0)
		URCU_FN(i_gp_fork_prepare)();
}

void URCU_FN(i_fork_parent)(void)
{
	if (fork_depth && --fork_depth == 0)
		URCU_FN(i_gp_fork_parent)();
}

void URCU_FN(i_fork_child)(void)
{
	struct urcu_i_reader *r, *tmp;
	struct urcu_i_reader *self = &URCU_FN(i_reader);

	if (!fork_depth || --fork_depth != 0)
		return;
	cds_list_for_each_entry_safe(r, tmp, &URCU_FN(i_registry).readers, node) {
		if (r != self)
			cds_list_del(&r->node);
	}
	URCU_FN(i_registry).gen++;
	/* Single-threaded child: only this thread's record may be left. */
	URCU_FN(i_registry).count = reader_registered(self) ? 1 : 0;
	/* Our thread has a new kernel id in the child (stall reports name it). */
	self->ktid = (int32_t) syscall(SYS_gettid);
	URCU_FN(i_gp_fork_child)();
}

#if URCU_FLAVOR_IS_BP
static sigset_t fork_saved_mask;

/*
 * before_fork: blocks signals (a handler must not enter RCU while the locks
 * are held) and takes the grace-period and registry locks.
 */
void URCU_FN(before_fork)(void)
{
	sigset_t all;

	sigfillset(&all);
	if (pthread_sigmask(SIG_BLOCK, &all, &fork_saved_mask))
		urcu_common_die("urcu_bp_before_fork", "pthread_sigmask failed");
	URCU_FN(i_fork_prepare)();
}

/* after_fork_parent: releases what before_fork took. */
void URCU_FN(after_fork_parent)(void)
{
	URCU_FN(i_fork_parent)();
	(void) pthread_sigmask(SIG_SETMASK, &fork_saved_mask, NULL);
}

/* after_fork_child: keeps only the calling thread's reader, then releases. */
void URCU_FN(after_fork_child)(void)
{
	URCU_FN(i_fork_child)();
	(void) pthread_sigmask(SIG_SETMASK, &fork_saved_mask, NULL);
}
#endif /* URCU_FLAVOR_IS_BP */
