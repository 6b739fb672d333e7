// SPDX-License-Identifier: MIT
/*
 * The C++26 <rcu> interface ([saferecl.rcu], paper P2545) for C++17 and
 * later, on the memb flavor: rcu_obj_base, rcu_domain, rcu_default_domain,
 * rcu_synchronize, rcu_barrier and rcu_retire in namespace urcu, with the
 * standard's names and signatures.  Code that names them through an alias,
 * `namespace rcu = urcu;`, moves to the standard library by changing that
 * one line to `namespace rcu = std;`.  Link: `pkg-config --libs liburcu`.
 * man urcu-cxx(7); docs/DESIGN.md, "The C++ interface", maps each name to
 * the library call beneath it.
 *
 * Contract, and why the mapping keeps it:
 *
 *  - A region of RCU protection (lock() to its matching unlock()) is a memb
 *    read-side critical section; nesting is the library's nesting.  The
 *    standard needs no registration, so lock() registers a thread that is
 *    not a reader yet (urcu_memb_register_thread(), explicit, so the
 *    library counts no misuse); the library's exit handler (a pthread key)
 *    unregisters it when the thread ends.  Cost on the fast path: one
 *    compare of the reader word that the inline read lock loads anyway,
 *    and one predictable branch.
 *  - rcu_synchronize() is synchronize_rcu(): it returns after every read-side
 *    section that began before it has ended, a full barrier on both sides:
 *    exactly "the unlock closing R strongly happens before the return".
 *  - retire()/rcu_retire() are call_rcu(): the deleter runs on a call_rcu
 *    worker thread after a grace period that began after the call, so after
 *    the end of every region that could have reached the object, and the
 *    grace period orders those regions' accesses before the deleter.
 *  - rcu_barrier() is the memb flavor's rcu_barrier(): every callback queued
 *    before it, by any thread, has run when it returns (the worker's run of
 *    each callback happens before the return).
 *
 * What this implementation does where the standard says "may":
 *  - unlock() never invokes scheduled evaluations, and neither do retire()
 *    nor rcu_retire(): deleters run only on the library's call_rcu worker
 *    threads, so a deleter never runs inside the caller's locks.
 *  - rcu_barrier() evaluates nothing itself: it waits for the workers.
 *  - rcu_retire() allocates one node with operator new (and may throw
 *    std::bad_alloc, or what D's move constructor throws; then nothing is
 *    scheduled).  rcu_obj_base::retire() never allocates: the rcu_head and
 *    the deleter live in the base.
 *
 * Misuse (never silent): rcu_synchronize() or rcu_barrier() inside a region
 * would wait for that region (the library's grace periods wait for every
 * region, the caller's own included) and abort with one line naming the
 * function; a deleter that exits via an exception (undefined behaviour in
 * the standard) aborts with one line naming retire or rcu_retire.
 *
 * <urcu.h> may be included before or after this header: it makes
 * rcu_barrier an object-like macro for urcu_memb_barrier, so this header
 * hides the macro while it declares its own names and defines, in
 * namespace urcu, urcu_<flavor>_barrier(dom) forwarding to
 * urcu::rcu_barrier(dom): `urcu::rcu_barrier()` then compiles to the same
 * call either way.  The header calls the prefixed functions only.
 */
#ifndef URCU_RCU_HPP
#define URCU_RCU_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "<urcu/rcu.hpp> needs C++17 or later"
#endif

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <type_traits>
#include <utility>

#include <urcu/urcu-memb.h>

#pragma push_macro("rcu_barrier")
#undef rcu_barrier

