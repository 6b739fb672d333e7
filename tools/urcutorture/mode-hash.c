/* SPDX-License-Identifier: MIT */
/*
 * hash mode: the RCU lock-free resizable hash table of liburcu-cds
 * (urcu/rculfhash.h) under lookups, traversals, every unique-insertion
 * update and resize storms.
 *
 * Two tables per combination, both created with cds_lfht_new_flavor() and
 * the flavor's struct rcu_flavor_struct:
 *   fixed - CDS_LFHT_ACCOUNTING, 1024 buckets at start (1..2^16); only the
 *           resizer changes its size, alternating between 1..8 buckets and
 *           2^10..2^16 buckets;
 *   auto  - CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, 1 bucket at start
 *           (up to 2^20); grows and shrinks on its own as the updaters fill
 *           and drain it, and the resizer now and then forces a size too.
 * Each table holds 1024 stable keys, inserted at setup and never touched
 * again, and a range of churn keys (4096 in fixed, 32768 in auto) that the
 * updaters insert and remove.  Keys are hashed by a bijective 64-bit mixer,
 * so two keys of a table never share a hash.
 *
 * Threads.  Readers (--readers, default one per CPU) look up random stable
 * and churn keys, linger, and walk the duplicates; now and then they
 * traverse a whole table.  Updaters (--updaters, default 2) pick a churn key
 * and call add_unique, add_replace, replace (after a lookup) or del (after a
 * lookup), in alternating fill and drain phases of 250 ms (mostly inserts,
 * then mostly removals) so that the auto table resizes itself both ways.
 * Every node an update removed goes to the flavor's call_rcu (through the
 * tool's callback accounting); the callback poisons it and frees it.  The
 * resizer calls cds_lfht_resize back to back with short pauses (offline
 * while resizing under qsbr, as the table requires).  Updaters never call
 * cds_lfht_add, so the table's uniqueness rule applies to every key.
 *
 * Every node carries a magic word, LIVE until its reclaim callback, POISON
 * after, and its key.  Every time a thread touches a node it checks the
 * magic: after a lookup or next_duplicate, on every node of a traversal,
 * on the node add_unique found or add_replace replaced, and inside the match
 * function the table calls on the nodes it walks past.
 *
 * What each check catches, and why it cannot fire on a correct library:
 *
 * poisoned_node - a node whose magic is not LIVE was reached.  A node is
 *   poisoned only by its reclaim callback, posted after a del, replace or
 *   add_replace removed it.  By the table's removal rule, a read that can
 *   still reach a removed node is one whose critical section began before
 *   the removal's critical section ended; the callback runs only after a
 *   grace period that began after the removal (call_rcu is posted after the
 *   update returned), and that grace period waits for every such read.  So
 *   within a critical section every node reached keeps its magic, also
 *   after lingering (the readers recheck).  A node add_unique returned as
 *   present, or add_replace returned as replaced, was in the table, not
 *   removed, when the call saw it, hence not reclaimed.  With the busted
 *   flavor the callback runs at once and readers still holding the node, or
 *   walking past it, see POISON.
 *
 * stable_missing - a lookup of a stable key found nothing (or a node of
 *   another key).  A stable key's node is in the table from setup to the
 *   end; read-after-write and the size-independence of the list order mean
 *   every lookup finds it, whatever resizes run meanwhile.
 *
 * traversal_missing - a full traversal (first/next), or the final walk, did
 *   not meet a stable key.  A traversal meets every node present throughout
 *   it exactly once, across any resizes.
 *
 * duplicate_key - two live nodes of one key met by one traversal, or by one
 *   lookup and its next_duplicate walk.  Every insertion goes through
 *   add_unique, add_replace or replace (same key), so the uniqueness rule
 *   forbids it; a stable key met twice breaks "exactly once" as well.
 *
 * count_mismatch - once quiet (threads joined, callbacks run), the table
 *   does not hold what the updaters' results say.  Each churn key keeps a
 *   signed count, changed only by results the contract defines: +1 when
 *   add_unique returned the new node or add_replace returned NULL (added),
 *   -1 when del returned 0; a successful replace or add_replace that
 *   replaced leaves it.  Of two racing removals exactly one gets 0, and of
 *   two racing unique insertions exactly one inserts, so each count ends at
 *   0 or 1, and it must equal the number of that key's nodes met by the
 *   final walk; cds_lfht_count_nodes and the walk's own count must both
 *   equal the stable keys plus the sum of the counts.
 *
 * bad_result - a return value the contract rules out: replace of a node
 *   found by lookup with the same hash and key giving -EINVAL, del giving
 *   anything but 0 or -ENOENT, a node of the wrong key handed back, a key
 *   out of range, cds_lfht_destroy of an emptied table failing.
 *
 * The busted flavor.  Its call_rcu runs the callback on the spot, so nodes
 * are poisoned while readers may hold them.  The tables themselves stay
 * sound: they are created with the base flavor's real rcu_flavor_struct (so
 * their own bucket memory is reclaimed correctly), the poison touches only
 * the tool's fields (never the struct cds_lfht_node), and busted nodes are
 * never freed during the run (the callback puts them on a graveyard freed
 * after the threads are joined), so nothing is ever reused and every check
 * reads mapped memory: busted ends in FAILURE through poisoned_node, never
 * in a crash.  The graveyard is capped; at the cap the updaters idle.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/compiler.h>
#include <urcu/flavor.h>
#include <urcu/rculfhash.h>

#include "callbacks.h"
#include "json.h"
#include "reclaim.h"

enum { H_READER, H_UPDATER, H_RESIZER };

static void *h_reader(struct ut_thread *t);
static void *h_updater(struct ut_thread *t);
static void *h_resizer(struct ut_thread *t);

static const struct ut_mode_role h_roles[] = {
	[H_READER] = { "reader", UT_ROLE_READER, true, h_reader },
	[H_UPDATER] = { "updater", UT_ROLE_UPDATER, false, h_updater },
	[H_RESIZER] = { "resizer", UT_ROLE_UPDATER, false, h_resizer },
};

enum { HE_STABLE, HE_POISON, HE_DUP, HE_TRAV_MISS, HE_COUNT, HE_BAD };
static const char *const h_errors[] = {
	"stable_missing", "poisoned_node", "duplicate_key", "traversal_missing",
	"count_mismatch", "bad_result", NULL
};

enum { HOP_ADD_UNIQUE, HOP_ADD_REPLACE, HOP_REPLACE, HOP_DEL, HOP_COUNT };
static const char *const hop_names[HOP_COUNT] = { "add_unique", "add_replace", "replace", "del" };

enum { HT_FIXED, HT_AUTO, HT_COUNT };

#define HN_LIVE		0x4a5e11feu
#define HN_POISON	0xdeadbeefu
#define H_STABLE	1024
#define H_GRAVE_MAX	(1u << 18)	/* busted: nodes kept unfreed */
#define H_PHASE_NS	250000000ull	/* fill / drain half-period */

