// SPDX-License-Identifier: MIT
/*
 * AArch64 barriers, yield, and the virtual counter.  Included by
 * <urcu/arch.h>.  A program that includes this file directly gets
 * <urcu/arch.h> whole, as with liburcu's file: the include below comes
 * before the guard, so <urcu/arch.h> includes this file, then fills the
 * rest from urcu/arch/generic.h.  Under URCU_ARCH_FORCE_GENERIC that is all
 * it gets.
 *
 * ARMv8 is weakly ordered: loads and stores to different addresses may be
 * observed out of order by other processors, so each SMP barrier is a dmb
 * limited to the inner shareable domain (all the processors running the
 * program); the non-SMP ones use the full system domain so they also order
 * accesses against devices.
 */
#include <urcu/arch.h>

#ifndef URCU_ARCH_AARCH64
#error "urcu/arch/aarch64.h is for AArch64; include <urcu/arch.h>"
#elif !defined(URCU_ARCH_AARCH64_H) && !defined(URCU_ARCH_FORCE_GENERIC)
#define URCU_ARCH_AARCH64_H

#include <stdint.h>
#include <stdlib.h>		/* as liburcu's aarch64.h: these three */
#include <sys/time.h>
#include <time.h>
#include <urcu/compiler.h>
#include <urcu/config.h>
#include <urcu/syscall-compat.h>	/* SYS_*, as liburcu's arch headers */

/*
 * 64-byte lines are common, but several cores (Apple, some Neoverse
 * configurations, the adjacent-line prefetcher of others) move pairs of
 * lines together; 128 keeps per-thread data from false sharing on all of
 * them at the price of a little memory.
 */
#define CAA_CACHE_LINE_SIZE	128

#define cmm_mb()	__asm__ __volatile__ ("dmb sy" : : : "memory")
#define cmm_rmb()	__asm__ __volatile__ ("dmb ld" : : : "memory")
#define cmm_wmb()	__asm__ __volatile__ ("dmb st" : : : "memory")

#ifdef CONFIG_RCU_SMP
#define cmm_smp_mb()	__asm__ __volatile__ ("dmb ish" : : : "memory")
/* ishld orders earlier loads against later loads and stores. */
#define cmm_smp_rmb()	__asm__ __volatile__ ("dmb ishld" : : : "memory")
/* ishst orders earlier stores against later stores. */
#define cmm_smp_wmb()	__asm__ __volatile__ ("dmb ishst" : : : "memory")
#endif

/* Spin-wait hint. */
#define caa_cpu_relax()	__asm__ __volatile__ ("yield" : : : "memory")

/*
 * The generic timer's virtual count (cntvct_el0) is readable from user space
 * under Linux.  The isb keeps the read from being executed early, ahead of
 * the code being timed.
 */
typedef uint64_t caa_cycles_t;

static inline caa_cycles_t caa_get_cycles(void)
{
	caa_cycles_t v;

	__asm__ __volatile__ ("isb; mrs %0, cntvct_el0" : "=r" (v) : : "memory");
	return v;
}
#define HAS_CAA_GET_CYCLES 1

#endif /* URCU_ARCH_AARCH64_H */
