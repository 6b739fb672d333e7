// SPDX-License-Identifier: MIT
/*
 * synchronize_rcu() with no registered thread needs no grace period
 * (urcu-gp.c, "No reader"), and one registered thread brings the grace
 * period back.
 *
 * 1. No thread registered: N calls from a thread that never registered
 *    each count as a grace period of 0 ns in gp_stats (completed and
 *    hist[0] grow by N, wait_ns_total does not).
 * 2. One thread registered and idle (qsbr: offline): every call runs a
 *    grace period (hist[0] does not grow: one takes the clock's time at
 *    least), and again none once the thread has unregistered.
 * 3. A polled cookie still pending makes the call run a grace period: the
 *    cookie is complete when synchronize_rcu() returns.
 * 4. Threads that register, read one object and unregister, over and over,
 *    against an updater that replaces the object, calls synchronize_rcu()
 *    and kills the old one (most calls find no thread registered): no
 *    reader ever sees a killed object.
 * Seeded by hand: do_register() and do_unregister() without their count
 * updates fail check 2 in every flavor and mode, and check 4 in some runs
 * (mb/inline: 2 killed objects seen in 288,093 updates).  The fence after
 * the increment is the model's to prove (tests/model: bug-register-no-fence);
 * no test on x86 can.
 */
#include <stdbool.h>

#include "flavor-select.h"
#include "test-util.h"

#include <urcu/gp-stats.h>

#define CALLS		1000
#define READERS		2
#define RUN_MS		300
#define RING		64	/* killed objects kept before their free */

static struct t_obj *shared;
static int stop, gate, bad, release;

static struct urcu_gp_stats stats(void)
{
	struct urcu_gp_stats st;

	if (T_FN(gp_stats)(&st))
		tap_bail("gp_stats failed");
	return st;
}

static void no_reader(void)
{
	struct urcu_gp_stats a = stats(), b;

	for (int i = 0; i < CALLS; i++)
		T_FN(synchronize_rcu)();
	b = stats();
	tap_ok(b.completed - a.completed == CALLS && b.hist[0] - a.hist[0] == CALLS
		&& b.wait_ns_total == a.wait_ns_total,
		"%s/%s: no registered thread: %d calls, completed +%llu, hist[0] +%llu, "
		"wait_ns_total +%llu", T_FLAVOR, T_MODE, CALLS, b.completed - a.completed,
		b.hist[0] - a.hist[0], b.wait_ns_total - a.wait_ns_total);
}

static void *idle_thread(void *arg)
{
	(void) arg;
	T_FN(register_thread)();
	T_FN(thread_offline)();
	t_gate_pass(&gate);
	t_wait_for(&release, 1, 20000, "the main thread's calls");
	T_FN(thread_online)();
	T_FN(unregister_thread)();
	return NULL;
}

static void one_registered(void)
{
	struct urcu_gp_stats a, b, c;
	pthread_t t = t_thread_start(idle_thread, NULL);

	t_gate_wait(&gate, 1, "registered thread");
	a = stats();
	for (int i = 0; i < 10; i++)
		T_FN(synchronize_rcu)();
	b = stats();
	t_store(&release, 1);
	t_thread_join(t);
	for (int i = 0; i < 10; i++)
		T_FN(synchronize_rcu)();
	c = stats();
	tap_ok(b.completed - a.completed >= 10 && b.hist[0] == a.hist[0],
		"%s/%s: one idle registered thread: 10 calls run grace periods "
		"(completed +%llu, hist[0] +%llu)", T_FLAVOR, T_MODE,
		b.completed - a.completed, b.hist[0] - a.hist[0]);
	tap_ok(c.hist[0] - b.hist[0] == 10,
		"%s/%s: once it unregistered, 10 calls need none (hist[0] +%llu)",
		T_FLAVOR, T_MODE, c.hist[0] - b.hist[0]);
}

static void pending_cookie(void)
{
	struct urcu_gp_poll_state cookie = T_FN(start_poll_synchronize_rcu)();

	T_FN(synchronize_rcu)();
	tap_ok(T_FN(poll_state_synchronize_rcu)(cookie),
		"%s/%s: no registered thread, a cookie pending: complete after synchronize_rcu",
		T_FLAVOR, T_MODE);
}

static void *churn_reader(void *arg)
{
	unsigned long n = 0;

	(void) arg;
	while (!t_load(&stop)) {
		struct t_obj *o;

		T_FN(register_thread)();
		T_FN(read_lock)();
		o = rcu_dereference(shared);
		if (!t_obj_alive(o))
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
		t_reader_exit();
		T_FN(unregister_thread)();
		if (++n == 100)
			t_gate_pass(&gate);
	}
	return NULL;
}

static void churn(void)
{
	struct t_obj *ring[RING] = { NULL };
	pthread_t t[READERS];
	unsigned long long start;
	unsigned long updates = 0;

	t_store(&gate, 0);
	shared = t_obj_new(0);
	for (int i = 0; i < READERS; i++)
		t[i] = t_thread_start(churn_reader, NULL);
	t_gate_wait(&gate, READERS, "registering readers");
	start = t_now_ns();
	while (t_ms_since(start) < RUN_MS) {
		struct t_obj *old = rcu_xchg_pointer(&shared, t_obj_new(++updates));

		T_FN(synchronize_rcu)();
		t_obj_kill(old);
		free(ring[updates % RING]);
		ring[updates % RING] = old;
	}
	t_store(&stop, 1);
	for (int i = 0; i < READERS; i++)
		t_thread_join(t[i]);
	tap_ok(t_load(&bad) == 0, "%s/%s: readers that register for each section: %d saw a "
		"killed object in %lu updates", T_FLAVOR, T_MODE, t_load(&bad), updates);
	for (int i = 0; i < RING; i++)
		free(ring[i]);
	free(shared);
}

int main(void)
{
	alarm(60);
	no_reader();
	one_registered();
	pending_cookie();
	churn();
	return tap_done();
}
