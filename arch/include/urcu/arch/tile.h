// SPDX-License-Identifier: MIT
/*
 * <urcu/arch/tile.h>: liburcu's TILE-Gx architecture file. TILE-Gx has no
 * file of its own here: <urcu/arch.h> gives it the generic layer
 * (urcu/arch/generic.h, the compiler's C11 fences), and this header gives
 * exactly what <urcu/arch.h> gives. On any other machine it stops the build:
 * liburcu's file holds TILE-Gx barriers, so a program including it there is
 * in error.
 */
#ifndef URCU_ARCH_TILE_H
#define URCU_ARCH_TILE_H

#include <urcu/arch.h>

#ifndef URCU_ARCH_TILE
#error "urcu/arch/tile.h is for TILE-Gx; include <urcu/arch.h>"
#endif

#endif /* URCU_ARCH_TILE_H */
