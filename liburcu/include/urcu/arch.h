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

/* The liburcu names of the machine families, for programs that test them. */
#if defined(__x86_64__)
#define URCU_ARCH_X86 1
#define URCU_ARCH_AMD64 1
#elif defined(__i386__)
#define URCU_ARCH_X86 1
#define URCU_ARCH_I386 1
#elif defined(__aarch64__)
#define URCU_ARCH_AARCH64 1
#endif

#ifndef URCU_ARCH_FORCE_GENERIC
# if defined(URCU_ARCH_X86)
#  include <urcu/arch/x86.h>
# elif defined(URCU_ARCH_AARCH64)
#  include <urcu/arch/aarch64.h>
# endif
#endif

#include <urcu/arch/generic.h>

#endif /* URCU_ARCH_H */
