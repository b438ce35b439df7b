/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel Function Trace: what differs between the kernel series KFT installs
 * into (patches/SERIES), keyed on the kernel version, in this one place.
 * KFT's sources use each interface as the newest series has it; for an
 * older series, this maps it onto what that series has.
 */
#ifndef _LINUX_KFT_COMPAT_H
#define _LINUX_KFT_COMPAT_H

#include <linux/version.h>

/*
 * 6.4: the atomics that are not instrumented (for KCSAN, KASAN), which the
 * hooks use, became raw_*(); they were arch_*().  A module's memory
 * became mod->mem[], by type; its core text was core_layout before.
 */
#if KERNEL_VERSION(6, 4, 0) > LINUX_VERSION_CODE
#include <linux/module.h>

#define raw_cmpxchg			arch_cmpxchg
#define raw_atomic_long_inc		arch_atomic_long_inc
#define raw_atomic_long_fetch_add	arch_atomic_long_fetch_add

#ifdef CONFIG_MODULES
#define MOD_TEXT	0
static inline bool within_module_mem_type(unsigned long addr,
					  const struct module *mod, int type)
{
	unsigned long base = (unsigned long)mod->core_layout.base;

	return type == MOD_TEXT && addr - base < mod->core_layout.text_size;
}
#endif
#endif

/*
 * The architecture's text patching, for the hooks' call sites.  6.13:
 * arm's <asm/patch.h>, arm64's <asm/patching.h> and riscv's <asm/patch.h>
 * became <asm/text-patching.h>, which x86 already had.
 */
#ifdef CONFIG_KFT_NOP_SITES
#if KERNEL_VERSION(6, 13, 0) <= LINUX_VERSION_CODE || defined(CONFIG_X86)
#include <asm/text-patching.h>
#elif defined(CONFIG_ARM64)
#include <asm/patching.h>
#else
#include <asm/patch.h>
#endif
#endif

/*
 * 6.16: x86's batched text patching, text_poke_queue() and
 * text_poke_finish(), became smp_text_poke_batch_add() and _finish().
 */
#if KERNEL_VERSION(6, 16, 0) > LINUX_VERSION_CODE
#define smp_text_poke_batch_add		text_poke_queue
#define smp_text_poke_batch_finish	text_poke_finish
#endif

/*
 * pr_flush(), which waits for consoles that print from their own thread,
 * is static to printk.c in 6.1 (public in 6.12); there every console
 * prints inside printk() and there is nothing to wait for.
 */
#if KERNEL_VERSION(6, 12, 0) > LINUX_VERSION_CODE
static inline bool pr_flush(int timeout_ms, bool reset_on_progress)
{
	return true;
}
#endif

#endif /* _LINUX_KFT_COMPAT_H */
