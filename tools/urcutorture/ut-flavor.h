/* SPDX-License-Identifier: MIT */
/*
 * The flavor interface: every call into the RCU library goes through a
 * struct ut_flavor_ops table (flavor-ops.c fills one per flavor), and the
 * flavor registry (flavor-registry.c) names every flavor --flavor accepts.
 */
#ifndef UT_FLAVOR_H
#define UT_FLAVOR_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <urcu/call-rcu.h>	/* struct rcu_head, struct call_rcu_data, flags */

/* ---- flavor operations ---- */

struct rcu_flavor_struct;

/* One call_rcu worker as seen by the library's observability extension. */
struct ut_lib_worker_stat {
	unsigned long long queued, invoked, grace_periods;
	unsigned long backlog, max_backlog;
	int cpu_affinity;
	unsigned long flags;
	pthread_t thread;
};

/*
 * The library's grace-period statistics (<urcu/gp-stats.h>, struct
 * urcu_gp_stats), copied field by field by flavor-ops.c.
 */
#define UT_GP_HIST	64
struct ut_gp_stats {
	uint64_t completed;		/* grace periods ended */
	uint64_t waiters;		/* threads in synchronize_rcu now */
	uint64_t wait_ns_total;		/* sum of the durations of those grace periods */
	uint64_t wait_ns_max;		/* the longest of them */
	uint64_t current_age_ns;	/* age of the grace period in flight, 0 if none */
	uint64_t holdouts;		/* readers the one in flight waits for now */
	uint64_t stalls_reported;	/* stall reports (not counting "ended" lines) */
	uint64_t misuse_events;		/* process-wide (urcu_misuse_events) */
	int nhist;			/* buckets the library has (URCU_GP_STATS_HIST) */
	uint64_t hist[UT_GP_HIST];	/* [2^i, 2^(i+1)) ns; the last, all longer */
};

struct ut_flavor_ops {
	const char *name;
	bool is_qsbr;		/* readers must report quiescent states */
	bool is_busted;		/* deliberately broken (detector self-test) */
	/*
	 * The library registers a thread implicitly: read_lock in a thread
	 * that is not registered registers it until it exits (or unregisters
	 * outside a section), and unregister_thread inside a section keeps it
	 * registered, the section protected; each is a misuse event that the
	 * library counts (gp_stats' misuse_events).  This project's library,
	 * memb, mb and signal only (docs/DESIGN.md, "Misuse"); liburcu runs
	 * such sections unprotected, qsbr never registers behind a thread's
	 * back, and bp registers on first use by design.
	 */
	bool implicit_register;

	void (*register_thread)(void);
	void (*unregister_thread)(void);
	void (*read_lock)(void);
	void (*read_unlock)(void);
	void (*quiescent_state)(void);
	void (*thread_offline)(void);
	void (*thread_online)(void);

	void (*synchronize_rcu)(void);
	void (*call_rcu)(struct rcu_head *head, void (*func)(struct rcu_head *head));
	void (*barrier)(void);

	void (*defer_rcu)(void (*fct)(void *p), void *p);
	int (*defer_register_thread)(void);
	void (*defer_unregister_thread)(void);

	struct call_rcu_data *(*create_call_rcu_data)(unsigned long flags, int cpu_affinity);
	void (*set_thread_call_rcu_data)(struct call_rcu_data *crdp);
	int (*create_all_cpu_call_rcu_data)(unsigned long flags);
	void (*free_all_cpu_call_rcu_data)(void);
	void (*call_rcu_data_free)(struct call_rcu_data *crdp);
	struct call_rcu_data *(*get_default_call_rcu_data)(void);
	struct call_rcu_data *(*get_cpu_call_rcu_data)(int cpu);
	struct call_rcu_data *(*get_call_rcu_data)(void);
	pthread_t (*get_call_rcu_thread)(struct call_rcu_data *crdp);

	/* Polled grace periods; NULL when the library lacks them. */
	unsigned long (*start_poll)(void);
	bool (*poll_state)(unsigned long cookie);

	/* Observability extension; NULL when the library lacks it. */
	int (*call_rcu_stats)(struct ut_lib_worker_stat *out, int max);

