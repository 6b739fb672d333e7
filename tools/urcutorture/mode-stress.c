/* SPDX-License-Identifier: MIT */
/*
 * stress mode: exact per-object guarantee tracking.
 *
 * Objects live in two RCU-protected slots.  Slot 0 belongs to the updater:
 * each update publishes a fresh object there with rcu_assign_pointer and
 * retires the old one through a randomly chosen update-side API, its
 * "path":
 *   sync     - synchronize_rcu, then the object is freed;
 *   call_rcu - the object is freed by its call_rcu callback;
 *   defer    - the object is freed by its defer_rcu function;
 *   poll     - the object is freed once poll_state_synchronize_rcu reports
 *              the cookie taken at retirement complete.
 * Slot 1 (with at least one fake updater) belongs to fake updater 0, which
 * retires its objects through sync or call_rcu the same way, so that the
 * updater's own read-side sections (it reads slot 1) check grace periods
 * too: every registered thread of the run is a checking reader.
 *
 * "Freed" means poisoned: the object's state word becomes FREED|path the
 * moment its path's guarantee holds (synchronize_rcu returned, the callback
 * or the defer function ran, the cookie reported complete), with no extra
 * aging step.  It then rests on a FIFO before it is reused with a new
 * generation number.
 *
 * Why a reader can never see a correct run's object freed.  A reader
 * dereferences a slot inside a read-side critical section (qsbr: since its
 * last quiescent state or rcu_thread_online) and records the object and its
 * generation.  By RCU's fundamental guarantee, the grace period behind the
 * object's path either began after the reader's section began, and then
 * waits for the whole section, outermost unlock included; or it began
 * before, and then the section began after the removal (rcu_assign_pointer
 * of the successor, ordered before the grace period's start) and could not
 * have loaded the old pointer.  A reader that dereferenced the object
 * therefore ends its section before any of the four guarantees can
 * hold.  So a reader that finds, still inside the same section (at any
 * nesting depth, or after unlocking inner levels), an object it holds
 * FREED or with another generation has seen a grace period end early: the
 * error early_free_<path> names the path that freed it (the generation's
 * path is recorded at retirement, so a reused object is attributed too).
 *
 * Readers nest 1-3 deep, dereference at every level, linger at random
 * (mostly nothing, sometimes microseconds, now and then asleep or held
 * across a retirement),
 * and check what they hold after each inner unlock and at the outermost
 * one.  At the innermost level they sometimes post a call_rcu callback
 * (which must not run before the outermost unlock: reader_cb_early) or take
 * a polled cookie (which must not complete before it: poll_early), then
 * stay inside a while longer.  qsbr readers keep their references across
 * several sections without a quiescent state, then either announce one or
 * go offline (rcu_thread_offline, short or long, then rcu_thread_online).
 *
 * A churn thread starts short-lived reader threads (1 or 2 at a time, a few
 * to 20 ms each) that register (bp: register lazily on their first read
 * lock and leave it to thread exit), read like the readers, and unregister;
 * it reads itself meanwhile.  After each such round it starts a burst:
 * 8-16 threads that wait at a start gate until all of them run, are
 * released together by one store, register at the same instant (bp: their
 * first read lock), unregister and register again 32 times back to back
 * after their first section, read for 1-3 ms and unregister within the
 * same few milliseconds, so that registrations overlap each other, the burst's
 * unregistrations and the grace periods' scans of the registry: a
 * registration that links its record without the registry lock loses a
 * record (a reader no grace period waits for: early_free_*) or corrupts
 * the list (a scan that never ends or waits on a dead thread's word: the
 * watchdog's STALL; a dangling record: a crash, which is a verdict too).
 * Where the library registers threads implicitly (memb, mb and signal of
 * this library, unless --no-implicit), the churn's short-lived threads
 * (not the bursts') misuse the API in turn, as a liburcu program may: one
 * reads without ever registering (read_lock registers it, until it
 * unregisters outside a section or exits), one calls rcu_unregister_thread
 * inside a section (which must stay protected), one reads in its exit
 * destructor (a pthread key's, after unregistering: read_lock registers it
 * again, and the library's own key unregisters it).  The first section
 * after each of these holds an object across its retirement, and every
 * section is checked like any other; each misuse is counted for the
 * library's misuse_events check (ut_misuse_caused).
 * The updater, the fake updaters, the controller
 * (between hook) and the library's registered threads (from this mode's
 * callbacks and defer functions) read too, so a grace period that skips one
 * registry position, wherever it lies, skips a checking reader.  Some
 * sections hold an object across its retirement (rd_hold_across), the
 * window in which such a grace period frees it.
 *
 * Fake updaters time synchronize_rcu, post 8 plain callbacks per iteration
 * (volume) and now and then check that rcu_barrier waited for their
 * callbacks.  The pipeline-age histogram
 * (grace periods completed since a held object's retirement, capped at
 * --pipe-len) is report-only; the verdict comes from the exact checks.
 *
 * This is a correctness test, not a benchmark.
 */
#define _LGPL_SOURCE
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/pointer.h>

#include "callbacks.h"
#include "json.h"

enum { STRESS_READER, STRESS_UPDATER, STRESS_FAKE, STRESS_CHURN };

static void *stress_reader(struct ut_thread *t);
static void *stress_updater(struct ut_thread *t);
static void *stress_fake(struct ut_thread *t);
static void *stress_churn(struct ut_thread *t);

/* The stress mode's own options (parsed, printed and written by the shared
 * code from this table). */
enum { STRESS_OPT_FAKE, STRESS_OPT_PIPE_LEN, STRESS_OPT_UPDATE_DELAY, STRESS_OPT_NO_IMPLICIT };

static const struct ut_opt stress_opts[] = {
	[STRESS_OPT_FAKE] = { .name = "fake-updaters", .json = "fake_updaters", .type = UT_OPT_COUNT,
		.lo = 0, .hi = 1024, .def = 1,
		.help = "threads looping on synchronize_rcu and call_rcu + rcu_barrier checks" },
	[STRESS_OPT_PIPE_LEN] = { .name = "pipe-len", .json = "pipe_len", .type = UT_OPT_COUNT,
		.lo = 3, .hi = UT_MAX_PIPE, .def = 10,
		.help = "cap of the report-only pipeline-age histogram, 3..64" },
	[STRESS_OPT_UPDATE_DELAY] = { .name = "update-delay", .json = "update_delay_ns",
		.type = UT_OPT_DUR, .stall = UT_OPT_STALL_PAUSE, .help = "pause between updates" },
	[STRESS_OPT_NO_IMPLICIT] = UT_OPT_NO_IMPLICIT,
	{ NULL }
};

static const struct ut_mode_role stress_roles[] = {
	[STRESS_READER] = { "reader", UT_ROLE_READER, true, stress_reader },
	[STRESS_UPDATER] = { "updater", UT_ROLE_UPDATER, false, stress_updater },
	[STRESS_FAKE] = { "fake-updater", UT_ROLE_UPDATER, false, stress_fake },
	[STRESS_CHURN] = { "churn", UT_ROLE_READER, true, stress_churn },
};

/* Retirement paths; their order is the first mode errors'. */
enum { P_SYNC, P_CALL_RCU, P_DEFER, P_POLL, P_COUNT };
static const char *const path_names[P_COUNT] = { "sync", "call_rcu", "defer", "poll" };

enum { E_READER_CB = P_COUNT };
static const char *const stress_errors[] = {
	"early_free_sync", "early_free_call_rcu", "early_free_defer", "early_free_poll",
	"reader_cb_early", NULL
};

/*
 * Per-thread counters, and their sums in the result.  Only uint64_t
 * members: counts_add() adds them as an array.
 */
