// SPDX-License-Identifier: MIT
/*
 * <urcu/static/urcu-common.h>: liburcu's header of the reader and
 * grace-period state its memb, mb and signal flavors share.  Programs that
 * include it by name (directly or through liburcu's static flavor headers)
 * get the headers it brings in; the state itself is not part of our
 * interface: our reader and grace-period words are laid out differently
 * (urcu/static/urcu-gp.h), so liburcu's struct urcu_gp, struct urcu_reader,
 * enum urcu_state, URCU_GP_CTR_PHASE, URCU_GP_CTR_NEST_MASK and its
 * urcu_common_* helpers are deliberately absent (urcu(7), "Deliberate
 * differences").
 */
#ifndef URCU_STATIC_URCU_COMMON_H
#define URCU_STATIC_URCU_COMMON_H

#include <stdlib.h>
#include <pthread.h>
#include <unistd.h>
#include <stdint.h>

#include <urcu/config.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>
#include <urcu/list.h>
#include <urcu/futex.h>
#include <urcu/tls-compat.h>
#include <urcu/debug.h>
#include <urcu/static/urcu-gp.h>

#endif /* URCU_STATIC_URCU_COMMON_H */
