/* SPDX-License-Identifier: MIT */
/*
 * Watchdog.  A thread samples the progress of the running combination every
 * 50 ms: the counters of the updaters, fake updaters and enqueuers (readers
 * only when there is nothing else), invoked callbacks and the controller's
 * phase counter.  If the sum does not move for --stall-timeout, or one
 * updater-side thread alone makes no progress that long while the others
 * do (an updater stuck in synchronize_rcu behind fake updaters), it prints
 * where every thread is, what is pending, and ends the process with exit 2,
 * so a hung grace period never turns into a silent CI timeout.
 *
 * Grace-period waits are watched on their own: run->ops is a copy of the
 * flavor's table whose synchronize_rcu and rcu_barrier bump a per-thread
 * sequence number on the way in and out (odd: waiting), and whose
 * start_poll and poll_state count cookies taken and seen complete.  The
 * wrappers do nothing else (no clock, no locked instruction), so they do
 * not change the windows the litmus and stress modes race in; the sampler
 * (gpw_sample, under wd_lock, every 50 ms and during the stop check) turns
 * the changes it sees into times: since when each thread waits, when a grace
 * period last completed, since when a cookie is pending.  Those times are
 * late by at most one sample, so waits look shorter than they are, never
 * longer.  A wait as old as --stall-timeout, or a polled cookie pending
 * that long with no grace period completed meanwhile, is a stall during the
 * run; and at the end of the duration the controller (ut_watchdog_at_stop)
 * lets the workload go on until the waits pending at that moment end,
 * reporting a stall if one reaches --stall-timeout first.  So grace periods
 * that stop completing are caught even when teardown (readers stopping,
 * unregistering) would later let them finish.  The counters are heuristics
 * read with relaxed atomics: nothing orders with them.
 *
 * The end phase (after the grace periods owed: the joins, the callback
 * drain, the mode's finish with its table checks and destroys, the
 * library's checks, the teardown, the controller's unregistration) is
 * watched to its last call that could wait, and bounded: besides the
 * progress sum, each step of the controller there (run->ctl_step, which a
 * mode's finish refines) must end within --stall-timeout, so that a step
 * that loops while moving counters (a drain whose rcu_barrier returns but
 * whose callbacks never all run, callbacks re-posting themselves forever)
 * is a stall too.  The report names the step, and the thread a join waits
 * for with its state.
 *
 * After the last combination's report the watchdog still runs, to the
 * process's end: its exit (atexit handlers, the library's destructors, which
 * stop call_rcu workers and join helper threads) must end within
 * --stall-timeout, or it writes one STALL line to stderr and ends the
 * process with exit 2 (ut_watchdog_exit_phase).  That phase touches only
 * this file's statics: the configuration is freed by then.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <urcu/compiler.h>

#include "ut.h"

static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ut_run *wd_run;
static const struct ut_config *wd_cfg;
static struct ut_session *wd_session;
/* The process's exit: since when (0: not yet), and its bound. */
static uint64_t wd_exit_since, wd_exit_timeout;

/* ---- grace-period waits: the timed copy of the flavor's table ---- */

#define GPW_SLOTS	256	/* threads timed per combination; more go untimed */

/* One thread's waits: written by that thread only, a cache line each. */
struct gpw_slot {
	unsigned long seq;	/* +1 entering a wait, +1 leaving it: odd = waiting */
	const char *what;	/* "synchronize_rcu" or "rcu_barrier" */
	pthread_t thread;	/* 0 until set */
} __attribute__((aligned(64)));

static struct {
	struct gpw_slot slot[GPW_SLOTS];
	const struct ut_flavor_ops *real;	/* the flavor's own table */
	unsigned int gen;			/* bumped per combination */
	int nslots;				/* slots handed out (may exceed GPW_SLOTS) */
	/* Cookies taken / seen complete: racy increments by any thread, read
	 * only as "it changed". */
	unsigned long polls_started __attribute__((aligned(64)));
	unsigned long polls_done;
} gpw;

