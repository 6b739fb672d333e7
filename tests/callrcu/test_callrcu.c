// SPDX-License-Identifier: MIT
/*
 * call_rcu behaviour, for one flavor (TEST_FLAVOR_<NAME>):
 *  - a callback waits for a reader that held the object at call_rcu time;
 *  - every callback runs exactly once (several enqueuers, inside read-side
 *    critical sections too);
 *  - layouts: default, per-thread, RT, per-CPU (the bound worker runs on its
 *    CPU), set_cpu_call_rcu_data error codes;
 *  - call_rcu_data_free with callbacks in flight and pending;
 *  - rcu_barrier with callbacks on several workers;
 *  - layout changes while a thread keeps enqueueing;
 *  - a thread that exits with callbacks queued;
 *  - the statistics extension.
 * TAP output.
 */
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

static void count_cb(struct rcu_head *head)
{
	struct obj *o = caa_container_of(head, struct obj, head);

	uatomic_add(&counts[o->id], 1);
	last_thread = pthread_self();
	last_cpu = sched_getcpu();
	free(o);
}

static void gated_cb(struct rcu_head *head)
{
	if (!uatomic_load(&gate_open, CMM_ACQUIRE))
		uatomic_add(&gate_violations, 1);
	count_cb(head);
}

static int queue_one(void (*cb)(struct rcu_head *))
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
static bool all_once(int *bad_id)
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

static void check_all_once(const char *what)
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

static void poison_cb(struct rcu_head *head)
{
	struct guarded *g = caa_container_of(head, struct guarded, head);

	uatomic_set(&g->valid, 0);
	uatomic_set(&poison_ran, 1);
}

static void *holding_reader(void *arg)
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

static void test_waits_for_reader(void)
{
	struct guarded *g = calloc(1, sizeof(*g));
	pthread_t tid;

	g->valid = 1;
	rcu_assign_pointer(shared, g);
	pthread_create(&tid, NULL, holding_reader, NULL);
	while (!uatomic_load(&reader_holding, CMM_ACQUIRE))
		T_QUIESCENT_SLEEP_MS(1);
	rcu_assign_pointer(shared, NULL);
	T_FN(call_rcu)(&g->head, poison_cb);
	T_QUIESCENT_SLEEP_MS(100);
	tap_ok(!uatomic_read(&poison_ran), "callback does not run while a pre-existing reader holds the object");
	uatomic_store(&reader_release, 1, CMM_RELEASE);
	T_FN(thread_offline)();
	pthread_join(tid, NULL);
	T_FN(thread_online)();
	T_FN(barrier)();
	tap_ok(uatomic_read(&poison_ran), "callback ran after the reader unlocked");
	tap_ok(!uatomic_read(&reader_saw_poison), "reader never saw the object reclaimed");
	free(g);
}

/* ---- exactly once, several enqueuers, inside critical sections ------------- */

#define PER_ENQUEUER	20000

static void *enqueuer(void *arg)
{
	bool in_cs = arg != NULL;

	T_FN(register_thread)();
	for (int i = 0; i < PER_ENQUEUER; i++) {
		if (in_cs)
			T_FN(read_lock)();
		queue_one(count_cb);
		if (in_cs)
			T_FN(read_unlock)();
		if (!(i % 64))
			T_FN(quiescent_state)();
	}
	T_FN(unregister_thread)();
	return NULL;
}

static void test_exactly_once(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, enqueuer, NULL);
	pthread_create(&b, NULL, enqueuer, (void *) 1);
	T_FN(thread_offline)();
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	T_FN(thread_online)();
	/* From inside a read-side critical section, on this thread too. */
	T_FN(read_lock)();
	for (int i = 0; i < 100; i++)
		queue_one(count_cb);
	T_FN(read_unlock)();
	T_FN(barrier)();
	check_all_once("two enqueuers (one inside read-side critical sections)");
}

/* ---- layouts --------------------------------------------------------------- */

