// SPDX-License-Identifier: MIT
/*
 * The standard's threads need no registration: any thread may lock().
 *
 *  - A thread that never registered opens a region: no misuse is counted
 *    (the C++ layer registers it explicitly, where the C read side would
 *    register it implicitly and count a misuse), and the region is
 *    protected: rcu_synchronize() on another thread does not return while
 *    it is open.
 *  - A thread that exits outside any region leaves no reader behind: with
 *    no registered thread left, the library's synchronize_rcu() needs no
 *    grace period and counts one of 0 ns (hist[0] of urcu_memb_gp_stats),
 *    which a live registered thread prevents (checked first, so the probe
 *    itself can fail).
 *  - rcu_synchronize() and rcu_barrier() from threads that never locked.
 *
 * The main thread never opens a region, and nothing is retired before the
 * exit checks (a call_rcu worker is a registered thread).
 */
#include <urcu/rcu.hpp>
#include <urcu/debug.h>
#include <urcu/gp-stats.h>

#include <atomic>
#include <thread>

#include "cxx-test.h"

namespace rcu = urcu;

static unsigned long long zero_gps()
{
	struct urcu_gp_stats st;

	if (urcu_memb_gp_stats(&st))
		tap_bail("urcu_memb_gp_stats failed");
	return st.hist[0];
}

/* True if a grace period right now found no registered thread. */
static bool no_reader_registered()
{
	unsigned long long before = zero_gps();

	rcu::rcu_synchronize();
	return zero_gps() == before + 1;
}

static void test_unregistered_reader()
{
	gate locked, release, synced;
	unsigned long misuse = urcu_misuse_events();

	std::thread reader([&] {
		std::scoped_lock<rcu::rcu_domain> guard(rcu::rcu_default_domain());
		locked.open();
		release.wait();
	});
	locked.wait();
	tap_ok(urcu_misuse_events() == misuse,
	       "a never-registered thread's lock() counts no misuse (%lu before, %lu after)",
	       misuse, urcu_misuse_events());

	std::thread updater([&] {
		rcu::rcu_synchronize();
		synced.open();
	});
	tap_ok(!synced.wait_for(200), "rcu_synchronize waits for the unregistered thread's region");
	release.open();
	tap_ok(synced.wait_for(20000), "rcu_synchronize returns once the region ends");
	updater.join();
	reader.join();
}

static void test_exit_unregisters()
{
	gate done, leave;

	tap_ok(no_reader_registered(), "no registered thread at the start");
	std::thread t([&] {
		rcu::rcu_domain &dom = rcu::rcu_default_domain();

		for (int i = 0; i < 3; i++) {
			dom.lock();
			dom.unlock();
		}
		done.open();
		leave.wait();
	});
	done.wait();
	tap_ok(!no_reader_registered(), "a live thread that locked is a registered reader");
	leave.open();
	t.join();
	tap_ok(no_reader_registered(), "a thread that exits outside any region is unregistered");
}

static void test_update_side_anywhere()
{
	std::atomic<int> deleted{0};

	std::thread t([&] {
		rcu::rcu_synchronize();
		rcu::rcu_retire(new int(7), [&deleted](int *p) {
			delete p;
			deleted.fetch_add(1);
		});
		rcu::rcu_barrier();
	});
	t.join();
	tap_ok(deleted.load() == 1, "rcu_synchronize, rcu_retire, rcu_barrier from a thread that never locked");
}

int main()
{
	test_exit_unregisters();
	test_unregistered_reader();
	test_update_side_anywhere();
	return tap_done();
}
