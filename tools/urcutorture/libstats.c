/* SPDX-License-Identifier: MIT */
/*
 * The library's own view of a combination: its grace-period statistics
 * (urcu_<flavor>_gp_stats) and its stall reports (urcu_set_stall_handler),
 * held against what urcutorture measured itself.  Only this project's
 * library has them (<urcu/gp-stats.h>); with another, or with a flavor
 * whose synchronize_rcu is not the library's, the ops are NULL and nothing
 * here runs.
 *
 * Capture.  Around every combination, ut_lib_begin installs a handler for
 * the library's stall reports (process-wide; the seeded modules have their
 * own), sets the library's stall timeout when --lib-stall-timeout (or the
 * mode) gives one, and reads the statistics; ut_lib_end runs one more
 * synchronize_rcu, reads them again, keeps the reports, gives the reports
 * back to the library's default (standard error) and its timeout back to
 * the default (URCU_STALL_TIMEOUT, else 21 s), and runs the checks.  The
 * handler runs on the thread that leads the stalled grace period: it takes
 * one mutex that no holder keeps across a grace period, copies and parses
 * the text into a static ring of the last UT_LIB_REPORTS texts (no
 * allocation) and returns.
 *
 * Checks (each that fails counts one gp_stats_mismatch error, so the
 * combination FAILs, and prints a "!!! gp-stats:" line naming it):
 *
 *   settled        each of the two readings settles: two readings in a row
 *                  agree and the histogram adds up to completed, within
 *                  UT_LIB_SETTLE_NS of readings 1 ms apart.  Grace periods
 *                  ending without pause for that long around a combination
 *                  (its threads not started yet, or joined and drained)
 *                  are themselves wrong; a reading that never settles is an
 *                  error, never a skipped check.
 *   completed      urcutorture's lower bound on the grace periods that ended
 *                  <= the growth of completed.  The bound: the larger of a
 *                  set of pairwise disjoint synchronize_rcu calls
 *                  (ut_gp_witness) and one thread's calls (a thread's calls
 *                  never overlap).  Each call waits for a grace period that
 *                  begins after the call began and ends before it returned,
 *                  so disjoint calls contain different grace periods.
 *                  Concurrent calls share grace periods, so the number of
 *                  calls itself may exceed completed.  The controller's last
 *                  synchronize_rcu makes every earlier grace period's count
 *                  visible: grace periods run one at a time under the leader
 *                  lock and a grace period is counted before the next one
 *                  can end.
 *   completed_max  the growth of completed <= the grace periods that
 *                  flipped the library's global word in between (its
 *                  sequence field, ops->gp_flipped) + 1 + the growth of
 *                  hist[0].  A grace period that finds a reader registered
 *                  flips the word once (64-bit); one that finds none does
 *                  not, but the controller stays registered through the
 *                  combination, so none of those ends in it; a
 *                  synchronize_rcu that finds no thread registered counts
 *                  a grace period of 0 ns (hist[0]) without one (allowed
 *                  for, though the same registration rules it out too).
 *                  The + 1: the grace period in flight when the word was
 *                  first read (grace periods run one at a time, each
 *                  counted before the next flips).  The word is read before
 *                  the first reading and after the last, so its growth
 *                  can only be larger than the flips in between; on a
 *                  weakly ordered CPU the last read may lag the count (the
 *                  leader orders nothing for us between its flip and its
 *                  count), so a comparison that fails reads the word again
 *                  10 ms later (it only grows) before it counts an error.
 *                  Catches a library that counts a grace period twice.
 *   completed_max_live  the same bound, checked by the controller at each
 *                  control step (100-200 ms) while the threads run, against
 *                  one reading (read in the library's order: completed
 *                  first, hist[0] after it, the word last): counted once,
 *                  the first time it fails, so the stat lines show it.
 *   wait_ns_max    the longest synchronize_rcu urcutorture timed <= 2 x
 *                  wait_ns_max + 0.5 s.  A call waits for the grace period
 *                  in flight, then for its own (each at most wait_ns_max
 *                  long); the 0.5 s are scheduling (the wake-up, preemption
 *                  before the clock read).  Catches a library that does not
 *                  count a long grace period (a stall).
 *   histogram      the histogram's growth adds up to completed's; the growth
 *                  of wait_ns_total lies within the bounds of the buckets
 *                  that grew (plus one wait_ns_max: a grace period ending
 *                  while the fields are read); wait_ns_max is in the highest
 *                  non-empty bucket or above.  Only when both readings
 *                  settled (else "settled" failed).
 *   stall_reports  the reports of this flavor the handler got = the growth
 *                  of stalls_reported (one fewer while a grace period is in
 *                  flight: the library counts a report before it hands it
 *                  over).
 *   misuse_events  the misuse events urcutorture caused on purpose (implicit
 *                  registrations, unregistrations inside a section:
 *                  ut_misuse_caused) <= the growth of misuse_events.  At
 *                  least, not equal: another misuse in the process (or a
 *                  library that counts one twice) adds to it.  Only when the
 *                  mode caused some; the threads that did are joined, the
 *                  counts are read after them.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "json.h"
#include "ut.h"

/* How long the readings around a combination may take to settle. */
#define UT_LIB_SETTLE_NS	2000000000ull
/* Scheduling allowed beyond two grace periods in one synchronize_rcu call. */
#define UT_LIB_SYNC_SLACK_NS	500000000ull
/* The library's documented default stall timeout (the kernel's). */
#define UT_LIB_DEFAULT_TIMEOUT_NS	21000000000ull

