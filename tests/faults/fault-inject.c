// SPDX-License-Identifier: MIT
/*
 * The fault-injecting, block-counting allocator and pthread_create of the
 * 'faults' suite (interface and rules in fault-inject.h).
 *
 * The test programs link this module before every other library, so the
 * dynamic linker binds every malloc/free/pthread_create of the process, the
 * liburcu libraries' included, to the definitions below.  They call glibc's
 * own entry points (__libc_malloc and friends, which glibc exports for
 * exactly this purpose, and the next pthread_create found by dlsym), so no
 * memory is ever handed out by one allocator and freed by another.
 *
 * "From the library" means that the caller's return address lies in an
 * executable segment of a loaded object whose path contains "/liburcu"
 * (fi_scan_libs()).  The per-thread fault state is initial-exec TLS: reading
 * it never allocates, so it is safe inside malloc itself.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <urcu/uatomic.h>

#include "fault-inject.h"

#define FI_EXPORT	__attribute__((visibility("default")))

/* glibc's allocator proper, exported by libc.so.6 for interposers. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t nmemb, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *p);

/* ---- which code is the library ------------------------------------------ */

#define FI_MAX_RANGES	64

static struct { uintptr_t lo, hi; } ranges[FI_MAX_RANGES];
static int nr_ranges;