static const struct {
	const char *name;
	int flags;
	unsigned long init, max, nchurn;
} h_specs[HT_COUNT] = {
	[HT_FIXED] = { "fixed", CDS_LFHT_ACCOUNTING, 1024, 1ul << 16, 4096 },
	[HT_AUTO] = { "auto", CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, 1, 1ul << 20, 32768 },
};

struct hnode {
	struct cds_lfht_node lfht;	/* the table's; never poisoned */
	uint64_t key;
	uint32_t magic;		/* HN_*; relaxed (poison races only when busted) */
	uint32_t table;
	struct ut_run *run;
	struct ut_dead grave;	/* graveyard, or finish's list to free */
	struct ut_cb cb;
};

struct htable {
	struct cds_lfht *ht;
	uint64_t seed;		/* hash salt */
	unsigned long nkeys;	/* H_STABLE stable keys, then the churn keys */
	int32_t *present;	/* per churn key: net insertions; relaxed atomics */
};

struct hrun {
	struct htable tab[HT_COUNT];
	uint64_t t0;
	struct ut_deadlist graveyard;	/* busted: poisoned nodes, freed by finish */
};

struct h_counts {
	uint64_t lookups, hits;
	uint64_t walks, walked;
	uint64_t op[HOP_COUNT], op_ok[HOP_COUNT];
	uint64_t resizes[HT_COUNT];
	uint64_t resize_ns, resize_max_ns;
};

struct h_result {
	struct h_counts c;
	uint64_t final_nodes[HT_COUNT];		/* met by the final walk */
	uint64_t counted_nodes[HT_COUNT];	/* cds_lfht_count_nodes */
	uint64_t expected_nodes[HT_COUNT];
	uint64_t graveyard;
};

/* What a lookup matches: the key, and where the match function counts poison. */
struct hkey {
	uint64_t key;
	uint64_t *poison;	/* the calling thread's counter */
};

static struct hrun *hrun_of(struct ut_run *run)
{
	return run->mode_data;
}

static unsigned long h_hash(const struct htable *tb, uint64_t key)
{
	/* splitmix64's finalizer: a bijection, so distinct keys never collide. */
	uint64_t z = key + tb->seed;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (unsigned long)(z ^ (z >> 31));
}

static bool h_live(struct hnode *n)
{
	return __atomic_load_n(&n->magic, __ATOMIC_RELAXED) == HN_LIVE;
}

/*
 * Read a node's key into *key; true if the node is live.  The key is read
 * first, with acquire, pairing with the release store of the poisoned key
 * in h_reclaim (which poisons the magic before it): a key read from a
 * poisoned node comes with a poisoned magic, so a race with the poisoning
 * (busted only) counts as poison, never as a wrong key.
 */
static bool h_read(struct hnode *n, uint64_t *key)
{
	*key = __atomic_load_n(&n->key, __ATOMIC_ACQUIRE);
	return h_live(n);
}

