// SPDX-License-Identifier: MIT
/*
 * Grace-period statistics and stall reports (urcu/gp-stats.h), compiled
 * once per flavor.
 *
 * Everything here runs on the grace-period side: the leader (the one thread
 * running grace periods, holding the leader lock) time-stamps each grace
 * period at its start and end and, while it sleeps waiting for readers,
 * bounds the sleep by the next stall report's due time.  Readers are never
 * touched: no time stamp, no counter, no branch on their fast paths.
 *
 * Concurrency.  The watch state (struct watch) is written by the leader
 * only, so the leader reads it plainly; the statistics are also read by
 * urcu_<flavor>_gp_stats() from any thread, so every statistic is written
 * and read with relaxed atomics (__atomic builtins: 64-bit counters, also
 * on 32-bit targets).  They publish nothing else, so relaxed suffices, and
 * a reader of the statistics may see the fields of different instants (the
 * header says so).  waiters is the one counter written by every caller of
 * synchronize_rcu (relaxed add/sub).
 *
 * Stall reports.  When the leader wakes from a sleep past the due time, it
 * composes the report with the registry lock held (the holdouts are
 * registered records while it is held; /proc reads of thread names need no
 * allocation), drops the lock, hands the text to the handler
 * (urcu_common_stall_emit(): the application's, or standard error), and
 * takes the lock again; the caller then rescans every reader, as after any
 * sleep.  The next report is due twice as far ahead (back-off: never more
 * than one per timeout period), and the grace period's end adds one line
 * "stall ended after X s" if it reported.  The text lives in a static
 * buffer of the flavor: only the leader composes reports.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <urcu/call-rcu-stats.h>
#include <urcu/debug.h>
#include <urcu/gp-stats.h>

#include "urcu-internal.h"
#include "urcu-stall.h"
#include "probes.h"

/* The kernel's RCU CPU stall timeout; a server accepts it (man urcu_gp_stats). */
#define STALL_DEFAULT_NS	(21ULL * 1000000000ULL)
/* Holdouts named in one report; the rest are counted. */
#define STALL_MAX_NAMED		32
/* call_rcu workers whose backlog one report shows. */
#define STALL_MAX_WORKERS	16

static struct watch {
	/* Leader only. */
	uint64_t start_ns;	/* start of the grace period in flight */
	uint64_t due_ns;	/* next report, 0 when none is due */
	uint64_t interval_ns;	/* from the last report to the next */
	unsigned long seq;	/* its number */
	unsigned int reports;	/* reports about it so far */
	int env_read;		/* URCU_STALL_TIMEOUT looked at */
	/* Shared: relaxed atomics (see above). */
	uint64_t timeout_ns;	/* 0: no reports */
	int timeout_set;	/* set by the API: the environment is not read */
	uint64_t completed, wait_total, wait_max, in_flight_start, holdouts, stalls, waiters;
	uint64_t no_reader;	/* synchronize_rcu calls that found no reader */
	uint64_t hist[URCU_GP_STATS_HIST];
	char text[8192];	/* the report being composed (leader only) */
} watch;

