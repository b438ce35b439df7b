/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel Function Trace boot runs: the architecture primes the run given by
 * the kft= parameter or kftstatic.conf right before start_kernel().
 * See Documentation/trace/kft.rst.
 */
#ifndef _LINUX_KFT_BOOT_H
#define _LINUX_KFT_BOOT_H

#include <linux/init.h>

#ifdef CONFIG_KFT
void __init kft_boot_prime(void);
#else
static inline void kft_boot_prime(void) { }
#endif

/* kernel/kftstatic.c, generated from kftstatic.conf by scripts/mkkftrun. */
extern const char kft_static_run[];
extern const char kft_static_run_file[];

#endif /* _LINUX_KFT_BOOT_H */