/*
 * The table calls this on nodes of the looked-up hash that it has not seen
 * removed, in the caller's thread and critical section: a poisoned one is
 * a reclaimed node still reachable.
 */
static int h_match(struct cds_lfht_node *node, const void *arg)
{
	const struct hkey *hk = arg;
	struct hnode *n = caa_container_of(node, struct hnode, lfht);
	uint64_t key;

	if (!h_read(n, &key)) {
		ut_count(hk->poison, 1);
		return 0;
	}
	return key == hk->key;
}

/* ---- reclamation ---- */

static void h_reclaim(struct rcu_head *head)
{
	struct hnode *n = caa_container_of(head, struct hnode, cb.head);
	struct ut_run *run = n->run;

	if (ut_cb_begin(run, &n->cb)) {
		struct hrun *hr = hrun_of(run);

		/*
		 * After a real grace period nobody reads them.  Under busted,
		 * the release orders the magic's poison before the key's:
		 * pairs with the acquire load of the key in h_read.
		 */
		__atomic_store_n(&n->magic, HN_POISON, __ATOMIC_RELAXED);
		__atomic_store_n(&n->key, UINT64_MAX, __ATOMIC_RELEASE);
		ut_reclaim_dispose(run, &hr->graveyard, &n->grave, n);
	}
	ut_cb_end(run);
}

static void h_retire(struct ut_thread *t, struct hnode *n)
{
	ut_cb_post(t->run, t, &n->cb, h_reclaim);
	ut_count(&t->posted, 1);
	ut_outstanding_note(t->run);
}

static struct hnode *h_new(struct ut_run *run, int table, uint64_t key)
{
	struct hnode *n = malloc(sizeof(*n));

	if (!n)
		return NULL;
	memset(n, 0, sizeof(*n));
	cds_lfht_node_init(&n->lfht);
	n->key = key;
	n->magic = HN_LIVE;
	n->table = (uint32_t)table;
	n->run = run;
	return n;
}

/* ---- readers ---- */

static void h_lookup(struct ut_thread *t, struct htable *tb, struct h_counts *c)
{
	const struct ut_flavor_ops *ops = t->run->ops;
	uint64_t r = ut_rng_next(&t->rng);
	bool stable = r & 1;
	struct hkey hk = { .poison = &t->mode_errors[HE_POISON] };
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	hk.key = stable ? (r >> 1) % H_STABLE : H_STABLE + (r >> 1) % (tb->nkeys - H_STABLE);
	ops->read_lock();
	cds_lfht_lookup(tb->ht, h_hash(tb, hk.key), h_match, &hk, &iter);
	node = cds_lfht_iter_get_node(&iter);
	if (node) {
		struct hnode *n = caa_container_of(node, struct hnode, lfht);
		uint64_t key;

		if (!h_read(n, &key))
			ut_count(&t->mode_errors[HE_POISON], 1);
		else if (key != hk.key)
			ut_count(&t->mode_errors[stable ? HE_STABLE : HE_BAD], 1);
		/* linger: 20-50 us once in 4096, 0.3-2.3 us once in 16 */
		ut_reader_linger(t, 0xfff, 0xf, 300);
		/* Still inside the section: the node cannot be reclaimed yet. */
		if (!h_live(n))
			ut_count(&t->mode_errors[HE_POISON], 1);
		cds_lfht_next_duplicate(tb->ht, h_match, &hk, &iter);
		node = cds_lfht_iter_get_node(&iter);
		if (node) {
			if (h_live(caa_container_of(node, struct hnode, lfht)))
				ut_count(&t->mode_errors[HE_DUP], 1);
			else
				ut_count(&t->mode_errors[HE_POISON], 1);
		}
		ut_count(&c->hits, 1);
	} else if (stable) {
		ut_count(&t->mode_errors[HE_STABLE], 1);
	}
	ops->read_unlock();
	ops->quiescent_state();
	ut_count(&c->lookups, 1);
	ut_count(&t->reads, 1);
}

/*
 * One full traversal inside one critical section: every node live, no key
 * twice, every stable key met.  seen[] holds this reader's stamp per key.
 * Every node met is kept in held[] (room for nheld) and checked again at
 * the end of the section, after sleeping 50-250 us: each was reachable
 * inside the section, so each must still be live; a node removed and
 * reclaimed meanwhile (busted) shows its poison here.
 */
static void h_walk(struct ut_thread *t, struct htable *tb, uint32_t *seen, uint32_t stamp,
		   struct hnode **held, size_t nheld, struct h_counts *c)
{
	const struct ut_flavor_ops *ops = t->run->ops;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	uint64_t visited = 0, missing = 0;
	size_t nkept = 0;

