// SPDX-License-Identifier: MIT
/*
 * What <urcu/rcu.hpp> does with misuse: one line naming the function on
 * stderr, then SIGABRT, never a hang or a silent early return.  Each case
 * runs in a forked child (tests/common/child-stderr.h; an alarm turns a
 * hang into a failure); the parent never starts a thread or a call_rcu
 * worker, so every child starts from a clean single-threaded process.
 *
 *   rcu_synchronize() inside a region   the library's synchronize_rcu check
 *   rcu_barrier() inside a region       this header's check (the library
 *                                       alone would return without waiting)
 *   a deleter that throws               retire / rcu_retire name themselves
 *   unlock() without lock()             the library's unbalanced-unlock check
 */
#include <urcu/rcu.hpp>

#include <csignal>
#include <stdexcept>

#include "cxx-test.h"
#include "child-stderr.h"

namespace rcu = urcu;

static void sync_in_region()
{
	rcu::rcu_default_domain().lock();
	rcu::rcu_synchronize();
}

static void barrier_in_region()
{
	rcu::rcu_default_domain().lock();
	rcu::rcu_barrier();
}

struct thrower : rcu::rcu_obj_base<thrower> {
	~thrower() noexcept(false) { throw std::runtime_error("deleter"); }
};

static void retire_throws()
{
	(new thrower)->retire();
	rcu::rcu_barrier();
}

static void rcu_retire_throws()
{
	rcu::rcu_retire(new int(1), [](int *p) {
		delete p;
		throw std::runtime_error("deleter");
	});
	rcu::rcu_barrier();
}

static void unbalanced_unlock()
{
	rcu::rcu_domain &dom = rcu::rcu_default_domain();

	dom.lock();
	dom.unlock();
	dom.unlock();
}

static void expect_abort(void (*fn)(), const char *what, const char *line)
{
	char err[4096];
	int status;

	child_stderr_run(fn, &status, err, sizeof(err));
	bool aborted = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
	bool said = strstr(err, line) != nullptr;
	bool one_line = said && strchr(err, '\n') == strrchr(err, '\n');

	if (!tap_ok(aborted && said && one_line, "%s: aborts with \"%s...\"", what, line))
		tap_diag("status %#x, stderr: %s", status, err);
}

int main()
{
	expect_abort(sync_in_region, "rcu_synchronize inside a region", "urcu: synchronize_rcu: ");
	expect_abort(barrier_in_region, "rcu_barrier inside a region",
		     "urcu: rcu_barrier: called inside an RCU protection region");
	expect_abort(retire_throws, "a deleter of retire() that throws",
		     "urcu: retire: the deleter exited via an exception");
	expect_abort(rcu_retire_throws, "a deleter of rcu_retire() that throws",
		     "urcu: rcu_retire: the deleter exited via an exception");
	expect_abort(unbalanced_unlock, "unlock() without lock()", "urcu: rcu_read_unlock: ");
	return tap_done();
}
