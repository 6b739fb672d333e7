// SPDX-License-Identifier: MIT
/*
 * <urcu/arch.h>: memory barriers, caa_cpu_relax(), the cycle counter and the
 * cache line size of the machine the program is compiled for.
 *
 * Layering: the file for this architecture (urcu/arch/<arch>.h) defines what
 * it can do better than the compiler; urcu/arch/generic.h then defines every
 * name still missing from C11 / GCC __atomic builtins.  Defining
 * URCU_ARCH_FORCE_GENERIC before the first include skips the architecture
 * file, which is how the generic fallback is tested on x86.
 *
 * Barrier families (all are statements):
 *   cmm_mb/rmb/wmb          full / load-load / store-store ordering, also
 *                           against devices and non-temporal stores
 *   cmm_smp_mb/rmb/wmb      the same between processors (normal memory)
 *   cmm_mc/rmc/wmc          flush/refresh for cache-incoherent machines; a
 *   cmm_smp_mc/rmc/wmc      compiler barrier everywhere urcu runs today
 *   cmm_read_barrier_depends / cmm_smp_read_barrier_depends
 *                           order a load after the load of the pointer it
 *                           goes through (needed by Alpha only)
 */
#ifndef URCU_ARCH_H
#define URCU_ARCH_H

#include <urcu/compiler.h>
#include <urcu/config.h>

/*
 * The liburcu names of the machine families, for programs that test them
 * and for the per-architecture headers of liburcu (urcu/arch/ppc.h, ...),
 * which refuse to compile on any other family.  Only x86 and AArch64 have
 * a file of their own here; every other family gets the generic layer.
 */
#if defined(__x86_64__)
#define URCU_ARCH_X86 1
#define URCU_ARCH_AMD64 1
#elif defined(__i386__)
#define URCU_ARCH_X86 1
#define URCU_ARCH_I386 1
#elif defined(__aarch64__)
#define URCU_ARCH_AARCH64 1
#elif defined(__powerpc__) || defined(__powerpc64__) || defined(__ppc__)
#define URCU_ARCH_PPC 1
# if defined(__powerpc64__) || defined(__ppc64__)
#  define URCU_ARCH_PPC64 1
# endif
#elif defined(__s390__) || defined(__s390x__)
#define URCU_ARCH_S390 1
#elif defined(__sparc__) || defined(__sparc)
#define URCU_ARCH_SPARC64 1		/* liburcu's name covers 32-bit SPARC too */
#elif defined(__alpha__)
#define URCU_ARCH_ALPHA 1
#elif defined(__ia64__)
#define URCU_ARCH_IA64 1
#elif defined(__arm__)
#define URCU_ARCH_ARM 1
# if defined(__ARM_ARCH_7A__) || defined(__ARM_ARCH_7__)
#  define URCU_ARCH_ARMV7 1
# endif
#elif defined(__mips__)
#define URCU_ARCH_MIPS 1
#elif defined(__nios2__)
#define URCU_ARCH_NIOS2 1
#elif defined(__tilegx__)
#define URCU_ARCH_TILE 1
#elif defined(__hppa__)
#define URCU_ARCH_HPPA 1
#elif defined(__m68k__)
#define URCU_ARCH_M68K 1
#elif defined(__riscv)
#define URCU_ARCH_RISCV 1
#elif defined(__loongarch__)
#define URCU_ARCH_LOONGARCH 1
#endif

#ifndef URCU_ARCH_FORCE_GENERIC
# if defined(URCU_ARCH_X86)
#  include <urcu/arch/x86.h>
# elif defined(URCU_ARCH_AARCH64)
#  include <urcu/arch/aarch64.h>
# endif
#endif

#ifdef URCU_I_TSAN
/*
 * ThreadSanitizer builds only (tests; production code never defines
 * URCU_I_TSAN): TSan does not model fences (gcc even rejects
 * atomic_thread_fence under -fsanitize=thread, and the architecture files'
 * inline asm is invisible to it), so every barrier, the smp read/write ones
 * included, becomes an acquire-release read-modify-write of one
 * process-wide word.  The fences are then totally ordered and each one
 * happens after every earlier one: at least the ordering any pair of real
 * fences gives through the accesses around them, so TSan reports no race
 * that a fence prevents; the price is that it cannot see a race between
 * two threads that both fence.  The word is defined weak and exported in
 * every object (rcu_ is the one prefix every library may export), so the
 * program and all shared libraries bind to one copy.
 */
extern unsigned long rcu_i_tsan_fence_word;
__attribute__((weak, visibility("default"))) unsigned long rcu_i_tsan_fence_word;

static inline void urcu_i_tsan_fence(void)
{
	(void) __atomic_fetch_add(&rcu_i_tsan_fence_word, 0, __ATOMIC_ACQ_REL);
}

# undef cmm_mb
# undef cmm_rmb
# undef cmm_wmb
# undef cmm_smp_mb
# undef cmm_smp_rmb
# undef cmm_smp_wmb
# define cmm_mb()	urcu_i_tsan_fence()
# define cmm_rmb()	urcu_i_tsan_fence()
# define cmm_wmb()	urcu_i_tsan_fence()
# define cmm_smp_mb()	urcu_i_tsan_fence()
# define cmm_smp_rmb()	urcu_i_tsan_fence()
# define cmm_smp_wmb()	urcu_i_tsan_fence()
#endif

#include <urcu/arch/generic.h>

#endif /* URCU_ARCH_H */
