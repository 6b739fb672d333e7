/* SPDX-License-Identifier: MIT */
/*
 * stress mode: the pipeline-age detector (kernel rcutorture's method).
 *
 * One updater publishes a fresh object with rcu_assign_pointer and retires
 * the old one through a randomly chosen update-side API:
 *   sync     - onto the removed list, then synchronize_rcu;
 *   call_rcu - a callback chain: each invocation ages the object by one and
 *              re-posts it until it reaches --pipe-len;
 *   defer    - defer_rcu ages it once and moves it to the removed list;
 *   poll     - a polled cookie; once it reports complete the object is aged
 *              once and moved to the removed list.
 * After every synchronize_rcu the updater ages each object on the removed
 * list by one.  An object whose age reaches --pipe-len is poisoned and rests
 * on a FIFO before it is recycled (generation number bumped).
 *
 * Readers dereference the current object inside a read-side critical
 * section, linger, then read its age.  The first aging of an object happens
 * only after a grace period that began after its removal, so a reader that
 * found the object published can see age 0 (at most 1 given the list aging
 * slack); age >= 2 means a grace period ended while the reader was still
 * inside: a too-short grace period.  A poisoned flag or a changed generation
 * means the object was recycled under the reader.
 *
 * Fake updaters loop on synchronize_rcu (timing it) and now and then post a
 * few callbacks and check that rcu_barrier waited for all of them.  Polled
 * cookies are checked both ways: one taken inside a reader must not complete
 * while that reader runs; one taken before synchronize_rcu must be complete
 * after it.
 *
 * This is a correctness test, not a benchmark.
 */
#define _LGPL_SOURCE
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <urcu/pointer.h>

#include "callbacks.h"
#include "json.h"

enum { STRESS_READER, STRESS_UPDATER, STRESS_FAKE };

static const struct ut_mode_role stress_roles[] = {
	[STRESS_READER] = { "reader", UT_ROLE_READER, true },
	[STRESS_UPDATER] = { "updater", UT_ROLE_UPDATER, false },
	[STRESS_FAKE] = { "fake-updater", UT_ROLE_UPDATER, false },
};

/* Per-thread counters, and their sums in the result. */
struct stress_counts {
	uint64_t pipe[UT_MAX_PIPE + 1];	/* readers: pipeline age seen */
	uint64_t poll_checks;		/* polled-GP cookies checked */
};

struct obj {
	struct ut_cb cb;
	struct ut_run *run;
	uint64_t age;		/* relaxed; one writer at a time */
	uint64_t gen;		/* relaxed; bumped on recycle */
	int poison;		/* relaxed */
	struct obj *next;	/* removed list / free FIFO */
	struct obj *all_next;	/* every object, for the final free */
};

struct stress {
	struct obj *cur;		/* RCU-protected */
	pthread_mutex_t lock;		/* removed list, free FIFO, all list */
	struct obj *removed;
	struct obj *free_head, *free_tail;
	unsigned long nfree;
	struct obj *all;
	unsigned long nobjs;
};

/* Poisoned objects rest this long (in count) before reuse, to catch late readers. */
#define STRESS_FREE_REST	32
#define POLL_RING		64

enum { M_SYNC, M_CALL_RCU, M_DEFER, M_POLL, M_COUNT };

static struct stress *stress_of(struct ut_run *run)
{
	return run->mode_data;
}

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
		__atomic_store_n(&o->gen, o->gen + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&o->age, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&o->poison, 0, __ATOMIC_RELAXED);
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

/* Caller holds st->lock. */
static void obj_retire_locked(struct stress *st, struct obj *o)
{
	__atomic_store_n(&o->poison, 1, __ATOMIC_RELAXED);
	o->next = NULL;
	if (st->free_tail)
		st->free_tail->next = o;
	else
		st->free_head = o;
	st->free_tail = o;
	st->nfree++;
}

static void removed_add(struct ut_run *run, struct obj *o)
{
	struct stress *st = stress_of(run);

	pthread_mutex_lock(&st->lock);
	o->next = st->removed;
	st->removed = o;
	pthread_mutex_unlock(&st->lock);
}

/*
 * After a grace period: age everything on the removed list.  Objects that
 * joined the list during that grace period (from defer_rcu or a completed
 * poll) had a full grace period of their own already, so this never ages
 * an object that a reader may still hold.
 */
