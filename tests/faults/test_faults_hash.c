// SPDX-License-Identifier: MIT
/*
 * The hash table under allocation failure and without its resize thread
 * (memb flavor; the table code is flavor-independent).
 *
 *   - cds_lfht_new(3), RETURN VALUE: NULL "when memory runs out (they never
 *     abort)": each allocation of a creation failing in turn gives NULL, and
 *     nothing the library allocated stays allocated;
 *   - cds_lfht_resize(3): "If memory runs out while growing, the table grows
 *     as far as it could and stays correct; a later resize tries again":
 *     each bucket allocation of an explicit grow failing in turn leaves every
 *     key findable, and a resize without a fault then completes;
 *   - the auto-resize thread cannot be started (cds_lfht_new(3): NULL
 *     "when the background thread cannot be started"): creating an
 *     auto-resize table gives NULL without a leak, a table without
 *     auto-resize needs no thread; once a thread can be created, creation
 *     starts it, updates that ask for resizes create none (they run
 *     inside read-side critical sections, where a resize request must
 *     neither wait nor fail), and the table's
 *     asynchronous destroy frees everything.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

#include "test-time.h"
#include "faults-common.h"

#define NR_KEYS		2000

struct item {
	unsigned long key;
	struct cds_lfht_node node;
};

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key == *(const unsigned long *) key;
}

static unsigned long hash_of(unsigned long key)
{
	return key * 0x9e3779b97f4a7c15ULL >> 7;
}

/* The destroy of an auto-resize table is asynchronous: wait for the thread to free it. */
static void wait_freed(void)
{
	unsigned long long t0 = t_now_ns();

	while (fi_track_live() && t_ms_since(t0) < T_START_LIMIT_MS)
		t_sleep_ms(1);
}

static void new_sweep(int flags, unsigned long max)
{
	int nth, points = 0, bad = 0;

	for (nth = 1; nth < 64; nth++) {
		struct cds_lfht *ht;

		fi_track_begin();
		fi_fail_alloc(nth, FI_LIB_ONLY);
		ht = cds_lfht_new_flavor(1UL << 12, 1UL << 2, max, flags, &urcu_memb_flavor, NULL);
		fi_disarm();
		if (!fi_injected()) {
			if (!ht || cds_lfht_destroy(ht, NULL)) {
				tap_diag("no fault: table %p or destroy failed", (void *) ht);
				bad++;
			}
			wait_freed();
			break;
		}
		points++;
		if (ht) {
			tap_diag("allocation %d failing: a table was returned", nth);
			bad++;
			(void) cds_lfht_destroy(ht, NULL);
			wait_freed();
		}
		if (fi_track_live()) {
			tap_diag("allocation %d failing: %ld library blocks left", nth, fi_track_live());
			bad++;
		}
	}
	if (!bad && fi_track_live()) {
		tap_diag("no fault: %ld library blocks left after destroy", fi_track_live());
		bad++;
	}
	tap_ok(!bad && points >= 1,
		"cds_lfht_new (flags %#x, max %lu buckets): each of its %d allocations failing gives NULL without a leak",
		flags, max, points);
}

static int lookup_all(struct cds_lfht *ht, unsigned long n)
{
	unsigned long found = 0;

	urcu_memb_read_lock();
	for (unsigned long k = 0; k < n; k++) {
		struct cds_lfht_iter it;

		cds_lfht_lookup(ht, hash_of(k), match, &k, &it);
		found += cds_lfht_iter_get_node(&it) != NULL;
	}
	urcu_memb_read_unlock();
	return found == n;
}

