// SPDX-License-Identifier: MIT
/*
 * Grace-period state shared by the reader fast paths and the library.
 *
 * Not for direct use: the layouts below are internals that the inline read
 * side needs to see.  Every program inlines that read side (below,
 * URCU_I_INLINE_READ_SIDE), so they are ABI: the two structures' layouts,
 * the bits below, the TLS model and what the slow paths expect.  Changing
 * any of them means bumping the version node URCU_DROPIN_READER_<n> in
 * liburcu/liburcu.map (docs/DESIGN.md, "Reader ABI"), so that programs built
 * against the old layout refuse to load instead of misreading the words.
 *
 * Reader word (struct urcu_i_reader.ctr), written by its own thread only:
 *
 *   bits 0..15   nesting depth of read-side critical sections
 *   bit  16      URCU_GP_FENCE copied from the global word (ignored)
 *   bit  17      URCU_GP_WAITER copied from the global word (ignored)
 *   bits 18..    grace-period sequence snapshot taken by the outermost lock
 *
 *   0                       registered, not in a critical section (qsbr: offline)
 *   URCU_GP_NEST_MASK       not registered (the initial value of every thread)
 *
 * Global word (struct urcu_i_gp.ctr), written by the grace-period leader only:
 * sequence | flags | URCU_GP_COUNT.  Copying it into a reader word therefore
 * yields "nesting depth 1, current sequence" in one store.
 *
 * One sequence step per grace period suffices when the sequence cannot wrap
 * while a reader is preempted between loading the global word and storing its
 * snapshot (2^46 grace periods on 64-bit); liburcu/src/urcu-gp.c has the proof.
 */
#ifndef URCU_STATIC_URCU_GP_H
#define URCU_STATIC_URCU_GP_H

#include <stdint.h>
#include <pthread.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/list.h>
#include <urcu/config.h>

#define URCU_GP_NEST_BITS	16
#define URCU_GP_NEST_MASK	((1UL << URCU_GP_NEST_BITS) - 1)
#define URCU_GP_COUNT		1UL
/* Readers must issue full fences (mb flavor, or no membarrier(2)). */
#define URCU_GP_FENCE		(1UL << URCU_GP_NEST_BITS)
/* An updater sleeps waiting for readers: the outermost unlock wakes it. */
#define URCU_GP_WAITER		(1UL << (URCU_GP_NEST_BITS + 1))
#define URCU_GP_SEQ_SHIFT	(URCU_GP_NEST_BITS + 2)
#define URCU_GP_SEQ_STEP	(1UL << URCU_GP_SEQ_SHIFT)
#define URCU_GP_SEQ_MASK	(~(URCU_GP_SEQ_STEP - 1))
#define URCU_READER_UNREGISTERED URCU_GP_NEST_MASK

struct urcu_i_gp {
	/* Read by every outermost read_lock and unlock; written once per GP. */
	unsigned long ctr;
	/* Futex word a waiting updater sleeps on; bumped by waking readers. */
	int32_t futex;
} __attribute__((aligned(CAA_CACHE_LINE_SIZE)));

struct urcu_i_reader {
	/* The reader word (see above).  Read by the updater concurrently. */
	unsigned long ctr;
	/* Signal flavor: set by the updater, cleared by the signal handler. */
	int32_t need_mb;
	/* Registry bookkeeping, touched under the registry lock only. */
	unsigned char lazy;		/* bp: registered by read_lock */
	/*
	 * Set by a grace period that sleeps until this reader leaves the
	 * critical section it waits for, cleared by that grace period when
	 * it finds the reader done; read by the reader's slow paths (library code only: it
	 * sits in what was padding, so neither the size nor any offset the
	 * inline read side uses moved).
	 */
	unsigned char waited;
	/* qsbr debug builds: read-side nesting depth (read_lock is free otherwise). */
	unsigned int debug_nest;
	struct cds_list_head node;
	pthread_t tid;
	/*
	 * Kernel thread id, for stall reports.  Library code only, and after
	 * every field the inline read side uses (ctr, debug_nest): adding it
	 * moved none of their offsets.
	 */
	int32_t ktid;
};
/*
 * No cache-line alignment: each record sits in its own thread's TLS block,
 * and list iteration forms (never dereferences) a record pointer from the
 * registry head, which must not claim an alignment it lacks.
 */

/*
 * Expensive checks (debug_checks build option, or DEBUG_RCU defined by the
 * user): qsbr counts read-side nesting so that misuse is caught there too.
 */
#if defined(CONFIG_RCU_DEBUG) || defined(DEBUG_RCU)
#define URCU_I_DEBUG_CHECKS 1
#endif

/*
 * Read-side functions called out of line (URCU_NO_INLINE_READ_SIDE) are called
 * through the GOT rather than a PLT stub: one indirect call instead of a
 * call plus a jump, about a nanosecond per lock/unlock pair on x86-64.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define URCU_I_HOT __attribute__((noplt))
#else
#define URCU_I_HOT
#endif

/*
 * Whether the flavor headers map read_lock, read_unlock, read_ongoing (and
 * qsbr's quiescent_state) onto their inline versions.  Always, except in the
 * library (which defines the out-of-line versions) and in programs that
 * define URCU_NO_INLINE_READ_SIDE (without _LGPL_SOURCE) to call the
 * library's read side and so depend on no reader layout: the price is a
 * call per primitive.  The inline versions reference the symbols of version
 * node URCU_DROPIN_READER_<n>, the out-of-line ones only URCU_DROPIN_1.
 */
#if !defined(URCU_I_BUILDING_LIBRARY) && !defined(URCU_NO_INLINE_READ_SIDE)
#define URCU_I_INLINE_READ_SIDE 1
#endif

/* Thread-local storage of the library: initial-exec, no __tls_get_addr. */
#if defined(__GNUC__) && !defined(URCU_NO_TLS_MODEL)
#define URCU_I_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define URCU_I_TLS_MODEL
#endif

#endif /* URCU_STATIC_URCU_GP_H */
