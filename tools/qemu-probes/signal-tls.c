// SPDX-License-Identifier: MIT
/*
 * Does a thread keep its own thread-local storage across a signal handler?
 *
 * Two threads each spin on a __thread word holding their own id; main
 * sends SIGUSR1 to the first one, repeatedly.  After each handler returns,
 * the interrupted thread must still read its own id.  A native kernel always
 * passes.  qemu-i386 7.2 (user mode) fails: sigreturn reloads the guest's
 * %gs from one descriptor table shared by every guest thread, whose TLS
 * entry the last thread to call set_thread_area wrote, so the first thread
 * comes back reading the second one's TLS.  The signal flavor, whose grace
 * periods send SIGRCU to each reader, cannot run there.
 *
 * tools/cross-tests.py builds and runs this under a cross build's
 * exe_wrapper.  Exit 0: TLS kept; 1: TLS lost (count printed); 2: setup.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

static __thread volatile long own_id;
static volatile long lost, handled;
static volatile int stop;

static void on_signal(int signo)
{
	(void) signo;
	handled++;
}

static void *spin(void *arg)
{
	long id = (long) arg;

	own_id = id;
	while (!stop) {
		if (own_id != id) {
			lost++;
			own_id = id;
		}
	}
	return NULL;
}

int main(void)
{
	const struct timespec pause = { 0, 200000 };
	struct sigaction sa = { 0 };
	pthread_t t[2];
	int i;

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL)
	    || pthread_create(&t[0], NULL, spin, (void *) 1L)
	    || pthread_create(&t[1], NULL, spin, (void *) 2L)) {
		fprintf(stderr, "signal-tls: setup failed\n");
		return 2;
	}
	nanosleep(&pause, NULL);
	for (i = 0; i < 200; i++) {
		pthread_kill(t[0], SIGUSR1);
		nanosleep(&pause, NULL);
	}
	stop = 1;
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	printf("signal-tls: %ld signals handled, TLS lost %ld times\n", handled, lost);
	return lost ? 1 : 0;
}
