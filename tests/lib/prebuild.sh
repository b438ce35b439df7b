#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the check tier's kernels (KFT_CHECK_KERNELS, tests/lib/common.sh)
# ahead of the tests that boot them, at the lowest CPU priority: QEMU runs
# its guests in one host thread, and this keeps the other core busy.  A
# test that needs a kernel being built here waits for it (kbuild.sh's lock
# on the build directory); one not built yet it builds itself.  A kernel
# that fails here is left for its test to build again and report.
#
# usage: tests/lib/prebuild.sh   (tests/run.sh starts it in the background)
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/common.sh
export KFT_PREBUILD=1
arches=" ${KFT_ARCHES:-x86_64 arm64 riscv64 arm} "
while read -r arch variant cc series; do
	[[ $arches = *" $arch "* ]] || continue
	# A series whose source has left the archive: its test says so.
	tests/lib/ksource.sh "${series:-$KFT_KVER}" > /dev/null 2>&1 || continue
	KFT_KVER=${series:-$KFT_KVER} KFT_ARCH=$arch nice -n 19 tests/lib/kbuild.sh "$variant" "$cc" > /dev/null ||
		kft_log "prebuild: $arch $variant $cc ${series:-} failed; its test builds it again"
done <<< "$KFT_CHECK_KERNELS"
