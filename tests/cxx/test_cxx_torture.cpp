// SPDX-License-Identifier: MIT
/*
 * Reader/updater torture of <urcu/rcu.hpp> (a correctness test, not a
 * benchmark).
 *
 * Workload: a singly linked list of 64 nodes, each an rcu_obj_base with a
 * poisoning deleter.  Three readers traverse it inside
 * std::scoped_lock<rcu_domain> on the default domain, and on every node
 * check its mark, spin a little, and check it again; they also count the
 * nodes (always 64).  Two updaters, serialized by a mutex as RCU updaters
 * are, replace a random node by a copy and retire the old one.  The
 * deleter overwrites the mark with a poison value and keeps the memory in
 * a quarantine of the last 16384 nodes (so that a reader that was wrongly
 * still on a reclaimed node reads the poison, not reused memory).  Marks
 * are relaxed atomics, so a wrongly early deleter is a detected failure,
 * not undefined behaviour.  Runs for the seconds given as argument (1).
 *
 * Checks: no reader ever saw a poisoned node or a list of the wrong
 * length; the readers and updaters both made progress; after rcu_barrier
 * every retired node was deleted exactly once.
 *
 * Seeded bug (the build with -DCXX_TORTURE_SEED_RETIRE_NOW, test
 * 'cxx-torture-seeded', expected to fail): the updater runs the deleter at
 * once instead of retire(), a retire that waits for no grace period.
 * Result when it was written: every run failed, readers reported
 * thousands of poisoned nodes per second (e.g. "no reader saw a poisoned
 * node (5412 seen)"), and under ThreadSanitizer the run also reports races.
 */
#include <urcu/rcu.hpp>

#include <atomic>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "cxx-test.h"

namespace rcu = urcu;

enum : unsigned long { ALIVE = 0x600d600dUL, POISON = 0xdeadbeefUL };
enum { LENGTH = 64, READERS = 3, UPDATERS = 2, QUARANTINE = 16384 };

struct node;

struct poison_deleter {
	void operator()(node *n) const;
};

struct node : rcu::rcu_obj_base<node, poison_deleter> {
	std::atomic<node *> next{nullptr};
	std::atomic<unsigned long> mark{ALIVE};
	unsigned long value = 0;
};

static std::atomic<node *> head;
static std::mutex update_lock;

static std::mutex quarantine_lock;
static std::deque<node *> quarantine;
static std::atomic<long> deleted, retired;

void poison_deleter::operator()(node *n) const
{
	node *oldest = nullptr;

	if (n->mark.exchange(POISON, std::memory_order_relaxed) != ALIVE)
		std::abort();		/* deleted twice: the count below would hide it */
	deleted.fetch_add(1, std::memory_order_relaxed);
	{
		std::lock_guard<std::mutex> g(quarantine_lock);
		quarantine.push_back(n);
		if (quarantine.size() > QUARANTINE) {
			oldest = quarantine.front();
			quarantine.pop_front();
		}
	}
	delete oldest;
}

static std::atomic<bool> stop;
static std::atomic<long> poisoned_seen, bad_lengths, traversals, updates;

static void reader()
{
	rcu::rcu_domain &dom = rcu::rcu_default_domain();
	long poisoned = 0, bad = 0, done = 0;

	while (!stop.load(std::memory_order_relaxed)) {
		std::scoped_lock<rcu::rcu_domain> guard(dom);
		int n = 0;

		for (node *p = head.load(std::memory_order_acquire); p;
		     p = p->next.load(std::memory_order_acquire)) {
			if (p->mark.load(std::memory_order_relaxed) != ALIVE)
				poisoned++;
			for (int spin = 0; spin < 20; spin++)
				caa_cpu_relax();
			if (p->mark.load(std::memory_order_relaxed) != ALIVE)
				poisoned++;
			n++;
		}
		bad += n != LENGTH;
		done++;
	}
	poisoned_seen.fetch_add(poisoned);
	bad_lengths.fetch_add(bad);
	traversals.fetch_add(done);
}

static void retire_node(node *old)
{
#ifdef CXX_TORTURE_SEED_RETIRE_NOW
	poison_deleter()(old);		/* the seeded bug: no grace period */
#else
	old->retire();
#endif
	retired.fetch_add(1, std::memory_order_relaxed);
}

static void updater(unsigned seed)
{
	std::minstd_rand rng(seed);
	long done = 0;

	while (!stop.load(std::memory_order_relaxed)) {
		int target = static_cast<int>(rng() % LENGTH);
		node *old;
		{
			std::lock_guard<std::mutex> g(update_lock);
			std::atomic<node *> *link = &head;

			old = link->load(std::memory_order_relaxed);
			for (int i = 0; i < target; i++) {
				link = &old->next;
				old = link->load(std::memory_order_relaxed);
			}
			node *fresh = new node;
			fresh->value = old->value + 1;
			fresh->next.store(old->next.load(std::memory_order_relaxed),
					  std::memory_order_relaxed);
			/* Release: the copy's fields before a reader can reach it. */
			link->store(fresh, std::memory_order_release);
		}
		retire_node(old);
		done++;
	}
	updates.fetch_add(done);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;

	for (int i = 0; i < LENGTH; i++) {
		node *n = new node;
		n->next.store(head.load(std::memory_order_relaxed), std::memory_order_relaxed);
		head.store(n, std::memory_order_release);
	}

	std::vector<std::thread> threads;
	for (int i = 0; i < READERS; i++)
		threads.emplace_back(reader);
	for (int i = 0; i < UPDATERS; i++)
		threads.emplace_back(updater, 1234U + static_cast<unsigned>(i));
	std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
	stop.store(true);
	for (auto &t : threads)
		t.join();
	rcu::rcu_barrier();

	tap_ok(poisoned_seen.load() == 0, "no reader saw a poisoned node (%ld seen)",
	       poisoned_seen.load());
	tap_ok(bad_lengths.load() == 0, "every traversal found %d nodes (%ld did not)", LENGTH,
	       bad_lengths.load());
	tap_ok(traversals.load() > 0 && updates.load() > 0,
	       "readers and updaters made progress (%ld traversals, %ld updates)",
	       traversals.load(), updates.load());
	tap_ok(deleted.load() == retired.load(),
	       "rcu_barrier: every retired node deleted once (%ld of %ld)", deleted.load(),
	       retired.load());

	for (node *n : quarantine)
		delete n;
	for (node *n = head.load(); n;) {
		node *next = n->next.load();
		delete n;
		n = next;
	}
	return tap_done();
}
