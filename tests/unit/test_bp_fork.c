// SPDX-License-Identifier: MIT
/*
 * bp and fork() without exec.
 *
 * A parent thread T is inside a read-side critical section when the main
 * thread forks (wrapped in urcu_bp_before_fork / after_fork_parent /
 * after_fork_child).  Then:
 *
 * - child: T does not exist there, so its registry record must be gone:
 *   synchronize_rcu returns promptly; a new reader thread in the child holds
 *   an object across a grace period that must wait for it; a polled grace
 *   period completes.  The child reports each check as one bit of its exit
 *   status and has an alarm against hangs.
 * - parent: synchronize_rcu still waits for T, which is still inside its
 *   critical section.
 *
 * Run twice: the second fork happens after the first child has been reaped,
 * with the library state left by the first.
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "flavor-select.h"
#include "test-util.h"

#if !T_IS_BP
#error "bp-only test"
#endif

#define CHILD_SYNC_STUCK	(1 << 0)
#define CHILD_GP_EARLY		(1 << 1)
#define CHILD_POLL_STUCK	(1 << 2)
#define CHILD_OBJ_DIED		(1 << 3)

static struct t_obj *shared;

struct holder {
	long hold_ms;
	int in;
	int left;
	int live_at_end;
};

static void *holder_thread(void *arg)
{
	struct holder *h = (struct holder *) arg;
	struct t_obj *p;

	urcu_bp_read_lock();
	p = rcu_dereference(shared);
	t_store(&h->in, 1);
	t_sleep_ms(h->hold_ms);
	h->live_at_end = t_obj_alive(p);
	t_store(&h->left, 1);
	urcu_bp_read_unlock();
	return NULL;
}

static int child_main(void)
{
	struct holder h = { .hold_ms = 50 };
	struct urcu_gp_poll_state cookie;
	unsigned long long t0;
	struct t_obj *old;
	pthread_t tid;
	int fails = 0;
	bool polled = false;

	t0 = t_now_ns();
	urcu_bp_synchronize_rcu();
	if (t_ms_since(t0) > 2000.0)
		fails |= CHILD_SYNC_STUCK;

	tid = t_thread_start(holder_thread, &h);
	t_wait_for(&h.in, 1, 10000, "the child's reader");
	old = rcu_xchg_pointer(&shared, t_obj_new(2));
	urcu_bp_synchronize_rcu();
	if (!t_load(&h.left))
		fails |= CHILD_GP_EARLY;
	t_obj_kill(old);
	t_thread_join(tid);
	free(old);	/* no leak for valgrind's check of the child */
	if (!h.live_at_end)
		fails |= CHILD_OBJ_DIED;

	cookie = urcu_bp_start_poll_synchronize_rcu();
	t0 = t_now_ns();
	while (t_ms_since(t0) < T_START_LIMIT_MS) {
		if (urcu_bp_poll_state_synchronize_rcu(cookie)) {
			polled = true;
			break;
		}
		t_sleep_ms(1);
	}
	if (!polled)
		fails |= CHILD_POLL_STUCK;
	return fails;
}

static void fork_once(int iter)
{
	struct holder h = { .hold_ms = 200 };
	struct t_obj *old;
	pthread_t tid;
	pid_t pid;
	int status, left;

	tid = t_thread_start(holder_thread, &h);
	t_wait_for(&h.in, 1, 10000, "the parent's reader");

	fflush(stdout);
	fflush(stderr);
	urcu_bp_before_fork();
	pid = fork();
	if (pid == 0) {
		struct rlimit nocore = { 0, 0 };

		urcu_bp_after_fork_child();
		setrlimit(RLIMIT_CORE, &nocore);
		alarm(15);
		_exit(child_main());
	}
	urcu_bp_after_fork_parent();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));

	old = rcu_xchg_pointer(&shared, t_obj_new(1));
	urcu_bp_synchronize_rcu();
	left = t_load(&h.left);
	t_obj_kill(old);
	t_thread_join(tid);
	free(old);
	tap_ok(left, "bp/%s fork %d: parent's synchronize_rcu waited for its reader", T_MODE, iter);
	tap_ok(h.live_at_end, "bp/%s fork %d: parent's reader object stayed alive", T_MODE, iter);

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			tap_bail("waitpid: %s", strerror(errno));
	}
	if (!tap_ok(WIFEXITED(status), "bp/%s fork %d: child exited normally", T_MODE, iter)) {
		if (WIFSIGNALED(status))
			tap_diag("child killed by signal %d (%s)", WTERMSIG(status),
				strsignal(WTERMSIG(status)));
		tap_skip("child checks: child did not finish");
		return;
	}
	status = WEXITSTATUS(status);
	tap_ok(!(status & CHILD_SYNC_STUCK), "bp/%s fork %d: child's synchronize_rcu ignores the "
		"parent's reader thread", T_MODE, iter);
	tap_ok(!(status & (CHILD_GP_EARLY | CHILD_OBJ_DIED)), "bp/%s fork %d: in the child, "
		"synchronize_rcu waits for a new reader", T_MODE, iter);
	tap_ok(!(status & CHILD_POLL_STUCK), "bp/%s fork %d: in the child, a polled grace "
		"period completes", T_MODE, iter);
}

int main(void)
{
	shared = t_obj_new(0);
	fork_once(1);
	fork_once(2);
	free(rcu_xchg_pointer(&shared, NULL));
	return tap_done();
}