/* What the sampler made of them (wd_lock). */
static struct {
	unsigned long seq[GPW_SLOTS];	/* the slot's seq at the last sample */
	uint64_t since[GPW_SLOTS];	/* the wait in progress was first seen */
	unsigned long polls_started, polls_done;
	uint64_t last_done;		/* a completion was first seen (or the run began) */
	uint64_t poll_since;		/* a cookie not known complete was first seen, 0: none */
} gps;

/* The calling thread's slot and the combination it belongs to. */
static __thread unsigned int gpw_my_gen;
static __thread int gpw_my_slot = -1;

static struct gpw_slot *gpw_self(void)
{
	unsigned int gen = __atomic_load_n(&gpw.gen, __ATOMIC_RELAXED);

	if (caa_unlikely(gpw_my_gen != gen)) {
		/* Once per thread and combination. */
		int i = __atomic_fetch_add(&gpw.nslots, 1, __ATOMIC_RELAXED);

		gpw_my_gen = gen;
		gpw_my_slot = i < GPW_SLOTS ? i : -1;
		if (gpw_my_slot >= 0)
			__atomic_store_n(&gpw.slot[i].thread, pthread_self(), __ATOMIC_RELAXED);
	}
	return gpw_my_slot >= 0 ? &gpw.slot[gpw_my_slot] : NULL;
}

static void gpw_bump(unsigned long *c)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

static void gpw_wait(void (*fn)(void), const char *what)
{
	struct gpw_slot *s = gpw_self();

	if (s) {
		__atomic_store_n(&s->what, what, __ATOMIC_RELAXED);
		gpw_bump(&s->seq);
	}
	fn();
	if (s)
		gpw_bump(&s->seq);
}

static void gpw_sync(void)
{
	gpw_wait(gpw.real->synchronize_rcu, "synchronize_rcu");
}

static void gpw_barrier(void)
{
	gpw_wait(gpw.real->barrier, "rcu_barrier");
}

static unsigned long gpw_start_poll(void)
{
	unsigned long cookie = gpw.real->start_poll();

	gpw_bump(&gpw.polls_started);
	return cookie;
}

static bool gpw_poll_state(unsigned long cookie)
{
	bool done = gpw.real->poll_state(cookie);

	if (done)
		gpw_bump(&gpw.polls_done);
	return done;
}

const struct ut_flavor_ops *ut_watchdog_wrap_ops(const struct ut_flavor_ops *ops,
						 struct ut_flavor_ops *buf)
{
	/* Before the combination's threads exist (pthread_create orders it). */
	*buf = *ops;
	gpw.real = ops;
	memset(gpw.slot, 0, sizeof(gpw.slot));
	__atomic_store_n(&gpw.nslots, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&gpw.gen, gpw.gen + 1 ? gpw.gen + 1 : 1, __ATOMIC_RELAXED);
	buf->synchronize_rcu = gpw_sync;
	buf->barrier = gpw_barrier;
	if (ops->start_poll && ops->poll_state) {
		buf->start_poll = gpw_start_poll;
		buf->poll_state = gpw_poll_state;
	}
	return buf;
}

/* The sampler: called with wd_lock held, by the watchdog and the stop check. */
static int gpw_nslots(void)
{
	int n = __atomic_load_n(&gpw.nslots, __ATOMIC_RELAXED);

	return n < GPW_SLOTS ? n : GPW_SLOTS;
}

static void gpw_reset(uint64_t now)
{
	memset(&gps, 0, sizeof(gps));
	gps.polls_started = __atomic_load_n(&gpw.polls_started, __ATOMIC_RELAXED);
	gps.polls_done = __atomic_load_n(&gpw.polls_done, __ATOMIC_RELAXED);
	gps.last_done = now;
}

