// SPDX-License-Identifier: MIT
/*
 * The consumer's program: qsbr through its umbrella header and generic
 * names, a wait-free concurrent queue from liburcu-common, and, where the
 * header exists, the lock-free stack of liburcu-cds.  Prints one line per
 * check and "consumer: ok" when all passed.
 */
#include <stdio.h>
#include <stdlib.h>

#include <urcu-qsbr.h>
#include <urcu/wfcqueue.h>
/* The lock-free stack of liburcu-cds, once the header exists. */
#if defined(__has_include)
# if __has_include(<urcu/lfstack.h>)
#  include <urcu/lfstack.h>
#  define HAVE_URCU_LFSTACK 1
# endif
#endif

struct item {
	int value;
	struct rcu_head rcu;
	struct cds_wfcq_node qnode;
#ifdef HAVE_URCU_LFSTACK
	struct cds_lfs_node snode;
#endif
};

static struct item *shared;
static int freed;

static void free_item(struct rcu_head *head)
{
	struct item *it = caa_container_of(head, struct item, rcu);

	freed += it->value;
	free(it);
}

static int check(int ok, const char *what)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	return ok;
}

int main(void)
{
	struct item *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)), *seen;
	struct cds_wfcq_head qhead;
	struct cds_wfcq_tail qtail;
	struct cds_wfcq_node *qn;
	int ok = 1;

	if (!a || !b)
		return 2;
	a->value = 1;
	b->value = 2;

	rcu_register_thread();
	rcu_assign_pointer(shared, a);
	rcu_read_lock();
	seen = rcu_dereference(shared);
	rcu_read_unlock();
	ok &= check(seen == a, "qsbr read side");
	rcu_assign_pointer(shared, b);
	synchronize_rcu();
	call_rcu(&a->rcu, free_item);
	rcu_barrier();
	ok &= check(freed == 1, "qsbr synchronize_rcu, call_rcu, rcu_barrier");
	rcu_quiescent_state();

	cds_wfcq_init(&qhead, &qtail);
	cds_wfcq_node_init(&b->qnode);
	cds_wfcq_enqueue(&qhead, &qtail, &b->qnode);
	qn = cds_wfcq_dequeue_blocking(&qhead, &qtail);
	ok &= check(qn == &b->qnode && cds_wfcq_empty(&qhead, &qtail),
		    "wfcqueue enqueue/dequeue");
	cds_wfcq_destroy(&qhead, &qtail);

#ifdef HAVE_URCU_LFSTACK
	{
		struct cds_lfs_stack s;
		struct cds_lfs_node *sn;

		cds_lfs_init(&s);
		cds_lfs_node_init(&b->snode);
		cds_lfs_push(&s, &b->snode);
		sn = cds_lfs_pop_blocking(&s);
		ok &= check(sn == &b->snode && cds_lfs_empty(&s), "lfstack push/pop");
		cds_lfs_destroy(&s);
	}
#else
	printf("lfstack: not available\n");
#endif

	rcu_unregister_thread();
	free(b);
	printf("consumer: %s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}
