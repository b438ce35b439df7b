/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel Function Trace, arm64 part: the clock the hooks read, and the
 * instructions at the hooks' call sites.
 *
 * The generic timer's virtual counter is readable at EL1 from the first
 * instruction, at the rate firmware programmed in CNTFRQ_EL0, so a boot
 * run has real times from start_kernel() on.  EL2 setup zeroes CNTVOFF_EL2,
 * so under VHE it is the count the clocksource driver uses too.
 */
#ifndef _ASM_ARM64_KFT_H
#define _ASM_ARM64_KFT_H

#include <linux/percpu.h>
#include <linux/stringify.h>
#include <asm/arch_timer.h>

/*
 * The counter, read on its own: __arch_counter_get_cntvct() puts an ISB
 * before the read and a dependent load after it, to order the read with
 * the code around it.  An ISB costs more than the hook that would read it
 * twice a call, and the order is not needed: a read some cycles early or
 * late moves a call's bounds by less than a hook's own cost.  x86's
 * rdtsc() is not serialising either.
 */
static __always_inline u64 kft_arch_cycles(void)
{
	return read_sysreg(cntvct_el0);
}

/*
 * Rate of kft_arch_cycles() in kHz, or 0 when it is not a usable clock: a
 * CPU whose counter needs an erratum workaround reads it another way.
 * Called when a run is armed, not from the hooks.
 */
static inline unsigned long kft_arch_cycles_khz(void)
{
#ifdef CONFIG_ARM_ARCH_TIMER_OOL_WORKAROUND
	int cpu;

	for_each_possible_cpu(cpu)
		if (per_cpu(timer_unstable_counter_workaround, cpu))
			return 0;
#endif
	return arch_timer_get_rate() / 1000;
}

/*
 * The same for a boot run, from the first instruction.  The hooks call it
 * while the limits are provisional, so it reads only the register.
 */
static __always_inline unsigned long kft_arch_boot_cycles_khz(void)
{
	return arch_timer_get_cntfrq() / 1000;
}

/*
 * Bounds on the boot run's counter rate while CNTFRQ_EL0 reads 0 (firmware
 * left it to the device tree): ARMv8 counters run at 1 MHz to 1 GHz.
 */
#define KFT_ARCH_BOOT_KHZ_LO	1000U
#define KFT_ARCH_BOOT_KHZ_HI	1000000U

/*
 * __primary_switched sets the boot CPU's per-CPU offset (TPIDR_EL1) before
 * the boot run is primed: its fast paths use per-CPU data from the first
 * call (kernel/kft_boot.c).
 */
#define KFT_ARCH_PERCPU_AT_START

/*
 * CONFIG_KFT_AFTER_INLINING calls the hooks from inline asm
 * (scripts/gcc-plugins/kft_plugin.c, scripts/llvm-plugins/kft_pass.cpp)
 * that passes the function in x9 and the return address in x10.  The
 * entry's clobbers only x9, x16 and x17 (a module's PLT may change them)
 * and x30: an idle kernel's functions keep their arguments and values in
 * registers across the NOP'd sites.  At an exit nothing is live but the
 * return value, in x0 and x1: the exit's clobbers every other temporary
 * but x18 and x10.  GCC has no attribute that compiles a C function to
 * such a convention on arm64: the hooks are thunks that save the other
 * caller-saved registers (x18 too, a temporary unless it holds the shadow
 * call stack) around the C hooks, with a frame record for the unwinder.
 * First they return if no run is armed, as kft_hooks_idle() does:
 * setup_arch() calls them 42,000 times before the sites are NOPs.  BTI
 * C: modules reach them through a PLT's BR.
 */
#ifdef CONFIG_KFT_AFTER_INLINING
#define kft_arm64_thunk(name, c_hook, frame, save, restore)		\
	asm(".pushsection .text, \"ax\"\n"				\
	    ".globl " #name "\n"					\
	    ".type " #name ", %function\n"				\
	    ".balign 8\n"						\
	    #name ":\n"						\
	    "	hint	#34\n"						\
	    "	adrp	x16, kft_state\n"				\
	    "	ldr	w16, [x16, :lo12:kft_state]\n"			\
	    "	sub	w16, w16, #" __stringify(KFT_ARMED_FIRST) "\n"	\
	    "	cmp	w16, #" __stringify(KFT_ARMED_SPAN) "\n"	\
	    "	b.ls	1f\n"						\
	    "	ret\n"							\
	    "1:	stp	x29, x30, [sp, #-" #frame "]!\n"		\
	    "	mov	x29, sp\n"					\
	    save							\
	    "	mov	x0, x9\n"					\
	    "	mov	x1, x10\n"					\
	    "	bl	" __stringify(c_hook) "\n"			\
	    restore							\
	    "	ldp	x29, x30, [sp], #" #frame "\n"			\
	    "	ret\n"							\
	    ".size " #name ", . - " #name "\n"				\
	    ".popsection")

#define kft_arch_enter_thunk(name, c_hook)				\
	kft_arm64_thunk(name, c_hook, 144,				\
			"	stp	x0, x1, [sp, #16]\n"			\
			"	stp	x2, x3, [sp, #32]\n"			\
			"	stp	x4, x5, [sp, #48]\n"			\
			"	stp	x6, x7, [sp, #64]\n"			\
			"	stp	x8, x10, [sp, #80]\n"			\
			"	stp	x11, x12, [sp, #96]\n"			\
			"	stp	x13, x14, [sp, #112]\n"		\
			"	stp	x15, x18, [sp, #128]\n",		\
			"	ldp	x0, x1, [sp, #16]\n"			\
			"	ldp	x2, x3, [sp, #32]\n"			\
			"	ldp	x4, x5, [sp, #48]\n"			\
			"	ldp	x6, x7, [sp, #64]\n"			\
			"	ldp	x8, x10, [sp, #80]\n"			\
			"	ldp	x11, x12, [sp, #96]\n"			\
			"	ldp	x13, x14, [sp, #112]\n"		\
			"	ldp	x15, x18, [sp, #128]\n")

