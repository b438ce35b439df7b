#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fidelity: how true are the times a KFT boot run reports?  Boots,
# under QEMU's instruction counting (deterministic: one instruction a
# nanosecond, the same on every run and host), three kernels of the same
# config with initcall_debug: vanilla, KFT compiled in with no run (idle),
# and KFT with the default boot run given as kft=.  Reports the boot to
# the first user program, the initcalls' sum, and per initcall the
# untraced kernel's time (initcall_debug) against what the traced kernels
# measured and what kd --boot reports, raw and compensated for the hooks'
# cost: KFT's effect on what it measures, and what is left of it.
#
# Environment: FIDELITY_ARCHES (default x86_64; arm64 too), FIDELITY_CC
# (gcc, clang or "gcc clang"; default gcc), FIDELITY_OPT (Os, the
# tinyconfig's -Os, default; O2: the same kernels built -O2, as
# distributions build theirs), FIDELITY_VARIANT (a config fragment the KFT
# kernel adds, e.g. afterinlining: the hooks put in after inlining, the
# default where the compiler can build KFT's plugin or pass),
# FIDELITY_TOP (initcalls shown, default 15), BUILD.  Output:
# build/fidelity/fidelity.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. tests/lib/common.sh
BUILD=${BUILD:-build}
out=$BUILD/fidelity
mkdir -p "$out"
DEFAULT_RUN="trigger start entry start_kernel trigger stop entry to_userspace filter mintime 500"
case ${FIDELITY_OPT:=Os} in
Os) opt="" ;;
O2) opt=+o2 ;;
*) kft_die "FIDELITY_OPT=$FIDELITY_OPT: Os or O2" ;;
esac
variant=${FIDELITY_VARIANT:++$FIDELITY_VARIANT}
make -s tools-asan
t0=$SECONDS

: > "$out/fidelity.md"
for KFT_ARCH in ${FIDELITY_ARCHES:-x86_64}; do
	. tests/lib/arch.sh
	for cc in ${FIDELITY_CC:-gcc}; do
		vdir=$(tests/lib/kbuild.sh "vanilla$opt" "$cc" | tail -n 1)
		kdir=$(tests/lib/kbuild.sh "kft$variant$opt" "$cc" | tail -n 1)
		bench/configs.sh "$vdir" "$kdir"
		pre=$out/$KFT_ARCH-$cc$variant$opt	# pre-vanilla, pre-idle, pre-run
		for k in vanilla idle run; do
			dir=$pre-$k
			case $k in
			vanilla) d=$vdir args="" ;;
			idle)    d=$kdir args="" ;;
			run)     d=$kdir args="kft=\"$DEFAULT_RUN\"" ;;
			esac
			kft_log "$KFT_ARCH $cc: $k, under icount"
			tests/lib/qemu-run.sh -I -s 1 -t 900 -a "initcall_debug $args" "$d" "$dir" kft_data
			kft_initcalls "$dir/dmesg.out" > "$dir/initcalls.txt"
			kft_user_us "$dir/dmesg.out" > "$dir/user.txt"
		done
		dir=$pre-run
		sed -n '/^=== data$/,$p' "$dir/kft_data.out" | sed 1d > "$dir/boot.raw"
		"$BUILD/asan/addr2sym" -m "$kdir/System.map" "$dir/boot.raw" > "$dir/boot.sym"
		# The calls the boot run saw finish: what idle's cost is spread over.
		awk -F' = ' '/^Total entries filtered/ { f = $2 }
			/^Number of entries after filters/ { n = $2 }
			END { print f + n }' "$dir/boot.raw" > "$dir/calls.txt"
		for raw in "" --raw; do
			"$BUILD/asan/kd" $raw --boot --initcall-debug "$dir/boot.sym" |
				sed -n 's/.*initcall \([^+]*\)+.* after \([0-9]*\) usecs/\1 \2/p' > "$dir/kd${raw:+-raw}.txt"
		done
		awk -v arch="$KFT_ARCH" -v cc="$cc" -v variant="$variant" -v opt="$FIDELITY_OPT" -v top="${FIDELITY_TOP:-15}" \
		    -v kver="$KFT_KVER" -f bench/fidelity.awk \
			"$pre-vanilla/user.txt" "$pre-vanilla/initcalls.txt" \
			"$pre-idle/user.txt" "$pre-idle/initcalls.txt" \
			"$dir/user.txt" "$dir/initcalls.txt" "$dir/kd.txt" "$dir/kd-raw.txt" \
			"$dir/calls.txt" >> "$out/fidelity.md"
	done
done
cat "$out/fidelity.md"
kft_log "fidelity done in $((SECONDS - t0)) s; table in $out/fidelity.md"
