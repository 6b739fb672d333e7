// SPDX-License-Identifier: MIT
/*
 * Shared by the tests of urcu/rculfhash.h (suite 'hash').
 *
 * The same sources build two ways:
 *   - in our tree, by tests/hash/meson.build, once per flavor
 *     (-DTEST_FLAVOR_<NAME>, see tests/common/flavor-select.h);
 *   - by hand against another liburcu, to check that the tests themselves
 *     are right: -DTEST_LIBURCU_REF=1302 for liburcu 0.13.2 (Debian's), see
 *     tests/hash/run-against-liburcu.sh.  Everything liburcu 0.13 lacks is
 *     then left out (reported as a TAP skip), through the HT_HAVE_* and
 *     HT_OURS switches below.
 *
 * A test node carries a magic word: T_LIVE while it may be reachable, poisoned
 * (T_POISON) by the reclaim callback right before free().  A reader that
 * finds anything but T_LIVE in a node it reached through the table has
 * caught a use after free (a node reclaimed before a grace period ended).
 */
#ifndef TESTS_HASH_HASH_TEST_H
#define TESTS_HASH_HASH_TEST_H

#include "flavor-select.h"
#include "test-util.h"

#include <urcu/rculfhash.h>

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

/*
 * HT_ASAN: a sanitizer's allocator replaces malloc (ASan, and TSan too: its
 * heap is invisible to mallinfo2), so the heap size comes from it.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
# define HT_ASAN	1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#  define HT_ASAN	1
# endif
#endif
#ifndef HT_ASAN
# define HT_ASAN	0
#endif
#if HT_ASAN
# if defined(__has_include)
#  if __has_include(<sanitizer/allocator_interface.h>)
#   include <sanitizer/allocator_interface.h>
#   define HT_HAVE_SANITIZER_HEADER 1
#  endif
# endif
# ifndef HT_HAVE_SANITIZER_HEADER
/* The sanitizer runtime's public interface, when its header is not installed. */
#  ifdef __cplusplus
extern "C"
#  endif
size_t __sanitizer_get_current_allocated_bytes(void);
# endif
#endif

/*
 * What the library under test offers.  TEST_LIBURCU_REF is the version of a
 * reference liburcu as MAJOR*10000 + MINOR*100 + PATCH without the leading
 * zero major (1302 = 0.13.2); unset means our tree.
 *   HT_HAVE_INIT_DELETED  cds_lfht_node_init_deleted (0.14)
 *   HT_HAVE_ALLOC         struct cds_lfht_alloc, cds_lfht_new_with_flavor_alloc,
 *                         _cds_lfht_new_with_alloc; const iter_get_node (0.15)
 *   HT_HAVE_ENTRY         NULL-safe cds_lfht_entry, for_each_entry ends with
 *                         pos == NULL (0.15)
 *   HT_ASYNC_DESTROY      destroy of an AUTO_RESIZE table never waits for a
 *                         resize, also inside a read-side section (0.14)
 *   HT_OURS               the improvements of ../shared/CDS.md section 3 that
 *                         no liburcu release has (OOM returns NULL, a
 *                         non-power-of-two resize rounds, small tables stay
 *                         small, misuse messages)
 * Against a reference, -DTEST_REF_IMPROVEMENTS turns the HT_OURS checks on
 * anyway: they are expected to fail there, which shows they can fail.
 */
#ifdef TEST_LIBURCU_REF
# define HT_HAVE_INIT_DELETED	(TEST_LIBURCU_REF >= 1400)
# define HT_HAVE_ALLOC		(TEST_LIBURCU_REF >= 1500)
# define HT_HAVE_ENTRY		(TEST_LIBURCU_REF >= 1500)
# define HT_ASYNC_DESTROY	(TEST_LIBURCU_REF >= 1400)
# ifdef TEST_REF_IMPROVEMENTS
#  define HT_OURS		1
# else
#  define HT_OURS		0
# endif
#else
# define HT_HAVE_INIT_DELETED	1
# define HT_HAVE_ALLOC		1
# define HT_HAVE_ENTRY		1
# define HT_ASYNC_DESTROY	1
# define HT_OURS		1
#endif

#define HT_FLAVOR	(&T_FN(flavor))

/* ------------------------------------------------------------------ nodes */