	ops->read_lock();
	cds_lfht_first(tb->ht, &iter);
	while ((node = cds_lfht_iter_get_node(&iter))) {
		struct hnode *n = caa_container_of(node, struct hnode, lfht);
		uint64_t key;

		if (!h_read(n, &key)) {
			ut_count(&t->mode_errors[HE_POISON], 1);
		} else {
			if (key >= tb->nkeys)
				ut_count(&t->mode_errors[HE_BAD], 1);
			else if (seen[key] == stamp)
				ut_count(&t->mode_errors[HE_DUP], 1);
			else
				seen[key] = stamp;
			if (nkept < nheld)
				held[nkept++] = n;
		}
		visited++;
		cds_lfht_next(tb->ht, &iter);
	}
	/*
	 * Traversals are rare (1 in 1024 reads): linger longer than after a
	 * lookup, asleep, so that updaters get to remove some of the nodes
	 * held even on a machine with fewer free CPUs than threads.  (A
	 * userspace RCU reader may block; it only delays grace periods.)
	 */
	if (t->run->cfg->read_delay_ns)
		ut_spin_ns(t->run->cfg->read_delay_ns);
	else
		ut_sleep_ns(50000 + ut_rng_below(&t->rng, 200000));
	for (size_t k = 0; k < nkept; k++)
		if (!h_live(held[k]))
			ut_count(&t->mode_errors[HE_POISON], 1);
	ops->read_unlock();
	ops->quiescent_state();
	for (unsigned long k = 0; k < H_STABLE; k++)
		if (seen[k] != stamp)
			missing++;
	if (missing)
		ut_count(&t->mode_errors[HE_TRAV_MISS], missing);
	ut_count(&c->walks, 1);
	ut_count(&c->walked, visited);
}

static void *h_reader(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	struct hrun *hr = hrun_of(run);
	struct h_counts *c = t->mode_data;
	uint32_t *seen[HT_COUNT], stamp = 0;
	size_t nheld = hr->tab[HT_AUTO].nkeys;	/* the larger key range */
	struct hnode **held = calloc(nheld, sizeof(*held));

	for (int i = 0; i < HT_COUNT; i++)
		seen[i] = calloc(hr->tab[i].nkeys, sizeof(*seen[i]));
	ut_thread_begin(t);
	while (seen[HT_FIXED] && seen[HT_AUTO] && held && !ut_should_stop(run)) {
		uint64_t r = ut_rng_next(&t->rng);
		int tab = (int)(r & 1);

		if (((r >> 1) & 0x3ff) == 0) {
			ut_thread_set_state(t, "traversal");
			h_walk(t, &hr->tab[tab], seen[tab], ++stamp, held, nheld, c);
		} else {
			ut_thread_set_state(t, "lookup");
			h_lookup(t, &hr->tab[tab], c);
		}
		ut_count(&t->progress, 1);
	}
	ut_thread_end(t);
	for (int i = 0; i < HT_COUNT; i++)
		free(seen[i]);
	free(held);
	return NULL;
}

/* ---- updaters ---- */

/* One update in progress: its table, key and hash, and the new node. */
struct h_op {
	struct ut_thread *t;
	struct htable *tb;
	struct h_counts *c;
	const struct ut_flavor_ops *ops;
	uint64_t key;
	unsigned long hash;
	struct hkey hk;		/* what h_match compares against */
	struct hnode *n;	/* the node to insert; NULL for del */
	int op;			/* HOP_* */
};

/* The operation for pick (0..99): mostly insertions while filling, removals while draining. */
static int h_pick_op(unsigned int pick, bool fill)
{
	if (fill)
		return pick < 35 ? HOP_ADD_UNIQUE : pick < 60 ? HOP_ADD_REPLACE :
		       pick < 80 ? HOP_REPLACE : HOP_DEL;
	return pick < 10 ? HOP_ADD_UNIQUE : pick < 20 ? HOP_ADD_REPLACE :
	       pick < 30 ? HOP_REPLACE : HOP_DEL;
}

/* Check a node the table handed back for o's key: false if it is poisoned. */
static bool h_check_returned(const struct h_op *o, struct hnode *old)
{
	uint64_t old_key;

	if (!h_read(old, &old_key)) {
		ut_count(&o->t->mode_errors[HE_POISON], 1);
		return false;
	}
	if (old_key != o->key)
		ut_count(&o->t->mode_errors[HE_BAD], 1);
	return true;
}

/* add_unique: insert o->n unless the key is in; counted +1 if it went in. */
static void h_add_unique(struct h_op *o)
{
	struct cds_lfht_node *ret;

	ut_thread_set_state(o->t, "cds_lfht_add_unique");
	o->ops->read_lock();
	ret = cds_lfht_add_unique(o->tb->ht, o->hash, h_match, &o->hk, &o->n->lfht);
	if (ret != &o->n->lfht)
		h_check_returned(o, caa_container_of(ret, struct hnode, lfht));
	o->ops->read_unlock();
	if (ret == &o->n->lfht) {
		__atomic_add_fetch(&o->tb->present[o->key - H_STABLE], 1, __ATOMIC_RELAXED);
		ut_count(&o->c->op_ok[o->op], 1);
	} else {
		free(o->n);	/* never published */
	}
}

