// SPDX-License-Identifier: MIT
/*
 * Stall reports and grace-period statistics (urcu/gp-stats.h).
 *
 * A thread named "stuck-reader" holds a read-side critical section (qsbr:
 * stays online without quiescent states) for about 1.1 s while the main
 * thread waits in synchronize_rcu, with a stall timeout of 0.2 s and a
 * handler that keeps every report with its arrival time.  Checks:
 *   - reports arrive (due at 0.2 s, then 0.6 s: back-off doubles the
 *     interval), never two within one timeout period;
 *   - each contains "stall", the flavor, the reader's kernel thread id and
 *     name, and what it is doing (qsbr: online with no quiescent state;
 *     others: nesting depth 2, the depth it holds);
 *   - one "stall ended" line when the grace period ends;
 *   - the statistics, read by the stuck reader mid-stall: a grace period in
 *     flight (age >= 0.3 s), one holdout, one waiter; afterwards: completed,
 *     stalls_reported match, wait_ns_max >= 1 s, the histogram holds it;
 *   - a stall timeout of 0 turns reports off; set_stall_timeout(-1) and
 *     gp_stats(NULL) fail with EINVAL;
 *   - URCU_STALL_TIMEOUT=abc gives one warning line naming the variable (a
 *     forked child sets it before the process's first grace period, when
 *     the library reads it; no re-exec, which qemu-user without
 *     binfmt_misc cannot do for a foreign-architecture binary).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "flavor-select.h"
#include "test-util.h"
#include "child-stderr.h"

#include <urcu/gp-stats.h>

#define MAX_REPORTS	16

static pthread_mutex_t rep_lock = PTHREAD_MUTEX_INITIALIZER;
static char reports[MAX_REPORTS][4096];
static unsigned long long report_ns[MAX_REPORTS];
static int nreports;
static int nended;

static void handler(const char *report, void *arg)
{
	(void) arg;
	pthread_mutex_lock(&rep_lock);
	if (strstr(report, "stall ended"))
		nended++;
	else if (nreports < MAX_REPORTS) {
		snprintf(reports[nreports], sizeof(reports[0]), "%s", report);
		report_ns[nreports++] = t_now_ns();
	}
	pthread_mutex_unlock(&rep_lock);
}

/* A multi-line text as TAP comment lines. */
static void diag_lines(const char *title, const char *text)
{
	tap_diag("%s:", title);
	while (*text) {
		size_t n = strcspn(text, "\n");

		tap_diag("  %.*s", (int) n, text);
		text += n + (text[n] == '\n');
	}
}

struct reader {
	int in, release;
	int ktid;
	struct urcu_gp_stats mid;
};

static void *stuck_reader(void *arg)
{
	struct reader *rd = (struct reader *) arg;

	pthread_setname_np(pthread_self(), "stuck-reader");
	rd->ktid = (int) syscall(SYS_gettid);
	T_FN(register_thread)();
	T_FN(read_lock)();
	T_FN(read_lock)();
	t_store(&rd->in, 1);
	/*
	 * The statistics mid-stall, once the grace period that waits for us
	 * is 0.3 s old: measured from its start, not from ours, since a
	 * loaded machine may run the main thread's synchronize_rcu late.
	 */
	t_sleep_ms(300);
	T_FN(gp_stats)(&rd->mid);
	while (rd->mid.current_age_ns < 300000000ULL && !t_load(&rd->release)) {
		t_sleep_ms(10);
		T_FN(gp_stats)(&rd->mid);
	}
	t_wait_for(&rd->release, 1, T_START_LIMIT_MS, "the release");
	T_FN(read_unlock)();
	T_FN(read_unlock)();
	T_FN(quiescent_state)();
	T_FN(unregister_thread)();
	return NULL;
}

static int reports_so_far(void)
{
	int n;

	pthread_mutex_lock(&rep_lock);
	n = nreports;
	pthread_mutex_unlock(&rep_lock);
	return n;
}

/*
 * Ends the stall once the grace period is 1.1 s old and has had its first
 * two reports (due at 0.2 and 0.6 s): timed from the grace period's start,
 * however late the main thread began it, and bounded by T_START_LIMIT_MS.
 */
static void *releaser(void *arg)
{
	struct reader *rd = (struct reader *) arg;
	unsigned long long start = t_now_ns();
	struct urcu_gp_stats st;

	for (;;) {
		T_FN(gp_stats)(&st);
		if ((st.current_age_ns >= 1100000000ULL && reports_so_far() >= 2)
				|| t_ms_since(start) > (double) T_START_LIMIT_MS)
			break;
		t_sleep_ms(10);
	}
	t_store(&rd->release, 1);
	return NULL;
}