static void gpw_sample(uint64_t now)
{
	unsigned long ps, pd;

	for (int i = 0; i < gpw_nslots(); i++) {
		unsigned long seq = __atomic_load_n(&gpw.slot[i].seq, __ATOMIC_RELAXED);
		unsigned long prev = gps.seq[i];

		if (seq == prev)
			continue;
		if (seq >> 1 != prev >> 1) {
			/* A wait ended: a cookie taken before it began is complete. */
			gps.last_done = now;
			if (gps.poll_since && (prev & 1) && gps.poll_since <= gps.since[i])
				gps.poll_since = 0;
		}
		if (seq & 1)
			gps.since[i] = now;	/* another wait began since the last sample */
		gps.seq[i] = seq;
	}
	pd = __atomic_load_n(&gpw.polls_done, __ATOMIC_RELAXED);
	ps = __atomic_load_n(&gpw.polls_started, __ATOMIC_RELAXED);
	if (pd != gps.polls_done) {
		/* Which cookie is not known: forget the pending one (a later
		 * start_poll marks it again), so this errs towards no report. */
		gps.polls_done = pd;
		gps.last_done = now;
		gps.poll_since = 0;
	}
	if (ps != gps.polls_started) {
		gps.polls_started = ps;
		if (!gps.poll_since)
			gps.poll_since = now;
	}
}

/* "updater 0", or "a thread" for one the run did not start (the controller). */
static void gpw_thread_name(struct ut_run *run, pthread_t th, char *buf, size_t len)
{
	snprintf(buf, len, "a thread");
	for (int i = 0; th && i < run->nthreads; i++)
		if (pthread_equal(run->threads[i].tid, th))
			snprintf(buf, len, "%s %d", ut_thread_role_name(&run->threads[i]),
				 run->threads[i].idx);
}

static void gpw_why_wait(struct ut_run *run, int i, uint64_t now, char *why, size_t len)
{
	const char *what = __atomic_load_n(&gpw.slot[i].what, __ATOMIC_RELAXED);
	char name[48];

	gpw_thread_name(run, __atomic_load_n(&gpw.slot[i].thread, __ATOMIC_RELAXED), name,
			sizeof(name));
	snprintf(why, len, "%s in %s for %.1f s (last grace period completed %.1f s ago)", name,
		 what ? what : "?", gps.since[i] < now ? (now - gps.since[i]) / 1e9 : 0.0,
		 gps.last_done < now ? (now - gps.last_done) / 1e9 : 0.0);
}

/*
 * A grace period overdue now (after a sample): a thread waiting in
 * synchronize_rcu or rcu_barrier for --stall-timeout, or a polled cookie
 * pending that long with no grace period completed in that time.
 */
static bool gp_stalled(struct ut_run *run, uint64_t now, char *why, size_t len)
{
	uint64_t limit = run->cfg->stall_timeout_ns;

	gpw_sample(now);
	for (int i = 0; i < gpw_nslots(); i++) {
		if ((gps.seq[i] & 1) && gps.since[i] < now && now - gps.since[i] >= limit) {
			gpw_why_wait(run, i, now, why, len);
			return true;
		}
	}
	if (gps.poll_since && gps.poll_since < now && now - gps.poll_since >= limit &&
	    gps.last_done < now && now - gps.last_done >= limit) {
		snprintf(why, len, "a polled cookie pending for %.1f s (last grace period completed %.1f s ago)",
			 (now - gps.poll_since) / 1e9, (now - gps.last_done) / 1e9);
		return true;
	}
	return false;
}

static bool is_reader(const struct ut_run *run, const struct ut_thread *t)
{
	return run->mode->roles[t->role].reader;
}

static uint64_t progress_sum(struct ut_run *run)
{
	uint64_t sum = 0;
	bool others = false;

	for (int i = 0; i < run->nthreads; i++)
		others |= !is_reader(run, &run->threads[i]);
	for (int i = 0; i < run->nthreads; i++)
		if (!others || !is_reader(run, &run->threads[i]))
			sum += ut_read(&run->threads[i].progress);
	sum += __atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED);
	sum += __atomic_load_n(&run->phase, __ATOMIC_RELAXED);
	return sum;
}