	/*
	 * Grace-period statistics and stall reports (<urcu/gp-stats.h>, this
	 * project's library only): urcu_<flavor>_gp_stats,
	 * urcu_<flavor>_set_stall_timeout and urcu_set_stall_handler.  NULL
	 * when the library lacks them, and in flavors whose synchronize_rcu is
	 * not the library's (busted, busted-hang, busted-freeze, busted-early).
	 * lib_flavor: the flavor's name in the library's reports ("memb" of
	 * "urcu_memb"), also for the flavors built on another one.
	 */
	int (*gp_stats)(struct ut_gp_stats *out);
	/*
	 * Grace periods begun with a reader registered, as the library's global
	 * word counts them (the sequence field of urcu_<flavor>_i_gp.ctr, which
	 * each such grace period flips once: urcu/static/urcu-gp.h); only its
	 * growth means anything.  This library on 64-bit targets only (the
	 * sequence has 46 bits there; on 32-bit it has 14 and each grace period
	 * flips twice): NULL elsewhere, and wherever gp_stats is NULL.
	 */
	uint64_t (*gp_flipped)(void);
	int (*set_stall_timeout)(double seconds);
	void (*set_stall_handler)(void (*fn)(const char *report, void *arg), void *arg);
	const char *lib_flavor;

	/*
	 * read-cost inner loop, compiled in the flavor's unit so the read-side
	 * primitives are inlined: n times {read_lock; rcu_dereference(*pp);
	 * read_unlock}, then one quiescent state for qsbr.  Returns a value
	 * derived from the loads so they cannot be optimised away.
	 */
	unsigned long (*read_batch)(unsigned long n, void **pp);

	/* The flavor object the cds structures take (cds_lfht_new_flavor; its
	 * update_call_rcu for rculfqueue).  busted keeps its base flavor's real
	 * one, so only the mode's own reclamation is broken, not the table's. */
	const struct rcu_flavor_struct *rcu_flavor;
};

/* Flavors compiled into this binary, NULL-terminated; busted is separate. */
extern const struct ut_flavor_ops *const ut_flavors[];

/* The flavor registry (flavor-registry.c): every name --flavor accepts. */
enum ut_flavor_kind { UT_KIND_REAL, UT_KIND_BUSTED, UT_KIND_SEEDED };

/*
 * What a busted flavor changes in its base's table: ops is a copy of base,
 * already renamed; false when that base cannot carry the bug (the flavor is
 * then not built in).
 */
typedef bool ut_flavor_patch(struct ut_flavor_ops *ops, const struct ut_flavor_ops *base);

struct ut_flavor_entry {
	const char *name;
	enum ut_flavor_kind kind;
	/* seeded: the flavor whose engine its module is built from; NULL:
	 * real, or busted (whose base is ut_flavor_base()). */
	const char *base;
	/* busted: its patch (flavor-busted.c); NULL for the other kinds. */
	ut_flavor_patch *patch;
	/* --help (wrapped there) and --list-flavors: one line. */
	const char *help;
};
extern const struct ut_flavor_entry ut_flavor_registry[];	/* name NULL ends it */
const struct ut_flavor_entry *ut_flavor_entry_find(const char *name);
const char *ut_flavor_kind_name(enum ut_flavor_kind kind);
/*
 * The table of a registered flavor, NULL when not built in: a real one's,
 * or a test-only one derived from its base on first use (option parsing,
 * main thread only).
 */
const struct ut_flavor_ops *ut_flavor_entry_ops(const struct ut_flavor_entry *e);
/* The same by name, NULL also when unknown. */
const struct ut_flavor_ops *ut_flavor_find(const char *name);
/* The base of the busted flavors, NULL when none of its candidates is built. */
const struct ut_flavor_ops *ut_flavor_base(void);
/* A seeded flavor's base: its module's table (flavor-seeded.c); exits 3 when
 * the module cannot be loaded or is built from another engine. */
const struct ut_flavor_ops *ut_seeded_base(const struct ut_flavor_entry *e);

#endif /* UT_FLAVOR_H */
