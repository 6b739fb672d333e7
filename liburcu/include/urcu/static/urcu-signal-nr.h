// SPDX-License-Identifier: MIT
/*
 * <urcu/static/urcu-signal-nr.h>: the signal the signal flavor's updater
 * sends to readers (SIGRCU), under the header name liburcu gives it.  The
 * application must leave that signal alone.  The library is built with
 * SIGUSR1; defining SIGRCU otherwise in a program does not change the
 * signal the library sends.
 */
#ifndef URCU_STATIC_URCU_SIGNAL_NR_H
#define URCU_STATIC_URCU_SIGNAL_NR_H

#include <signal.h>

#ifndef SIGRCU
#define SIGRCU SIGUSR1
#endif

#endif /* URCU_STATIC_URCU_SIGNAL_NR_H */
