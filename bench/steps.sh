#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-steps: what each step of a traced call costs, under QEMU.
#
# Boots a vanilla kernel and a KFT kernel built with CONFIG_KFT_BENCH_STEPS
# (tests/configs/steps.config) RUNS times each, the KFT kernel once per
# step: kft_bench_step=1..4 makes an armed run's hooks stop after their
# first steps (kernel/kft.c: kft_bench_steps()), 0 runs them whole.  Each
# boot times make bench's workloads (tests/guest/bench.sh) untraced, then
# with a run armed that logs every call.  A step's cost per call is
# (traced - untraced, same boot) / calls per operation, the calls counted
# by the whole hooks' run; "x vanilla" is the traced time per operation
# against the vanilla kernel's.
#
# Environment: RUNS (default 3), SCALE (default 3), BENCH_CC (gcc or
# clang, default gcc), BENCH_ARCHES (default x86_64), BUILD.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. tests/lib/common.sh
BUILD=${BUILD:-build}
RUNS=${RUNS:-3}
SCALE=${SCALE:-3}
cc=${BENCH_CC:-gcc}
out=$BUILD/bench/steps
mkdir -p "$out"
t0=$SECONDS

for KFT_ARCH in ${BENCH_ARCHES:-x86_64}; do
	. tests/lib/arch.sh
	raw=$out/raw-$KFT_ARCH-$cc.txt
	rm -f "$raw"
	vanilla=$(tests/lib/kbuild.sh vanilla "$cc" | tail -n 1)
	steps=$(tests/lib/kbuild.sh kft+steps "$cc" | tail -n 1)
	initrd=$out/initramfs-$KFT_ARCH.cpio.gz
	tests/lib/initramfs.sh "$initrd"
	for run in $(seq 1 "$RUNS"); do
		for k in vanilla 0 1 2 3 4; do
			kft_log "$KFT_ARCH $cc steps, boot $run/$RUNS: ${k/#[0-9]/step $k}"
			dir=$out/$KFT_ARCH/$cc-$k-$run
			if [ "$k" = vanilla ]; then
				tests/lib/qemu-run.sh -s 1 -m 1G -t 900 ${KFT_BENCH_QEMU[@]+"${KFT_BENCH_QEMU[@]}"} -i "$initrd" \
					-a "kftbench=none kftscale=$SCALE" "$vanilla" "$dir" bench
			else
				tests/lib/qemu-run.sh -s 1 -m 1G -t 900 ${KFT_BENCH_QEMU[@]+"${KFT_BENCH_QEMU[@]}"} -i "$initrd" \
					-a "kftbench=kft kftscale=$SCALE kft_bench_step=$k" \
					"$steps" "$dir" bench
			fi
			awk -v k="$k" -v r="$run" '{ print k, r, $0 }' "$dir/bench.out" >> "$raw"
		done
	done
	awk -v arch="$KFT_ARCH" -v cc="$cc" -v runs="$RUNS" -v clock="$KFT_BENCH_CLOCK" -f bench/stats.awk -f bench/steps.awk "$raw" \
		> "$out/steps-$KFT_ARCH-$cc.md"
	cat "$out/steps-$KFT_ARCH-$cc.md"
done
kft_log "bench-steps done in $((SECONDS - t0)) s; tables in $out/steps-*.md"