static void no_resize_thread(void)
{
	struct item *items = calloc(NR_KEYS, sizeof(*items));
	struct cds_lfht *ht;
	unsigned long k;
	int attempts, ret;

	if (!items)
		tap_bail("out of memory");
	fi_track_begin();
	fi_fail_thread(1, 0, EAGAIN);		/* every thread creation fails */
	ht = cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_AUTO_RESIZE, &urcu_memb_flavor, NULL);
	attempts = fi_thread_calls();
	fi_disarm();
	tap_ok(!ht && attempts >= 1, "auto-resize table without a thread: cds_lfht_new "
		"returns NULL (%d attempts to start it)", attempts);
	faults_no_leak("failed creation of an auto-resize table");

	fi_fail_thread(1, 0, EAGAIN);
	ht = cds_lfht_new_flavor(1, 1, 0, 0, &urcu_memb_flavor, NULL);
	attempts = fi_thread_calls();
	fi_disarm();
	tap_ok(ht && !attempts, "a table without auto-resize needs no thread (%d attempts)",
		attempts);
	if (ht)
		(void) cds_lfht_destroy(ht, NULL);

	/* Threads can be created again: creation starts it, updates do not. */
	fi_fail_thread(1 << 30, 1, 0);		/* count only */
	ht = cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_AUTO_RESIZE, &urcu_memb_flavor, NULL);
	attempts = fi_thread_calls();
	fi_disarm();
	if (!ht)
		tap_bail("cds_lfht_new_flavor failed");
	tap_ok(attempts == 1, "after recovery: creation starts the thread (%d created)", attempts);
	fi_fail_thread(1 << 30, 1, 0);
	urcu_memb_read_lock();
	for (k = 0; k < NR_KEYS; k++) {
		items[k].key = k;
		cds_lfht_add(ht, hash_of(k), &items[k].node);
	}
	urcu_memb_read_unlock();
	attempts = fi_thread_calls();
	fi_disarm();
	tap_ok(!attempts, "updates that ask for resizes create no thread (%d created)", attempts);
	tap_ok(lookup_all(ht, NR_KEYS), "after recovery: every key is found");

	urcu_memb_read_lock();
	for (k = 0; k < NR_KEYS; k++)
		(void) cds_lfht_del(ht, &items[k].node);
	urcu_memb_read_unlock();
	urcu_memb_synchronize_rcu();
	ret = cds_lfht_destroy(ht, NULL);
	wait_freed();
	tap_ok(ret == 0, "cds_lfht_destroy returns 0 (%d)", ret);
	faults_no_leak("auto-resize table destroyed by the thread");
	free(items);
}

static void resize_sweep(void)
{
	struct item *items = calloc(NR_KEYS, sizeof(*items));
	struct cds_lfht *ht;
	int nth, points = 0, bad = 0;

	if (!items)
		tap_bail("out of memory");
	fi_track_begin();
	ht = cds_lfht_new_flavor(1, 1, 0, 0, &urcu_memb_flavor, NULL);
	if (!ht)
		tap_bail("cds_lfht_new_flavor failed");
	urcu_memb_read_lock();
	for (unsigned long k = 0; k < NR_KEYS; k++) {
		items[k].key = k;
		cds_lfht_add(ht, hash_of(k), &items[k].node);
	}
	urcu_memb_read_unlock();
	/* Each round grows one order further than the last failure allowed. */
	for (nth = 1; nth < 32; nth++) {
		fi_fail_alloc(nth, FI_LIB_ONLY);
		cds_lfht_resize(ht, 1UL << 12);
		fi_disarm();
		if (!lookup_all(ht, NR_KEYS)) {
			tap_diag("allocation %d failing in a grow: keys lost", nth);
			bad++;
		}
		if (!fi_injected())
			break;
		points++;
	}
	tap_ok(!bad && points >= 1,
		"cds_lfht_resize: a grow whose bucket allocation fails (%d points) keeps every key; the next one completes",
		points);
	urcu_memb_read_lock();
	for (unsigned long k = 0; k < NR_KEYS; k++)
		(void) cds_lfht_del(ht, &items[k].node);
	urcu_memb_read_unlock();
	urcu_memb_synchronize_rcu();
	tap_ok(cds_lfht_destroy(ht, NULL) == 0, "cds_lfht_destroy after the grows returns 0");
	faults_no_leak("table grown under allocation failures, destroyed");
	free(items);
}

int main(void)
{
	alarm(60);
	fi_scan_libs();
	urcu_memb_register_thread();
	no_resize_thread();	/* first: no table has started the thread yet */
	new_sweep(0, 0);			/* the order backend: one array per order */
	new_sweep(0, 1UL << 16);		/* one reserved range */
	new_sweep(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, 0);
	resize_sweep();
	urcu_memb_unregister_thread();
	return tap_done();
}
