// SPDX-License-Identifier: MIT
/*
 * fork() without exec with an AUTO_RESIZE | ACCOUNTING table, in every
 * flavor.  The program calls the flavor's call_rcu_before_fork before
 * fork(), call_rcu_after_fork_parent in the parent and
 * call_rcu_after_fork_child in the child (which is what runs the table's
 * atfork hooks: the resize worker pauses, resumes, and is recreated in the
 * child).  Then parent and child each keep working: add 2^15 more keys so
 * that the table has to grow (the worker must be alive in both), look every
 * key up, delete half, count; each also creates, fills and destroys a
 * second table; the child forks once more (a grandchild does the same).
 *
 * Growth is observed as bucket memory.  With our library each table has a
 * counting allocator (struct cds_lfht_alloc; after fork each process counts
 * its own copy), and once the background thread has done what the adds
 * queued (worker_barrier()), a table of 32,768 or more nodes must hold at
 * least 8,192 buckets, whatever it held before (the policy asks for 16,384
 * or 32,768, depending on where the committed count lands).  An absolute
 * size, not a growth: in the middle process the deletions before the
 * second fork ask for a shrink that the background thread may still have
 * queued, or be running, when the adds start, so the memory before the
 * adds says nothing.
 *
 * That is the bug this test used to catch now and then: the auto-resize
 * policy compared the count with the current size instead of the size the
 * table was heading for, so a queued shrink hid every grow the adds asked
 * for, and the shrink then left 36,864 nodes in 2,048 buckets.  The former
 * version of the test (heap growth measured after a 50 ms settling wait)
 * failed about once in ten runs under load; this one failed in 56 of 180
 * runs on a 2-CPU machine with the unfixed library, and
 * test_hash_autoresize.c "queued" fails every time there.
 *
 * Against a liburcu without the allocator API (run-against-liburcu.sh) the
 * heap's growth over the adds is measured instead, as before: at least
 * 2,048 buckets' worth within 10 s.
 *
 * A child reports through its exit status (number of failed checks) and
 * "# child" lines; the parent turns that into TAP.
 */
#include "hash-test.h"
#include "hash-heap.h"

#include <sys/wait.h>

enum { BEFORE = 1 << 12, AFTER = 1 << 15, TOTAL = BEFORE + AFTER };

#define BUCKET		((long) sizeof(struct cds_lfht_node))
#if HT_HAVE_ALLOC
/* Bucket memory a table of AFTER or more nodes must reach: 8,192 buckets. */
# define GROWN_BYTES	(8192L * BUCKET)
#else
/* Growth of the heap over the adds: 2,048 buckets' worth. */
# define GROWN_BYTES	(2048L * BUCKET)
#endif

/*
 * A table and what measures its bucket memory: its own counting allocator
 * (ours), or the heap.  Every table gets a fresh meter: an AUTO_RESIZE
 * table is freed asynchronously, after its destroy returned.
 */
struct meter {
#if HT_HAVE_ALLOC
	struct t_meter m;
	struct cds_lfht_alloc a;
#endif
	long base;		/* heap before the adds (reference only) */
};

static struct meter meters[16];
static int nmeters;		/* copied by fork: each process uses the next ones */

static struct cds_lfht *new_table(struct meter **mp)
{
	struct meter *m;

	if (nmeters == 16)
		return NULL;
	m = &meters[nmeters++];
	*mp = m;
#if HT_HAVE_ALLOC
	m->a = t_meter_alloc(&m->m);
	return cds_lfht_new_with_flavor_alloc(1, 1, 0,
		CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, HT_FLAVOR, &m->a, NULL);
#else
	return cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
		HT_FLAVOR, NULL);
#endif
}

static struct cds_lfht *ht;
static struct meter *ht_meter;
static struct tnode *nodes;	/* TOTAL nodes, keys [0, TOTAL), for ht */
static struct tnode *nodes2;	/* AFTER nodes, for the table made after fork */
static int in_child;		/* generation: 0 parent, 1 child, 2 grandchild */
static int child_failed;

static void check(int cond, const char *what)
{
	if (!in_child) {
		tap_ok(cond, "parent: %s", what);
		return;
	}
	printf("# %s: %s %s\n", in_child == 1 ? "child" : "grandchild",
		cond ? "ok" : "FAILED", what);
	fflush(stdout);
	if (!cond)
		child_failed++;
}