/* add_replace: insert o->n, retiring the node it replaced (none: counted +1). */
static void h_add_replace(struct h_op *o)
{
	struct cds_lfht_node *ret;
	struct hnode *old = NULL;

	ut_thread_set_state(o->t, "cds_lfht_add_replace");
	o->ops->read_lock();
	ret = cds_lfht_add_replace(o->tb->ht, o->hash, h_match, &o->hk, &o->n->lfht);
	if (ret) {
		old = caa_container_of(ret, struct hnode, lfht);
		/* Reclaimed while in the table: never retire it twice. */
		if (!h_check_returned(o, old))
			old = NULL;
	}
	o->ops->read_unlock();
	if (!ret) {
		__atomic_add_fetch(&o->tb->present[o->key - H_STABLE], 1, __ATOMIC_RELAXED);
	} else {
		ut_count(&o->c->op_ok[o->op], 1);	/* counts replacements */
		if (old)
			h_retire(o->t, old);
	}
}

/*
 * replace (o->n set) or del (o->n NULL): look the key up and, in the same
 * critical section, put o->n in place of the node found or delete it; the
 * node taken out is retired, and a deletion counts -1.
 */
static void h_replace_or_del(struct h_op *o)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	int rc = 0;

	ut_thread_set_state(o->t, o->n ? "cds_lfht_replace" : "cds_lfht_del");
	o->ops->read_lock();
	cds_lfht_lookup(o->tb->ht, o->hash, h_match, &o->hk, &iter);
	node = cds_lfht_iter_get_node(&iter);
	if (node && o->n)
		rc = cds_lfht_replace(o->tb->ht, &iter, o->hash, h_match, &o->hk, &o->n->lfht);
	else if (node)
		rc = cds_lfht_del(o->tb->ht, node);
	o->ops->read_unlock();
	if (node && rc == 0) {
		if (!o->n)
			__atomic_sub_fetch(&o->tb->present[o->key - H_STABLE], 1, __ATOMIC_RELAXED);
		ut_count(&o->c->op_ok[o->op], 1);
		h_retire(o->t, caa_container_of(node, struct hnode, lfht));
	} else {
		if (node && rc != -ENOENT)
			ut_count(&o->t->mode_errors[HE_BAD], 1);
		free(o->n);	/* never published (del: NULL) */
	}
}

/* One random update of a churn key of tb (table: its index). */
static void h_update(struct ut_thread *t, struct htable *tb, int table, bool fill,
		     struct h_counts *c)
{
	uint64_t r = ut_rng_next(&t->rng);
	struct h_op o = {
		.t = t, .tb = tb, .c = c, .ops = t->run->ops,
		.key = H_STABLE + (r & 0xffffffffu) % (tb->nkeys - H_STABLE),
		.op = h_pick_op((unsigned int)((r >> 32) % 100), fill),
	};

	o.hk = (struct hkey){ .key = o.key, .poison = &t->mode_errors[HE_POISON] };
	o.hash = h_hash(tb, o.key);
	if (o.op != HOP_DEL) {
		o.n = h_new(t->run, table, o.key);
		if (!o.n) {
			ut_thread_set_state(t, "out of memory");
			ut_rcu_pause(t, 1000000);
			return;
		}
	}
	ut_count(&c->op[o.op], 1);
	if (o.op == HOP_ADD_UNIQUE)
		h_add_unique(&o);
	else if (o.op == HOP_ADD_REPLACE)
		h_add_replace(&o);
	else
		h_replace_or_del(&o);
	o.ops->quiescent_state();
	ut_count(&t->updates, 1);
}

static void *h_updater(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	struct hrun *hr = hrun_of(run);
	struct h_counts *c = t->mode_data;

	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		uint64_t r = ut_rng_next(&t->rng);
		int tab = (int)(r & 1);
		bool fill = ((ut_now_ns() - hr->t0) / H_PHASE_NS) % 2 == 0;

		if (ut_reclaim_bound(t, &hr->graveyard, H_GRAVE_MAX))
			continue;
		h_update(t, &hr->tab[tab], tab, fill, c);
		ut_count(&t->progress, 1);
	}
	ut_thread_end(t);
	return NULL;
}

/* ---- the resizer ---- */

