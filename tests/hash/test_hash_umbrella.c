// SPDX-License-Identifier: MIT
/*
 * cds_lfht_new, the generic creator that urcu/rculfhash.h defines only when
 * an umbrella header (<urcu.h>, <urcu-qsbr.h>, <urcu-bp.h>) was included
 * first (URCU_API_MAP), as a liburcu program uses it: generic names
 * throughout (rcu_read_lock, call_rcu, synchronize_rcu), the table bound to
 * the umbrella's flavor.  Built with -DTEST_FLAVOR_<NAME>: memb, mb and
 * signal through <urcu.h> (RCU_MB / RCU_SIGNAL), qsbr and bp through their
 * own umbrella.
 */
#if defined(TEST_FLAVOR_QSBR)
# include <urcu-qsbr.h>
#elif defined(TEST_FLAVOR_BP)
# include <urcu-bp.h>
#else
# if defined(TEST_FLAVOR_MB)
#  define RCU_MB
# elif defined(TEST_FLAVOR_SIGNAL)
#  define RCU_SIGNAL
# endif
# include <urcu.h>
#endif
#include <urcu/rculfhash.h>

#include <errno.h>
#include <stdlib.h>

#include "tap.h"

#ifndef URCU_API_MAP
# error "the umbrella header must define URCU_API_MAP"
#endif

struct entry {
	unsigned long key;
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct entry, node)->key == *(const unsigned long *) key;
}

static void free_entry(struct rcu_head *head)
{
	free(caa_container_of(head, struct entry, rcu));
}

int main(void)
{
	struct cds_lfht *ht;
	struct cds_lfht_iter iter;
	struct entry *e;
	unsigned long k;
	int found = 0, deleted = 0;

	rcu_register_thread();
	ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
	tap_ok(ht != NULL, "cds_lfht_new through the umbrella header");
	if (!ht)
		return tap_done();
	for (k = 0; k < 1000; k++) {
		e = (struct entry *) malloc(sizeof(*e));
		if (!e)
			tap_bail("out of memory");
		e->key = k;
		cds_lfht_node_init(&e->node);
		rcu_read_lock();
		cds_lfht_add(ht, k * 2654435761UL, &e->node);
		rcu_read_unlock();
	}
	rcu_read_lock();
	for (k = 0; k < 1000; k++) {
		cds_lfht_lookup(ht, k * 2654435761UL, match, &k, &iter);
		found += cds_lfht_iter_get_node(&iter) != NULL;
	}
	rcu_read_unlock();
	tap_ok(found == 1000, "generic names: 1000 adds, 1000 lookups hit (%d)", found);

	rcu_read_lock();
	cds_lfht_for_each_entry(ht, &iter, e, node) {
		if (cds_lfht_del(ht, &e->node) == 0) {
			call_rcu(&e->rcu, free_entry);
			deleted++;
		}
	}
	rcu_read_unlock();
	tap_ok(deleted == 1000, "for_each_entry + del + call_rcu of every entry (%d)", deleted);
#if defined(TEST_FLAVOR_QSBR)
	rcu_thread_offline();	/* liburcu 0.13 destroy may wait for a grace period */
#endif
	tap_ok(cds_lfht_destroy(ht, NULL) == 0, "cds_lfht_destroy");
	rcu_barrier();
#if defined(TEST_FLAVOR_QSBR)
	rcu_thread_online();
#endif
	rcu_unregister_thread();
	return tap_done();
}
