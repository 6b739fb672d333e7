// SPDX-License-Identifier: MIT
/*
 * The rest of the architecture layer: compiler.h helpers, system.h shared
 * accesses, thread-local variables (tls-compat.h), assertions, futex wait
 * and wake, caa_get_cycles() and <urcu/config.h>.
 *
 * Built twice: with compiler TLS and with URCU_TLS_FORCE_PTHREAD_KEY (the
 * pthread-key fallback of tls-compat.h), see meson.build.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <urcu/arch.h>
#include <urcu/assert.h>
#include <urcu/compiler.h>
#include <urcu/config.h>
#include <urcu/debug.h>
#include <urcu/futex.h>
#include <urcu/system.h>
#include <urcu/tls-compat.h>
#include <urcu/uatomic.h>
#include "tap.h"

#ifdef URCU_TLS_FORCE_PTHREAD_KEY
#define TLS_VARIANT "pthread-key TLS"
#else
#define TLS_VARIANT "compiler TLS"
#endif

/* ---- compiler.h ---------------------------------------------------------- */

struct outer {
	char c;
	long l;
	struct { int x, y; } inner;
	int arr[3];
};

urcu_static_assert(sizeof(long) * 8 == CAA_BITS_PER_LONG,
		"CAA_BITS_PER_LONG is the width of long", bits_per_long);
urcu_static_assert((CAA_CACHE_LINE_SIZE & (CAA_CACHE_LINE_SIZE - 1)) == 0,
		"cache line size is a power of two", line_pow2);
#if CAA_BITS_PER_LONG != 32 && CAA_BITS_PER_LONG != 64
#error "CAA_BITS_PER_LONG must be usable in #if"
#endif

static int side_effects;

static int bump(int v)
{
	side_effects++;
	return v;
}

static void check_compiler(void)
{
	struct outer o;
	int arr[7];
	static const char name[] = "abc";
	int x = 0;
	long *lp = &o.l;
	int ok;

	tap_ok(caa_container_of(lp, struct outer, l) == &o,
		"caa_container_of, scalar member");
	tap_ok(caa_container_of(&o.inner.y, struct outer, inner.y) == &o,
		"caa_container_of, nested member");
	tap_ok(caa_container_of(&o.arr[0], struct outer, arr[0]) == &o,
		"caa_container_of, array element member");
	tap_ok(CAA_ARRAY_SIZE(arr) == 7 && CAA_ARRAY_SIZE(name) == 4,
		"CAA_ARRAY_SIZE");
	side_effects = 0;
	ok = caa_max(bump(3), bump(9)) == 9 && caa_min(bump(3), bump(9)) == 3;
	tap_ok(ok && side_effects == 4, "caa_max/caa_min, each argument once");
	tap_ok(caa_max(-1L, 2) == 2 && caa_min(-1L, 2) == -1L,
		"caa_max/caa_min with mixed signed types");
	tap_ok(caa_likely(5) == 1 && caa_unlikely(0) == 0 && caa_unlikely(7) == 1,
		"caa_likely/caa_unlikely yield 0 or 1");
	tap_ok(CAA_BUILD_BUG_ON_ZERO(sizeof(int) > 64) == 0,
		"CAA_BUILD_BUG_ON_ZERO is 0 when the condition is false");
	CAA_BUILD_BUG_ON(sizeof(char) != 1);
	tap_ok(caa_is_signed_type(int) && !caa_is_signed_type(unsigned int)
		&& caa_is_signed_type(long) && !caa_is_signed_type(uint8_t),
		"caa_is_signed_type");
	tap_ok(URCU_FORCE_CAST(const char *, (void *) name) == name,
		"URCU_FORCE_CAST");
	CMM_ACCESS_ONCE(x) = 4;
	tap_ok(CMM_ACCESS_ONCE(x) == 4, "CMM_ACCESS_ONCE reads and writes");
	{
		urcu_static_assert(1, "block scope", block_scope);
	}
}

/* ---- system.h ------------------------------------------------------------ */

