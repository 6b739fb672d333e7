// SPDX-License-Identifier: MIT
/*
 * Reader registration under allocation failure, bp (lazy registration by
 * the first rcu_read_lock of a thread) and memb (rcu_register_thread).
 *
 * The registry itself never allocates: a reader's record is its TLS and the
 * registry is a list through the records (urcu-reader.c), so registering any
 * number of threads with every library allocation failing must work; the
 * test checks that the library asks for no memory at all.  The one fallible
 * step is pthread_setspecific() of the thread-exit key, which glibc backs
 * with memory it allocates once the process uses 32 keys or more: without
 * it the record would stay linked after its thread exits.  Both calls
 * return void, so the documented behaviour (house rules; liburcu-bp dies too
 * when its registry cannot grow) is one line naming the function, then
 * abort: "urcu: rcu_read_lock: cannot set up the thread's unregistration at
 * exit: Cannot allocate memory" (rcu_register_thread for memb).
 *
 * A grace period reads the reader words through an array the leader keeps
 * (urcu-gp.c, scan_set), which needs memory past 64 registered threads;
 * when that allocation fails the leader walks the registry list instead,
 * and the grace period must still wait for a reader inside its critical
 * section (memb, NR_IDLE idle registered threads plus one such reader).
 *
 * The libraries are loaded with dlopen() after the test has taken 40 keys,
 * so their exit key lies in glibc's second level, the case an application
 * that loads liburcu late (a plugin) meets.  FAULTS_BP_LIB and
 * FAULTS_MEMB_LIB are the built libraries' paths.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <unistd.h>

#include "test-time.h"
#include "faults-common.h"

#define NR_KEYS		40
#define NR_THREADS	8
#define NR_IDLE		100

static void (*bp_read_lock)(void);
static void (*bp_read_unlock)(void);
static void (*bp_synchronize_rcu)(void);
static void (*memb_register_thread)(void);
static void (*memb_unregister_thread)(void);
static void (*memb_read_lock)(void);
static void (*memb_read_unlock)(void);
static void (*memb_synchronize_rcu)(void);

static void *must_sym(void *h, const char *name)
{
	void *p = dlsym(h, name);

	if (!p)
		tap_bail("dlsym(%s): %s", name, dlerror());
	return p;
}

static void load(void)
{
	pthread_key_t keys[NR_KEYS];
	void *bp, *memb;

	for (int i = 0; i < NR_KEYS; i++)
		if (pthread_key_create(&keys[i], NULL))
			tap_bail("pthread_key_create failed");
	bp = dlopen(FAULTS_BP_LIB, RTLD_NOW | RTLD_LOCAL);
	memb = dlopen(FAULTS_MEMB_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!bp || !memb)
		tap_bail("dlopen: %s", dlerror());
	bp_read_lock = (void (*)(void)) must_sym(bp, "urcu_bp_read_lock");
	bp_read_unlock = (void (*)(void)) must_sym(bp, "urcu_bp_read_unlock");
	bp_synchronize_rcu = (void (*)(void)) must_sym(bp, "urcu_bp_synchronize_rcu");
	memb_register_thread = (void (*)(void)) must_sym(memb, "urcu_memb_register_thread");
	memb_unregister_thread = (void (*)(void)) must_sym(memb, "urcu_memb_unregister_thread");
	memb_read_lock = (void (*)(void)) must_sym(memb, "urcu_memb_read_lock");
	memb_read_unlock = (void (*)(void)) must_sym(memb, "urcu_memb_read_unlock");
	memb_synchronize_rcu = (void (*)(void)) must_sym(memb, "urcu_memb_synchronize_rcu");
	fi_scan_libs();
}

/* Children: every allocation of this thread fails, glibc's included. */
static void bp_first_lock_no_memory(void)
{
	fi_fail_alloc(1, FI_ANY_CALLER);
	bp_read_lock();
	bp_read_unlock();
}

static void memb_register_no_memory(void)
{
	fi_fail_alloc(1, FI_ANY_CALLER);
	memb_register_thread();
	memb_unregister_thread();
}

/* A bp reader whose every library allocation fails. */
static void *bp_reader(void *arg)
{
	int *lib_allocs = arg;

	fi_fail_alloc(1, FI_LIB_ONLY);
	bp_read_lock();
	bp_read_unlock();
	*lib_allocs = fi_alloc_calls();
	fi_disarm();
	return NULL;
}

