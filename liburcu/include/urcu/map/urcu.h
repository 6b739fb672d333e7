// SPDX-License-Identifier: MIT
/*
 * The generic-name map of the flavor <urcu.h> selects, under liburcu's
 * header name: memb unless RCU_MB or RCU_SIGNAL is defined.  (liburcu
 * refuses to guess when no selection macro is defined; <urcu.h> defaults to
 * memb, and so does this header.)  Included by umbrella headers only.
 */
#if defined(RCU_MB)
#include <urcu/map/urcu-mb.h>
#elif defined(RCU_SIGNAL)
#include <urcu/map/urcu-signal.h>
#else
#include <urcu/map/urcu-memb.h>
#endif
