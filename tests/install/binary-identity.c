// SPDX-License-Identifier: MIT
/*
 * A small liburcu program, compiled once against Debian's liburcu and once
 * against ours by check-binary-identity.sh, to show which library a binary
 * binds to.  It uses the default (memb) flavor's grace period and call_rcu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <urcu.h>

struct obj {
	struct rcu_head rh;
	int v;
};

static void free_obj(struct rcu_head *rh)
{
	free(caa_container_of(rh, struct obj, rh));
}

int main(void)
{
	struct obj *o = malloc(sizeof(*o));

	if (!o)
		return 1;
	rcu_register_thread();
	rcu_read_lock();
	o->v = 1;
	rcu_read_unlock();
	synchronize_rcu();
	call_rcu(&o->rh, free_obj);
	rcu_barrier();
	rcu_unregister_thread();
	puts("binary-identity: ran");
	return 0;
}
