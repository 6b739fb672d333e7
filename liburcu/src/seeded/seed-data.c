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

#if URCU_I_SEEDED(BP_REGISTER_RACE) || URCU_I_SEEDED(IMPLICIT_FIRST_UNORDERED)
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

#if URCU_I_SEEDED(STALE_SNAPSHOT)
#include "../urcu-internal.h"

/*
 * The readers found idle by the last snapshot (URCU_I_STEP_PRE_FLIP), the
 * first SEED_SNAP_MAX of them; written and read by the leader only, under
 * the registry lock.  Records are only compared, never dereferenced.
 */
#define SEED_SNAP_MAX	256
static const struct urcu_i_reader *seed_idle[SEED_SNAP_MAX];
static size_t seed_nidle;

void URCU_FN(i_seed_snapshot)(void)
{
	struct urcu_i_reader *r;

	seed_nidle = 0;
	cds_list_for_each_entry(r, &URCU_FN(i_registry).readers, node) {
		/* Relaxed: the seed's bug is to trust this load, unordered. */
		unsigned long v = uatomic_load(&r->ctr, CMM_RELAXED);

		if (!(v & URCU_GP_NEST_MASK) && seed_nidle < SEED_SNAP_MAX)
			seed_idle[seed_nidle++] = r;
	}
}

int URCU_FN(i_seed_snapshot_idle)(const struct urcu_i_reader *r)
{
	for (size_t i = 0; i < seed_nidle; i++)
		if (seed_idle[i] == r)
			return 1;
	return 0;
}
#endif
