// SPDX-License-Identifier: MIT
/*
 * <urcu/debug.h>: kept for programs written against liburcu 0.13, where
 * urcu_assert() was declared here.  The assertions now live in
 * <urcu/assert.h>.
 */
#ifndef URCU_DEBUG_H
#define URCU_DEBUG_H

#include <urcu/assert.h>

#endif /* URCU_DEBUG_H */
