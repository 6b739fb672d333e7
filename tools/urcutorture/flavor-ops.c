/* SPDX-License-Identifier: MIT */
/*
 * One flavor's operations table.  This file is compiled once per flavor with
 * -DUT_FLAVOR_MEMB, _MB, _SIGNAL, _QSBR or _BP: it includes that flavor's
 * umbrella header (so the generic names rcu_read_lock, call_rcu, ... mean
 * that flavor) and exports ut_flavor_<name>.  Keeping one flavor per
 * translation unit sidesteps the single-flavor limitation of liburcu's
 * call_rcu/defer prototypes.
 *
 * The read side is inlined (_LGPL_SOURCE) in read_batch() so read-cost measures
 * the primitives rather than an indirect call.
 */
#define _LGPL_SOURCE
#define _GNU_SOURCE

#if defined(UT_FLAVOR_MEMB)
# include <urcu.h>
# define UT_NAME	memb
# define UT_PFX(x)	urcu_memb_##x
#elif defined(UT_FLAVOR_MB)
# define RCU_MB
# include <urcu.h>
# define UT_NAME	mb
# define UT_PFX(x)	urcu_mb_##x
#elif defined(UT_FLAVOR_SIGNAL)
# define RCU_SIGNAL
# include <urcu.h>
# define UT_NAME	signal
# define UT_PFX(x)	urcu_signal_##x
#elif defined(UT_FLAVOR_QSBR)
# include <urcu-qsbr.h>
# define UT_NAME	qsbr
# define UT_PFX(x)	urcu_qsbr_##x
# define UT_IS_QSBR	1
#elif defined(UT_FLAVOR_BP)
# include <urcu-bp.h>
# define UT_NAME	bp
# define UT_PFX(x)	urcu_bp_##x
#else
# error "compile with -DUT_FLAVOR_<MEMB|MB|SIGNAL|QSBR|BP>"
#endif

#ifndef UT_IS_QSBR
# define UT_IS_QSBR	0
#endif

/* Polled grace periods: our library and liburcu >= 0.14, not 0.13. */
#if defined(UT_HAVE_POLL) || (defined(__has_include) && __has_include(<urcu/urcu-poll.h>))
# include <urcu/urcu-poll.h>
# define UT_POLL	1
#else
# define UT_POLL	0
#endif

/* call_rcu observability extension of this project's library only. */
#if defined(__has_include) && __has_include(<urcu/call-rcu-stats.h>)
# include <urcu/call-rcu-stats.h>
#endif

/* Grace-period statistics and stall reports: this project's library only. */
#if defined(__has_include) && __has_include(<urcu/gp-stats.h>)
# include <urcu/gp-stats.h>
#endif

#include "ut.h"

/* Implicit registration (ut_flavor_ops.implicit_register): ours, not qsbr or bp. */
#if defined(URCU_GP_STATS) && !UT_IS_QSBR && !defined(UT_FLAVOR_BP)
# define UT_IMPLICIT	1
#else
# define UT_IMPLICIT	0
#endif

#define UT_CAT2(a, b)	a##b
#define UT_CAT(a, b)	UT_CAT2(a, b)
#define UT_STR2(a)	#a
#define UT_STR(a)	UT_STR2(a)
#define UT_SYM(x)	UT_CAT(UT_CAT(x, _), UT_NAME)

/*
 * Wrappers: some generic names are macros or static inline functions (their
 * addresses are fine, but wrapping keeps the table uniform and the signature
 * checked by the compiler).
 */
static void w_register(void) { rcu_register_thread(); }
static void w_unregister(void) { rcu_unregister_thread(); }
static void w_read_lock(void) { rcu_read_lock(); }
static void w_read_unlock(void) { rcu_read_unlock(); }
static void w_qs(void) { rcu_quiescent_state(); }
static void w_offline(void) { rcu_thread_offline(); }
static void w_online(void) { rcu_thread_online(); }
static void w_sync(void) { synchronize_rcu(); }
static void w_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	call_rcu(head, func);
}
static void w_barrier(void) { rcu_barrier(); }
static void w_defer(void (*fct)(void *p), void *p) { defer_rcu(fct, p); }
static int w_defer_register(void) { return rcu_defer_register_thread(); }
static void w_defer_unregister(void) { rcu_defer_unregister_thread(); }
static struct call_rcu_data *w_create_crdp(unsigned long flags, int cpu)
{
	return create_call_rcu_data(flags, cpu);
}
static void w_set_thread_crdp(struct call_rcu_data *crdp) { set_thread_call_rcu_data(crdp); }
static int w_create_all_cpu(unsigned long flags) { return create_all_cpu_call_rcu_data(flags); }
static void w_free_all_cpu(void) { free_all_cpu_call_rcu_data(); }
static void w_crdp_free(struct call_rcu_data *crdp) { call_rcu_data_free(crdp); }
static struct call_rcu_data *w_get_default(void) { return get_default_call_rcu_data(); }
static struct call_rcu_data *w_get_cpu(int cpu) { return get_cpu_call_rcu_data(cpu); }
static struct call_rcu_data *w_get_crdp(void) { return get_call_rcu_data(); }
static pthread_t w_get_thread(struct call_rcu_data *crdp) { return get_call_rcu_thread(crdp); }

