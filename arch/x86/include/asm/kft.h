/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel Function Trace, x86 part: the clock the hooks read.
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

#endif /* _ASM_X86_KFT_H */