static void *h_resizer(struct ut_thread *t)
{
	struct ut_run *run = t->run;
	const struct ut_flavor_ops *ops = run->ops;
	struct hrun *hr = hrun_of(run);
	struct h_counts *c = t->mode_data;
	unsigned long i = 0, nfixed = 0;

	ut_thread_begin(t);
	while (!ut_should_stop(run)) {
		int tab = (i++ % 3 == 1) ? HT_AUTO : HT_FIXED;
		unsigned long size;
		uint64_t t0, dt;

		/* fixed: large and small by turns; auto: any size, now and then. */
		if (tab == HT_AUTO)
			size = 1ul << ut_rng_below(&t->rng, 17);
		else if (nfixed++ & 1)
			size = 1ul << ut_rng_below(&t->rng, 4);
		else
			size = 1ul << (10 + ut_rng_below(&t->rng, 7));
		ut_thread_set_state(t, "cds_lfht_resize");
		/* The table requires it: no read-side section, offline under qsbr. */
		if (ops->is_qsbr)
			ops->thread_offline();
		t0 = ut_now_ns();
		cds_lfht_resize(hr->tab[tab].ht, size);
		dt = ut_now_ns() - t0;
		if (ops->is_qsbr)
			ops->thread_online();
		ut_count(&c->resizes[tab], 1);
		ut_count(&c->resize_ns, dt);
		if (dt > c->resize_max_ns)	/* single writer, as ut_count */
			__atomic_store_n(&c->resize_max_ns, dt, __ATOMIC_RELAXED);
		ut_count(&t->progress, 1);
		ut_thread_set_state(t, "between resizes");
		ut_rcu_pause(t, ut_rng_below(&t->rng, 500000));
	}
	ut_thread_end(t);
	return NULL;
}

/* ---- the mode's table ---- */

static void h_count(const struct ut_config *cfg, int n[], bool posts[])
{
	n[H_READER] = cfg->readers;
	n[H_UPDATER] = cfg->updaters;
	n[H_RESIZER] = 1;
	posts[H_UPDATER] = true;
}

/* Two updaters, so that unique insertions and removals race, unless told. */
static int h_configure(struct ut_config *cfg, char *err, size_t len)
{
	(void)err;
	(void)len;
	if (!ut_given(cfg, "updaters"))
		cfg->updaters = 2;
	return 0;
}

static int h_setup(struct ut_run *run)
{
	const struct ut_flavor_ops *ops = run->ops;
	struct hrun *hr = calloc(1, sizeof(*hr));
	uint64_t bad = 0;

	if (!hr)
		return -1;
	run->mode_data = hr;
	for (int i = 0; i < HT_COUNT; i++) {
		struct htable *tb = &hr->tab[i];

		tb->nkeys = H_STABLE + h_specs[i].nchurn;
		tb->seed = run->cfg->seed * 0x9e3779b97f4a7c15ull + (uint64_t)i;
		tb->present = calloc(h_specs[i].nchurn, sizeof(*tb->present));
		/* The real flavor, also under busted (see the top of the file). */
		tb->ht = cds_lfht_new_flavor(h_specs[i].init, 1, h_specs[i].max, h_specs[i].flags,
					     ops->rcu_flavor, NULL);
		if (!tb->present || !tb->ht) {
			snprintf(run->res->note, sizeof(run->res->note), "hash: %s",
				 tb->ht ? "out of memory" : "cds_lfht_new_flavor returned NULL");
			return -1;
		}
	}
	/* The controller is registered, offline under qsbr. */
	if (ops->is_qsbr)
		ops->thread_online();
	for (int i = 0; i < HT_COUNT; i++) {
		struct htable *tb = &hr->tab[i];

		for (uint64_t k = 0; k < H_STABLE; k++) {
			struct hnode *n = h_new(run, i, k);
			struct hkey hk = { .key = k, .poison = &bad };

			if (!n)
				break;
			ops->read_lock();
			if (cds_lfht_add_unique(tb->ht, h_hash(tb, k), h_match, &hk, &n->lfht) != &n->lfht) {
				bad++;
				free(n);
			}
			ops->read_unlock();
		}
	}
	if (ops->is_qsbr)
		ops->thread_offline();
	run->res->mode_errors[HE_BAD] += bad;
	hr->t0 = ut_now_ns();
	return 0;
}

/*
 * The final check of one table, quiet: every node live and of a known key,
 * stable keys once, churn keys as often as their counts say; then empty
 * it, collecting the nodes on dead.
 */
static void h_check_table(struct ut_run *run, int i, struct ut_deadlist *dead)
{
	const struct ut_flavor_ops *ops = run->ops;
	struct htable *tb = &hrun_of(run)->tab[i];
	struct h_result *res = run->res->mode_data;
	uint64_t *err = run->res->mode_errors;
	uint32_t *met = calloc(tb->nkeys, sizeof(*met));
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long counted = 0;
	long before = 0, after = 0;
	uint64_t walked = 0, expected = H_STABLE;

	if (!met) {
		err[HE_BAD]++;
		return;
	}
	ops->read_lock();
	cds_lfht_count_nodes(tb->ht, &before, &counted, &after);
	cds_lfht_for_each(tb->ht, &iter, node) {
		struct hnode *n = caa_container_of(node, struct hnode, lfht);
		uint64_t key;

		walked++;
		if (!h_read(n, &key))
			err[HE_POISON]++;
		else if (key >= tb->nkeys)
			err[HE_BAD]++;
		else
			met[key]++;
	}
	ops->read_unlock();
	for (unsigned long k = 0; k < tb->nkeys; k++) {
		int32_t p;

		if (k < H_STABLE) {
			if (met[k] == 0)
				err[HE_TRAV_MISS]++;
			else if (met[k] > 1)
				err[HE_DUP] += met[k] - 1;
			continue;
		}
		p = tb->present[k - H_STABLE];
		if (p < 0 || p > 1 || met[k] != (uint32_t)p)
			err[HE_COUNT]++;
		if (p > 0)
			expected += (uint64_t)p;
	}
	if (counted != expected)
		err[HE_COUNT]++;
	if (walked != expected)
		err[HE_COUNT]++;
	res->final_nodes[i] = walked;
	res->counted_nodes[i] = counted;
	res->expected_nodes[i] = expected;
	free(met);

	/* Empty the table for cds_lfht_destroy. */
	ops->read_lock();
	cds_lfht_for_each(tb->ht, &iter, node) {
		struct hnode *n = caa_container_of(node, struct hnode, lfht);

		if (cds_lfht_del(tb->ht, node) == 0) {
			ut_dead_push(dead, &n->grave);
		} else {
			err[HE_BAD]++;
		}
	}
	ops->read_unlock();
}