/* ---- capture ---- */

static struct {
	pthread_mutex_t lock;
	int n;					/* texts received this combination */
	int stalls;				/* of them, reports of flavor (not ended lines) */
	char flavor[16];			/* the combination's, as the library names it */
	struct ut_lib_report rep[UT_LIB_REPORTS];	/* text i at rep[i % UT_LIB_REPORTS] */
} cap = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* "urcu: stall:   tid 1234 "name": what, waited on for 0.250 s" */
static void parse_holdout(struct ut_lib_report *r, const char *line, size_t len)
{
	char buf[256], name[20] = "?", what[96] = "";
	const char *q;
	int tid, k;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (sscanf(buf, "urcu: stall: tid %d", &tid) != 1)
		return;
	q = strchr(buf, '"');
	if (q) {
		const char *e = strchr(q + 1, '"');

		if (e) {
			snprintf(name, sizeof(name), "%.*s", (int)(e - q - 1), q + 1);
			if (e[1] == ':')
				snprintf(what, sizeof(what), "%s", e[2] == ' ' ? e + 3 : e + 2);
		}
	}
	what[strcspn(what, "\n")] = '\0';
	if ((q = strstr(what, ", waited on for")))
		what[q - what] = '\0';
	k = r->ntids++;
	if (k >= UT_LIB_TIDS)
		return;
	r->tid[k] = tid;
	snprintf(r->name[k], sizeof(r->name[k]), "%s", name);
	snprintf(r->what[k], sizeof(r->what[k]), "%s", what);
}

static void parse(struct ut_lib_report *r, const char *text)
{
	const char *p = text, *u;

	r->ended = !strncmp(text, "urcu: stall ended:", 18);
	u = strstr(text, "urcu_");
	if (u && (size_t)(u - text) < strcspn(text, "\n"))
		(void)sscanf(u, "urcu_%15[a-z] grace period %lu", r->flavor, &r->gp);
	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n > 16 && !strncmp(p, "urcu: stall:   tid ", 19))
			parse_holdout(r, p, n);
		p += n + (p[n] == '\n');
	}
}

/* The library's handler: on the leader of the stalled grace period. */
static void capture(const char *report, void *arg)
{
	uint64_t now = ut_now_ns();
	struct ut_lib_report *r;

	(void)arg;
	pthread_mutex_lock(&cap.lock);
	r = &cap.rep[cap.n % UT_LIB_REPORTS];
	memset(r, 0, offsetof(struct ut_lib_report, text));
	r->at_ns = now;
	r->truncated = strlen(report) >= sizeof(r->text);
	snprintf(r->text, sizeof(r->text), "%s", report);
	parse(r, r->text);
	cap.n++;
	if (!r->ended && (!r->flavor[0] || !strcmp(r->flavor, cap.flavor)))
		cap.stalls++;
	pthread_mutex_unlock(&cap.lock);
}

int ut_lib_captured(void)
{
	int n;

	pthread_mutex_lock(&cap.lock);
	n = cap.n;
	pthread_mutex_unlock(&cap.lock);
	return n;
}

bool ut_lib_report_get(int i, struct ut_lib_report *out)
{
	bool ok;

	pthread_mutex_lock(&cap.lock);
	ok = i >= 0 && i < cap.n && i >= cap.n - UT_LIB_REPORTS;
	if (ok)
		*out = cap.rep[i % UT_LIB_REPORTS];
	pthread_mutex_unlock(&cap.lock);
	return ok;
}

