// SPDX-License-Identifier: MIT
/*
 * <urcu/rcu.hpp> and <urcu.h> in one file, in either order (built twice:
 * with CXX_URCU_H_FIRST, <urcu.h> comes first).  <urcu.h> maps the generic
 * C names onto the memb flavor with object-like macros, rcu_barrier among
 * them; both spellings must compile and mean what they say: the C API
 * (rcu_read_lock, synchronize_rcu, call_rcu, rcu_barrier) and the C++ one
 * (urcu::rcu_barrier through the alias, qualified or with a domain), and
 * `using namespace urcu` must leave the C rcu_barrier() callable.  Also
 * built by check-compilers.sh with g++ and clang++, C++17 and C++20,
 * -Wall -Wextra -Werror.
 */
#ifdef CXX_URCU_H_FIRST
#include <urcu.h>
#include <urcu/rcu.hpp>
#else
#include <urcu/rcu.hpp>
#include <urcu.h>
#endif

#include <atomic>
#include <mutex>

#ifndef CXX_NO_TAP
#include "tap.h"
#else
#define tap_ok(cond, ...) ((void) (cond))
#define tap_done() 0
#endif

namespace rcu = urcu;

static std::atomic<int> c_freed, cxx_freed;

struct c_obj {
	struct rcu_head head;
};

static void c_free(struct rcu_head *h)
{
	delete caa_container_of(h, struct c_obj, head);
	c_freed.fetch_add(1);
}

struct cxx_obj : rcu::rcu_obj_base<cxx_obj> {
	~cxx_obj() { cxx_freed.fetch_add(1); }
};

namespace using_directive {
using namespace urcu;

/* The C rcu_barrier (a macro for urcu_memb_barrier) beside the C++ names. */
static void barrier_both()
{
	rcu_barrier();
	urcu::rcu_barrier(rcu_default_domain());
}
}

int main()
{
	rcu_register_thread();		/* C registration first: lock() keeps it */
	rcu_read_lock();
	{
		std::scoped_lock<rcu::rcu_domain> g(rcu::rcu_default_domain());
		tap_ok(rcu_read_ongoing(), "C and C++ regions nest in one thread");
	}
	rcu_read_unlock();
	tap_ok(!rcu_read_ongoing(), "both closed");

	call_rcu(&(new c_obj)->head, c_free);
	(new cxx_obj)->retire();
	rcu::rcu_barrier();
	tap_ok(c_freed.load() == 1 && cxx_freed.load() == 1,
	       "rcu::rcu_barrier() waits for call_rcu and retire alike");

	call_rcu(&(new c_obj)->head, c_free);
	rcu::rcu_retire(new cxx_obj);
	urcu::rcu_barrier(rcu::rcu_default_domain());
	tap_ok(c_freed.load() == 2 && cxx_freed.load() == 2, "urcu::rcu_barrier(dom)");

	call_rcu(&(new c_obj)->head, c_free);
	(new cxx_obj)->retire();
	rcu_barrier();
	tap_ok(c_freed.load() == 3 && cxx_freed.load() == 3, "the C rcu_barrier() too");

	using_directive::barrier_both();
	synchronize_rcu();
	rcu::rcu_synchronize();
	rcu_unregister_thread();
	return tap_done();
}
