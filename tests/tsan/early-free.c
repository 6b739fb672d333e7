// SPDX-License-Identifier: MIT
/*
 * Can the tsan setup fail?  A manual check (docs/VERIFICATION.md): an updater
 * that frees the object it unpublished without waiting for a grace period
 * must be reported by TSan as a race between the free and a reader's load;
 * with synchronize_rcu in between, nothing may be reported.
 *
 *   B=build-tsan   # configured with -Db_sanitize=thread
 *   cc -fsanitize=thread -O1 -g -Iliburcu/include -Iarch/include \
 *      -I$B/arch/include -I$B/liburcu/include tests/tsan/early-free.c \
 *      -L$B/liburcu -lurcu-memb -lurcu-common -pthread -Wl,-rpath,$B/liburcu
 *   ./a.out        # no grace period: a TSan report, exit 66
 *   ./a.out wait   # synchronize_rcu before each free: clean, exit 0
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <urcu/urcu-memb.h>

struct obj { long x; };
static struct obj *shared;
static int stop;

static void *reader(void *a)
{
	long sum = 0;

	(void) a;
	urcu_memb_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		urcu_memb_read_lock();
		struct obj *p = rcu_dereference(shared);

		if (p)
			sum += p->x;
		urcu_memb_read_unlock();
	}
	urcu_memb_unregister_thread();
	return (void *) sum;
}

int main(int argc, char **argv)
{
	int wait = argc > 1;	/* any argument: synchronize_rcu before free */
	pthread_t t;

	(void) argv;
	shared = calloc(1, sizeof(*shared));
	pthread_create(&t, NULL, reader, NULL);
	for (int i = 0; i < 2000; i++) {
		struct obj *n = calloc(1, sizeof(*n)), *old;
		n->x = i;
		old = rcu_xchg_pointer(&shared, n);
		if (wait)
			urcu_memb_synchronize_rcu();
		free(old);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	free(shared);
	puts(wait ? "with synchronize_rcu" : "without synchronize_rcu");
	return 0;
}
