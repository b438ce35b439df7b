/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel Function Trace boot runs: the architecture primes the run given by
 * the kft= parameter or kftstatic.conf right before start_kernel().
 * See Documentation/trace/kft/boot.rst.
 */
#ifndef _LINUX_KFT_BOOT_H
#define _LINUX_KFT_BOOT_H

#include <linux/init.h>

#ifdef CONFIG_KFT
void __init kft_boot_prime(void);
#else
static inline void kft_boot_prime(void) { }
#endif

/*
 * An architecture that can write its text only from setup_arch() on (arm64:
 * through its linear alias, once paging_init() has mapped it) calls this
 * there: with no boot run primed, the hook sites become NOPs then, not at
 * early_initcall.  kernel/kft_sites.c.
 */
#ifdef CONFIG_KFT_NOP_SITES
void __init kft_boot_text_writable(void);
#else
static inline void kft_boot_text_writable(void) { }
#endif

/* kernel/kftstatic.c, generated from kftstatic.conf by scripts/mkkftrun. */
extern const char kft_static_run[];
extern const char kft_static_run_file[];

#endif /* _LINUX_KFT_BOOT_H */