/*
 * Add keys [first, first + n) from arr[]; returns 0 if that took more than
 * 10 s (a table that never grows makes adds quadratic: no point waiting).
 */
static int add_range(struct cds_lfht *t, struct tnode *arr, unsigned long first,
		unsigned long n)
{
	unsigned long long start = t_now_ns();
	unsigned long k;

	for (k = first; k < first + n; k++) {
		arr[k].key = k;
		arr[k].hash = t_hash(k);
		arr[k].magic = T_LIVE;
		cds_lfht_node_init(&arr[k].node);
		t_lock();
		cds_lfht_add(t, arr[k].hash, &arr[k].node);
		t_reader_exit();
		if (!(k & 1023) && t_ms_since(start) > 10000) {
			printf("# gave up adding after %lu of %lu keys in 10 s\n", k - first, n);
			return 0;
		}
	}
	return 1;
}

static int all_found(struct cds_lfht *t, struct tnode *arr, unsigned long n,
		unsigned long step)
{
	unsigned long k;

	for (k = 0; k < n; k += step)
		if (t_lookup(t, k) != &arr[k])
			return 0;
	return 1;
}

/* Before the adds (reference: remember the heap). */
static void measure_start(struct meter *m)
{
#if HT_HAVE_ALLOC
	(void) m;
#else
	m->base = t_settled_heap();
#endif
}

/* The table's bucket memory (ours) or the heap's growth since the start. */
static long measure(struct meter *m)
{
#if HT_HAVE_ALLOC
	return __atomic_load_n(&m->m.live_bytes, __ATOMIC_RELAXED);
#else
	return t_heap_bytes() - m->base;
#endif
}

#if HT_HAVE_ALLOC
/*
 * Return once the background thread has done every request queued so far
 * (at most 10 s): it serves requests in order, so when the destroy of a new
 * table, queued now, has freed that table's memory, the resizes asked for
 * before are done.  Returns 0 on time-out.
 */
static int worker_barrier(void)
{
	struct meter *m;
	struct cds_lfht *d = new_table(&m);
	int i;

	if (!d || t_destroy(d, NULL))
		return 0;
	for (i = 0; i < 1000; i++) {
		if (!__atomic_load_n(&m->m.live_blocks, __ATOMIC_RELAXED))
			return 1;
		t_quiet_sleep_ms(10);
	}
	return 0;
}
#endif

/*
 * The measure once the resizes asked for so far are done (ours), or once
 * it reached min_bytes (at most 10 s; reference).
 */
static long wait_growth(struct meter *m, long min_bytes)
{
#if HT_HAVE_ALLOC
	(void) min_bytes;
	check(worker_barrier(), "the background thread does its queued work (10 s)");
	return measure(m);
#else
	long grown = 0;
	int i;

	for (i = 0; i < 1000; i++) {
		grown = measure(m);
		if (grown >= min_bytes)
			break;
		t_quiet_sleep_ms(10);
	}
	return grown;
#endif
}

/* A second table, created after the fork: its worker must work too. */
static void fresh_table(void)
{
	struct cds_lfht *t2;
	struct meter *m;
	long grown;
	unsigned long k;
	char msg[160];

	t2 = new_table(&m);
	check(t2 != NULL, "a new AUTO_RESIZE table after fork");
	if (!t2)
		return;
	measure_start(m);
	check(add_range(t2, nodes2, 0, AFTER), "the new table takes its adds in reasonable time");
	grown = wait_growth(m, GROWN_BYTES);
	snprintf(msg, sizeof(msg), "the new table grows too (%ld buckets' worth, at least %ld)",
		grown / BUCKET, GROWN_BYTES / BUCKET);
	check(grown >= GROWN_BYTES, msg);
	check(all_found(t2, nodes2, AFTER, 1), "the new table finds its keys");
	for (k = 0; k < AFTER; k++)
		t_del(t2, &nodes2[k]);
	check(t_destroy(t2, NULL) == 0, "the new table is destroyed");
	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();	/* nodes2 is reused by the next generation */
	T_FN(thread_online)();
}

/*
 * What both sides do after the fork: grow the table created before it, use
 * a new one, then delete everything (deletions last: a shrinking table
 * would hide the new table's growth on the heap).
 */
