// SPDX-License-Identifier: MIT
// The README's C++ example (README.md, "C++: the standard's <rcu>"), built by
// check-install.sh against the installed tree with only
// `pkg-config --cflags --libs liburcu` and -pthread.
#include <urcu/rcu.hpp>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace rcu = urcu;                  // C++26: namespace rcu = std;

struct config : rcu::rcu_obj_base<config> {
	std::string name;
	int limit;
	config(std::string n, int l) : name(std::move(n)), limit(l) {}
};
static std::atomic<config *> current{new config("start", 1)};

static int read_limit()                // any thread: no registration
{
	std::scoped_lock<rcu::rcu_domain> guard(rcu::rcu_default_domain());
	return current.load(std::memory_order_acquire)->limit;
}

static void set_limit(int limit)       // updaters serialize among themselves
{
	config *old = current.exchange(new config("updated", limit));
	old->retire();                 // deleted after every reader that saw it
}

int main()
{
	std::thread reader([] { std::printf("limit %d\n", read_limit()); });
	set_limit(2);
	reader.join();
	rcu::rcu_barrier();            // every retired config is deleted now
	delete current.load();
	return read_limit() == 2 ? 0 : 1;
}
