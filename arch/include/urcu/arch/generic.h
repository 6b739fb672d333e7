// SPDX-License-Identifier: MIT
/*
 * Generic definitions of the <urcu/arch.h> names, from C11 fences as GCC and
 * clang spell them (__atomic_thread_fence).  Included by <urcu/arch.h> after
 * the architecture file; every name is defined only if that file did not,
 * so this works on any architecture the compiler supports, and is the whole
 * architecture layer where no arch file exists (or URCU_ARCH_FORCE_GENERIC).
 */
/*
 * Included by name, go through <urcu/arch.h> first, so that the
 * architecture file's definitions come first and this file only fills gaps
 * (it includes us back, guarded, before our own guard below is set).
 */
#include <urcu/arch.h>

#ifndef URCU_ARCH_GENERIC_H
#define URCU_ARCH_GENERIC_H

#include <stdint.h>
#include <time.h>		/* the cycle counter fallback; as liburcu's */
#include <urcu/compiler.h>
#include <urcu/config.h>
#include <urcu/syscall-compat.h>	/* SYS_*, as liburcu's arch headers */

/*
 * Largest common line size among 64-bit processors.  Too large only wastes
 * memory; too small lets per-thread data share lines.
 */
#ifndef CAA_CACHE_LINE_SIZE
#define CAA_CACHE_LINE_SIZE	64
#endif

/*
 * Mandatory barriers.  A sequentially consistent fence orders every earlier
 * access against every later one.  An acquire fence orders earlier loads
 * against later loads and stores (a superset of load-load); a release fence
 * orders earlier loads and stores against later stores (a superset of
 * store-store).
 */
#ifndef cmm_mb
#define cmm_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#ifndef cmm_rmb
#define cmm_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#endif
#ifndef cmm_wmb
#define cmm_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#endif

/*
 * Cache coherency: every processor urcu supports keeps caches coherent in
 * hardware, so "flush my writes / refresh my reads" reduces to keeping the
 * compiler from caching values in registers.
 */
#ifndef cmm_mc
#define cmm_mc()	cmm_barrier()
#endif
#ifndef cmm_rmc
#define cmm_rmc()	cmm_barrier()
#endif
#ifndef cmm_wmc
#define cmm_wmc()	cmm_barrier()
#endif

/*
 * Dependent loads (p = head; v = p->field) are ordered by every processor
 * except Alpha, and the compiler is kept from breaking the dependency by
 * the volatile/consume load of the pointer itself.
 */
#ifndef cmm_read_barrier_depends
# if defined(__alpha__)
#  define cmm_read_barrier_depends()	__asm__ __volatile__ ("mb" : : : "memory")
# else
#  define cmm_read_barrier_depends()	do { } while (0)
# endif
#endif

/*
 * SMP variants: the same as the mandatory ones when the library may run on
 * several processors (CONFIG_RCU_SMP, always set by our build), compiler
 * barriers on a uniprocessor-only configuration.
 */
#ifdef CONFIG_RCU_SMP
# ifndef cmm_smp_mb
#  define cmm_smp_mb()	cmm_mb()
# endif
# ifndef cmm_smp_rmb
#  define cmm_smp_rmb()	cmm_rmb()
# endif
# ifndef cmm_smp_wmb
#  define cmm_smp_wmb()	cmm_wmb()
# endif
# ifndef cmm_smp_mc
#  define cmm_smp_mc()	cmm_mc()
# endif
# ifndef cmm_smp_rmc
#  define cmm_smp_rmc()	cmm_rmc()
# endif
# ifndef cmm_smp_wmc
#  define cmm_smp_wmc()	cmm_wmc()
# endif
# ifndef cmm_smp_read_barrier_depends
#  define cmm_smp_read_barrier_depends()	cmm_read_barrier_depends()
# endif
#else
# ifndef cmm_smp_mb
#  define cmm_smp_mb()	cmm_barrier()
# endif
# ifndef cmm_smp_rmb
#  define cmm_smp_rmb()	cmm_barrier()
# endif
# ifndef cmm_smp_wmb
#  define cmm_smp_wmb()	cmm_barrier()
# endif
# ifndef cmm_smp_mc
#  define cmm_smp_mc()	cmm_barrier()
# endif
# ifndef cmm_smp_rmc
#  define cmm_smp_rmc()	cmm_barrier()
# endif
# ifndef cmm_smp_wmc
#  define cmm_smp_wmc()	cmm_barrier()
# endif
# ifndef cmm_smp_read_barrier_depends
#  define cmm_smp_read_barrier_depends()	do { } while (0)
# endif
#endif

/*
 * Every machine urcu runs on keeps its data caches coherent, which is what
 * lets cmm_mc() and friends above be compiler barriers.  liburcu's name for
 * that fact, for programs that test it.
 */
#ifndef CONFIG_HAVE_MEM_COHERENCY
#define CONFIG_HAVE_MEM_COHERENCY 1
#endif

/*
 * cmm_emit_legacy_smp_mb() (liburcu 0.15): marks a place where releases
 * before 0.15 implied a full barrier that the 0.15 memory-order API leaves
 * to the caller.  Ours always emits cmm_smp_mb() there, so code written for
 * either configuration of liburcu keeps at least the ordering it expects.
 */
#ifndef cmm_emit_legacy_smp_mb
#define cmm_emit_legacy_smp_mb()	cmm_smp_mb()
#endif

/* Spin-wait hint: at least make the compiler reload what the loop polls. */
#ifndef caa_cpu_relax
#define caa_cpu_relax()	cmm_barrier()
#endif

/*
 * Cycle counter fallback: a clock in nanoseconds (differences measure
 * elapsed time, which is all callers use).  The monotonic clock when the
 * headers declare it (POSIX; GNU modes), else C11's timespec_get (wall
 * clock), else ISO C clock() (processor time, in its own ticks), so that
 * this header compiles in strict ISO modes too.  A failing call yields 0.
 */
#ifndef HAS_CAA_GET_CYCLES
#define HAS_CAA_GET_CYCLES 1

typedef uint64_t caa_cycles_t;

static inline caa_cycles_t caa_get_cycles(void)
{
#if defined(CLOCK_MONOTONIC)
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (caa_cycles_t) ts.tv_sec * 1000000000u + (caa_cycles_t) ts.tv_nsec;
#elif defined(TIME_UTC)
	struct timespec ts;

	if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
		return 0;
	return (caa_cycles_t) ts.tv_sec * 1000000000u + (caa_cycles_t) ts.tv_nsec;
#else
	return (caa_cycles_t) clock();
#endif
}
#endif

#endif /* URCU_ARCH_GENERIC_H */