static void keep_working(void)
{
	unsigned long long start;
	unsigned long k, count;
	long grown;
	char msg[200];

	measure_start(ht_meter);
	start = t_now_ns();
	check(add_range(ht, nodes, BEFORE, AFTER), "adds after fork in reasonable time");
	grown = wait_growth(ht_meter, GROWN_BYTES);
	snprintf(msg, sizeof(msg), "%d adds after fork and the wait for the resizes took "
		"%.0f ms; %s %ld buckets' worth (at least %ld)", AFTER, t_ms_since(start),
		HT_HAVE_ALLOC ? "the table holds" : "the heap grew by",
		grown / BUCKET, GROWN_BYTES / BUCKET);
	check(grown >= GROWN_BYTES, msg);
	check(all_found(ht, nodes, TOTAL, 1), "every key added before and after the fork is found");
	fresh_table();
	for (k = 0; k < TOTAL; k += 2)
		t_del(ht, &nodes[k]);
	count = t_count(ht, NULL, NULL);
	check(count == TOTAL / 2, "after deleting the even keys: count is half");
	check(t_lookup(ht, 1) == &nodes[1] && t_lookup(ht, 0) == NULL,
		"odd keys found, even keys gone");
	for (k = 1; k < TOTAL; k += 2)
		t_del(ht, &nodes[k]);
	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();	/* the nodes are reused below */
	T_FN(thread_online)();
	check(t_count(ht, NULL, NULL) == 0, "emptied");
}

/* Fork with the flavor's hooks; returns fork()'s value. */
static pid_t fork_with_hooks(void)
{
	pid_t pid;

	fflush(stdout);
	T_FN(call_rcu_before_fork)();
	pid = fork();
	if (pid == 0)
		T_FN(call_rcu_after_fork_child)();
	else
		T_FN(call_rcu_after_fork_parent)();
	return pid;
}

/* Wait for a child, at most 60 s; returns its failure count or -1. */
static int reap(pid_t pid, const char *who)
{
	unsigned long long start = t_now_ns();
	int status;

	T_FN(thread_offline)();
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 || t_ms_since(start) > 60000) {
			printf("# %s did not finish in 60 s: killed\n", who);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			T_FN(thread_online)();
			return -1;
		}
		t_sleep_ms(5);
	}
	T_FN(thread_online)();
	if (WIFSIGNALED(status)) {
		printf("# %s died of signal %d\n", who, WTERMSIG(status));
		return -1;
	}
	return WEXITSTATUS(status);
}

/* Body of a child of generation gen: work, maybe fork again, exit. */
static void __attribute__((noreturn)) child_main(int gen)
{
	in_child = gen;
	child_failed = 0;
	keep_working();
	if (gen == 1) {
		pid_t pid;

		add_range(ht, nodes, 0, BEFORE);
		pid = fork_with_hooks();
		if (pid == 0)
			child_main(2);
		if (pid < 0) {
			check(0, "second fork");
		} else {
			keep_working();
			check(reap(pid, "grandchild") == 0, "the grandchild's checks passed");
		}
	}
	fflush(stdout);
	_exit(child_failed > 100 ? 100 : child_failed);
}

int main(void)
{
	pid_t pid;
	int ret;

	nodes = (struct tnode *) calloc(TOTAL, sizeof(*nodes));
	nodes2 = (struct tnode *) calloc(AFTER, sizeof(*nodes2));
	if (!nodes || !nodes2)
		tap_bail("out of memory");
	T_FN(register_thread)();
	tap_diag("flavor %s, %s", T_FLAVOR, T_MODE);
	ht = new_table(&ht_meter);
	if (!ht)
		tap_bail("cds_lfht_new_flavor failed");
	add_range(ht, nodes, 0, BEFORE);
	tap_ok(all_found(ht, nodes, BEFORE, 1), "before fork: %d keys found", BEFORE);

	t_watchdog(90, "fork test");
	pid = fork_with_hooks();
	if (pid == 0)
		child_main(1);
	tap_ok(pid > 0, "fork");
	if (pid > 0) {
		keep_working();
		ret = reap(pid, "child");
		tap_ok(ret == 0, "the child's checks passed (exit status %d)", ret);
	}
	tap_ok(t_destroy(ht, NULL) == 0, "parent: destroy");
	t_watchdog(0, NULL);

	t_barrier();
	T_FN(unregister_thread)();
	free(nodes);
	free(nodes2);
	return tap_done();
}
