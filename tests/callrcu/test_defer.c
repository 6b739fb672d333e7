// SPDX-License-Identifier: MIT
/*
 * defer_rcu, for one flavor: a deferred call waits for a reader that held
 * the object; every call runs exactly once, including when the per-thread
 * queue fills up (the caller then waits for a grace period itself); the
 * barriers (all threads, this thread) run everything queued before them;
 * unregistering drains the thread's queue; the defer thread restarts after
 * the last thread unregistered.  TAP output.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "flavor-select.h"
#include "tap.h"

#define MAX_IDS		100000

static int counts[MAX_IDS];
static int next_id;
static int gate_open, gate_violations;

static void count_fn(void *p)
{
	uatomic_add(&counts[(intptr_t) p], 1);
}

static void gated_fn(void *p)
{
	if (!uatomic_load(&gate_open, CMM_ACQUIRE))
		uatomic_add(&gate_violations, 1);
	count_fn(p);
}

static void defer_one(void (*fn)(void *))
{
	intptr_t id = uatomic_add_return(&next_id, 1) - 1;

	T_FN(defer_rcu)(fn, (void *) id);
}

static bool all_once(void)
{
	for (int i = 0; i < uatomic_read(&next_id); i++) {
		if (uatomic_read(&counts[i]) != 1) {
			tap_diag("id %d ran %d times", i, counts[i]);
			return false;
		}
	}
	return true;
}

static int holding, release;

static void *holding_reader(void *arg)
{
	(void) arg;
	T_FN(register_thread)();
	T_FN(read_lock)();
	uatomic_store(&holding, 1, CMM_RELEASE);
	while (!uatomic_load(&release, CMM_ACQUIRE))
		usleep(200);
	T_FN(read_unlock)();
	T_FN(quiescent_state)();
	T_FN(unregister_thread)();
	return NULL;
}

static void test_waits_for_reader(void)
{
	pthread_t tid;

	pthread_create(&tid, NULL, holding_reader, NULL);
	while (!uatomic_load(&holding, CMM_ACQUIRE))
		T_QUIESCENT_SLEEP_MS(1);
	for (int i = 0; i < 10; i++)
		defer_one(gated_fn);
	T_QUIESCENT_SLEEP_MS(50);
	tap_ok(uatomic_read(&counts[0]) == 0, "deferred call does not run while a reader holds");
	uatomic_store(&gate_open, 1, CMM_RELEASE);
	uatomic_store(&release, 1, CMM_RELEASE);
	T_FN(thread_offline)();
	pthread_join(tid, NULL);
	T_FN(thread_online)();
	T_FN(defer_barrier)();
	tap_ok(uatomic_read(&gate_violations) == 0 && all_once(), "deferred calls ran after the reader left");
}

static void *defer_thread_user(void *arg)
{
	(void) arg;
	T_FN(register_thread)();
	if (T_FN(defer_register_thread)())
		return (void *) 1;
	for (int i = 0; i < 20000; i++) {
		defer_one(count_fn);
		if (!(i % 64))
			T_FN(quiescent_state)();
	}
	T_FN(defer_unregister_thread)();	/* drains this thread's queue */
	T_FN(unregister_thread)();
	return NULL;
}

static void test_many_threads(void)
{
	pthread_t tid[2];
	void *ret[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&tid[i], NULL, defer_thread_user, NULL);
	T_FN(thread_offline)();
	for (int i = 0; i < 2; i++)
		pthread_join(tid[i], &ret[i]);
	T_FN(thread_online)();
	tap_ok(!ret[0] && !ret[1], "two threads registered");
	tap_ok(all_once(), "40000 calls from exiting threads (queues fill up) ran exactly once");
}

static void test_barriers(void)
{
	for (int i = 0; i < 9000; i++)	/* more than two queue lengths */
		defer_one(count_fn);
	T_FN(defer_barrier_thread)();
	tap_ok(all_once(), "rcu_defer_barrier_thread ran this thread's calls (full queue path too)");
	for (int i = 0; i < 100; i++)
		defer_one(count_fn);
	T_FN(defer_barrier)();
	tap_ok(all_once(), "rcu_defer_barrier ran everything");
}

int main(void)
{
	tap_diag("flavor %s", T_FLAVOR);
	T_FN(register_thread)();
	tap_ok(T_FN(defer_register_thread)() == 0, "rcu_defer_register_thread");
	test_waits_for_reader();
	test_many_threads();
	test_barriers();
	T_FN(defer_unregister_thread)();
	tap_ok(T_FN(defer_register_thread)() == 0, "register again after the defer thread stopped");
	defer_one(count_fn);
	T_FN(defer_unregister_thread)();
	tap_ok(all_once(), "unregister drains the queue");
	T_FN(defer_exit)();
	T_FN(unregister_thread)();
	return tap_done();
}