/* "the controller in STEP[, joining ROLE N (state S)]" */
static void ctl_where(struct ut_run *run, char *buf, size_t len)
{
	const char *step = __atomic_load_n(&run->ctl_step, __ATOMIC_RELAXED);
	int j = __atomic_load_n(&run->ctl_join, __ATOMIC_RELAXED);

	if (j >= 0 && j < run->nthreads) {
		struct ut_thread *t = &run->threads[j];
		const char *state = __atomic_load_n(&t->state, __ATOMIC_RELAXED);

		snprintf(buf, len, "the controller in %s, joining %s %d (state %s)", step ?: "?",
			 ut_thread_role_name(t), t->idx, state ?: "?");
	} else {
		snprintf(buf, len, "the controller in %s", step ?: "?");
	}
}

/*
 * The end phase's bound: once the duration is over and the grace periods
 * owed are settled (ut_watchdog_at_stop bounds that wait itself), each
 * step of the controller must end within --stall-timeout, however the
 * counters move meanwhile.
 */
static bool end_step_overdue(struct ut_run *run, uint64_t now, char *why, size_t len)
{
	uint64_t since = __atomic_load_n(&run->ctl_since_ns, __ATOMIC_RELAXED);
	bool stopping;
	char where[160];

	(void)ut_run_elapsed_ns(&stopping);
	if (!stopping || !since || now < since || now - since < run->cfg->stall_timeout_ns)
		return false;
	ctl_where(run, where, sizeof(where));
	snprintf(why, len, "the end phase did not finish: %s for %.1f s", where,
		 (now - since) / 1e9);
	return true;
}

/* The stall table: every thread's state, then the callbacks. */
static void stall_threads(struct ut_run *run, const char *why, uint64_t now)
{
	const struct ut_sink *sink = &run->cfg->inv->sink;
	/* Relaxed: a snapshot of counters other threads may still bump. */
	uint64_t posted = __atomic_load_n(&run->cb_posted, __ATOMIC_RELAXED);
	uint64_t invoked = __atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED);

	ut_out(sink, "!!! STALL: %s in %s/%s (mode %s)\n", why, run->ops->name,
	       ut_layout_names[run->layout], run->mode->name);
	ut_out(sink, "  %-16s %-22s %9s %12s %5s %5s %8s\n", "thread", "state", "for", "progress",
	       "plan", "cpu", "tid");
	for (int i = 0; i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];
		const char *state = __atomic_load_n(&t->state, __ATOMIC_RELAXED);
		uint64_t since = __atomic_load_n(&t->state_since_ns, __ATOMIC_RELAXED);
		char name[32];

		snprintf(name, sizeof(name), "%s %d", ut_thread_role_name(t), t->idx);
		ut_out(sink, "  %-16s %-22s %8.1fs %12llu %5d %5d %8d\n", name, state ? state : "?",
		       since && since < now ? (now - since) / 1e9 : 0.0,
		       (unsigned long long)ut_read(&t->progress), t->cpu_planned,
		       __atomic_load_n(&t->cpu_seen, __ATOMIC_RELAXED),
		       __atomic_load_n(&t->ktid, __ATOMIC_RELAXED));
	}
	ut_out(sink, "  %-16s %s, for %.1f s\n", "controller",
	       __atomic_load_n(&run->ctl_step, __ATOMIC_RELAXED) ?: "?",
	       (now - __atomic_load_n(&run->ctl_since_ns, __ATOMIC_RELAXED)) / 1e9);
	ut_out(sink, "  callbacks: posted %llu invoked %llu pending %llu\n",
	       (unsigned long long)posted, (unsigned long long)invoked,
	       (unsigned long long)(posted - invoked));
}

