// SPDX-License-Identifier: MIT
/*
 * The architecture-layer headers compiled as C++ (g++/clang++, -Wall -Wextra
 * -pedantic), with the macros used the way C++ programs use them, and a
 * few behaviour checks so that a miscompiled macro is caught at run time.
 */
#include <urcu/arch.h>
#include <urcu/assert.h>
#include <urcu/compiler.h>
#include <urcu/config.h>
#include <urcu/debug.h>
#include <urcu/futex.h>
#include <urcu/syscall-compat.h>
#include <urcu/system.h>
#include <urcu/tls-compat.h>
#include <urcu/uatomic.h>
#include <cstdint>
#include <cstdio>

struct item {
	int key;
	long value;
};

urcu_static_assert(CAA_BITS_PER_LONG == sizeof(long) * 8, "long width", cxx_long);

static DEFINE_URCU_TLS(int, cxx_tls);
static DEFINE_URCU_TLS_INIT(long, cxx_tls_init, 9);

static int failures;

static void check(bool ok, const char *what)
{
	std::printf("%sok - %s\n", ok ? "" : "not ", what);
	if (!ok)
		failures++;
}

int main()
{
	item it = { 1, 2 };
	long *vp = &it.value;
	item *ip = nullptr;
	uint8_t u8 = 0;
	uint16_t u16 = 0;
	int32_t i32 = 0;
	uint64_t u64 = 0;
	unsigned long ul = 0;

	check(caa_container_of(vp, item, value) == &it, "container_of");
	check(caa_max(3, 4) == 4 && caa_min(3L, 4L) == 3, "max/min");

	uatomic_set(&ip, &it);
	check(uatomic_read(&ip) == &it, "pointer set/read");
	check(uatomic_xchg(&ip, static_cast<item *>(nullptr)) == &it && !ip,
		"pointer xchg");
	check(uatomic_cmpxchg(&ip, static_cast<item *>(nullptr), &it) == nullptr
		&& ip == &it, "pointer cmpxchg");

	uatomic_inc(&u8);
	uatomic_add(&u16, 300);
	uatomic_or(&i32, 6);
	uatomic_and(&i32, 3);
	check(u8 == 1 && u16 == 300 && i32 == 2, "inc/add/or/and");
	check(uatomic_add_return(&u64, 5) == 5 && uatomic_sub_return(&u64, 1) == 4,
		"add_return/sub_return");
	uatomic_store(&ul, 7UL, CMM_RELEASE);
	check(uatomic_load(&ul, CMM_ACQUIRE) == 7, "load/store with order");
	check(uatomic_cmpxchg_mo(&ul, 7UL, 8UL, CMM_ACQ_REL, CMM_ACQUIRE) == 7
		&& uatomic_xchg_mo(&ul, 9UL, CMM_SEQ_CST_FENCE) == 8
		&& uatomic_add_return_mo(&ul, 1, CMM_RELAXED) == 10,
		"_mo forms");
	check(CMM_STORE_SHARED(ul, 3UL) == 3 && CMM_LOAD_SHARED(ul) == 3,
		"LOAD/STORE_SHARED");

	cmm_smp_mb();
	cmm_smp_rmb();
	cmm_smp_wmb();
	cmm_mb();
	cmm_smp_mb__before_uatomic_inc();
	caa_cpu_relax();

	URCU_TLS(cxx_tls) = 4;
	check(URCU_TLS(cxx_tls) == 4 && URCU_TLS(cxx_tls_init) == 9, "TLS");
	urcu_posix_assert(failures == 0);
	urcu_assert(failures == 0);
	check(caa_get_cycles() != 0 || true, "caa_get_cycles callable");
	return failures ? 1 : 0;
}
