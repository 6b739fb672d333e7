// SPDX-License-Identifier: MIT
/*
 * How update-side costs grow with the reader population, and the hardware
 * floor under a grace period.  The same source is compiled against this
 * project and against liburcu (see run-side-by-side.py).
 *
 * -m idle -n N: N registered threads that sit blocked outside any
 *   read-side critical section, plus the usual active reader
 *   (bench-reader.c) on the reader CPU; synchronize_rcu() latency on the
 *   updater CPU.  Prints idle<N>.<flavor>.p50, .mean and .p99 in us.
 * -m churn -n COUNT -t S: COUNT (default 10^4; -q 2000) short-lived threads,
 *   two at a time, each registering, running one read-side critical section
 *   and unregistering, while another thread runs grace periods back to back;
 *   stops early after S seconds (default 10; -q 2), so that a slow side
 *   cannot stretch the run.  Prints churn.<flavor>.rate in threads/s (threads
 *   finished / elapsed), .gps, .threads (how many ran), and
 *   .register.p50/.p99 and .unregister.p50/.p99 in us: the time inside
 *   rcu_register_thread() / rcu_unregister_thread().  Both take the registry
 *   lock that a grace period holds from its start to its end (both
 *   libraries), so with grace periods back to back they wait for the lock;
 *   docs/PERFORMANCE.md, "Idle registered threads and registration".
 * -m floor: the cost of one membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)
 *   while another thread of the process spins on the other CPU (both
 *   pinned): the cross-CPU IPI that bounds a memb/bp grace period from
 *   below.  -m floor-same: the spinner on the caller's own CPU (no IPI).
 *   -m floor-all: one spinner on every other CPU the process may use (the
 *   floor of a grace period with a reader on every CPU; the same as -m
 *   floor on 2 CPUs).
 *   Prints floor.membarrier.p50 (floor.membarrier_same.p50,
 *   floor.membarrier_all.p50) in us, and floor.membarrier_all.cpus.
 *   Nothing of RCU is used; both builds print the same thing, which makes
 *   this row an A/A check of the run as well.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench-flavor.h"
#include "bench-util.h"

#include <linux/membarrier.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cond = PTHREAD_COND_INITIALIZER;
static int idle_release;
static int idle_ready;
static volatile int spin_stop;

static void *idle_thread(void *arg)
{
	(void) arg;
	rcu_register_thread();
#ifdef BENCH_FLAVOR_QSBR
	rcu_thread_offline();	/* a blocked qsbr thread announces it */
#endif
	pthread_mutex_lock(&idle_lock);
	idle_ready++;
	pthread_cond_broadcast(&idle_cond);
	while (!idle_release)
		pthread_cond_wait(&idle_cond, &idle_lock);
	pthread_mutex_unlock(&idle_lock);
#ifdef BENCH_FLAVOR_QSBR
	rcu_thread_online();
#endif
	rcu_unregister_thread();
	return NULL;
}

static void run_idle(const struct bench_opts *o, long nidle)
{
	pthread_t *tids = bench_xmalloc(sizeof(*tids) * (size_t) (nidle ? nidle : 1));
	pthread_attr_t attr;
	char prefix[64];
	double share;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (long i = 0; i < nidle; i++)
		if (pthread_create(&tids[i], &attr, idle_thread, NULL))
			bench_die("pthread_create (idle thread %ld) failed", i);
	pthread_mutex_lock(&idle_lock);
	while (idle_ready < nidle)
		pthread_cond_wait(&idle_cond, &idle_lock);
	pthread_mutex_unlock(&idle_lock);

	bench_reader_start();
	snprintf(prefix, sizeof(prefix), "idle%ld.%s", nidle, BENCH_FLAVOR);
	bench_sync_latency(prefix, o->quick ? 300 : 1000,
			   o->max_seconds > 0 ? o->max_seconds : (o->quick ? 0.5 : 1.0));
	bench_reader_stop(&share);
	snprintf(prefix, sizeof(prefix), "idle%ld.%s.reader_cpu", nidle, BENCH_FLAVOR);
	bench_metric(prefix, 100.0 * share, "%");

	pthread_mutex_lock(&idle_lock);
	idle_release = 1;
	pthread_cond_broadcast(&idle_cond);
	pthread_mutex_unlock(&idle_lock);
	for (long i = 0; i < nidle; i++)
		pthread_join(tids[i], NULL);
	pthread_attr_destroy(&attr);
	free(tids);
}

static void *gp_loop(void *arg)
{
	unsigned long *gps = arg;

	bench_pin(BENCH_CPU_READER);
	while (!spin_stop) {
		synchronize_rcu();
		(*gps)++;
	}
	return NULL;
}

/* Where a short-lived thread stores its register / unregister times. */
struct churn_slot {
	uint64_t reg_ns, unreg_ns;
};

static void *short_lived(void *arg)
{
	struct churn_slot *slot = arg;
	uint64_t t0 = bench_now_ns(), t1, t2;

	rcu_register_thread();
	t1 = bench_now_ns();
	rcu_read_lock();
	(void) rcu_dereference(bench_gp);
	rcu_read_unlock();
	t2 = bench_now_ns();
	rcu_unregister_thread();
	slot->reg_ns = t1 - t0;
	slot->unreg_ns = bench_now_ns() - t2;
	return NULL;
}

