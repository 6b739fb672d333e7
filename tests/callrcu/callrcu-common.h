// SPDX-License-Identifier: MIT
/*
 * What the test_callrcu_*.c files share: counted callbacks (every id must
 * run exactly once) and a reader that holds an object across call_rcu.
 * Each test program is compiled once per flavor (TEST_FLAVOR_<NAME>,
 * flavor-select.h) and starts with callrcu_test_begin().
 */
#ifndef TESTS_CALLRCU_CALLRCU_COMMON_H
#define TESTS_CALLRCU_CALLRCU_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <urcu/call-rcu-stats.h>

#include "flavor-select.h"
#include "tap.h"

/* ---- counted callbacks ---------------------------------------------------- */

struct obj {
	struct rcu_head head;
	int id;
};

#define MAX_IDS		200000

static int *counts;		/* invocations per id */
static int next_id;		/* ids handed out */
static int gate_open;		/* callbacks check it when gated */
static int gate_violations;	/* gated callbacks that ran too early */
static pthread_t last_thread;	/* thread of the last callback */
static int last_cpu;		/* its CPU */

static inline void count_cb(struct rcu_head *head)
{
	struct obj *o = caa_container_of(head, struct obj, head);

	uatomic_add(&counts[o->id], 1);
	last_thread = pthread_self();
	last_cpu = sched_getcpu();
	free(o);
}

static inline void gated_cb(struct rcu_head *head)
{
	if (!uatomic_load(&gate_open, CMM_ACQUIRE))
		uatomic_add(&gate_violations, 1);
	count_cb(head);
}

static inline int queue_one(void (*cb)(struct rcu_head *))
{
	struct obj *o = malloc(sizeof(*o));

	if (!o)
		abort();
	o->id = uatomic_add_return(&next_id, 1) - 1;
	if (o->id >= MAX_IDS)
		abort();
	T_FN(call_rcu)(&o->head, cb);
	return o->id;
}

/* Every id handed out so far was invoked exactly once. */
static inline bool all_once(int *bad_id)
{
	int n = uatomic_read(&next_id);

	for (int i = 0; i < n; i++) {
		if (uatomic_read(&counts[i]) != 1) {
			*bad_id = i;
			return false;
		}
	}
	return true;
}

static inline void check_all_once(const char *what)
{
	int bad = -1;
	bool good = all_once(&bad);

	tap_ok(good, "%s: all %d callbacks ran exactly once%s", what, uatomic_read(&next_id),
		good ? "" : " (see diag)");
	if (!good)
		tap_diag("id %d ran %d times", bad, counts[bad]);
}

/* ---- a reader that holds an object across call_rcu ------------------------ */

struct guarded {
	struct rcu_head head;
	int valid;
};

static struct guarded *shared;
static int reader_holding, reader_release, reader_saw_poison, poison_ran;

static inline void poison_cb(struct rcu_head *head)
{
	struct guarded *g = caa_container_of(head, struct guarded, head);

	uatomic_set(&g->valid, 0);
	uatomic_set(&poison_ran, 1);
}

static inline void *holding_reader(void *arg)
{
	struct guarded *p;

	(void) arg;
	T_FN(register_thread)();
	T_FN(read_lock)();
	p = rcu_dereference(shared);
	uatomic_store(&reader_holding, 1, CMM_RELEASE);
	while (!uatomic_load(&reader_release, CMM_ACQUIRE)) {
		if (!uatomic_read(&p->valid))
			uatomic_set(&reader_saw_poison, 1);
		caa_cpu_relax();
		usleep(100);
	}
	if (!uatomic_read(&p->valid))
		uatomic_set(&reader_saw_poison, 1);
	T_FN(read_unlock)();
	T_FN(quiescent_state)();
	T_FN(unregister_thread)();
	return NULL;
}

/* Start of every test program: the id table, the flavor line, registration. */
static inline void callrcu_test_begin(void)
{
	counts = calloc(MAX_IDS, sizeof(*counts));
	if (!counts)
		tap_bail("out of memory");
	tap_diag("flavor %s", T_FLAVOR);
	T_FN(register_thread)();
}

static inline int callrcu_test_end(void)
{
	T_FN(unregister_thread)();
	free(counts);
	return tap_done();
}

#endif /* TESTS_CALLRCU_CALLRCU_COMMON_H */
