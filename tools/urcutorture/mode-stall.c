/* SPDX-License-Identifier: MIT */
/*
 * stall mode: the library's stall warnings held against a stall that
 * urcutorture causes on purpose and measures itself, so that each report's
 * timing and content can be checked against a known stall.
 *
 * Threads: one "stuck" reader, --readers plain readers (default 1) and one
 * updater.  The updater runs episodes back to back until --duration:
 *
 *   1. it asks the stuck reader to get stuck: that thread, named "ut-stuck",
 *      takes a read-side critical section at nesting depth 2 (qsbr: comes
 *      online and announces no quiescent state), says so, and holds on for
 *      --stuck-for;
 *   2. the updater calls synchronize_rcu, timed (t0 read before the call,
 *      t1 after it), which cannot end before the stuck reader lets go;
 *   3. meanwhile the library, whose stall timeout is --lib-stall-timeout
 *      (250 ms by default in this mode), hands its reports to urcutorture's
 *      handler (libstats.c); the stuck reader, once a report is in, reads
 *      the library's statistics mid-stall;
 *   4. after the call returns the updater judges the episode, then runs
 *      plain synchronize_rcu calls for 20 ms (grace periods that do not
 *      stall, for the statistics) and starts the next episode.
 *
 * Checks, per episode (T: the library's stall timeout; W = t1 - t0):
 *   lib_stall_early     a report arrived before t0 + T (the grace period
 *                       began after t0 and its report is due T after that);
 *   lib_stall_missed    W >= T + 300 ms and no report arrived (300 ms: the
 *                       leader's wake-up at the due time, under load);
 *   lib_stall_unnamed   a report of the episode does not name the stuck
 *                       reader by its kernel thread id (gettid) and name
 *                       with what it does: "inside a read-side critical
 *                       section at nesting depth 2" (bp: "registered (bp)
 *                       and inside ..."), qsbr: "online with no quiescent
 *                       state";
 *   lib_stall_no_end    reports arrived but no "stall ended" line for their
 *                       grace period within 1 s after the call returned;
 *   lib_stats_midstall  the statistics read mid-stall, after the first
 *                       report, do not show a grace period in flight for at
 *                       least T, a holdout and a waiter.
 * The generic checks (libstats.c) then hold the statistics of the whole
 * combination against what the updater measured: its longest call is a
 * stall of --stuck-for, which wait_ns_max must show.
 *
 * Must FAIL: --lib-stall-timeout=0 (lib_stall_missed) and busted-stats
 * (gp_stats_mismatch).  With --stall-timeout shorter than --stuck-for,
 * urcutorture's own watchdog fires first (STALL, exit 2); its report shows
 * what the library reported before it and which threads it named.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "callbacks.h"
#include "json.h"

/* The stuck reader's thread name (at most 15 characters): the reports show it. */
#define STALL_THREAD_NAME	"ut-stuck"
/* A report is owed when the call waited this much longer than T. */
#define STALL_MISSED_SLACK_NS	300000000ull
/* How long after the call the "stall ended" line may come. */
#define STALL_END_WAIT_NS	1000000000ull
/* Plain grace periods between two episodes. */
#define STALL_PLAIN_NS		20000000ull
/* Clock reads of the library and the tool: the same clock; rounding only. */
#define STALL_CLOCK_SLACK_NS	1000000ull

enum { ST_STUCK, ST_READER, ST_UPDATER };

static void *stall_stuck(struct ut_thread *t);
static void *stall_updater(struct ut_thread *t);

/* Its own option: how long the stuck reader holds on. */
static const struct ut_opt stall_opts[] = {
	{ .name = "stuck-for", .json = "stuck_for_ns", .type = UT_OPT_DUR_NZ, .def = 1000000000ull,
	  .flags = UT_OPTF_OWNER_ONLY, .stall = UT_OPT_STALL_PAUSE,
	  .help = "how long the stuck reader holds its read-side section (qsbr: stays online "
		  "without a quiescent state) in each episode" },
	{ NULL }
};

