// SPDX-License-Identifier: MIT
/*
 * What only a seeded build defines: the data and functions that a step of
 * urcu-steps.h uses in its seeded version only, where a dead branch could
 * not remove them.  Compiled once per flavor with the engine, in
 * -Dseeded_bug builds only (liburcu/meson.build); each definition sits
 * under #if URCU_I_SEEDED(NAME), the seed that uses it.  urcutorture's seed
 * modules (tools/meson.build) do not compile it: their seeds use none.
 */
#include <stdlib.h>

#include "../common.h"
#include "../urcu-steps.h"

#if URCU_I_SEEDED(BP_REGISTER_RACE)
__thread int URCU_FN(i_seed_first_unpublished);
#endif

#if URCU_I_SEEDED(EARLY_BARRIER)
void *URCU_FN(i_seed_leak)(size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		urcu_common_die("rcu_barrier", "out of memory");
	return p;
}
#endif
