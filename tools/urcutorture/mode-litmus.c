/* SPDX-License-Identifier: MIT */
/*
 * litmus mode: the store-buffering race between a reader's "publish my word,
 * then load the pointer" and the updater's "store the new pointer, then read
 * the reader words" (inside synchronize_rcu), made to happen within
 * nanoseconds millions of times, as litmus-test harnesses do.
 *
 * Each round: every reader and the one updater meet at a barrier (spin,
 * then sleep; a round starts only once every party runs: lit_round),
 * whose last arriver sets the round's start time 1 us ahead; all wait for
 * it (whoever releases the barrier would otherwise always start first).
 * Then, after a small random delay on each side (sweeping the window):
 *
 *   reader:  [stores to LIT_STUFF_LINES lines the updater owns]
 *            read_lock (qsbr: thread_online)     -- publishes its word
 *            p = load ptr
 *            p new: linger LIT_LINGER_NS inside the section
 *            p old: linger until the updater says its synchronize_rcu
 *                   returned (returned == round), at most LIT_HOLD_NS
 *            v = p->val; read_unlock (qsbr: thread_offline)
 *            v must be LIT_VALID
 *   updater: ptr = the other object (release)
 *            synchronize_rcu()
 *            old->val = LIT_POISON               -- the moment it returns
 *            returned = round (release)
 *            [writes the stuff lines, so the reader's next stores miss]
 *
 * A correct flavor orders the reader's word store before its load of ptr
 * (reader fence, membarrier(2), signal round), so either the reader loads
 * the new object, or the updater's scan sees the reader's word and waits
 * through the linger: v is never the poison.  Without that order (the seeded
 * flavors busted-order-updater and busted-order-reader), the word can still
 * sit in the reader CPU's store buffer when the scan reads it: the grace
 * period ends at once and the reader, still lingering on the old object,
 * reads the poison.  The stores the reader makes just before read_lock go to
 * cache lines held by the updater's CPU; stores leave the store buffer in
 * order, so the word store waits behind their ownership requests, which
 * widens the window from tens to hundreds of nanoseconds without changing
 * what any primitive does.
 *
 * The reader holding the old object stays in its section until the grace
 * period that replaced it has returned: a grace period that wrongly leaves
 * that reader out still ends only after its own B1 (membarrier(2), a signal
 * round: 10-30 us in a VM), long after a fixed 2 us linger is over.  A
 * grace period that ignores a reader's word read before B1 (the seeded
 * stale-snapshot) was invisible to that linger at every commit tried; it
 * is caught within milliseconds on an idle machine now (docs/TORTURE.md,
 * "The litmus mode"; docs/TORTURE-SEEDED.md for the figures under load).  A
 * reader that loaded the new object is not waited for by anything it
 * could catch, so it keeps the short linger; a correct grace period waits
 * for the old object's reader, so that round costs LIT_HOLD_NS.
 *
 * Where the library registers threads implicitly (memb, mb and signal of
 * this library, unless --no-implicit), two rounds in four misuse the API
 * as a liburcu program may, each misuse counted for the library's
 * misuse_events check (ut_misuse_caused):
 *
 *   implicit:   the reader unregisters before the barrier, so that its
 *               read_lock registers it, and that first section is the one
 *               raced (its word store and the pointer load, as above);
 *   unregister: the reader calls rcu_unregister_thread just after
 *               read_lock, before loading ptr: the thread stays registered
 *               and the section protected, or the poison shows.
 *
 * After either, rcu_register_thread adopts the implicit registration,
 * outside the round.  Reads in a thread-exit destructor need a thread per
 * round: the stress mode's churn does them.
 *
 * The first failure stops the run (run->stop), so --duration is a cap: the
 * report gives the time to detection.  Threads are pinned to distinct CPUs
 * unless --pin* says otherwise; default one reader per CPU but one.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <urcu/arch.h>
#include <urcu/uatomic.h>

/*
 * Acquire/release accesses use the compiler's __atomic builtins, not
 * uatomic_load/uatomic_store with CMM_* orders: the tool is also built
 * against liburcu 0.13 (tools/urcutorture-vs-liburcu.sh), which lacks those.
 */

#include "json.h"
#include "ut-mode.h"

enum { LIT_READER, LIT_UPDATER };

static void *lit_reader(struct ut_thread *t);
static void *lit_updater(struct ut_thread *t);