namespace urcu {

class rcu_domain;
rcu_domain& rcu_default_domain() noexcept;

namespace detail {

/* One line naming the function, then abort (the library's own format). */
[[noreturn]] inline void die(const char *fn, const char *what) noexcept
{
	std::fprintf(stderr, "urcu: %s: %s\n", fn, what);
	std::abort();
}

/*
 * Thread exit: the library's pthread key unregisters the thread, after
 * every C++ thread_local destructor.  A lock() from a destructor that runs
 * after this one finds the thread registered still, or (from a later POSIX
 * key destructor) unregistered for good: then registering explicitly
 * would link a record that outlives the thread, so lock() leaves it to the
 * library, which runs such a section unprotected, as liburcu does.
 */
inline thread_local bool thread_exiting;

struct exit_mark {
	~exit_mark() { thread_exiting = true; }
};

/* lock()'s slow path: the thread is no memb reader (first lock, or exit). */
[[gnu::noinline, gnu::cold]] inline void enroll_thread() noexcept
{
	static thread_local exit_mark mark;

	if (thread_exiting)
		return;
	(void) mark;
	::urcu_memb_register_thread();
}

/*
 * The deleter's storage.  An empty trivial D (std::default_delete, a
 * captureless lambda in C++20) has no state: a fresh D{} is
 * indistinguishable from the assigned one, so none is stored and the base
 * is one rcu_head.
 */
template<class D, bool = std::is_empty_v<D> && std::is_trivially_default_constructible_v<D>
			 && std::is_trivially_copyable_v<D>>
struct hook {
	struct rcu_head head;
	D deleter;

	hook() = default;
	explicit hook(D &&d) : deleter(std::move(d)) {}
	void set(D &&d) { deleter = std::move(d); }
	D &get() noexcept { return deleter; }
};

template<class D>
struct hook<D, true> {
	struct rcu_head head;

	hook() = default;
	explicit hook(D &&) noexcept {}
	void set(D &&) noexcept {}
	D get() noexcept { return D{}; }
};

/* The evaluation of d(p) a callback owes; noexcept, so a throw aborts. */
template<class D, class T>
inline void call_deleter(D &&d, T *p, const char *fn) noexcept
{
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
	try {
		d(p);
	} catch (...) {
		die(fn, "the deleter exited via an exception");
	}
#else
	(void) fn;
	d(p);
#endif
}

/* rcu_retire()'s allocation: the hook first, so the head is at its address. */
template<class T, class D>
struct retire_node {
	hook<D> h;
	T *p;

	retire_node(T *ptr, D &&d) : h(std::move(d)), p(ptr) {}

	static void reclaim(struct rcu_head *head)
	{
		auto *node = reinterpret_cast<retire_node *>(head);

		call_deleter(node->h.get(), node->p, "rcu_retire");
		delete node;
	}
};

} /* namespace detail */

/*
 * The domain: the memb flavor's readers.  Not copyable or movable; the one
 * object is rcu_default_domain()'s (it holds no state: every rcu_domain&
 * names the memb flavor).  Meets Cpp17Lockable: std::scoped_lock<rcu_domain>
 * and std::unique_lock<rcu_domain> work.
 */
class rcu_domain {
public:
	rcu_domain(const rcu_domain &) = delete;
	rcu_domain &operator=(const rcu_domain &) = delete;

	/*
	 * Opens a region of RCU protection (nestable): a grace period that
	 * begins after it waits for the matching outermost unlock(); accesses
	 * in the region stay in it (urcu_memb_read_lock()).  Registers the
	 * thread on its first call (see the top of this file).
	 */
	void lock() noexcept
	{
		if (caa_unlikely(::urcu_memb_i_reader.ctr == URCU_READER_UNREGISTERED))
			detail::enroll_thread();
		urcu_memb_read_lock();
	}

	/* Equivalent to lock(); returns true. */
	bool try_lock() noexcept
	{
		lock();
		return true;
	}