/* The grace-period waits pending, and the call_rcu workers. */
static void stall_waits(struct ut_run *run, uint64_t now)
{
	const struct ut_sink *sink = &run->cfg->inv->sink;

	if (run->ops->synchronize_rcu == gpw_sync) {
		char poll[80] = "";

		gpw_sample(now);
		if (gps.poll_since)
			snprintf(poll, sizeof(poll), "; a polled cookie pending for %.1f s",
				 gps.poll_since < now ? (now - gps.poll_since) / 1e9 : 0.0);
		ut_out(sink, "  grace periods: last completed %.1f s ago%s\n",
		       gps.last_done < now ? (now - gps.last_done) / 1e9 : 0.0, poll);
		for (int i = 0; i < gpw_nslots(); i++) {
			if (gps.seq[i] & 1) {
				char line[256];

				gpw_why_wait(run, i, now, line, sizeof(line));
				ut_out(sink, "  waiting: %s\n", line);
			}
		}
	}
	for (int i = 0; i < __atomic_load_n(&run->nworkers, __ATOMIC_ACQUIRE); i++) {
		/* acquire above pairs with the release publication in worker_add */
		struct ut_worker *w = &run->workers[i];

		ut_out(sink, "  worker %-20s queued %llu invoked %llu\n", w->label,
		       (unsigned long long)ut_read(&w->queued), (unsigned long long)ut_read(&w->invoked));
	}
	if (run->ops->call_rcu_stats) {
		struct ut_lib_worker_stat st[64];
		int n = run->ops->call_rcu_stats(st, 64);

		for (int i = 0; i < n && i < 64; i++)
			ut_out(sink, "  library worker %d: cpu %d backlog %lu queued %llu invoked %llu gps %llu flags 0x%lx\n",
			       i, st[i].cpu_affinity, st[i].backlog, st[i].queued, st[i].invoked,
			       st[i].grace_periods, st[i].flags);
	}
}

/* The stalled combination as far as it got: its counters and threads, what
 * the library reported meanwhile; the mode's own figures were not folded
 * in yet (its sections show zeros). */
static void stall_result(struct ut_run *run, const char *why, uint64_t now, struct ut_result *r)
{
	r->cfg = run->cfg;
	r->flavor = run->ops;
	r->layout = run->layout;
	r->mode = run->mode;
	r->verdict = UT_STALL;
	r->seconds = (now - run->t_start_ns) / 1e9;
	ut_hist_init(&r->gp_lat);
	ut_hist_init(&r->cb_lat);
	ut_result_from_threads(run, r);
	if (run->mode->result_size)
		r->mode_data = calloc(1, run->mode->result_size);
	ut_lib_stall_section(run, now, r);
	/* Relaxed: a snapshot of counters other threads may still bump. */
	r->cb_posted = __atomic_load_n(&run->cb_posted, __ATOMIC_RELAXED);
	r->cb_invoked = __atomic_load_n(&run->cb_invoked, __ATOMIC_RELAXED);
	snprintf(r->note, sizeof(r->note), "%s", why);
}

/* Report the stall, end the run the one way runs end, exit 2. */
static void stall_report(struct ut_run *run, const char *why)
{
	uint64_t now = ut_now_ns();
	struct ut_session *s = wd_session;
	/* Acquire: pairs with the release store of ndone in main(). */
	int ndone = __atomic_load_n(&s->ndone, __ATOMIC_ACQUIRE);
	struct ut_result *all = calloc((size_t)ndone + 1, sizeof(*all));
	struct ut_end_out out;

	stall_threads(run, why, now);
	stall_waits(run, now);
	if (!all)
		_exit(UT_EXIT_STALL);
	/* The stalled combination, as far as it got, joins the finished ones. */
	if (ndone)
		memcpy(all, s->results, (size_t)ndone * sizeof(*all));
	stall_result(run, why, now, &all[ndone]);
	s->batch->elapsed_s = (now - s->batch->t_start_ns) / 1e9;
	ut_end_out_of(run->cfg->inv, &out);
	ut_report_finish(s->batch, all, ndone + 1, UT_STALL, NULL, &out);
	fflush(NULL);
	_exit(UT_EXIT_STALL);
}

/* Per-thread progress seen last and when it last moved. */
static uint64_t *thr_last, *thr_since;
static int thr_n;

static void thread_reset(struct ut_run *run, uint64_t now)
{
	free(thr_last);
	free(thr_since);
	thr_n = run->nthreads;
	thr_last = calloc((size_t)thr_n + 1, sizeof(*thr_last));
	thr_since = calloc((size_t)thr_n + 1, sizeof(*thr_since));
	for (int i = 0; i < thr_n; i++) {
		thr_last[i] = ut_read(&run->threads[i].progress);
		thr_since[i] = now;
	}
}