static const struct ut_mode_role lit_roles[] = {
	[LIT_READER] = { "reader", UT_ROLE_READER, true, lit_reader },
	[LIT_UPDATER] = { "updater", UT_ROLE_UPDATER, false, lit_updater },
};

static const char *const lit_errors[] = { "poisoned_in_section", NULL };

enum { LIT_OPT_NO_IMPLICIT };

static const struct ut_opt lit_opts[] = {
	[LIT_OPT_NO_IMPLICIT] = UT_OPT_NO_IMPLICIT,
	{ NULL }
};

/* What a round does about registration (implicit rounds: see the top). */
enum lit_round { LIT_PLAIN, LIT_IMPLICIT, LIT_UNREGISTER };

#define LIT_VALID		0x600dc0de600dc0deull
#define LIT_POISON		0xdeadbeefdeadbeefull
/*
 * Lines the reader stores to before read_lock.  Measured with the seeded
 * flavors on a 2-CPU AMD EPYC VM (rounds to the first detection, median):
 * none about 8500, 24 about 160, 48 about 15, 64 about 10 but a longer
 * tail, 96 worse again (the store buffer holds 64 entries there).
 */
#define LIT_STUFF_LINES		48
#define LIT_LINGER_NS		2000
/*
 * Most the reader holding the old object lingers waiting for the grace
 * period to return: several times the litmus grace period of memb, signal
 * and bp on the 2-CPU VM (mean 20-30 us), short enough that the rounds in
 * which a correct grace period waits for the reader (5-20 %) cost less
 * than the rest.
 */
#define LIT_HOLD_NS		100000
/* Random per-round delays, in iterations of an empty loop (about a cycle). */
#define LIT_READER_DELAY	64
#define LIT_UPDATER_DELAY	512
/* The last arriver starts the round this far ahead (see lit_wait_until). */
#define LIT_GO_AHEAD_NS		1000
/*
 * A party waiting at the barrier spins this long, then sleeps (a
 * preempted partner), each sleep bounded by LIT_SLEEP_NS so that a stop is
 * noticed.  Longer than most grace periods of a round (membarrier(2), a
 * signal round: 10-30 us on the 2-CPU VM), which the reader waits out at
 * the barrier: a shorter spin puts it to sleep in most rounds of an idle
 * machine (a third of the round rate); a longer one keeps a partner that
 * shares its CPU with a CPU hog waiting longer before it is woken.
 * Measured with stale-snapshot on the 2-CPU VM beside stress-ng --cpu 8
 * (docs/TORTURE-SEEDED.md): 30 us, 24 of 24 runs caught within 3.3 s;
 * 60 us, 24 of 24 within 5.9 s; sched_yield() every 4096 spins
 * (before), 23 of 30.
 */
#define LIT_SPIN_NS		30000
#define LIT_SLEEP_NS		1000000
/* Barrier passes at most per round (see lit_round). */
#define LIT_PASSES		3

struct lit_obj {
	uint64_t val;
} __attribute__((aligned(64)));

/* Run-wide state (run->mode_data); every hot word on its own line. */
struct lit_shared {
	struct lit_obj obj[2];
	struct lit_obj *ptr __attribute__((aligned(64)));
	unsigned int arrived __attribute__((aligned(64)));
	unsigned int sense __attribute__((aligned(64)));
	/* Parties asleep on sense (futex), and whether the pass just
	 * released woke any (then every party runs another pass). */
	unsigned int sleepers;
	int woke;
	int done __attribute__((aligned(64)));	/* a thread left: the barrier is over */
	/* The updater's rounds whose synchronize_rcu returned (poison stored). */
	uint64_t returned __attribute__((aligned(64)));
	uint64_t go;				/* the round's start time, ut_now_ns() */
	/* Implicit rounds: from go to the reader's pointer load (moving
	 * average, relaxed; written by reader 0, read by the updater). */
	uint64_t implicit_ns __attribute__((aligned(64)));
	int parties;
	unsigned char stuff[LIT_STUFF_LINES][64] __attribute__((aligned(64)));
};

/* Per-thread counters (t->mode_data), written by the owner only. */
struct lit_thread {
	uint64_t rounds;
	uint64_t saw_old;	/* reader: loaded the object the round replaces */
	uint64_t saw_new;
	uint64_t implicit;	/* reader: rounds whose read_lock registered it */
	uint64_t unregister;	/* reader: rounds that unregistered in the section */
	uint64_t first_fail_ns;	/* since the run's start; 0 none */
};

