#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: what KFT costs, against a vanilla kernel and ftrace's
# function_graph tracer, measured side by side in one run, on x86_64 and
# arm64 (BENCH_ARCHES).
#
# Builds (cached), per architecture, three kernels from the same reference
# config and compiler
# - vanilla, KFT, ftrace (FUNCTION_GRAPH_TRACER) - boots each RUNS times in
# QEMU, and runs the guest microbenchmark (tests/guest/kft-bench.c: a
# getppid loop, open/read/close, fork+exit+wait) untraced and traced
# (tests/guest/bench.sh).  Reports medians with min-max over the boots:
# ratios to vanilla, cost per recorded call, bytes per call, calls lost,
# and the host tools' throughput.  QEMU emulates without KVM here, so only
# ratios measured in the same run mean anything.
#
# The three kernels' configs must differ only in the tracer
# (bench/configs.sh).  BENCH_ICOUNT=1 times the boots in instruction time
# (QEMU's -icount: deterministic, one boot enough) instead of QEMU's wall
# clock.
#
# Environment: RUNS (default 5), SCALE (workload iterations, default 3),
# BENCH_CC (gcc, clang, or both: "gcc clang", whose boots then alternate
# in one run and get a table side by side; default gcc), BENCH_VARIANT (a
# config fragment the KFT kernel adds, e.g. afterinlining: the hooks put
# in after inlining, the default where the compiler can build KFT's
# plugin or pass), BUILD; BENCH_ONLY=tools measures the host tools alone
# (make bench-tools).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. tests/lib/common.sh
BUILD=${BUILD:-build}
RUNS=${RUNS:-5}
SCALE=${SCALE:-3}
ccs=${BENCH_CC:-gcc}
out=$BUILD/bench
mkdir -p "$out"
rm -f "$out"/raw*.txt
t0=$SECONDS
arches=${BENCH_ARCHES:-x86_64 arm64}
variant=${BENCH_VARIANT:++$BENCH_VARIANT}
[ "${BENCH_ONLY:-}" = tools ] && arches=

# The kernels of one architecture, each booted RUNS times in turn.
for KFT_ARCH in $arches; do
	. tests/lib/arch.sh
	declare -A kdir=()
	for cc in $ccs; do
		for v in vanilla kft ftrace; do
			kv=$v
			[ "$v" = kft ] && kv=kft$variant
			kdir[$v-$cc]=$(tests/lib/kbuild.sh "$kv" "$cc" | tail -n 1)
		done
		bench/configs.sh "${kdir[vanilla-$cc]}" "${kdir[kft-$cc]}" "${kdir[ftrace-$cc]}" ||
			kft_die "$KFT_ARCH $cc: the bench's kernels must differ only in the tracer"
	done
	initrd=$out/initramfs-$KFT_ARCH.cpio.gz
	tests/lib/initramfs.sh "$initrd"
	for run in $(seq 1 "$RUNS"); do
		for cc in $ccs; do
			for v in vanilla kft ftrace; do
				case $v in vanilla) mode=none ;; *) mode=$v ;; esac
				kft_log "$KFT_ARCH $cc boot $run/$RUNS: $v"
				dir=$out/$KFT_ARCH/$cc-$v-$run
				tests/lib/qemu-run.sh -s 1 -m 1G -t 900 ${KFT_BENCH_QEMU[@]+"${KFT_BENCH_QEMU[@]}"} -i "$initrd" \
					-a "kftbench=$mode kftscale=$SCALE" "${kdir[$v-$cc]}" "$dir" bench
				awk -v k="$v" -v r="$run" '{ print k, r, $0 }' "$dir/bench.out" >> "$out/raw-$KFT_ARCH-$cc.txt"
			done
		done
	done
done

# The host tools on a generated 10-million-line log, 150,000 symbols
# (bench/genlog.c): lines per second and peak memory of each step.
make -s tools "$BUILD/genlog"
kft_log "host tools: generating a 10,000,000-line log"
"$BUILD/genlog" 10000000 "$out/big.map" "$out/big.log"
# tool NAME LINES OUTPUT COMMAND...: "tools NAME LINES_PER_S PEAK_KB" in
# raw-tools.txt
tool() {
	local name=$1 lines=$2 output=$3 s e
	shift 3
	s=$(date +%s.%N)
	/usr/bin/time -f "%M" -o "$out/time.txt" "$@" > "$output"
	e=$(date +%s.%N)
	echo "tools $name $(awk -v n="$lines" -v s="$s" -v e="$e" 'BEGIN { printf "%.0f", n / (e - s) }') $(cat "$out/time.txt")" >> "$out/raw-tools.txt"
}
# tools SHAPE LINES: every mode on one log.
tools() {
	local shape=$1 n=$2
	tool "$shape addr2sym" "$n" "$out/big.sym" "$BUILD/addr2sym" -m "$out/big.map" "$out/big.log"
	tool "$shape kd-summary" "$n" /dev/null "$BUILD/kd" "$out/big.sym"
	tool "$shape kd-tree" "$n" /dev/null "$BUILD/kd" -c "$out/big.sym"
	tool "$shape kd-tree-r" "$n" /dev/null "$BUILD/kd" -c -r "$out/big.sym"
	tool "$shape kd-tree-i" "$n" /dev/null "$BUILD/kd" -c -i "$out/big.sym"
	rm -f "$out/big.log" "$out/big.sym"
}
tools plain 10000000
# Shapes real logs have (bench/genlog.c --shape), 2,000,000 lines each.
for shape in open irq26 tasks; do
	kft_log "host tools: a 2,000,000-line log of shape $shape"
	"$BUILD/genlog" --shape "$shape" 2000000 "$out/big.map" "$out/big.log"
	tools "$shape" 2000000
done

{
	for a in $arches; do
		for cc in $ccs; do
			awk -v arch="$a" -v runs="$RUNS" -v clock="$KFT_BENCH_CLOCK" -v cc="$cc" -v kver="$KFT_KVER" -v variant="${BENCH_VARIANT:-}" -f bench/stats.awk -f bench/report.awk "$out/raw-$a-$cc.txt"
			echo
		done
		# Both compilers' kernels idle, from the same run.
		[ "$ccs" = "${ccs% *}" ] || awk -v arch="$a" -f bench/stats.awk -f bench/idle.awk $(for cc in $ccs; do echo "$out/raw-$a-$cc.txt"; done)
	done
	awk -f bench/stats.awk -f bench/report.awk "$out/raw-tools.txt"
	if [ -z "${BENCH_ONLY:-}" ] && command -v valgrind >/dev/null; then
		echo
		echo "## The hooks on the host: instructions per call, by path (make bench-hooks)"
		echo
		BUILD=$BUILD bench/hooks.sh
	fi
} > "$out/results.md"
cat "$out/results.md"
kft_log "bench done in $((SECONDS - t0)) s; table in $out/results.md, raw data in $out/raw-*.txt"
