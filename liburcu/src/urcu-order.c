// SPDX-License-Identifier: MIT
/*
 * How the updater forces ordering on readers (B1 in urcu-gp.c), per flavor.
 *
 * MEMBARRIER (memb, bp): membarrier(2) private expedited runs a full fence on
 *   every CPU currently running one of our threads; a thread that is not
 *   running gets one from the context switch.  If the kernel refuses it at
 *   init, readers keep URCU_GP_FENCE set in the global word and fence
 *   themselves, and a plain fence suffices here.
 * FENCE (mb, qsbr): readers fence themselves; the updater fences.
 * SIGNAL (signal): every registered reader but the caller receives SIGRCU and
 *   fences in the handler; we wait until all have acknowledged.
 *
 * Called with the registry lock held (the reader set is stable).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "urcu-internal.h"
/* Bench-only URCU_I_PT_DETAIL hooks: the signal round's two halves timed. */
#include "urcu-seams.h"

#if URCU_FLAVOR_ORDER == URCU_ORDER_MEMBARRIER

static int use_membarrier;

void URCU_FN(i_order_init)(void)
{
	struct urcu_i_registry *reg = &URCU_FN(i_registry);

	use_membarrier = urcu_common_membarrier_init();
	if (!use_membarrier)
		return;
	/* Readers stop fencing; the global word changes under the registry lock. */
	URCU_FN(i_lock)(&reg->lock);
	CMM_STORE_SHARED(URCU_FN(i_gp).ctr, URCU_FN(i_gp).ctr & ~URCU_GP_FENCE);
	URCU_FN(i_unlock)(&reg->lock);
}

void URCU_FN(i_order_exit)(void)
{
}

void URCU_FN(i_force_order)(void)
{
	if (caa_likely(use_membarrier))
		urcu_common_membarrier();
	else
		cmm_smp_mb();	/* pairs with the readers' own fences */
}

int URCU_FN(membarrier_available)(void)
{
	return use_membarrier;
}

#elif URCU_FLAVOR_ORDER == URCU_ORDER_FENCE

void URCU_FN(i_order_init)(void)
{
}

void URCU_FN(i_order_exit)(void)
{
}

void URCU_FN(i_force_order)(void)
{
	/* Pairs with the full fences of read_lock/unlock or quiescent_state. */
	cmm_smp_mb();
}

#elif URCU_FLAVOR_ORDER == URCU_ORDER_SIGNAL

/* Readers that have not yet fenced in this round; futex word. */
static int32_t acks_pending;

static void sigrcu_handler(int signo, siginfo_t *info, void *context)
{
	struct urcu_i_reader *r = &URCU_FN(i_reader);
	int saved_errno = errno;

	(void) signo;
	(void) info;
	(void) context;
	/*
	 * The fence of the round: everything this thread did before the
	 * signal is visible to the updater once it sees our acknowledgement,
	 * and everything after follows what the updater did before sending
	 * (pairs with the updater's fences around the round).  The xchg is
	 * itself a full barrier; stray SIGRCUs find need_mb clear.
	 */
	cmm_smp_mb();
	if (uatomic_xchg(&r->need_mb, 0)) {
		if (uatomic_sub_return(&acks_pending, 1) == 0)
			urcu_common_futex_wake(&acks_pending, 1);
	}
	errno = saved_errno;
}

void URCU_FN(i_order_init)(void)
{
	struct sigaction act;

	memset(&act, 0, sizeof(act));
	act.sa_sigaction = sigrcu_handler;
	act.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&act.sa_mask);
	if (sigaction(SIGRCU, &act, NULL))
		urcu_common_die("rcu_init", "cannot install the SIGRCU handler: %s",
				strerror(errno));
}

/*
 * The handler stays installed after the last exit: a call_rcu worker or the
 * polled-GP thread may still be inside a grace period while the process
 * exits, and a SIGRCU delivered under the default disposition would kill
 * the process.  A stray SIGRCU finds need_mb clear and does nothing.
 */
void URCU_FN(i_order_exit)(void)
{
}

void URCU_FN(i_force_order)(void)
{
	struct urcu_i_reader *self = &URCU_FN(i_reader);
	struct urcu_i_reader *r;
	int32_t n = 0, v;
	unsigned int spins = 0;

	cds_list_for_each_entry(r, &URCU_FN(i_registry).readers, node) {
		if (r == self)
			continue;
		uatomic_set(&r->need_mb, 1);
		n++;
	}
	if (!n) {
		/* Only the caller reads: its own fence is the whole round. */
		cmm_smp_mb();
		return;
	}
	uatomic_set(&acks_pending, n);
	/*
	 * Full fence: the caller's earlier stores (and need_mb/acks_pending)
	 * precede the signals; pairs with the handler's fence.
	 */
	cmm_smp_mb();
	unsigned long long pt_t = URCU_I_PT_DETAIL_START();
	cds_list_for_each_entry(r, &URCU_FN(i_registry).readers, node) {
		int ret;

		if (r == self)
			continue;
		ret = pthread_kill(r->tid, SIGRCU);
		if (ret == 0)
			continue;
		/* Thread vanished without unregistering: nothing to order. */
		if (uatomic_xchg(&r->need_mb, 0))
			(void) uatomic_sub_return(&acks_pending, 1);
	}
	pt_t = URCU_I_PT_DETAIL(SIG_SEND, pt_t);
	while ((v = uatomic_load(&acks_pending, CMM_ACQUIRE)) != 0) {
		/* Handlers run within microseconds on an idle CPU. */
		if (spins++ < 1000) {
			caa_cpu_relax();
			continue;
		}
		urcu_common_futex_wait(&acks_pending, v);
	}
	/* Full fence: pairs with the handlers' fences (acknowledgement seen). */
	cmm_smp_mb();
	(void) URCU_I_PT_DETAIL(SIG_WAIT, pt_t);
}

#else
# error "unknown URCU_FLAVOR_ORDER"
#endif