/* The kept texts, oldest first, into lv (malloc'd). */
static void take_reports(struct ut_libview *lv)
{
	int first;

	pthread_mutex_lock(&cap.lock);
	lv->captured = cap.n;
	lv->flavor_reports = cap.stalls;
	first = cap.n > UT_LIB_REPORTS ? cap.n - UT_LIB_REPORTS : 0;
	lv->nreports = 0;
	lv->reports = cap.n - first ? malloc((size_t)(cap.n - first) * sizeof(*lv->reports)) : NULL;
	for (int i = first; lv->reports && i < cap.n; i++)
		lv->reports[lv->nreports++] = cap.rep[i % UT_LIB_REPORTS];
	pthread_mutex_unlock(&cap.lock);
}

uint64_t ut_lib_default_timeout_ns(void)
{
	/* As the library reads it: seconds, decimals allowed, >= 0. */
	const char *env = getenv("URCU_STALL_TIMEOUT");
	char *end;
	double s;

	if (!env || !*env)
		return UT_LIB_DEFAULT_TIMEOUT_NS;
	s = strtod(env, &end);
	if (*end || !(s >= 0) || s > 1e9)
		return UT_LIB_DEFAULT_TIMEOUT_NS;
	return (uint64_t)(s * 1e9);
}

/* ---- statistics ---- */

static uint64_t hist_sum(const struct ut_gp_stats *s)
{
	uint64_t n = 0;

	for (int i = 0; i < s->nhist; i++)
		n += s->hist[i];
	return n;
}

static bool same_stats(const struct ut_gp_stats *a, const struct ut_gp_stats *b)
{
	return a->completed == b->completed && a->wait_ns_total == b->wait_ns_total &&
	       a->wait_ns_max == b->wait_ns_max && a->stalls_reported == b->stalls_reported &&
	       !memcmp(a->hist, b->hist, sizeof(a->hist));
}

/*
 * Read the statistics until two readings in a row agree and the histogram
 * adds up to completed (a grace period ending meanwhile updates them one
 * by one), for at most UT_LIB_SETTLE_NS; false if they never settle (the
 * last reading is kept anyway; *reads: how many were taken).
 */
static bool read_settled(const struct ut_flavor_ops *ops, struct ut_gp_stats *out, int *reads)
{
	uint64_t end = ut_now_ns() + UT_LIB_SETTLE_NS;
	struct ut_gp_stats prev;

	memset(out, 0, sizeof(*out));
	*reads = 1;
	if (ops->gp_stats(out))
		return false;
	do {
		prev = *out;
		++*reads;
		if (ops->gp_stats(out))
			return false;
		if (same_stats(&prev, out) && hist_sum(out) == out->completed)
			return true;
		ut_sleep_ns(1000000ull);
	} while (ut_now_ns() < end);
	return false;
}

/*
 * The global word's flips now, read after a reading of the statistics.
 * Acquire fence: orders our loads of the statistics before this load (our
 * own order only; see completed_max at the top of this file for why the
 * word may still lag on a weakly ordered CPU).
 */
static uint64_t flipped_after(const struct ut_flavor_ops *ops)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return ops->gp_flipped();
}

/* The upper bound on the growth of completed from reading b (see the top). */
static uint64_t completed_max(const struct ut_libview *lv, const struct ut_gp_stats *b,
			      uint64_t flipped)
{
	return flipped - lv->flipped_before + 1 + (b->hist[0] - lv->before.hist[0]);
}

/*
 * completed_max's comparison for reading b: the word read again 10 ms later
 * when it fails (*flipped updated).  True if the bound holds.
 */
static bool within_max(const struct ut_flavor_ops *ops, const struct ut_libview *lv,
		       const struct ut_gp_stats *b, uint64_t *flipped)
{
	if (b->completed - lv->before.completed <= completed_max(lv, b, *flipped))
		return true;
	ut_sleep_ns(10000000ull);
	*flipped = flipped_after(ops);
	return b->completed - lv->before.completed <= completed_max(lv, b, *flipped);
}

