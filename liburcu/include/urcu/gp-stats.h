// SPDX-License-Identifier: MIT
/*
 * <urcu/gp-stats.h>: what a flavor's grace periods are doing, and stall
 * warnings: when a grace period has waited longer than the stall timeout,
 * the library reports every reader it still waits for (kernel thread id,
 * thread name, what the reader is doing, for how long), then repeats with
 * back-off while the stall lasts, and says when it ends.  An extension of
 * these libraries (liburcu has none of it); see urcu_gp_stats(3) and
 * urcu_set_stall_handler(3).
 */
#ifndef URCU_GP_STATS_H
#define URCU_GP_STATS_H

#include <urcu/compiler.h>

#define URCU_GP_STATS		1

/* Buckets of the duration histogram: bucket i counts [2^i, 2^(i+1)) ns. */
#define URCU_GP_STATS_HIST	40

#ifdef __cplusplus
extern "C" {
#endif

struct urcu_gp_stats {
	/*
	 * Grace periods ended; a synchronize_rcu() that found no registered
	 * thread needs none and counts as one of 0 ns (in hist[0]).
	 */
	unsigned long long completed;
	unsigned long long waiters;	/* threads waiting in synchronize_rcu now */
	unsigned long long wait_ns_total; /* sum of the durations of those grace periods */
	unsigned long long wait_ns_max;	/* the longest of them */
	unsigned long long current_age_ns; /* age of the grace period in flight, 0 if none */
	unsigned long long holdouts;	/* readers the one in flight waits for now */
	unsigned long long stalls_reported; /* stall reports (not counting "ended" lines) */
	unsigned long long misuse_events; /* process-wide, as urcu_misuse_events() */
	/* Grace-period durations: hist[i] counts [2^i, 2^(i+1)) ns; the last, all longer. */
	unsigned long long hist[URCU_GP_STATS_HIST];
};

/*
 * A process-wide receiver of stall reports (and of their "stall ended"
 * lines), in place of the default, which writes them to standard error.
 * The report is one or more lines, each ending in a newline; fn runs on the
 * thread that leads the stalled grace period, which holds no lock a reader,
 * a registration or call_rcu() needs, but leads that flavor's grace
 * periods: fn must not wait for one of them.  NULL restores the default.
 * Exported by liburcu-common.
 */
URCU_API void urcu_set_stall_handler(void (*fn)(const char *report, void *arg), void *arg);

/*
 * Per flavor:
 *
 * urcu_<flavor>_gp_stats(out): fills *out; 0, or -1 with errno EINVAL when out
 * is NULL.  Callable from any thread, registered or not, any time.  The
 * fields are read one by one with relaxed loads: each is a value it had
 * while the call ran, not a snapshot of all of them at one instant.
 *
 * urcu_<flavor>_set_stall_timeout(seconds): a grace period that has waited
 * this long reports a stall (default 21 s, or URCU_STALL_TIMEOUT from the
 * environment, read at the first grace period with a registered thread);
 * 0 turns reports off.
 * Returns 0, or -1 with errno EINVAL for a negative or non-finite value.
 * Takes effect from the next sleep of the grace period in flight.
 */
#define URCU_I_DECLARE_GP_STATS(flavor)						\
	URCU_API int urcu_##flavor##_gp_stats(struct urcu_gp_stats *out);	\
	URCU_API int urcu_##flavor##_set_stall_timeout(double seconds);

URCU_I_DECLARE_GP_STATS(memb)
URCU_I_DECLARE_GP_STATS(mb)
URCU_I_DECLARE_GP_STATS(qsbr)
URCU_I_DECLARE_GP_STATS(bp)
URCU_I_DECLARE_GP_STATS(signal)

#undef URCU_I_DECLARE_GP_STATS

#ifdef __cplusplus
}
#endif

#endif /* URCU_GP_STATS_H */
