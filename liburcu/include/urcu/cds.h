// SPDX-License-Identifier: MIT
/*
 * Every concurrent data structure at once, as liburcu's umbrella does:
 * lists (plain and RCU), hash lists, the RCU lock-free hash table and
 * queue, the stacks and the wait-free queues, including the two deprecated
 * headers (urcu/rculfstack.h, urcu/wfqueue.h), whose functions warn only
 * when called.  Link with -lurcu-cds (pkg-config liburcu-cds), which brings
 * -lurcu-common.
 */
#ifndef URCU_CDS_H
#define URCU_CDS_H

#include <urcu/hlist.h>
#include <urcu/list.h>
#include <urcu/rcuhlist.h>
#include <urcu/rculist.h>
#include <urcu/rculfqueue.h>
#include <urcu/rculfstack.h>
#include <urcu/rculfhash.h>
#include <urcu/wfqueue.h>
#include <urcu/wfcqueue.h>
#include <urcu/wfstack.h>
#include <urcu/lfstack.h>

#endif /* URCU_CDS_H */