static void add_check(struct ut_libview *lv, const char *name, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add_check(struct ut_libview *lv, const char *name, bool ok, const char *fmt, ...)
{
	struct ut_lib_check *c;
	va_list ap;

	if (lv->nchecks >= UT_LIB_CHECKS)
		return;
	c = &lv->checks[lv->nchecks++];
	c->name = name;
	c->ok = ok;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
}

static void run_checks(struct ut_run *run, struct ut_libview *lv, bool settled)
{
	const struct ut_gp_stats *a = &lv->before, *b = &lv->after;
	uint64_t completed = b->completed - a->completed;
	uint64_t reported = b->stalls_reported - a->stalls_reported;
	int top = -1;

	if (!settled)
		add_check(lv, "settled", false,
			  "the library's statistics did not settle within %.1f s (%d readings 1 ms "
			  "apart: no two in a row agreed with the histogram adding up to completed), "
			  "so the histogram could not be checked", UT_LIB_SETTLE_NS / 1e9,
			  lv->unsettled_reads);
	if (lv->flips) {
		bool ok = within_max(run->ops, lv, b, &lv->flipped_after);

		add_check(lv, "completed_max", ok,
			  "the library's completed grew by %llu, but its global word shows %llu grace "
			  "periods begun with a reader registered, and hist[0] (synchronize_rcu calls "
			  "that found no reader) grew by %llu: at most %llu (one of them in flight at "
			  "the start) can have ended", (unsigned long long)completed,
			  (unsigned long long)(lv->flipped_after - lv->flipped_before),
			  (unsigned long long)(b->hist[0] - a->hist[0]),
			  (unsigned long long)completed_max(lv, b, lv->flipped_after));
	}
	add_check(lv, "completed", lv->distinct_gps <= completed,
		  "urcutorture saw at least %llu grace periods end (disjoint synchronize_rcu calls, "
		  "each containing a whole one; %llu calls in all), the library's completed grew by %llu",
		  (unsigned long long)lv->distinct_gps, (unsigned long long)lv->sync_calls,
		  (unsigned long long)completed);
	if (lv->sync_max_ns)
		add_check(lv, "wait_ns_max", 2 * b->wait_ns_max + UT_LIB_SYNC_SLACK_NS >= lv->sync_max_ns,
			  "the longest synchronize_rcu urcutorture timed took %.3f s, the library's "
			  "longest grace period (wait_ns_max) is %.3f s: a call waits for at most two "
			  "(the one in flight, then its own) and %.1f s of scheduling",
			  lv->sync_max_ns / 1e9, b->wait_ns_max / 1e9, UT_LIB_SYNC_SLACK_NS / 1e9);
	if (settled) {
		uint64_t n = 0, lo = 0, hi = 0, total = b->wait_ns_total - a->wait_ns_total;
		bool open = false;
		char upper[48];

		for (int i = 0; i < b->nhist; i++) {
			uint64_t c = b->hist[i] - a->hist[i];

			n += c;
			if (b->hist[i])
				top = i;
			if (!c)
				continue;
			lo += i ? c << i : 0;
			if (i == b->nhist - 1)
				open = true;
			else
				hi += c << (i + 1);
		}
		if (open)
			snprintf(upper, sizeof(upper), "no bound (the last bucket grew)");
		else
			snprintf(upper, sizeof(upper), "%.6f s", (hi + b->wait_ns_max) / 1e9);
		add_check(lv, "histogram", n == completed && total >= lo &&
			  (open || total <= hi + b->wait_ns_max) &&
			  (top < 1 || b->wait_ns_max >= 1ull << top),
			  "the histogram grew by %llu grace periods for %llu completed; wait_ns_total grew "
			  "by %.6f s, the buckets bound it to %.6f s .. %s; wait_ns_max %.6f s, the "
			  "highest bucket holds %.6f s and up", (unsigned long long)n,
			  (unsigned long long)completed, total / 1e9, lo / 1e9, upper,
			  b->wait_ns_max / 1e9, top >= 1 ? (double)(1ull << top) / 1e9 : 0.0);
	}
	if (lv->misuse_caused)
		add_check(lv, "misuse_events", b->misuse_events - a->misuse_events >= lv->misuse_caused,
			  "urcutorture caused %llu misuse events (reads without registering, "
			  "unregistrations inside a section), the library's misuse_events grew by %llu",
			  (unsigned long long)lv->misuse_caused,
			  (unsigned long long)(b->misuse_events - a->misuse_events));
	if (lv->handler) {
		int got = lv->flavor_reports;

		add_check(lv, "stall_reports", (uint64_t)got == reported ||
			  (b->current_age_ns && (uint64_t)got + 1 == reported),
			  "urcutorture's handler got %d stall reports of urcu_%s, the library's "
			  "stalls_reported grew by %llu", got, run->ops->lib_flavor,
			  (unsigned long long)reported);
	}
}

/* ---- the combination ---- */

static int self_tid(void)
{
	return (int)syscall(SYS_gettid);
}

void ut_lib_begin(struct ut_run *run)
{
	const struct ut_flavor_ops *ops = run->ops;
	const struct ut_config *cfg = run->cfg;
	struct ut_libview *lv;

	pthread_mutex_lock(&cap.lock);
	cap.n = 0;
	cap.stalls = 0;
	snprintf(cap.flavor, sizeof(cap.flavor), "%s", ops->lib_flavor ? ops->lib_flavor : "");
	pthread_mutex_unlock(&cap.lock);
	if (!ops->gp_stats && !ops->set_stall_handler)
		return;
	lv = calloc(1, sizeof(*lv));
	if (!lv)
		return;
	run->res->lib = lv;
	lv->t0_ns = ut_now_ns();
	lv->controller_tid = self_tid();
	lv->stall_timeout_ns = -1;
	if (ops->set_stall_handler) {
		ops->set_stall_handler(capture, NULL);
		lv->handler = true;
	}
	if (cfg->lib_stall_timeout_ns >= 0 && ops->set_stall_timeout &&
	    !ops->set_stall_timeout(cfg->lib_stall_timeout_ns / 1e9))
		lv->stall_timeout_ns = cfg->lib_stall_timeout_ns;
	if (ops->gp_stats) {
		int reads;

		lv->stats = true;
		/* The word first: read early, it can only loosen the bound. */
		lv->flips = ops->gp_flipped != NULL;
		if (lv->flips)
			lv->flipped_before = ops->gp_flipped();
		/*
		 * Acquire fence: the word's load before the statistics' loads
		 * (our own order only, as in flipped_after()).
		 */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		lv->settled = read_settled(ops, &lv->before, &reads);
		if (!lv->settled)
			lv->unsettled_reads = reads;
	}
}

void ut_lib_tick(struct ut_run *run)
{
	struct ut_libview *lv = run->res->lib;
	struct ut_gp_stats now;
	uint64_t flipped;

	if (!lv || !lv->stats || !lv->flips || lv->live_failed || run->ops->gp_stats(&now))
		return;
	flipped = flipped_after(run->ops);
	if (within_max(run->ops, lv, &now, &flipped))
		return;
	lv->live_failed = true;
	add_check(lv, "completed_max_live", false,
		  "%.3f s into the combination the library's completed had grown by %llu, but its "
		  "global word showed %llu grace periods begun with a reader registered, and hist[0] "
		  "(synchronize_rcu calls that found no reader) had grown by %llu: at most %llu "
		  "(one of them in flight at the start) can have ended",
		  (ut_now_ns() - run->t_start_ns) / 1e9,
		  (unsigned long long)(now.completed - lv->before.completed),
		  (unsigned long long)(flipped - lv->flipped_before),
		  (unsigned long long)(now.hist[0] - lv->before.hist[0]),
		  (unsigned long long)completed_max(lv, &now, flipped));
	lv->checks[lv->nchecks - 1].counted = true;
	/* Counted now, with the run's other errors, so that the stat lines show it. */
	__atomic_add_fetch(&run->cb_errors[UT_ERR_GP_STATS], 1, __ATOMIC_RELAXED);
}

/* urcutorture's own side: calls, the disjoint lower bound, the longest call. */
static void tool_side(struct ut_run *run, struct ut_libview *lv)
{
	const struct ut_result *res = run->res;
	uint64_t calls = 0, most = 0;

	for (int i = 0; i < run->nthreads; i++) {
		uint64_t g = ut_read(&run->threads[i].gps);

		calls += g;
		if (g > most)
			most = g;
	}
	lv->sync_calls = calls;
	lv->misuse_caused = __atomic_load_n(&run->misuse_caused, __ATOMIC_RELAXED);
	lv->distinct_gps = __atomic_load_n(&run->gp_distinct, __ATOMIC_RELAXED);
	if (most > lv->distinct_gps)
		lv->distinct_gps = most;
	lv->sync_max_ns = res->gp_lat_what && !strcmp(res->gp_lat_what, "synchronize_rcu") &&
			  res->gp_lat.count ? res->gp_lat.max : 0;
}

/* Give the reports and the timeout back to the library's defaults. */
static void restore(const struct ut_flavor_ops *ops, struct ut_libview *lv)
{
	if (lv->handler)
		ops->set_stall_handler(NULL, NULL);
	if (lv->stall_timeout_ns >= 0)
		(void)ops->set_stall_timeout(ut_lib_default_timeout_ns() / 1e9);
}

void ut_lib_end(struct ut_run *run)
{
	struct ut_result *res = run->res;
	struct ut_libview *lv = res->lib;
	const struct ut_flavor_ops *ops = run->ops;
	int reads;

	if (!lv)
		return;
	lv->t0_ns = run->t_start_ns;
	tool_side(run, lv);
	if (lv->stats) {
		/* Every earlier grace period counted (see the top of this file). */
		ops->synchronize_rcu();
		/* The reports first: the library counts one before handing it over. */
		take_reports(lv);
		if (!read_settled(ops, &lv->after, &reads)) {
			if (lv->settled)
				lv->unsettled_reads = reads;
			lv->settled = false;
		}
		if (lv->flips)
			lv->flipped_after = flipped_after(ops);
		run_checks(run, lv, lv->settled);
	} else {
		take_reports(lv);
	}
	restore(ops, lv);
	for (int i = 0; i < lv->nchecks; i++) {
		if (lv->checks[i].ok)
			continue;
		if (!lv->checks[i].counted)
			res->errors[UT_ERR_GP_STATS]++;
		if (!res->note[0])
			snprintf(res->note, sizeof(res->note), "gp-stats: %s check failed",
				 lv->checks[i].name);
	}
}

void ut_lib_free(struct ut_result *r)
{
	if (!r->lib)
		return;
	free(r->lib->reports);
	free(r->lib);
	r->lib = NULL;
}

/* ---- reports ---- */

void ut_lib_thread_name(const struct ut_result *r, int tid, char *buf, size_t len)
{
	snprintf(buf, len, "a thread urcutorture did not start");
	if (r->lib && tid == r->lib->controller_tid)
		snprintf(buf, len, "controller");
	for (int i = 0; i < r->nthreads; i++)
		if (r->threads[i].ktid == tid)
			snprintf(buf, len, "%s %d", r->threads[i].kind, r->threads[i].idx);
}

static void timeout_text(const struct ut_libview *lv, char *buf, size_t len)
{
	char d[32];

	if (lv->stall_timeout_ns >= 0) {
		ut_format_duration((uint64_t)lv->stall_timeout_ns, d, sizeof(d));
		snprintf(buf, len, "%s%s", lv->stall_timeout_ns ? d : "0", lv->stall_timeout_ns ? "" : ": off");
	} else {
		ut_format_duration(ut_lib_default_timeout_ns(), d, sizeof(d));
		snprintf(buf, len, "the default, %s", d);
	}
}

/* A report's lines, indented, to the sink. */
static void print_text(const struct ut_sink *sink, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");

		ut_out(sink, "    | %.*s\n", (int)n, text);
		text += n + (text[n] == '\n');
	}
}

