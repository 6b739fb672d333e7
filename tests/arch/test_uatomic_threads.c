// SPDX-License-Identifier: MIT
/*
 * Two-thread checks of the atomics and barriers.  Not a benchmark: each part
 * is bounded by an iteration count and a short time limit, so the whole
 * program stays well under a second even on a loaded machine.
 *
 *  1. contention: two threads hammer the same words with inc, add, sub,
 *     add_return, xchg-based counting and cmpxchg loops on 1, 2, 4 and
 *     8-byte integers; no update may be lost.
 *  2. message passing: a writer stores data, cmm_smp_wmb(), then a flag; a
 *     reader loads the flag, cmm_smp_rmb(), then the data, and must never
 *     see the flag newer than the data.  Same with a pointer published
 *     after cmm_smp_wmb() and read with cmm_smp_read_barrier_depends().
 *  3. store buffering: each thread stores its own flag, issues a full
 *     barrier (cmm_smp_mb(), a CMM_SEQ_CST_FENCE store, or an xchg), then
 *     loads the other's flag; both loads returning 0 is forbidden.  On x86
 *     this is the reordering TSO allows, so it catches a cmm_smp_mb() that
 *     is only a compiler barrier.
 *
 * Built twice: architecture files and URCU_ARCH_FORCE_GENERIC.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>
#include "tap.h"

#ifdef URCU_ARCH_FORCE_GENERIC
#define VARIANT "generic"
#else
#define VARIANT "arch"
#endif

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
	fprintf(stderr, "test_uatomic_threads: %s failed\n", what);
	exit(99);
}

static void run_two(void *(*fn)(void *), void *a0, void *a1)
{
	pthread_t t[2];

	if (pthread_create(&t[0], NULL, fn, a0) || pthread_create(&t[1], NULL, fn, a1))
		die("pthread_create");
	if (pthread_join(t[0], NULL) || pthread_join(t[1], NULL))
		die("pthread_join");
}

/* ---- 1. contention ------------------------------------------------------ */

#define CONTENTION_LOOPS 100000

static struct {
	uint8_t c8;
	uint16_t c16;
	uint32_t c32;
	uint64_t c64;
	long cas;
	int32_t xchg_tokens;
	long xchg_total;
} shared;

static void *contend(void *arg)
{
	long i;

	(void) arg;
	for (i = 0; i < CONTENTION_LOOPS; i++) {
		long old;

		uatomic_inc(&shared.c8);
		uatomic_add(&shared.c16, 3);
		uatomic_sub(&shared.c16, 1);
		uatomic_add_return(&shared.c32, 2);
		uatomic_dec(&shared.c64);
		uatomic_add_mo(&shared.c64, 2, CMM_RELAXED);
		do {
			old = uatomic_read(&shared.cas);
		} while (uatomic_cmpxchg(&shared.cas, old, old + 1) != old);
		/* take all tokens, give one back: the total is conserved */
		uatomic_add(&shared.xchg_tokens, 1);
		uatomic_add(&shared.xchg_total, (long) uatomic_xchg(&shared.xchg_tokens, 0));
	}
	return NULL;
}

static void check_contention(void)
{
	const long n = 2L * CONTENTION_LOOPS;

	run_two(contend, NULL, NULL);
	tap_ok(shared.c8 == (uint8_t) n, "uint8 inc: %u (expect %u)",
		(unsigned) shared.c8, (unsigned) (uint8_t) n);
	tap_ok(shared.c16 == (uint16_t) (2 * n), "uint16 add/sub: %u (expect %u)",
		(unsigned) shared.c16, (unsigned) (uint16_t) (2 * n));
	tap_ok(shared.c32 == (uint32_t) (2 * n), "uint32 add_return: %u",
		(unsigned) shared.c32);
	tap_ok(shared.c64 == (uint64_t) n, "uint64 dec/add_mo: %llu",
		(unsigned long long) shared.c64);
	tap_ok(shared.cas == n, "cmpxchg loop increments: %ld (expect %ld)",
		shared.cas, n);
	tap_ok(shared.xchg_total + shared.xchg_tokens == n,
		"xchg moves tokens without loss: %ld + %d (expect %ld)",
		shared.xchg_total, (int) shared.xchg_tokens, n);
}

