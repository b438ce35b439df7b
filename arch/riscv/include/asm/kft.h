/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel Function Trace, riscv part: the clock the hooks read, and where a
 * boot run finds its kft= parameter.
 *
 * The time CSR counts from reset at the platform's timebase frequency; the
 * kernel learns that rate from the device tree in time_init().  S-mode
 * reads the CSR directly where M-mode firmware allows it (mcounteren.TM;
 * QEMU and OpenSBI do), else each read traps to the firmware.
 */
#ifndef _ASM_RISCV_KFT_H
#define _ASM_RISCV_KFT_H

#include <asm/csr.h>
#include <asm/delay.h>
#include <asm/pgtable.h>

static __always_inline u64 kft_arch_cycles(void)
{
	return csr_read(CSR_TIME);
}

/* Rate of kft_arch_cycles() in kHz; 0 before time_init(). */
static __always_inline unsigned long kft_arch_cycles_khz(void)
{
	return riscv_timebase / 1000;
}

/*
 * The same for a boot run: the hooks call it while the limits are
 * provisional, so it reads only variables.  Before time_init(), the rate
 * kernel/kft_boot.c read from the early device tree, where time_init()
 * finds it.
 */
#define KFT_ARCH_BOOT_FDT_RATE	"timebase-frequency"
extern unsigned long kft_boot_fdt_khz;

static __always_inline unsigned long kft_arch_boot_cycles_khz(void)
{
	return riscv_timebase ? riscv_timebase / 1000 : kft_boot_fdt_khz;
}

/* Bounds on the timebase until time_init(): 1 MHz to 1 GHz. */
#define KFT_ARCH_BOOT_KHZ_LO	1000U
#define KFT_ARCH_BOOT_KHZ_HI	1000000U

/*
 * _start_kernel sets tp to init_task (CPU 0) before the boot run is primed,
 * and __per_cpu_offset[0] is 0 until setup_per_cpu_areas(): per-CPU data is
 * its template then, so the fast paths run from the first call
 * (kernel/kft_boot.c).
 */
#define KFT_ARCH_PERCPU_AT_START

/* kft= before setup_arch() copies the command line: the early device tree. */
#define kft_arch_boot_fdt kft_arch_boot_fdt
static __always_inline const void *kft_arch_boot_fdt(void)
{
	return dtb_early_va;
}

#ifdef CONFIG_KFT_NOP_SITES
#include <linux/kft_compat.h>
#include <linux/string.h>
#include <asm/cacheflush.h>

/*
 * A hook's call site (listed by scripts/kftsites) is "auipc ra, hi" then
 * "jalr ra, lo(ra)": vmlinux is linked with --no-relax and modules are
 * built -mno-relax, so the linker leaves both.  Only the JALR changes, to
 * a NOP and back; the AUIPC just sets ra, which is dead there.  With RVC
 * the JALR may straddle 4 bytes, so sites change with every other hart
 * stopped (KFT_ARCH_SITES_STOP_MACHINE), as riscv's ftrace does.
 */
#define KFT_SITE_SIZE	8
#define KFT_ARCH_SITES_STOP_MACHINE

/*
 * Before start_kernel() the kernel runs on setup_vm()'s early page table,
 * which maps its text writable, on one hart: the first NOPs are plain
 * stores there, and a FENCE.I makes this hart fetch them; the other
 * harts have not run any of that text yet.  (An XIP kernel's text is not
 * writable: it has no NOP'd sites.)  Before, an idle kernel called the
 * hooks 688,000 times until early_initcall.
 */
#define KFT_ARCH_SITES_BEFORE_START

static inline void kft_arch_sites_early_done(void)
{
	local_flush_icache_all();
}

/*
 * vmlinux's sites are written through a writable mapping of its text
 * (kernel/kft_sites.c), all in one stop: every hart then runs
 * kft_arch_site_sync_local(), which is all they need.
 */
#define KFT_ARCH_SITES_ALIAS

static inline void kft_arch_sites_alias_sync(unsigned long start,
					     unsigned long end)
{
}

#define KFT_RV_NOP	0x00000013U	/* addi x0, x0, 0 */
#define KFT_RV_AUIPC_RA	0x00000097U	/* auipc ra, 0 */
#define KFT_RV_JALR_RA	0x000080e7U	/* jalr ra, 0(ra) */

static inline void kft_arch_site_insn(u8 *insn, unsigned long site, void *hook)
{
	long off = (long)hook - (long)site;
	__le32 w[2];

	if (hook) {
		w[0] = cpu_to_le32(KFT_RV_AUIPC_RA | ((off + 0x800) & 0xfffff000));
		w[1] = cpu_to_le32(KFT_RV_JALR_RA | (u32)(off & 0xfff) << 20);
	} else {	/* the AUIPC as it is: what the NOP's site holds */
		memcpy(&w[0], (void *)site, sizeof(w[0]));
		w[1] = cpu_to_le32(KFT_RV_NOP);
	}
	memcpy(insn, w, sizeof(w));
}

/*
 * A tail call to the exit hook (scripts/kftsites lists it with the exit's
 * calls) is "auipc R, hi" then "jalr x0, lo(R)", R the register the
 * assembler chose.  Only the JALR changes: to a RET (jalr x0, 0(ra))
 * while no run is armed, and back; R is dead there.
 */
#define KFT_ARCH_SITE_TAILS
#define KFT_RV_AUIPC	0x00000017U	/* auipc x0, 0 */
#define KFT_RV_JALR_X0	0x00000067U	/* jalr x0, 0(x0) */
#define KFT_RV_RET	0x00008067U	/* jalr x0, 0(ra) */
void kft_site_ret(void);

static inline bool kft_arch_site_tail(u8 *insn, unsigned long site, void *hook)
{
	long off = (long)hook - (long)site;
	__le32 w[2];
	u32 rd;

	memcpy(&w[0], (void *)site, sizeof(w[0]));
	if ((le32_to_cpu(w[0]) & 0x7f) != KFT_RV_AUIPC)
		return false;
	rd = le32_to_cpu(w[0]) & 0xf80;		/* bits 7-11 */
	if (hook) {
		w[0] = cpu_to_le32(KFT_RV_AUIPC | rd | ((off + 0x800) & 0xfffff000));
		w[1] = cpu_to_le32(KFT_RV_JALR_X0 | rd << 8 |	/* rs1 */
				   (u32)(off & 0xfff) << 20);
	} else {
		w[1] = cpu_to_le32(KFT_RV_RET);
	}
	memcpy(insn, w, sizeof(w));
	return true;
}

/* Only the JALR; every other hart is stopped (kft_sites.c). */
static inline void kft_arch_site_poke(void *site, const u8 *insn)
{
	patch_insn_write(site + 4, insn + 4, 4);
}

/* The stopped harts, and the patching one, drop what they fetched. */
static inline void kft_arch_site_sync_local(void)
{
	local_flush_icache_all();
}

/* Patching in stop_machine: patch_insn_write()'s text_mutex check is moot. */
static inline void kft_arch_sites_stopping(bool on)
{
	riscv_patch_in_stop_machine = on;
}

/* A module's sites, patched before any of its code ran. */
static inline void kft_arch_site_poke_done(void)
{
	flush_icache_all();
}
#endif

#endif /* _ASM_RISCV_KFT_H */