static const struct ut_lib_report *first_of(const struct ut_libview *lv, bool ended)
{
	for (int i = 0; i < lv->nreports; i++)
		if (lv->reports[i].ended == ended)
			return &lv->reports[i];
	return NULL;
}

void ut_lib_report(const struct ut_config *cfg, const struct ut_result *r)
{
	const struct ut_libview *lv = r->lib;
	const struct ut_sink *sink = &cfg->inv->sink;

	if (!lv)
		return;
	if (lv->stats) {
		const struct ut_gp_stats *a = &lv->before, *b = &lv->after;
		uint64_t n = b->completed - a->completed;
		char mean[32], max[32], upper[48] = "", caused[48] = "";
		int bad = 0;

		for (int i = 0; i < lv->nchecks; i++)
			bad += !lv->checks[i].ok;
		ut_format_ns(n ? (b->wait_ns_total - a->wait_ns_total) / n : 0, mean, sizeof(mean));
		ut_format_ns(b->wait_ns_max, max, sizeof(max));
		if (lv->flips && !lv->at_stall)
			snprintf(upper, sizeof(upper), ", <= %llu could",
				 (unsigned long long)completed_max(lv, b, lv->flipped_after));
		if (lv->misuse_caused)
			snprintf(caused, sizeof(caused), " (urcutorture caused %llu)",
				 (unsigned long long)lv->misuse_caused);
		ut_out(sink, "  gp-stats        library: %llu grace periods (mean %s, longest since start "
		       "%s), %llu stall reports, %llu misuse events%s; urcutorture saw >= %llu end%s: %s\n",
		       (unsigned long long)n, mean, max,
		       (unsigned long long)(b->stalls_reported - a->stalls_reported),
		       (unsigned long long)(b->misuse_events - a->misuse_events), caused,
		       (unsigned long long)lv->distinct_gps, upper, bad ? "MISMATCH" : "agree");
	}
	if (lv->handler) {
		const struct ut_lib_report *first = first_of(lv, false), *end = first_of(lv, true);
		char to[48];
		int nend = 0;

		for (int i = 0; i < lv->nreports; i++)
			nend += lv->reports[i].ended;
		timeout_text(lv, to, sizeof(to));
		if (!lv->captured) {
			ut_out(sink, "  lib stalls      none (library stall timeout %s)\n", to);
		} else {
			ut_out(sink, "  lib stalls      %d reports, %d \"ended\" lines (library stall timeout "
			       "%s)%s\n", lv->flavor_reports, nend, to,
			       first ? "; the first:" : "");
			if (first) {
				ut_out(sink, "    at %.3f s into the combination:\n",
				       first->at_ns > lv->t0_ns ? (first->at_ns - lv->t0_ns) / 1e9 : 0.0);
				print_text(sink, first->text);
				for (int k = 0; k < first->ntids && k < UT_LIB_TIDS; k++) {
					char who[64];

					ut_lib_thread_name(r, first->tid[k], who, sizeof(who));
					ut_out(sink, "    tid %d is urcutorture's %s\n", first->tid[k], who);
				}
			}
			if (end)
				print_text(sink, end->text);
			if (lv->captured > (first ? 1 : 0) + (end ? 1 : 0))
				ut_out(sink, "    (%d more in the JSON report%s)\n",
				       lv->captured - (first ? 1 : 0) - (end ? 1 : 0),
				       lv->captured > lv->nreports ? ", which keeps the last ones" : "");
		}
	}
	for (int i = 0; i < lv->nchecks; i++)
		if (!lv->checks[i].ok)
			ut_out(sink, "!!! gp-stats: %s: %s\n", lv->checks[i].name, lv->checks[i].detail);
}