static const struct ut_mode_role stall_roles[] = {
	[ST_STUCK] = { "stuck", UT_ROLE_READER, true, stall_stuck },
	[ST_READER] = { "reader", UT_ROLE_READER, true, ut_plain_reader },
	[ST_UPDATER] = { "updater", UT_ROLE_UPDATER, false, stall_updater },
};

enum { E_EARLY, E_MISSED, E_UNNAMED, E_NO_END, E_MIDSTALL };

static const char *const stall_errors[] = {
	[E_EARLY] = "lib_stall_early",
	[E_MISSED] = "lib_stall_missed",
	[E_UNNAMED] = "lib_stall_unnamed",
	[E_NO_END] = "lib_stall_no_end",
	[E_MIDSTALL] = "lib_stats_midstall",
	NULL
};

/* Between the updater and the stuck reader (run->mode_data). */
struct stall_shared {
	int episode;		/* asked for by the updater (release) */
	int in;			/* the stuck reader holds episode 'in' (release) */
	int out;		/* and let go of episode 'out' (release) */
	int quit;		/* no more episodes (release) */
	int base;		/* captured texts before the episode (before 'episode') */
	int stuck_tid;		/* the stuck reader's kernel thread id */
	int mid_done;		/* episode whose mid-stall statistics are in mid */
	struct ut_gp_stats mid;
};

/* The updater's figures (its mode_data), then the result's. */
struct stall_counts {
	uint64_t episodes;	/* judged */
	uint64_t stalled;	/* with a report */
	uint64_t reports;	/* reports of the episodes */
	uint64_t named;		/* of them, naming the stuck reader as expected */
	uint64_t ended;		/* "stall ended" lines of their grace periods */
	uint64_t mid_checked;	/* mid-stall statistics checked */
	uint64_t lost;		/* texts that left the ring before they were judged */
	uint64_t first_min_ns, first_max_ns;	/* call -> first report */
	uint64_t gap_min_ns;	/* between two reports of one episode, 0: none */
	uint64_t wait_max_ns;	/* the longest stalled call */
	bool checkable;		/* the library takes a stall handler */
	int stuck_tid;
	char failure[240];	/* the first failed check */
};

struct stall_result {
	struct stall_counts c;
	uint64_t hold_ns;
	uint64_t timeout_ns;	/* the library's stall timeout in this run */
};

static uint64_t lib_timeout_ns(const struct ut_config *cfg)
{
	return cfg->lib_stall_timeout_ns >= 0 ? (uint64_t)cfg->lib_stall_timeout_ns
					      : ut_lib_default_timeout_ns();
}

static void *stall_stuck(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct stall_shared *sh = run->mode_data;
	uint64_t hold = ut_opt(run->cfg, &stall_opts[0]);
	int done = 0;

	ut_thread_begin(t);
	pthread_setname_np(pthread_self(), STALL_THREAD_NAME);
	__atomic_store_n(&sh->stuck_tid, t->ktid, __ATOMIC_RELAXED);
	if (ops->is_qsbr)
		ops->thread_offline();
	ut_thread_set_state(t, "idle");
	for (;;) {
		int ep = __atomic_load_n(&sh->episode, __ATOMIC_ACQUIRE);
		int base = __atomic_load_n(&sh->base, __ATOMIC_RELAXED);
		bool mid = false;
		uint64_t t_in;

		if (ep == done) {
			if (__atomic_load_n(&sh->quit, __ATOMIC_ACQUIRE))
				break;
			ut_sleep_ns(1000000ull);
			ut_count(&t->progress, 1);
			continue;
		}
		/* Get stuck. */
		if (ops->is_qsbr) {
			ops->thread_online();
			ut_thread_set_state(t, "online, no QS");
		} else {
			ops->read_lock();
			ops->read_lock();
			ut_thread_set_state(t, "in read section (2)");
		}
		t_in = ut_now_ns();
		__atomic_store_n(&sh->in, ep, __ATOMIC_RELEASE);
		for (uint64_t now = t_in; now - t_in < hold; now = ut_now_ns()) {
			uint64_t left = hold - (now - t_in);

			ut_sleep_ns(left < 2000000ull ? left : 2000000ull);
			/* Mid-stall: once a report is in, the grace period is in flight. */
			for (int i = base; !mid && ops->gp_stats && i < ut_lib_captured(); i++) {
				struct ut_lib_report rep;

				if (!ut_lib_report_get(i, &rep) || rep.ended)
					continue;
				if (!ops->gp_stats(&sh->mid))
					__atomic_store_n(&sh->mid_done, ep, __ATOMIC_RELAXED);
				mid = true;
			}
			if (!mid)
				base = ut_lib_captured() > base ? ut_lib_captured() : base;
		}
		/* Let go. */
		if (ops->is_qsbr) {
			ops->quiescent_state();
			ops->thread_offline();
		} else {
			ops->read_unlock();
			ops->read_unlock();
		}
		ut_count(&t->reads, 1);
		ut_count(&t->progress, 1);
		ut_thread_set_state(t, "idle");
		__atomic_store_n(&sh->out, ep, __ATOMIC_RELEASE);
		done = ep;
	}
	if (ops->is_qsbr)
		ops->thread_online();
	ut_thread_end(t);
	return NULL;
}

