// SPDX-License-Identifier: MIT
/*
 * rcu_barrier(): every evaluation scheduled before the call, by any thread,
 * has run when it returns.  Four threads schedule 2000 deleters each, half
 * through rcu_obj_base::retire, half through rcu_retire, some of them
 * slowed down (so that a barrier that returned early would find work left),
 * some scheduled inside a region; the main thread joins them (their
 * scheduling happens before its call) and calls rcu_barrier() once: the
 * count must be complete right then.  Repeated three rounds.
 */
#include <urcu/rcu.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "cxx-test.h"

namespace rcu = urcu;

static std::atomic<long> deleted;

struct item : rcu::rcu_obj_base<item> {
	int slow;

	explicit item(int s) : slow(s) {}
	~item()
	{
		if (slow)
			std::this_thread::sleep_for(std::chrono::microseconds(20));
		deleted.fetch_add(1, std::memory_order_relaxed);
	}
};

enum { THREADS = 4, PER_THREAD = 2000 };

static void schedule(int id)
{
	rcu::rcu_domain &dom = rcu::rcu_default_domain();

	for (int i = 0; i < PER_THREAD; i++) {
		bool in_region = (i % 3) == 0;
		int slow = (i % 97) == id;

		if (in_region)
			dom.lock();
		if (i % 2)
			(new item(slow))->retire();
		else
			rcu::rcu_retire(new item(slow));
		if (in_region)
			dom.unlock();
	}
}

int main()
{
	for (int round = 0; round < 3; round++) {
		std::vector<std::thread> threads;

		deleted.store(0);
		for (int t = 0; t < THREADS; t++)
			threads.emplace_back(schedule, t);
		for (auto &t : threads)
			t.join();
		rcu::rcu_barrier();
		long n = deleted.load();
		tap_ok(n == THREADS * PER_THREAD,
		       "round %d: rcu_barrier returned with every scheduled deleter run (%ld of %d)",
		       round, n, THREADS * PER_THREAD);
	}
	return tap_done();
}
