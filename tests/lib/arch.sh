# SPDX-License-Identifier: GPL-2.0
# What the test harness needs to know about each architecture it builds and
# boots: one place.  Source it after common.sh; KFT_ARCH picks the
# architecture (x86_64 by default, arm64, riscv64 or arm) and this sets:
#   KARCH        the kernel's ARCH=
#   KCROSS       CROSS_COMPILE= for GCC builds (empty for native)
#   KIMAGE       the boot image, relative to the build directory
#   GUEST_CC     the compiler for the guest's static programs
#   DEBARCH      Debian's name of the architecture (its busybox-static)
#   SYS          the prefix of system call functions (__x64_sys_openat)
#   QEMU         the emulator, with the machine and CPU
#   CONSOLE      the kernel console device
#   KPARAMS      kernel parameters the arch's boots add (qemu-run.sh)
#   KCOMPILERS   the compilers its kernels are tested with
#   KSITES       1 if the hooks' call sites are NOPs while idle
#                (HAVE_KFT_NOP_SITES), 0 if they are always called
#   KTIMEOUT     seconds a test boot may take (qemu-run.sh's default)
#   KTCG         QEMU's TCG threading: single (one host thread for all
#                vCPUs) or multi (see qemu-run.sh)
#   EARLY_FNS    functions setup_arch() calls early, in this order, and
#                LATER_FN one it calls after them: a boot run's times
#                there must be real (x86: before the TSC is calibrated)
# kft_arch_name VARIANT COMPILER BASE prints the build directory's name.

KFT_ARCH=${KFT_ARCH:-x86_64}
KPARAMS=
case $KFT_ARCH in
x86_64)
	KARCH=x86_64 KCROSS= KIMAGE=arch/x86/boot/bzImage GUEST_CC=gcc
	SYS=__x64_sys_ CONSOLE=ttyS0
	EARLY_FNS="e820__memory_setup parse_early_param" LATER_FN=probe_roms
	KCOMPILERS="gcc clang" KSITES=1 KTIMEOUT=300 KTCG=single
	QEMU=(qemu-system-x86_64 -machine pc -cpu max)
	;;
arm64)
	KARCH=arm64 KCROSS=aarch64-linux-gnu- KIMAGE=arch/arm64/boot/Image
	GUEST_CC=aarch64-linux-gnu-gcc SYS=__arm64_sys_ CONSOLE=ttyAMA0
	EARLY_FNS="setup_machine_fdt parse_early_param" LATER_FN=arm64_memblock_init
	KCOMPILERS="gcc clang" KSITES=1 KTIMEOUT=300 KTCG=single
	# pauth-impdef: QEMU's architected pointer authentication is slow.
	QEMU=(qemu-system-aarch64 -machine virt -cpu max,pauth-impdef=on)
	;;
riscv64)
	KARCH=riscv KCROSS=riscv64-linux-gnu- KIMAGE=arch/riscv/boot/Image
	GUEST_CC=riscv64-linux-gnu-gcc SYS=__riscv_sys_ CONSOLE=ttyS0
	EARLY_FNS="parse_dtb parse_early_param" LATER_FN=unflatten_device_tree
	# Sites change with the other harts stopped, spinning: with one host
	# thread for all vCPUs each patched page hands the thread to a spinner
	# (570 s for the e2e steps, 49 s with a thread each).  Every hart runs
	# fence.i after the patching, so no stale translation survives it.
	KCOMPILERS=gcc KSITES=1 KTIMEOUT=600 KTCG=multi
	QEMU=(qemu-system-riscv64 -machine virt -bios default)
	# The 8250 console registers after SMP bring-up and the early
	# initcalls: a boot that hangs before it (one 2-CPU kft= boot in a
	# cold CI did, 1 in many) shows where only with the early console.
	KPARAMS=earlycon
	;;
arm)
	# ARMv7 (Cortex-A15) with the generic timer; the reference kernel is
	# Thumb-2 (tinyconfig's choice), arm-isa.config builds ARM.  Sites
	# change with the other CPUs stopped, as on riscv64; and with one host
	# thread for all vCPUs the boot stalls in stop_machine
	# (fix_kernmem_perms; the porting study saw vanilla kernels do so too).
	KARCH=arm KCROSS=arm-linux-gnueabihf- KIMAGE=arch/arm/boot/zImage
	GUEST_CC=arm-linux-gnueabihf-gcc SYS=sys_ CONSOLE=ttyAMA0
	EARLY_FNS="setup_machine_fdt parse_early_param" LATER_FN=arm_memblock_init
	KCOMPILERS="gcc clang" KSITES=1 KTIMEOUT=600 KTCG=multi
	QEMU=(qemu-system-arm -machine virt -cpu cortex-a15)
	;;
*)
	echo "error: KFT_ARCH must be x86_64, arm64, riscv64 or arm, not $KFT_ARCH" >&2
	exit 1
	;;
esac
DEBARCH=$KFT_ARCH
[ "$KFT_ARCH" = arm ] && DEBARCH=armhf
export KFT_ARCH
# The tests' names start with KFT_TAG: the arch, after the series when it
# is not the default ("linux-6.18 arm64 gcc 2cpu: ...").
KFT_TAG=$KFT_ARCH
[ "$KFT_KVER" = "$KFT_KVER_DEFAULT" ] || KFT_TAG="linux-$KFT_KVER $KFT_ARCH"

# x86_64's build directories keep their names from before other arches,
# and the default series' from before other series.
kft_arch_name() {
	local series=
	[ "$KFT_KVER" = "$KFT_KVER_DEFAULT" ] || series=linux-$KFT_KVER-
	if [ "$KFT_ARCH" = x86_64 ]; then
		echo "$series$1-$2-$3"
	else
		echo "$series$KFT_ARCH-$1-$2-$3"
	fi
}