#if UT_POLL
static unsigned long w_start_poll(void)
{
	struct urcu_gp_poll_state s = UT_PFX(start_poll_synchronize_rcu)();

	return s.grace_period_id;
}

static bool w_poll_state(unsigned long cookie)
{
	struct urcu_gp_poll_state s = { .grace_period_id = cookie };

	return UT_PFX(poll_state_synchronize_rcu)(s);
}
#endif

#ifdef URCU_CALL_RCU_STATS
static int w_stats(struct ut_lib_worker_stat *out, int max)
{
	struct urcu_call_rcu_stats buf[UT_MAX_WORKERS];
	int n, i;

	if (max > UT_MAX_WORKERS)
		max = UT_MAX_WORKERS;
	n = UT_PFX(call_rcu_stats)(buf, max);
	for (i = 0; i < n && i < max; i++) {
		out[i].queued = buf[i].queued;
		out[i].invoked = buf[i].invoked;
		out[i].grace_periods = buf[i].grace_periods;
		out[i].backlog = buf[i].backlog;
		out[i].max_backlog = buf[i].max_backlog;
		out[i].cpu_affinity = buf[i].cpu_affinity;
		out[i].flags = buf[i].flags;
		out[i].thread = buf[i].thread;
	}
	return n;
}
#endif

#ifdef URCU_GP_STATS
static int w_gp_stats(struct ut_gp_stats *out)
{
	struct urcu_gp_stats s;
	int i;

	if (UT_PFX(gp_stats)(&s))
		return -1;
	out->completed = s.completed;
	out->waiters = s.waiters;
	out->wait_ns_total = s.wait_ns_total;
	out->wait_ns_max = s.wait_ns_max;
	out->current_age_ns = s.current_age_ns;
	out->holdouts = s.holdouts;
	out->stalls_reported = s.stalls_reported;
	out->misuse_events = s.misuse_events;
	out->nhist = URCU_GP_STATS_HIST < UT_GP_HIST ? URCU_GP_STATS_HIST : UT_GP_HIST;
	for (i = 0; i < UT_GP_HIST; i++)
		out->hist[i] = i < out->nhist ? s.hist[i] : 0;
	return 0;
}

#if CAA_BITS_PER_LONG == 64
/*
 * The sequence field of the global word: one step per grace period that
 * found a reader registered (urcu-gp.c's flip).  A plain load of a word the
 * leader stores plainly; libstats.c orders it against its reads of the
 * statistics itself.
 */
static uint64_t w_gp_flipped(void)
{
	return CMM_LOAD_SHARED(UT_PFX(i_gp).ctr) >> URCU_GP_SEQ_SHIFT;
}
#endif

static int w_set_stall_timeout(double seconds)
{
	return UT_PFX(set_stall_timeout)(seconds);
}

static void w_set_stall_handler(void (*fn)(const char *report, void *arg), void *arg)
{
	urcu_set_stall_handler(fn, arg);
}
#endif

static unsigned long w_read_batch(unsigned long n, void **pp)
{
	unsigned long acc = 0;

	while (n--) {
		rcu_read_lock();
		acc += (unsigned long)rcu_dereference(*pp);
		rcu_read_unlock();
	}
	rcu_quiescent_state();
	return acc;
}

const struct ut_flavor_ops UT_SYM(ut_flavor) = {
	.name = UT_STR(UT_NAME),
	.is_qsbr = UT_IS_QSBR,
	.is_busted = false,
	.implicit_register = UT_IMPLICIT,
	.register_thread = w_register,
	.unregister_thread = w_unregister,
	.read_lock = w_read_lock,
	.read_unlock = w_read_unlock,
	.quiescent_state = w_qs,
	.thread_offline = w_offline,
	.thread_online = w_online,
	.synchronize_rcu = w_sync,
	.call_rcu = w_call_rcu,
	.barrier = w_barrier,
	.defer_rcu = w_defer,
	.defer_register_thread = w_defer_register,
	.defer_unregister_thread = w_defer_unregister,
	.create_call_rcu_data = w_create_crdp,
	.set_thread_call_rcu_data = w_set_thread_crdp,
	.create_all_cpu_call_rcu_data = w_create_all_cpu,
	.free_all_cpu_call_rcu_data = w_free_all_cpu,
	.call_rcu_data_free = w_crdp_free,
	.get_default_call_rcu_data = w_get_default,
	.get_cpu_call_rcu_data = w_get_cpu,
	.get_call_rcu_data = w_get_crdp,
	.get_call_rcu_thread = w_get_thread,
#if UT_POLL
	.start_poll = w_start_poll,
	.poll_state = w_poll_state,
#endif
#ifdef URCU_CALL_RCU_STATS
	.call_rcu_stats = w_stats,
#endif
#ifdef URCU_GP_STATS
	.gp_stats = w_gp_stats,
#if CAA_BITS_PER_LONG == 64
	.gp_flipped = w_gp_flipped,
#endif
	.set_stall_timeout = w_set_stall_timeout,
	.set_stall_handler = w_set_stall_handler,
#endif
	.lib_flavor = UT_STR(UT_NAME),
	.read_batch = w_read_batch,
	.rcu_flavor = &rcu_flavor,
};
