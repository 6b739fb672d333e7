// SPDX-License-Identifier: MIT
/*
 * A grace period that waits for a long critical section sleeps, even while
 * other readers keep entering and leaving short ones.
 *
 * One reader holds a critical section (qsbr: stays online without a
 * quiescent state) for HOLD_MS; a second one loops on short sections (qsbr:
 * quiescent states) the whole time.  Once the updater sleeps it sets
 * URCU_GP_WAITER, so every exit of the looping reader takes the slow path;
 * those sections began after the grace period's flip, and their exits must
 * not wake it.  A library whose updater is woken by each of them re-arms,
 * forces order again (membarrier, a signal round or a fence) and is woken
 * again at once: a busy loop for the whole HOLD_MS, which also keeps the
 * CPU from a preempted reader it does wait for.  The check: the updater's
 * own CPU time during synchronize_rcu stays under a quarter of the wait
 * (the fixed library uses well under 1 ms of CPU; the busy loop, all of it
 * the scheduler gives).  CPU time, not wall time, so a loaded machine only
 * makes the check easier to pass for the right reason.
 *
 * Shown to catch the bug: with i_wake_updater_for() made to wake for every
 * reader (the previous behaviour), memb, mb, bp and signal fail the second
 * check (memb 198 ms of CPU in 204 ms, signal 135 in 200).  qsbr passes
 * either way: a qsbr reader takes the slow path only once per change of
 * the global word, and re-arming does not change it.
 */
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "flavor-select.h"
#include "test-util.h"

#define HOLD_MS		200

static int holder_in, holder_out, looper_in, stop;

static void *holder(void *arg)
{
	(void) arg;
	T_FN(register_thread)();
	T_FN(read_lock)();
	t_store(&holder_in, 1);
	t_sleep_ms(HOLD_MS);
	t_store(&holder_out, 1);
	t_reader_exit();
	T_FN(unregister_thread)();
	return NULL;
}

static void *looper(void *arg)
{
	unsigned long n = 0;

	(void) arg;
	T_FN(register_thread)();
	while (!t_load(&stop)) {
		T_FN(read_lock)();
		t_reader_exit();
		if (++n == 1000)
			t_store(&looper_in, 1);
	}
	T_FN(unregister_thread)();
	return NULL;
}

static double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec / 1e6;
}

int main(void)
{
	pthread_t h, l;
	unsigned long long t0;
	double cpu0, cpu_ms, wall_ms;
	bool waited;

	alarm(60);
	l = t_thread_start(looper, NULL);
	t_wait_for(&looper_in, 1, 10000, "the looping reader to start");
	h = t_thread_start(holder, NULL);
	t_wait_for(&holder_in, 1, 10000, "the holder to enter its critical section");
	t0 = t_now_ns();
	cpu0 = thread_cpu_ms();
	T_FN(synchronize_rcu)();
	cpu_ms = thread_cpu_ms() - cpu0;
	wall_ms = (double) (t_now_ns() - t0) / 1e6;
	waited = t_load(&holder_out);
	t_store(&stop, 1);
	t_thread_join(h);
	t_thread_join(l);
	tap_ok(waited, "%s/%s: synchronize_rcu waited for the %d ms critical section (%.1f ms)",
		T_FLAVOR, T_MODE, HOLD_MS, wall_ms);
	tap_ok(cpu_ms < wall_ms / 4, "%s/%s: the waiting updater slept: %.2f ms of CPU in %.1f ms "
		"while another reader kept leaving short critical sections",
		T_FLAVOR, T_MODE, cpu_ms, wall_ms);
	return tap_done();
}
