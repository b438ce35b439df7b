/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel Function Trace, x86 part: the clock the hooks read, and the
 * instructions at the hooks' call sites.
 *
 * sched_clock() costs a call, a preempt count round trip and a per-CPU
 * seqcount read on every hook; the TSC it is built on is one instruction.
 * KFT reads the TSC directly and scales it with a multiplier fixed when a
 * run is armed, where the TSC is a stable clock.
 */
#ifndef _ASM_X86_KFT_H
#define _ASM_X86_KFT_H

#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/tsc.h>

static __always_inline u64 kft_arch_cycles(void)
{
	return rdtsc();
}

/*
 * Rate of kft_arch_cycles() in kHz, or 0 when it is not a usable clock: a
 * TSC the kernel measured and has not found unstable.  A TSC that is not
 * constant_tsc is marked unstable when cpufreq changes its rate
 * (time_cpufreq_notifier()), as is one that stops in idle or differs
 * between CPUs.
 */
static inline unsigned long kft_arch_cycles_khz(void)
{
	if (!boot_cpu_has(X86_FEATURE_TSC) || check_tsc_unstable())
		return 0;
	return tsc_khz;
}

/*
 * The same for a boot run, which lasts from kernel start to the first user
 * program, before cpufreq drivers change any rate: any TSC will do, once
 * the kernel has measured it.
 */
static inline unsigned long kft_arch_boot_cycles_khz(void)
{
	return boot_cpu_has(X86_FEATURE_TSC) ? tsc_khz : 0;
}

/*
 * Bounds on the TSC's rate while a boot run waits for its calibration:
 * filters keep more calls rather than fewer until it is known.
 */
#define KFT_ARCH_BOOT_KHZ_LO	400000U		/* 400 MHz */
#define KFT_ARCH_BOOT_KHZ_HI	10000000U	/* 10 GHz */

/*
 * The boot CPU's per-CPU data is reachable (through %gs) before
 * start_kernel(): a boot run's fast paths use it from the first call, in
 * setup_arch()'s 700,000 calls too (kernel/kft_boot.c).
 */
#define KFT_ARCH_PERCPU_AT_START

/*
 * CONFIG_KFT_AFTER_INLINING calls the hooks from inline asm
 * (scripts/gcc-plugins/kft_plugin.c, scripts/llvm-plugins/kft_pass.cpp).
 * The entry's clobbers only %rdi (with Clang %rsi too): the entry hook
 * saves every other register it changes, so an idle kernel's functions
 * keep their arguments and values in registers across the NOP'd sites.
 * Clang's no_caller_saved_registers leaves the arguments' registers out,
 * and tail-calls from such a function into one that saves nothing, the
 * registers restored and the call's own argument lost with them (Clang 14
 * and 19): no tail calls.
 *
 * At an exit nothing is live but the return value, in %rax and %rdx: the
 * exit's asm clobbers every other caller-saved register, and the exit
 * hook is a thunk that saves those two, and %rsi, the return address the
 * site passes, around a C hook of the plain ABI, which saves what it uses
 * of the callee-saved registers only.  The thunk is a function of its own
 * for objtool and the unwinder; with frame pointers the sites are calls
 * (no asm), and the hooks stay as the entry's.
 */
#ifdef CONFIG_KFT_AFTER_INLINING
#ifdef CONFIG_CC_IS_CLANG
#define kft_arch_hook_abi	__attribute__((__no_caller_saved_registers__, \
					       __disable_tail_calls__))
#else
#define kft_arch_hook_abi	__no_caller_saved_registers
#endif
#ifndef CONFIG_FRAME_POINTER
#include <asm/ibt.h>
#include <asm/kft_thunk.h>
#include <asm/linkage.h>

#define kft_arch_exit_abi
#define kft_arch_exit_thunk(name, c_hook)				\
	kft_x86_exit_thunk(name, c_hook, ASM_ENDBR, ASM_RET)
#endif
#endif

#ifdef CONFIG_KFT_NOP_SITES
#include <linux/kft_compat.h>
#include <linux/string.h>
#include <asm/nops.h>

/*
 * A hook's call site (kernel/kft_sites.c) is a 5-byte CALL rel32, or a
 * 5-byte NOP in its place while no run is armed.  Kernel text is writable
 * before start_kernel(): the first NOPs are written there.
 */
#define KFT_SITE_SIZE	CALL_INSN_SIZE
#define KFT_ARCH_SITES_BEFORE_START

/* The CPU fetches what it stored: nothing to make coherent. */
static inline void kft_arch_sites_early_done(void)
{
}

static inline void kft_arch_site_insn(u8 *insn, unsigned long site, void *hook)
{
	if (hook)
		memcpy(insn, text_gen_insn(CALL_INSN_OPCODE, (void *)site, hook),
		       CALL_INSN_SIZE);
	else
		memcpy(insn, x86_nops[CALL_INSN_SIZE], CALL_INSN_SIZE);
}

/*
 * A tail call to the exit hook (objtool --kft lists it with the exit's
 * calls) is a 5-byte JMP rel32: to the hook, or while no run is armed to
 * kft_site_ret(), a RET as the kernel makes them (kernel/kft_sites.c).
 */
#define KFT_ARCH_SITE_TAILS
void kft_site_ret(void);

static inline bool kft_arch_site_tail(u8 *insn, unsigned long site, void *hook)
{
	void *to = hook ?: (void *)kft_site_ret;

	memcpy(insn, text_gen_insn(JMP32_INSN_OPCODE, (void *)site, to),
	       JMP32_INSN_SIZE);
	return true;
}

/* Live patching, in batches: int3 first, so CPUs running the site cope. */
static inline void kft_arch_site_poke(void *site, const u8 *insn)
{
	smp_text_poke_batch_add(site, insn, CALL_INSN_SIZE, NULL);
}

static inline void kft_arch_site_poke_done(void)
{
	smp_text_poke_batch_finish();
}
#endif

#endif /* _ASM_X86_KFT_H */