static void check_system(void)
{
	unsigned long v = 1;
	char c = 'a';
	struct outer *p = NULL, o;
	unsigned long r;

	r = CMM_STORE_SHARED(v, 42UL);
	tap_ok(r == 42 && v == 42, "CMM_STORE_SHARED stores and yields the value");
	tap_ok(CMM_LOAD_SHARED(v) == 42, "CMM_LOAD_SHARED");
	tap_ok(CMM_STORE_SHARED(c, 'z') == 'z' && CMM_LOAD_SHARED(c) == 'z',
		"on a char");
	CMM_STORE_SHARED(p, &o);
	tap_ok(CMM_LOAD_SHARED(p) == &o, "on a pointer");
	/* the value stored is converted to the variable's type */
	tap_ok(CMM_STORE_SHARED(v, -1) == ~0UL && v == ~0UL,
		"stored value converted to the target type");
}

/* ---- tls-compat.h -------------------------------------------------------- */

struct tls_rec {
	int a;
	long b[4];
};

extern DECLARE_URCU_TLS(int, tls_plain);
DEFINE_URCU_TLS(int, tls_plain);
static DEFINE_URCU_TLS_INIT(long, tls_init, 77);
static DEFINE_URCU_TLS_INIT(struct tls_rec, tls_rec_init, { 3, { 1, 2, 3, 4 } });
static DEFINE_URCU_TLS(struct tls_rec, tls_rec);
static DEFINE_URCU_TLS(unsigned int[3], tls_arr);

static void *tls_thread(void *arg)
{
	int id = (int) (intptr_t) arg;
	int *ok = (int *) malloc(sizeof(int));
	int i;

	if (!ok)
		return NULL;
	*ok = URCU_TLS(tls_plain) == 0 && URCU_TLS(tls_init) == 77
		&& URCU_TLS(tls_rec).a == 0 && URCU_TLS(tls_rec).b[3] == 0
		&& URCU_TLS(tls_arr)[2] == 0
		&& URCU_TLS(tls_rec_init).a == 3 && URCU_TLS(tls_rec_init).b[3] == 4;
	for (i = 0; i < 1000; i++) {
		URCU_TLS(tls_plain) += id;
		URCU_TLS(tls_init)++;
		URCU_TLS(tls_rec).b[i % 4] += id;
		URCU_TLS(tls_arr)[i % 3]++;
		if (i % 100 == 0)
			sched_yield();
	}
	*ok &= URCU_TLS(tls_plain) == 1000 * id && URCU_TLS(tls_init) == 1077
		&& URCU_TLS(tls_rec).b[1] == 250 * id
		&& URCU_TLS(tls_arr)[0] == 334;
	return ok;
}

static void check_tls(void)
{
	pthread_t t[3];
	int i, all = 1;

	URCU_TLS(tls_plain) = -5;
	for (i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, tls_thread, (void *) (intptr_t) (i + 1)))
			all = 0;
	for (i = 0; i < 3; i++) {
		void *res = NULL;

		if (pthread_join(t[i], &res) || !res || !*(int *) res)
			all = 0;
		free(res);
	}
	tap_ok(all, "%s: each thread sees its own zero/initial values", TLS_VARIANT);
	tap_ok(URCU_TLS(tls_plain) == -5 && URCU_TLS(tls_init) == 77,
		"%s: other threads did not touch main's instances", TLS_VARIANT);
	{
		int *ip = &URCU_TLS(tls_plain);

		*ip = 12;
		tap_ok(URCU_TLS(tls_plain) == 12,
			"%s: URCU_TLS is a stable lvalue", TLS_VARIANT);
	}
}

/* ---- assert.h ------------------------------------------------------------ */