static void test_default_layout(void)
{
	struct call_rcu_data *def = T_FN(get_default_call_rcu_data)();

	tap_ok(def != NULL && def == T_FN(get_default_call_rcu_data)(), "default worker exists and is stable");
	tap_ok(T_FN(get_thread_call_rcu_data)() == NULL, "no per-thread worker by default");
	tap_ok(T_FN(get_call_rcu_data)() == def, "get_call_rcu_data falls back to the default");
	queue_one(count_cb);
	T_FN(barrier)();
	tap_ok(pthread_equal(last_thread, T_FN(get_call_rcu_thread)(def)), "callback ran on the default worker");
	T_FN(call_rcu_data_free)(def);	/* the default is never freed */
	tap_ok(T_FN(get_default_call_rcu_data)() == def, "call_rcu_data_free(default) is ignored");
}

static void test_thread_layout(unsigned long flags, const char *name)
{
	struct call_rcu_data *crdp = T_FN(create_call_rcu_data)(flags, -1);
	struct urcu_call_rcu_stats st;
	int ret;

	tap_ok(crdp != NULL, "%s: create_call_rcu_data", name);
	T_FN(set_thread_call_rcu_data)(crdp);
	tap_ok(T_FN(get_thread_call_rcu_data)() == crdp && T_FN(get_call_rcu_data)() == crdp,
		"%s: per-thread worker beats the default", name);
	for (int i = 0; i < 1000; i++)
		queue_one(count_cb);
	T_FN(barrier)();
	tap_ok(pthread_equal(last_thread, T_FN(get_call_rcu_thread)(crdp)),
		"%s: callbacks ran on the thread's worker", name);
	memset(&st, 0, sizeof(st));
	ret = T_FN(call_rcu_data_stats)(crdp, &st);
	tap_ok(ret == 0 && st.queued >= 1000 && st.invoked >= 1000
		&& st.grace_periods >= 1 && st.flags == (flags & URCU_CALL_RCU_RT)
		&& st.cpu_affinity == -1 && pthread_equal(st.thread, T_FN(get_call_rcu_thread)(crdp)),
		"%s: stats queued=%llu invoked=%llu gps=%llu max_backlog=%lu", name,
		st.queued, st.invoked, st.grace_periods, st.max_backlog);
	T_FN(set_thread_call_rcu_data)(NULL);
	tap_ok(T_FN(get_thread_call_rcu_data)() == NULL, "%s: set_thread_call_rcu_data(NULL) detaches", name);
	T_FN(call_rcu_data_free)(crdp);
	check_all_once(name);
}

struct pinned_arg {
	int cpu;
	int ran_cpu;
	pthread_t ran_thread;
	pthread_t expect_thread;
};


