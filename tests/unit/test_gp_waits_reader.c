// SPDX-License-Identifier: MIT
/*
 * A grace period waits for the readers that were inside a critical section
 * when it started.
 *
 * Each round publishes an object, starts readers that lock, pick the object
 * up, announce it, hold it for a while (long enough that the updater gives
 * up spinning and sleeps) and check it is still alive before unlocking.
 * The updater, once every reader holds the object, unpublishes it, calls
 * synchronize_rcu, records whether all readers had already left, and
 * poisons the object.  A synchronize_rcu that returns early fails both the
 * "readers had left" check and (usually) the readers' liveness checks; one
 * that loses the readers' wake-up fails the latency check or hangs into the
 * test timeout.
 *
 * A last round has three updaters call synchronize_rcu concurrently while
 * one reader holds the object: grace periods are shared between concurrent
 * callers, and every one of them must still wait for the reader.
 *
 * memb and bp also run this with URCU_DISABLE_MEMBARRIER=1 in the
 * environment (fenced readers instead of membarrier(2)); the test then
 * checks that the library did fall back.
 */
#include <stdbool.h>

#include "flavor-select.h"
#include "test-util.h"

#define MAX_READERS	2

struct reader {
	long hold_ms;			/* time spent in the critical section */
	int in;				/* holds the object */
	int left;			/* about to unlock */
	int live_at_start;
	int live_at_end;
	unsigned long long left_ns;
};

static struct t_obj *shared;

static void *reader_thread(void *arg)
{
	struct reader *rd = (struct reader *) arg;
	struct t_obj *p;

	T_FN(register_thread)();
	T_FN(read_lock)();
	p = rcu_dereference(shared);
	rd->live_at_start = t_obj_alive(p);
	t_store(&rd->in, 1);
	t_sleep_ms(rd->hold_ms);
	rd->live_at_end = t_obj_alive(p);
	rd->left_ns = t_now_ns();
	t_store(&rd->left, 1);
	t_reader_exit();
	T_FN(unregister_thread)();
	return NULL;
}

static void run_round(int round, const long *hold_ms, int nreaders)
{
	struct reader rd[MAX_READERS];
	pthread_t tid[MAX_READERS];
	struct t_obj *old;
	unsigned long long t0, t1, last_left = 0;
	bool all_left = true, all_live = true;
	int i;

	memset(rd, 0, sizeof(rd));
	for (i = 0; i < nreaders; i++) {
		rd[i].hold_ms = hold_ms[i];
		tid[i] = t_thread_start(reader_thread, &rd[i]);
	}
	for (i = 0; i < nreaders; i++)
		t_wait_for(&rd[i].in, 1, 10000, "a reader to enter its critical section");

	old = rcu_xchg_pointer(&shared, t_obj_new((unsigned long) round + 1));
	t0 = t_now_ns();
	T_FN(synchronize_rcu)();
	t1 = t_now_ns();
	for (i = 0; i < nreaders; i++) {
		if (!t_load(&rd[i].left))
			all_left = false;
	}
	t_obj_kill(old);

	for (i = 0; i < nreaders; i++) {
		t_thread_join(tid[i]);
		if (!rd[i].live_at_start || !rd[i].live_at_end)
			all_live = false;
		if (rd[i].left_ns > last_left)
			last_left = rd[i].left_ns;
	}
	free(old);

	tap_ok(all_left, "%s/%s round %d (%d reader(s), longest hold %ld ms): "
		"synchronize_rcu returned only after every pre-existing reader left (waited %.1f ms)",
		T_FLAVOR, T_MODE, round, nreaders,
		nreaders > 1 && hold_ms[1] > hold_ms[0] ? hold_ms[1] : hold_ms[0],
		(double) (t1 - t0) / 1e6);
	tap_ok(all_live, "%s/%s round %d: readers never saw the object poisoned",
		T_FLAVOR, T_MODE, round);
	if (all_left) {
		double lag_ms = (double) (t1 - last_left) / 1e6;

		/*
		 * The last reader's unlock must wake the sleeping updater; a
		 * lost wake-up shows as a long lag (or a hang).  Generous bound
		 * for a loaded 2-CPU machine.
		 */
		tap_ok(lag_ms < 2000.0, "%s/%s round %d: updater resumed %.2f ms after the last unlock",
			T_FLAVOR, T_MODE, round, lag_ms);
	} else {
		tap_skip("round %d: no latency check (updater returned early)", round);
	}
}

#define NUPDATERS	3

struct updater {
	struct reader *rd;
	int waiting;
	int saw_left;
};

static void *updater_thread(void *arg)
{
	struct updater *up = (struct updater *) arg;

	t_store(&up->waiting, 1);
	T_FN(synchronize_rcu)();
	up->saw_left = t_load(&up->rd->left);
	return NULL;
}

static void concurrent_updaters(int round)
{
	struct reader rd;
	struct updater up[NUPDATERS];
	pthread_t rtid, utid[NUPDATERS];
	struct t_obj *old;
	int i, all = 1;

	memset(&rd, 0, sizeof(rd));
	memset(up, 0, sizeof(up));
	rd.hold_ms = 100;
	rtid = t_thread_start(reader_thread, &rd);
	t_wait_for(&rd.in, 1, 10000, "the reader to enter its critical section");
	old = rcu_xchg_pointer(&shared, t_obj_new((unsigned long) round + 1));
	for (i = 0; i < NUPDATERS; i++) {
		up[i].rd = &rd;
		utid[i] = t_thread_start(updater_thread, &up[i]);
	}
	for (i = 0; i < NUPDATERS; i++) {
		t_thread_join(utid[i]);
		if (!up[i].saw_left)
			all = 0;
	}
	t_obj_kill(old);
	t_thread_join(rtid);
	free(old);
	tap_ok(all, "%s/%s round %d: %d concurrent synchronize_rcu callers all waited for the "
		"reader", T_FLAVOR, T_MODE, round, NUPDATERS);
	tap_ok(rd.live_at_end, "%s/%s round %d: the reader's object stayed alive",
		T_FLAVOR, T_MODE, round);
}

static void check_membarrier_mode(void)
{
#if defined(TEST_FLAVOR_MEMB) || defined(TEST_FLAVOR_BP)
	int avail = T_FN(membarrier_available)();
	const char *off = getenv("URCU_DISABLE_MEMBARRIER");

	tap_diag("%s: membarrier(2) in use: %d", T_FLAVOR, avail);
	if (off && *off && strcmp(off, "0") != 0)
		tap_ok(avail == 0, "%s/%s: URCU_DISABLE_MEMBARRIER set: readers fall back to "
			"fences (membarrier_available() == 0)", T_FLAVOR, T_MODE);
#endif
}

int main(void)
{
	static const long one_long[] = { 100 };
	static const long staggered[] = { 40, 120 };
	static const long reversed[] = { 120, 40 };
	static const long short_cs[] = { 1 };
	int round = 0;

	shared = t_obj_new(0);
	run_round(round++, one_long, 1);
	run_round(round++, one_long, 1);
	run_round(round++, staggered, 2);
	run_round(round++, reversed, 2);
	run_round(round++, short_cs, 1);
	concurrent_updaters(round++);
	check_membarrier_mode();
	free(shared);
	return tap_done();
}