struct stress_counts {
	uint64_t pipe[UT_MAX_PIPE + 1];	/* held objects by grace periods since retirement */
	uint64_t poll_checks;		/* polled cookies checked (both ways) */
	uint64_t depth[4];		/* outermost sections by nesting depth 1..3 */
	uint64_t path_checks[P_COUNT];	/* held objects found retired (not freed) at release */
	uint64_t reader_cbs;		/* call_rcu posted inside a read-side section */
	uint64_t reader_polls;		/* cookies taken inside a read-side section */
	uint64_t churn_threads;		/* short-lived readers started (bursts included) */
	uint64_t churn_bursts;		/* bursts of them released together */
	uint64_t churn_burst_threads;	/* of the churn threads, those started in bursts */
	uint64_t churn_cycles;		/* their unregister-register cycles */
	uint64_t churn_errors;		/* errors those readers counted (bp: lazy registration) */
	uint64_t quiescent;		/* qsbr: quiescent states announced by readers */
	uint64_t offline_short;		/* qsbr: offline periods without a sleep */
	uint64_t offline_long;		/* qsbr: offline periods with a 1-5 ms sleep */
	uint64_t implicit_regs;		/* churn: read_lock registered an unregistered thread */
	uint64_t unreg_in_section;	/* churn: rcu_unregister_thread inside a section */
	uint64_t exit_sections;		/* churn: sections read in an exit destructor */
	uint64_t retired[P_COUNT];	/* result only: objects retired per path */
	uint64_t freed[P_COUNT];	/* result only: objects freed per path */
};

#define OBJ_RETIRED	0x10
#define OBJ_FREED	0x20
#define OBJ_PATH(s)	((s) & 0xf)
#define GEN_RING	8

struct obj {
	struct ut_cb cb;
	struct ut_run *run;
	uint64_t gen;		/* relaxed; bumped on reuse */
	int state;		/* 0 live, OBJ_RETIRED|path, OBJ_FREED|path */
	unsigned char path_of_gen[GEN_RING];	/* retirement path of generation g at [g % GEN_RING] */
	uint64_t retire_gps;	/* stress.gps at retirement (age histogram) */
	struct obj *next;	/* free FIFO */
	struct obj *all_next;	/* every object, for the final free */
};

#define NSLOTS		2

struct stress {
	struct obj *slot[NSLOTS];	/* RCU-protected; [0] updater's, [1] fake updater 0's */
	int nslots;
	bool lazy_bp;			/* bp: churn threads register on their first lock */
	bool implicit;			/* churn threads misuse registration in turn */
	pthread_mutex_t lock;		/* free FIFO, all list */
	struct obj *free_head, *free_tail;
	unsigned long nfree;
	struct obj *all;
	unsigned long nobjs;
	uint64_t gps;			/* relaxed: synchronize_rcu returns (age histogram) */
	uint64_t retired[P_COUNT];	/* relaxed atomics */
	uint64_t freed[P_COUNT];
	struct xrd *xrds;		/* under lock: the controller's and the library threads' */
	unsigned int nxrds;
	struct xrd *ctl;		/* the controller's (between hook) */
};

/* Freed objects rest this long (in count) before reuse, to catch late readers. */
#define STRESS_FREE_REST	32
#define POLL_RING		64
#define MAX_HELD		24

static struct stress *stress_of(struct ut_run *run)
{
	return run->mode_data;
}

static void counts_add(struct stress_counts *dst, const struct stress_counts *src)
{
	uint64_t *d = (uint64_t *)dst;
	const uint64_t *s = (const uint64_t *)src;

	for (size_t i = 0; i < sizeof(*dst) / sizeof(uint64_t); i++)
		if (s[i])
			ut_count(&d[i], s[i]);
}

/* ---- objects ---- */

static struct obj *obj_get(struct ut_run *run)
{
	struct stress *st = stress_of(run);
	struct obj *o = NULL;

	pthread_mutex_lock(&st->lock);
	if (st->nfree > STRESS_FREE_REST) {
		o = st->free_head;
		st->free_head = o->next;
		if (!st->free_head)
			st->free_tail = NULL;
		st->nfree--;
	}
	pthread_mutex_unlock(&st->lock);
	if (o) {
		/* Published later with rcu_assign_pointer (release). */
		__atomic_store_n(&o->gen, o->gen + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&o->state, 0, __ATOMIC_RELAXED);
		o->next = NULL;
		return o;
	}
	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->run = run;
	pthread_mutex_lock(&st->lock);
	o->all_next = st->all;
	st->all = o;
	st->nobjs++;
	pthread_mutex_unlock(&st->lock);
	return o;
}

/* Publish n in slot s (one writer per slot); returns the object it replaced. */
static struct obj *publish(struct stress *st, int s, struct obj *n)
{
	struct obj *old = st->slot[s];

	/*
	 * Release: n's reset generation and state are visible before n is;
	 * pairs with rcu_dereference in rd_hold.
	 */
	rcu_assign_pointer(st->slot[s], n);
	return old;
}

