// SPDX-License-Identifier: MIT
/*
 * <urcu/syscall-compat.h>: what raw system calls need (syscall(), SYS_*).
 * syscall() is declared by glibc and musl under _DEFAULT_SOURCE or
 * _GNU_SOURCE, which GNU C modes (-std=gnu11, the default) define.
 */
#ifndef URCU_SYSCALL_COMPAT_H
#define URCU_SYSCALL_COMPAT_H

#include <unistd.h>
#include <sys/syscall.h>

#endif /* URCU_SYSCALL_COMPAT_H */
