#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build the reference KFT kernel (GCC, cached), boot it in QEMU,
# trace one openat() system call configured by function name, and print
# the trace with names.  Results go to $BUILD/demo/.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. tests/lib/common.sh
BUILD=${BUILD:-build}
out=$BUILD/demo
mkdir -p "$out"

kft_log "step 1/3: kernel (Linux 6.12 + KFT, GCC, tinyconfig-based; cached in $KFT_CACHE)"
kdir=$(tests/lib/kbuild.sh kft gcc | tail -n 1)
kft_log "step 2/3: boot in QEMU and trace openat()"
tests/lib/qemu-run.sh -s 2 "$kdir" "$out/qemu" syscall
sed -n '/^=== data$/,$p' "$out/qemu/syscall.out" | tail -n +2 > "$out/kft_data.raw"
kft_log "step 3/3: resolve addresses with addr2sym"
"$BUILD/addr2sym" -m "$kdir/System.map" "$out/kft_data.raw" > "$out/kft_data.sym"

echo
echo "The configuration written to /proc/kft in the guest:"
sed -n '/^cat > \/proc\/kft/,/^CFG/p' tests/guest/syscall.sh | sed '1d;$d'
echo
echo "The trace (times in microseconds; calls indented under their callers):"
awk '/^------/ { data = 1; next }
     !data || NF < 6 { next }
     {	cpu = $NF; e = $1 + 0
	while (d[cpu] > 0 && e >= end[cpu, d[cpu]] - 0.002) d[cpu]--
	ind = ""; for (i = 0; i < d[cpu]; i++) ind = ind "|  "
	printf "%12s %10s %6s  %s%s\n", $1, $2, $3, ind, $4
	if ($2 >= 0) { d[cpu]++; end[cpu, d[cpu]] = e + $2 } }' "$out/kft_data.sym" | head -n 60
echo
echo "Files: $out/kft_data.raw (as read from /proc/kft_data), $out/kft_data.sym (resolved),"
echo "       $out/qemu/console.log (the guest's console)."
