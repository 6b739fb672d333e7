// SPDX-License-Identifier: MIT
/*
 * USDT (user-level statically defined tracing) probes, provider "urcu".
 * Private to the libraries; the list, with every argument, is the man page
 * urcu_probes(7), which tests/probes checks against the built libraries.
 *
 * URCU_PROBE(name, args...) places probe urcu:name with 1 to 12 arguments:
 * pointers, or integers of 4 or 8 bytes (a bool or a char would be a
 * one-byte register operand such as %r13b, which gdb 13 cannot read).
 * With <sys/sdt.h> (meson option sdt, Debian package systemtap-sdt-dev;
 * URCU_I_SDT defined by liburcu/meson.build) a probe is one NOP instruction in the code plus an ELF note
 * (.note.stapsdt) that names it and says where its arguments are: nothing
 * runs until a tracer (gdb, bpftrace, perf, SystemTap) puts a breakpoint
 * on the NOP.  Its arguments are still placed where the note says (a
 * register or a constant), so a probe costs at most a register move or
 * two while nobody traces.  Without the header it is nothing at all.
 *
 * Rules for using it:
 *  - never on the read side's fast paths (rcu_read_lock/unlock,
 *    quiescent_state, the inline code of urcu/static/): every probe is on a
 *    slow path (a grace period, a registration, a resize, a callback batch);
 *  - pass only values the code already has at hand (a local, a field it
 *    just read, a constant such as URCU_PROBE_FLAVOR): nothing is computed
 *    for a probe alone, which is why no probe needs a semaphore (the
 *    "is anybody tracing?" counter of sdt.h, _SDT_HAS_SEMAPHORES).  A future
 *    probe whose argument costs real work must add one instead;
 *  - the first argument of a flavor's probe is the flavor's name (a C
 *    string, URCU_PROBE_FLAVOR), so that one script can tell the five
 *    flavors apart in a process that uses several;
 *  - a new probe joins urcu_probes(7) (tests/probes fails otherwise).
 *
 * Include it after flavor.h (through urcu-internal.h or call-rcu-internal.h)
 * in a per-flavor source.
 */
#ifndef URCU_SRC_PROBES_H
#define URCU_SRC_PROBES_H

#ifdef URCU_I_SDT
/*
 * x86-64: arguments in registers or immediates only, never a memory
 * operand: a rip-relative "symbol(%rip)" operand is one that not every
 * tracer decodes, and a register move on these slow paths costs nothing.
 * Elsewhere sdt.h's default (on 32-bit x86 a 64-bit value needs memory).
 */
# if defined(__x86_64__) && !defined(STAP_SDT_ARG_CONSTRAINT)
#  define STAP_SDT_ARG_CONSTRAINT	nr
# endif
# define SDT_USE_VARIADIC	1
# include <sys/sdt.h>
# define URCU_PROBE(name, ...)	STAP_PROBEV(urcu, name, __VA_ARGS__)
/*
 * The flavor's name as the probes pass it: not the literal, which sits in
 * a read-only page of the library that the process may never touch, and
 * that a tracer reading from the kernel cannot fault in (bpftrace's str()
 * then reads "": seen with bpftrace 0.17), but a copy in writable data that
 * the library's constructor writes once (URCU_PROBE_FLAVOR_TOUCH), which
 * makes its page private and present.  gdb reads either.
 */
# ifdef URCU_FN
extern char URCU_FN(i_probe_flavor)[8];
#  define URCU_PROBE_FLAVOR		URCU_FN(i_probe_flavor)
#  define URCU_PROBE_FLAVOR_DEFINE	char URCU_FN(i_probe_flavor)[8] = URCU_FLAVOR_NAME
#  define URCU_PROBE_FLAVOR_TOUCH()	\
	CMM_STORE_SHARED(URCU_FN(i_probe_flavor)[0], URCU_FLAVOR_NAME[0])
# endif
#else
/*
 * No probes: a call in dead code, so that a local kept only for a probe
 * (cb_batch_end's first) does not warn as unused; nothing is emitted.
 */
static inline void urcu_i_probe_off(int unused, ...)
{
	(void) unused;
}
# define URCU_PROBE(name, ...)	do { if (0) urcu_i_probe_off(0, __VA_ARGS__); } while (0)
# define URCU_PROBE_FLAVOR		URCU_FLAVOR_NAME
# define URCU_PROBE_FLAVOR_DEFINE	extern int urcu_i_probe_flavor_unused
# define URCU_PROBE_FLAVOR_TOUCH()	do { } while (0)
#endif

#endif /* URCU_SRC_PROBES_H */
