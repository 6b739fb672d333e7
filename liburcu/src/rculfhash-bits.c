// SPDX-License-Identifier: MIT
/*
 * Two bit helpers that liburcu's liburcu-cds exports although only its
 * private headers declare them: cds_lfht_fls_ulong() and
 * cds_lfht_get_count_order_ulong().  Programs that declared them
 * themselves link against this library too.  The hash table itself uses
 * its inline helpers (rculfhash-internal.h).
 */
#include <urcu/compiler.h>

URCU_API unsigned int cds_lfht_fls_ulong(unsigned long x);
URCU_API int cds_lfht_get_count_order_ulong(unsigned long x);

/* Position of the highest set bit of x, counting from 1; 0 when x is 0. */
unsigned int cds_lfht_fls_ulong(unsigned long x)
{
	return x ? (unsigned int) (CAA_BITS_PER_LONG - __builtin_clzl(x)) : 0;
}

/* The smallest order with x <= 1UL << order; -1 when x is 0. */
int cds_lfht_get_count_order_ulong(unsigned long x)
{
	if (!x)
		return -1;
	return (int) cds_lfht_fls_ulong(x - 1);
}
