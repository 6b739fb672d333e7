// SPDX-License-Identifier: MIT
/*
 * urcu/rculfhash.h from C++: the header compiles as C++ (extern "C", no
 * implicit void * conversions in its inline functions and macros) and the
 * API works when called from C++ code, including the four iteration
 * macros, cds_lfht_entry (0.15+), the allocator API (0.15+) and
 * node_init_deleted (0.14+).  Built per flavor, with and without
 * _LGPL_SOURCE.
 */
#include "hash-test.h"

#include <cerrno>

namespace {

struct item {
	int pad;		// the node is not the first member
	struct cds_lfht_node node;
	unsigned long key;
};

int item_match(struct cds_lfht_node *n, const void *key)
{
	return caa_container_of(n, struct item, node)->key == *static_cast<const unsigned long *>(key);
}

}	// namespace

int main()
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;
	struct item items[8], *pos;
	unsigned long k;
	int visits;

	T_FN(register_thread)();
	tap_diag("C++, flavor %s, %s", T_FLAVOR, T_MODE);

	struct cds_lfht *ht = cds_lfht_new_flavor(1, 1, 0,
		CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, HT_FLAVOR, nullptr);
	tap_ok(ht != nullptr, "C++: cds_lfht_new_flavor");
	if (!ht)
		return tap_done();

	visits = 0;
	t_lock();
	cds_lfht_for_each(ht, &iter, n)
		visits++;
	cds_lfht_for_each_entry(ht, &iter, pos, node)
		visits++;
	k = 3;
	cds_lfht_for_each_duplicate(ht, t_hash(k), item_match, &k, &iter, n)
		visits++;
	cds_lfht_for_each_entry_duplicate(ht, t_hash(k), item_match, &k, &iter, pos, node)
		visits++;
	t_reader_exit();
	tap_ok(visits == 0, "C++: the iteration macros on an empty table run no body");

	for (int i = 0; i < 8; i++) {
		items[i].pad = i;
		items[i].key = static_cast<unsigned long>(i % 4);	// each key twice
		cds_lfht_node_init(&items[i].node);
		t_lock();
		cds_lfht_add(ht, t_hash(items[i].key), &items[i].node);
		t_reader_exit();
	}
	visits = 0;
	t_lock();
	cds_lfht_for_each_entry(ht, &iter, pos, node)
		visits += pos->pad + 1;
	t_reader_exit();
	tap_ok(visits == 36, "C++: for_each_entry visits the 8 entries (%d)", visits);

	visits = 0;
	k = 3;
	t_lock();
	cds_lfht_for_each_entry_duplicate(ht, t_hash(k), item_match, &k, &iter, pos, node)
		visits += pos->key == 3 ? 1 : 100;
	t_reader_exit();
	tap_ok(visits == 2, "C++: for_each_entry_duplicate finds both entries of key 3");

	struct item spare;
	spare.pad = 100;
	spare.key = k;
	cds_lfht_node_init(&spare.node);
	t_lock();
	struct cds_lfht_node *ret = cds_lfht_add_unique(ht, t_hash(k), item_match, &k,
		&spare.node);
	t_reader_exit();
	tap_ok(ret == &items[3].node, "C++: add_unique of a present key returns the first one");

	t_lock();
	cds_lfht_lookup(ht, t_hash(k), item_match, &k, &iter);
	int r1 = cds_lfht_del(ht, cds_lfht_iter_get_node(&iter));
	int r2 = cds_lfht_del(ht, &items[3].node);
	t_reader_exit();
	tap_ok(r1 == 0 && r2 == -ENOENT && cds_lfht_is_node_deleted(&items[3].node),
		"C++: del, then -ENOENT");

	long before, after;
	unsigned long count;
	t_lock();
	cds_lfht_count_nodes(ht, &before, &count, &after);
	t_reader_exit();
	tap_ok(count == 7 && before == 7 && after == 7, "C++: count_nodes %lu (%ld, %ld)",
		count, before, after);

	t_resize(ht, 64);
	visits = 0;
	t_lock();
	cds_lfht_for_each(ht, &iter, n)
		visits++;
	t_reader_exit();
	tap_ok(visits == 7, "C++: resize, then a traversal sees the 7 nodes");

#if HT_HAVE_ENTRY
	tap_ok(cds_lfht_entry(static_cast<struct cds_lfht_node *>(nullptr), struct item, node)
		== nullptr, "C++: cds_lfht_entry(nullptr) is nullptr");
#else
	tap_skip("C++: cds_lfht_entry: liburcu 0.15+");
#endif
#if HT_HAVE_INIT_DELETED
	struct item extra;
	cds_lfht_node_init_deleted(&extra.node);
	tap_ok(cds_lfht_is_node_deleted(&extra.node) != 0, "C++: node_init_deleted");
#else
	tap_skip("C++: node_init_deleted: liburcu 0.14+");
#endif

	t_lock();
	cds_lfht_for_each(ht, &iter, n)
		cds_lfht_del(ht, n);
	t_reader_exit();
	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();	// items live on the stack
	T_FN(thread_online)();
	pthread_attr_t *attr = reinterpret_cast<pthread_attr_t *>(&visits);
	int dret = t_destroy(ht, &attr);
	tap_ok(dret == 0 && attr == nullptr, "C++: destroy: %d, attr handed back %s", dret,
		attr ? "wrong" : "NULL");

#if HT_HAVE_ALLOC
	struct t_meter m;
	struct cds_lfht_alloc a = t_meter_alloc(&m);
	ht = cds_lfht_new_with_flavor_alloc(1, 1, 0, 0, HT_FLAVOR, &a, nullptr);
	tap_ok(ht != nullptr && t_meter_allocs(&m) > 0 && t_destroy(ht, nullptr) == 0
		&& m.live_blocks == 0, "C++: cds_lfht_new_with_flavor_alloc");
#else
	tap_skip("C++: cds_lfht_alloc: liburcu 0.15+");
#endif

	t_barrier();
	T_FN(unregister_thread)();
	return tap_done();
}