	/*
	 * Closes the region most recently opened: the region's accesses
	 * happen before the end of any grace period that waits for it
	 * (urcu_memb_read_unlock()).  Never runs deleters.
	 */
	void unlock() noexcept
	{
		urcu_memb_read_unlock();
	}

private:
	constexpr rcu_domain() noexcept = default;
	friend rcu_domain &rcu_default_domain() noexcept;
};

/* The same object on every call (constant-initialized: no guard). */
inline rcu_domain &rcu_default_domain() noexcept
{
	static rcu_domain dom;

	return dom;
}

/*
 * Waits until every region that began before the call has ended; a full
 * barrier: those regions' accesses happen before the return, and accesses
 * before the call happen before any region that begins after it could
 * observe them missing (urcu_memb_synchronize_rcu()).  Any thread, never
 * inside a region: there the library aborts ("urcu: synchronize_rcu: ...").
 */
inline void rcu_synchronize(rcu_domain &dom = rcu_default_domain()) noexcept
{
	(void) dom;
	::urcu_memb_synchronize_rcu();
}

/*
 * Waits until every deleter scheduled (by retire() or rcu_retire(), any
 * thread) before the call has run; each of those runs happens before the
 * return (urcu_memb_barrier()).  Inside a region it aborts with one line:
 * the library's grace periods would wait for the caller's region.
 */
inline void rcu_barrier(rcu_domain &dom = rcu_default_domain()) noexcept
{
	(void) dom;
	if (urcu_memb_read_ongoing())
		detail::die("rcu_barrier", "called inside an RCU protection region");
	::urcu_memb_barrier();
}

/*
 * <urcu.h>'s `#define rcu_barrier urcu_<flavor>_barrier` turns a later
 * `urcu::rcu_barrier(...)` into `urcu::urcu_<flavor>_barrier(...)`: these
 * forward it.  Templates, so that an unqualified urcu_memb_barrier() under
 * `using namespace urcu` still picks the C function (a non-template wins a
 * tie).
 */
#define URCU_I_CXX_BARRIER_ALIAS(flavor)					\
	template<class = void>							\
	inline void urcu_##flavor##_barrier(rcu_domain &dom = rcu_default_domain()) noexcept \
	{									\
		urcu::rcu_barrier(dom);						\
	}
URCU_I_CXX_BARRIER_ALIAS(memb)
URCU_I_CXX_BARRIER_ALIAS(mb)
URCU_I_CXX_BARRIER_ALIAS(signal)
URCU_I_CXX_BARRIER_ALIAS(qsbr)
URCU_I_CXX_BARRIER_ALIAS(bp)
#undef URCU_I_CXX_BARRIER_ALIAS

/*
 * Base of a class T whose objects are retired: `struct T :
 * urcu::rcu_obj_base<T> {...}` (public, non-virtual, the only rcu_obj_base
 * of T).  Holds the rcu_head and, unless D is empty and trivial, the
 * deleter; it has no base and no virtual function, so its first member is
 * at its address, which the callback relies on.
 */
template<class T, class D = std::default_delete<T>>
class rcu_obj_base {
public:
	/*
	 * Stores d and schedules d(p) for the T object p of which this is
	 * the base: it runs on a call_rcu worker after a grace period that
	 * begins after this call, so after every region that could reach
	 * the object has ended (urcu_memb_call_rcu()).  Never waits, never
	 * allocates; allowed inside a region.  Once per object.
	 */
	void retire(D d = D(), rcu_domain &dom = rcu_default_domain()) noexcept
	{
		(void) dom;
		urcu_i_hook.set(std::move(d));
		::urcu_memb_call_rcu(&urcu_i_hook.head, &rcu_obj_base::reclaim);
	}

protected:
	rcu_obj_base() = default;
	rcu_obj_base(const rcu_obj_base &) = default;
	rcu_obj_base(rcu_obj_base &&) = default;
	rcu_obj_base &operator=(const rcu_obj_base &) = default;
	rcu_obj_base &operator=(rcu_obj_base &&) = default;
	~rcu_obj_base() = default;

private:
	detail::hook<D> urcu_i_hook;

	static void reclaim(struct rcu_head *head)
	{
		auto *base = reinterpret_cast<rcu_obj_base *>(head);

		detail::call_deleter(base->urcu_i_hook.get(), static_cast<T *>(base), "retire");
	}
};

/*
 * Schedules d(p) like retire(), for any object (one allocation: the node
 * holding p, d and the rcu_head).  Throws std::bad_alloc, or what D's move
 * constructor throws; then nothing is scheduled.  Allowed inside a region.
 */
template<class T, class D = std::default_delete<T>>
void rcu_retire(T *p, D d = D(), rcu_domain &dom = rcu_default_domain())
{
	static_assert(std::is_move_constructible_v<D>, "rcu_retire: D must be move-constructible");
	(void) dom;
	auto *node = new detail::retire_node<T, D>(p, std::move(d));

	::urcu_memb_call_rcu(&node->h.head, &detail::retire_node<T, D>::reclaim);
}

} /* namespace urcu */

#pragma pop_macro("rcu_barrier")

#endif /* URCU_RCU_HPP */
