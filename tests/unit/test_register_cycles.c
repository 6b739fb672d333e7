// SPDX-License-Identifier: MIT
/*
 * Registration churn.
 *
 * 1. 100000 register/unregister cycles in one thread, each with a read-side
 *    critical section, then synchronize_rcu must still return promptly: a
 *    cycle that left a stale record in the registry would make the grace
 *    period wait forever for it (the test timeout catches that).
 * 2. Four threads register, read, and unregister in a loop while the main
 *    thread replaces a published object and runs synchronize_rcu back to
 *    back for about 300 ms, poisoning and freeing each old object after its
 *    grace period.  Readers check every object they see is alive.  Not a
 *    benchmark: the counts printed are for the record only.
 */
#include <stdbool.h>

#include "flavor-select.h"
#include "test-util.h"

#define CYCLES		100000
#define NTHREADS	4
#define CHURN_MS	300

static struct t_obj *shared;

static void serial_cycles(void)
{
	unsigned long long t0 = t_now_ns();
	bool ongoing_ok = true;
	int i;

	for (i = 0; i < CYCLES; i++) {
		T_FN(register_thread)();
		T_FN(read_lock)();
		if (!T_FN(read_ongoing)())
			ongoing_ok = false;
		t_reader_exit();
		T_FN(unregister_thread)();
		if (T_FN(read_ongoing)())
			ongoing_ok = false;
	}
	tap_ok(ongoing_ok, "%s/%s: %d register/unregister cycles, read_ongoing() right each time "
		"(%.1f ms)", T_FLAVOR, T_MODE, CYCLES, t_ms_since(t0));
	t0 = t_now_ns();
	T_FN(synchronize_rcu)();
	tap_ok(t_ms_since(t0) < T_START_LIMIT_MS,
		"%s/%s: synchronize_rcu after the cycles returns (%.2f ms)",
		T_FLAVOR, T_MODE, t_ms_since(t0));
}

struct churn {
	int stop;
	int bad;
	unsigned long cycles[NTHREADS];
	int next;
};

static void *churn_thread(void *arg)
{
	struct churn *c = (struct churn *) arg;
	int self = __atomic_fetch_add(&c->next, 1, __ATOMIC_RELAXED);
	unsigned long n = 0;
	int bad = 0;

	while (!t_load(&c->stop)) {
		int k;

		T_FN(register_thread)();
		for (k = 0; k < 10; k++) {
			struct t_obj *p;

			T_FN(read_lock)();
			p = rcu_dereference(shared);
			if (!t_obj_alive(p))
				bad++;
			t_reader_exit();
		}
		T_FN(unregister_thread)();
		n++;
	}
	c->cycles[self] = n;
	__atomic_add_fetch(&c->bad, bad, __ATOMIC_RELAXED);
	return NULL;
}

static void concurrent_churn(void)
{
	struct churn c;
	pthread_t tid[NTHREADS];
	unsigned long long t0;
	unsigned long gps = 0, total = 0;
	int i;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < NTHREADS; i++)
		tid[i] = t_thread_start(churn_thread, &c);
	t0 = t_now_ns();
	while (!gps || t_ms_since(t0) < CHURN_MS) {	/* one at least, however late */
		struct t_obj *old = rcu_xchg_pointer(&shared, t_obj_new(gps));

		T_FN(synchronize_rcu)();
		t_obj_kill(old);
		free(old);
		gps++;
	}
	t_store(&c.stop, 1);
	for (i = 0; i < NTHREADS; i++)
		t_thread_join(tid[i]);
	/* After every join: a thread's slot (c->next) is not its index in tid[]. */
	for (i = 0; i < NTHREADS; i++)
		total += c.cycles[i];
	tap_ok(c.bad == 0, "%s/%s: %d threads registering/unregistering under %lu grace periods "
		"never saw a freed object (%d bad reads)", T_FLAVOR, T_MODE, NTHREADS, gps, c.bad);
	tap_ok(gps > 0, "%s/%s: grace periods progressed during the churn", T_FLAVOR, T_MODE);
	tap_diag("registration cycles of all threads: %lu", total);
}

int main(void)
{
	shared = t_obj_new(0);
	serial_cycles();
	concurrent_churn();
	free(shared);
	return tap_done();
}