static void h_finish(struct ut_run *run)
{
	const struct ut_flavor_ops *ops = run->ops;
	struct hrun *hr = hrun_of(run);
	struct h_result *res = run->res->mode_data;
	struct ut_deadlist dead = { 0 };

	for (int i = 0; i < run->nthreads; i++) {
		const struct h_counts *c = run->threads[i].mode_data;

		res->c.lookups += c->lookups;
		res->c.hits += c->hits;
		res->c.walks += c->walks;
		res->c.walked += c->walked;
		for (int o = 0; o < HOP_COUNT; o++) {
			res->c.op[o] += c->op[o];
			res->c.op_ok[o] += c->op_ok[o];
		}
		for (int k = 0; k < HT_COUNT; k++)
			res->c.resizes[k] += c->resizes[k];
		res->c.resize_ns += c->resize_ns;
		if (c->resize_max_ns > res->c.resize_max_ns)
			res->c.resize_max_ns = c->resize_max_ns;
	}
	run->res->gp_lat_what = "none";
	if (!hr)
		return;

	/* Every thread is joined and every callback ran. */
	ut_ctl_step(run, "judge: the mode's finish: checking and emptying the tables");
	if (ops->is_qsbr)
		ops->thread_online();
	for (int i = 0; i < HT_COUNT; i++)
		if (hr->tab[i].ht && hr->tab[i].present)
			h_check_table(run, i, &dead);
	if (ops->is_qsbr)
		ops->thread_offline();
	/* The table's own grace period (real also under busted), then free. */
	ops->rcu_flavor->update_synchronize_rcu();
	ut_dead_free_all(&dead, offsetof(struct hnode, grave));
	ut_ctl_step(run, "judge: the mode's finish: cds_lfht_destroy");
	for (int i = 0; i < HT_COUNT; i++) {
		struct htable *tb = &hr->tab[i];

		if (tb->ht && cds_lfht_destroy(tb->ht, NULL))
			run->res->mode_errors[HE_BAD]++;
		free(tb->present);
	}
	res->graveyard = hr->graveyard.count;
	ut_dead_free_all(&hr->graveyard, offsetof(struct hnode, grave));
}

static void h_stat(struct ut_run *run, char *buf, size_t len)
{
	char cbs[96];
	uint64_t lookups = 0, walks = 0, updates = 0, resizes = 0;

	for (int i = 0; i < run->nthreads; i++) {
		const struct h_counts *c = run->threads[i].mode_data;

		lookups += ut_read(&c->lookups);
		walks += ut_read(&c->walks);
		updates += ut_read(&run->threads[i].updates);
		for (int k = 0; k < HT_COUNT; k++)
			resizes += ut_read(&c->resizes[k]);
	}
	ut_cbs_stat(run, cbs, sizeof(cbs));
	snprintf(buf, len, "lookups %llu traversals %llu updates %llu resizes %llu %s",
		 (unsigned long long)lookups, (unsigned long long)walks,
		 (unsigned long long)updates, (unsigned long long)resizes, cbs);
}

static double h_per_s(uint64_t n, double s)
{
	return s > 0 ? n / s : 0;
}

static uint64_t h_updates(const struct h_result *h)
{
	uint64_t u = 0;

	for (int o = 0; o < HOP_COUNT; o++)
		u += h->c.op[o];
	return u;
}

static uint64_t h_resizes(const struct h_result *h)
{
	return h->c.resizes[HT_FIXED] + h->c.resizes[HT_AUTO];
}

/* For the printf arguments below. */
#define ULL(x)	((unsigned long long)(x))