/* The combination's figures (res->mode_data). */
struct lit_result {
	uint64_t rounds;
	uint64_t saw_old, saw_new;
	uint64_t implicit, unregister;
	uint64_t failures;
	uint64_t first_fail_ns;	/* 0: none */
};

static void lit_delay(unsigned long n)
{
	while (n--)
		__asm__ __volatile__("" ::: "memory");
}

/*
 * Every party starts the round at the time the last arriver set: the one
 * that releases the barrier would otherwise start a cache-line transfer
 * (about 100 ns) before the others, always the same side of the race.
 */
static void lit_wait_until(uint64_t t)
{
	while (ut_now_ns() < t)
		__asm__ __volatile__("" ::: "memory");
}

/*
 * One pass of a sense-reversing barrier for every party.  False when a
 * thread has left (or the run stops): the caller leaves too.
 *
 * A party that spun LIT_SPIN_NS sleeps on the sense word (futex) until
 * the releaser wakes it.  On a machine with more runnable threads than
 * CPUs this matters: a party that yields its CPU to a CPU hog comes back
 * after the hog's time slice (milliseconds), and the round waits for it;
 * a party woken from sleep is run soon by the scheduler (it is owed CPU
 * time), so the parties run together again within microseconds.  L->woke
 * tells every party whether the pass found a sleeper (lit_round).
 */