static void json_stats(struct uj *j, const struct ut_libview *lv)
{
	const struct ut_gp_stats *a = &lv->before, *b = &lv->after;

	uj_obj(j, "gp_stats");
	uj_u64(j, "completed", b->completed - a->completed);
	uj_u64(j, "wait_ns_total", b->wait_ns_total - a->wait_ns_total);
	uj_u64(j, "stalls_reported", b->stalls_reported - a->stalls_reported);
	uj_u64(j, "misuse_events", b->misuse_events - a->misuse_events);
	uj_u64(j, "wait_ns_max", b->wait_ns_max);
	uj_u64(j, "waiters", b->waiters);
	uj_u64(j, "current_age_ns", b->current_age_ns);
	uj_u64(j, "holdouts", b->holdouts);
	uj_arr(j, "histogram_log2");
	for (int i = 0; i < b->nhist; i++) {
		uint64_t c = b->hist[i] - a->hist[i];

		if (!c)
			continue;
		uj_obj(j, NULL);
		uj_u64(j, "ge", i ? 1ull << i : 0);
		if (i < b->nhist - 1)
			uj_u64(j, "lt", 1ull << (i + 1));
		else
			uj_null(j, "lt");
		uj_u64(j, "count", c);
		uj_end_obj(j);
	}
	uj_end_arr(j);
	uj_bool(j, "at_stall", lv->at_stall);
	uj_bool(j, "settled", lv->settled);
	uj_obj(j, "urcutorture");
	uj_u64(j, "grace_periods_seen", lv->distinct_gps);
	uj_u64(j, "synchronize_rcu_calls", lv->sync_calls);
	if (lv->flips && !lv->at_stall)
		uj_u64(j, "grace_periods_max", completed_max(lv, b, lv->flipped_after));
	else
		uj_null(j, "grace_periods_max");
	uj_u64(j, "misuse_caused", lv->misuse_caused);
	if (lv->sync_max_ns)
		uj_u64(j, "synchronize_rcu_max_ns", lv->sync_max_ns);
	else
		uj_null(j, "synchronize_rcu_max_ns");
	uj_end_obj(j);
	uj_arr(j, "checks");
	for (int i = 0; i < lv->nchecks; i++) {
		uj_obj(j, NULL);
		uj_str(j, "name", lv->checks[i].name);
		uj_bool(j, "ok", lv->checks[i].ok);
		uj_str(j, "detail", lv->checks[i].detail);
		uj_end_obj(j);
	}
	uj_end_arr(j);
	uj_end_obj(j);
}