/* After the removal: record the path, then mark the object retired. */
static void obj_retire(struct stress *st, struct obj *o, int path)
{
	uint64_t g = __atomic_load_n(&o->gen, __ATOMIC_RELAXED);

	__atomic_store_n(&o->path_of_gen[g % GEN_RING], (unsigned char)path, __ATOMIC_RELAXED);
	__atomic_store_n(&o->retire_gps, __atomic_load_n(&st->gps, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	/*
	 * Release: the path and retire_gps are visible to a reader that sees
	 * the state (acquire in rd_verify); only the report's counts depend
	 * on it, the verdict does not.
	 */
	__atomic_store_n(&o->state, OBJ_RETIRED | path, __ATOMIC_RELEASE);
	__atomic_add_fetch(&st->retired[path], 1, __ATOMIC_RELAXED);
}

/* The path's guarantee holds: poison the object at once, then let it rest. */
static void obj_free(struct ut_run *run, struct obj *o, int path)
{
	struct stress *st = stress_of(run);

	/* Relaxed: a reader that sees it early has found the bug either way. */
	__atomic_store_n(&o->state, OBJ_FREED | path, __ATOMIC_RELAXED);
	__atomic_add_fetch(&st->freed[path], 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&st->lock);
	o->next = NULL;
	if (st->free_tail)
		st->free_tail->next = o;
	else
		st->free_head = o;
	st->free_tail = o;
	st->nfree++;
	pthread_mutex_unlock(&st->lock);
}

static void gp_done(struct stress *st)
{
	__atomic_add_fetch(&st->gps, 1, __ATOMIC_RELAXED);
}

static void lib_thread_read(struct ut_run *run);

static void free_cb(struct rcu_head *head)
{
	struct obj *o = caa_container_of(head, struct obj, cb.head);
	struct ut_run *run = o->run;

	if (ut_cb_begin(run, &o->cb)) {
		obj_free(run, o, P_CALL_RCU);
		lib_thread_read(run);
	}
	ut_cb_end(run);
}

static void defer_fn(void *p)
{
	struct obj *o = p;
	struct ut_run *run = o->run;

	obj_free(run, o, P_DEFER);
	lib_thread_read(run);
}

/* ---- readers: one context per reading thread (churn threads included) ---- */

struct held {
	struct obj *o;		/* NULL once reported */
	uint64_t gen;
};

/* A call_rcu posted inside a read-side section; freed by the last of the two. */
struct probe {
	struct ut_cb cb;
	struct ut_run *run;
	int ran;		/* relaxed: set by the callback */
	int refs;		/* the poster's and the callback's */
};

struct rd {
	struct ut_run *run;
	const struct ut_flavor_ops *ops;
	struct stress *st;
	struct ut_thread *t;	/* call_rcu routing; NULL for churn threads */
	struct ut_rng *rng;
	struct stress_counts *c;
	uint64_t *errors;	/* UT_ERR_COUNT */
	uint64_t *mode_errors;	/* UT_MODE_MAX_ERRORS */
	uint64_t *reads;
	struct held held[MAX_HELD];
	int nheld;
};

static void rd_init(struct rd *r, struct ut_run *run, struct ut_thread *t, struct ut_rng *rng,
		    struct stress_counts *c, uint64_t *errors, uint64_t *mode_errors,
		    uint64_t *reads)
{
	memset(r, 0, sizeof(*r));
	r->run = run;
	r->ops = run->ops;
	r->st = stress_of(run);
	r->t = t;
	r->rng = rng;
	r->c = c;
	r->errors = errors;
	r->mode_errors = mode_errors;
	r->reads = reads;
}

static void probe_put(struct probe *p)
{
	/*
	 * Acq-rel: the last owner sees the other's accesses (the callback's
	 * store of ran, the reader's load of it) done before it frees.
	 */
	if (__atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free(p);
}

static void probe_cb(struct rcu_head *head)
{
	struct probe *p = caa_container_of(head, struct probe, cb.head);
	struct ut_run *run = p->run;

	if (ut_cb_begin(run, &p->cb)) {
		__atomic_store_n(&p->ran, 1, __ATOMIC_RELAXED);
		probe_put(p);
	}
	ut_cb_end(run);
}

static struct probe *probe_post(struct rd *r)
{
	struct probe *p;

	if (ut_outstanding(r->run) >= r->run->cfg->max_outstanding)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->run = r->run;
	p->refs = 2;
	ut_cb_post(r->run, r->t, &p->cb, probe_cb);
	ut_count(&r->c->reader_cbs, 1);
	return p;
}

/* An object held by this reader was freed (or reused) under it. */
static void rd_fail(struct rd *r, int path)
{
	if (path < 0 || path >= P_COUNT)
		path = P_SYNC;
	ut_count(&r->mode_errors[path], 1);
}

/*
 * Hold across a retirement: sleep until an object this reader holds is
 * retired (at most wait_ns), then between a quarter of after_ns and after_ns
 * more.  The grace period behind the
 * retirement must wait for this reader, so one that skips it (wherever its
 * registry position) frees the object within that window.
 */
static void rd_hold_across(struct rd *r, uint64_t wait_ns, uint64_t after_ns)
{
	uint64_t deadline = ut_now_ns() + wait_ns;
	struct obj *o = NULL;

	for (int i = r->nheld - 1; i >= 0 && !o; i--)
		o = r->held[i].o;
	while (o && !__atomic_load_n(&o->state, __ATOMIC_RELAXED) && ut_now_ns() < deadline)
		ut_sleep_ns(100000);
	if (after_ns)
		ut_sleep_ns(after_ns / 4 + ut_rng_below(r->rng, after_ns - after_ns / 4));
}

/*
 * Linger inside a section: mostly not at all, sometimes 0.2-20 us of spin,
 * now and then 20-200 us asleep or held across a retirement (a grace period
 * that ends early has time to show).  --read-delay replaces it by a fixed
 * spin at the innermost level.
 */
static void rd_linger(struct rd *r, bool innermost)
{
	uint64_t x, span, fixed = r->run->cfg->read_delay_ns;
	unsigned int pick;

	if (fixed) {
		if (innermost)
			ut_spin_ns(fixed);
		return;
	}
	x = ut_rng_next(r->rng);
	pick = (unsigned int)(x % 100);
	span = x >> 32;
	if (pick < 60)
		return;
	if (pick < 85)
		ut_spin_ns(200 + span % 1800);
	else if (pick < 95)
		ut_spin_ns(2000 + span % 18000);
	else if (pick < 99)
		ut_sleep_ns(20000 + span % 180000);
	else
		rd_hold_across(r, 3000000, 2000000);
}

/* Dereference every slot; record what was found. */
static void rd_hold(struct rd *r)
{
	struct stress *st = r->st;

	for (int s = 0; s < st->nslots; s++) {
		/* Pairs with rcu_assign_pointer in publish(). */
		struct obj *o = rcu_dereference(st->slot[s]);
		uint64_t gen = __atomic_load_n(&o->gen, __ATOMIC_RELAXED);
		int state = __atomic_load_n(&o->state, __ATOMIC_RELAXED);

		if (state & OBJ_FREED) {
			rd_fail(r, OBJ_PATH(state));
			continue;
		}
		if (r->nheld < MAX_HELD) {
			r->held[r->nheld].o = o;
			r->held[r->nheld].gen = gen;
			r->nheld++;
		}
	}
}

/*
 * Check everything held: freed or reused means a grace period ended early.
 * final: the references are about to be dropped; count the checks.
 */
static void rd_verify(struct rd *r, bool final)
{
	struct stress_counts *c = r->c;
	uint64_t gps = __atomic_load_n(&r->st->gps, __ATOMIC_RELAXED);
	int cap = (int)ut_opt(r->run->cfg, &stress_opts[STRESS_OPT_PIPE_LEN]);

	for (int i = 0; i < r->nheld; i++) {
		struct held *h = &r->held[i];
		uint64_t g, age = 0;
		int s;

		if (!h->o)
			continue;
		/* Acquire: pairs with the release in obj_retire (report-only fields). */
		s = __atomic_load_n(&h->o->state, __ATOMIC_ACQUIRE);
		g = __atomic_load_n(&h->o->gen, __ATOMIC_RELAXED);
		if (g != h->gen) {
			rd_fail(r, __atomic_load_n(&h->o->path_of_gen[h->gen % GEN_RING],
						   __ATOMIC_RELAXED));
			h->o = NULL;
			continue;
		}
		if (s & OBJ_FREED) {
			rd_fail(r, OBJ_PATH(s));
			h->o = NULL;
			continue;
		}
		if (!final)
			continue;
		if (s & OBJ_RETIRED) {
			uint64_t at = __atomic_load_n(&h->o->retire_gps, __ATOMIC_RELAXED);

			ut_count(&c->path_checks[OBJ_PATH(s) % P_COUNT], 1);
			age = gps > at ? gps - at : 0;
		}
		ut_count(&c->pipe[age > (uint64_t)cap ? (uint64_t)cap : age], 1);
	}
}

/* Drop the references after a last check, still inside the section. */
static void rd_release(struct rd *r)
{
	rd_verify(r, true);
	r->nheld = 0;
}

/*
 * Last check inside the outermost section, before its unlock.  qsbr's
 * section goes on until the next quiescent state: rd_step or rd_quiesce
 * drops the references then; the other flavors drop them here.
 */
static void rd_section_end(struct rd *r)
{
	if (r->ops->is_qsbr)
		rd_verify(r, false);
	else
		rd_release(r);
}

/*
 * One outermost read-side section, nested 1-3 deep: dereference at every
 * level, sometimes post a callback or take a cookie at the innermost one,
 * check after every inner unlock and before the outermost one.
 */
static void rd_section(struct rd *r)
{
	const struct ut_flavor_ops *ops = r->ops;
	int depth = 1 + (int)ut_rng_below(r->rng, 3);
	struct probe *pr = NULL;
	bool polled = false;
	unsigned long cookie = 0;

	for (int lvl = 1; lvl <= depth; lvl++) {
		ops->read_lock();
		if (r->nheld + r->st->nslots > MAX_HELD)
			rd_verify(r, false);	/* qsbr: keep what is held, hold no more */
		rd_hold(r);
		if (lvl == depth) {
			uint64_t x = ut_rng_next(r->rng) & 0x3f;

			if (x == 0) {
				pr = probe_post(r);
			} else if (x == 1 && ops->start_poll) {
				cookie = ops->start_poll();
				polled = true;
				ut_count(&r->c->reader_polls, 1);
			}
		}
		rd_linger(r, lvl == depth);
	}
	for (int lvl = depth; lvl > 1; lvl--) {
		/*
		 * Now and then: wait for a retirement (its grace period may
		 * have begun), leave the inner level, then stay inside the
		 * outer ones a grace period's time.  An inner unlock that
		 * acts like the outermost one shows then.
		 */
		bool across = !r->run->cfg->read_delay_ns && !ut_rng_below(r->rng, 32);

		if (across)
			rd_hold_across(r, 3000000, 0);
		ops->read_unlock();
		/* Still inside level lvl - 1: everything held must stay live. */
		if (across)
			ut_sleep_ns(500000 + ut_rng_below(r->rng, 1500000));
		else
			rd_linger(r, false);
		rd_verify(r, false);
	}
	if (pr || polled)
		ut_sleep_ns(100000 + ut_rng_below(r->rng, 900000));
	rd_section_end(r);
	if (pr && __atomic_load_n(&pr->ran, __ATOMIC_RELAXED))
		ut_count(&r->mode_errors[E_READER_CB], 1);
	if (polled) {
		if (ops->poll_state(cookie))
			ut_count(&r->errors[UT_ERR_POLL_EARLY], 1);
		ut_count(&r->c->poll_checks, 1);
	}
	ops->read_unlock();
	if (pr)
		probe_put(pr);
	ut_count(&r->c->depth[depth], 1);
	ut_count(r->reads, 1);
}

/*
 * A reader's step: one section, then (qsbr) either keep the references for
 * the next section, or drop them and announce a quiescent state, or go
 * offline for a moment or for 1-5 ms.
 */
static void rd_step(struct rd *r)
{
	const struct ut_flavor_ops *ops = r->ops;
	unsigned int x;

	rd_section(r);
	if (!ops->is_qsbr) {
		ops->quiescent_state();
		return;
	}
	x = (unsigned int)ut_rng_below(r->rng, 100);
	if (x < 60 && r->nheld + 3 * r->st->nslots <= MAX_HELD)
		return;		/* online, no quiescent state: keep holding */
	rd_release(r);
	if (x < 88) {
		ops->quiescent_state();
		ut_count(&r->c->quiescent, 1);
	} else if (x < 98) {
		ops->thread_offline();
		ut_count(&r->c->offline_short, 1);
		ops->thread_online();
	} else {
		ops->thread_offline();
		ut_count(&r->c->offline_long, 1);
		ut_sleep_ns(1000000 + ut_rng_below(r->rng, 4000000));
		ops->thread_online();
	}
}

/* Leave the reading: (qsbr) last check and drop, then a quiescent state. */
static void rd_quiesce(struct rd *r)
{
	rd_release(r);
	r->ops->quiescent_state();
}

static struct rd *thread_rd(struct ut_thread *t, struct rd *r)
{
	rd_init(r, t->run, t, &t->rng, t->mode_data, t->errors, t->mode_errors, &t->reads);
	return r;
}

static void *stress_reader(struct ut_thread *t)
{
	struct rd r;

	thread_rd(t, &r);
	ut_thread_begin(t);
	while (!ut_should_stop(t->run)) {
		rd_step(&r);
		ut_count(&t->progress, 1);
	}
	rd_quiesce(&r);
	ut_thread_end(t);
	return NULL;
}

/*
 * ---- readers in threads the mode does not own ----
 *
 * The controller (registered by run.c) and the library's registered threads
 * (call_rcu workers, the defer thread) hold registry positions too; a grace
 * period that skipped one of them would go unseen if they never read.  So
 * the controller reads for 10-30 ms at each tick (between), and now and
 * then a call_rcu callback or defer function holds a section across a
 * retirement (rd_hold_across) in the thread that runs it (a registered reader, online
 * for qsbr while it runs callbacks).  Each thread gets a context of its own,
 * listed in the run's state and folded into the result at the end.
 */
/* A reader that is not one of the run's threads: its reader state, random
 * stream, counters and errors, folded into the result at the end. */
struct rd_own {
	struct rd r;
	struct ut_rng rng;
	struct stress_counts c;
	uint64_t errors[UT_ERR_COUNT];
	uint64_t mode_errors[UT_MODE_MAX_ERRORS];
	uint64_t reads;
};

static void rd_own_init(struct rd_own *o, struct ut_run *run, uint64_t stream)
{
	ut_rng_seed(&o->rng, run->cfg->seed, stream);
	rd_init(&o->r, run, NULL, &o->rng, &o->c, o->errors, o->mode_errors, &o->reads);
}

struct xrd {
	struct rd_own o;
	uint64_t next_ns;	/* lib_thread_read: the next section's earliest start */
	struct xrd *next;
};

static struct xrd *xrd_new(struct ut_run *run)
{
	struct stress *st = stress_of(run);
	struct xrd *x = calloc(1, sizeof(*x));
	unsigned int serial;

	if (!x)
		return NULL;
	pthread_mutex_lock(&st->lock);
	x->next = st->xrds;
	st->xrds = x;
	serial = st->nxrds++;
	pthread_mutex_unlock(&st->lock);
	rd_own_init(&x->o, run, 0x6362000000ull + serial);
	return x;
}

/* This thread's context for run (a library thread outlives a run). */
static __thread struct xrd *lib_xrd;
static __thread unsigned int lib_xrd_generation;

/*
 * Now and then (20-60 ms apart while callbacks come), one outermost section
 * held across a retirement: up to 4 ms waiting for it, then 1-4 ms more.
 */
static void lib_thread_read(struct ut_run *run)
{
	const struct ut_flavor_ops *ops = run->ops;
	struct xrd *x = lib_xrd;
	uint64_t now;

	if (!x || lib_xrd_generation != run->generation) {
		x = xrd_new(run);
		if (!x)
			return;
		lib_xrd = x;
		lib_xrd_generation = run->generation;
	}
	now = ut_now_ns();
	if (now < x->next_ns)
		return;
	x->next_ns = now + 20000000 + ut_rng_below(&x->o.rng, 40000000);
	ops->read_lock();
	rd_hold(&x->o.r);
	rd_hold_across(&x->o.r, 4000000, 4000000);
	rd_release(&x->o.r);
	ops->read_unlock();
	ut_count(&x->o.c.depth[1], 1);
	ut_count(&x->o.reads, 1);
}

static void stress_between(struct ut_run *run, uint64_t elapsed_ns)
{
	const struct ut_flavor_ops *ops = run->ops;
	struct xrd *x = stress_of(run)->ctl;
	uint64_t until;

	(void)elapsed_ns;
	if (!x)
		return;
	until = ut_now_ns() + 10000000 + ut_rng_below(&x->o.rng, 20000000);
	/* run.c keeps a qsbr controller offline between its calls. */
	if (ops->is_qsbr)
		ops->thread_online();
	while (ut_now_ns() < until && !ut_should_stop(run)) {
		rd_step(&x->o.r);
		if (!ut_rng_below(&x->o.rng, 64)) {
			ops->read_lock();
			rd_hold(&x->o.r);
			rd_hold_across(&x->o.r, 4000000, 4000000);
			rd_section_end(&x->o.r);
			ops->read_unlock();
		}
	}
	rd_quiesce(&x->o.r);
	if (ops->is_qsbr)
		ops->thread_offline();
}

/* ---- churn: short-lived readers ---- */

/* A burst's start gate: its threads count in, then wait for go. */
struct gate {
	int arrived;		/* relaxed: threads waiting at the gate */
	int go;			/* relaxed: set once, releases them */
};

/*
 * What a churn thread (not a burst's) does about registration.  Where the
 * flavor registers implicitly, the churn starts the kinds in turn;
 * otherwise every thread is CHILD_REGISTERED.
 */
enum child_kind {
	CHILD_REGISTERED,	/* registers (bp: lazily), reads, unregisters */
	CHILD_IMPLICIT,		/* never registers: read_lock does, 1-3 times */
	CHILD_UNREG_IN_SECTION,	/* unregisters inside sections, reads on */
	CHILD_EXIT_READS,	/* reads in its exit destructor, unregistered */
	CHILD_KINDS
};

struct child {
	struct rd_own o;
	enum child_kind kind;
	uint64_t until_ns;	/* a burst thread: its life after the gate, in ns */
	struct gate *gate;	/* NULL: not a burst thread */
	pthread_t tid;
};

/*
 * The churn threads' exit destructor (CHILD_EXIT_READS), created once for
 * the process: runs only in the threads that set it, the run's child as
 * its value.
 */
static pthread_key_t exit_key;
static bool exit_key_ok;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/*
 * Wait at the gate, spinning (with sched_yield: 16 spinners on 2 CPUs) so
 * that the threads on a CPU when go is stored register at once.  Relaxed:
 * the gate carries no data (each thread's context was written before
 * pthread_create, which orders it).
 */
static void gate_wait(struct child *ch)
{
	struct gate *g = ch->gate;

	__atomic_add_fetch(&g->arrived, 1, __ATOMIC_RELAXED);
	while (!__atomic_load_n(&g->go, __ATOMIC_RELAXED) && !ut_should_stop(ch->o.r.run))
		sched_yield();
	ch->until_ns += ut_now_ns();
}

/*
 * A burst thread, after its first section: BURST_CYCLES registrations and
 * unregistrations back to back (bp: an empty section registers it lazily,
 * rcu_unregister_thread ends it), so that the threads of a burst that run
 * at once on different CPUs register at the same instant again and again.
 * Ends registered, as it began.
 */
#define BURST_CYCLES	32

static void burst_cycles(struct rd *r, bool lazy)
{
	const struct ut_flavor_ops *ops = r->ops;

	rd_quiesce(r);
	for (int k = 0; k < BURST_CYCLES && !ut_should_stop(r->run); k++) {
		ops->unregister_thread();
		if (lazy) {
			ops->read_lock();
			ops->read_unlock();
		} else {
			ops->register_thread();
		}
	}
	ut_count(&r->c->churn_cycles, BURST_CYCLES);
}

/*
 * A thread's first section after registering, explicitly or implicitly (bp
 * and CHILD_IMPLICIT: this read_lock registers it): held across a
 * retirement, so that a registration that publishes the thread late, or
 * leaves it where grace periods do not look, shows then.  implicit: the
 * read_lock registers a thread that is not registered, a misuse the
 * library counts.
 */
static void child_first_section(struct rd *r, bool implicit)
{
	r->ops->read_lock();
	if (implicit) {
		ut_misuse_caused(r->run, 1);
		ut_count(&r->c->implicit_regs, 1);
	}
	rd_hold(r);
	rd_hold_across(r, 4000000, 4000000);
	rd_section_end(r);
	r->ops->read_unlock();
	ut_count(&r->c->depth[1], 1);
	ut_count(r->reads, 1);
}

/* Read until t (or the run stops), then drop the references. */
static void child_read_until(struct rd *r, uint64_t t)
{
	while (ut_now_ns() < t && !ut_should_stop(r->run))
		rd_step(r);
	rd_quiesce(r);
}

/*
 * CHILD_IMPLICIT: reads without registering.  Each read_lock of an
 * unregistered thread registers it until it unregisters (outside a
 * section: no misuse) or exits; it reads a while, then one to three times
 * unregisters and reads again.  The last registration is left to thread
 * exit half of the time (the library's key unregisters it).
 */
static void child_implicit(struct child *ch)
{
	struct rd *r = &ch->o.r;
	uint64_t t0 = ut_now_ns(), span = ch->until_ns > t0 ? ch->until_ns - t0 : 0;
	int times = 1 + (int)ut_rng_below(r->rng, 3);

	for (int i = 1; i <= times; i++) {
		child_first_section(r, true);
		child_read_until(r, t0 + span * (uint64_t)i / (uint64_t)times);
		if (i < times || ut_rng_below(r->rng, 2))
			r->ops->unregister_thread();
	}
}

/*
 * CHILD_UNREG_IN_SECTION: registered, it calls rcu_unregister_thread inside
 * a section (at depth 1 or 2), a misuse after which the thread stays
 * registered implicitly and the section protected: it then holds what it
 * read across a retirement and checks it (at each level).  Registering
 * again adopts the implicit registration (no misuse); the last one is left
 * to thread exit (CHILD_IMPLICIT unregisters such threads outside a
 * section; here a library that dropped the registration at once would
 * make that unregistration abort before the checks could tell).
 */
static void child_unreg_in_section(struct child *ch)
{
	struct rd *r = &ch->o.r;
	const struct ut_flavor_ops *ops = r->ops;
	uint64_t t0 = ut_now_ns(), span = ch->until_ns > t0 ? ch->until_ns - t0 : 0;
	int times = 1 + (int)ut_rng_below(r->rng, 3);

	ops->register_thread();
	for (int i = 1; i <= times; i++) {
		int depth = 1 + (int)ut_rng_below(r->rng, 2);

		for (int lvl = 1; lvl <= depth; lvl++) {
			ops->read_lock();
			rd_hold(r);
		}
		ops->unregister_thread();
		ut_misuse_caused(r->run, 1);
		ut_count(&r->c->unreg_in_section, 1);
		/* The grace period behind the retirement must wait for us. */
		rd_hold_across(r, 4000000, 4000000);
		rd_verify(r, false);
		if (depth > 1) {
			ops->read_unlock();
			rd_linger(r, false);
			rd_verify(r, false);
		}
		rd_section_end(r);
		ops->read_unlock();
		ut_count(&r->c->depth[depth], 1);
		ut_count(r->reads, 1);
		child_read_until(r, t0 + span * (uint64_t)i / (uint64_t)times);
		if (i < times)
			ops->register_thread();
	}
}

/*
 * CHILD_EXIT_READS's exit destructor: the thread unregistered before it
 * returned (so the library's own key has no value, and its exit cleanup has
 * not run), and its first read_lock here registers it implicitly: the
 * section must be protected like any other; the library's key, set by that
 * registration, unregisters it in the next round of destructors.
 */
static void child_exit_reads(void *arg)
{
	struct child *ch = arg;
	struct rd *r = &ch->o.r;
	int more = (int)ut_rng_below(r->rng, 8);

	child_first_section(r, true);
	ut_count(&r->c->exit_sections, 1);
	for (int i = 0; i < more && !ut_should_stop(r->run); i++) {
		rd_step(r);
		ut_count(&r->c->exit_sections, 1);
	}
	rd_quiesce(r);
}

static void exit_key_create(void)
{
	exit_key_ok = !pthread_key_create(&exit_key, child_exit_reads);
}

static void *child_fn(void *arg)
{
	struct child *ch = arg;
	struct rd *r = &ch->o.r;
	bool lazy = r->st->lazy_bp;

	switch (ch->kind) {
	case CHILD_IMPLICIT:
		child_implicit(ch);
		return NULL;
	case CHILD_UNREG_IN_SECTION:
		child_unreg_in_section(ch);
		return NULL;
	default:
		break;
	}
	if (ch->gate)
		gate_wait(ch);
	/* bp registers on the first read lock and unregisters at thread exit. */
	if (!lazy)
		r->ops->register_thread();
	child_first_section(r, false);
	if (ch->gate)
		burst_cycles(r, lazy);
	child_read_until(r, ch->until_ns);
	if (!lazy)
		r->ops->unregister_thread();
	/* Unregistered now: the destructor's first read_lock registers again. */
	if (ch->kind == CHILD_EXIT_READS && pthread_setspecific(exit_key, ch))
		ch->kind = CHILD_REGISTERED;
	return NULL;
}

static void child_fold(struct ut_thread *t, struct child *ch)
{
	for (int e = 0; e < UT_ERR_COUNT; e++)
		if (ch->o.errors[e])
			ut_count(&t->errors[e], ch->o.errors[e]);
	for (int e = 0; e < UT_MODE_MAX_ERRORS; e++)
		if (ch->o.mode_errors[e])
			ut_count(&t->mode_errors[e], ch->o.mode_errors[e]);
	ut_count(&t->reads, ch->o.reads);
	/* Which readers caught it: the churn is the only thread to register
	 * bp lazily, so a registration race shows here first. */
	ch->o.c.churn_errors = ut_errors_total(ch->o.errors, UT_ERR_COUNT) +
			     ut_errors_total(ch->o.mode_errors, UT_MODE_MAX_ERRORS);
	counts_add(t->mode_data, &ch->o.c);
}

/* Read beside the started kids until until (ns), then join and fold them. */
static void churn_read_join(struct ut_thread *t, struct rd *r, struct child **kids, int started,
			    uint64_t until)
{
	const struct ut_flavor_ops *ops = t->run->ops;

	ut_thread_set_state(t, "reading beside churn threads");
	while (ut_now_ns() < until && !ut_should_stop(t->run))
		rd_step(r);
	rd_quiesce(r);
	ut_thread_set_state(t, "joining churn threads");
	if (ops->is_qsbr)
		ops->thread_offline();
	for (int i = 0; i < started; i++) {
		pthread_join(kids[i]->tid, NULL);
		child_fold(t, kids[i]);
		free(kids[i]);
	}
	if (ops->is_qsbr)
		ops->thread_online();
}

#define BURST_MIN	8
#define BURST_MAX	16

/*
 * One burst: BURST_MIN..BURST_MAX threads started at the gate, released
 * together once all of them wait there (or after 200 ms: a thread the
 * machine did not run yet joins late), read beside, joined.
 */
static void churn_burst(struct ut_thread *t, struct rd *r, uint64_t *serial)
{
	struct ut_run *run = t->run;
	struct stress_counts *c = t->mode_data;
	struct child *kids[BURST_MAX];
	struct gate g = { 0, 0 };
	int n = BURST_MIN + (int)ut_rng_below(&t->rng, BURST_MAX - BURST_MIN + 1), started = 0;
	uint64_t limit;

	ut_thread_set_state(t, "starting a burst of churn threads");
	for (int i = 0; i < n; i++) {
		struct child *ch = calloc(1, sizeof(*ch));

		if (!ch)
			break;
		rd_own_init(&ch->o, run, 0x6368000000ull + (*serial)++);
		ch->gate = &g;
		ch->until_ns = 1000000 + ut_rng_below(&t->rng, 2000000);
		if (pthread_create(&ch->tid, NULL, child_fn, ch)) {
			free(ch);
			break;
		}
		kids[started++] = ch;
	}
	ut_thread_set_state(t, "waiting for a burst at its gate");
	limit = ut_now_ns() + 200000000ull;
	while (__atomic_load_n(&g.arrived, __ATOMIC_RELAXED) < started && !ut_should_stop(run) &&
	       ut_now_ns() < limit)
		sched_yield();
	/* Relaxed: see gate_wait(). */
	__atomic_store_n(&g.go, 1, __ATOMIC_RELAXED);
	ut_count(&c->churn_threads, (uint64_t)started);
	ut_count(&c->churn_burst_threads, (uint64_t)started);
	ut_count(&c->churn_bursts, 1);
	churn_read_join(t, r, kids, started, ut_now_ns() + 3000000);
}

static void *stress_churn(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	struct stress_counts *c = t->mode_data;
	uint64_t serial = 0;
	struct rd r;

	thread_rd(t, &r);
	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		struct child *kids[2] = { NULL, NULL };
		int n = 1 + (int)ut_rng_below(&t->rng, 2), started = 0;
		uint64_t until = 0;

		ut_thread_set_state(t, "starting churn threads");
		for (int i = 0; i < n; i++) {
			struct child *ch = calloc(1, sizeof(*ch));

			if (!ch)
				break;
			rd_own_init(&ch->o, run, 0x6368000000ull + serial);
			ch->kind = stress_of(run)->implicit ? (enum child_kind)(serial % CHILD_KINDS)
							    : CHILD_REGISTERED;
			if (ch->kind == CHILD_EXIT_READS && !exit_key_ok)
				ch->kind = CHILD_REGISTERED;
			serial++;
			ch->until_ns = ut_now_ns() + 3000000 + ut_rng_below(&t->rng, 17000000);
			if (pthread_create(&ch->tid, NULL, child_fn, ch)) {
				free(ch);
				break;
			}
			if (ch->until_ns > until)
				until = ch->until_ns;
			kids[started++] = ch;
		}
		ut_count(&c->churn_threads, (uint64_t)started);
		churn_read_join(t, &r, kids, started, until);
		if (!ut_should_stop(run))
			churn_burst(t, &r, &serial);
		ut_count(&t->progress, 1);
		ut_thread_set_state(t, "between churn rounds");
		ut_rcu_pause(t, 1000000 + ut_rng_below(&t->rng, 3000000));
	}
	ut_thread_end(t);
	return NULL;
}

/* ---- the real updater ---- */

struct poll_slot {
	struct obj *o;
	unsigned long cookie;
};

/* An updater's polled retirements: objects with their cookies, oldest at head. */
struct poll_ring {
	struct poll_slot slot[POLL_RING];
	unsigned int head, tail;
};

/*
 * Free the objects whose cookie completed, oldest first.  after_sync: a
 * synchronize_rcu returned since every cookie of the ring was taken, so all
 * must be complete (else poll_late).
 */
static void poll_complete_all(struct ut_thread *t, struct poll_ring *pr, bool after_sync)
{
	const struct ut_flavor_ops *ops = t->run->ops;
	struct stress_counts *c = t->mode_data;

	while (pr->head != pr->tail) {
		struct poll_slot *s = &pr->slot[pr->head % POLL_RING];

		if (!ops->poll_state(s->cookie)) {
			if (!after_sync)
				break;
			ut_count(&t->errors[UT_ERR_POLL_LATE], 1);
		}
		if (after_sync)
			ut_count(&c->poll_checks, 1);
		obj_free(t->run, s->o, P_POLL);
		pr->head++;
	}
}

static void timed_sync(struct ut_thread *t)
{
	uint64_t t0, t1;

	ut_thread_set_state(t, "synchronize_rcu");
	t0 = ut_now_ns();
	t->run->ops->synchronize_rcu();
	t1 = ut_now_ns();
	ut_hist_add(t->lat, t1 - t0);
	ut_gp_witness(t->run, t0, t1);
	ut_count(&t->gps, 1);
	gp_done(stress_of(t->run));
}

/* P_SYNC: retire old, free it after a timed grace period; a cookie taken before must be done. */
static void retire_sync(struct ut_thread *t, struct obj *old, struct poll_ring *pr)
{
	const struct ut_flavor_ops *ops = t->run->ops;
	struct stress_counts *c = t->mode_data;
	unsigned long cookie = 0;

	obj_retire(stress_of(t->run), old, P_SYNC);
	if (ops->start_poll)
		cookie = ops->start_poll();
	timed_sync(t);
	obj_free(t->run, old, P_SYNC);
	if (ops->start_poll) {
		if (!ops->poll_state(cookie))
			ut_count(&t->errors[UT_ERR_POLL_LATE], 1);
		ut_count(&c->poll_checks, 1);
		poll_complete_all(t, pr, true);
	}
}

/* P_POLL: retire old into the ring with a new cookie (ring full: a grace period first). */
static void retire_poll(struct ut_thread *t, struct obj *old, struct poll_ring *pr)
{
	ut_thread_set_state(t, "polled GP");
	if (pr->tail - pr->head >= POLL_RING) {
		timed_sync(t);
		poll_complete_all(t, pr, true);
	}
	obj_retire(stress_of(t->run), old, P_POLL);
	pr->slot[pr->tail % POLL_RING].o = old;
	pr->slot[pr->tail % POLL_RING].cookie = t->run->ops->start_poll();
	pr->tail++;
}

/* Retire old, just unpublished, by method m. */
static void retire_by(struct ut_thread *t, int m, struct obj *old, struct poll_ring *pr)
{
	struct ut_run *run = t->run;

	switch (m) {
	case P_SYNC:
		retire_sync(t, old, pr);
		break;
	case P_CALL_RCU:
		ut_thread_set_state(t, "call_rcu");
		obj_retire(stress_of(run), old, P_CALL_RCU);
		ut_cb_post(run, t, &old->cb, free_cb);
		ut_outstanding_note(run);
		break;
	case P_DEFER:
		ut_thread_set_state(t, "defer_rcu");
		obj_retire(stress_of(run), old, P_DEFER);
		run->ops->defer_rcu(defer_fn, old);
		break;
	case P_POLL:
		retire_poll(t, old, pr);
		break;
	}
}

/* Publish a new object, retire the old by a random method; false: out of memory. */
static bool update_once(struct ut_thread *t, const int *methods, int nmethods,
			struct poll_ring *pr)
{
	struct ut_run *run = t->run;
	struct obj *n = obj_get(run);
	int m = methods[ut_rng_below(&t->rng, (uint64_t)nmethods)];

	/* Keep memory bounded: past the bound, wait for a grace period. */
	if (m == P_CALL_RCU && ut_outstanding(run) >= run->cfg->max_outstanding)
		m = P_SYNC;
	if (!n) {
		ut_thread_set_state(t, "out of memory");
		ut_rcu_pause(t, 1000000);
		return false;
	}
	retire_by(t, m, publish(stress_of(run), 0, n), pr);
	if (run->ops->start_poll)
		poll_complete_all(t, pr, false);
	run->ops->quiescent_state();
	return true;
}

static void *stress_updater(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct stress *st = stress_of(run);
	struct poll_ring pr = { .head = 0, .tail = 0 };
	int methods[P_COUNT], nmethods = 0;
	uint64_t iter = 0;
	const uint64_t update_delay = ut_opt(run->cfg, &stress_opts[STRESS_OPT_UPDATE_DELAY]);
	struct rd r;

	thread_rd(t, &r);
	ut_thread_begin(t);
	ops->defer_register_thread();
	methods[nmethods++] = P_SYNC;
	methods[nmethods++] = P_CALL_RCU;
	methods[nmethods++] = P_DEFER;
	if (ops->start_poll)
		methods[nmethods++] = P_POLL;

	while (!ut_should_stop(run)) {
		if (!update_once(t, methods, nmethods, &pr))
			continue;
		/* The updater reads too (slot 1 is not its own): its registry
		 * position is checked like any reader's. */
		if ((++iter & 3) == 0 && st->nslots > 1) {
			ut_thread_set_state(t, "reading");
			rd_section(&r);
			rd_quiesce(&r);
		}
		ut_count(&t->updates, 1);
		ut_count(&t->progress, 1);
		ut_thread_set_state(t, "between updates");
		if (update_delay)
			ut_rcu_pause(t, update_delay);
	}
	if (pr.head != pr.tail) {
		timed_sync(t);
		ut_thread_set_state(t, "synchronize_rcu (final)");
		poll_complete_all(t, &pr, true);
	}
	ut_thread_set_state(t, "defer_unregister_thread");
	ops->defer_unregister_thread();
	ut_thread_end(t);
	return NULL;
}

/* ---- fake updaters ---- */

struct barrier_cb {
	struct ut_cb cb;
	struct ut_run *run;
	uint64_t *done;
};

static void barrier_check_cb(struct rcu_head *head)
{
	struct barrier_cb *b = caa_container_of(head, struct barrier_cb, cb.head);
	struct ut_run *run = b->run;

	if (ut_cb_begin(run, &b->cb))
		__atomic_add_fetch(b->done, 1, __ATOMIC_RELAXED);
	ut_cb_end(run);
}

static void fake_barrier_check(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct barrier_cb bcb[4];
	uint64_t done = 0;

	for (int i = 0; i < 4; i++) {
		bcb[i].run = run;
		bcb[i].done = &done;
		ut_cb_post(run, t, &bcb[i].cb, barrier_check_cb);
	}
	ut_thread_set_state(t, "rcu_barrier");
	ops->barrier();
	/* rcu_barrier is a full barrier after the callbacks ran. */
	if (__atomic_load_n(&done, __ATOMIC_RELAXED) != 4) {
		ut_count(&t->errors[UT_ERR_BARRIER], 1);
		/* The stack slots must outlive late callbacks. */
		while (__atomic_load_n(&done, __ATOMIC_RELAXED) != 4 && !ops->is_busted)
			ut_rcu_pause(t, 1000000);
	}
	ut_count(&t->barriers, 1);
}

/*
 * Plain callbacks for volume (the call_rcu machinery under load, and more
 * chances for the workers to read); the callback frees its own memory.
 */
struct extra_cb {
	struct ut_cb cb;
	struct ut_run *run;
};

static void extra_cb_fn(struct rcu_head *head)
{
	struct extra_cb *e = caa_container_of(head, struct extra_cb, cb.head);
	struct ut_run *run = e->run;
	bool first = ut_cb_begin(run, &e->cb);

	if (first)
		lib_thread_read(run);
	ut_cb_end(run);
	if (first)
		free(e);
}

static void post_extra(struct ut_thread *t, int n)
{
	struct ut_run *run = t->run;

	for (int i = 0; i < n && ut_outstanding(run) < run->cfg->max_outstanding; i++) {
		struct extra_cb *e = calloc(1, sizeof(*e));

		if (!e)
			return;
		e->run = run;
		ut_cb_post(run, t, &e->cb, extra_cb_fn);
	}
	ut_outstanding_note(run);
}

static void *stress_fake(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	struct stress *st = stress_of(run);
	bool owner = t->idx == 0 && st->nslots > 1;
	struct rd r;

	thread_rd(t, &r);
	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		uint64_t x = ut_rng_next(&t->rng);
		struct obj *n;

		if ((x & 0xf) == 0) {
			fake_barrier_check(t);
		} else if (owner && (n = obj_get(run)) != NULL) {
			/* Slot 1: retire through sync or call_rcu. */
			struct obj *old = publish(st, 1, n);

			if ((x & 0x10) && ut_outstanding(run) < run->cfg->max_outstanding) {
				obj_retire(st, old, P_CALL_RCU);
				ut_cb_post(run, t, &old->cb, free_cb);
				ut_outstanding_note(run);
			} else {
				obj_retire(st, old, P_SYNC);
				timed_sync(t);
				obj_free(run, old, P_SYNC);
			}
		} else {
			timed_sync(t);
		}
		post_extra(t, 8);
		run->ops->quiescent_state();
		ut_thread_set_state(t, "reading");
		rd_section(&r);
		rd_quiesce(&r);
		ut_count(&t->progress, 1);
		ut_thread_set_state(t, "sleeping");
		ut_rcu_pause(t, 1000 + (x >> 40) % 10000);
	}
	ut_thread_end(t);
	return NULL;
}

static void stress_count(const struct ut_config *cfg, int n[], bool posts[])
{
	n[STRESS_READER] = cfg->readers;
	n[STRESS_UPDATER] = 1;
	n[STRESS_FAKE] = (int)ut_opt(cfg, &stress_opts[STRESS_OPT_FAKE]);
	/* One churn thread whenever there are readers (--readers=0: no checks). */
	n[STRESS_CHURN] = cfg->readers > 0 ? 1 : 0;
	posts[STRESS_UPDATER] = true;
	posts[STRESS_FAKE] = true;
}

static int stress_setup(struct ut_run *run)
{
	struct stress *st = calloc(1, sizeof(*st));

	if (!st)
		return -1;
	pthread_mutex_init(&st->lock, NULL);
	run->mode_data = st;
	st->nslots = ut_opt(run->cfg, &stress_opts[STRESS_OPT_FAKE]) > 0 ? 2 : 1;
	st->lazy_bp = !strcmp(run->ops->name, "bp");
	st->implicit = ut_implicit_on(run, &stress_opts[STRESS_OPT_NO_IMPLICIT]);
	if (st->implicit && pthread_once(&exit_key_once, exit_key_create))
		return -1;
	st->ctl = xrd_new(run);
	if (!st->ctl)
		return -1;
	for (int s = 0; s < st->nslots; s++) {
		st->slot[s] = obj_get(run);
		if (!st->slot[s])
			return -1;
	}
	return 0;
}

static void stress_finish(struct ut_run *run)
{
	struct stress *st = stress_of(run);
	struct stress_counts *sum = run->res->mode_data;

	for (int i = 0; i < run->nthreads; i++) {
		const struct stress_counts *c = run->threads[i].mode_data;
		const uint64_t *s = (const uint64_t *)c;
		uint64_t *d = (uint64_t *)sum;

		for (size_t k = 0; k < sizeof(*sum) / sizeof(uint64_t); k++)
			d[k] += s[k];
	}
	/* The library threads are idle: the drain's rcu_barrier ordered their work before us. */
	while (st->xrds) {
		struct xrd *x = st->xrds;
		const uint64_t *s = (const uint64_t *)&x->o.c;
		uint64_t *d = (uint64_t *)sum;

		for (size_t k = 0; k < sizeof(*sum) / sizeof(uint64_t); k++)
			d[k] += __atomic_load_n(&s[k], __ATOMIC_RELAXED);
		for (int e = 0; e < UT_ERR_COUNT; e++)
			run->res->errors[e] += __atomic_load_n(&x->o.errors[e], __ATOMIC_RELAXED);
		for (int e = 0; e < UT_MODE_MAX_ERRORS; e++)
			run->res->mode_errors[e] += __atomic_load_n(&x->o.mode_errors[e],
								    __ATOMIC_RELAXED);
		run->res->reads += __atomic_load_n(&x->o.reads, __ATOMIC_RELAXED);
		st->xrds = x->next;
		free(x);
	}
	for (int p = 0; p < P_COUNT; p++) {
		sum->retired[p] = __atomic_load_n(&st->retired[p], __ATOMIC_RELAXED);
		sum->freed[p] = __atomic_load_n(&st->freed[p], __ATOMIC_RELAXED);
	}
	/* Every defer function must have run by defer_unregister_thread. */
	if (sum->retired[P_DEFER] > sum->freed[P_DEFER])
		run->res->errors[UT_ERR_CB_LOST] += sum->retired[P_DEFER] - sum->freed[P_DEFER];
	run->res->gp_lat_what = "synchronize_rcu";
	/* Every reader is gone and every callback ran: free the objects. */
	while (st->all) {
		struct obj *o = st->all;

		st->all = o->all_next;
		free(o);
	}
	pthread_mutex_destroy(&st->lock);
}

static void stress_stat(struct ut_run *run, char *buf, size_t len)
{
	char cbs[96];
	uint64_t reads = 0, updates = 0, gps = 0, checks[P_COUNT] = { 0 }, churn = 0;

	for (int i = 0; i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];
		const struct stress_counts *c = t->mode_data;

		reads += ut_read(&t->reads);
		updates += ut_read(&t->updates);
		gps += ut_read(&t->gps);
		for (int p = 0; p < P_COUNT; p++)
			checks[p] += ut_read(&c->path_checks[p]);
		churn += ut_read(&c->churn_threads);
	}
	ut_cbs_stat(run, cbs, sizeof(cbs));
	snprintf(buf, len, "reads %llu updates %llu gps %llu %s "
		 "checks sync/call_rcu/defer/poll %llu/%llu/%llu/%llu churn %llu",
		 (unsigned long long)reads, (unsigned long long)updates, (unsigned long long)gps, cbs,
		 (unsigned long long)checks[P_SYNC], (unsigned long long)checks[P_CALL_RCU],
		 (unsigned long long)checks[P_DEFER], (unsigned long long)checks[P_POLL],
		 (unsigned long long)churn);
}

