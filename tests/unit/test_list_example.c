// SPDX-License-Identifier: MIT
/*
 * A program written the way liburcu's documentation teaches, using only the
 * generic names of the qsbr umbrella header: it must compile unchanged and
 * run.  It keeps a list of integers; a reader thread sums it under
 * rcu_read_lock with cds_list_for_each_entry_rcu and announces quiescent
 * states, while the main thread adds nodes with cds_list_add_rcu, then
 * removes them with cds_list_del_rcu + synchronize_rcu + free (poisoning the
 * node first, so a reader that could still see it notices).  Exit status
 * 0 when the sums seen are consistent and the final list is as expected.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <urcu-qsbr.h>		/* qsbr flavor, generic names */
#include <urcu/rculist.h>	/* RCU list traversal and updates */
#include <urcu/compiler.h>	/* caa_container_of, CMM_LOAD_SHARED */

struct mynode {
	int value;			/* always a multiple of 10 */
	struct cds_list_head node;	/* linkage in mylist */
};

static CDS_LIST_HEAD(mylist);
static int stop_reader;
static int reader_errors;

static void *reader_thread(void *arg)
{
	unsigned long passes = 0;

	(void) arg;
	rcu_register_thread();
	while (!CMM_LOAD_SHARED(stop_reader)) {
		struct mynode *node;
		long sum = 0;

		rcu_read_lock();
		cds_list_for_each_entry_rcu(node, &mylist, node)
			sum += node->value;
		rcu_read_unlock();
		if (sum % 10 != 0)
			reader_errors++;
		rcu_quiescent_state();
		passes++;
	}
	rcu_unregister_thread();
	printf("reader: %lu passes\n", passes);
	return NULL;
}

int main(void)
{
	struct mynode *node, *n;
	pthread_t reader;
	long sum = 0;
	int count = 0;
	int i;

	rcu_register_thread();
	if (pthread_create(&reader, NULL, reader_thread, NULL)) {
		fprintf(stderr, "pthread_create failed\n");
		return 1;
	}

	for (i = 1; i <= 100; i++) {
		node = malloc(sizeof(*node));
		if (!node)
			return 1;
		node->value = i * 10;
		cds_list_add_rcu(&node->node, &mylist);
		rcu_quiescent_state();
	}

	rcu_read_lock();
	cds_list_for_each_entry_rcu(node, &mylist, node) {
		sum += node->value;
		count++;
	}
	rcu_read_unlock();
	if (count != 100 || sum != 50500) {
		fprintf(stderr, "after adding: %d nodes, sum %ld (want 100, 50500)\n", count, sum);
		return 1;
	}

	/* Remove every odd multiple of 10, one grace period per removal. */
	cds_list_for_each_entry_safe(node, n, &mylist, node) {
		if ((node->value / 10) % 2) {
			cds_list_del_rcu(&node->node);
			synchronize_rcu();
			node->value = 1;	/* a reader that still sees it notices */
			free(node);
		}
	}

	sum = 0;
	count = 0;
	rcu_read_lock();
	cds_list_for_each_entry_rcu(node, &mylist, node) {
		sum += node->value;
		count++;
	}
	rcu_read_unlock();

	CMM_STORE_SHARED(stop_reader, 1);
	rcu_thread_offline();
	pthread_join(reader, NULL);
	rcu_thread_online();

	cds_list_for_each_entry_safe(node, n, &mylist, node) {
		cds_list_del_rcu(&node->node);
		free(node);
	}
	rcu_unregister_thread();

	if (count != 50 || sum != 25500 || reader_errors) {
		fprintf(stderr, "after removing: %d nodes, sum %ld, %d reader errors "
			"(want 50, 25500, 0)\n", count, sum, reader_errors);
		return 1;
	}
	printf("ok: 50 nodes left, sum 25500\n");
	return 0;
}
