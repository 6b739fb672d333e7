/* SPDX-License-Identifier: MIT */
/*
 * A seeded flavor as a loadable module (test-only).
 *
 * Built by tools/meson.build once per seeded ordering bug: this file (which
 * includes flavor-ops.c) with -DUT_FLAVOR_MEMB or _MB and the bug's
 * -DURCU_I_SEED_* define, linked with a private copy of that flavor's
 * library sources and liburcu-common compiled with the same defines.  The
 * version script seed-module.map exports ut_seed_flavor_ops alone; every
 * other symbol (urcu_memb_*, urcu_mb_*, urcu_common_*, ut_flavor_*) stays
 * local to the module, so its engine never clashes with the real flavor
 * libraries urcutorture is linked with.  flavor-seeded.c dlopen()s it.
 *
 * The engine is the real one; the read side inlined into flavor-ops.c's
 * wrappers comes from the same headers, so the reader-side seed takes effect
 * in the reader threads' read_lock as well.
 */
#include "flavor-ops.c"

#if !defined(URCU_I_SEED_ORDER_UPDATER) && !defined(URCU_I_SEED_ORDER_READER)
# error "seed-module.c is built with a URCU_I_SEED_ORDER_* define only"
#endif

/* The module's one exported symbol: this flavor's operations table. */
__attribute__((visibility("default")))
const struct ut_flavor_ops *ut_seed_flavor_ops(void)
{
	return &UT_SYM(ut_flavor);
}
