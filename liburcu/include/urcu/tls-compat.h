// SPDX-License-Identifier: MIT
/*
 * <urcu/tls-compat.h>: thread-local variables that work whether or not the
 * compiler has thread-local storage.
 *
 *   extern DECLARE_URCU_TLS(type, name);      declaration (liburcu's
 *                                             spelling: `extern' is the
 *                                             caller's)
 *   DEFINE_URCU_TLS(type, name);              definition, zero-initialised
 *   DEFINE_URCU_TLS_INIT(type, name, init);   definition with a constant
 *                                             initial value (a braced
 *                                             list may contain commas)
 *   URCU_TLS(name)                            the calling thread's instance
 *                                             (an lvalue)
 *
 * Both definitions may be preceded by `static'.  `type' may be an array or
 * structure type.
 *
 * With compiler TLS (CONFIG_RCU_TLS) these are plain __thread variables.
 * Without it, each variable is a heap block per thread reached through a
 * pthread key, created on the thread's first access and freed when the
 * thread exits; that first access allocates, so it is not
 * async-signal-safe, and an allocation failure aborts with a message.
 */
#ifndef URCU_TLS_COMPAT_H
#define URCU_TLS_COMPAT_H

#include <stdlib.h>		/* as liburcu's tls-compat.h, with <urcu/arch.h> */
#include <urcu/config.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>

#if defined(CONFIG_RCU_TLS) && !defined(URCU_TLS_FORCE_PTHREAD_KEY)

#define URCU_TLS_STORAGE_CLASS	__thread

/* __typeof__ lets `type' be an array type such as int[4]. */
#define DECLARE_URCU_TLS(type, name)			\
	URCU_TLS_STORAGE_CLASS __typeof__(type) name
#define DEFINE_URCU_TLS(type, name)			\
	URCU_TLS_STORAGE_CLASS __typeof__(type) name
#define DEFINE_URCU_TLS_INIT(type, name, ...)		\
	URCU_TLS_STORAGE_CLASS __typeof__(type) name = __VA_ARGS__
#define URCU_TLS(name)		(name)

#else /* pthread key fallback */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Report a failure of the fallback and stop: there is no way to go on. */
static inline void urcu_i_tls_die(const char *name, const char *what)
{
	fprintf(stderr, "urcu: thread-local variable %s: %s\n", name, what);
	abort();
}

#define DECLARE_URCU_TLS(type, name)					\
	__typeof__(type) *urcu_i_tls_access_##name(void)

/*
 * The accessor's prototype comes first so that a leading `static' gives it,
 * and through it the definition below, internal linkage; a last
 * redeclaration takes the caller's semicolon.  The initial value is copied
 * from a constant object of the variable's type, which also works for
 * arrays and structures.
 */
#define URCU_I_DEFINE_TLS(type, name, has_init, ...)			\
	__typeof__(type) *urcu_i_tls_access_##name(void);		\
	static pthread_key_t urcu_i_tls_key_##name;			\
	static pthread_once_t urcu_i_tls_once_##name = PTHREAD_ONCE_INIT; \
	static void urcu_i_tls_make_key_##name(void)			\
	{								\
		if (pthread_key_create(&urcu_i_tls_key_##name, free) != 0) \
			urcu_i_tls_die(#name, "pthread_key_create failed"); \
	}								\
	__typeof__(type) *urcu_i_tls_access_##name(void)		\
	{								\
		__typeof__(type) *p;					\
									\
		if (pthread_once(&urcu_i_tls_once_##name,		\
				urcu_i_tls_make_key_##name) != 0)	\
			urcu_i_tls_die(#name, "pthread_once failed");	\
		p = (__typeof__(type) *)				\
			pthread_getspecific(urcu_i_tls_key_##name);	\
		if (caa_unlikely(!p)) {					\
			p = (__typeof__(type) *) calloc(1, sizeof(*p));	\
			if (!p)						\
				urcu_i_tls_die(#name, "out of memory");	\
			if (has_init) {					\
				static const __typeof__(type)		\
					urcu_i_tls_init = __VA_ARGS__;	\
				memcpy(p, &urcu_i_tls_init, sizeof(*p)); \
			}						\
			if (pthread_setspecific(urcu_i_tls_key_##name, p) != 0) \
				urcu_i_tls_die(#name, "pthread_setspecific failed"); \
		}							\
		return p;						\
	}								\
	__typeof__(type) *urcu_i_tls_access_##name(void)

/* calloc() already zeroes; the {0} initialiser is never copied. */
#define DEFINE_URCU_TLS(type, name)					\
	URCU_I_DEFINE_TLS(type, name, 0, { 0 })

#define DEFINE_URCU_TLS_INIT(type, name, ...)				\
	URCU_I_DEFINE_TLS(type, name, 1, __VA_ARGS__)

#define URCU_TLS(name)		(*urcu_i_tls_access_##name())

#endif /* CONFIG_RCU_TLS */

#endif /* URCU_TLS_COMPAT_H */