#define kft_arch_exit_thunk(name, c_hook)				\
	kft_arm64_thunk(name, c_hook, 48,				\
			"	stp	x0, x1, [sp, #16]\n"			\
			"	stp	x10, x18, [sp, #32]\n",		\
			"	ldp	x0, x1, [sp, #16]\n"			\
			"	ldp	x10, x18, [sp, #32]\n")

/*
 * A thunk called as the plugin's call sites call it (kft_calibrate.c),
 * with the exit's clobbers, the entry's and more.
 */
#define kft_arch_call_hook(hook, fn, site)				\
do {									\
	register void *__kft_fn asm("x9") = (fn);			\
	register void *__kft_site asm("x10") = (site);			\
									\
	asm volatile("bl	" __stringify(hook)			\
		     : "+r" (__kft_fn)					\
		     : "r" (__kft_site)					\
		     : "x2", "x3", "x4", "x5", "x6", "x7", "x8",	\
		       "x11", "x12", "x13", "x14", "x15", "x16", "x17",	\
		       "x30", "cc", "memory");				\
} while (0)
#endif

#ifdef CONFIG_KFT_NOP_SITES
#include <linux/kft_compat.h>
#include <linux/smp.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <asm/cacheflush.h>
#include <asm/insn.h>
#include <asm/memory.h>
#include <asm/sections.h>

/*
 * A hook's call site (kernel/kft_sites.c, listed by scripts/kftsites) is a
 * BL, or a NOP in its place while no run is armed.
 */
#define KFT_SITE_SIZE	AARCH64_INSN_SIZE

/*
 * The kernel's text is read-only from its first instruction, but its alias
 * in the linear map is writable from paging_init() until
 * mark_linear_text_alias_ro() in smp_cpus_done(), for alternatives
 * patching.  setup_arch() calls kft_boot_text_writable() after
 * paging_init(): the first NOPs are plain stores through that alias, one
 * CPU, interrupts off; then the D-cache is cleaned to the PoU and the
 * I-cache invalidated, once for the whole text.
 */
#define KFT_ARCH_SITES_IN_SETUP_ARCH
#define kft_arch_site_early_ptr(site)	lm_alias((void *)(site))

static inline void kft_arch_sites_early_done(void)
{
	caches_clean_inval_pou((unsigned long)_stext, (unsigned long)_etext);
	caches_clean_inval_pou((unsigned long)_sinittext,
			       (unsigned long)_einittext);
}

/*
 * Encoded here, not by aarch64_insn_gen_branch_imm(): that is instrumented,
 * and until the sites are NOPs its hooks are still called, three times a
 * site.
 */
#define KFT_A64_NOP	0xd503201fU
#define KFT_A64_BL	0x94000000U	/* imm26: the offset in words */
#define KFT_A64_B	0x14000000U

/* A branch from site to 'to', or false if out of its reach (a PLT's). */
static inline bool kft_a64_branch(u8 *insn, u32 op, unsigned long site,
				  void *to)
{
	long off = (unsigned long)to - site;
	__le32 le;

	if (off < -SZ_128M || off >= SZ_128M)
		return false;
	le = cpu_to_le32(op | ((u32)(off >> 2) & GENMASK(25, 0)));
	memcpy(insn, &le, sizeof(le));
	return true;
}

static inline void kft_arch_site_insn(u8 *insn, unsigned long site, void *hook)
{
	__le32 le;

	if (hook && kft_a64_branch(insn, KFT_A64_BL, site, hook))
		return;
	/* The NOP; or out of BL's reach (a PLT's call): a word never there */
	le = cpu_to_le32(hook ? AARCH64_BREAK_FAULT : KFT_A64_NOP);
	memcpy(insn, &le, sizeof(le));
}

/*
 * A tail call to the exit hook (scripts/kftsites lists it with the exit's
 * calls) is a B: to the hook, or while no run is armed to kft_site_ret(), a
 * RET (kernel/kft_sites.c).  B to B may change while other CPUs run it, as
 * BL to NOP may; B to RET may not.
 */
#define KFT_ARCH_SITE_TAILS
void kft_site_ret(void);

static inline bool kft_arch_site_tail(u8 *insn, unsigned long site, void *hook)
{
	return kft_a64_branch(insn, KFT_A64_B, site,
			      hook ?: (void *)kft_site_ret);
}

/*
 * BL and NOP may be swapped while other CPUs run them, as ftrace does: with
 * one aligned store, so vmlinux's sites are written through a writable
 * mapping of its text, the caches made coherent once (kernel/kft_sites.c).
 */
#define KFT_ARCH_SITES_ALIAS

static inline void kft_arch_sites_alias_sync(unsigned long start,
					     unsigned long end)
{
	flush_icache_range(start, end);
}

/* A module's sites, one by one. */
static inline void kft_arch_site_poke(void *site, const u8 *insn)
{
	__le32 le;

	memcpy(&le, insn, sizeof(le));
	aarch64_insn_patch_text_nosync(site, le32_to_cpu(le));
}

/* Every CPU runs the new code before a run is armed. */
static inline void kft_arch_site_poke_done(void)
{
	kick_all_cpus_sync();
}
#endif

#endif /* _ASM_ARM64_KFT_H */