static void fail(struct ut_thread *t, int kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct ut_thread *t, int kind, const char *fmt, ...)
{
	struct stall_counts *c = t->mode_data;
	va_list ap;

	ut_count(&t->mode_errors[kind], 1);
	if (c->failure[0])
		return;
	va_start(ap, fmt);
	vsnprintf(c->failure, sizeof(c->failure), fmt, ap);
	va_end(ap);
}

/* Does the report name the stuck reader as doing what it does? */
static bool names_stuck(const struct ut_lib_report *rep, int tid, const char *want)
{
	for (int k = 0; k < rep->ntids && k < UT_LIB_TIDS; k++)
		if (rep->tid[k] == tid && !strcmp(rep->name[k], STALL_THREAD_NAME) &&
		    strstr(rep->what[k], want))
			return true;
	return false;
}

/* One episode being judged: when its call ran and what its reports said. */
struct stall_episode {
	int ep;
	uint64_t t0, t1;	/* synchronize_rcu began, returned */
	uint64_t T;		/* the library's stall timeout */
	const char *want;	/* how a report must describe the stuck reader */
	int tid;		/* the stuck reader's */
	int reports, named, ended, early;
	unsigned long gp;	/* the grace period the reports are about */
	uint64_t first, prev;	/* when the first and the latest report came */
};

/* Take one captured report into the episode, if it is this flavor's. */
static void take_report(struct stall_counts *c, const struct ut_flavor_ops *ops,
			struct stall_episode *e, const struct ut_lib_report *rep)
{
	if (rep->flavor[0] && ops->lib_flavor && strcmp(rep->flavor, ops->lib_flavor))
		return;
	if (rep->ended) {
		e->ended += e->reports && rep->gp == e->gp;
		return;
	}
	e->reports++;
	e->gp = rep->gp;
	if (!e->first)
		e->first = rep->at_ns;
	if (e->prev && (!c->gap_min_ns || rep->at_ns - e->prev < c->gap_min_ns))
		c->gap_min_ns = rep->at_ns - e->prev;
	e->prev = rep->at_ns;
	if (rep->at_ns + STALL_CLOCK_SLACK_NS < e->t0 + e->T)
		e->early++;
	if (names_stuck(rep, e->tid, e->want))
		e->named++;
}

/* Read the reports from index base until none came, the end line came, or time is up. */
static void collect_reports(struct ut_thread *t, struct stall_episode *e, int base)
{
	struct stall_counts *c = t->mode_data;
	uint64_t deadline = e->t1 + STALL_END_WAIT_NS;
	struct ut_lib_report rep;
	int i = base;

	for (;;) {
		int n = ut_lib_captured();

		for (; i < n; i++) {
			if (!ut_lib_report_get(i, &rep)) {
				ut_count(&c->lost, 1);
				continue;
			}
			take_report(c, t->run->ops, e, &rep);
		}
		if (!e->reports || e->ended || ut_now_ns() >= deadline)
			break;
		ut_rcu_pause(t, 1000000ull);
	}
}