/* Run fn in a child; return its termination signal (0 if it exited). */
static int child_signal(void (*fn)(void), char *msg, size_t len)
{
	int pfd[2], status;
	pid_t pid;
	ssize_t n;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(pfd[1], 2);
		close(pfd[0]);
		fn();
		_exit(0);
	}
	close(pfd[1]);
	n = read(pfd[0], msg, len - 1);
	msg[n > 0 ? n : 0] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	close(pfd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

static void posix_assert_fails(void)
{
	int two = 2;

	urcu_posix_assert(two + two == 5);
}

static void posix_assert_holds(void)
{
	urcu_posix_assert(1 + 1 == 2);
}

static int evaluated;

static int count_eval(void)
{
	return ++evaluated;
}

static void check_assert(void)
{
	char msg[512];
	int sig;

	sig = child_signal(posix_assert_fails, msg, sizeof(msg));
	tap_ok(sig == SIGABRT, "urcu_posix_assert aborts on a false condition");
	tap_ok(strstr(msg, "two + two == 5") && strstr(msg, __FILE__)
		&& strstr(msg, "posix_assert_fails"),
		"its message names the condition, file and function: %s", msg);
	sig = child_signal(posix_assert_holds, msg, sizeof(msg));
	tap_ok(sig == 0 && msg[0] == '\0', "urcu_posix_assert is silent when true");
	evaluated = 0;
	urcu_assert(count_eval() > 0);
#if defined(DEBUG_RCU) || defined(CONFIG_RCU_DEBUG)
	tap_ok(evaluated == 1, "urcu_assert evaluates its condition (debug)");
#else
	tap_ok(evaluated == 0, "urcu_assert does not evaluate its condition");
#endif
}

/* ---- futex.h ------------------------------------------------------------- */

static int32_t fword;

static void *futex_waker(void *arg)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	(void) arg;
	nanosleep(&ts, NULL);
	/* The new value must be visible before the wake; pairs with the
	 * waiter's re-check after futex() returns. */
	uatomic_xchg(&fword, 1);
	if (futex_async(&fword, FUTEX_WAKE, 1, NULL, NULL, 0) < 0)
		return (void *) 1;
	return NULL;
}

static void check_futex(void)
{
	struct timespec shortwait = { 0, 5 * 1000 * 1000 };
	pthread_t t;
	void *res = (void *) 1;
	int ret, rounds = 0;

	fword = 3;
	errno = 0;
	ret = futex(&fword, FUTEX_WAIT, 4, NULL, NULL, 0);
	tap_ok(ret == -1 && (errno == EAGAIN || errno == EWOULDBLOCK),
		"FUTEX_WAIT on a changed value returns EAGAIN");
	errno = 0;
	ret = futex_noasync(&fword, FUTEX_WAIT, 3, &shortwait, NULL, 0);
	tap_ok(ret == -1 && errno == ETIMEDOUT, "FUTEX_WAIT times out");
	tap_ok(futex_noasync(&fword, FUTEX_WAKE, 1, NULL, NULL, 0) == 0,
		"FUTEX_WAKE without waiters wakes nobody");

	fword = 0;
	if (pthread_create(&t, NULL, futex_waker, NULL) == 0) {
		while (uatomic_load(&fword, CMM_ACQUIRE) == 0 && rounds < 1000) {
			ret = futex_noasync(&fword, FUTEX_WAIT, 0, NULL, NULL, 0);
			if (ret < 0 && errno != EAGAIN && errno != EINTR)
				break;
			rounds++;
		}
		pthread_join(t, &res);
	}
	tap_ok(fword == 1 && res == NULL, "FUTEX_WAIT is woken by FUTEX_WAKE "
		"(%d wait calls)", rounds);
}

/* ---- arch.h and config.h ------------------------------------------------- */

static void check_cycles_and_config(void)
{
	caa_cycles_t a, b;
	struct timespec ts = { 0, 2 * 1000 * 1000 };
	int i;

	a = caa_get_cycles();
	nanosleep(&ts, NULL);
	for (i = 0; i < 100; i++)
		caa_cpu_relax();
	b = caa_get_cycles();
	tap_ok(b > a, "caa_get_cycles advances (%llu ticks over 2 ms)",
		(unsigned long long) (b - a));
#if defined(CONFIG_RCU_SMP) && defined(CONFIG_RCU_HAVE_MULTIFLAVOR)
	tap_ok(1, "config.h defines CONFIG_RCU_SMP");
#else
	tap_ok(0, "config.h defines CONFIG_RCU_SMP");
#endif
#if defined(CONFIG_RCU_ARCH_X86) + defined(CONFIG_RCU_ARCH_AARCH64) + \
	defined(CONFIG_RCU_ARCH_GENERIC) == 1
	tap_ok(1, "config.h names exactly one architecture");
#else
	tap_ok(0, "config.h names exactly one architecture");
#endif
#if defined(__linux__)
# ifdef CONFIG_RCU_HAVE_FUTEX
	tap_ok(1, "config.h: futex on Linux");
# else
	tap_ok(0, "config.h: futex on Linux");
# endif
#endif
}

int main(void)
{
	tap_diag("arch layer helpers, %s", TLS_VARIANT);
	check_compiler();
	check_system();
	check_tls();
	check_assert();
	check_futex();
	check_cycles_and_config();
	return tap_done();
}
