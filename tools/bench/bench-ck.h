// SPDX-License-Identifier: MIT
/*
 * The Concurrency Kit peer (-DBENCH_PEER_CK, built by run-side-by-side.py
 * against Debian's libck, never against any RCU library): the subset of
 * the liburcu API that bench-read.c, bench-sync.c, bench-reader.c and
 * bench-callback.c use, mapped onto ck_epoch, so that the same source
 * measures epoch reclamation the way a C programmer would use it.
 *
 *	rcu_register_thread()	a ck_epoch_record_t per thread (recycled
 *				or malloc'ed: ck never lets one be freed)
 *	rcu_read_lock/unlock()	ck_epoch_begin/end(this thread's record,
 *				no section object)
 *	synchronize_rcu()	ck_epoch_synchronize(this thread's record,
 *				registered on first use)
 *	call_rcu(head, fn)	ck_epoch_call(this thread's record)
 *	bench_defer_poll()	ck_epoch_poll(this thread's record): the only
 *				place the callbacks run besides the barrier
 *	rcu_barrier(),		ck_epoch_barrier(this thread's record): it
 *	bench_defer_flush()	runs THIS thread's callbacks only
 *
 * The metrics print with the flavor name "ck"; run-side-by-side.py sets
 * each beside our row with the same method (CK_ROWS there).
 */
#ifndef BENCH_CK_H
#define BENCH_CK_H

#include <ck_epoch.h>
#include <ck_pr.h>
#include <stddef.h>

#define BENCH_FLAVOR "ck"

extern ck_epoch_t bench_ck_epoch;
extern __thread ck_epoch_record_t *bench_ck_rec;

/* This thread's record, registering one on first use. */
ck_epoch_record_t *bench_ck_self(void);

#define rcu_register_thread()		((void) bench_ck_self())
void rcu_unregister_thread(void);

#define rcu_read_lock()		ck_epoch_begin(bench_ck_rec, NULL)
#define rcu_read_unlock()	((void) ck_epoch_end(bench_ck_rec, NULL))
#define rcu_dereference(p)	ck_pr_load_ptr(&(p))
#define rcu_assign_pointer(p, v) do { ck_pr_fence_store(); ck_pr_store_ptr(&(p), (v)); } while (0)
#define synchronize_rcu()	ck_epoch_synchronize(bench_ck_self())

/* A callback's head is ck's entry, so callbacks keep their liburcu signature. */
#define rcu_head ck_epoch_entry
#define call_rcu(head, fn)	ck_epoch_call(bench_ck_self(), (head), (fn))
#define rcu_barrier()		ck_epoch_barrier(bench_ck_self())
#define bench_defer_poll()	((void) ck_epoch_poll(bench_ck_self()))
#define bench_defer_flush()	ck_epoch_barrier(bench_ck_self())

/* The few liburcu helpers the benchmarks use, from the compiler. */
#define caa_container_of(ptr, type, member) \
	((type *) (void *) ((char *) (ptr) - offsetof(type, member)))
#define CMM_LOAD_SHARED(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define CMM_STORE_SHARED(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define uatomic_read(p)		__atomic_load_n((p), __ATOMIC_SEQ_CST)
#define uatomic_set(p, v)	__atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
#define uatomic_inc(p)		((void) __atomic_fetch_add((p), 1, __ATOMIC_SEQ_CST))
#define uatomic_add(p, v)	((void) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST))
#define caa_cpu_relax()		ck_pr_stall()

#endif /* BENCH_CK_H */
