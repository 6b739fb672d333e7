// SPDX-License-Identifier: MIT
/*
 * Test-only variant of the installed template urcu/static/urcu-reader.h,
 * carrying the read side's two seeded bugs (tests/seeded, urcu-seams.h).
 * Never installed.  Only a -Dseeded_bug build (liburcu/meson.build puts
 * liburcu/src/seeded before liburcu/include on every include path) and
 * urcutorture's order-reader seed module (tools/meson.build) compile
 * against it; the flavor headers' #include <urcu/static/urcu-reader.h>
 * then finds this file.  It defines the template's two step macros and
 * includes the installed template, so the rest of the read side is the
 * shipped code, and with no seed selected the two macros expand to the
 * installed ones.
 *
 * Like the template, no include guard: included once per flavor header.
 */
#include "../../../urcu-seams.h"

/*
 * order-reader: the fenced reader does not fence after publishing its word,
 * so the word store may pass the section's loads.
 */
#define URCU_I_READER_PUBLISH_FENCE()					\
	do {								\
		if (!URCU_I_SEEDED(ORDER_READER))			\
			cmm_smp_mb();					\
	} while (0)

/*
 * nesting-off-by-one: leaving depth 2 stores a fresh snapshot at depth 1,
 * like an outermost unlock and lock, so the grace period in progress stops
 * waiting for the enclosing section.
 */
#define URCU_I_READER_NESTED_EXIT(t)					\
	(URCU_I_SEEDED(NESTING_OFF_BY_ONE)				\
	 && ((t) & URCU_GP_NEST_MASK) == 2 * URCU_GP_COUNT		\
	 ? CMM_LOAD_SHARED(URCU_I_FLAVOR(i_gp).ctr)			\
	 : (t) - URCU_GP_COUNT)

#include "../../../../include/urcu/static/urcu-reader.h"