/* Add the episode to the updater's counts and extremes. */
static void count_episode(struct stall_counts *c, const struct stall_episode *e)
{
	ut_count(&c->episodes, 1);
	ut_count(&c->reports, (uint64_t)e->reports);
	ut_count(&c->named, (uint64_t)e->named);
	ut_count(&c->ended, (uint64_t)e->ended);
	if (e->t1 - e->t0 > c->wait_max_ns)
		c->wait_max_ns = e->t1 - e->t0;
	if (e->reports) {
		ut_count(&c->stalled, 1);
		if (!c->first_min_ns || e->first - e->t0 < c->first_min_ns)
			c->first_min_ns = e->first - e->t0;
		if (e->first - e->t0 > c->first_max_ns)
			c->first_max_ns = e->first - e->t0;
	}
}

/* The checks of the episode: each failed one fails the run with its message. */
static void check_episode(struct ut_thread *t, const struct stall_episode *e)
{
	struct stall_shared *sh = t->run->mode_data;
	struct stall_counts *c = t->mode_data;
	uint64_t T = e->T, wait = e->t1 - e->t0;
	int ep = e->ep;

	if (e->early)
		fail(t, E_EARLY, "episode %d: a stall report %.3f s after synchronize_rcu began, "
		     "before the library's stall timeout (%.3f s)", ep, (e->first - e->t0) / 1e9,
		     T / 1e9);
	if (!e->reports && T && wait >= T + STALL_MISSED_SLACK_NS)
		fail(t, E_MISSED, "episode %d: synchronize_rcu waited %.3f s on the stuck reader, the "
		     "library (stall timeout %.3f s) reported nothing", ep, wait / 1e9, T / 1e9);
	if (!e->reports && !T && wait >= STALL_MISSED_SLACK_NS)
		fail(t, E_MISSED, "episode %d: synchronize_rcu waited %.3f s on the stuck reader, the "
		     "library reported nothing (its stall timeout is 0: reports off)", ep,
		     wait / 1e9);
	if (e->named < e->reports)
		fail(t, E_UNNAMED, "episode %d: %d of %d stall reports do not name tid %d \"%s\" as %s",
		     ep, e->reports - e->named, e->reports, e->tid, STALL_THREAD_NAME, e->want);
	if (e->reports && !e->ended)
		fail(t, E_NO_END, "episode %d: %d stall reports about grace period %lu, no \"stall "
		     "ended\" line for it within %.1f s after synchronize_rcu returned", ep,
		     e->reports, e->gp, STALL_END_WAIT_NS / 1e9);
	if (e->reports && __atomic_load_n(&sh->mid_done, __ATOMIC_RELAXED) == ep) {
		const struct ut_gp_stats *m = &sh->mid;

		ut_count(&c->mid_checked, 1);
		if (m->current_age_ns + STALL_CLOCK_SLACK_NS < T || !m->holdouts || !m->waiters)
			fail(t, E_MIDSTALL, "episode %d: statistics read mid-stall, after a report: "
			     "current_age_ns %.3f s (the stall timeout is %.3f s), holdouts %llu, "
			     "waiters %llu", ep, m->current_age_ns / 1e9, T / 1e9,
			     (unsigned long long)m->holdouts, (unsigned long long)m->waiters);
	}
}

/* The episode's reports, in [base, ...): the checks at the top of the file. */
static void judge(struct ut_thread *t, int ep, int base, uint64_t t0, uint64_t t1)
{
	struct ut_run *run = t->run;
	struct stall_shared *sh = run->mode_data;
	struct stall_episode e = {
		.ep = ep, .t0 = t0, .t1 = t1, .T = lib_timeout_ns(run->cfg),
		.want = run->ops->is_qsbr ? "online with no quiescent state"
					  : "inside a read-side critical section at nesting depth 2",
		.tid = __atomic_load_n(&sh->stuck_tid, __ATOMIC_RELAXED),
	};

	collect_reports(t, &e, base);
	count_episode(t->mode_data, &e);
	check_episode(t, &e);
}

/* Wait until *flag == ep; qsbr: offline meanwhile. */
static void await(struct ut_thread *t, const int *flag, int ep)
{
	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != ep) {
		ut_rcu_pause(t, 200000ull);
		ut_count(&t->progress, 1);
	}
}

