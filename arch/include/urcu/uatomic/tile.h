// SPDX-License-Identifier: MIT
/*
 * <urcu/uatomic/tile.h>: liburcu's TILE-Gx atomic operations. TILE-Gx uses
 * the generic ones here (urcu/uatomic/generic.h, on the compiler's __atomic
 * builtins), so this header gives exactly what <urcu/uatomic.h> gives. On
 * any other machine it stops the build, as liburcu's TILE-Gx file would be
 * wrong there.
 */
#ifndef URCU_UATOMIC_TILE_H
#define URCU_UATOMIC_TILE_H

#include <urcu/uatomic.h>

#ifndef URCU_ARCH_TILE
#error "urcu/uatomic/tile.h is for TILE-Gx; include <urcu/uatomic.h>"
#endif

#endif /* URCU_UATOMIC_TILE_H */