static void stalled_grace_period(void)
{
	struct reader rd;
	struct urcu_gp_stats before, after;
	char tid[32];
	pthread_t t, rel;
	bool named = true, min_gap = true;
	int i;

	memset(&rd, 0, sizeof(rd));
	T_FN(gp_stats)(&before);
	t = t_thread_start(stuck_reader, &rd);
	t_wait_for(&rd.in, 1, 10000, "the stuck reader");
	rel = t_thread_start(releaser, &rd);
	T_FN(synchronize_rcu)();
	t_thread_join(rel);
	t_thread_join(t);
	T_FN(gp_stats)(&after);

	pthread_mutex_lock(&rep_lock);
	tap_ok(nreports >= 2 && nreports <= 3, "%s/%s: 2 or 3 stall reports in 1.1 s at a 0.2 s timeout"
		" with back-off (got %d)", T_FLAVOR, T_MODE, nreports);
	snprintf(tid, sizeof(tid), "tid %d ", rd.ktid);
	for (i = 0; i < nreports; i++) {
		const char *what = T_IS_QSBR ? "online with no quiescent state"
			: "inside a read-side critical section at nesting depth 2";

		if (!strstr(reports[i], "stall") || !strstr(reports[i], "urcu_" T_FLAVOR)
				|| !strstr(reports[i], tid) || !strstr(reports[i], "\"stuck-reader\"")
				|| !strstr(reports[i], what) || !strstr(reports[i], "call_rcu backlog")) {
			named = false;
			diag_lines("unexpected report", reports[i]);
		}
		if (i && report_ns[i] - report_ns[i - 1] < 190000000ULL)
			min_gap = false;
	}
	if (nreports)
		diag_lines("first report", reports[0]);
	tap_ok(nreports && named, "%s/%s: each report names the flavor, the thread (%s, "
		"\"stuck-reader\"), what it does, the call_rcu backlog", T_FLAVOR, T_MODE, tid);
	tap_ok(min_gap, "%s/%s: never two reports within one timeout period", T_FLAVOR, T_MODE);
	tap_ok(nended == 1, "%s/%s: one \"stall ended\" line (got %d)", T_FLAVOR, T_MODE, nended);
	pthread_mutex_unlock(&rep_lock);

	tap_ok(rd.mid.current_age_ns >= 300000000ULL && rd.mid.holdouts >= 1
		&& rd.mid.waiters >= 1, "%s/%s: mid-stall: age %.3f s, %llu holdouts, %llu waiters",
		T_FLAVOR, T_MODE, rd.mid.current_age_ns / 1e9, rd.mid.holdouts, rd.mid.waiters);
	tap_ok(after.completed > before.completed && after.current_age_ns == 0
		&& after.stalls_reported - before.stalls_reported == (unsigned long long) nreports,
		"%s/%s: after: completed %llu -> %llu, stalls_reported +%llu, nothing in flight",
		T_FLAVOR, T_MODE, before.completed, after.completed,
		after.stalls_reported - before.stalls_reported);
	tap_ok(after.wait_ns_max >= 1000000000ULL && after.wait_ns_total >= after.wait_ns_max
		&& after.hist[29] + after.hist[30] >= 1, "%s/%s: wait_ns_max %.3f s, in the "
		"histogram's 2^29..2^31 ns buckets", T_FLAVOR, T_MODE, after.wait_ns_max / 1e9);
}

static void *brief_reader(void *arg)
{
	struct reader *rd = (struct reader *) arg;

	T_FN(register_thread)();
	T_FN(read_lock)();
	t_store(&rd->in, 1);
	t_sleep_ms(400);
	T_FN(read_unlock)();
	T_FN(quiescent_state)();
	T_FN(unregister_thread)();
	return NULL;
}

static void timeout_off(void)
{
	struct reader rd;
	pthread_t t;
	int before;

	memset(&rd, 0, sizeof(rd));
	tap_ok(T_FN(set_stall_timeout)(0) == 0, "%s/%s: set_stall_timeout(0)", T_FLAVOR, T_MODE);
	pthread_mutex_lock(&rep_lock);
	before = nreports;
	pthread_mutex_unlock(&rep_lock);
	t = t_thread_start(brief_reader, &rd);
	t_wait_for(&rd.in, 1, 10000, "the brief reader");
	T_FN(synchronize_rcu)();
	t_thread_join(t);
	pthread_mutex_lock(&rep_lock);
	tap_ok(nreports == before, "%s/%s: timeout 0: a 0.4 s grace period reports nothing",
		T_FLAVOR, T_MODE);
	pthread_mutex_unlock(&rep_lock);
}

static void bad_arguments(void)
{
	errno = 0;
	tap_ok(T_FN(set_stall_timeout)(-1.0) == -1 && errno == EINVAL,
		"%s/%s: set_stall_timeout(-1) fails with EINVAL", T_FLAVOR, T_MODE);
	errno = 0;
	tap_ok(T_FN(gp_stats)(NULL) == -1 && errno == EINVAL,
		"%s/%s: gp_stats(NULL) fails with EINVAL", T_FLAVOR, T_MODE);
}

/*
 * In a forked child: URCU_STALL_TIMEOUT=abc, then the process's first grace
 * period, which reads it (once).  Neither the parent nor the child has run
 * a grace period before (checked: exit 98 otherwise, a failure).  A
 * registered thread (qsbr: offline), or synchronize_rcu() would need no
 * grace period and return without one.
 */
static void env_child(void)
{
	struct urcu_gp_stats st;

	if (T_FN(gp_stats)(&st) || st.completed != 0)
		_exit(98);
	setenv("URCU_STALL_TIMEOUT", "abc", 1);
	T_FN(register_thread)();
	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();
	T_FN(thread_online)();
	T_FN(unregister_thread)();
}

static void bad_environment(void)
{
	int status;
	char err[512];
	const char *nl;

	child_stderr_run(env_child, &status, err, sizeof(err));
	nl = strchr(err, '\n');
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0
		&& strncmp(err, "urcu: URCU_STALL_TIMEOUT=", 25) == 0 && nl && !nl[1],
		"%s/%s: URCU_STALL_TIMEOUT=abc: one warning line naming the variable", T_FLAVOR, T_MODE);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		tap_diag("child wait status 0x%x (exit 98: a grace period ran before the check)",
			 status);
	if (err[0])
		diag_lines("child stderr", err);
}

int main(void)
{
	bad_arguments();
	bad_environment();
	urcu_set_stall_handler(handler, NULL);
	if (T_FN(set_stall_timeout)(0.2))
		tap_bail("set_stall_timeout(0.2) failed");
	stalled_grace_period();
	timeout_off();
	urcu_set_stall_handler(NULL, NULL);
	return tap_done();
}
