// SPDX-License-Identifier: MIT
/*
 * x86-64 and i386 barriers, pause, rdtsc.  Included by <urcu/arch.h>.  A
 * program that includes this file directly gets <urcu/arch.h> whole, as
 * with liburcu's file: the include below comes before the guard, so
 * <urcu/arch.h> includes this file, then fills the rest from
 * urcu/arch/generic.h.  Under URCU_ARCH_FORCE_GENERIC that is all it gets.
 *
 * x86 is TSO: loads are not reordered with loads, stores not with stores,
 * and stores not with earlier loads.  The one reordering the hardware does
 * to normal (write-back) memory is a later load passing an earlier store
 * still in the store buffer, so only the full barrier costs an instruction.
 */
#include <urcu/arch.h>

#ifndef URCU_ARCH_X86
#error "urcu/arch/x86.h is for x86; include <urcu/arch.h>"
#elif !defined(URCU_ARCH_X86_H) && !defined(URCU_ARCH_FORCE_GENERIC)
#define URCU_ARCH_X86_H

#include <stdint.h>
#include <urcu/compiler.h>
#include <urcu/syscall-compat.h>	/* SYS_*, as liburcu's arch headers */

#define CAA_CACHE_LINE_SIZE	64

/*
 * Full barrier.  A locked read-modify-write drains the store buffer and
 * orders every earlier load and store against every later one, like mfence,
 * but it is several times cheaper on current cores; mfence additionally
 * waits for non-temporal stores and clflush, which RCU does not use.
 *
 * Adding 0 leaves the word unchanged, so any accessible word will do.  On
 * x86-64 it is 128 bytes below the stack pointer: the far end of the red
 * zone, which the ABI lets every function use (so it is accessible) and
 * which the running code rarely touches, so the locked access does not make
 * later loads of the hot top-of-stack slots (spilled locals, return
 * addresses) wait on it.  i386 has no red zone; (%esp) is the one word
 * known to be accessible there.
 */
#if defined(__x86_64__)
#define cmm_mb()	__asm__ __volatile__ ("lock; addl $0,-128(%%rsp)" : : : "memory", "cc")
#else
#define cmm_mb()	__asm__ __volatile__ ("lock; addl $0,0(%%esp)" : : : "memory", "cc")
#endif

/*
 * Device / non-temporal ordering, for cmm_rmb() and cmm_wmb() only.  The SMP
 * variants below are enough for normal memory.
 */
#if defined(__x86_64__) || defined(__SSE2__)
#define cmm_rmb()	__asm__ __volatile__ ("lfence" : : : "memory")
#define cmm_wmb()	__asm__ __volatile__ ("sfence" : : : "memory")
/* liburcu's name for "this processor has the fence instructions". */
#define CONFIG_RCU_HAVE_FENCE	1
#else
#define cmm_rmb()	cmm_mb()
#define cmm_wmb()	cmm_mb()
#endif

/*
 * Between processors TSO already keeps loads in order and stores in order,
 * so the SMP read and write barriers only have to stop the compiler.
 */
#define cmm_smp_rmb()	cmm_barrier()
#define cmm_smp_wmb()	cmm_barrier()

/* Spin-wait hint (pause): saves power and speeds up the exit from the loop. */
#define caa_cpu_relax()	__asm__ __volatile__ ("rep; nop" : : : "memory")

/* Time-stamp counter: constant-rate on every x86 urcu targets in practice. */
typedef uint64_t caa_cycles_t;

static inline caa_cycles_t caa_get_cycles(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__ ("rdtsc" : "=a" (lo), "=d" (hi));
	return ((caa_cycles_t) hi << 32) | lo;
}
#define HAS_CAA_GET_CYCLES 1

/* liburcu's older spelling: store the time-stamp counter into val. */
#define rdtscll(val)	do { (val) = caa_get_cycles(); } while (0)

#endif /* URCU_ARCH_X86_H */