void ut_lib_json(struct uj *j, const struct ut_result *r)
{
	const struct ut_libview *lv = r->lib;

	if (!lv || !lv->stats)
		uj_null(j, "gp_stats");
	else
		json_stats(j, lv);
	if (!lv || !lv->handler) {
		uj_null(j, "library_stall_reports");
		uj_null(j, "library_stall_reports_total");
		return;
	}
	uj_arr(j, "library_stall_reports");
	for (int i = 0; i < lv->nreports; i++) {
		const struct ut_lib_report *rep = &lv->reports[i];

		uj_obj(j, NULL);
		uj_dbl(j, "t_s", rep->at_ns > lv->t0_ns ? (rep->at_ns - lv->t0_ns) / 1e9 : 0.0);
		uj_str(j, "kind", rep->ended ? "ended" : "report");
		uj_str(j, "flavor", rep->flavor);
		uj_u64(j, "grace_period", rep->gp);
		uj_arr(j, "holdouts");
		for (int k = 0; k < rep->ntids && k < UT_LIB_TIDS; k++) {
			char who[64];

			ut_lib_thread_name(r, rep->tid[k], who, sizeof(who));
			uj_obj(j, NULL);
			uj_i64(j, "tid", rep->tid[k]);
			uj_str(j, "name", rep->name[k]);
			uj_str(j, "what", rep->what[k]);
			uj_str(j, "thread", who);
			uj_end_obj(j);
		}
		uj_end_arr(j);
		uj_i64(j, "holdouts_named", rep->ntids);
		uj_str(j, "text", rep->text);
		uj_bool(j, "truncated", rep->truncated);
		uj_end_obj(j);
	}
	uj_end_arr(j);
	uj_i64(j, "library_stall_reports_total", lv->captured);
}

