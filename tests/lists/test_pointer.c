// SPDX-License-Identifier: MIT
/*
 * <urcu/pointer.h>: what each primitive stores and returns, single
 * evaluation of the arguments, expression use (rcu_dereference(p)->field),
 * cmm_ptr_eq, liburcu's _rcu_* spellings, and a two-thread publication test
 * (a reader that finds a pointer through rcu_dereference() always sees the
 * fields written before rcu_assign_pointer()/rcu_set_pointer()/
 * rcu_xchg_pointer()/rcu_cmpxchg_pointer() published it).
 *
 * Meson builds this file several ways: plain C, with _LGPL_SOURCE, with
 * URCU_DEREFERENCE_USE_VOLATILE, and as C++11 (test_cxx.cpp
 * includes it), so it is written in the common subset of C and C++.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <urcu/pointer.h>
#include <urcu-pointer.h>	/* the compatibility name, on top */
#include "tap.h"

struct foo {
	long a;
	long b;
	struct foo *next;
};

static struct foo *gp;
static struct foo *slots[4];

static void test_store_load(void)
{
	static struct foo f1 = { 1, 10, NULL }, f2 = { 2, 20, NULL },
		f3 = { 3, 30, NULL };
	struct foo *p, *old;
	void *vp = NULL;
	int i = 0, evals = 0;

	rcu_assign_pointer(gp, &f1);
	tap_ok(gp == &f1, "rcu_assign_pointer stores");
	tap_ok(rcu_dereference(gp) == &f1, "rcu_dereference loads it back");
	tap_ok(rcu_dereference(gp)->b == 10, "rcu_dereference(p)->field in an expression");
	rcu_assign_pointer(gp->next, &f2);
	tap_ok(rcu_dereference(rcu_dereference(gp)->next)->a == 2,
	       "nested rcu_dereference through a published field");

	rcu_set_pointer(&gp, &f3);
	tap_ok(gp == &f3, "rcu_set_pointer stores");
	rcu_set_pointer(&gp, NULL);
	tap_ok(gp == NULL, "rcu_set_pointer of a constant NULL stores NULL");
	rcu_assign_pointer(gp, NULL);
	tap_ok(gp == NULL, "rcu_assign_pointer of a constant NULL");
	rcu_set_pointer(&vp, (void *) &f1);
	tap_ok(vp == (void *) &f1, "rcu_set_pointer into a void *");

	/* arguments with side effects are evaluated exactly once */
	slots[0] = &f1;
	slots[1] = &f2;
	p = rcu_dereference(slots[i++]);
	tap_ok(p == &f1 && i == 1, "rcu_dereference evaluates its argument once");
	rcu_set_pointer(&slots[i++], (evals++, &f3));
	tap_ok(slots[1] == &f3 && i == 2 && evals == 1,
	       "rcu_set_pointer evaluates its arguments once");
	rcu_assign_pointer(slots[i++], (evals++, &f2));
	tap_ok(slots[2] == &f2 && i == 3 && evals == 2,
	       "rcu_assign_pointer evaluates its arguments once");

	gp = &f1;
	old = rcu_xchg_pointer(&gp, &f2);
	tap_ok(old == &f1 && gp == &f2, "rcu_xchg_pointer returns the old value and stores");
	old = rcu_xchg_pointer(&gp, NULL);
	tap_ok(old == &f2 && gp == NULL, "rcu_xchg_pointer to NULL");

	gp = &f1;
	old = rcu_cmpxchg_pointer(&gp, &f1, &f3);
	tap_ok(old == &f1 && gp == &f3, "rcu_cmpxchg_pointer succeeds when old matches");
	old = rcu_cmpxchg_pointer(&gp, &f1, &f2);
	tap_ok(old == &f3 && gp == &f3,
	       "rcu_cmpxchg_pointer fails, returns the current value and stores nothing");
	old = rcu_cmpxchg_pointer(&gp, &f3, NULL);
	tap_ok(old == &f3 && gp == NULL, "rcu_cmpxchg_pointer to NULL");

	gp = &f1;
	_rcu_assign_pointer(gp, &f2);
	_rcu_set_pointer(&gp, _rcu_dereference(gp)->next);
	tap_ok(gp == NULL && _rcu_xchg_pointer(&gp, &f3) == NULL
	       && _rcu_cmpxchg_pointer(&gp, &f3, &f1) == &f3 && gp == &f1,
	       "liburcu's _rcu_* spellings");
}

static int eq_evals;

static struct foo *counted(struct foo *p)
{
	eq_evals++;
	return p;
}