/*
 * Whether TID is inside a timed grace-period wait at the last sample: such a
 * thread is judged by gp_stalled, whose report names the wait.  (Its last
 * progress may predate the wait's start by more than a sample where threads
 * run slowly, e.g. under emulation, so the generic check would fire first.)
 */
static bool in_timed_wait(pthread_t tid)
{
	for (int i = 0; i < gpw_nslots(); i++)
		if ((gps.seq[i] & 1) &&
		    pthread_equal(__atomic_load_n(&gpw.slot[i].thread, __ATOMIC_RELAXED), tid))
			return true;
	return false;
}

/* An updater-side thread, started and not finished, stuck alone (not in a
 * grace-period wait: gp_stalled reports those). */
static bool thread_stuck(struct ut_run *run, uint64_t now, uint64_t *idle)
{
	if (thr_n != run->nthreads || ut_should_stop(run))
		return false;
	for (int i = 0; i < thr_n; i++) {
		struct ut_thread *t = &run->threads[i];
		uint64_t p = ut_read(&t->progress);
		const char *state = __atomic_load_n(&t->state, __ATOMIC_RELAXED);

		if (p != thr_last[i] || is_reader(run, t) || !state ||
		    !strcmp(state, "done") || !strcmp(state, "not started")) {
			thr_last[i] = p;
			thr_since[i] = now;
			continue;
		}
		if (now - thr_since[i] >= run->cfg->stall_timeout_ns && !in_timed_wait(t->tid)) {
			*idle = now - thr_since[i];
			return true;
		}
	}
	return false;
}

/* The process's exit did not finish: one line, exit 2 (no stdio: the
 * exiting thread may hold its locks). */
static void exit_stall(uint64_t waited)
{
	char line[256];
	int n = snprintf(line, sizeof(line),
			 "!!! STALL: the process did not exit within %.1f s after its report "
			 "(atexit handlers, library destructors); exit %d\n",
			 waited / 1e9, UT_EXIT_STALL);

	if (n > 0 && write(2, line, (size_t)n) < 0)
		n = 0;
	_exit(UT_EXIT_STALL);
}

static void *watchdog_fn(void *arg)
{
	struct ut_run *seen = NULL;
	uint64_t last_sum = 0, last_change = ut_now_ns(), idle;
	char why[256];

	(void)arg;
	/* To the process's end (see the top of the file). */
	for (;;) {
		uint64_t now, sum;

		ut_sleep_ns(50000000ull);
		pthread_mutex_lock(&wd_lock);
		now = ut_now_ns();
		if (wd_exit_since && wd_exit_timeout && now - wd_exit_since >= wd_exit_timeout)
			exit_stall(now - wd_exit_since);
		if (!wd_run) {
			seen = NULL;
			last_change = now;
		} else if (wd_run != seen) {
			seen = wd_run;
			last_sum = progress_sum(wd_run);
			last_change = now;
			thread_reset(wd_run, now);
		} else {
			if (thr_n != wd_run->nthreads)
				thread_reset(wd_run, now);
			/* Grace periods are judged until the stop (teardown's own
			 * waits fall to the progress sum below); first, so that
			 * thread_stuck sees this sample's waits. */
			if (!ut_should_stop(wd_run) && gp_stalled(wd_run, now, why, sizeof(why)))
				stall_report(wd_run, why);
			if (thread_stuck(wd_run, now, &idle)) {
				snprintf(why, sizeof(why), "no progress for %.1f s by one thread",
					 idle / 1e9);
				stall_report(wd_run, why);
			}
			if (end_step_overdue(wd_run, now, why, sizeof(why)))
				stall_report(wd_run, why);
			sum = progress_sum(wd_run);
			if (sum != last_sum) {
				last_sum = sum;
				last_change = now;
			} else if (now - last_change >= wd_run->cfg->stall_timeout_ns) {
				/* At the end of a combination only the controller
				 * works: name its step. */
				char where[160] = "";

				if (ut_should_stop(wd_run))
					ctl_where(wd_run, where, sizeof(where));
				snprintf(why, sizeof(why), "no progress for %.1f s%s%s",
					 (now - last_change) / 1e9, where[0] ? ", " : "", where);
				stall_report(wd_run, why);
			}
		}
		pthread_mutex_unlock(&wd_lock);
	}
	return NULL;	/* not reached */
}