struct tnode {
	struct cds_lfht_node node;	/* first: cds_lfht_entry tests use another layout */
	unsigned long key;
	unsigned long hash;		/* what the node was inserted with */
	unsigned long magic;		/* T_LIVE / T_POISON */
	unsigned long owner;		/* free for the tests (e.g. which writer) */
	struct rcu_head rcu;
};

static inline struct tnode *to_tnode(struct cds_lfht_node *n)
{
	return caa_container_of(n, struct tnode, node);
}

/* splitmix64's finalizer: every key bit reaches every hash bit. */
static inline unsigned long t_hash(unsigned long key)
{
	unsigned long long z = (unsigned long long) key + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned long) (z ^ (z >> 31));
}

static inline int t_match(struct cds_lfht_node *node, const void *key)
{
	return to_tnode(node)->key == *(const unsigned long *) key;
}

static inline struct tnode *tnode_new_hash(unsigned long key, unsigned long hash)
{
	struct tnode *t = (struct tnode *) calloc(1, sizeof(*t));

	if (!t)
		tap_bail("out of memory");
	cds_lfht_node_init(&t->node);
	t->key = key;
	t->hash = hash;
	t->magic = T_LIVE;
	return t;
}

static inline struct tnode *tnode_new(unsigned long key)
{
	return tnode_new_hash(key, t_hash(key));
}

static inline int tnode_live(const struct tnode *t)
{
	return __atomic_load_n(&t->magic, __ATOMIC_RELAXED) == T_LIVE;
}

/* Poison, then free: a later reader sees a non-live magic (or ASan fires). */
static inline void tnode_kill(struct tnode *t)
{
	__atomic_store_n(&t->magic, (unsigned long) T_POISON, __ATOMIC_RELAXED);
	free(t);
}

static void tnode_reclaim_cb(struct rcu_head *head)
{
	tnode_kill(caa_container_of(head, struct tnode, rcu));
}

/* Reclaim a node that del/replace/add_replace took out: after a grace period. */
static inline void tnode_reclaim(struct tnode *t)
{
	T_FN(call_rcu)(&t->rcu, tnode_reclaim_cb);
}

/* ------------------------------------------------------- read-side helpers */

static inline void t_lock(void)
{
	T_FN(read_lock)();
}

static inline void t_unlock(void)
{
	T_FN(read_unlock)();
}

/*
 * Table operations done by the main thread: one read-side section each,
 * ended as every flavor understands it (qsbr: with a quiescent state).
 */
static inline struct tnode *t_lookup(struct cds_lfht *ht, unsigned long key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;

	t_lock();
	cds_lfht_lookup(ht, t_hash(key), t_match, &key, &iter);
	n = cds_lfht_iter_get_node(&iter);
	t_reader_exit();
	return n ? to_tnode(n) : NULL;
}

static inline void t_add(struct cds_lfht *ht, struct tnode *t)
{
	t_lock();
	cds_lfht_add(ht, t->hash, &t->node);
	t_reader_exit();
}

static inline int t_del(struct cds_lfht *ht, struct tnode *t)
{
	int ret;

	t_lock();
	ret = cds_lfht_del(ht, t ? &t->node : NULL);
	t_reader_exit();
	return ret;
}

/* Nodes reachable by a traversal, and the table's split counters. */
static inline unsigned long t_count(struct cds_lfht *ht, long *before, long *after)
{
	long b, a;
	unsigned long count;

	t_lock();
	cds_lfht_count_nodes(ht, &b, &count, &a);
	t_reader_exit();
	if (before)
		*before = b;
	if (after)
		*after = a;
	return count;
}

/*
 * cds_lfht_resize from a thread that is registered but neither inside a
 * read-side section nor (qsbr) online: resize waits for grace periods.
 */
static inline void t_resize(struct cds_lfht *ht, unsigned long size)
{
	T_FN(thread_offline)();
	cds_lfht_resize(ht, size);
	T_FN(thread_online)();
}

/*
 * cds_lfht_destroy from a registered thread outside any read-side section.
 * liburcu before 0.14 waits in destroy for the resize worker, which may wait
 * for a grace period: a qsbr thread must be offline there (0.13's documented
 * rule; online, it deadlocks).  From 0.14 on, and in ours, destroy of an
 * AUTO_RESIZE table waits for nothing, so it is called online, as the
 * contract allows.
 */
