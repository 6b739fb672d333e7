// SPDX-License-Identifier: MIT
/*
 * The kinds of use the working draft shows for <rcu>, written against
 * <urcu/rcu.hpp> through the alias a program would later point at std:
 * a configuration object read under std::scoped_lock and replaced by an
 * updater that retires the old one (rcu_obj_base::retire); rcu_retire with
 * a custom deleter; the Cpp17Lockable members; nesting; the layout promise
 * (an rcu_obj_base with std::default_delete is one rcu_head).
 *
 * Each check fails if its behaviour breaks: a deleter that ran before the
 * grace period (checked while the retiring region is still open), one that
 * never ran or ran twice (counted after rcu_barrier), a stateful deleter
 * whose state was not kept.
 */
#include <urcu/rcu.hpp>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "cxx-test.h"

namespace rcu = urcu;	/* later: namespace rcu = std; */

/* ---- the configuration example ------------------------------------------ */

static std::atomic<int> configs_deleted;

struct config : rcu::rcu_obj_base<config> {
	std::string name;
	int limit;

	config(std::string n, int l) : name(std::move(n)), limit(l) {}
	~config() { configs_deleted.fetch_add(1, std::memory_order_relaxed); }
};

static std::atomic<config *> current_config;

static int read_limit()
{
	std::scoped_lock<rcu::rcu_domain> guard(rcu::rcu_default_domain());
	return current_config.load(std::memory_order_acquire)->limit;
}

static void update_config(std::string name, int limit)
{
	config *fresh = new config(std::move(name), limit);
	config *old = current_config.exchange(fresh, std::memory_order_acq_rel);

	if (old)
		old->retire();
}

static void test_config()
{
	update_config("start", 1);
	tap_ok(read_limit() == 1, "config: a reader sees the first configuration");

	std::atomic<bool> stop{false};
	std::atomic<int> bad{0};
	std::thread reader([&] {
		while (!stop.load(std::memory_order_relaxed)) {
			int l = read_limit();

			if (l < 1 || l > 1000)
				bad.fetch_add(1);
		}
	});
	for (int i = 2; i <= 1000; i++)
		update_config("v" + std::to_string(i), i);
	stop.store(true);
	reader.join();
	tap_ok(bad.load() == 0, "config: the reader saw only valid limits");
	rcu::rcu_barrier();
	tap_ok(configs_deleted.load() == 999,
	       "config: rcu_barrier: the 999 replaced configurations are deleted (%d)",
	       configs_deleted.load());
	update_config("end", 0);
	rcu::rcu_barrier();
	delete current_config.exchange(nullptr);
}

/* ---- retire inside a region: nothing runs before the region ends -------- */

static std::atomic<int> flag_deleted;

struct flagged : rcu::rcu_obj_base<flagged> {
	~flagged() { flag_deleted.store(1, std::memory_order_release); }
};

static void test_retire_waits()
{
	rcu::rcu_domain &dom = rcu::rcu_default_domain();
	flagged *f = new flagged;
	int early = 0;

	dom.lock();
	f->retire();
	/* The call_rcu worker runs at once when not held back by this region. */
	for (int i = 0; i < 200; i++) {
		early |= flag_deleted.load(std::memory_order_acquire);
		std::this_thread::sleep_for(std::chrono::microseconds(250));
	}
	dom.unlock();
	tap_ok(!early, "retire in a region: the deleter waits for the region's end");
	rcu::rcu_barrier();
	tap_ok(flag_deleted.load() == 1, "retire in a region: deleted after unlock and rcu_barrier");
}

/* ---- rcu_retire with custom deleters ------------------------------------ */

struct counted_free {
	std::atomic<int> *count;

	void operator()(int *p) const
	{
		delete p;
		count->fetch_add(1, std::memory_order_relaxed);
	}
};

struct stateful_obj;
struct stateful_deleter {
	int tag = 0;
	std::atomic<int> *seen = nullptr;

	void operator()(stateful_obj *p) const;
};

struct stateful_obj : rcu::rcu_obj_base<stateful_obj, stateful_deleter> {
};

