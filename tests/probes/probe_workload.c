// SPDX-License-Identifier: MIT
/*
 * The workload that tests/probes/run-gdb-probes.py runs under gdb: one pass
 * through every path that fires a USDT probe of the memb flavor and of the
 * hash table, writing what each probe's arguments must be to the file named
 * by argv[1] ("key value" lines: thread ids, pointers).  Not a test by
 * itself: it checks nothing but its own progress; the script compares the
 * arguments gdb saw with these lines.
 *
 *   main registers (thread_register), runs three grace periods (gp_start,
 *   gp_end); a second thread holds a read-side critical section for 0.4 s
 *   while main waits in synchronize_rcu with a stall timeout of 0.1 s
 *   (gp_wait_readers with one holdout, stall naming that thread); one
 *   call_rcu and an rcu_barrier (call_rcu, cb_batch_start/end,
 *   barrier_start/end); one defer_rcu; a table of 4 buckets resized to 1024,
 *   then to 64 (lfht_resize_start/end); main unregisters.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <urcu/urcu-memb.h>
#include <urcu/gp-stats.h>
#include <urcu/rculfhash.h>

static FILE *expect;
static int reader_in, reader_done_flag;
static int callback_ran, deferred_ran;
static int stall_reported;

static void die(const char *what)
{
	fprintf(stderr, "probe_workload: %s\n", what);
	exit(2);
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Says that the stall (and its probe) was reported; prints nothing. */
static void quiet_stall(const char *report, void *arg)
{
	(void) report;
	(void) arg;
	__atomic_store_n(&stall_reported, 1, __ATOMIC_RELAXED);
}

static void *reader(void *arg)
{
	(void) arg;
	urcu_memb_register_thread();
	fprintf(expect, "tid_reader %ld\n", (long) syscall(SYS_gettid));
	fflush(expect);
	urcu_memb_read_lock();
	__atomic_store_n(&reader_in, 1, __ATOMIC_RELEASE);
	/*
	 * Held until the grace period has reported the stall (0.1 s into it),
	 * however late a loaded machine or gdb starts it; 20 s at most.
	 */
	for (int i = 0; i < 2000 && !__atomic_load_n(&stall_reported, __ATOMIC_RELAXED); i++)
		nap_ms(10);
	nap_ms(50);
	urcu_memb_read_unlock();
	urcu_memb_unregister_thread();
	__atomic_store_n(&reader_done_flag, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void callback(struct rcu_head *head)
{
	(void) head;
	__atomic_store_n(&callback_ran, 1, __ATOMIC_RELAXED);
}

static void deferred(void *p)
{
	(void) p;
	__atomic_store_n(&deferred_ran, 1, __ATOMIC_RELAXED);
}

int main(int argc, char **argv)
{
	static struct rcu_head head;
	static int defer_arg;
	struct cds_lfht *ht;
	pthread_t tid;

	if (argc != 2 || !(expect = fopen(argv[1], "w")))
		die("usage: probe_workload EXPECT-FILE");
	urcu_set_stall_handler(quiet_stall, NULL);
	if (urcu_memb_set_stall_timeout(0.1))
		die("set_stall_timeout");

	urcu_memb_register_thread();
	fprintf(expect, "tid_main %ld\n", (long) syscall(SYS_gettid));
	for (int i = 0; i < 3; i++)
		urcu_memb_synchronize_rcu();

	/* A held reader: the grace period sleeps on it, then reports a stall. */
	if (pthread_create(&tid, NULL, reader, NULL))
		die("pthread_create");
	while (!__atomic_load_n(&reader_in, __ATOMIC_ACQUIRE))
		nap_ms(1);
	urcu_memb_synchronize_rcu();
	pthread_join(tid, NULL);
	if (!__atomic_load_n(&reader_done_flag, __ATOMIC_ACQUIRE))
		die("reader did not finish");

	fprintf(expect, "head %p\ncallback %p\n", (void *) &head, (void *) callback);
	urcu_memb_call_rcu(&head, callback);
	urcu_memb_barrier();
	if (!__atomic_load_n(&callback_ran, __ATOMIC_RELAXED))
		die("callback did not run before rcu_barrier returned");

	if (urcu_memb_defer_register_thread())
		die("defer_register_thread");
	fprintf(expect, "defer_fct %p\ndefer_p %p\n", (void *) deferred, (void *) &defer_arg);
	urcu_memb_defer_rcu(deferred, &defer_arg);
	urcu_memb_defer_barrier();
	urcu_memb_defer_unregister_thread();
	if (!__atomic_load_n(&deferred_ran, __ATOMIC_RELAXED))
		die("deferred call did not run");

	ht = cds_lfht_new_flavor(4, 1, 0, 0, &urcu_memb_flavor, NULL);
	if (!ht)
		die("cds_lfht_new_flavor");
	fprintf(expect, "ht %p\n", (void *) ht);
	fflush(expect);
	cds_lfht_resize(ht, 1024);
	cds_lfht_resize(ht, 64);
	if (cds_lfht_destroy(ht, NULL))
		die("cds_lfht_destroy");

	urcu_memb_unregister_thread();
	fprintf(expect, "done 1\n");
	fclose(expect);
	return 0;
}