/* ---- 2. message passing ------------------------------------------------- */

#define MP_LOOPS 200000

static unsigned long mp_data, mp_flag;

struct payload {
	unsigned long seq;
	unsigned long check;	/* ~seq */
};

/*
 * One slot per publication, never reused: with a ring of slots a reader that
 * was descheduled after loading the pointer could see the slot's next
 * rewrite half done (new seq, old check), which is not an ordering bug.
 */
static struct payload mp_slots[MP_LOOPS + 1];
static struct payload *mp_ptr;
static unsigned long mp_bad, mp_bad_ptr, mp_seen;
static int mp_reader_ready;

static void *mp_thread(void *arg)
{
	unsigned long i;

	if (arg) {
		/* writer: start once the reader runs, so that the loops overlap */
		while (!uatomic_load(&mp_reader_ready, CMM_RELAXED))
			sched_yield();
		for (i = 1; i <= MP_LOOPS; i++) {
			struct payload *p = &mp_slots[i];

			CMM_STORE_SHARED(mp_data, i);
			/* Orders the data store before the flag store; pairs
			 * with the reader's cmm_smp_rmb(). */
			cmm_smp_wmb();
			CMM_STORE_SHARED(mp_flag, i);

			CMM_STORE_SHARED(p->seq, i);
			CMM_STORE_SHARED(p->check, ~i);
			/* Initialise before publishing; pairs with the reader's
			 * dependency barrier. */
			cmm_smp_wmb();
			CMM_STORE_SHARED(mp_ptr, p);
		}
		return NULL;
	}
	/* reader */
	uatomic_store(&mp_reader_ready, 1, CMM_RELAXED);
	for (;;) {
		unsigned long f, d;
		struct payload *p;

		f = CMM_LOAD_SHARED(mp_flag);
		/* Pairs with the writer's cmm_smp_wmb(). */
		cmm_smp_rmb();
		d = CMM_LOAD_SHARED(mp_data);
		if (d < f)
			mp_bad++;

		p = CMM_LOAD_SHARED(mp_ptr);
		cmm_smp_read_barrier_depends();
		if (p) {
			unsigned long want = (unsigned long) (p - mp_slots);

			/* both fields were written before p was published */
			if (CMM_LOAD_SHARED(p->seq) != want
			    || CMM_LOAD_SHARED(p->check) != ~want)
				mp_bad_ptr++;
		}
		mp_seen++;
		if (f == MP_LOOPS)
			break;
	}
	return NULL;
}

static void check_message_passing(void)
{
	run_two(mp_thread, (void *) 1, NULL);
	tap_ok(mp_bad == 0, "message passing: flag never ahead of data "
		"(%lu violations in %lu reads)", mp_bad, mp_seen);
	tap_ok(mp_bad_ptr == 0, "pointer publication: payload initialised "
		"(%lu violations)", mp_bad_ptr);
}

/* ---- 3. store buffering ------------------------------------------------- */

/*
 * Rounds of SB_BATCH independent instances.  Both threads run instance i
 * at the same moment, SB_STEP ticks of caa_get_cycles() after the previous
 * one, counted from a start time main publishes for the round, so their
 * accesses overlap often enough for the hardware reordering to show when
 * the barrier is missing (replacing cmm_smp_mb() by cmm_barrier() gives
 * hundreds of forbidden outcomes per run on x86).  A thread that was
 * descheduled simply runs late; that loses overlap, never correctness.
 */
#define SB_BATCH 256
#define SB_STEP 1500
#define SB_ROUNDS 400
#define SB_SECONDS 0.3

enum sb_kind { SB_SMP_MB, SB_STORE_FENCE, SB_XCHG, SB_KINDS };

static const char *const sb_names[SB_KINDS] = {
	"cmm_smp_mb()",
	"uatomic_store(CMM_SEQ_CST_FENCE)",
	"uatomic_xchg()",
};

struct sb_cell {
	int v;
	char pad[CAA_CACHE_LINE_SIZE - sizeof(int)];
};