static void timed_sync(struct ut_thread *t, uint64_t *t0, uint64_t *t1)
{
	*t0 = ut_now_ns();
	t->run->ops->synchronize_rcu();
	*t1 = ut_now_ns();
	ut_hist_add(t->lat, *t1 - *t0);
	ut_gp_witness(t->run, *t0, *t1);
	ut_count(&t->gps, 1);
	ut_count(&t->progress, 1);
}

static void *stall_updater(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	struct stall_shared *sh = run->mode_data;
	struct stall_counts *c = t->mode_data;
	int ep = 0;

	ut_thread_begin(t);
	c->checkable = run->ops->set_stall_handler != NULL;
	while (!ut_should_stop(run)) {
		uint64_t t0, t1, plain;
		int base = ut_lib_captured();

		ep++;
		__atomic_store_n(&sh->base, base, __ATOMIC_RELAXED);
		__atomic_store_n(&sh->episode, ep, __ATOMIC_RELEASE);
		ut_thread_set_state(t, "starting an episode");
		await(t, &sh->in, ep);
		ut_thread_set_state(t, "synchronize_rcu");
		timed_sync(t, &t0, &t1);
		ut_thread_set_state(t, "judging the episode");
		await(t, &sh->out, ep);
		if (c->checkable)
			judge(t, ep, base, t0, t1);
		ut_thread_set_state(t, "synchronize_rcu");
		for (plain = ut_now_ns() + STALL_PLAIN_NS; ut_now_ns() < plain;) {
			timed_sync(t, &t0, &t1);
			run->ops->quiescent_state();
		}
	}
	__atomic_store_n(&sh->quit, 1, __ATOMIC_RELEASE);
	c->stuck_tid = __atomic_load_n(&sh->stuck_tid, __ATOMIC_RELAXED);
	ut_thread_end(t);
	return NULL;
}

static void stall_count(const struct ut_config *cfg, int n[], bool posts[])
{
	(void)posts;
	n[ST_STUCK] = 1;
	n[ST_READER] = cfg->readers;
	n[ST_UPDATER] = 1;
}

static int stall_configure(struct ut_config *cfg, char *err,
			   size_t len)
{
	(void)err;
	(void)len;
	if (!ut_given(cfg, "readers"))
		cfg->readers = 1;
	if (!ut_given(cfg, "lib-stall-timeout"))
		cfg->lib_stall_timeout_ns = 250000000;
	return 0;
}

static int stall_setup(struct ut_run *run)
{
	run->mode_data = calloc(1, sizeof(struct stall_shared));
	return run->mode_data ? 0 : -1;
}

static void stall_finish(struct ut_run *run)
{
	struct stall_result *r = run->res->mode_data;

	run->res->gp_lat_what = "synchronize_rcu";
	r->hold_ns = ut_opt(run->cfg, &stall_opts[0]);
	r->timeout_ns = lib_timeout_ns(run->cfg);
	for (int i = 0; i < run->nthreads; i++)
		if (run->threads[i].role == ST_UPDATER)
			r->c = *(struct stall_counts *)run->threads[i].mode_data;
}

static void stall_stat(struct ut_run *run, char *buf, size_t len)
{
	uint64_t ep = 0, stalled = 0, reports = 0, gps = 0;

	for (int i = 0; i < run->nthreads; i++) {
		struct ut_thread *t = &run->threads[i];

		gps += ut_read(&t->gps);
		if (t->role == ST_UPDATER) {
			struct stall_counts *c = t->mode_data;

			ep += ut_read(&c->episodes);
			stalled += ut_read(&c->stalled);
			reports += ut_read(&c->reports);
		}
	}
	snprintf(buf, len, "episodes %llu reported %llu library reports %llu gps %llu",
		 (unsigned long long)ep, (unsigned long long)stalled, (unsigned long long)reports,
		 (unsigned long long)gps);
}

