// SPDX-License-Identifier: MIT
/*
 * fork() while hash-table requests are in flight, in every flavor: a fork,
 * a grace period and a resize or destroy request must never wait for one
 * another (see "What it catches" below).  A stress test, not a benchmark.
 *
 * Workload (--ms=N, default 1500 ms of forking):
 *  - UPDATERS threads loop: create a CDS_LFHT_AUTO_RESIZE table of one
 *    bucket, add NODES nodes inside ONE read-side critical section (the
 *    adds cross the small-table grow threshold again and again, so they
 *    send resize requests to the background thread from inside the
 *    section), delete them inside another, and hand table and nodes to
 *    call_rcu, whose callback destroys the table (cds_lfht_destroy in a
 *    call_rcu callback: a destroy request from a call_rcu worker).  The
 *    tables share a counting allocator; an updater waits (outside its
 *    sections) while more than MAX_LIVE_BLOCKS of their blocks are live,
 *    so that the background thread's backlog, which every child
 *    inherits, stays small;
 *  - the main thread forks in a loop with the flavor's fork functions
 *    (call_rcu_before_fork, fork, call_rcu_after_fork_parent/_child).  Each
 *    child makes a table with a counting allocator, adds enough to ask for
 *    a resize, looks every key up, empties and destroys the table, and
 *    waits (5 s at most) until its background thread has freed it.
 *
 * What it catches.  call_rcu_before_fork waits for the call_rcu workers to
 * finish their batch, and the batch waits for a grace period, which waits
 * for the updaters' read-side sections.  If a request takes a lock that
 * the fork functions hold until after_fork_parent (the background thread's
 * queue lock, held by the table's before_fork hook, as before this test
 * existed), an updater blocks inside its section, or a callback blocks in
 * cds_lfht_destroy, and before_fork never returns.  The watchdog turns the
 * hang into "Bail out! watchdog: hung in call_rcu_before_fork ..." FORK_WAIT_S
 * seconds into the fork that hung.  At the end, every table must have been
 * freed by the background thread (no request lost).
 */
#include "hash-test.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

enum {
	UPDATERS = 2,
	NODES = 64,		/* per table; grows a 1-bucket table several times */
	CHILD_NODES = 1024,
	FORK_WAIT_S = 8,	/* one fork (before_fork to after_fork_parent) */
	CHILD_WAIT_S = 10,	/* one child, start to exit */
	MAX_LIVE_BLOCKS = 1024,	/* updater tables' blocks not yet freed */
};

static long run_ms = 1500;
static int stop;
static long tables_made, tables_destroyed, destroy_errors, new_failures;
static int updating;		/* start gate: updaters past their first table */
static struct t_meter upd_meter;	/* every updater table's memory */
static struct cds_lfht_alloc upd_alloc;

/* A table and its nodes, freed together by one callback. */
struct batch {
	struct rcu_head rcu;
	struct cds_lfht *ht;
	struct tnode nodes[NODES];
};

/* call_rcu callback: the nodes were deleted a grace period ago. */
static void batch_free(struct rcu_head *head)
{
	struct batch *b = caa_container_of(head, struct batch, rcu);

	if (cds_lfht_destroy(b->ht, NULL))
		__atomic_add_fetch(&destroy_errors, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&tables_destroyed, 1, __ATOMIC_RELAXED);
	free(b);
}

static void *updater(void *arg)
{
	/* Disjoint key ranges per updater: half the bits of a long each. */
	unsigned long seed = (unsigned long) arg << (sizeof(long) * 4), round = 0;
	struct batch *b;
	int i;

	T_FN(register_thread)();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (__atomic_load_n(&upd_meter.live_blocks, __ATOMIC_RELAXED) > MAX_LIVE_BLOCKS) {
			t_quiet_sleep_ms(1);
			continue;
		}
		b = (struct batch *) calloc(1, sizeof(*b));
		if (!b)
			tap_bail("out of memory");
		b->ht = cds_lfht_new_with_flavor_alloc(1, 1, 0, CDS_LFHT_AUTO_RESIZE, HT_FLAVOR,
				&upd_alloc, NULL);
		if (!b->ht) {
			__atomic_add_fetch(&new_failures, 1, __ATOMIC_RELAXED);
			free(b);
			continue;
		}
		round++;
		t_lock();
		for (i = 0; i < NODES; i++) {
			b->nodes[i].key = seed + round * NODES + (unsigned long) i;
			b->nodes[i].hash = t_hash(b->nodes[i].key);
			b->nodes[i].magic = T_LIVE;
			cds_lfht_add(b->ht, b->nodes[i].hash, &b->nodes[i].node);
		}
		t_reader_exit();
		t_lock();
		for (i = 0; i < NODES; i++)
			(void) cds_lfht_del(b->ht, &b->nodes[i].node);
		t_reader_exit();
		__atomic_add_fetch(&tables_made, 1, __ATOMIC_RELAXED);
		T_FN(call_rcu)(&b->rcu, batch_free);
		if (round == 1)
			t_gate_pass(&updating);
	}
	T_FN(unregister_thread)();
	return NULL;
}

/*
 * The child: its background thread must be alive (the after_fork_child
 * hook recreated it).  Exit status: 0, or the number of the failed step.
 */
