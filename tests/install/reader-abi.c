// SPDX-License-Identifier: MIT
/*
 * The program of the reader-ABI check (check-reader-abi.sh): an ordinary
 * memb program, built without _LGPL_SOURCE, which therefore inlines the
 * read side and depends on the reader layout (docs/DESIGN.md, "Reader ABI").
 * Built a second time with -DURCU_NO_INLINE_READ_SIDE, it calls the
 * library's read side instead and depends on no layout.  Built with
 * -DRCU_MB, -DRCU_SIGNAL, -DREADER_ABI_BP or -DREADER_ABI_QSBR, it is the
 * same program for that flavor (qsbr: the reader "holds" its section by
 * announcing no quiescent state).
 *
 * It exercises what the inline code reads and writes: registration (the
 * reader word leaves "unregistered"), nesting (the depth bits), a grace
 * period with a reader inside a critical section on another thread (the
 * sequence snapshot, the waiter bit and the wake-up), and read_ongoing.
 * Exit status 0 and "reader-abi: ok" when every step behaved.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(READER_ABI_QSBR)
#include <urcu-qsbr.h>
#elif defined(READER_ABI_BP)
#include <urcu-bp.h>
#else
#include <urcu.h>	/* memb, or mb / signal with RCU_MB / RCU_SIGNAL */
#endif

static int *gp;
static int in_section;
static int leave;
static int gp_done;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void fail(const char *what)
{
	fprintf(stderr, "reader-abi: %s\n", what);
	exit(1);
}

/* Holds a critical section until told to leave, so a grace period waits. */
static void *reader(void *arg)
{
	int *p;
	long i;

	(void) arg;
	rcu_register_thread();
	rcu_read_lock();
	p = rcu_dereference(gp);
	uatomic_set(&in_section, 1);
	/* 10 s watchdog: the grace period below must not return before this. */
	for (i = 0; i < 10000 && !uatomic_read(&leave); i++)
		sleep_ms(1);
	if (*p != 1)
		fail("the reader's object changed");
	if (uatomic_read(&gp_done))
		fail("synchronize_rcu returned while a reader was inside");
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

static void *updater(void *arg)
{
	(void) arg;
	synchronize_rcu();
	uatomic_set(&gp_done, 1);
	return NULL;
}

int main(void)
{
	static int one = 1, two = 2;
	pthread_t r, u;
	long i;

	rcu_register_thread();
#ifdef READER_ABI_QSBR
	/* qsbr: "ongoing" means online. */
	if (!rcu_read_ongoing())
		fail("read_ongoing false in a registered (online) qsbr thread");
	rcu_read_lock();
	rcu_read_unlock();
	rcu_quiescent_state();
	rcu_thread_offline();
	if (rcu_read_ongoing())
		fail("read_ongoing while offline");
	rcu_thread_online();
#else
	if (rcu_read_ongoing())
		fail("read_ongoing outside a critical section");
	rcu_read_lock();
	rcu_read_lock();
	rcu_read_unlock();
	if (!rcu_read_ongoing())
		fail("read_ongoing false in the outer section after an inner unlock");
	rcu_read_unlock();
	if (rcu_read_ongoing())
		fail("read_ongoing after the outermost unlock");
	rcu_quiescent_state();
#endif
	rcu_unregister_thread();

	rcu_assign_pointer(gp, &one);
	if (pthread_create(&r, NULL, reader, NULL))
		fail("pthread_create (reader)");
	while (!uatomic_read(&in_section))
		sleep_ms(1);
	rcu_assign_pointer(gp, &two);
	if (pthread_create(&u, NULL, updater, NULL))
		fail("pthread_create (updater)");
	/* The grace period must wait for the reader: give it 50 ms to fail. */
	sleep_ms(50);
	uatomic_set(&leave, 1);
	if (pthread_join(r, NULL) || pthread_join(u, NULL))
		fail("pthread_join");
	for (i = 0; i < 3; i++)
		synchronize_rcu();
	printf("reader-abi: ok\n");
	return 0;
}
