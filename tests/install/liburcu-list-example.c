// SPDX-License-Identifier: MIT
/*
 * A program written for liburcu's qsbr flavor, in the style of liburcu's
 * documentation: register, publish list elements with cds_list_add_rcu,
 * traverse with cds_list_for_each_entry_rcu, remove, synchronize_rcu, free.
 * The install test compiles it unchanged against the installed headers with
 * `pkg-config --cflags --libs liburcu-qsbr` and runs it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <urcu-qsbr.h>
#include <urcu/rculist.h>

struct mynode {
	int value;
	struct cds_list_head node;
};

static CDS_LIST_HEAD(mylist);
static int stop;

static void *reader(void *arg)
{
	long seen = 0;

	(void) arg;
	rcu_register_thread();
	while (!CMM_LOAD_SHARED(stop)) {
		struct mynode *n;

		rcu_read_lock();
		cds_list_for_each_entry_rcu(n, &mylist, node) {
			if (n->value < 0) {
				fprintf(stderr, "reader saw a freed node\n");
				exit(1);
			}
			seen++;
		}
		rcu_read_unlock();
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return (void *) seen;
}

int main(void)
{
	pthread_t tid;
	struct mynode *n, *tmp;
	void *seen;
	int i;

	rcu_register_thread();
	if (pthread_create(&tid, NULL, reader, NULL))
		return 1;
	for (i = 0; i < 2000; i++) {
		n = malloc(sizeof(*n));
		if (!n)
			return 1;
		n->value = i;
		cds_list_add_rcu(&n->node, &mylist);
		if (i % 4 == 3) {
			/* remove the oldest element */
			n = cds_list_entry(mylist.prev, struct mynode, node);
			cds_list_del_rcu(&n->node);
			synchronize_rcu();
			n->value = -1;
			free(n);
		}
	}
	CMM_STORE_SHARED(stop, 1);
	pthread_join(tid, &seen);
	cds_list_for_each_entry_safe(n, tmp, &mylist, node) {
		cds_list_del(&n->node);
		free(n);
	}
	rcu_unregister_thread();
	printf("ok: reader visited %ld nodes\n", (long) seen);
	return 0;
}