static void removed_age(struct ut_run *run)
{
	struct stress *st = stress_of(run);
	struct obj **pp;

	pthread_mutex_lock(&st->lock);
	pp = &st->removed;
	while (*pp) {
		struct obj *o = *pp;

		__atomic_store_n(&o->age, o->age + 1, __ATOMIC_RELAXED);
		if (o->age >= (uint64_t)run->cfg->pipe_len) {
			*pp = o->next;
			obj_retire_locked(st, o);
		} else {
			pp = &o->next;
		}
	}
	pthread_mutex_unlock(&st->lock);
}

static void chain_cb(struct rcu_head *head)
{
	struct obj *o = caa_container_of(head, struct obj, cb.head);
	struct ut_run *run = o->run;

	if (!ut_cb_begin(run, &o->cb))
		return;
	__atomic_store_n(&o->age, o->age + 1, __ATOMIC_RELAXED);
	if (o->age < (uint64_t)run->cfg->pipe_len) {
		ut_cb_post(run, NULL, &o->cb, chain_cb);
	} else {
		struct stress *st = stress_of(run);

		pthread_mutex_lock(&st->lock);
		obj_retire_locked(st, o);
		pthread_mutex_unlock(&st->lock);
	}
	ut_cb_end(run);
}

static void defer_fn(void *p)
{
	struct obj *o = p;

	__atomic_store_n(&o->age, o->age + 1, __ATOMIC_RELAXED);
	removed_add(o->run, o);
}

/* ---- readers ---- */

static void reader_linger(struct ut_thread *t)
{
	const struct ut_config *cfg = t->run->cfg;
	uint64_t r;

	if (cfg->read_delay_ns) {
		ut_spin_ns(cfg->read_delay_ns);
		return;
	}
	/* rcutorture-like: mostly short, sometimes long critical sections. */
	r = ut_rng_next(&t->rng);
	if ((r & 0xfff) == 0)
		ut_spin_ns(50000 + (r >> 40) % 50000);
	else if ((r & 0xf) == 0)
		ut_spin_ns(1000 + (r >> 40) % 4000);
}

static void *stress_reader(void *arg)
{
	struct ut_thread *t = arg;
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct stress *st = stress_of(run);
	struct stress_counts *c = t->mode_data;
	int pipe_len = run->cfg->pipe_len;

	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		struct obj *p;
		uint64_t gen, age;
		bool bad = false, poll_check = false;
		unsigned long cookie = 0;

		ops->read_lock();
		/* Pairs with rcu_assign_pointer in stress_updater. */
		p = rcu_dereference(st->cur);
		gen = __atomic_load_n(&p->gen, __ATOMIC_RELAXED);
		if (__atomic_load_n(&p->poison, __ATOMIC_RELAXED))
			bad = true;
		if (ops->start_poll && (ut_rng_next(&t->rng) & 0x3ff) == 0) {
			cookie = ops->start_poll();
			poll_check = true;
			ut_spin_ns(20000);
		}
		reader_linger(t);
		age = __atomic_load_n(&p->age, __ATOMIC_RELAXED);
		if (__atomic_load_n(&p->poison, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&p->gen, __ATOMIC_RELAXED) != gen)
			bad = true;
		if (poll_check && ops->poll_state(cookie))
			ut_count(&t->errors[UT_ERR_POLL_EARLY], 1);
		ops->read_unlock();
		ops->quiescent_state();

		if (poll_check)
			ut_count(&c->poll_checks, 1);
		if (bad)
			ut_count(&t->errors[UT_ERR_POISON], 1);
		if (age > (uint64_t)pipe_len)
			age = (uint64_t)pipe_len;
		ut_count(&c->pipe[age], 1);
		if (age >= 2)
			ut_count(&t->errors[UT_ERR_TOO_SHORT_GP], 1);
		ut_count(&t->reads, 1);
		ut_count(&t->progress, 1);
	}
	ut_thread_end(t);
	return NULL;
}

/* ---- the real updater ---- */

struct poll_slot {
	struct obj *o;
	unsigned long cookie;
};

static void poll_complete_all(struct ut_thread *t, struct poll_slot *ring, unsigned int *head,
			      unsigned int *tail, bool after_sync)
{
	const struct ut_flavor_ops *ops = t->run->ops;
	struct stress_counts *c = t->mode_data;

	while (*head != *tail) {
		struct poll_slot *s = &ring[*head % POLL_RING];

		if (!ops->poll_state(s->cookie)) {
			if (!after_sync)
				break;
			/* A cookie taken before a completed synchronize_rcu. */
			ut_count(&t->errors[UT_ERR_POLL_LATE], 1);
		}
		if (after_sync)
			ut_count(&c->poll_checks, 1);
		__atomic_store_n(&s->o->age, s->o->age + 1, __ATOMIC_RELAXED);
		removed_add(t->run, s->o);
		(*head)++;
	}
}

