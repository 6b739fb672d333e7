// SPDX-License-Identifier: MIT
/*
 * Polled grace periods: start_poll_synchronize_rcu() /
 * poll_state_synchronize_rcu().
 *
 * 1. A cookie taken while a reader is inside a critical section is not
 *    complete while the reader stays there (polled right away and again
 *    after 50 ms, while the library is free to be running grace periods),
 *    and is complete once the reader has left and synchronize_rcu returned.
 * 2. start_poll alone gets its grace period done: nobody calls
 *    synchronize_rcu, a registered reader keeps entering and leaving
 *    critical sections, and the cookie must complete within 5 s.
 * 3. Cookies are monotonic: a later cookie is never older, and once a later
 *    cookie is complete every earlier one is too.
 */
#include <stdbool.h>

#include "flavor-select.h"
#include "test-util.h"

struct holder {
	int in;
	int release;
	int left;
};

static void *holder_thread(void *arg)
{
	struct holder *h = (struct holder *) arg;

	T_FN(register_thread)();
	T_FN(read_lock)();
	t_store(&h->in, 1);
	t_wait_for(&h->release, 1, 20000, "the main thread to release the reader");
	t_store(&h->left, 1);
	t_reader_exit();
	T_FN(unregister_thread)();
	return NULL;
}

static void cookie_waits_for_reader(void)
{
	struct holder h;
	struct urcu_gp_poll_state cookie;
	pthread_t tid;
	bool early, later;

	memset(&h, 0, sizeof(h));
	tid = t_thread_start(holder_thread, &h);
	t_wait_for(&h.in, 1, 10000, "the reader to enter");
	cookie = T_FN(start_poll_synchronize_rcu)();
	early = T_FN(poll_state_synchronize_rcu)(cookie);
	t_sleep_ms(50);
	later = T_FN(poll_state_synchronize_rcu)(cookie);
	tap_ok(!early, "%s/%s: cookie taken during a critical section is not complete at once",
		T_FLAVOR, T_MODE);
	tap_ok(!later, "%s/%s: ... nor 50 ms later while the reader is still inside",
		T_FLAVOR, T_MODE);
	t_store(&h.release, 1);
	t_thread_join(tid);
	T_FN(synchronize_rcu)();
	tap_ok(T_FN(poll_state_synchronize_rcu)(cookie),
		"%s/%s: cookie complete after the reader left and synchronize_rcu returned",
		T_FLAVOR, T_MODE);
}

struct churner {
	int stop;
	unsigned long sections;
};

/* A registered reader entering and leaving critical sections (qsbr: QS). */
static void *churn_thread(void *arg)
{
	struct churner *c = (struct churner *) arg;

	T_FN(register_thread)();
	while (!t_load(&c->stop)) {
		T_FN(read_lock)();
		/* Atomic: the main thread reports the count while we run. */
		__atomic_add_fetch(&c->sections, 1, __ATOMIC_RELAXED);
		t_reader_exit();
		t_sleep_ms(1);
	}
	T_FN(unregister_thread)();
	return NULL;
}

static void start_poll_completes_alone(void)
{
	struct churner c;
	struct urcu_gp_poll_state cookie;
	pthread_t tid;
	unsigned long long t0;
	bool done = false;

	memset(&c, 0, sizeof(c));
	tid = t_thread_start(churn_thread, &c);
	t_sleep_ms(5);
	t0 = t_now_ns();
	cookie = T_FN(start_poll_synchronize_rcu)();
	while (t_ms_since(t0) < T_START_LIMIT_MS) {
		if (T_FN(poll_state_synchronize_rcu)(cookie)) {
			done = true;
			break;
		}
		t_sleep_ms(1);
	}
	tap_ok(done, "%s/%s: start_poll alone completes without synchronize_rcu (%.1f ms, "
		"reader ran %lu sections)", T_FLAVOR, T_MODE, t_ms_since(t0),
		__atomic_load_n(&c.sections, __ATOMIC_RELAXED));
	t_store(&c.stop, 1);
	t_thread_join(tid);
}

static void cookies_monotonic(void)
{
	struct urcu_gp_poll_state c1, c2, c3;
	bool mono = true, implied = true;
	int i;

	c1 = T_FN(start_poll_synchronize_rcu)();
	for (i = 0; i < 200; i++) {
		c2 = T_FN(start_poll_synchronize_rcu)();
		if ((long) (c2.grace_period_id - c1.grace_period_id) < 0)
			mono = false;
		/* Completing the later cookie implies completing the earlier. */
		if (T_FN(poll_state_synchronize_rcu)(c2) && !T_FN(poll_state_synchronize_rcu)(c1))
			implied = false;
		if (i % 50 == 0)
			T_FN(synchronize_rcu)();
		c1 = c2;
	}
	tap_ok(mono, "%s/%s: successive cookies never go backwards", T_FLAVOR, T_MODE);
	tap_ok(implied, "%s/%s: a complete later cookie implies a complete earlier one",
		T_FLAVOR, T_MODE);
	c1 = T_FN(start_poll_synchronize_rcu)();
	T_FN(synchronize_rcu)();
	c3 = T_FN(start_poll_synchronize_rcu)();
	tap_ok(T_FN(poll_state_synchronize_rcu)(c1),
		"%s/%s: a cookie is complete after a later synchronize_rcu", T_FLAVOR, T_MODE);
	tap_ok((long) (c3.grace_period_id - c1.grace_period_id) > 0,
		"%s/%s: a cookie taken after a full grace period is newer (%lu -> %lu)",
		T_FLAVOR, T_MODE, c1.grace_period_id, c3.grace_period_id);
}

int main(void)
{
	cookie_waits_for_reader();
	start_poll_completes_alone();
	cookies_monotonic();
	return tap_done();
}