static int scan_one(struct dl_phdr_info *info, size_t size, void *data)
{
	int *n = data;

	if (!info->dlpi_name || !strstr(info->dlpi_name, "/liburcu"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum && *n < FI_MAX_RANGES; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		ranges[*n].lo = info->dlpi_addr + ph->p_vaddr;
		ranges[*n].hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		(*n)++;
	}
	return 0;
}

FI_EXPORT void fi_scan_libs(void)
{
	int n = 0;

	/*
	 * Called by the test before it arms anything; a range array read
	 * while it is being rewritten only misclassifies a caller, and the
	 * entries below the old count never change (dlopen appends).
	 */
	dl_iterate_phdr(scan_one, &n);
	uatomic_set(&nr_ranges, n);
}

static int from_lib(const void *caller)
{
	uintptr_t a = (uintptr_t) caller;
	int n = uatomic_read(&nr_ranges);

	for (int i = 0; i < n; i++)
		if (a >= ranges[i].lo && a < ranges[i].hi)
			return 1;
	return 0;
}

/* ---- per-thread fault state ------------------------------------------------ */

struct fi_thread {
	int alloc_nth;		/* 0: disarmed */
	int alloc_callers;	/* FI_LIB_ONLY or FI_ANY_CALLER */
	int alloc_calls;
	int thread_nth;
	int thread_count;
	int thread_err;
	int thread_calls;
	int injected;
};

static __thread struct fi_thread me __attribute__((tls_model("initial-exec")));

FI_EXPORT void fi_fail_alloc(int nth, int callers)
{
	me.alloc_nth = nth;
	me.alloc_callers = callers;
	me.alloc_calls = 0;
	me.injected = 0;
}

FI_EXPORT void fi_fail_thread(int nth, int count, int err)
{
	me.thread_nth = nth;
	me.thread_count = count;
	me.thread_err = err;
	me.thread_calls = 0;
	me.injected = 0;
}

FI_EXPORT void fi_disarm(void)
{
	me.alloc_nth = 0;
	me.thread_nth = 0;
}

FI_EXPORT int fi_alloc_calls(void)
{
	return me.alloc_calls;
}

FI_EXPORT int fi_thread_calls(void)
{
	return me.thread_calls;
}

FI_EXPORT int fi_injected(void)
{
	return me.injected;
}

static int alloc_fails(const void *caller)
{
	if (!me.alloc_nth)
		return 0;
	if (me.alloc_callers == FI_LIB_ONLY && !from_lib(caller))
		return 0;
	if (++me.alloc_calls != me.alloc_nth)
		return 0;
	me.injected++;
	return 1;
}

/* ---- live-block accounting --------------------------------------------- */

#define FI_TRACK_MAX	4096

static pthread_mutex_t track_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { void *p; size_t size; } track[FI_TRACK_MAX];
static long track_n, track_lost;
static int tracking;

static void track_add(void *p, size_t size, const void *caller)
{
	/* Relaxed: the test turns tracking on before the calls it watches. */
	if (!p || !uatomic_read(&tracking) || !from_lib(caller))
		return;
	pthread_mutex_lock(&track_lock);
	if (track_n < FI_TRACK_MAX) {
		track[track_n].p = p;
		track[track_n].size = size;
		track_n++;
	} else {
		track_lost++;
	}
	pthread_mutex_unlock(&track_lock);
}

static void track_del(void *p)
{
	if (!p || !uatomic_read(&tracking))
		return;
	pthread_mutex_lock(&track_lock);
	for (long i = 0; i < track_n; i++) {
		if (track[i].p == p) {
			track[i] = track[--track_n];
			break;
		}
	}
	pthread_mutex_unlock(&track_lock);
}

FI_EXPORT void fi_track_begin(void)
{
	pthread_mutex_lock(&track_lock);
	track_n = 0;
	track_lost = 0;
	uatomic_set(&tracking, 1);
	pthread_mutex_unlock(&track_lock);
}

FI_EXPORT long fi_track_live(void)
{
	long n;

	pthread_mutex_lock(&track_lock);
	n = track_n + track_lost;
	pthread_mutex_unlock(&track_lock);
	return n;
}

FI_EXPORT int fi_track_sizes(size_t *out, int n)
{
	int k = 0;

	pthread_mutex_lock(&track_lock);
	for (long i = 0; i < track_n && k < n; i++)
		out[k++] = track[i].size;
	pthread_mutex_unlock(&track_lock);
	return k;
}

/* ---- the interposed functions --------------------------------------------- */

FI_EXPORT void *malloc(size_t size)
{
	const void *caller = __builtin_return_address(0);
	void *p;

	if (alloc_fails(caller)) {
		errno = ENOMEM;
		return NULL;
	}
	p = __libc_malloc(size);
	track_add(p, size, caller);
	return p;
}

FI_EXPORT void *calloc(size_t nmemb, size_t size)
{
	const void *caller = __builtin_return_address(0);
	void *p;

	if (alloc_fails(caller)) {
		errno = ENOMEM;
		return NULL;
	}
	p = __libc_calloc(nmemb, size);
	track_add(p, nmemb * size, caller);
	return p;
}

FI_EXPORT void *realloc(void *old, size_t size)
{
	const void *caller = __builtin_return_address(0);
	void *p;

	if (alloc_fails(caller)) {
		errno = ENOMEM;
		return NULL;
	}
	p = __libc_realloc(old, size);
	if (p || !size)
		track_del(old);
	track_add(p, size, caller);
	return p;
}

static void *aligned(size_t alignment, size_t size, const void *caller)
{
	void *p;

	if (alloc_fails(caller)) {
		errno = ENOMEM;
		return NULL;
	}
	p = __libc_memalign(alignment, size);
	track_add(p, size, caller);
	return p;
}

FI_EXPORT int posix_memalign(void **out, size_t alignment, size_t size)
{
	void *p;

	if (!alignment || (alignment & (alignment - 1)) || alignment % sizeof(void *))
		return EINVAL;
	p = aligned(alignment, size, __builtin_return_address(0));
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

FI_EXPORT void *aligned_alloc(size_t alignment, size_t size)
{
	return aligned(alignment, size, __builtin_return_address(0));
}

FI_EXPORT void *memalign(size_t alignment, size_t size)
{
	return aligned(alignment, size, __builtin_return_address(0));
}

FI_EXPORT void free(void *p)
{
	track_del(p);
	__libc_free(p);
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

FI_EXPORT int pthread_create(pthread_t *tid, const pthread_attr_t *attr,
		void *(*fn)(void *), void *arg)
{
	static create_fn real;
	const void *caller = __builtin_return_address(0);
	create_fn next = uatomic_read(&real);

	if (me.thread_nth && from_lib(caller)) {
		int k = ++me.thread_calls - me.thread_nth;

		if (k >= 0 && (me.thread_count <= 0 || k < me.thread_count)) {
			me.injected++;
			return me.thread_err;
		}
	}
	if (!next) {
		/* Every thread that races here stores the same value. */
		next = (create_fn) dlsym(RTLD_NEXT, "pthread_create");
		if (!next) {
			fputs("fault-inject: pthread_create: no next definition\n", stderr);
			abort();
		}
		uatomic_set(&real, next);
	}
	return next(tid, attr, fn, arg);
}