static bool lit_pass(struct lit_shared *L, struct ut_run *run, unsigned int *sense)
{
	unsigned int s = *sense ^ 1;
	unsigned long spins = 0;
	uint64_t spin_start = ut_now_ns();

	*sense = s;
	/*
	 * Full barrier (value-returning RMW): this thread's accesses of the
	 * round are done before the last arriver releases the next one; and
	 * the load of sleepers below comes after it.
	 */
	if (uatomic_add_return(&L->arrived, 1) == (unsigned int)L->parties) {
		uatomic_set(&L->arrived, 0);
		/* Both published by the release store of sense below. */
		L->go = ut_now_ns() + LIT_GO_AHEAD_NS;
		L->woke = uatomic_read(&L->sleepers) != 0;
		/* Release: pairs with the waiters' acquire load of sense below;
		 * the reset of arrived, go, woke and every party's round
		 * precede it. */
		__atomic_store_n(&L->sense, s, __ATOMIC_RELEASE);
		/*
		 * Full barrier: the sense store before the load of sleepers,
		 * as a sleeper's increment of sleepers (a full-barrier RMW)
		 * comes before its futex's check of sense: one of the two
		 * sees the other (store buffering, both fenced), so no sleeper
		 * is left to its timeout.
		 */
		cmm_smp_mb();
		if (uatomic_read(&L->sleepers))
			syscall(SYS_futex, &L->sense, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
		if (uatomic_read(&L->done))
			return false;
		lit_wait_until(L->go);
		return true;
	}
	/* Acquire: pairs with the release store of sense above. */
	while (__atomic_load_n(&L->sense, __ATOMIC_ACQUIRE) != s) {
		if (uatomic_read(&L->done) || ut_should_stop(run))
			return false;
		caa_cpu_relax();
		if (++spins % 64 || ut_now_ns() - spin_start < LIT_SPIN_NS)
			continue;
		/* Full barrier (RMW): pairs with the releaser's cmm_smp_mb. */
		uatomic_add_return(&L->sleepers, 1);
		syscall(SYS_futex, &L->sense, FUTEX_WAIT_PRIVATE, s ^ 1,
			&(struct timespec){ .tv_nsec = LIT_SLEEP_NS }, NULL, 0);
		uatomic_add(&L->sleepers, -1);
		spin_start = ut_now_ns();
	}
	lit_wait_until(L->go);
	return true;
}

/*
 * The start of a round: barrier passes until one finds no party asleep
 * (all of them were running, and start together at go), at most
 * LIT_PASSES.  A pass that woke a party is followed by another, in which
 * the woken party, running by then, meets the others within microseconds.
 * Every party reads the same L->woke (written by the pass's releaser
 * before its release store of sense), so all run the same passes.
 */
static bool lit_round(struct lit_shared *L, struct ut_run *run, unsigned int *sense)
{
	for (int pass = 0; pass < LIT_PASSES; pass++) {
		if (!lit_pass(L, run, sense))
			return false;
		/* After the acquire load of sense (or, for the releaser, its own
		 * store); the next pass's releaser cannot overwrite it before
		 * this party has arrived there. */
		if (!L->woke)
			break;
	}
	return true;
}

/*
 * Inside the section with the old object: wait until the updater's round
 * (its rounds count after it, the reader's own count + 1: the barrier
 * keeps them in step) has returned from synchronize_rcu, or LIT_HOLD_NS.
 */
static void lit_hold(struct lit_shared *L, uint64_t round)
{
	uint64_t end = ut_now_ns() + LIT_HOLD_NS;

	/*
	 * Acquire: pairs with the updater's release store of returned, which
	 * follows its poison store: seen returned, the poison is seen too.
	 */
	while (__atomic_load_n(&L->returned, __ATOMIC_ACQUIRE) != round
	       && ut_now_ns() < end)
		caa_cpu_relax();
}

static void lit_leave(struct lit_shared *L)
{
	uatomic_set(&L->done, 1);
}

static void *lit_reader(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct lit_shared *L = run->mode_data;
	struct lit_thread *me = t->mode_data;
	unsigned int sense = 0;
	bool implicit = ut_implicit_on(run, &lit_opts[LIT_OPT_NO_IMPLICIT]);
	enum lit_round kind = LIT_PLAIN;
	bool registered = true;

	ut_thread_begin(t);
	if (ops->is_qsbr)
		ops->thread_offline();	/* online only inside the section */
	ut_thread_set_state(t, "barrier");
	for (;;) {
		/* Round n replaces obj[n % 2] by the other (lit_updater). */
		struct lit_obj *old = &L->obj[me->rounds & 1], *p;
		uint64_t v;

		/* Rounds 1 and 3 of every 4 misuse registration: see the top. */
		if (implicit)
			kind = (me->rounds & 1) ? (me->rounds & 2 ? LIT_UNREGISTER : LIT_IMPLICIT)
						: LIT_PLAIN;
		if (kind == LIT_IMPLICIT) {
			ops->unregister_thread();
			registered = false;
		}
		if (ut_should_stop(run) || !lit_round(L, run, &sense))
			break;
		lit_delay(ut_rng_below(&t->rng, LIT_READER_DELAY));
		/* Lines the updater wrote last: each store needs ownership. */
		for (int i = 0; i < LIT_STUFF_LINES; i++)
			CMM_STORE_SHARED(L->stuff[i][0], (unsigned char)me->rounds);
		if (ops->is_qsbr)
			ops->thread_online();
		ops->read_lock();
		if (kind == LIT_UNREGISTER)
			ops->unregister_thread();
		/*
		 * Acquire (rcu_dereference): pairs with the updater's release
		 * store of ptr; the object's LIT_VALID is seen with it.  The
		 * order of this load after the word published by read_lock
		 * is the flavor's business: that is what is tested.
		 */
		p = __atomic_load_n(&L->ptr, __ATOMIC_ACQUIRE);
		if (kind == LIT_IMPLICIT && t->idx == 0) {
			uint64_t took = ut_now_ns() - L->go, avg = __atomic_load_n(&L->implicit_ns, __ATOMIC_RELAXED);

			__atomic_store_n(&L->implicit_ns, avg ? (avg * 7 + took) / 8 : took, __ATOMIC_RELAXED);
		}
		if (p == old)
			lit_hold(L, me->rounds + 1);
		else
			ut_spin_ns(LIT_LINGER_NS);
		v = CMM_LOAD_SHARED(p->val);
		ops->read_unlock();
		if (ops->is_qsbr)
			ops->thread_offline();
		if (kind != LIT_PLAIN) {
			/* Explicit again: adopts the implicit registration. */
			ops->register_thread();
			registered = true;
			ut_misuse_caused(run, 1);
			ut_count(kind == LIT_IMPLICIT ? &me->implicit : &me->unregister, 1);
		}
		ut_count(p == old ? &me->saw_old : &me->saw_new, 1);
		ut_count(&me->rounds, 1);
		ut_count(&t->reads, 1);
		ut_count(&t->progress, 1);
		if (caa_unlikely(v != LIT_VALID)) {
			ut_count(&t->mode_errors[0], 1);
			if (!me->first_fail_ns)
				me->first_fail_ns = ut_now_ns() - run->t_start_ns;
			ut_out(&run->cfg->inv->sink,
			       "!!! litmus: %s reader %d: object %s inside its read-side section (round %llu, %.3f s)\n",
			       ops->name, t->idx, v == LIT_POISON ? "poisoned" : "corrupted",
			       (unsigned long long)me->rounds, me->first_fail_ns / 1e9);
			/* Found: stop the run (the duration is only a cap). */
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	/* An implicit round that did not run left the thread unregistered. */
	if (!registered)
		ops->register_thread();
	lit_leave(L);
	if (ops->is_qsbr)
		ops->thread_online();
	ut_thread_end(t);
	return NULL;
}

static void *lit_updater(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct lit_shared *L = run->mode_data;
	struct lit_thread *me = t->mode_data;
	unsigned int sense = 0, c = 0;
	bool implicit = ut_implicit_on(run, &lit_opts[LIT_OPT_NO_IMPLICIT]);

	ut_thread_begin(t);
	ut_thread_set_state(t, "barrier");
	while (!ut_should_stop(run) && lit_round(L, run, &sense)) {
		struct lit_obj *old = &L->obj[c], *next = &L->obj[c ^ 1];

		/* Unreachable since the last round's grace period. */
		CMM_STORE_SHARED(next->val, LIT_VALID);
		if (implicit && (me->rounds & 3) == 1) {
			uint64_t reg = __atomic_load_n(&L->implicit_ns, __ATOMIC_RELAXED);

			lit_wait_until(L->go + reg / 4 + ut_rng_below(&t->rng, reg + 1));
		} else {
			lit_delay(ut_rng_below(&t->rng, LIT_UPDATER_DELAY));
		}
		/* Release (rcu_assign_pointer): pairs with the readers'
		 * acquire load of ptr; next's LIT_VALID is visible first. */
		__atomic_store_n(&L->ptr, next, __ATOMIC_RELEASE);
		ops->synchronize_rcu();
		/* No reader may still hold old: poison it at once. */
		CMM_STORE_SHARED(old->val, LIT_POISON);
		/* Release: pairs with lit_hold's acquire load; the poison first. */
		__atomic_store_n(&L->returned, me->rounds + 1, __ATOMIC_RELEASE);
		for (int i = 0; i < LIT_STUFF_LINES; i++)
			CMM_STORE_SHARED(L->stuff[i][0], (unsigned char)c);
		c ^= 1;
		ut_count(&me->rounds, 1);
		ut_count(&t->gps, 1);
		ut_count(&t->updates, 1);
		ut_count(&t->progress, 1);
	}
	lit_leave(L);
	ut_thread_end(t);
	return NULL;
}

static void lit_count(const struct ut_config *cfg, int n[], bool posts[])
{
	(void) posts;
	n[LIT_READER] = cfg->readers;
	n[LIT_UPDATER] = 1;
}

static int lit_configure(struct ut_config *cfg, char *err, size_t len)
{
	if (!ut_given(cfg, "readers"))
		cfg->readers = cfg->plan_cpus > 1 ? cfg->plan_cpus - 1 : 1;
	if (cfg->readers < 1) {
		snprintf(err, len, "--readers: litmus needs at least one reader");
		return -1;
	}
	/* Distinct CPUs unless the command line placed the threads itself:
	 * scatter for both roles (the updater avoids the readers' CPUs). */
	for (int r = UT_ROLE_READER; r <= UT_ROLE_UPDATER; r++) {
		if (cfg->pin_text[r] || cfg->pin[r].kind != UT_PIN_NONE)
			continue;
		ut_pin_policy_free(&cfg->pin[r]);
		if (ut_pin_policy_parse("scatter", cfg->topo, &cfg->pin[r], err, len))
			return -1;
		cfg->pin_text[r] = "scatter";	/* as the start line shows it */
	}
	return 0;
}

static int lit_setup(struct ut_run *run)
{
	struct lit_shared *L = aligned_alloc(64, sizeof(*L));

	if (!L)
		return -1;
	memset(L, 0, sizeof(*L));
	L->parties = run->nthreads;
	L->obj[0].val = LIT_VALID;
	L->ptr = &L->obj[0];
	run->mode_data = L;	/* free()d by run.c */
	return 0;
}

static void lit_finish(struct ut_run *run)
{
	struct lit_result *r = run->res->mode_data;

	if (!r)
		return;
	for (int i = 0; i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];
		struct lit_thread *m = t->mode_data;

		if (!m)
			continue;
		if (t->role == LIT_UPDATER)
			r->rounds += m->rounds;
		r->saw_old += m->saw_old;
		r->saw_new += m->saw_new;
		r->implicit += m->implicit;
		r->unregister += m->unregister;
		r->failures += t->mode_errors[0];
		if (m->first_fail_ns && (!r->first_fail_ns || m->first_fail_ns < r->first_fail_ns))
			r->first_fail_ns = m->first_fail_ns;
	}
	run->res->gp_lat_what = "synchronize_rcu";
}

static void lit_stat(struct ut_run *run, char *buf, size_t len)
{
	uint64_t rounds = 0, old = 0, new = 0;

	for (int i = 0; i < run->nthreads; i++) {
		struct lit_thread *m = run->threads[i].mode_data;

		if (run->threads[i].role == LIT_UPDATER)
			rounds += ut_read(&m->rounds);
		old += ut_read(&m->saw_old);
		new += ut_read(&m->saw_new);
	}
	snprintf(buf, len, "rounds %llu reader saw old %llu new %llu", (unsigned long long)rounds,
		 (unsigned long long)old, (unsigned long long)new);
}

static void lit_report(const struct ut_config *cfg, const struct ut_result *r, enum ut_section at)
{
	const struct lit_result *l = r->mode_data;

	if (at != UT_SECTION_COUNTS || !l)
		return;
	ut_out(&cfg->inv->sink, "  litmus rounds   %llu (%.3g/s); readers saw the old object %llu, the new %llu\n",
	       (unsigned long long)l->rounds, r->seconds > 0 ? l->rounds / r->seconds : 0,
	       (unsigned long long)l->saw_old, (unsigned long long)l->saw_new);
	if (r->flavor->implicit_register && !ut_opt(cfg, &lit_opts[LIT_OPT_NO_IMPLICIT]))
		ut_out(&cfg->inv->sink, "  litmus implicit %llu rounds registered by read_lock, %llu unregistering "
		       "inside the section\n", (unsigned long long)l->implicit,
		       (unsigned long long)l->unregister);
	if (l->first_fail_ns)
		ut_out(&cfg->inv->sink, "  litmus          first poisoned read after %.3f s\n",
		       l->first_fail_ns / 1e9);
}

static void lit_json(struct uj *j, const struct ut_config *cfg, const struct ut_result *r,
		     enum ut_section at)
{
	const struct lit_result *l = r->mode_data;

	if (at != UT_SECTION_COUNTS || !l)
		return;
	uj_obj(j, "litmus");
	uj_u64(j, "rounds", l->rounds);
	uj_u64(j, "saw_old", l->saw_old);
	uj_u64(j, "saw_new", l->saw_new);
	uj_u64(j, "failures", l->failures);
	if (r->flavor->implicit_register && !ut_opt(cfg, &lit_opts[LIT_OPT_NO_IMPLICIT])) {
		uj_u64(j, "implicit_rounds", l->implicit);
		uj_u64(j, "unregister_rounds", l->unregister);
	} else {
		uj_null(j, "implicit_rounds");
		uj_null(j, "unregister_rounds");
	}
	if (l->first_fail_ns)
		uj_dbl(j, "first_failure_s", l->first_fail_ns / 1e9);
	else
		uj_null(j, "first_failure_s");
	uj_end_obj(j);
}

const struct ut_mode_ops ut_mode_litmus = {
	.name = "litmus",
	.help = "litmus: readers and one updater race the store-buffering window\n"
		"  of read_lock against synchronize_rcu in millions of barrier-\n"
		"  synchronised rounds, threads on distinct CPUs; the old object\n"
		"  is poisoned when the grace period returns; the first poisoned\n"
		"  read fails the run (default readers: CPUs - 1)",
	.roles = lit_roles,
	.opts = lit_opts,
	.nroles = 2,
	.count = lit_count,
	.thread_size = sizeof(struct lit_thread),
	.result_size = sizeof(struct lit_result),
	.errors = lit_errors,
	.configure = lit_configure,
	.readers_check = true,
	.setup = lit_setup,
	.finish = lit_finish,
	.stat_line = lit_stat,
	.updates_include_gps = true,
	.report = lit_report,
	.json = lit_json,
};
