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

#endif /* _LINUX_KFT_COMPAT_H */
