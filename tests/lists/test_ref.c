// SPDX-License-Identifier: MIT
/*
 * <urcu/ref.h>: counting, release exactly once at zero, get_unless_zero,
 * the LONG_MAX saturation (urcu_ref_get_safe fails, urcu_ref_get aborts
 * with a message), the abort on a put below zero, and two threads taking
 * and dropping references concurrently without losing any.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <urcu/ref.h>
#include "tap.h"

struct obj {
	int payload;
	struct urcu_ref ref;
};

static int releases;
static struct obj *released;

static void release_obj(struct urcu_ref *ref)
{
	uatomic_inc(&releases);
	released = caa_container_of(ref, struct obj, ref);
}

static long count(struct obj *o)
{
	return uatomic_read(&o->ref.refcount);
}

static void test_counting(void)
{
	struct obj o = { 42, { 0 } };
	bool got;

	urcu_ref_init(&o.ref);
	tap_ok(count(&o) == 1, "urcu_ref_init starts at one reference");
	urcu_ref_get(&o.ref);
	urcu_ref_get(&o.ref);
	tap_ok(count(&o) == 3, "urcu_ref_get adds one each time");
	urcu_ref_put(&o.ref, release_obj);
	urcu_ref_put(&o.ref, release_obj);
	tap_ok(count(&o) == 1 && releases == 0, "urcu_ref_put above zero does not release");
	urcu_ref_put(&o.ref, release_obj);
	tap_ok(releases == 1 && released == &o, "the put that reaches zero releases once");

	tap_ok(!urcu_ref_get_unless_zero(&o.ref) && count(&o) == 0,
	       "urcu_ref_get_unless_zero refuses a zero count and leaves it");
	urcu_ref_set(&o.ref, 5);
	tap_ok(count(&o) == 5, "urcu_ref_set sets the count");
	tap_ok(urcu_ref_get_unless_zero(&o.ref) && count(&o) == 6,
	       "urcu_ref_get_unless_zero takes a reference on a live object");

	urcu_ref_set(&o.ref, LONG_MAX);
	got = urcu_ref_get_safe(&o.ref);
	tap_ok(!got && count(&o) == LONG_MAX,
	       "urcu_ref_get_safe fails at LONG_MAX without changing the count");
	tap_ok(!urcu_ref_get_unless_zero(&o.ref) && count(&o) == LONG_MAX,
	       "urcu_ref_get_unless_zero fails at LONG_MAX");
	urcu_ref_set(&o.ref, LONG_MAX - 1);
	got = urcu_ref_get_safe(&o.ref);
	tap_ok(got && count(&o) == LONG_MAX, "urcu_ref_get_safe reaches LONG_MAX");
}

/*
 * Run fn in a child with stderr captured; true if the child died of SIGABRT
 * and wrote a line containing expect.
 */
static int aborts_with(void (*fn)(void), const char *expect)
{
	char buf[512];
	ssize_t n, len = 0;
	int fds[2], status;
	pid_t pid;

	if (pipe(fds))
		return 0;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		struct sigaction sa;

		/* the abort is expected: no core dump, default action */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigaction(SIGABRT, &sa, NULL);
		dup2(fds[1], 2);
		close(fds[0]);
		fn();
		_exit(0);
	}
	close(fds[1]);
	while (len < (ssize_t) sizeof(buf) - 1
	       && (n = read(fds[0], buf + len, sizeof(buf) - 1 - (size_t) len)) > 0)
		len += n;
	buf[len] = '\0';
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid)
		return 0;
	if (len)
		tap_diag("child said: %.*s", (int) strcspn(buf, "\n"), buf);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT
		&& strstr(buf, expect) != NULL;
}

static struct obj misused;

static void overflow_get(void)
{
	urcu_ref_set(&misused.ref, LONG_MAX);
	urcu_ref_get(&misused.ref);
}

static void put_below_zero(void)
{
	urcu_ref_set(&misused.ref, 0);
	urcu_ref_put(&misused.ref, release_obj);
}

static void test_misuse(void)
{
	tap_ok(aborts_with(overflow_get, "urcu_ref_get"),
	       "urcu_ref_get at LONG_MAX aborts with a message naming it");
	tap_ok(aborts_with(put_below_zero, "urcu_ref_put"),
	       "urcu_ref_put below zero aborts with a message naming it");
}

#define ROUNDS 1000000

static struct obj shared_obj;

static void *churn(void *arg)
{
	long i, taken = 0;

	(void) arg;

	for (i = 0; i < ROUNDS; i++) {
		if (i & 1) {
			urcu_ref_get(&shared_obj.ref);
			taken++;
		} else if (urcu_ref_get_unless_zero(&shared_obj.ref)) {
			taken++;
		}
		urcu_ref_put(&shared_obj.ref, release_obj);
	}
	return (void *) taken;
}

static void test_concurrent(void)
{
	pthread_t t[2];
	void *taken[2];
	int i;

	releases = 0;
	urcu_ref_init(&shared_obj.ref);
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, churn, NULL)) {
			tap_ok(0, "pthread_create");
			return;
		}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], &taken[i]);
	tap_ok((long) taken[0] == ROUNDS && (long) taken[1] == ROUNDS,
	       "every get/get_unless_zero on a live object succeeded");
	tap_ok(count(&shared_obj) == 1 && releases == 0,
	       "two threads x %d get/put pairs leave the count at 1, unreleased",
	       ROUNDS);
	urcu_ref_put(&shared_obj.ref, release_obj);
	tap_ok(releases == 1, "the last put releases");
}

int main(void)
{
	test_counting();
	test_misuse();
	test_concurrent();
	return tap_done();
}
