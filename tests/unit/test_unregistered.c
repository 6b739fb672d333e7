// SPDX-License-Identifier: MIT
/*
 * bp: readers in threads that never call register_thread.
 *
 * 1. A thread that never registers reads under read_lock; its first
 *    read_lock registers it, so a grace period started while it holds an
 *    object waits for its unlock (same protocol as test_gp_waits_reader).
 *    It then exits without unregistering.
 * 2. Sixty short-lived unregistered readers come and go; afterwards
 *    synchronize_rcu returns promptly, which it could not if thread exit
 *    left their records in the registry.
 * 3. A lazily registered thread may register explicitly afterwards and then
 *    unregister explicitly; it can read again after that.
 */
#include <stdbool.h>

#include "flavor-select.h"
#include "test-util.h"

#if !T_IS_BP
#error "bp-only test"
#endif

static struct t_obj *shared;

struct lazy_reader {
	int ongoing_before;
	int ongoing_inside;
	int ongoing_after;
	int in;
	int left;
	int live_at_end;
};

static void *lazy_thread(void *arg)
{
	struct lazy_reader *lr = (struct lazy_reader *) arg;
	struct t_obj *p;

	lr->ongoing_before = urcu_bp_read_ongoing();
	urcu_bp_read_lock();
	lr->ongoing_inside = urcu_bp_read_ongoing();
	p = rcu_dereference(shared);
	t_store(&lr->in, 1);
	t_sleep_ms(100);
	lr->live_at_end = t_obj_alive(p);
	t_store(&lr->left, 1);
	urcu_bp_read_unlock();
	lr->ongoing_after = urcu_bp_read_ongoing();
	return NULL;		/* no unregister: thread exit does it */
}

static void reader_never_registers(void)
{
	struct lazy_reader lr;
	struct t_obj *old;
	pthread_t tid;
	int left;

	memset(&lr, 0, sizeof(lr));
	tid = t_thread_start(lazy_thread, &lr);
	t_wait_for(&lr.in, 1, 10000, "the unregistered reader");
	old = rcu_xchg_pointer(&shared, t_obj_new(1));
	urcu_bp_synchronize_rcu();
	left = t_load(&lr.left);
	t_obj_kill(old);
	t_thread_join(tid);
	free(old);
	tap_ok(lr.ongoing_before == 0, "bp/%s: read_ongoing() == 0 in a fresh thread", T_MODE);
	tap_ok(lr.ongoing_inside != 0, "bp/%s: read_ongoing() != 0 after the first read_lock",
		T_MODE);
	tap_ok(lr.ongoing_after == 0, "bp/%s: read_ongoing() == 0 after the unlock", T_MODE);
	tap_ok(left, "bp/%s: synchronize_rcu waited for the never-registered reader", T_MODE);
	tap_ok(lr.live_at_end, "bp/%s: the reader's object stayed alive", T_MODE);
}

static void *short_reader(void *arg)
{
	int i;

	(void) arg;
	for (i = 0; i < 3; i++) {
		urcu_bp_read_lock();
		(void) rcu_dereference(shared);
		urcu_bp_read_unlock();
	}
	return NULL;
}

static void exited_threads_leave_registry(void)
{
	pthread_t tid[60];
	unsigned long long t0;
	int i;

	for (i = 0; i < 60; i++) {
		tid[i] = t_thread_start(short_reader, NULL);
		/* A grace period now and then, racing with the exits. */
		if (i % 10 == 0)
			urcu_bp_synchronize_rcu();
	}
	for (i = 0; i < 60; i++)
		t_thread_join(tid[i]);
	t0 = t_now_ns();
	urcu_bp_synchronize_rcu();
	urcu_bp_synchronize_rcu();
	tap_ok(t_ms_since(t0) < 2000.0, "bp/%s: after 60 unregistered readers exited, "
		"synchronize_rcu returns (%.2f ms)", T_MODE, t_ms_since(t0));
}

static void *lazy_then_explicit(void *arg)
{
	int *ok = (int *) arg;

	urcu_bp_read_lock();
	urcu_bp_read_unlock();
	urcu_bp_register_thread();
	urcu_bp_read_lock();
	*ok = urcu_bp_read_ongoing() != 0;
	urcu_bp_read_unlock();
	urcu_bp_unregister_thread();
	/* Reading again registers lazily again. */
	urcu_bp_read_lock();
	*ok = *ok && urcu_bp_read_ongoing() != 0;
	urcu_bp_read_unlock();
	return NULL;
}

static void lazy_then_explicit_registration(void)
{
	int ok = 0;
	pthread_t tid = t_thread_start(lazy_then_explicit, &ok);

	t_thread_join(tid);
	urcu_bp_synchronize_rcu();
	tap_ok(ok, "bp/%s: lazy registration, then explicit register/unregister, then lazy again",
		T_MODE);
}

int main(void)
{
	shared = t_obj_new(0);
	reader_never_registers();
	exited_threads_leave_registry();
	lazy_then_explicit_registration();
	free(shared);
	return tap_done();
}