/* The exact checks, nesting, churn, qsbr and the age histogram, after the callbacks. */
static void stress_report(const struct ut_config *cfg, const struct ut_result *r, enum ut_section at)
{
	const struct stress_counts *c = r->mode_data;
	char line[1024];
	size_t off;

	if (at != UT_SECTION_CHECKS || !c)
		return;
	off = (size_t)snprintf(line, sizeof(line), "  exact checks   ");
	for (int p = 0; p < P_COUNT; p++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %s=%llu", path_names[p],
					(unsigned long long)c->path_checks[p]);
	ut_out(&cfg->inv->sink, "%s  (held objects found retired, not yet freed)\n", line);
	off = (size_t)snprintf(line, sizeof(line), "  retired/freed  ");
	for (int p = 0; p < P_COUNT; p++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %s=%llu/%llu", path_names[p],
					(unsigned long long)c->retired[p],
					(unsigned long long)c->freed[p]);
	ut_out(&cfg->inv->sink, "%s\n", line);
	ut_out(&cfg->inv->sink, "  nesting         depth 1/2/3: %llu/%llu/%llu  call_rcu in readers %llu"
	       "  cookies in readers %llu\n",
	       (unsigned long long)c->depth[1], (unsigned long long)c->depth[2],
	       (unsigned long long)c->depth[3], (unsigned long long)c->reader_cbs,
	       (unsigned long long)c->reader_polls);
	ut_out(&cfg->inv->sink, "  churn threads   %llu, %llu of them in %llu bursts, %llu more "
	       "registrations (errors they counted: %llu)\n", (unsigned long long)c->churn_threads,
	       (unsigned long long)c->churn_burst_threads, (unsigned long long)c->churn_bursts,
	       (unsigned long long)c->churn_cycles, (unsigned long long)c->churn_errors);
	if (r->flavor->implicit_register && !ut_opt(cfg, &stress_opts[STRESS_OPT_NO_IMPLICIT]))
		ut_out(&cfg->inv->sink, "  implicit        %llu registrations by read_lock, %llu unregisters "
		       "inside a section, %llu sections in exit destructors\n",
		       (unsigned long long)c->implicit_regs, (unsigned long long)c->unreg_in_section,
		       (unsigned long long)c->exit_sections);
	if (r->flavor->is_qsbr)
		ut_out(&cfg->inv->sink, "  qsbr readers    %llu quiescent states, %llu short and %llu long "
		       "offline periods\n", (unsigned long long)c->quiescent,
		       (unsigned long long)c->offline_short, (unsigned long long)c->offline_long);
	off = (size_t)snprintf(line, sizeof(line), "  pipe ages      ");
	for (int a = 0; a <= (int)ut_opt(cfg, &stress_opts[STRESS_OPT_PIPE_LEN]); a++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %llu",
					(unsigned long long)c->pipe[a]);
	ut_out(&cfg->inv->sink, "%s  (reads that found an object 0, 1, 2, ... updates old; "
	       "report only)\n", line);
	if (c->poll_checks)
		ut_out(&cfg->inv->sink, "  polled checks   %llu\n", (unsigned long long)c->poll_checks);
}

