// SPDX-License-Identifier: MIT
/*
 * cds_lfht_destroy in each context the contract allows, in every flavor,
 * each under an alarm() watchdog so that a deadlock fails with the name of
 * the case instead of a bare test timeout:
 *   - plain: fixed and AUTO_RESIZE tables, empty, from a registered thread;
 *   - from inside a call_rcu callback (fixed and AUTO_RESIZE tables, the
 *     latter just after heavy growth so that its worker is busy);
 *   - an AUTO_RESIZE | ACCOUNTING table right after 2^15 adds and as many
 *     dels, while the resize worker is growing or shrinking it, several
 *     times in a row;
 *   - (liburcu 0.14+ and ours) an AUTO_RESIZE table from inside a read-side
 *     critical section, during a resize.
 * Each destroy must return 0; the watchdog must not fire.
 */
#include "hash-test.h"

enum { BIG = 1 << 15 };

static struct cds_lfht *new_table(int flags)
{
	struct cds_lfht *ht = cds_lfht_new_flavor(1, 1, 0, flags, HT_FLAVOR, NULL);

	if (!ht)
		tap_bail("cds_lfht_new_flavor(flags %d) failed", flags);
	return ht;
}

/*
 * Add n nodes (keys [0, n)) from nodes[], then delete them all.  The array is
 * reused from call to call: a grace period first, for whoever may still be
 * walking the previous use (a resize worker of a table being destroyed).
 */
static void fill_and_drain(struct cds_lfht *ht, struct tnode *nodes, unsigned long n)
{
	unsigned long k;

	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();
	T_FN(thread_online)();
	for (k = 0; k < n; k++) {
		nodes[k].key = k;
		nodes[k].hash = t_hash(k);
		nodes[k].magic = T_LIVE;
		cds_lfht_node_init(&nodes[k].node);
		t_lock();
		cds_lfht_add(ht, nodes[k].hash, &nodes[k].node);
		t_reader_exit();
	}
	for (k = 0; k < n; k++) {
		t_lock();
		cds_lfht_del(ht, &nodes[k].node);
		t_reader_exit();
	}
}

static void test_plain(void)
{
	static const int flag_sets[] = {
		0, CDS_LFHT_ACCOUNTING, CDS_LFHT_AUTO_RESIZE,
		CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
	};
	int i, ok = 1;

	t_watchdog(20, "plain destroy");
	for (i = 0; i < 4; i++) {
		struct cds_lfht *ht = new_table(flag_sets[i]);
		struct tnode *t = tnode_new(1);

		t_add(ht, t);
		t_del(ht, t);
		tnode_reclaim(t);
		ok &= t_destroy(ht, NULL) == 0;
	}
	t_watchdog(0, NULL);
	tap_ok(ok, "plain destroy of emptied tables, every flag combination: 0");
}

/* ------------------------------------------------- from a call_rcu callback */

struct cb_destroy {
	struct rcu_head rcu;
	struct cds_lfht *ht;
	int ret;
	int done;
};

static void destroy_cb(struct rcu_head *head)
{
	struct cb_destroy *d = caa_container_of(head, struct cb_destroy, rcu);

	d->ret = cds_lfht_destroy(d->ht, NULL);
	t_store(&d->done, 1);
}

static void wait_done(const int *flag)
{
	/* qsbr: offline, or the callback's grace period never ends */
	T_FN(thread_offline)();
	t_wait_for(flag, 1, 60000, "the destroy callback");
	T_FN(thread_online)();
}

static void test_from_callback(struct tnode *nodes)
{
	struct cb_destroy d;

	memset(&d, 0, sizeof(d));
	d.ret = -12345;
	d.ht = new_table(0);
	t_watchdog(30, "destroy of a fixed table from a call_rcu callback");
	T_FN(call_rcu)(&d.rcu, destroy_cb);
	wait_done(&d.done);
	t_watchdog(0, NULL);
	tap_ok(d.ret == 0, "destroy of a fixed table from a call_rcu callback: 0 (%d)", d.ret);

	memset(&d, 0, sizeof(d));
	d.ret = -12345;
	d.ht = new_table(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	fill_and_drain(d.ht, nodes, BIG);
	t_watchdog(30, "destroy of an AUTO_RESIZE table from a call_rcu callback");
	T_FN(call_rcu)(&d.rcu, destroy_cb);
	wait_done(&d.done);
	t_watchdog(0, NULL);
	tap_ok(d.ret == 0, "destroy of a busy AUTO_RESIZE table from a call_rcu callback: 0 (%d)",
		d.ret);
}

/* ----------------------------------------------- during a resize (worker) */

static void test_during_resize(struct tnode *nodes)
{
	int i, ok = 1;
	unsigned long long start = t_now_ns();

	t_watchdog(60, "destroy of an AUTO_RESIZE table during a resize");
	for (i = 0; i < 4; i++) {
		struct cds_lfht *ht = new_table(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
		int ret;

		fill_and_drain(ht, nodes, BIG >> (i & 1));
		ret = t_destroy(ht, NULL);
		if (ret)
			tap_diag("round %d: destroy returned %d", i, ret);
		ok &= ret == 0;
	}
	t_watchdog(0, NULL);
	tap_ok(ok, "destroy of an AUTO_RESIZE table right after 2^15 adds and dels, "
		"4 times: 0, no hang (%.0f ms)", t_ms_since(start));

#if HT_ASYNC_DESTROY
	{
		struct cds_lfht *ht = new_table(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
		int ret;

		fill_and_drain(ht, nodes, BIG);
		t_watchdog(30, "destroy of an AUTO_RESIZE table inside a read-side section");
		t_lock();
		ret = cds_lfht_destroy(ht, NULL);
		t_reader_exit();
		t_watchdog(0, NULL);
		tap_ok(ret == 0, "destroy of a busy AUTO_RESIZE table inside a read-side "
			"critical section: 0 (%d)", ret);
	}
#else
	tap_skip("destroy inside a read-side critical section: liburcu 0.14+");
#endif
}

int main(void)
{
	struct tnode *nodes = (struct tnode *) calloc(BIG, sizeof(*nodes));

	if (!nodes)
		tap_bail("out of memory");
	T_FN(register_thread)();
	tap_diag("flavor %s, %s", T_FLAVOR, T_MODE);

	test_plain();
	test_from_callback(nodes);
	test_during_resize(nodes);

	t_barrier();
	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();
	T_FN(thread_online)();
	T_FN(unregister_thread)();
	free(nodes);
	return tap_done();
}