static void *stress_updater(void *arg)
{
	struct ut_thread *t = arg;
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct stress *st = stress_of(run);
	struct stress_counts *c = t->mode_data;
	struct poll_slot ring[POLL_RING];
	unsigned int head = 0, tail = 0;
	int methods[M_COUNT], nmethods = 0;

	ut_thread_begin(t);
	ops->defer_register_thread();
	methods[nmethods++] = M_SYNC;
	methods[nmethods++] = M_CALL_RCU;
	methods[nmethods++] = M_DEFER;
	if (ops->start_poll)
		methods[nmethods++] = M_POLL;

	while (!ut_should_stop(run)) {
		struct obj *n = obj_get(run), *old;
		int m = methods[ut_rng_below(&t->rng, (uint64_t)nmethods)];

		/* Keep memory bounded: past the bound, wait for a grace period. */
		if (m == M_CALL_RCU && ut_outstanding(run) >= run->cfg->max_outstanding)
			m = M_SYNC;

		if (!n) {
			ut_thread_set_state(t, "out of memory");
			ut_rcu_pause(t, 1000000);
			continue;
		}
		old = st->cur;	/* only this thread writes st->cur */
		/*
		 * Release: n's reset fields (age, poison, generation) are
		 * visible before n is; pairs with rcu_dereference in
		 * stress_reader.
		 */
		rcu_assign_pointer(st->cur, n);

		switch (m) {
		case M_SYNC: {
			unsigned long cookie = 0;
			uint64_t t0;

			removed_add(run, old);
			if (ops->start_poll)
				cookie = ops->start_poll();
			ut_thread_set_state(t, "synchronize_rcu");
			t0 = ut_now_ns();
			ops->synchronize_rcu();
			ut_hist_add(t->lat, ut_now_ns() - t0);
			ut_count(&t->gps, 1);
			if (ops->start_poll) {
				if (!ops->poll_state(cookie))
					ut_count(&t->errors[UT_ERR_POLL_LATE], 1);
				ut_count(&c->poll_checks, 1);
				poll_complete_all(t, ring, &head, &tail, true);
			}
			removed_age(run);
			break;
		}
		case M_CALL_RCU:
			ut_thread_set_state(t, "call_rcu");
			ut_cb_post(run, t, &old->cb, chain_cb);
			ut_outstanding_note(run);
			break;
		case M_DEFER:
			ut_thread_set_state(t, "defer_rcu");
			ops->defer_rcu(defer_fn, old);
			break;
		case M_POLL:
			ut_thread_set_state(t, "polled GP");
			if (tail - head >= POLL_RING) {
				ut_thread_set_state(t, "synchronize_rcu (poll ring full)");
				ops->synchronize_rcu();
				ut_count(&t->gps, 1);
				poll_complete_all(t, ring, &head, &tail, true);
				removed_age(run);
			}
			ring[tail % POLL_RING].o = old;
			ring[tail % POLL_RING].cookie = ops->start_poll();
			tail++;
			break;
		}
		if (ops->start_poll)
			poll_complete_all(t, ring, &head, &tail, false);
		ops->quiescent_state();
		ut_count(&t->updates, 1);
		ut_count(&t->progress, 1);
		ut_thread_set_state(t, "between updates");
		if (run->cfg->update_delay_ns)
			ut_rcu_pause(t, run->cfg->update_delay_ns);
	}
	if (head != tail) {
		ut_thread_set_state(t, "synchronize_rcu (final)");
		ops->synchronize_rcu();
		poll_complete_all(t, ring, &head, &tail, true);
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

static void *stress_fake(void *arg)
{
	struct ut_thread *t = arg;
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct barrier_cb bcb[4];
	uint64_t done;

	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		uint64_t t0, r = ut_rng_next(&t->rng);

		if ((r & 0xf) == 0) {
			done = 0;
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
				while (__atomic_load_n(&done, __ATOMIC_RELAXED) != 4 &&
				       !ops->is_busted)
					ut_rcu_pause(t, 1000000);
			}
			ut_count(&t->barriers, 1);
		} else {
			ut_thread_set_state(t, "synchronize_rcu");
			t0 = ut_now_ns();
			ops->synchronize_rcu();
			ut_hist_add(t->lat, ut_now_ns() - t0);
			ut_count(&t->gps, 1);
		}
		ops->quiescent_state();
		ut_count(&t->progress, 1);
		ut_thread_set_state(t, "sleeping");
		ut_rcu_pause(t, 1000 + (r >> 40) % 10000);
	}
	ut_thread_end(t);
	return NULL;
}