static void json_paths(struct uj *j, const char *key, const uint64_t *v)
{
	uj_obj(j, key);
	for (int p = 0; p < P_COUNT; p++)
		uj_u64(j, path_names[p], v[p]);
	uj_end_obj(j);
}

static void stress_json(struct uj *j, const struct ut_config *cfg, const struct ut_result *r,
			enum ut_section at)
{
	const struct stress_counts *c = r->mode_data;

	if (at != UT_SECTION_CHECKS || !c)
		return;
	uj_arr(j, "pipe_histogram");
	for (int a = 0; a <= (int)ut_opt(cfg, &stress_opts[STRESS_OPT_PIPE_LEN]); a++)
		uj_u64(j, NULL, c->pipe[a]);
	uj_end_arr(j);
	uj_u64(j, "poll_checks", c->poll_checks);
	uj_obj(j, "stress");
	json_paths(j, "exact_checks", c->path_checks);
	json_paths(j, "retired", c->retired);
	json_paths(j, "freed", c->freed);
	uj_arr(j, "nesting_depth");
	for (int d = 1; d <= 3; d++)
		uj_u64(j, NULL, c->depth[d]);
	uj_end_arr(j);
	uj_u64(j, "reader_call_rcu", c->reader_cbs);
	uj_u64(j, "reader_polls", c->reader_polls);
	uj_u64(j, "churn_threads", c->churn_threads);
	uj_u64(j, "churn_errors", c->churn_errors);
	uj_u64(j, "churn_bursts", c->churn_bursts);
	uj_u64(j, "churn_burst_threads", c->churn_burst_threads);
	uj_u64(j, "churn_cycles", c->churn_cycles);
	uj_u64(j, "quiescent_states", c->quiescent);
	uj_u64(j, "offline_short", c->offline_short);
	uj_u64(j, "offline_long", c->offline_long);
	if (r->flavor->implicit_register && !ut_opt(cfg, &stress_opts[STRESS_OPT_NO_IMPLICIT])) {
		uj_obj(j, "implicit");
		uj_u64(j, "registrations", c->implicit_regs);
		uj_u64(j, "unregisters_in_section", c->unreg_in_section);
		uj_u64(j, "exit_destructor_sections", c->exit_sections);
		uj_end_obj(j);
	} else {
		uj_null(j, "implicit");
	}
	uj_end_obj(j);
}

const struct ut_mode_ops ut_mode_stress = {
	.name = "stress",
	.help = "stress (default): exact checks: readers (nested 1-3\n"
		"  deep, a churn of short-lived ones, qsbr going\n"
		"  offline) hold objects that one updater retires\n"
		"  through synchronize_rcu, call_rcu, defer_rcu and\n"
		"  the polled API; fake updaters",
	.roles = stress_roles,
	.opts = stress_opts,
	.nroles = 4,
	.count = stress_count,
	.errors = stress_errors,
	.readers_check = true,
	.thread_size = sizeof(struct stress_counts),
	.result_size = sizeof(struct stress_counts),
	.setup = stress_setup,
	.between = stress_between,
	.finish = stress_finish,
	.stat_line = stress_stat,
	.report = stress_report,
	.json = stress_json,
};
