// SPDX-License-Identifier: MIT
/*
 * defer_rcu(): deferred reclamation by a per-process defer thread.
 *
 * The functions are per flavor (urcu_memb_defer_rcu, ...) and are declared by
 * the flavor headers (urcu/urcu-<flavor>.h); an umbrella header maps the
 * generic names defer_rcu, rcu_defer_register_thread, rcu_defer_unregister_thread,
 * rcu_defer_barrier, rcu_defer_barrier_thread and rcu_defer_exit to one flavor.
 *
 * defer_rcu(fct, p) queues fct(p) in the calling thread's defer queue; the
 * defer thread runs it after a grace period that began after the call.  A
 * thread registers with rcu_defer_register_thread() before its first
 * defer_rcu().  defer_rcu() may block (it waits for a grace period itself when
 * the queue is full), so it must never be called inside a read-side critical
 * section; call_rcu() is the non-blocking alternative.
 */
#ifndef URCU_DEFER_H
#define URCU_DEFER_H

#include <stdlib.h>
#include <pthread.h>

#endif /* URCU_DEFER_H */
