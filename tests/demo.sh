#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build the reference KFT kernel (GCC, cached), boot it in QEMU,
# trace one openat() system call configured by function name, and show
# where its time went.  Results go to $BUILD/demo/.
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
kft_log "step 3/3: resolve addresses with addr2sym, analyse with kd"
"$BUILD/addr2sym" -m "$kdir/System.map" "$out/kft_data.raw" > "$out/kft_data.sym"

echo
echo "The configuration written to /proc/kft in the guest:"
sed -n '/^cat > \/proc\/kft/,/^CFG/p' tests/guest/syscall.sh | sed '1d;$d'
echo
echo "Where the time went, per function (scripts/kd -n 12):"
"$BUILD/kd" -n 12 "$out/kft_data.sym"
echo
echo "The call tree (scripts/kd -c; times in microseconds):"
"$BUILD/kd" -c "$out/kft_data.sym" | head -n 40
"$BUILD/kd" --svg "$out/kft_data.sym" > "$out/flamegraph.svg"
"$BUILD/kd" --chrome "$out/kft_data.sym" > "$out/trace.json"
echo
echo "Files: $out/kft_data.raw (as read from /proc/kft_data), $out/kft_data.sym (resolved),"
echo "       $out/flamegraph.svg (open in a browser), $out/trace.json (Perfetto UI),"
echo "       $out/qemu/console.log (the guest's console)."
