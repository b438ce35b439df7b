#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# KFT on every kernel series of patches/SERIES besides the default one
# (which the other e2e tests cover), with GCC, on that series' check kernel
# (the boot run and modules built in): in make check on one architecture a
# series, in make check-full on x86_64 and arm64 (kft_series_arches in
# tests/lib/common.sh; KFT_SERIES_ARCHES overrides):
#  - its source fetched (tests/lib/ksource.sh) and KFT installed with no
#    fuzz (patches/install.sh); a series whose pinned source has left
#    Debian's archive is skipped, said so;
#  - the default boot run, start_kernel to the first user program, booted
#    with initcall_debug: what test_boot_run.sh checks of it and of kd --boot;
#  - on 2 CPUs booted with kft=off: /proc/kft driven as a user would, the
#    hooks' call sites NOPs while idle, calls while a run is armed, NOPs
#    again after (tests/guest/control.sh); one openat() traced and checked
#    as test_kft_kernel.sh does; a clean kernel log throughout.
# The whole matrix on a series: make check-full KVER=6.18 (README).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
. tests/lib/common.sh
BUILD=${BUILD:-build}
E2E=$BUILD/e2e
. tests/e2e/test_boot_run.sh
. tests/e2e/test_kft_kernel.sh

series_test() {
	local v=$KFT_CHECK_VARIANT kdir out
	kdir=$(tests/lib/kbuild.sh "$v" gcc | tail -n 1)
	ok $? "$KFT_TAG gcc: KFT installs without fuzz, the check kernel builds" || return
	out=$E2E/$(kft_arch_name "series-boot-$v" static gcc)
	boot "$v kftstatic.conf" "$kdir" "$out" 1 boot initcall_debug
	if [ -f "$out/boot.out" ]; then
		default_run_checks "$v kftstatic.conf" "$out" "$kdir" "kernel/kftstatic.conf"
		boot_report_checks "$v kftstatic.conf" "$out"
	fi
	KFT_BOOT_STEPS=control,syscall boot_test "gcc-${v#kft+}" 2 "$kdir" "$(kft_noboot_args "$v")"
}

for series in ${KFT_SERIES:-$(kft_series_list)}; do
	[ "$series" = "$KFT_KVER_DEFAULT" ] && continue
	KFT_KVER=$series
	rc=0
	tests/lib/ksource.sh "$series" > /dev/null || rc=$?
	if [ "$rc" = 3 ]; then
		tap_skip "linux-$series: its pinned source has left Debian's archive (patches/SERIES)"
		continue
	fi
	for KFT_ARCH in ${KFT_SERIES_ARCHES:-$(kft_series_arches "$series")}; do
		. tests/lib/arch.sh
		series_test
	done
done
KFT_KVER=$KFT_KVER_DEFAULT
tap_done