/* ---- the watchdog's stall report ---- */

void ut_lib_stall_section(struct ut_run *run, uint64_t now, struct ut_result *r)
{
	const struct ut_libview *src = run->res->lib;
	const struct ut_sink *sink = &run->cfg->inv->sink;
	const struct ut_lib_report *first;
	struct ut_libview *lv;
	int seen[UT_LIB_REPORTS * UT_LIB_TIDS], nseen = 0;
	char to[48];

	if (!src || !(lv = calloc(1, sizeof(*lv))))
		return;
	*lv = *src;
	lv->reports = NULL;
	lv->nchecks = 0;
	lv->at_stall = true;
	lv->settled = false;
	lv->t0_ns = run->t_start_ns;
	r->lib = lv;
	tool_side(run, lv);
	take_reports(lv);
	if (lv->stats && run->ops->gp_stats(&lv->after))
		lv->after = lv->before;
	if (lv->handler) {
		timeout_text(lv, to, sizeof(to));
		first = first_of(lv, false);
		if (!first) {
			ut_out(sink, "  library: no stall report in this combination (library stall "
			       "timeout %s)\n", to);
		} else {
			double at = first->at_ns > lv->t0_ns ? (first->at_ns - lv->t0_ns) / 1e9 : 0.0;

			ut_out(sink, "  library: %d stall reports, the first at %.3f s into the "
			       "combination, %.3f s before this one (library stall timeout %s):\n",
			       lv->flavor_reports, at, now > first->at_ns ? (now - first->at_ns) / 1e9 : 0.0,
			       to);
			print_text(sink, first->text);
		}
		/* Every thread the library named, as urcutorture sees it. */
		for (int i = 0; i < lv->nreports; i++) {
			const struct ut_lib_report *rep = &lv->reports[i];

			for (int k = 0; k < rep->ntids && k < UT_LIB_TIDS; k++) {
				struct ut_thread *t = NULL;
				bool dup = false;
				char who[64];

				for (int s = 0; s < nseen; s++)
					dup |= seen[s] == rep->tid[k];
				if (dup || nseen >= (int)(sizeof(seen) / sizeof(seen[0])))
					continue;
				seen[nseen++] = rep->tid[k];
				for (int x = 0; x < run->nthreads; x++)
					if (__atomic_load_n(&run->threads[x].ktid, __ATOMIC_RELAXED) == rep->tid[k])
						t = &run->threads[x];
				ut_lib_thread_name(r, rep->tid[k], who, sizeof(who));
				if (t) {
					const char *state = __atomic_load_n(&t->state, __ATOMIC_RELAXED);
					uint64_t since = __atomic_load_n(&t->state_since_ns, __ATOMIC_RELAXED);

					ut_out(sink, "  the library names tid %d \"%s\" (%s): urcutorture's %s, "
					       "\"%s\" for %.1f s\n", rep->tid[k], rep->name[k], rep->what[k],
					       who, state ? state : "?",
					       since && since < now ? (now - since) / 1e9 : 0.0);
				} else {
					ut_out(sink, "  the library names tid %d \"%s\" (%s): %s\n", rep->tid[k],
					       rep->name[k], rep->what[k], who);
				}
			}
		}
	}
	if (lv->stats) {
		char flight[64] = "no grace period in flight";

		if (lv->after.current_age_ns)
			snprintf(flight, sizeof(flight), "a grace period in flight for %.3f s",
				 lv->after.current_age_ns / 1e9);
		ut_out(sink, "  library gp-stats now: %s, %llu holdouts, %llu waiters; in this "
		       "combination %llu grace periods completed, %llu stall reports\n", flight,
		       (unsigned long long)lv->after.holdouts, (unsigned long long)lv->after.waiters,
		       (unsigned long long)(lv->after.completed - lv->before.completed),
		       (unsigned long long)(lv->after.stalls_reported - lv->before.stalls_reported));
	}
}