static struct {
	unsigned long round;	/* published by main, waited on by both */
	unsigned long done;	/* both threads increment per round */
	int stop;
	enum sb_kind kind;
	caa_cycles_t start;	/* time of instance 0 of this round */
	struct sb_cell x[SB_BATCH], y[SB_BATCH];
	unsigned char r[2][SB_BATCH];
} sb;

/* Spin for the next round, yielding when the partner is probably not running. */
static void sb_wait_round(unsigned long want)
{
	unsigned int spins = 0;

	while (uatomic_load(&sb.round, CMM_ACQUIRE) != want) {
		if (++spins % 256 == 0)
			sched_yield();
		else
			caa_cpu_relax();
	}
}

static void *sb_thread(void *arg)
{
	int me = (int) (intptr_t) arg;
	struct sb_cell *mine = me ? sb.y : sb.x;
	struct sb_cell *other = me ? sb.x : sb.y;
	unsigned long round;
	int i;

	for (round = 1; ; round++) {
		sb_wait_round(round);
		if (uatomic_load(&sb.stop, CMM_RELAXED))
			break;
		for (i = 0; i < SB_BATCH; i++) {
			caa_cycles_t at = sb.start + (caa_cycles_t) i * SB_STEP;

			while ((int64_t) (caa_get_cycles() - at) < 0)
				caa_cpu_relax();
			switch (sb.kind) {
			case SB_SMP_MB:
				CMM_STORE_SHARED(mine[i].v, 1);
				/* Store->load order: pairs with the other
				 * thread's identical barrier. */
				cmm_smp_mb();
				break;
			case SB_STORE_FENCE:
				uatomic_store(&mine[i].v, 1, CMM_SEQ_CST_FENCE);
				break;
			case SB_XCHG:
				(void) uatomic_xchg(&mine[i].v, 1);
				break;
			default:
				break;
			}
			sb.r[me][i] = (unsigned char) CMM_LOAD_SHARED(other[i].v);
		}
		/* Publish the results; pairs with main's acquire of done. */
		uatomic_add_return(&sb.done, 1);
	}
	return NULL;
}

static void check_store_buffering(enum sb_kind kind)
{
	pthread_t t[2];
	double deadline = now() + SB_SECONDS;
	unsigned long r, forbidden = 0, instances = 0;
	int i;

	sb.kind = kind;
	sb.stop = 0;
	sb.round = 0;
	sb.done = 0;
	if (pthread_create(&t[0], NULL, sb_thread, (void *) 0)
	    || pthread_create(&t[1], NULL, sb_thread, (void *) 1))
		die("pthread_create");
	for (r = 1; r <= SB_ROUNDS && now() < deadline; r++) {
		unsigned int spins = 0;

		for (i = 0; i < SB_BATCH; i++) {
			sb.x[i].v = 0;
			sb.y[i].v = 0;
		}
		sb.start = caa_get_cycles() + 20 * SB_STEP;
		/* Reset and start time before release; pairs with
		 * sb_wait_round(). */
		uatomic_store(&sb.round, r, CMM_RELEASE);
		while (uatomic_load(&sb.done, CMM_ACQUIRE) != 2 * r) {
			if (++spins % 256 == 0)
				sched_yield();
			else
				caa_cpu_relax();
		}
		for (i = 0; i < SB_BATCH; i++)
			if (sb.r[0][i] == 0 && sb.r[1][i] == 0)
				forbidden++;
		instances += SB_BATCH;
	}
	uatomic_store(&sb.stop, 1, CMM_RELAXED);
	/* Release the threads one last time so they see stop. */
	uatomic_store(&sb.round, r, CMM_RELEASE);
	if (pthread_join(t[0], NULL) || pthread_join(t[1], NULL))
		die("pthread_join");
	tap_ok(forbidden == 0, "store buffering with %s: %lu forbidden "
		"outcomes in %lu instances", sb_names[kind], forbidden, instances);
}

int main(void)
{
	int k;

	tap_diag("two-thread atomics and barriers, %s implementation", VARIANT);
	check_contention();
	check_message_passing();
	for (k = 0; k < SB_KINDS; k++)
		check_store_buffering((enum sb_kind) k);
	return tap_done();
}