static void churn_percentiles(const char *what, uint64_t *v, long n)
{
	char name[64];

	bench_sort_u64(v, (size_t) n);
	snprintf(name, sizeof(name), "churn.%s.%s.p50", BENCH_FLAVOR, what);
	bench_metric(name, (double) bench_percentile_u64(v, (size_t) n, 50) / 1e3, "us");
	snprintf(name, sizeof(name), "churn.%s.%s.p99", BENCH_FLAVOR, what);
	bench_metric(name, (double) bench_percentile_u64(v, (size_t) n, 99) / 1e3, "us");
}

static void run_churn(long count, double max_s)
{
	pthread_t gp_tid, t[2];
	pthread_attr_t attr;
	unsigned long gps = 0;
	uint64_t t0, t1, deadline;
	struct churn_slot *slots = bench_xmalloc(sizeof(*slots) * (size_t) (count + 1));
	uint64_t *v = bench_xmalloc(sizeof(*v) * (size_t) (count + 1));
	long done = 0;
	char name[64];

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	spin_stop = 0;
	if (pthread_create(&gp_tid, NULL, gp_loop, &gps))
		bench_die("pthread_create failed");
	t0 = bench_now_ns();
	deadline = t0 + (uint64_t) (max_s * 1e9);
	while (done < count) {
		for (int k = 0; k < 2; k++)
			if (pthread_create(&t[k], &attr, short_lived, &slots[done + k]))
				bench_die("pthread_create (thread %ld) failed", done + k);
		for (int k = 0; k < 2; k++)
			pthread_join(t[k], NULL);
		done += 2;
		if (bench_now_ns() >= deadline)
			break;
	}
	t1 = bench_now_ns();
	spin_stop = 1;
	pthread_join(gp_tid, NULL);
	pthread_attr_destroy(&attr);
	snprintf(name, sizeof(name), "churn.%s.rate", BENCH_FLAVOR);
	bench_metric(name, (double) done / ((double) (t1 - t0) / 1e9), "thr/s");
	snprintf(name, sizeof(name), "churn.%s.gps", BENCH_FLAVOR);
	bench_metric(name, (double) gps / ((double) (t1 - t0) / 1e9), "gp/s");
	snprintf(name, sizeof(name), "churn.%s.threads", BENCH_FLAVOR);
	bench_metric(name, (double) done, "count");
	/* pthread_join ordered the slots' stores before these reads */
	for (long i = 0; i < done; i++)
		v[i] = slots[i].reg_ns;
	churn_percentiles("register", v, done);
	for (long i = 0; i < done; i++)
		v[i] = slots[i].unreg_ns;
	churn_percentiles("unregister", v, done);
	free(slots);
	free(v);
}

static void *spinner(void *arg)
{
	int slot = *(int *) arg;

	bench_pin(slot);
	while (!spin_stop)
		caa_cpu_relax();
	return NULL;
}

/* @which: 0 one spinner on the reader CPU, 1 on our own CPU, 2 on every other CPU. */
static void run_floor(const struct bench_opts *o, int which)
{
	static const char *const names[] = {
		"floor.membarrier.p50", "floor.membarrier_same.p50", "floor.membarrier_all.p50",
	};
	long max = o->quick ? 500 : 2000;
	uint64_t *lat = bench_xmalloc(sizeof(*lat) * (size_t) max);
	int nspin = which == 2 ? (bench_nr_cpus() > 1 ? bench_nr_cpus() - 1 : 1) : 1;
	int *slots = bench_xmalloc(sizeof(*slots) * (size_t) nspin);
	pthread_t *tids = bench_xmalloc(sizeof(*tids) * (size_t) nspin);

	if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0)) {
		bench_skip(names[which], "membarrier private expedited unavailable");
		free(lat);
		free(slots);
		free(tids);
		return;
	}
	bench_pin(BENCH_CPU_UPDATER);
	spin_stop = 0;
	for (int k = 0; k < nspin; k++) {
		slots[k] = which == 1 ? BENCH_CPU_UPDATER : BENCH_CPU_READER + k;
		if (pthread_create(&tids[k], NULL, spinner, &slots[k]))
			bench_die("pthread_create failed");
	}
	bench_sleep_until_ns(bench_now_ns() + 20 * 1000 * 1000);
	for (long i = 0; i < max; i++) {
		uint64_t t0 = bench_now_ns();

		if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))
			bench_die("membarrier failed");
		lat[i] = bench_now_ns() - t0;
	}
	spin_stop = 1;
	for (int k = 0; k < nspin; k++)
		pthread_join(tids[k], NULL);
	bench_sort_u64(lat, (size_t) max);
	bench_metric(names[which], (double) bench_percentile_u64(lat, (size_t) max, 50) / 1e3, "us");
	if (which == 2)
		bench_metric("floor.membarrier_all.cpus", (double) nspin, "count");
	free(lat);
	free(slots);
	free(tids);
}

int main(int argc, char **argv)
{
	struct bench_opts o;
	const char *mode;

	bench_parse_opts(argc, argv, &o);
	mode = o.mode ? o.mode : "idle";
	bench_pin_init();
	bench_pin(BENCH_CPU_UPDATER);
	if (!strcmp(mode, "idle"))
		run_idle(&o, o.max_samples > 0 ? o.max_samples : 1);
	else if (!strcmp(mode, "churn"))
		run_churn(o.max_samples > 0 ? o.max_samples : (o.quick ? 2000 : 10000),
			  o.max_seconds > 0 ? o.max_seconds : (o.quick ? 2.0 : 10.0));
	else if (!strcmp(mode, "floor"))
		run_floor(&o, 0);
	else if (!strcmp(mode, "floor-same"))
		run_floor(&o, 1);
	else if (!strcmp(mode, "floor-all"))
		run_floor(&o, 2);
	else
		bench_die("unknown mode %s", mode);
	return 0;
}