static void stall_report(const struct ut_config *cfg, const struct ut_result *r, enum ut_section at)
{
	const struct stall_result *s = r->mode_data;
	const struct stall_counts *c = &s->c;
	char hold[32], to[32];

	if (at != UT_SECTION_CHECKS)
		return;
	ut_format_duration(s->hold_ns, hold, sizeof(hold));
	ut_format_duration(s->timeout_ns, to, sizeof(to));
	if (!c->checkable) {
		ut_out(&cfg->inv->sink, "  stall episodes  %llu (the library takes no stall handler: "
		       "nothing checked)\n", (unsigned long long)c->episodes);
		return;
	}
	ut_out(&cfg->inv->sink, "  stall episodes  %llu, each holding %s against a library stall timeout "
	       "of %s: %llu reported, %llu reports (%llu naming tid %d \"%s\"), %llu \"ended\" lines, "
	       "mid-stall statistics checked %llu\n", (unsigned long long)c->episodes, hold, to,
	       (unsigned long long)c->stalled, (unsigned long long)c->reports,
	       (unsigned long long)c->named, c->stuck_tid, STALL_THREAD_NAME,
	       (unsigned long long)c->ended, (unsigned long long)c->mid_checked);
	if (c->stalled)
		ut_out(&cfg->inv->sink, "  stall reports   first %.3f..%.3f s after synchronize_rcu began "
		       "(urcutorture's own watchdog: %.1f s)%s\n", c->first_min_ns / 1e9,
		       c->first_max_ns / 1e9, cfg->stall_timeout_ns / 1e9,
		       c->first_max_ns < cfg->stall_timeout_ns ? ", the library first" : "");
	if (c->failure[0])
		ut_out(&cfg->inv->sink, "!!! stall: %s\n", c->failure);
}

static void stall_json(struct uj *j, const struct ut_config *cfg, const struct ut_result *r,
		       enum ut_section at)
{
	const struct stall_result *s = r->mode_data;
	const struct stall_counts *c = &s->c;

	if (at != UT_SECTION_CHECKS)
		return;
	uj_obj(j, "stall");
	uj_bool(j, "checked", c->checkable);
	uj_u64(j, "episodes", c->episodes);
	uj_u64(j, "stalled_episodes", c->stalled);
	uj_u64(j, "reports", c->reports);
	uj_u64(j, "reports_naming_stuck", c->named);
	uj_u64(j, "ended_lines", c->ended);
	uj_u64(j, "midstall_checked", c->mid_checked);
	uj_u64(j, "lost", c->lost);
	uj_i64(j, "stuck_tid", c->stuck_tid);
	uj_str(j, "stuck_name", STALL_THREAD_NAME);
	uj_u64(j, "hold_ns", s->hold_ns);
	uj_u64(j, "library_stall_timeout_ns", s->timeout_ns);
	uj_u64(j, "watchdog_stall_timeout_ns", cfg->stall_timeout_ns);
	if (c->stalled) {
		uj_u64(j, "first_report_min_ns", c->first_min_ns);
		uj_u64(j, "first_report_max_ns", c->first_max_ns);
	} else {
		uj_null(j, "first_report_min_ns");
		uj_null(j, "first_report_max_ns");
	}
	if (c->gap_min_ns)
		uj_u64(j, "report_gap_min_ns", c->gap_min_ns);
	else
		uj_null(j, "report_gap_min_ns");
	uj_u64(j, "wait_max_ns", c->wait_max_ns);
	if (c->failure[0])
		uj_str(j, "first_failure", c->failure);
	else
		uj_null(j, "first_failure");
	uj_end_obj(j);
}

const struct ut_mode_ops ut_mode_stall = {
	.name = "stall",
	.help = "stall: a reader stuck in its read-side section for --stuck-for\n"
		"  (qsbr: online without quiescent states) stalls synchronize_rcu;\n"
		"  the library's stall reports must name it in time",
	.roles = stall_roles,
	.nroles = 3,
	.count = stall_count,
	.thread_size = sizeof(struct stall_counts),
	.result_size = sizeof(struct stall_result),
	.errors = stall_errors,
	.configure = stall_configure,
	.opts = stall_opts,
	.setup = stall_setup,
	.finish = stall_finish,
	.stat_line = stall_stat,
	.updates_include_gps = true,
	.report = stall_report,
	.json = stall_json,
};
