// SPDX-License-Identifier: MIT
/*
 * The record store of the per-phase trace (urcu-phase-trace.h).  Compiled
 * only into the bench-only static flavor libraries of tools/bench/meson.build.
 *
 * Records go into a fixed array through an atomic slot counter; a writer
 * past the end counts a drop instead.  The reader (urcu_i_pt_take) runs
 * when no traced call is in flight, after the benchmark joined or stopped
 * its callers, so the thread join / the caller's own program order is what
 * makes the records visible to it; the counter needs no ordering of its own
 * beyond handing out distinct slots.
 */
#include "urcu-phase-trace.h"

#include <string.h>
#include <urcu/uatomic.h>

#define PT_SLOTS	(1u << 16)

__thread struct urcu_i_pt_cur urcu_i_pt_cur;

static struct urcu_i_pt_rec pt_store[PT_SLOTS];
static unsigned long pt_next;		/* next free slot (may exceed PT_SLOTS) */

const char *const urcu_i_pt_names[URCU_I_PT_NR] = {
	[URCU_I_PT_ENTRY] = "entry",
	[URCU_I_PT_LEADER_LOCK] = "leader_lock",
	[URCU_I_PT_WAIT_LEADER] = "wait_leader",
	[URCU_I_PT_REG_LOCK] = "reg_lock",
	[URCU_I_PT_ORDER] = "order",
	[URCU_I_PT_FLIP] = "flip",
	[URCU_I_PT_SCAN_SPIN] = "scan_spin",
	[URCU_I_PT_SCAN_ARM] = "scan_arm",
	[URCU_I_PT_SCAN_SLEEP] = "scan_sleep",
	[URCU_I_PT_GP_END] = "gp_end",
	[URCU_I_PT_WAKE] = "wake",
	[URCU_I_PT_EXIT] = "exit",
};

const char *const urcu_i_pt_detail_names[URCU_I_PT_NR_DETAIL] = {
	[URCU_I_PT_SIG_SEND] = "sig_send",
	[URCU_I_PT_SIG_WAIT] = "sig_wait",
};

void urcu_i_pt_begin(void)
{
	struct urcu_i_pt_cur *c = &urcu_i_pt_cur;

	memset(&c->rec, 0, sizeof(c->rec));
	c->start = c->last = urcu_i_pt_now();
	c->active = 1;
}

void urcu_i_pt_end(void)
{
	struct urcu_i_pt_cur *c = &urcu_i_pt_cur;
	unsigned long slot;

	if (!c->active)
		return;
	urcu_i_pt_mark(URCU_I_PT_EXIT);
	c->active = 0;
	c->rec.total_ns = c->last - c->start;
	/*
	 * Full barrier (RMW) that pairs with nothing: only distinct slots
	 * matter; urcu_i_pt_take() runs after the call (top of this file).
	 */
	slot = uatomic_add_return(&pt_next, 1) - 1;
	if (slot < PT_SLOTS)
		pt_store[slot] = c->rec;
}

size_t urcu_i_pt_take(struct urcu_i_pt_rec *out, size_t max, size_t *dropped)
{
	/*
	 * Full barrier (xchg); pairs with nothing: the caller runs this
	 * after the traced calls ended (see the top of this file).
	 */
	unsigned long used = uatomic_xchg(&pt_next, 0);
	size_t n = used < PT_SLOTS ? used : PT_SLOTS;

	if (dropped)
		*dropped = used - n;
	if (n > max) {
		if (dropped)
			*dropped += n - max;
		n = max;
	}
	if (n)
		memcpy(out, pt_store, n * sizeof(*out));
	return n;
}
