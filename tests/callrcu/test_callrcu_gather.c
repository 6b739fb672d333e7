// SPDX-License-Identifier: MIT
/*
 * call_rcu, for one flavor (TEST_FLAVOR_<NAME>): a dense stream of
 * callbacks is served in batches that gather for a while, not with one
 * grace period after another ("Gathering" in call-rcu-workers.c).
 *
 * The main thread queues callbacks back to back for STREAM_MS while the
 * default worker runs; the worker's grace-period count over that time
 * must stay near one per GATHER_NS of nap (1 ms).  The bound, 3 per ms
 * plus 20, allows for the batches a loaded machine starts without a nap:
 * the rate estimate spans the time since the previous batch started, so
 * only an enqueuer kept off its CPU for a while lets a batch start at
 * once, at most once per scheduling slice.  Measured at load 11 on 2
 * CPUs: 42-95 grace periods in 200 ms with the nap in all five flavors;
 * 536-5395 without it, 8 of 10 runs over this bound.
 * Every callback must still run exactly once.
 * TAP output.
 */
#include "callrcu-common.h"

#define STREAM_MS	200

static unsigned long stream_invoked;

static void stream_cb(struct rcu_head *head)
{
	free(head);
	uatomic_inc(&stream_invoked);
}

int main(void)
{
	struct call_rcu_data *crdp;
	struct urcu_call_rcu_stats a, b;
	unsigned long long t0;
	unsigned long queued = 0;
	double ms;

	callrcu_test_begin();
	/* Start the default worker and let it go idle. */
	queue_one(count_cb);
	T_FN(barrier)();
	crdp = T_FN(get_default_call_rcu_data)();
	tap_ok(crdp && T_FN(call_rcu_data_stats)(crdp, &a) == 0, "default worker's statistics");

	t0 = t_now_ns();
	do {
		for (int i = 0; i < 64; i++) {
			struct rcu_head *h = malloc(sizeof(*h));

			if (!h)
				tap_bail("out of memory");
			T_FN(call_rcu)(h, stream_cb);
		}
		queued += 64;
		/* qsbr: the worker's grace periods wait for this thread. */
		T_FN(quiescent_state)();
	} while ((ms = t_ms_since(t0)) < STREAM_MS);
	T_FN(call_rcu_data_stats)(crdp, &b);
	T_FN(barrier)();

	unsigned long long gps = b.grace_periods - a.grace_periods;
	unsigned long long bound = (unsigned long long) (ms * 3) + 20;

	tap_diag("%lu callbacks queued in %.0f ms, %llu grace periods, %llu batches allowed",
		 queued, ms, gps, bound);
	tap_ok(gps <= bound, "a dense stream: %llu grace periods in %.0f ms (at most %llu)",
	       gps, ms, bound);
	tap_ok(uatomic_read(&stream_invoked) == queued, "every callback ran once (%lu of %lu)",
	       uatomic_read(&stream_invoked), queued);
	check_all_once("the warm-up callback");
	return callrcu_test_end();
}