static void *stress_thread(void *arg)
{
	struct ut_thread *t = arg;

	switch (t->role) {
	case STRESS_READER: return stress_reader(arg);
	case STRESS_UPDATER: return stress_updater(arg);
	default: return stress_fake(arg);
	}
}

static void stress_count(const struct ut_config *cfg, int n[], bool posts[])
{
	n[STRESS_READER] = cfg->readers;
	n[STRESS_UPDATER] = 1;
	n[STRESS_FAKE] = cfg->fake_updaters;
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
	st->cur = obj_get(run);
	return st->cur ? 0 : -1;
}

static void stress_finish(struct ut_run *run)
{
	struct stress *st = stress_of(run);
	struct stress_counts *sum = run->res->mode_data;

	for (int i = 0; i < run->nthreads; i++) {
		const struct stress_counts *c = run->threads[i].mode_data;

		for (int a = 0; a <= UT_MAX_PIPE; a++)
			sum->pipe[a] += c->pipe[a];
		sum->poll_checks += c->poll_checks;
	}
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
	uint64_t reads = 0, updates = 0, gps = 0, pipe[UT_MAX_PIPE + 1] = { 0 };
	size_t off;

	for (int i = 0; i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];
		const struct stress_counts *c = t->mode_data;

		reads += ut_read(&t->reads);
		updates += ut_read(&t->updates);
		gps += ut_read(&t->gps);
		for (int a = 0; a <= run->cfg->pipe_len; a++)
			pipe[a] += ut_read(&c->pipe[a]);
	}
	off = (size_t)snprintf(buf, len, "reads %llu updates %llu gps %llu cbs %llu/%llu pipe:",
			       (unsigned long long)reads, (unsigned long long)updates,
			       (unsigned long long)gps,
			       (unsigned long long)__atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED),
			       (unsigned long long)__atomic_load_n(&run->cb_posted, __ATOMIC_RELAXED));
	for (int a = 0; a <= run->cfg->pipe_len && off < len; a++)
		off += (size_t)snprintf(buf + off, len - off, " %llu", (unsigned long long)pipe[a]);
}

/* The pipeline-age histogram and the polled-GP checks, after the callbacks. */
static void stress_report(const struct ut_config *cfg, const struct ut_result *r, enum ut_section at)
{
	const struct stress_counts *c = r->mode_data;
	char line[1024];
	size_t off;

	if (at != UT_SECTION_CHECKS || !c)
		return;
	off = (size_t)snprintf(line, sizeof(line), "  pipe ages      ");
	for (int a = 0; a <= cfg->pipe_len; a++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %llu",
					(unsigned long long)c->pipe[a]);
	ut_out(&cfg->sink, "%s\n", line);
	if (c->poll_checks)
		ut_out(&cfg->sink, "  polled checks   %llu\n", (unsigned long long)c->poll_checks);
}

static void stress_json(struct uj *j, const struct ut_config *cfg, const struct ut_result *r,
			enum ut_section at)
{
	const struct stress_counts *c = r->mode_data;

	if (at != UT_SECTION_CHECKS || !c)
		return;
	uj_arr(j, "pipe_histogram");
	for (int a = 0; a <= cfg->pipe_len; a++)
		uj_u64(j, NULL, c->pipe[a]);
	uj_end_arr(j);
	uj_u64(j, "poll_checks", c->poll_checks);
}

const struct ut_mode_ops ut_mode_stress = {
	.name = "stress",
	.help = "stress (default): readers, one updater walking objects\n"
		"  through the pipeline (rotating synchronize_rcu,\n"
		"  call_rcu, defer_rcu and the polled API), fake updaters",
	.roles = stress_roles,
	.nroles = 3,
	.count = stress_count,
	.readers_check = true,
	.thread_size = sizeof(struct stress_counts),
	.result_size = sizeof(struct stress_counts),
	.setup = stress_setup,
	.thread_fn = stress_thread,
	.finish = stress_finish,
	.stat_line = stress_stat,
	.report = stress_report,
	.json = stress_json,
};