void stateful_deleter::operator()(stateful_obj *p) const
{
	seen->store(tag, std::memory_order_relaxed);
	delete p;
}

static void test_custom_deleters()
{
	std::atomic<int> freed{0};
	std::atomic<int> lambda_freed{0};
	std::atomic<int> seen{0};

	rcu::rcu_retire(new int(1), counted_free{&freed});
	rcu::rcu_retire(new int(2), counted_free{&freed});
	rcu::rcu_retire(new int(3), [&lambda_freed](int *p) {
		delete p;
		lambda_freed.fetch_add(1, std::memory_order_relaxed);
	});
	rcu::rcu_retire(new std::string("default deleter"));
	rcu::rcu_retire(new int[4], std::default_delete<int[]>());

	stateful_obj *s = new stateful_obj;
	s->retire(stateful_deleter{42, &seen});

	rcu::rcu_barrier();
	tap_ok(freed.load() == 2, "rcu_retire: a stateful deleter ran once per object (%d)",
	       freed.load());
	tap_ok(lambda_freed.load() == 1, "rcu_retire: a capturing lambda as deleter ran");
	tap_ok(seen.load() == 42, "retire(d): the deleter passed to retire is the one that runs (%d)",
	       seen.load());
}

/* ---- the domain: Cpp17Lockable, nesting, one object ---------------------- */

static void test_domain()
{
	rcu::rcu_domain &dom = rcu::rcu_default_domain();

	tap_ok(&dom == &rcu::rcu_default_domain(), "rcu_default_domain: the same object every time");
	tap_ok(!std::is_copy_constructible_v<rcu::rcu_domain> &&
	       !std::is_move_constructible_v<rcu::rcu_domain> &&
	       !std::is_copy_assignable_v<rcu::rcu_domain> &&
	       !std::is_default_constructible_v<rcu::rcu_domain>,
	       "rcu_domain: neither copyable, movable nor constructible by users");
	tap_ok(noexcept(dom.lock()) && noexcept(dom.unlock()) && noexcept(dom.try_lock()) &&
	       noexcept(rcu::rcu_synchronize()) && noexcept(rcu::rcu_barrier()),
	       "lock, try_lock, unlock, rcu_synchronize, rcu_barrier are noexcept");
	tap_ok(!noexcept(rcu::rcu_retire(static_cast<int *>(nullptr))),
	       "rcu_retire may throw (it allocates)");

	tap_ok(!urcu_memb_read_ongoing(), "outside any region");
	{
		std::scoped_lock<rcu::rcu_domain> outer(dom);
		{
			std::unique_lock<rcu::rcu_domain> inner(dom);
			tap_ok(urcu_memb_read_ongoing(), "nested regions: inside");
		}
		tap_ok(urcu_memb_read_ongoing(), "nested regions: still inside the outer one");
	}
	tap_ok(!urcu_memb_read_ongoing(), "nested regions: closed");
	tap_ok(dom.try_lock(), "try_lock returns true");
	tap_ok(urcu_memb_read_ongoing(), "try_lock opened a region");
	dom.unlock();
	rcu::rcu_synchronize(dom);
	tap_ok(!urcu_memb_read_ongoing(), "rcu_synchronize outside a region returns");
}

/* ---- layout --------------------------------------------------------------- */

struct plain_obj : rcu::rcu_obj_base<plain_obj> {
};

static_assert(sizeof(rcu::rcu_obj_base<plain_obj>) == sizeof(struct rcu_head),
	      "rcu_obj_base with std::default_delete is one rcu_head");
static_assert(sizeof(rcu::rcu_obj_base<stateful_obj, stateful_deleter>) >=
	      sizeof(struct rcu_head) + sizeof(stateful_deleter),
	      "a stateful deleter is stored in the base");
static_assert(!std::is_constructible_v<rcu::rcu_obj_base<plain_obj>>,
	      "rcu_obj_base's constructors are protected");

int main()
{
	test_domain();
	test_retire_waits();
	test_config();
	test_custom_deleters();
	return tap_done();
}
