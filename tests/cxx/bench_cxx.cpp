// SPDX-License-Identifier: MIT
/*
 * Cost of <urcu/rcu.hpp> against the C calls beneath it (a benchmark, not
 * a test; built by Meson, run by hand or in the opt-in suite 'bench'):
 *
 *   read side   rcu_domain::lock()+unlock()  vs  urcu_memb_read_lock()+
 *               read_unlock() (the inline C read side), outermost pairs
 *   retire      rcu_obj_base::retire()       vs  urcu_memb_call_rcu() on an
 *               object with an embedded rcu_head (the caller's cost only;
 *               rcu_barrier() outside the timed part)
 *
 * Each is timed in ROUNDS rounds (argument 1, default 201; the read side
 * with READS pairs per round, argument 2, default 1000000; the read side
 * first, then retire), each round alternating which goes first, and the minimum is kept (the
 * least disturbed round on a loaded machine).  Prints ns per operation and
 * the ratio C++/C; the targets are a ratio <= 1.05.  `--quick` runs a few
 * iterations only (the smoke test of suite 'cxx').
 */
#include <urcu/rcu.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rcu = urcu;

static double now_ns()
{
	using namespace std::chrono;
	return static_cast<double>(
		duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count());
}

[[gnu::noinline]] static double c_read(long n)
{
	double t0 = now_ns();

	for (long i = 0; i < n; i++) {
		urcu_memb_read_lock();
		urcu_memb_read_unlock();
	}
	return (now_ns() - t0) / static_cast<double>(n);
}

[[gnu::noinline]] static double cxx_read(long n)
{
	rcu::rcu_domain &dom = rcu::rcu_default_domain();
	double t0 = now_ns();

	for (long i = 0; i < n; i++) {
		dom.lock();
		dom.unlock();
	}
	return (now_ns() - t0) / static_cast<double>(n);
}

struct c_obj {
	long payload;
	struct rcu_head head;
};

static void c_free(struct rcu_head *h)
{
	delete caa_container_of(h, struct c_obj, head);
}

struct cxx_obj : rcu::rcu_obj_base<cxx_obj> {
	long payload;
};

/*
 * Allocates n objects, then times schedule(obj) on each (the clock runs
 * for the scheduling only), then waits for the callbacks.
 */
template<class Obj, class Schedule>
[[gnu::noinline]] static double time_retire(long n, Obj **objs, Schedule schedule)
{
	for (long i = 0; i < n; i++)
		objs[i] = new Obj;
	double t0 = now_ns();
	for (long i = 0; i < n; i++)
		schedule(objs[i]);
	double t = (now_ns() - t0) / static_cast<double>(n);
	rcu::rcu_barrier();
	return t;
}

static double c_retire(long n, c_obj **objs)
{
	return time_retire(n, objs, [](c_obj *o) { urcu_memb_call_rcu(&o->head, c_free); });
}

static double cxx_retire(long n, cxx_obj **objs)
{
	return time_retire(n, objs, [](cxx_obj *o) { o->retire(); });
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && !std::strcmp(argv[1], "--quick");
	int rounds = quick ? 2 : argc > 1 ? std::atoi(argv[1]) : 201;
	long reads = quick ? 1000 : argc > 2 ? std::atol(argv[2]) : 1000000;
	long retires = quick ? 100 : 100000;
	double c_r = 1e30, cxx_r = 1e30, c_q = 1e30, cxx_q = 1e30;
	auto *cobjs = new c_obj *[retires];
	auto *xobjs = new cxx_obj *[retires];

	urcu_memb_register_thread();	/* both loops time the registered fast path */
	/*
	 * Read side first, on its own: a call_rcu worker still busy with the
	 * retire phase would disturb it.  Each round alternates which loop
	 * goes first.
	 */
	for (int r = 0; r < rounds; r++) {
		if (r & 1) {
			cxx_r = std::min(cxx_r, cxx_read(reads));
			c_r = std::min(c_r, c_read(reads));
		} else {
			c_r = std::min(c_r, c_read(reads));
			cxx_r = std::min(cxx_r, cxx_read(reads));
		}
	}
	for (int r = 0; r < rounds; r++) {
		if (r & 1) {
			cxx_q = std::min(cxx_q, cxx_retire(retires, xobjs));
			c_q = std::min(c_q, c_retire(retires, cobjs));
		} else {
			c_q = std::min(c_q, c_retire(retires, cobjs));
			cxx_q = std::min(cxx_q, cxx_retire(retires, xobjs));
		}
	}
	urcu_memb_unregister_thread();
	std::printf("read side  C %.3f ns  C++ %.3f ns  ratio %.3f  (lock+unlock pair, min of %d rounds x %ld)\n",
		    c_r, cxx_r, cxx_r / c_r, rounds, reads);
	std::printf("retire     C %.3f ns  C++ %.3f ns  ratio %.3f  (call_rcu vs retire, min of %d rounds x %ld)\n",
		    c_q, cxx_q, cxx_q / c_q, rounds, retires);
	delete[] cobjs;
	delete[] xobjs;
	return 0;
}
