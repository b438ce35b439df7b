/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel Function Trace, 32-bit arm part: the clock the hooks read, where a
 * boot run finds its kft= parameter, and the instructions at the hooks'
 * call sites.
 *
 * ARMv7 CPUs with the generic timer (HAVE_KFT needs ARM_ARCH_TIMER) read
 * the virtual counter through cp15 from the first instruction, at the rate
 * firmware programmed in CNTFRQ, so a boot run has real times from
 * start_kernel() on.  A CPU without the timer (a multi-platform kernel on
 * a Cortex-A9) gets no boot run, and dynamic runs use sched_clock().
 */
#ifndef _ASM_ARM_KFT_H
#define _ASM_ARM_KFT_H

#include <linux/percpu.h>
#include <asm/arch_timer.h>
#include <asm/cputype.h>
#include <asm/memory.h>
#include <asm/pgtable.h>	/* SECTION_SIZE, for FDT_VIRT_BASE() */
#include <clocksource/arm_arch_timer.h>

/*
 * The virtual counter, read on its own: without the ISB that
 * __arch_counter_get_cntvct() puts before the read, which costs more than
 * the hook reading it, and whose order the hooks do not need (the arm64
 * part says why).
 */
static __always_inline u64 kft_arch_cycles(void)
{
	u64 cval;

	asm volatile("mrrc p15, 1, %Q0, %R0, c14" : "=r" (cval));
	return cval;
}

/*
 * Rate of kft_arch_cycles() in kHz, 0 where the timer driver found no
 * generic timer.  Called when a run is armed, not from the hooks.
 */
static inline unsigned long kft_arch_cycles_khz(void)
{
	return arch_timer_get_rate() / 1000;
}

/* ID_PFR1.GenTimer: the CPU has CNTVCT and CNTFRQ (else they are UNDEF). */
#define kft_arch_boot_clock_usable kft_arch_boot_clock_usable
static __always_inline bool kft_arch_boot_clock_usable(void)
{
	return cpuid_feature_extract(CPUID_EXT_PFR1, 16) > 0;
}

/*
 * The same for a boot run, from the first instruction (on a CPU that
 * kft_arch_boot_clock_usable() accepted).  The hooks call it while the
 * limits are provisional, so it reads only the register.
 */
static __always_inline unsigned long kft_arch_boot_cycles_khz(void)
{
	return arch_timer_get_cntfrq() / 1000;
}

/*
 * The per-CPU offset (TPIDRPRW) is set only in smp_setup_processor_id();
 * kft_boot_prime() sets it to 0 first, as that will, so a boot run's fast
 * paths use the boot CPU's per-CPU data from the first call
 * (kernel/kft_boot.c).  Not on ARMv6, whose offset read is fixed up for
 * SMP-on-UP only in setup_arch().
 */
#ifndef CONFIG_CPU_V6
#define KFT_ARCH_PERCPU_AT_START
#define kft_arch_boot_percpu kft_arch_boot_percpu
static __always_inline void kft_arch_boot_percpu(void)
{
	set_my_cpu_offset(0);
}
#endif

/* Bounds while CNTFRQ reads 0 (left to the device tree): 1 MHz to 1 GHz. */
#define KFT_ARCH_BOOT_KHZ_LO	1000U
#define KFT_ARCH_BOOT_KHZ_HI	1000000U

#ifdef CONFIG_THUMB2_KERNEL
/* Thumb code pointers have bit 0 set; kallsyms' addresses do not. */
#define kft_arch_code_addr(p)	((unsigned long)(p) & ~1UL)
#endif

/*
 * kft= before setup_arch() copies the command line: the boot loader's
 * device tree, which head.S mapped at FDT_FIXED_BASE.
 */
extern unsigned int __atags_pointer;

#define kft_arch_boot_fdt kft_arch_boot_fdt
static __always_inline const void *kft_arch_boot_fdt(void)
{
	return __atags_pointer ? FDT_VIRT_BASE(__atags_pointer) : NULL;
}

