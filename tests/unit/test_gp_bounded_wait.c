// SPDX-License-Identifier: MIT
/*
 * synchronize_rcu waits for at most two grace periods: the one in progress
 * when it is called, if any, and one that starts after the call.
 *
 * One reader runs back-to-back critical sections of HOLD_MS each (qsbr: an
 * online period ended by a quiescent state), so that every grace period
 * ends at the end of a section: the first section end after the grace
 * period's flip.  A call of synchronize_rcu that arrives while section k
 * runs must therefore return by the end of section k + 1 (the grace period
 * in progress ends by the end of section k, the next one by the end of
 * section k + 1), whatever the scheduler does to the section lengths: the
 * test counts section ends during each call, not milliseconds.  The reader
 * counts a section before leaving it, so a count taken before a call
 * includes no end that could already have released the call's grace
 * period.
 *
 * Callers arrive MARKS times per section, at evenly spaced marks (events
 * the reader signals, not sleeps), each of NCALLERS threads at every
 * NCALLERS-th mark, so that callers keep arriving while grace periods run.
 * A leader that runs one more grace period for the callers that queued
 * behind it makes those that arrived during that extra grace period wait
 * for three section ends: its end, then the next leader's own grace period
 * and its extra (about half of the calls, with the old leader).
 *
 * The only timing assumption: a hand-off between two grace periods (wake
 * the next leader, number, force order, flip) takes less than one section
 * (HOLD_MS).  A slower hand-off shows as an extra section end.
 *
 * On 32-bit a grace period flips twice and waits for the readers after each
 * flip (urcu-gp.c): the reader, back in a section right after the first
 * wait, holds the second, so a grace period ends at the second section end
 * after it starts, and a call may span twice as many ends (4; the old leader
 * gave up to 6).  Measured under qemu-i386: at most 4 ends of 200 ms or 1 s
 * sections, in every flavor.
 */
#include <pthread.h>
#include <stdbool.h>

#include "flavor-select.h"
#include "test-util.h"

#define HOLD_MS		200	/* one critical section */
#define RUN_SECTIONS	12	/* sections during which callers call */
#define MARKS		4	/* marks per section: callers arrive there */
#define NCALLERS	16	/* each calls at every NCALLERS-th mark */
/* Section ends one grace period may span: one per flip. */
#if CAA_BITS_PER_LONG == 64
# define GP_ENDS	1
#else
# define GP_ENDS	2
#endif
#define MAX_ENDS	(2 * GP_ENDS)	/* section ends one call may span */

static int ends;		/* sections the reader finished */
static int marks;		/* marks passed (MARKS per section) */
static pthread_barrier_t start;

struct caller {
	int first;		/* the first mark it calls at */
	int calls;
	int over;		/* calls that spanned more than MAX_ENDS */
	int max_ends;
	double max_ms;
};

/*
 * The reader's counters.  Acquire, pairing with the release increment in
 * bump_ctr(): what the reader did before counting (entering the section a
 * mark falls in) happens before a caller that saw the count goes on.
 */
static int load_ctr(const int *c)
{
	return __atomic_load_n(c, __ATOMIC_ACQUIRE);
}

/* Release: pairs with the acquire load in load_ctr(). */
static void bump_ctr(int *c)
{
	__atomic_add_fetch(c, 1, __ATOMIC_RELEASE);
}

static void *reader_thread(void *arg)
{
	(void) arg;
	T_FN(register_thread)();
	pthread_barrier_wait(&start);
	while (load_ctr(&ends) < RUN_SECTIONS) {
		T_FN(read_lock)();
		for (int q = 0; q < MARKS; q++) {
			t_sleep_ms(q ? HOLD_MS / MARKS : HOLD_MS / MARKS / 2);
			bump_ctr(&marks);
		}
		t_sleep_ms(HOLD_MS / MARKS / 2);
		/* Counted before the unlock: see the top of this file. */
		bump_ctr(&ends);
		t_reader_exit();
	}
	T_FN(unregister_thread)();
	return NULL;
}

/*
 * Wait (polling) until the reader passes mark number m (counted from 0);
 * false once the reader has stopped.
 */
static bool wait_mark(int m)
{
	while (load_ctr(&marks) <= m) {
		if (load_ctr(&ends) >= RUN_SECTIONS)
			return false;
		t_sleep_ms(1);
	}
	return true;
}

static void *caller_thread(void *arg)
{
	struct caller *c = (struct caller *) arg;
	int m = c->first;

	pthread_barrier_wait(&start);
	while (wait_mark(m)) {
		unsigned long long t0;
		double ms;
		int e0, n;

		e0 = load_ctr(&ends);
		t0 = t_now_ns();
		T_FN(synchronize_rcu)();
		ms = t_ms_since(t0);
		n = load_ctr(&ends) - e0;
		c->calls++;
		if (n > MAX_ENDS) {
			c->over++;
			/* One line at a time (the stdio lock is recursive). */
			flockfile(stdout);
			tap_diag("the call at mark %d spanned %d section ends (%.0f ms, "
				"sections of %d ms)", m, n, ms, HOLD_MS);
			funlockfile(stdout);
		}
		if (n > c->max_ends)
			c->max_ends = n;
		if (ms > c->max_ms)
			c->max_ms = ms;
		/* The next of our marks still ahead (a long call skips some). */
		do
			m += NCALLERS;
		while (m < load_ctr(&marks));
	}
	return NULL;
}

int main(void)
{
	struct caller c[NCALLERS];
	pthread_t rtid, tid[NCALLERS];
	int i, calls = 0, over = 0, max_ends = 0;
	double max_ms = 0;

	memset(c, 0, sizeof(c));
	if (pthread_barrier_init(&start, NULL, NCALLERS + 1))
		tap_bail("pthread_barrier_init failed");
	rtid = t_thread_start(reader_thread, NULL);
	for (i = 0; i < NCALLERS; i++) {
		c[i].first = i;
		tid[i] = t_thread_start(caller_thread, &c[i]);
	}
	for (i = 0; i < NCALLERS; i++) {
		t_thread_join(tid[i]);
		calls += c[i].calls;
		over += c[i].over;
		if (c[i].max_ends > max_ends)
			max_ends = c[i].max_ends;
		if (c[i].max_ms > max_ms)
			max_ms = c[i].max_ms;
	}
	t_thread_join(rtid);
	pthread_barrier_destroy(&start);
	tap_diag("%s/%s: %d calls, longest %.0f ms (%.2f sections of %d ms), at most %d ends",
		T_FLAVOR, T_MODE, calls, max_ms, max_ms / HOLD_MS, HOLD_MS, max_ends);
	tap_ok(calls >= RUN_SECTIONS, "%s/%s: %d synchronize_rcu calls during %d sections",
		T_FLAVOR, T_MODE, calls, RUN_SECTIONS);
	tap_ok(over == 0, "%s/%s: no call spanned more than %d section ends (%d of %d calls did)",
	       T_FLAVOR, T_MODE, MAX_ENDS, over, calls);
	return tap_done();
}
