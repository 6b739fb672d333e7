// SPDX-License-Identifier: MIT
/*
 * The heap's size once it stopped moving, for the hash tests that measure a
 * table's memory as heap growth (test_hash_fork.c against a liburcu without
 * the allocator API, test_hash_mm.c's default-allocator case).  Include after
 * hash-test.h, whose t_heap_bytes() and t_quiet_sleep_ms() it uses.
 */
#ifndef TESTS_HASH_HASH_HEAP_H
#define TESTS_HASH_HASH_HEAP_H

/*
 * Heap bytes once they stopped moving for 50 ms (at most 2 s): memory a
 * grace period or an asynchronous destroy still holds has been returned.
 * Sleeps quietly (qsbr goes offline), so it holds up no grace period.
 */
static inline long t_settled_heap(void)
{
	long prev = t_heap_bytes(), cur;
	int i;

	for (i = 0; i < 40; i++) {
		t_quiet_sleep_ms(50);
		cur = t_heap_bytes();
		if (cur == prev)
			break;
		prev = cur;
	}
	return prev;
}

#endif /* TESTS_HASH_HASH_HEAP_H */
