// SPDX-License-Identifier: MIT
/*
 * init/exit are idempotent and counted.
 *
 * The library's constructor holds one init.  Extra init calls followed by as
 * many exit calls must leave the flavor working; an exit that drops the
 * count to zero tears the flavor's setup down (signal: the handler;
 * memb/bp: nothing to undo) and a later init must bring it back.  "Working"
 * is checked the strict way: a reader thread holds an object across a grace
 * period, and synchronize_rcu must wait for it.
 */
#include <stdbool.h>

#include "flavor-select.h"
#include "test-util.h"

static struct t_obj *shared;

struct reader {
	int in;
	int left;
	int live_at_end;
};

static void *reader_thread(void *arg)
{
	struct reader *rd = (struct reader *) arg;
	struct t_obj *p;

	T_FN(register_thread)();
	T_FN(read_lock)();
	p = rcu_dereference(shared);
	t_store(&rd->in, 1);
	t_sleep_ms(50);
	rd->live_at_end = t_obj_alive(p);
	t_store(&rd->left, 1);
	t_reader_exit();
	T_FN(unregister_thread)();
	return NULL;
}

static bool grace_period_works(void)
{
	struct reader rd;
	struct t_obj *old;
	pthread_t tid;
	int left;

	memset(&rd, 0, sizeof(rd));
	tid = t_thread_start(reader_thread, &rd);
	t_wait_for(&rd.in, 1, 10000, "the reader");
	old = rcu_xchg_pointer(&shared, t_obj_new(1));
	T_FN(synchronize_rcu)();
	left = t_load(&rd.left);
	t_obj_kill(old);
	t_thread_join(tid);
	free(old);
	return left && rd.live_at_end;
}

int main(void)
{
	int i;

	shared = t_obj_new(0);
	for (i = 0; i < 3; i++)
		T_FN(init)();
	tap_ok(grace_period_works(), "%s/%s: works after 3 extra init calls", T_FLAVOR, T_MODE);
	for (i = 0; i < 3; i++)
		T_FN(exit)();
	tap_ok(grace_period_works(), "%s/%s: works after as many exit calls (constructor's init "
		"still counted)", T_FLAVOR, T_MODE);
	/* Drop the constructor's reference too, then take it back. */
	T_FN(exit)();
	T_FN(init)();
	tap_ok(grace_period_works(), "%s/%s: works after the last exit and a new init",
		T_FLAVOR, T_MODE);
	free(rcu_xchg_pointer(&shared, NULL));
	return tap_done();
}