static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cond = PTHREAD_COND_INITIALIZER;
static int idle_ready, idle_release, reader_in, reader_out;

/* A registered memb thread that waits, outside any critical section. */
static void *memb_idle(void *arg)
{
	(void) arg;
	memb_register_thread();
	pthread_mutex_lock(&idle_lock);
	idle_ready++;
	pthread_cond_broadcast(&idle_cond);
	while (!idle_release)
		pthread_cond_wait(&idle_cond, &idle_lock);
	pthread_mutex_unlock(&idle_lock);
	memb_unregister_thread();
	return NULL;
}

/* Holds a critical section for 300 ms, then marks its end and leaves. */
static void *memb_holder(void *arg)
{
	(void) arg;
	memb_register_thread();
	memb_read_lock();
	__atomic_store_n(&reader_in, 1, __ATOMIC_SEQ_CST);
	usleep(300 * 1000);
	__atomic_store_n(&reader_out, 1, __ATOMIC_SEQ_CST);
	memb_read_unlock();
	memb_unregister_thread();
	return NULL;
}

/* memb: a grace period whose scan array cannot grow still waits for readers. */
static void memb_scan_without_memory(void)
{
	pthread_t idle[NR_IDLE], holder;
	int asked, out;

	for (int i = 0; i < NR_IDLE; i++)
		if (pthread_create(&idle[i], NULL, memb_idle, NULL))
			tap_bail("pthread_create failed");
	pthread_mutex_lock(&idle_lock);
	while (idle_ready < NR_IDLE)
		pthread_cond_wait(&idle_cond, &idle_lock);
	pthread_mutex_unlock(&idle_lock);
	if (pthread_create(&holder, NULL, memb_holder, NULL))
		tap_bail("pthread_create failed");
	while (!__atomic_load_n(&reader_in, __ATOMIC_SEQ_CST))
		usleep(1000);
	fi_fail_alloc(1, FI_LIB_ONLY);
	memb_synchronize_rcu();
	out = __atomic_load_n(&reader_out, __ATOMIC_SEQ_CST);
	asked = fi_alloc_calls();
	fi_disarm();
	tap_ok(asked >= 1, "memb: with %d registered threads a grace period asks for its scan array (%d allocation(s))",
		NR_IDLE + 1, asked);
	tap_ok(out == 1, "memb: the scan array allocation failing, synchronize_rcu still waited for the reader inside its critical section");
	pthread_join(holder, NULL);
	memb_synchronize_rcu();	/* the array can be allocated now */
	tap_ok(1, "memb: the next grace period, allocations working again, returns");
	pthread_mutex_lock(&idle_lock);
	idle_release = 1;
	pthread_cond_broadcast(&idle_cond);
	pthread_mutex_unlock(&idle_lock);
	for (int i = 0; i < NR_IDLE; i++)
		pthread_join(idle[i], NULL);
}

int main(void)
{
	pthread_t tid[NR_THREADS];
	int allocs[NR_THREADS], total = 0;
	unsigned long long t0;

	alarm(60);
	load();
	faults_expect_death(bp_first_lock_no_memory,
		"urcu: rcu_read_lock: cannot set up the thread's unregistration at exit: Cannot allocate memory",
		"bp: first rcu_read_lock, pthread_setspecific out of memory");
	faults_expect_death(memb_register_no_memory,
		"urcu: rcu_register_thread: cannot set up the thread's unregistration at exit: Cannot allocate memory",
		"memb: rcu_register_thread, pthread_setspecific out of memory");

	for (int i = 0; i < NR_THREADS; i++)
		if (pthread_create(&tid[i], NULL, bp_reader, &allocs[i]))
			tap_bail("pthread_create failed");
	for (int i = 0; i < NR_THREADS; i++) {
		pthread_join(tid[i], NULL);
		total += allocs[i];
	}
	tap_ok(total == 0, "bp: %d threads register lazily with every library allocation failing (%d asked for)",
		NR_THREADS, total);
	/* Their records left with them: a grace period has nobody to wait for. */
	t0 = t_now_ns();
	bp_synchronize_rcu();
	tap_ok(t_ms_since(t0) < T_START_LIMIT_MS,
		"bp: synchronize_rcu after the readers exited returns (%.1f ms)",
		t_ms_since(t0));
	memb_scan_without_memory();
	return tap_done();
}