void ut_watchdog_session(struct ut_session *s)
{
	pthread_mutex_lock(&wd_lock);
	wd_session = s;
	pthread_mutex_unlock(&wd_lock);
}

void ut_watchdog_start(const struct ut_config *cfg)
{
	pthread_t wd_thread;

	wd_cfg = cfg;
	/* Never joined: it runs to the process's end.  If it cannot
	 * start, the runs go unwatched. */
	if (!pthread_create(&wd_thread, NULL, watchdog_fn, NULL))
		pthread_detach(wd_thread);
}

void ut_watchdog_attach(struct ut_run *run)
{
	pthread_mutex_lock(&wd_lock);
	if (run)	/* the threads start now: no grace period owed before */
		gpw_reset(ut_now_ns());
	wd_run = run;
	pthread_mutex_unlock(&wd_lock);
}

/*
 * Once the end-of-duration wait has lasted a second: say what the tool is
 * waiting for (the first wait still pending), so that a long --read-delay
 * does not look like a hang.  Called with wd_lock held.
 */
static void say_waiting(struct ut_run *run, const unsigned long *snap, int n, uint64_t p0,
			uint64_t now)
{
	char what[256] = "";

	for (int i = 0; i < n && !what[0]; i++)
		if (snap[i])
			gpw_why_wait(run, i, now, what, sizeof(what));
	if (!what[0] && p0)
		snprintf(what, sizeof(what), "a polled cookie pending for %.1f s",
			 p0 < now ? (now - p0) / 1e9 : 0.0);
	ut_out(&run->cfg->inv->sink, "  the duration is over: waiting for the grace periods pending "
	       "then to end (%s; a stall at --stall-timeout)\n", what);
}

void ut_watchdog_at_stop(struct ut_run *run, bool wait_pending)
{
	unsigned long snap[GPW_SLOTS];
	uint64_t p0, t0 = ut_now_ns();
	bool said = false;
	int n;
	char why[256];

	/* The waits pending at the end of the duration. */
	pthread_mutex_lock(&wd_lock);
	gpw_sample(ut_now_ns());
	n = gpw_nslots();
	for (int i = 0; i < n; i++)
		snap[i] = gps.seq[i] & 1 ? gps.seq[i] : 0;
	p0 = gps.poll_since > gps.last_done ? gps.poll_since : 0;
	pthread_mutex_unlock(&wd_lock);
	for (;;) {
		bool pending = false;

		pthread_mutex_lock(&wd_lock);
		if (gp_stalled(run, ut_now_ns(), why, sizeof(why)))
			stall_report(run, why);		/* does not return */
		for (int i = 0; i < n; i++) {
			/* Another value: that wait ended (a new one is not waited for). */
			if (snap[i] && gps.seq[i] != snap[i])
				snap[i] = 0;
			pending |= snap[i] != 0;
		}
		/* A pending cookie counts while no grace period completed since it. */
		if (p0 && (gps.poll_since != p0 || gps.last_done >= p0))
			p0 = 0;
		pending |= p0 != 0;
		if (pending && wait_pending && !said && ut_now_ns() - t0 >= 1000000000ull) {
			say_waiting(run, snap, n, p0, ut_now_ns());
			said = true;
		}
		pthread_mutex_unlock(&wd_lock);
		/*
		 * Each pending wait ends or reaches --stall-timeout (gp_stalled
		 * then reports it), so this loop lasts at most that long; a
		 * signal ends it at once.
		 */
		if (!pending || !wait_pending || ut_stop_requested())
			return;
		ut_sleep_ns(5000000ull);
	}
}

void ut_watchdog_exit_phase(void)
{
	pthread_mutex_lock(&wd_lock);
	wd_exit_timeout = wd_cfg ? wd_cfg->stall_timeout_ns : 0;
	wd_cfg = NULL;
	wd_session = NULL;
	wd_exit_since = ut_now_ns();
	pthread_mutex_unlock(&wd_lock);
}