static inline int t_destroy(struct cds_lfht *ht, pthread_attr_t **attr)
{
	int ret;

#if !HT_ASYNC_DESTROY
	T_FN(thread_offline)();
#endif
	ret = cds_lfht_destroy(ht, attr);
#if !HT_ASYNC_DESTROY
	T_FN(thread_online)();
#endif
	return ret;
}

/*
 * The library's split counter slots: the configured CPUs rounded up to a
 * power of two, at most 64 (rculfhash-table.c, split_slots()).
 */
static inline unsigned long t_split_slots(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	unsigned long n = 1;

	if (cpus < 1)
		cpus = 16;
	if (cpus > 64)
		cpus = 64;
	while (n < (unsigned long) cpus)
		n <<= 1;
	return n;
}

/* A sleep that holds up no grace period (qsbr goes offline around it). */
static inline void t_quiet_sleep_ms(long ms)
{
	T_FN(thread_offline)();
	t_sleep_ms(ms);
	T_FN(thread_online)();
}

/* rcu_barrier from a thread that holds up no grace period while it waits. */
static inline void t_barrier(void)
{
	T_FN(thread_offline)();
	T_FN(barrier)();
	T_FN(thread_online)();
}

/* Delete and reclaim every node; returns how many there were. */
static inline unsigned long t_empty_table(struct cds_lfht *ht)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;
	unsigned long removed = 0;

	t_lock();
	cds_lfht_for_each(ht, &iter, n) {
		if (cds_lfht_del(ht, n) == 0) {
			tnode_reclaim(to_tnode(n));
			removed++;
		}
	}
	t_reader_exit();
	return removed;
}

/* ---------------------------------------------------------------- watchdog */

static const char *t_watchdog_what = "?";

static void t_watchdog_fire(int sig)
{
	static const char pre[] = "Bail out! watchdog: hung in ";
	ssize_t r;

	(void) sig;
	r = write(STDOUT_FILENO, pre, sizeof(pre) - 1);
	r = write(STDOUT_FILENO, t_watchdog_what, strlen(t_watchdog_what));
	r = write(STDOUT_FILENO, "\n", 1);
	(void) r;
	_exit(1);
}

/*
 * A hang in the code under test (a deadlocked destroy, a resize that never
 * ends) becomes a named failure instead of a silent test timeout.
 * t_watchdog(0, NULL) disarms.
 */
static inline void t_watchdog(unsigned int seconds, const char *what)
{
	signal(SIGALRM, t_watchdog_fire);
	t_watchdog_what = what ? what : "?";
	alarm(seconds);
}

/* ------------------------------------------------------------ memory meter */

/*
 * Bytes the process holds from malloc right now.  A table's bucket memory
 * is the difference across an operation, while the test's own nodes stay
 * allocated (liburcu allocates the order and chunk backends with calloc).
 */
static inline long t_heap_bytes(void)
{
#if HT_ASAN
	return (long) __sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 mi = mallinfo2();

	return (long) (mi.uordblks + mi.hblkhd);
#endif
}

#if HT_HAVE_ALLOC
/*
 * A counting allocator (struct cds_lfht_alloc) that forwards to libc: live
 * bytes, number of calls per kind, and a switch that makes every allocation
 * fail from the n-th on (fail_after < 0: never).
 */
struct t_meter {
	long live_bytes;
	long live_blocks;
	long calls_malloc, calls_calloc, calls_realloc, calls_aligned, calls_free;
	long failed;
	long fail_after;	/* allocations still allowed; < 0: unlimited */
};

static inline int t_meter_may_alloc(struct t_meter *m)
{
	long left = __atomic_load_n(&m->fail_after, __ATOMIC_RELAXED);

	if (left < 0)
		return 1;
	if (left == 0) {
		__atomic_add_fetch(&m->failed, 1, __ATOMIC_RELAXED);
		return 0;
	}
	__atomic_sub_fetch(&m->fail_after, 1, __ATOMIC_RELAXED);
	return 1;
}