static void h_report(const struct ut_config *cfg, const struct ut_result *r, enum ut_section at)
{
	const struct h_result *h = r->mode_data;
	const struct h_counts *c;
	uint64_t u, rz;

	if (at != UT_SECTION_COUNTS || !h)
		return;
	c = &h->c;
	u = h_updates(h);
	rz = h_resizes(h);
	ut_out(&cfg->inv->sink, "  lookups         %llu (%.3g/s), %llu hits; traversals %llu (%llu nodes)\n",
	       ULL(c->lookups), h_per_s(c->lookups, r->seconds), ULL(c->hits), ULL(c->walks),
	       ULL(c->walked));
	ut_out(&cfg->inv->sink, "  hash updates    %llu (%.3g/s): add_unique %llu/%llu added, "
	       "add_replace %llu/%llu replaced, replace %llu/%llu, del %llu/%llu\n",
	       ULL(u), h_per_s(u, r->seconds),
	       ULL(c->op[HOP_ADD_UNIQUE]), ULL(c->op_ok[HOP_ADD_UNIQUE]),
	       ULL(c->op[HOP_ADD_REPLACE]), ULL(c->op_ok[HOP_ADD_REPLACE]),
	       ULL(c->op[HOP_REPLACE]), ULL(c->op_ok[HOP_REPLACE]),
	       ULL(c->op[HOP_DEL]), ULL(c->op_ok[HOP_DEL]));
	ut_out(&cfg->inv->sink, "  resizes         %llu (%.3g/s): fixed %llu, auto %llu; "
	       "mean %.3f ms, max %.3f ms\n",
	       ULL(rz), h_per_s(rz, r->seconds), ULL(c->resizes[HT_FIXED]), ULL(c->resizes[HT_AUTO]),
	       rz ? c->resize_ns / 1e6 / (double)rz : 0.0, c->resize_max_ns / 1e6);
	for (int i = 0; i < HT_COUNT; i++)
		ut_out(&cfg->inv->sink, "  table %-9s final %llu nodes (count_nodes %llu, expected %llu)\n",
		       h_specs[i].name, ULL(h->final_nodes[i]), ULL(h->counted_nodes[i]),
		       ULL(h->expected_nodes[i]));
	ut_graveyard_report(cfg, h->graveyard);
}

static void h_json(struct uj *j, const struct ut_config *cfg, const struct ut_result *r,
		   enum ut_section at)
{
	const struct h_result *h = r->mode_data;
	uint64_t u, rz;

	if (at != UT_SECTION_COUNTS || !h)
		return;
	u = h_updates(h);
	rz = h_resizes(h);
	uj_obj(j, "hash");
	uj_u64(j, "lookups", h->c.lookups);
	uj_dbl(j, "lookups_per_s", h_per_s(h->c.lookups, r->seconds));
	uj_u64(j, "lookup_hits", h->c.hits);
	uj_u64(j, "traversals", h->c.walks);
	uj_u64(j, "traversed_nodes", h->c.walked);
	uj_u64(j, "updates", u);
	uj_dbl(j, "updates_per_s", h_per_s(u, r->seconds));
	uj_obj(j, "update_ops");
	for (int o = 0; o < HOP_COUNT; o++) {
		uj_obj(j, hop_names[o]);
		uj_u64(j, "calls", h->c.op[o]);
		uj_u64(j, o == HOP_ADD_REPLACE ? "replaced" : o == HOP_ADD_UNIQUE ? "added" : "done",
		       h->c.op_ok[o]);
		uj_end_obj(j);
	}
	uj_end_obj(j);
	uj_u64(j, "resizes", rz);
	uj_dbl(j, "resizes_per_s", h_per_s(rz, r->seconds));
	uj_dbl(j, "resize_mean_ns", rz ? h->c.resize_ns / (double)rz : 0.0);
	uj_u64(j, "resize_max_ns", h->c.resize_max_ns);
	uj_arr(j, "tables");
	for (int i = 0; i < HT_COUNT; i++) {
		uj_obj(j, NULL);
		uj_str(j, "name", h_specs[i].name);
		uj_bool(j, "auto_resize", h_specs[i].flags & CDS_LFHT_AUTO_RESIZE);
		uj_u64(j, "explicit_resizes", h->c.resizes[i]);
		uj_u64(j, "final_nodes", h->final_nodes[i]);
		uj_u64(j, "count_nodes", h->counted_nodes[i]);
		uj_u64(j, "expected_nodes", h->expected_nodes[i]);
		uj_end_obj(j);
	}
	uj_end_arr(j);
	uj_u64(j, "busted_graveyard", h->graveyard);
	uj_end_obj(j);
}

const struct ut_mode_ops ut_mode_hash = {
	.name = "hash",
	.help = "hash: rculfhash lookups and traversals against add_unique,\n"
		"  add_replace, replace and del (--updaters, default 2) and a\n"
		"  resizer (explicit and auto-resize tables)",
	.roles = h_roles,
	.nroles = 3,
	.count = h_count,
	.thread_size = sizeof(struct h_counts),
	.result_size = sizeof(struct h_result),
	.errors = h_errors,
	.configure = h_configure,
	.setup = h_setup,
	.finish = h_finish,
	.stat_line = h_stat,
	.report = h_report,
	.json = h_json,
};
