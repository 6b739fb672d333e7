// SPDX-License-Identifier: MIT
/*
 * Readers in threads that never call register_thread, or no longer do:
 * bp by design; memb, mb and signal because a liburcu program may read from
 * such a thread (liburcu lets the section run unprotected), and ours
 * registers the thread implicitly so that the section is protected.
 *
 * 1. A thread that never registers reads under read_lock; its first
 *    read_lock registers it, so a grace period started while it holds an
 *    object waits for its unlock (same protocol as test_gp_waits_reader).
 *    It then exits without unregistering.  The same after the thread
 *    registered and unregistered explicitly, and for a thread that calls
 *    unregister_thread inside its section (it stays registered).  Only bp
 *    counts none of these as a misuse (urcu_misuse_events()).
 * 2. Sixty short-lived unregistered readers come and go; afterwards
 *    synchronize_rcu returns promptly, which it could not if thread exit
 *    left their records in the registry.
 * 3. A lazily registered thread may register explicitly afterwards and then
 *    unregister explicitly; it can read again after that.
 */
#include <stdbool.h>

#include "flavor-select.h"
#include "test-util.h"

#include <urcu/debug.h>

#if T_IS_QSBR
#error "qsbr never registers a thread implicitly: see test_misuse.c"
#endif

/* What a reader thread does before its section, and inside it. */
enum prelude { NEVER_REGISTERED, AFTER_UNREGISTER, UNREGISTER_INSIDE };

static const char *const prelude_name[] = {
	[NEVER_REGISTERED] = "never-registered reader",
	[AFTER_UNREGISTER] = "reader after register + unregister",
	[UNREGISTER_INSIDE] = "reader that unregisters inside its section",
};

static struct t_obj *shared;

struct lazy_reader {
	enum prelude prelude;
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

	if (lr->prelude == AFTER_UNREGISTER) {
		T_FN(register_thread)();
		T_FN(unregister_thread)();
	}
	lr->ongoing_before = T_FN(read_ongoing)();
	T_FN(read_lock)();
	if (lr->prelude == UNREGISTER_INSIDE)
		T_FN(unregister_thread)();
	lr->ongoing_inside = T_FN(read_ongoing)();
	p = rcu_dereference(shared);
	t_store(&lr->in, 1);
	t_sleep_ms(100);
	lr->live_at_end = t_obj_alive(p);
	t_store(&lr->left, 1);
	T_FN(read_unlock)();
	lr->ongoing_after = T_FN(read_ongoing)();
	return NULL;		/* no unregister: thread exit does it */
}

static void reader_protected(enum prelude prelude)
{
	struct lazy_reader lr;
	struct t_obj *old;
	pthread_t tid;
	unsigned long events = urcu_misuse_events();
	int left;

	memset(&lr, 0, sizeof(lr));
	lr.prelude = prelude;
	tid = t_thread_start(lazy_thread, &lr);
	t_wait_for(&lr.in, 1, 10000, "the unregistered reader");
	old = rcu_xchg_pointer(&shared, t_obj_new(1));
	T_FN(synchronize_rcu)();
	left = t_load(&lr.left);
	t_obj_kill(old);
	t_thread_join(tid);
	free(old);
	tap_ok(lr.ongoing_before == 0, "%s/%s: %s: read_ongoing() == 0 before", T_FLAVOR, T_MODE,
		prelude_name[prelude]);
	tap_ok(lr.ongoing_inside != 0, "%s/%s: %s: read_ongoing() != 0 inside", T_FLAVOR, T_MODE,
		prelude_name[prelude]);
	tap_ok(lr.ongoing_after == 0, "%s/%s: %s: read_ongoing() == 0 after the unlock",
		T_FLAVOR, T_MODE, prelude_name[prelude]);
	tap_ok(left, "%s/%s: %s: synchronize_rcu waited for it", T_FLAVOR, T_MODE,
		prelude_name[prelude]);
	tap_ok(lr.live_at_end, "%s/%s: %s: its object stayed alive", T_FLAVOR, T_MODE,
		prelude_name[prelude]);
	if (T_IS_BP && prelude != UNREGISTER_INSIDE)
		tap_ok(urcu_misuse_events() == events, "%s/%s: %s: no misuse counted (bp reads unregistered by design)",
			T_FLAVOR, T_MODE, prelude_name[prelude]);
	else
		tap_ok(urcu_misuse_events() > events, "%s/%s: %s: counted as a misuse (%lu)",
			T_FLAVOR, T_MODE, prelude_name[prelude], urcu_misuse_events() - events);
}

static void *short_reader(void *arg)
{
	int i;

	(void) arg;
	for (i = 0; i < 3; i++) {
		T_FN(read_lock)();
		(void) rcu_dereference(shared);
		T_FN(read_unlock)();
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
			T_FN(synchronize_rcu)();
	}
	for (i = 0; i < 60; i++)
		t_thread_join(tid[i]);
	t0 = t_now_ns();
	T_FN(synchronize_rcu)();
	T_FN(synchronize_rcu)();
	tap_ok(t_ms_since(t0) < T_START_LIMIT_MS, "%s/%s: after 60 unregistered readers exited, "
		"synchronize_rcu returns (%.2f ms)", T_FLAVOR, T_MODE, t_ms_since(t0));
}

static void *lazy_then_explicit(void *arg)
{
	int *ok = (int *) arg;

	T_FN(read_lock)();
	T_FN(read_unlock)();
	T_FN(register_thread)();
	T_FN(read_lock)();
	*ok = T_FN(read_ongoing)() != 0;
	T_FN(read_unlock)();
	T_FN(unregister_thread)();
	/* Reading again registers lazily again. */
	T_FN(read_lock)();
	*ok = *ok && T_FN(read_ongoing)() != 0;
	T_FN(read_unlock)();
	return NULL;
}

static void lazy_then_explicit_registration(void)
{
	int ok = 0;
	pthread_t tid = t_thread_start(lazy_then_explicit, &ok);

	t_thread_join(tid);
	T_FN(synchronize_rcu)();
	tap_ok(ok, "%s/%s: lazy registration, then explicit register/unregister, then lazy again",
		T_FLAVOR, T_MODE);
}

int main(void)
{
	shared = t_obj_new(0);
	reader_protected(NEVER_REGISTERED);
	reader_protected(AFTER_UNREGISTER);
	reader_protected(UNREGISTER_INSIDE);
	exited_threads_leave_registry();
	lazy_then_explicit_registration();
	free(shared);
	return tap_done();
}
