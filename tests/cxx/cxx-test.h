// SPDX-License-Identifier: MIT
/*
 * What the C++ tests of <urcu/rcu.hpp> share: the C tests' TAP producer
 * (tests/common/tap.h compiles as C++; call it from the main thread only)
 * and a one-shot gate for ordering test threads without fixed sleeps.
 */
#ifndef TESTS_CXX_CXX_TEST_H
#define TESTS_CXX_CXX_TEST_H

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "tap.h"

/* A flag one thread opens and others wait for. */
class gate {
public:
	void open()
	{
		std::lock_guard<std::mutex> g(m);
		is_open = true;
		cv.notify_all();
	}

	void wait()
	{
		std::unique_lock<std::mutex> g(m);
		cv.wait(g, [this] { return is_open; });
	}

	/* True if opened within ms milliseconds. */
	bool wait_for(int ms)
	{
		std::unique_lock<std::mutex> g(m);
		return cv.wait_for(g, std::chrono::milliseconds(ms), [this] { return is_open; });
	}

	bool opened()
	{
		std::lock_guard<std::mutex> g(m);
		return is_open;
	}

private:
	std::mutex m;
	std::condition_variable cv;
	bool is_open = false;
};

#endif /* TESTS_CXX_CXX_TEST_H */
