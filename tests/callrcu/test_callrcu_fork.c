// SPDX-License-Identifier: MIT
/*
 * call_rcu across fork() without exec, three generations deep.  In every
 * process: callbacks are queued right before the fork (some are still
 * pending when it happens), the application calls the three fork functions,
 * and afterwards both parent and child queue more callbacks and run
 * rcu_barrier.  Each process then checks, on its own copy of the counters,
 * that every callback ran exactly once (pending ones run once per process),
 * that per-CPU and per-thread workers were dropped in the child, and that the
 * registered urcu_atfork hooks ran where they should.
 * TAP output from the first process; descendants report through exit codes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <urcu/call-rcu-stats.h>

#include "flavor-select.h"
#include "tap.h"

#define MAX_IDS		20000
#define GENERATIONS	3

struct obj {
	struct rcu_head head;
	int id;
};

static int counts[MAX_IDS];
static int next_id;
static int hook_before, hook_parent, hook_child;

static void count_cb(struct rcu_head *head)
{
	struct obj *o = caa_container_of(head, struct obj, head);

	uatomic_add(&counts[o->id], 1);
	free(o);
}

static void queue_many(int n)
{
	for (int i = 0; i < n; i++) {
		struct obj *o = malloc(sizeof(*o));

		o->id = next_id++;
		T_FN(call_rcu)(&o->head, count_cb);
	}
}

static int bad_counts(void)
{
	int bad = 0;

	for (int i = 0; i < next_id; i++)
		bad += counts[i] != 1;
	return bad;
}

static void before(void *priv) { (void) priv; hook_before++; }
static void parent(void *priv) { (void) priv; hook_parent++; }
static void child(void *priv) { (void) priv; hook_child++; }

static struct urcu_atfork hooks = {
	.before_fork = before,
	.after_fork_parent = parent,
	.after_fork_child = child,
};

/*
 * One generation: returns 0 when everything in this process and its
 * descendants was right; otherwise a bitmask of failures.
 */
static int generation(int gen)
{
	struct urcu_call_rcu_stats st;
	pid_t pid;
	int status, fail = 0, before_hooks = hook_before;

	/* Give the first generation per-CPU workers and a per-thread one. */
	if (gen == 1) {
		T_FN(create_all_cpu_call_rcu_data)(0);
		T_FN(set_thread_call_rcu_data)(T_FN(create_call_rcu_data)(0, -1));
	}
	queue_many(2000);
	T_FN(call_rcu_before_fork)();
	pid = fork();
	if (pid < 0)
		return 1 << 0;
	if (pid == 0) {
		T_FN(call_rcu_after_fork_child)();
		if (hook_child != 1 || hook_parent != 0)
			fail |= 1 << 1;
		if (T_FN(get_thread_call_rcu_data)() != NULL)
			fail |= 1 << 2;
		T_FN(read_lock)();
		if (T_FN(get_cpu_call_rcu_data)(0) != NULL)
			fail |= 1 << 2;
		T_FN(read_unlock)();
		if (T_FN(call_rcu_stats)(&st, 1) != 1)	/* only the new default */
			fail |= 1 << 3;
		queue_many(1000);
		T_FN(barrier)();
		if (bad_counts())
			fail |= 1 << 4;
		hook_parent = 0;
		hook_child = 0;
		if (gen < GENERATIONS)
			fail |= generation(gen + 1);
		T_FN(unregister_thread)();
		_exit(fail);
	}
	T_FN(call_rcu_after_fork_parent)();
	if (hook_before != before_hooks + 1 || hook_parent != 1 || hook_child != 0)
		fail |= 1 << 5;
	queue_many(1000);
	T_FN(barrier)();
	if (bad_counts())
		fail |= 1 << 6;
	T_FN(thread_offline)();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		fail |= 1 << 7;
	else
		fail |= WEXITSTATUS(status);
	T_FN(thread_online)();
	return fail;
}

int main(void)
{
	int fail;

	tap_diag("flavor %s", T_FLAVOR);
	alarm(50);
	T_FN(register_thread)();
	T_FN(register_rculfhash_atfork)(&hooks);
	fail = generation(1);
	tap_ok(!(fail & 1), "fork succeeded");
	tap_ok(!(fail & (1 << 1)), "child: only the child hooks ran after fork");
	tap_ok(!(fail & (1 << 2)), "child: per-thread and per-CPU workers dropped");
	tap_ok(!(fail & (1 << 3)), "child: one worker (the new default)");
	tap_ok(!(fail & (1 << 4)), "child: every callback ran exactly once (pending ones included)");
	tap_ok(!(fail & (1 << 5)), "parent: before and parent hooks ran once");
	tap_ok(!(fail & (1 << 6)), "parent: every callback ran exactly once after fork");
	tap_ok(!(fail & (1 << 7)), "children exited normally (%d generations)", GENERATIONS);
	T_FN(unregister_rculfhash_atfork)(&hooks);
	T_FN(free_all_cpu_call_rcu_data)();
	T_FN(unregister_thread)();
	return tap_done();
}