static void *pinned_enqueuer(void *arg)
{
	struct pinned_arg *pa = arg;
	struct call_rcu_data *crdp;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(pa->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return NULL;
	T_FN(register_thread)();
	T_FN(read_lock)();
	crdp = T_FN(get_call_rcu_data)();
	pa->expect_thread = T_FN(get_call_rcu_thread)(crdp);
	T_FN(read_unlock)();
	queue_one(count_cb);
	T_FN(thread_offline)();
	T_FN(barrier)();
	T_FN(thread_online)();
	pa->ran_cpu = last_cpu;
	pa->ran_thread = last_thread;
	T_FN(unregister_thread)();
	return NULL;
}

static void test_cpu_layout(void)
{
	cpu_set_t allowed;
	int ncpu = (int) sysconf(_SC_NPROCESSORS_CONF);
	unsigned long long def_before;
	struct urcu_call_rcu_stats st;
	int good_cpu = 0, tested = 0, bound_ok = 0;

	tap_ok(T_FN(create_all_cpu_call_rcu_data)(0) == 0, "create_all_cpu_call_rcu_data");
	T_FN(call_rcu_data_stats)(T_FN(get_default_call_rcu_data)(), &st);
	def_before = st.invoked;
	sched_getaffinity(0, sizeof(allowed), &allowed);
	for (int cpu = 0; cpu < ncpu && cpu < CPU_SETSIZE; cpu++) {
		struct pinned_arg pa = { .cpu = cpu, .ran_cpu = -1 };
		struct call_rcu_data *crdp;
		pthread_t tid;

		T_FN(read_lock)();
		crdp = T_FN(get_cpu_call_rcu_data)(cpu);
		T_FN(read_unlock)();
		if (!CPU_ISSET(cpu, &allowed))
			continue;	/* its worker cannot be bound there */
		if (crdp && T_FN(call_rcu_data_stats)(crdp, &st) == 0 && st.cpu_affinity == cpu)
			bound_ok++;
		tested++;
		pthread_create(&tid, NULL, pinned_enqueuer, &pa);
		T_FN(thread_offline)();
		pthread_join(tid, NULL);
		T_FN(thread_online)();
		if (pa.ran_cpu == cpu && pthread_equal(pa.ran_thread, pa.expect_thread)
				&& crdp && pthread_equal(pa.expect_thread, T_FN(get_call_rcu_thread)(crdp)))
			good_cpu++;
		else
			tap_diag("cpu %d: callback ran on cpu %d", cpu, pa.ran_cpu);
	}
	tap_ok(tested > 0 && bound_ok == tested, "every usable CPU has a worker bound to it (%d/%d)",
		bound_ok, tested);
	tap_ok(tested > 0 && good_cpu == tested,
		"a thread on CPU n uses CPU n's worker, which runs on CPU n (%d/%d)", good_cpu, tested);
	T_FN(call_rcu_data_stats)(T_FN(get_default_call_rcu_data)(), &st);
	tap_ok(st.invoked - def_before <= (unsigned long long) ncpu,
		"the default worker only ran barrier callbacks meanwhile");
	T_FN(free_all_cpu_call_rcu_data)();
	T_FN(read_lock)();
	tap_ok(T_FN(get_cpu_call_rcu_data)(0) == NULL, "free_all_cpu_call_rcu_data detaches every CPU");
	T_FN(read_unlock)();
	check_all_once("per-CPU layout");
}

static void test_set_cpu_errors(void)
{
	struct call_rcu_data *a = T_FN(create_call_rcu_data)(0, -1);
	struct call_rcu_data *b = T_FN(create_call_rcu_data)(0, -1);

	errno = 0;
	tap_ok(T_FN(set_cpu_call_rcu_data)(-1, a) == -EINVAL && errno == EINVAL,
		"set_cpu_call_rcu_data(-1): -EINVAL, errno EINVAL");
	errno = 0;
	tap_ok(T_FN(set_cpu_call_rcu_data)(1 << 20, a) == -EINVAL && errno == EINVAL,
		"set_cpu_call_rcu_data(huge cpu): -EINVAL");
	tap_ok(T_FN(set_cpu_call_rcu_data)(0, a) == 0, "set_cpu_call_rcu_data(0, a)");
	errno = 0;
	tap_ok(T_FN(set_cpu_call_rcu_data)(0, b) == -EEXIST && errno == EEXIST,
		"second worker for CPU 0: -EEXIST, errno EEXIST");
	T_FN(read_lock)();
	tap_ok(T_FN(get_cpu_call_rcu_data)(0) == a, "CPU 0 keeps its first worker");
	tap_ok(T_FN(get_cpu_call_rcu_data)(-5) == NULL && T_FN(get_cpu_call_rcu_data)(1 << 20) == NULL,
		"get_cpu_call_rcu_data of a bad CPU is NULL");
	T_FN(read_unlock)();
	tap_ok(T_FN(set_cpu_call_rcu_data)(0, NULL) == 0, "set_cpu_call_rcu_data(0, NULL) detaches");
	tap_ok(T_FN(set_cpu_call_rcu_data)(0, b) == 0, "then another worker may be set");
	tap_ok(T_FN(set_cpu_call_rcu_data)(0, NULL) == 0, "and detached");
	T_FN(synchronize_rcu)();
	T_FN(call_rcu_data_free)(a);
	T_FN(call_rcu_data_free)(b);
}

/* ---- call_rcu_data_free with callbacks in flight and pending --------------- */

static int free_done;

static void *freer(void *arg)
{
	T_FN(call_rcu_data_free)(arg);
	uatomic_store(&free_done, 1, CMM_RELEASE);
	return NULL;
}

static void test_free_with_pending(void)
{
	struct call_rcu_data *crdp = T_FN(create_call_rcu_data)(0, -1);
	struct guarded *g = calloc(1, sizeof(*g));
	pthread_t reader, ft;
	int first_id;

	uatomic_set(&gate_open, 0);
	uatomic_set(&reader_holding, 0);
	uatomic_set(&reader_release, 0);
	g->valid = 1;
	rcu_assign_pointer(shared, g);
	pthread_create(&reader, NULL, holding_reader, NULL);
	while (!uatomic_load(&reader_holding, CMM_ACQUIRE))
		T_QUIESCENT_SLEEP_MS(1);

	T_FN(set_thread_call_rcu_data)(crdp);
	first_id = uatomic_read(&next_id);
	for (int i = 0; i < 10; i++)		/* the worker's batch, waiting */
		queue_one(gated_cb);
	/* The worker records its backlog when it takes a batch. */
	for (int t = 0; t < 5000; t++) {
		struct urcu_call_rcu_stats st;

		if (T_FN(call_rcu_data_stats)(crdp, &st) == 0 && st.max_backlog >= 10)
			break;
		T_QUIESCENT_SLEEP_MS(1);
	}
	for (int i = 0; i < 10; i++)		/* still in its queue */
		queue_one(gated_cb);
	T_FN(set_thread_call_rcu_data)(NULL);

	pthread_create(&ft, NULL, freer, crdp);
	T_QUIESCENT_SLEEP_MS(50);
	tap_ok(!uatomic_load(&free_done, CMM_ACQUIRE),
		"call_rcu_data_free waits for the worker's batch in flight");
	tap_ok(uatomic_read(&counts[first_id]) == 0, "no callback ran while the reader holds");
	uatomic_store(&gate_open, 1, CMM_RELEASE);
	uatomic_store(&reader_release, 1, CMM_RELEASE);
	T_FN(thread_offline)();
	pthread_join(reader, NULL);
	pthread_join(ft, NULL);
	T_FN(thread_online)();
	T_FN(barrier)();
	tap_ok(uatomic_read(&gate_violations) == 0, "no callback ran before its grace period");
	check_all_once("call_rcu_data_free with pending callbacks");
	rcu_assign_pointer(shared, NULL);
	T_FN(synchronize_rcu)();
	free(g);
}

/* ---- rcu_barrier across several workers ------------------------------------ */

static void slow_cb(struct rcu_head *head)
{
	struct obj *o = caa_container_of(head, struct obj, head);

	if (!(o->id % 200))
		usleep(1000);
	count_cb(head);
}

static void *worker_user(void *arg)
{
	T_FN(register_thread)();
	T_FN(set_thread_call_rcu_data)(arg);
	for (int i = 0; i < 1000; i++)
		queue_one(slow_cb);
	/* Exits with its callbacks still queued. */
	T_FN(unregister_thread)();
	return NULL;
}

static void test_barrier_many(void)
{
	struct call_rcu_data *w[3];
	pthread_t tid[3];

	w[0] = T_FN(create_call_rcu_data)(0, -1);
	w[1] = T_FN(create_call_rcu_data)(URCU_CALL_RCU_RT, -1);
	w[2] = T_FN(create_call_rcu_data)(0, 0);
	for (int i = 0; i < 3; i++)
		pthread_create(&tid[i], NULL, worker_user, w[i]);
	for (int i = 0; i < 500; i++)
		queue_one(slow_cb);
	T_FN(thread_offline)();
	for (int i = 0; i < 3; i++)
		pthread_join(tid[i], NULL);
	T_FN(thread_online)();
	T_FN(barrier)();
	check_all_once("rcu_barrier over default, normal, RT and bound workers (threads exited)");
	for (int i = 0; i < 3; i++)
		T_FN(call_rcu_data_free)(w[i]);
}

/* ---- layout changes while a thread keeps enqueueing ------------------------ */

#define CHURN_MAX	60000

static int churn_stop;

static void *churn_enqueuer(void *arg)
{
	unsigned long i = 0;

	(void) arg;
	T_FN(register_thread)();
	/* At least 1000 callbacks, at most CHURN_MAX (the id space is finite). */
	while ((!uatomic_load(&churn_stop, CMM_ACQUIRE) || i < 1000) && i < CHURN_MAX) {
		T_FN(read_lock)();
		queue_one(count_cb);
		T_FN(read_unlock)();
		if (!(++i % 32)) {
			T_FN(quiescent_state)();
			usleep(50);
		}
	}
	T_FN(unregister_thread)();
	return NULL;
}

static void test_layout_churn(void)
{
	pthread_t tid;

	pthread_create(&tid, NULL, churn_enqueuer, NULL);
	for (int round = 0; round < 8; round++) {
		struct call_rcu_data *x;

		if (T_FN(create_all_cpu_call_rcu_data)(round & 1 ? URCU_CALL_RCU_RT : 0))
			tap_diag("create_all_cpu_call_rcu_data: %s", strerror(errno));
		T_QUIESCENT_SLEEP_MS(3);
		T_FN(free_all_cpu_call_rcu_data)();
		x = T_FN(create_call_rcu_data)(0, -1);
		T_FN(set_cpu_call_rcu_data)(0, x);
		T_QUIESCENT_SLEEP_MS(3);
		T_FN(set_cpu_call_rcu_data)(0, NULL);
		T_FN(synchronize_rcu)();
		T_FN(call_rcu_data_free)(x);
	}
	uatomic_store(&churn_stop, 1, CMM_RELEASE);
	T_FN(thread_offline)();
	pthread_join(tid, NULL);
	T_FN(thread_online)();
	T_FN(barrier)();
	check_all_once("layout changes while enqueueing");
}

/* ---- callbacks that queue callbacks ---------------------------------------- */

struct chained {
	struct rcu_head head;
	int depth;
};

static int chain_done;
static pthread_t chain_thread;
static int chain_other_thread;

static void chain_cb(struct rcu_head *head)
{
	struct chained *c = caa_container_of(head, struct chained, head);

	if (!pthread_equal(pthread_self(), chain_thread))
		uatomic_set(&chain_other_thread, 1);
	if (c->depth-- > 0) {
		/* The worker is a registered thread: call_rcu works here. */
		T_FN(call_rcu)(&c->head, chain_cb);
		return;
	}
	free(c);
	uatomic_store(&chain_done, 1, CMM_RELEASE);
}

static void test_chained(void)
{
	struct chained *c = malloc(sizeof(*c));
	struct call_rcu_data *def = T_FN(get_default_call_rcu_data)();
	int rounds = 0;

	chain_thread = T_FN(get_call_rcu_thread)(def);
	c->depth = 5;
	T_FN(call_rcu)(&c->head, chain_cb);
	/* Each rcu_barrier covers the links queued before it. */
	while (!uatomic_load(&chain_done, CMM_ACQUIRE) && rounds++ < 100)
		T_FN(barrier)();
	tap_ok(uatomic_read(&chain_done) && rounds <= 7,
		"a callback may call call_rcu; links run one per barrier (%d barriers)", rounds);
	tap_ok(!uatomic_read(&chain_other_thread), "re-queued callbacks stay on the worker that ran them");
}

/* ---- statistics --------------------------------------------------------------- */

static void test_stats(void)
{
	struct urcu_call_rcu_stats st[16];
	int n = T_FN(call_rcu_stats)(NULL, 0);
	int m = T_FN(call_rcu_stats)(st, 16);
	unsigned long long invoked = 0;

	tap_ok(n >= 1 && m == n, "call_rcu_stats counts the live workers (%d)", n);
	for (int i = 0; i < m && i < 16; i++)
		invoked += st[i].invoked;
	tap_ok(invoked > 0, "workers report invoked callbacks (%llu)", invoked);
	errno = 0;
	tap_ok(T_FN(call_rcu_data_stats)(NULL, st) == -1 && errno == EINVAL, "call_rcu_data_stats(NULL): EINVAL");
}

int main(void)
{
	counts = calloc(MAX_IDS, sizeof(*counts));
	tap_diag("flavor %s", T_FLAVOR);
	T_FN(register_thread)();
	test_waits_for_reader();
	test_exactly_once();
	test_default_layout();
	test_thread_layout(0, "per-thread worker");
	test_thread_layout(URCU_CALL_RCU_RT, "RT per-thread worker");
	test_cpu_layout();
	test_set_cpu_errors();
	test_free_with_pending();
	test_barrier_many();
	test_layout_churn();
	test_chained();
	test_stats();
	T_FN(unregister_thread)();
	free(counts);
	return tap_done();
}
