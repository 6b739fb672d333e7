// SPDX-License-Identifier: MIT
/*
 * qsbr specifics.
 *
 * 1. synchronize_rcu from an online thread works: the caller is online
 *    (registered) and would wait for itself forever if it stayed online;
 *    the library takes it offline while waiting and back online after.
 *    Also from an offline registered thread, which stays offline.
 * 2. offline/online: read_ongoing() follows the state; an offline thread
 *    that blocks for a long time does not hold up grace periods.
 * 3. quiescent_state: a reader that holds an object without announcing a
 *    quiescent state holds up the grace period (the object must stay alive;
 *    the updater must not return before the announcement); a reader that
 *    only ever calls quiescent_state (never lock/unlock, never offline) lets
 *    grace periods make steady progress.
 */
#include <stdbool.h>

#include "flavor-select.h"
#include "test-util.h"

#if !T_IS_QSBR
#error "qsbr-only test"
#endif

static struct t_obj *shared;

struct qs_reader {
	int stop;
	unsigned long qs;
};

static void *qs_only_thread(void *arg)
{
	struct qs_reader *q = (struct qs_reader *) arg;

	urcu_qsbr_register_thread();
	while (!t_load(&q->stop)) {
		struct t_obj *p = rcu_dereference(shared);

		(void) __atomic_load_n(&p->magic, __ATOMIC_RELAXED);
		urcu_qsbr_quiescent_state();
		q->qs++;
	}
	urcu_qsbr_unregister_thread();
	return NULL;
}

static void sync_from_online_thread(void)
{
	struct qs_reader q;
	pthread_t tid;
	unsigned long long t0;

	memset(&q, 0, sizeof(q));
	tid = t_thread_start(qs_only_thread, &q);
	urcu_qsbr_register_thread();
	tap_ok(urcu_qsbr_read_ongoing() != 0, "qsbr/%s: registered thread is online", T_MODE);
	t0 = t_now_ns();
	urcu_qsbr_synchronize_rcu();
	tap_ok(t_ms_since(t0) < T_START_LIMIT_MS, "qsbr/%s: synchronize_rcu from an online "
		"thread returns (%.2f ms)", T_MODE, t_ms_since(t0));
	tap_ok(urcu_qsbr_read_ongoing() != 0, "qsbr/%s: caller is online again after "
		"synchronize_rcu", T_MODE);

	urcu_qsbr_thread_offline();
	tap_ok(urcu_qsbr_read_ongoing() == 0, "qsbr/%s: read_ongoing() == 0 after thread_offline",
		T_MODE);
	urcu_qsbr_synchronize_rcu();
	tap_ok(urcu_qsbr_read_ongoing() == 0, "qsbr/%s: an offline caller stays offline after "
		"synchronize_rcu", T_MODE);
	urcu_qsbr_thread_online();
	tap_ok(urcu_qsbr_read_ongoing() != 0, "qsbr/%s: read_ongoing() != 0 after thread_online",
		T_MODE);
	urcu_qsbr_unregister_thread();
	tap_ok(urcu_qsbr_read_ongoing() == 0, "qsbr/%s: read_ongoing() == 0 after unregister",
		T_MODE);

	t_store(&q.stop, 1);
	t_thread_join(tid);
}

struct sleeper {
	int offline;
	int wake;
};

static void *offline_sleeper(void *arg)
{
	struct sleeper *s = (struct sleeper *) arg;

	urcu_qsbr_register_thread();
	urcu_qsbr_thread_offline();
	t_store(&s->offline, 1);
	t_wait_for(&s->wake, 1, 20000, "the wake-up of the offline thread");
	urcu_qsbr_thread_online();
	urcu_qsbr_unregister_thread();
	return NULL;
}

static void offline_thread_does_not_block(void)
{
	struct sleeper s;
	pthread_t tid;
	unsigned long long t0;
	int i;

	memset(&s, 0, sizeof(s));
	tid = t_thread_start(offline_sleeper, &s);
	t_wait_for(&s.offline, 1, 10000, "the thread to go offline");
	t0 = t_now_ns();
	for (i = 0; i < 10; i++)
		urcu_qsbr_synchronize_rcu();
	tap_ok(t_ms_since(t0) < T_START_LIMIT_MS, "qsbr/%s: 10 grace periods with an offline "
		"registered thread blocked (%.2f ms)", T_MODE, t_ms_since(t0));
	t_store(&s.wake, 1);
	t_thread_join(tid);
}

struct holder {
	int in;
	int announced;
	int live_at_end;
	int stop;
};

/* Online, holds an object for 100 ms without a quiescent state. */
static void *holding_thread(void *arg)
{
	struct holder *h = (struct holder *) arg;
	struct t_obj *p;

	urcu_qsbr_register_thread();
	p = rcu_dereference(shared);
	t_store(&h->in, 1);
	t_sleep_ms(100);
	h->live_at_end = t_obj_alive(p);
	t_store(&h->announced, 1);
	urcu_qsbr_quiescent_state();
	/* Keep going online, reporting quiescent states only. */
	while (!t_load(&h->stop)) {
		urcu_qsbr_quiescent_state();
		t_sleep_ms(1);
	}
	urcu_qsbr_unregister_thread();
	return NULL;
}

static void quiescent_state_gates_gp(void)
{
	struct holder h;
	struct qs_reader q;
	struct t_obj *old;
	pthread_t tid, qtid;
	unsigned long long t0;
	int announced, i;

	memset(&h, 0, sizeof(h));
	memset(&q, 0, sizeof(q));
	tid = t_thread_start(holding_thread, &h);
	t_wait_for(&h.in, 1, 10000, "the holding reader");
	old = rcu_xchg_pointer(&shared, t_obj_new(1));
	urcu_qsbr_synchronize_rcu();
	announced = t_load(&h.announced);
	t_obj_kill(old);
	tap_ok(announced, "qsbr/%s: synchronize_rcu waited for the reader's quiescent state",
		T_MODE);

	/* Progress: both readers now only report quiescent states. */
	qtid = t_thread_start(qs_only_thread, &q);
	t0 = t_now_ns();
	for (i = 0; i < 100; i++) {
		struct t_obj *o = rcu_xchg_pointer(&shared, t_obj_new((unsigned long) i));

		urcu_qsbr_synchronize_rcu();
		t_obj_kill(o);
		free(o);
	}
	tap_ok(t_ms_since(t0) < T_START_LIMIT_MS, "qsbr/%s: 100 grace periods with two "
		"readers reporting quiescent states (%.1f ms)", T_MODE, t_ms_since(t0));
	t_store(&h.stop, 1);
	t_store(&q.stop, 1);
	t_thread_join(tid);
	t_thread_join(qtid);
	tap_ok(h.live_at_end, "qsbr/%s: the held object stayed alive until the quiescent state",
		T_MODE);
	free(old);
}

int main(void)
{
	shared = t_obj_new(0);
	sync_from_online_thread();
	offline_thread_does_not_block();
	quiescent_state_gates_gp();
	free(rcu_xchg_pointer(&shared, NULL));
	return tap_done();
}