static uint64_t rd(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void wr(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static unsigned int log2_bucket(uint64_t ns)
{
	unsigned int b = ns ? 63 - (unsigned int) __builtin_clzll(ns) : 0;

	return b < URCU_GP_STATS_HIST ? b : URCU_GP_STATS_HIST - 1;
}

static uint64_t stall_timeout(void)
{
	if (!__atomic_load_n(&watch.timeout_set, __ATOMIC_RELAXED))
		return urcu_common_stall_timeout_env(STALL_DEFAULT_NS);
	return rd(&watch.timeout_ns);
}

int URCU_FN(set_stall_timeout)(double seconds)
{
	if (!isfinite(seconds) || seconds < 0 || seconds > 1e9) {
		errno = EINVAL;
		return -1;
	}
	wr(&watch.timeout_ns, (uint64_t) (seconds * 1e9));
	__atomic_store_n(&watch.timeout_set, 1, __ATOMIC_RELAXED);
	return 0;
}

void URCU_FN(i_watch_no_reader)(void)
{
	__atomic_add_fetch(&watch.no_reader, 1, __ATOMIC_RELAXED);
}

void URCU_FN(i_watch_waiter)(int delta)
{
	__atomic_add_fetch(&watch.waiters, (uint64_t) (int64_t) delta, __ATOMIC_RELAXED);
}

void URCU_FN(i_watch_begin)(unsigned long seq)
{
	/* The environment is read at the first grace period (a bad value warns then). */
	if (caa_unlikely(!watch.env_read)) {
		(void) stall_timeout();
		watch.env_read = 1;
	}
	watch.start_ns = urcu_common_now_ns();
	watch.seq = seq;
	watch.reports = 0;
	watch.due_ns = 0;
	wr(&watch.in_flight_start, watch.start_ns);
}

void URCU_FN(i_watch_holdouts)(size_t n)
{
	wr(&watch.holdouts, n);
}

/* Appends to watch.text; the text stays NUL-terminated when it is full. */
static void say(size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= sizeof(watch.text) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(watch.text + *len, sizeof(watch.text) - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t) n < sizeof(watch.text) - *len ? (size_t) n
				: sizeof(watch.text) - 1 - *len;
}

/* The name of thread ktid of this process, from /proc (no allocation). */
static void thread_name(int32_t ktid, char *buf, size_t size)
{
	char path[64];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int) ktid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, size - 1);
		close(fd);
	}
	if (n <= 0) {
		snprintf(buf, size, "?");
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static void say_holdout(size_t *len, const struct urcu_i_reader *r, unsigned long v,
		double waited)
{
	char name[32];

	thread_name(r->ktid, name, sizeof(name));
	if (URCU_FLAVOR_IS_QSBR)
		say(len, "urcu: stall:   tid %d \"%s\": online with no quiescent state, waited on "
			"for %.3f s\n", (int) r->ktid, name, waited);
	else
		say(len, "urcu: stall:   tid %d \"%s\": %sinside a read-side critical section at "
			"nesting depth %lu, waited on for %.3f s\n", (int) r->ktid, name,
			URCU_FLAVOR_IS_BP ? "registered (bp) and " : "",
			v & URCU_GP_NEST_MASK, waited);
}

static void say_backlog(size_t *len)
{
	struct urcu_call_rcu_stats w[STALL_MAX_WORKERS];
	int n = URCU_FN(i_callrcu_stats_try)(w, STALL_MAX_WORKERS);

	if (n < 0) {
		say(len, "urcu: stall:   call_rcu backlog: not read (its lock is held)\n");
		return;
	}
	say(len, "urcu: stall:   call_rcu backlog:");
	if (n == 0)
		say(len, " no worker");
	for (int i = 0; i < n && i < STALL_MAX_WORKERS; i++)
		say(len, "%s worker %d: %lu", i ? ";" : "", i, w[i].backlog);
	if (n > STALL_MAX_WORKERS)
		say(len, "; %d more workers", n - STALL_MAX_WORKERS);
	say(len, "\n");
}

/*
 * Compose the report; registry lock held.  Each reader's word is loaded once:
 * the count in the headline and the threads named below it come from the
 * same snapshot, even if a holdout leaves its critical section meanwhile.
 */
static void compose(unsigned long g, uint64_t now)
{
	struct urcu_i_reader *r, *named[STALL_MAX_NAMED];
	unsigned long named_v[STALL_MAX_NAMED];
	double waited = (double) (now - watch.start_ns) / 1e9;
	size_t len = 0, nreg = 0, nheld = 0;

	cds_list_for_each_entry(r, &URCU_FN(i_registry).readers, node) {
		unsigned long v = uatomic_load(&r->ctr, CMM_RELAXED);

		nreg++;
		if (!(v & URCU_GP_NEST_MASK) || !((v ^ g) & URCU_GP_SEQ_MASK))
			continue;
		URCU_PROBE(stall, URCU_PROBE_FLAVOR, watch.seq, r->ktid, now - watch.start_ns,
			v & URCU_GP_NEST_MASK);
		if (nheld < STALL_MAX_NAMED) {
			named[nheld] = r;
			named_v[nheld] = v;
		}
		nheld++;
	}
	say(&len, "urcu: stall: urcu_%s grace period %lu has waited %.3f s for %zu of %zu "
		"registered readers (report %u)\n", URCU_FLAVOR_NAME, watch.seq, waited, nheld,
		nreg, watch.reports + 1);
	for (size_t i = 0; i < nheld && i < STALL_MAX_NAMED; i++)
		say_holdout(&len, named[i], named_v[i], waited);
	if (nheld > STALL_MAX_NAMED)
		say(&len, "urcu: stall:   ... and %zu more\n", nheld - STALL_MAX_NAMED);
	say_backlog(&len);
}

int64_t URCU_FN(i_watch_sleep_ns)(void)
{
	uint64_t now, timeout = stall_timeout();

	if (!timeout)
		return -1;
	if (!watch.due_ns) {
		watch.interval_ns = timeout;
		watch.due_ns = watch.start_ns + timeout;
	}
	now = urcu_common_now_ns();
	return watch.due_ns > now ? (int64_t) (watch.due_ns - now) : 0;
}

void URCU_FN(i_watch_check)(unsigned long g)
{
	struct urcu_i_registry *reg = &URCU_FN(i_registry);
	uint64_t now;

	if (!watch.due_ns || !stall_timeout())
		return;
	now = urcu_common_now_ns();
	if (now < watch.due_ns)
		return;
	compose(g, now);
	watch.reports++;
	__atomic_add_fetch(&watch.stalls, 1, __ATOMIC_RELAXED);
	watch.interval_ns *= 2;
	watch.due_ns = now + watch.interval_ns;
	URCU_FN(i_unlock)(&reg->lock);
	urcu_common_stall_emit(watch.text);
	URCU_FN(i_lock)(&reg->lock);
}

void URCU_FN(i_watch_end)(void)
{
	uint64_t d = urcu_common_now_ns() - watch.start_ns;

	wr(&watch.in_flight_start, 0);
	wr(&watch.holdouts, 0);
	wr(&watch.wait_total, rd(&watch.wait_total) + d);
	if (d > rd(&watch.wait_max))
		wr(&watch.wait_max, d);
	wr(&watch.hist[log2_bucket(d)], rd(&watch.hist[log2_bucket(d)]) + 1);
	wr(&watch.completed, rd(&watch.completed) + 1);
	URCU_PROBE(gp_end, URCU_PROBE_FLAVOR, watch.seq, d);
	if (watch.reports) {
		char line[160];

		snprintf(line, sizeof(line), "urcu: stall ended: urcu_%s grace period %lu "
			"ended after %.3f s\n", URCU_FLAVOR_NAME, watch.seq, (double) d / 1e9);
		urcu_common_stall_emit(line);
	}
}

int URCU_FN(gp_stats)(struct urcu_gp_stats *out)
{
	uint64_t start, no_reader;

	if (!out) {
		errno = EINVAL;
		return -1;
	}
	memset(out, 0, sizeof(*out));
	/* Calls that found no reader: grace periods of 0 ns (urcu-gp.c). */
	no_reader = rd(&watch.no_reader);
	out->completed = rd(&watch.completed) + no_reader;
	out->waiters = rd(&watch.waiters);
	out->wait_ns_total = rd(&watch.wait_total);
	out->wait_ns_max = rd(&watch.wait_max);
	start = rd(&watch.in_flight_start);
	if (start) {
		uint64_t now = urcu_common_now_ns();

		out->current_age_ns = now > start ? now - start : 0;
	}
	out->holdouts = rd(&watch.holdouts);
	out->stalls_reported = rd(&watch.stalls);
	out->misuse_events = urcu_misuse_events();
	for (int i = 0; i < URCU_GP_STATS_HIST; i++)
		out->hist[i] = rd(&watch.hist[i]);
	out->hist[0] += no_reader;
	return 0;
}