static inline void t_meter_got(struct t_meter *m, void *p)
{
	if (!p)
		return;
	__atomic_add_fetch(&m->live_bytes, (long) malloc_usable_size(p), __ATOMIC_RELAXED);
	__atomic_add_fetch(&m->live_blocks, 1, __ATOMIC_RELAXED);
}

static inline void t_meter_drop(struct t_meter *m, void *p)
{
	if (!p)
		return;
	__atomic_sub_fetch(&m->live_bytes, (long) malloc_usable_size(p), __ATOMIC_RELAXED);
	__atomic_sub_fetch(&m->live_blocks, 1, __ATOMIC_RELAXED);
}

static void *t_meter_malloc(void *state, size_t size)
{
	struct t_meter *m = (struct t_meter *) state;
	void *p;

	__atomic_add_fetch(&m->calls_malloc, 1, __ATOMIC_RELAXED);
	if (!t_meter_may_alloc(m))
		return NULL;
	p = malloc(size);
	t_meter_got(m, p);
	return p;
}

static void *t_meter_calloc(void *state, size_t nmemb, size_t size)
{
	struct t_meter *m = (struct t_meter *) state;
	void *p;

	__atomic_add_fetch(&m->calls_calloc, 1, __ATOMIC_RELAXED);
	if (!t_meter_may_alloc(m))
		return NULL;
	p = calloc(nmemb, size);
	t_meter_got(m, p);
	return p;
}

static void *t_meter_realloc(void *state, void *ptr, size_t size)
{
	struct t_meter *m = (struct t_meter *) state;
	long old = ptr ? (long) malloc_usable_size(ptr) : 0;
	void *p;

	__atomic_add_fetch(&m->calls_realloc, 1, __ATOMIC_RELAXED);
	if (!t_meter_may_alloc(m))
		return NULL;
	p = realloc(ptr, size);
	if (!p)
		return NULL;
	if (ptr) {
		__atomic_sub_fetch(&m->live_bytes, old, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&m->live_blocks, 1, __ATOMIC_RELAXED);
	}
	t_meter_got(m, p);
	return p;
}

static void *t_meter_aligned(void *state, size_t alignment, size_t size)
{
	struct t_meter *m = (struct t_meter *) state;
	void *p;

	__atomic_add_fetch(&m->calls_aligned, 1, __ATOMIC_RELAXED);
	if (!t_meter_may_alloc(m))
		return NULL;
	/* aligned_alloc wants a multiple of the alignment */
	p = aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
	t_meter_got(m, p);
	return p;
}

static void t_meter_free(void *state, void *ptr)
{
	struct t_meter *m = (struct t_meter *) state;

	__atomic_add_fetch(&m->calls_free, 1, __ATOMIC_RELAXED);
	t_meter_drop(m, ptr);
	free(ptr);
}

static inline struct cds_lfht_alloc t_meter_alloc(struct t_meter *m)
{
	struct cds_lfht_alloc a;

	memset(m, 0, sizeof(*m));
	m->fail_after = -1;
	a.malloc = t_meter_malloc;
	a.calloc = t_meter_calloc;
	a.realloc = t_meter_realloc;
	a.aligned_alloc = t_meter_aligned;
	a.free = t_meter_free;
	a.state = m;
	return a;
}

static inline long t_meter_allocs(const struct t_meter *m)
{
	return __atomic_load_n(&m->calls_malloc, __ATOMIC_RELAXED)
		+ __atomic_load_n(&m->calls_calloc, __ATOMIC_RELAXED)
		+ __atomic_load_n(&m->calls_realloc, __ATOMIC_RELAXED)
		+ __atomic_load_n(&m->calls_aligned, __ATOMIC_RELAXED);
}
#endif /* HT_HAVE_ALLOC */

/* ---------------------------------------------------------------- misc */

/* xorshift64*: each thread its own state. */
static inline unsigned long t_rand(unsigned long long *s)
{
	unsigned long long x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return (unsigned long) ((x * 0x2545f4914f6cdd1dULL) >> 11);
}

/* Value of "--name=N" in argv, or def. */
static inline long t_arg(int argc, char **argv, const char *name, long def)
{
	size_t len = strlen(name);
	int i;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, len)
				&& argv[i][2 + len] == '=')
			return strtol(argv[i] + 3 + len, NULL, 0);
	}
	return def;
}

#endif /* TESTS_HASH_HASH_TEST_H */