static void test_ptr_eq(void)
{
	static struct foo f1, f2;
	struct foo *p = &f1;
	const struct foo *cp = &f1;
	void *vp = &f2;

	tap_ok(cmm_ptr_eq(p, &f1), "cmm_ptr_eq: equal pointers");
	tap_ok(!cmm_ptr_eq(p, &f2), "cmm_ptr_eq: different pointers");
	tap_ok(cmm_ptr_eq(cp, p), "cmm_ptr_eq: const and non-const");
	tap_ok(cmm_ptr_eq(vp, (void *) &f2), "cmm_ptr_eq: void pointers");
	tap_ok(!cmm_ptr_eq(p, (struct foo *) NULL) && cmm_ptr_eq((struct foo *) NULL, (struct foo *) 0),
	       "cmm_ptr_eq: NULL");
	eq_evals = 0;
	tap_ok(cmm_ptr_eq(counted(p), counted(&f1)) && eq_evals == 2,
	       "cmm_ptr_eq evaluates each argument once");
	/* usable where a plain comparison is, e.g. as a loop condition */
	p = &f1;
	f1.next = &f2;
	f2.next = NULL;
	eq_evals = 0;
	while (!cmm_ptr_eq(p, &f2)) {
		p = rcu_dereference(p->next);
		eq_evals++;
	}
	tap_ok(eq_evals == 1, "cmm_ptr_eq in a loop condition");
}

/*
 * Publication: the writer fills a fresh element (a = i, b = ~i) and
 * publishes it with each of the four store primitives in turn; the reader
 * checks every element it finds.  Elements are never reused, so a
 * mismatch can only come from missing ordering.  Every PUB_SYNC elements
 * the writer waits for the reader to catch up, so the two really overlap.
 */
#define NPUB		20000
#define PUB_SYNC	16

static struct foo *pub_pool;
static struct foo *pub;
static int pub_done;
static long pub_ack = -1;	/* last value of a the reader saw */

static void *pub_reader(void *arg)
{
	long seen = 0, last = -1, idle = 0, *bad = (long *) arg;

	while (!uatomic_load(&pub_done, CMM_RELAXED)) {
		struct foo *p = rcu_dereference(pub);

		if (!p || p->a == last) {
			if (++idle % 64 == 0)
				sched_yield();	/* the machine may have one CPU */
			continue;
		}
		if (p->b != ~p->a || p->a < last) {
			*bad = 1;
			break;
		}
		last = p->a;
		seen++;
		uatomic_store(&pub_ack, last, CMM_RELAXED);
	}
	uatomic_store(&pub_ack, (long) NPUB, CMM_RELAXED);
	return (void *) seen;
}

static void test_publication(void)
{
	pthread_t tid;
	long bad = 0, i;
	void *seen;

	pub_pool = (struct foo *) calloc(NPUB, sizeof(*pub_pool));
	if (!pub_pool) {
		tap_ok(0, "publication test: out of memory");
		return;
	}
	if (pthread_create(&tid, NULL, pub_reader, &bad)) {
		tap_ok(0, "publication test: pthread_create");
		free(pub_pool);
		return;
	}
	for (i = 0; i < NPUB; i++) {
		struct foo *p = &pub_pool[i];

		p->a = i;
		p->b = ~i;
		switch (i & 3) {
		case 0:
			rcu_assign_pointer(pub, p);
			break;
		case 1:
			rcu_set_pointer(&pub, p);
			break;
		case 2:
			(void) rcu_xchg_pointer(&pub, p);
			break;
		default:
			(void) rcu_cmpxchg_pointer(&pub, &pub_pool[i - 1], p);
			break;
		}
		if (i % PUB_SYNC == 0)
			while (uatomic_load(&pub_ack, CMM_RELAXED) < i)
				sched_yield();
	}
	uatomic_store(&pub_done, 1, CMM_RELAXED);
	pthread_join(tid, &seen);
	tap_diag("publication: reader saw %ld of %d elements", (long) seen, NPUB);
	tap_ok(!bad, "publication: every element found was fully initialised, in order");
	tap_ok((long) seen >= NPUB / PUB_SYNC,
	       "publication: the reader checked at least %d elements", NPUB / PUB_SYNC);
	tap_ok(pub == &pub_pool[NPUB - 1], "publication: the last element is published");
	free(pub_pool);
}

int main(void)
{
#if defined(__cplusplus)
	tap_diag("built as C++ (%ld)", (long) __cplusplus);
#endif
#if defined(_LGPL_SOURCE)
	tap_diag("built with _LGPL_SOURCE");
#endif
#if defined(URCU_DEREFERENCE_USE_VOLATILE)
	tap_diag("built with URCU_DEREFERENCE_USE_VOLATILE");
#endif
	test_store_load();
	test_ptr_eq();
	test_publication();
	return tap_done();
}