#ifdef CONFIG_KFT_NOP_SITES
#include <linux/kft_compat.h>
#include <linux/string.h>
#include <asm/cacheflush.h>
#include <asm/insn.h>
#include <asm/opcodes.h>
#include <asm/sections.h>

/*
 * A hook's call site (listed by scripts/kftsites) is a BL, or a NOP in its
 * place while no run is armed: 4 bytes in ARM and in Thumb-2 (nop.w), where
 * a site may be only 2-byte aligned.  A Thumb-2 instruction's halfwords are
 * written one by one, so sites change with every other CPU stopped
 * (KFT_ARCH_SITES_STOP_MACHINE), as arm's ftrace does.
 */
#define KFT_SITE_SIZE	4
#define KFT_ARCH_SITES_STOP_MACHINE

/*
 * head.S maps the kernel's text writable, and it stays so until
 * mark_rodata_ro().  setup_arch() calls kft_boot_text_writable() once
 * setup_processor() has set up the cache functions: the first NOPs are
 * plain stores, one CPU, interrupts off, then made fetchable once.
 */
#define KFT_ARCH_SITES_IN_SETUP_ARCH

static inline void kft_arch_sites_early_done(void)
{
	flush_icache_range((unsigned long)_stext, (unsigned long)_etext);
	flush_icache_range((unsigned long)_sinittext,
			   (unsigned long)_einittext);
}

/*
 * vmlinux's sites are written through a writable mapping of its text
 * (kernel/kft_sites.c), then cleaned to where instructions are fetched
 * from, by the CPU that wrote them, before the others go on.
 */
#define KFT_ARCH_SITES_ALIAS

static inline void kft_arch_sites_alias_sync(unsigned long start,
					     unsigned long end)
{
	flush_icache_range(start, end);
}

/* An instruction as the kernel's encoders give it, to and from memory. */
static inline u32 kft_arm_insn_to_mem(u32 insn)
{
	return IS_ENABLED(CONFIG_THUMB2_KERNEL) ?
	       __opcode_to_mem_thumb32(insn) : __opcode_to_mem_arm(insn);
}

static inline void kft_arch_site_insn(u8 *insn, unsigned long site, void *hook)
{
	/* Out of BL's range (a module calling through a PLT): 0, never there. */
	u32 op = hook ? arm_gen_branch_link(site, (unsigned long)hook, false) :
			arm_gen_nop();
	u32 mem = op ? kft_arm_insn_to_mem(op) : 0;

	memcpy(insn, &mem, sizeof(mem));
}

/*
 * A tail call to the exit hook (scripts/kftsites lists it with the exit's
 * calls) is a B: to the hook, or while no run is armed to kft_site_ret(), a
 * return (kernel/kft_sites.c).
 */
#define KFT_ARCH_SITE_TAILS
void kft_site_ret(void);

static inline bool kft_arch_site_tail(u8 *insn, unsigned long site, void *hook)
{
	unsigned long to = (unsigned long)(hook ?: (void *)kft_site_ret);
	u32 op = __arm_gen_branch(site, to, false, false);
	u32 mem;

	if (!op)	/* out of reach: a module's, through a PLT */
		return false;
	mem = kft_arm_insn_to_mem(op);
	memcpy(insn, &mem, sizeof(mem));
	return true;
}

/* Every other CPU is stopped (kft_sites.c); this flushes the range. */
static inline void kft_arch_site_poke(void *site, const u8 *insn)
{
	u32 mem;

	memcpy(&mem, insn, sizeof(mem));
	__patch_text(site, IS_ENABLED(CONFIG_THUMB2_KERNEL) ?
			   __mem_to_opcode_thumb32(mem) :
			   __mem_to_opcode_arm(mem));
}

/* The stopped CPUs, and the patching one, fetch the new code. */
static inline void kft_arch_site_sync_local(void)
{
	isb();
}

static inline void kft_arch_sites_stopping(bool on)
{
}

/* A module's sites, patched before any of its code ran: flushed already. */
static inline void kft_arch_site_poke_done(void)
{
}
#endif

#endif /* _ASM_ARM_KFT_H */