static void __attribute__((noreturn)) child_main(void)
{
	static struct tnode nodes[CHILD_NODES];
	struct t_meter meter;
	struct cds_lfht_alloc alloc;
	struct cds_lfht *ht;
	unsigned long k;
	int i;

	t_watchdog(CHILD_WAIT_S, "the child (table work after fork)");
	alloc = t_meter_alloc(&meter);
	ht = cds_lfht_new_with_flavor_alloc(1, 1, 0, CDS_LFHT_AUTO_RESIZE,
			HT_FLAVOR, &alloc, NULL);
	if (!ht)
		_exit(2);
	for (k = 0; k < CHILD_NODES; k++) {
		nodes[k].key = k;
		nodes[k].hash = t_hash(k);
		nodes[k].magic = T_LIVE;
		t_add(ht, &nodes[k]);
	}
	for (k = 0; k < CHILD_NODES; k++)
		if (t_lookup(ht, k) != &nodes[k])
			_exit(3);
	for (k = 0; k < CHILD_NODES; k++)
		if (t_del(ht, &nodes[k]))
			_exit(4);
	if (t_destroy(ht, NULL))
		_exit(5);
	/* Freed by the child's background thread, asynchronously. */
	for (i = 0; __atomic_load_n(&meter.live_blocks, __ATOMIC_RELAXED); i++) {
		if (i == 500)
			_exit(6);
		t_quiet_sleep_ms(10);
	}
	_exit(0);
}

/* Wait for the child (offline: qsbr grace periods go on meanwhile). */
static int reap(pid_t pid)
{
	int status;

	T_FN(thread_offline)();
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			T_FN(thread_online)();
			return -1;
		}
	}
	T_FN(thread_online)();
	if (WIFSIGNALED(status))
		return 100 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	static char what[160];
	pthread_t tid[UPDATERS];
	unsigned long long start;
	long forks = 0, bad_children = 0;
	int i, last_bad = 0;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--ms=", 5))
			run_ms = atol(argv[i] + 5);
	}
	tap_diag("flavor %s: %d updaters, forking for %ld ms", T_FLAVOR, UPDATERS, run_ms);
	upd_alloc = t_meter_alloc(&upd_meter);
	T_FN(register_thread)();
	for (i = 0; i < UPDATERS; i++)
		tid[i] = t_thread_start(updater, (void *) (unsigned long) (i + 1));

	/*
	 * Fork for run_ms, and on until every updater has made a table (the
	 * forks are checked against updaters that run, however late a loaded
	 * machine schedules them): at least one fork either way.
	 */
	start = t_now_ns();
	while (!forks || t_ms_since(start) < (double) run_ms ||
			(t_gate_count(&updating) < UPDATERS &&
			 t_ms_since(start) < (double) T_START_LIMIT_MS)) {
		pid_t pid;
		int st;

		snprintf(what, sizeof(what), "call_rcu_before_fork .. after_fork_parent, "
			"fork %ld (%ld tables made, %ld destroyed so far): a fork-window "
			"deadlock with the hash table's requests", forks + 1,
			__atomic_load_n(&tables_made, __ATOMIC_RELAXED),
			__atomic_load_n(&tables_destroyed, __ATOMIC_RELAXED));
		t_watchdog(FORK_WAIT_S, what);
		fflush(stdout);
		T_FN(call_rcu_before_fork)();
		pid = fork();
		if (pid == 0) {
			T_FN(call_rcu_after_fork_child)();
			child_main();
		}
		T_FN(call_rcu_after_fork_parent)();
		t_watchdog(0, NULL);
		if (pid < 0)
			tap_bail("fork: %s", strerror(errno));
		forks++;
		st = reap(pid);
		if (st) {
			bad_children++;
			last_bad = st;
		}
	}
	tap_ok(t_gate_count(&updating) == UPDATERS, "all %d updaters ran while the test forked",
		UPDATERS);
	tap_ok(forks > 0, "%ld forks in %ld ms, none hung, while %d updaters asked for "
		"resizes inside read-side sections and callbacks destroyed tables",
		forks, run_ms, UPDATERS);
	if (bad_children)
		tap_diag("last failed child: status %d (2 new, 3 lookup, 4 del, 5 destroy, "
			"6 not freed in 5 s, 1 watchdog, 100+N signal N)", last_bad);
	tap_ok(!bad_children, "every child used a table and its background thread "
		"(%ld of %ld failed)", bad_children, forks);

	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	t_watchdog(30, "joining the updaters and the last callbacks");
	T_FN(thread_offline)();
	for (i = 0; i < UPDATERS; i++)
		t_thread_join(tid[i]);
	T_FN(barrier)();
	for (i = 0; __atomic_load_n(&upd_meter.live_blocks, __ATOMIC_RELAXED) && i < 1000; i++)
		t_sleep_ms(10);
	T_FN(thread_online)();
	t_watchdog(0, NULL);
	tap_ok(tables_made > 0 && !new_failures, "updaters made %ld tables (%ld creations "
		"failed)", tables_made, new_failures);
	tap_ok(tables_destroyed == tables_made && !destroy_errors,
		"every table destroyed from a call_rcu callback (%ld of %ld, %ld errors)",
		tables_destroyed, tables_made, destroy_errors);
	tap_ok(!upd_meter.live_blocks, "the background thread freed every one of them "
		"(%ld blocks left after 10 s)", upd_meter.live_blocks);
	T_FN(unregister_thread)();
	return tap_done();
}
