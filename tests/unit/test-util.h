// SPDX-License-Identifier: MIT
/*
 * Helpers shared by the unit tests: time (test-time.h), thread
 * creation that cannot fail silently, and flags between test threads.
 *
 * The flags use the compiler's __atomic builtins rather than the library's
 * uatomic layer, so that the test harness does not depend on the code under
 * test for its own synchronization.
 */
#ifndef TESTS_UNIT_TEST_UTIL_H
#define TESTS_UNIT_TEST_UTIL_H

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "test-time.h"

/* Object whose death a reader can observe. */
#define T_LIVE		0x11a7e11aU
#define T_POISON	0xdeadbeefU

struct t_obj {
	unsigned int magic;
	unsigned long value;
};

static inline pthread_t t_thread_start(void *(*fn)(void *), void *arg)
{
	pthread_t tid;
	int ret = pthread_create(&tid, NULL, fn, arg);

	if (ret)
		tap_bail("pthread_create: %s", strerror(ret));
	return tid;
}

static inline void *t_thread_join(pthread_t tid)
{
	void *res;
	int ret = pthread_join(tid, &res);

	if (ret)
		tap_bail("pthread_join: %s", strerror(ret));
	return res;
}

static inline int t_load(const int *flag)
{
	return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

static inline void t_store(int *flag, int v)
{
	__atomic_store_n(flag, v, __ATOMIC_RELEASE);
}

/*
 * Wait until *flag == v, polling every 100 us; bail out after timeout_ms (a
 * hung helper thread must not turn into a silent test timeout).
 */
static inline void t_wait_for(const int *flag, int v, long timeout_ms, const char *what)
{
	unsigned long long start = t_now_ns();

	while (t_load(flag) != v) {
		if (t_ms_since(start) > (double) timeout_ms)
			tap_bail("timed out after %ld ms waiting for %s", timeout_ms, what);
		{
			struct timespec ts = { 0, 100000L };

			nanosleep(&ts, NULL);
		}
	}
}

/*
 * The start gate.  A check on what other threads did ("the readers did
 * lookups") holds only once those threads have run: on a loaded machine a
 * new thread may wait seconds for its first time slice, so a test never
 * assumes they ran within a fixed time.  Each counted thread calls
 * t_gate_pass() once, after its first operation; the test thread calls
 * t_gate_wait() before it stops them or relies on their counts.  The bound
 * is generous (a thread that has not run in T_START_LIMIT_MS is hung, not
 * slow; test-time.h) and ends the test with the reason rather than a
 * silent timeout.
 */
static inline void t_gate_pass(int *gate)
{
	/* release: pairs with the acquire in t_gate_count(); the operation came first */
	__atomic_add_fetch(gate, 1, __ATOMIC_RELEASE);
}

static inline int t_gate_count(const int *gate)
{
	/* acquire: pairs with the release in t_gate_pass() */
	return __atomic_load_n(gate, __ATOMIC_ACQUIRE);
}

/* Wait until n threads have passed the gate; bail out past T_START_LIMIT_MS. */
static inline void t_gate_wait(const int *gate, int n, const char *what)
{
	unsigned long long start = t_now_ns();

	while (t_gate_count(gate) < n) {
		if (t_ms_since(start) > (double) T_START_LIMIT_MS)
			tap_bail("%d of %d %s ran in %d ms", t_gate_count(gate), n, what,
				T_START_LIMIT_MS);
		t_sleep_ms(1);
	}
}

static inline struct t_obj *t_obj_new(unsigned long value)
{
	struct t_obj *o = (struct t_obj *) malloc(sizeof(*o));

	if (!o)
		tap_bail("out of memory");
	o->magic = T_LIVE;
	o->value = value;
	return o;
}

/* Whether o has not been killed yet (what a reader checks on its object). */
static inline int t_obj_alive(const struct t_obj *o)
{
	return __atomic_load_n(&o->magic, __ATOMIC_RELAXED) == T_LIVE;
}

/* What a freeing updater does: make a later use visible, then free. */
static inline void t_obj_kill(struct t_obj *o)
{
	__atomic_store_n(&o->magic, T_POISON, __ATOMIC_RELAXED);
}

#endif /* TESTS_UNIT_TEST_UTIL_H */
