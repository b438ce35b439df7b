#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-idle: what an idle KFT kernel's extra instructions are made
# of.  Boots a vanilla kernel and the same config with KFT (no run) under
# QEMU's instruction counting with bench/insn_profile.c, which counts each
# kernel instruction run from start_kernel() to run_init_process(), and
# splits KFT's excess (bench/idle_profile.awk): the hooks' NOP'd call
# sites, the instructions that set up their arguments just before them
# (bench/idle_sites.awk), KFT's own functions (the hooks, still called by
# tail calls to the exit hook, and before the sites are NOPs), and the
# rest, per function: GCC's code around the calls (registers saved,
# functions kept out of line).
#
# Environment: IDLE_ARCHES (x86_64; arm64 riscv64 arm too), IDLE_CC (gcc,
# clang or both), IDLE_OPT (O2, how distributions build, by default; Os:
# the tinyconfig's own), IDLE_VARIANT (a config fragment the KFT kernel
# adds, e.g. afterinlining: the hooks put in after inlining by a GCC
# plugin), IDLE_TOP (functions listed, 15), BUILD.  Output:
# build/idle/idle.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. tests/lib/common.sh
BUILD=${BUILD:-build}
out=$BUILD/idle
mkdir -p "$out"
case ${IDLE_OPT:=O2} in
Os) opt="" ;;
O2) opt=+o2 ;;
*) kft_die "IDLE_OPT=$IDLE_OPT: Os or O2" ;;
esac
plugin=$repo/$BUILD/insn_profile.so
[ -f "$plugin" ] || kft_die "no $plugin (make bench-idle builds it)"
t0=$SECONDS

: > "$out/idle.md"
for KFT_ARCH in ${IDLE_ARCHES:-x86_64}; do
	. tests/lib/arch.sh
	for cc in ${IDLE_CC:-gcc}; do
		pre=$out/$KFT_ARCH-$cc$opt${IDLE_VARIANT:++$IDLE_VARIANT}
		vdir=$(tests/lib/kbuild.sh "vanilla$opt" "$cc" | tail -n 1)
		kdir=$(tests/lib/kbuild.sh "kft${IDLE_VARIANT:++$IDLE_VARIANT}$opt" "$cc" | tail -n 1)
		bench/configs.sh "$vdir" "$kdir"
		for k in vanilla kft; do
			d=$vdir; [ $k = kft ] && d=$kdir
			spec="$plugin,lo=$(kft_map_sym "$d" _text),hi=$(kft_map_sym "$d" _end)"
			spec+=",start=$(kft_map_sym "$d" start_kernel),stop=$(kft_map_sym "$d" run_init_process)"
			spec+=",out=$repo/$pre-$k.prof.raw"
			kft_log "$KFT_ARCH $cc: $k, under icount, every kernel instruction counted"
			tests/lib/qemu-run.sh -I -s 1 -t 900 -p "$spec" "$d" "$pre-$k" kft_data
			grep -qx '# window' "$pre-$k.prof.raw" ||
				kft_die "$pre-$k.prof.raw: $(grep '^#' "$pre-$k.prof.raw" | tr '\n' ' ')"
			grep -v '^#' "$pre-$k.prof.raw" | sort > "$pre-$k.prof"
			awk 'tolower($2) ~ /^[tw]$/ { print $1, $3 }' "$d/System.map" | sort > "$pre-$k.map"
		done
		"${KCROSS}objdump" -d --no-show-raw-insn "$kdir/vmlinux" |
			awk -v arch="$KFT_ARCH" -f bench/idle_sites.awk > "$pre-kft.sites"
		awk -v title="$KFT_ARCH, $cc${IDLE_VARIANT:++$IDLE_VARIANT} -$IDLE_OPT, Linux $KFT_KVER" -v top="${IDLE_TOP:-15}" \
		    -f bench/idle_profile.awk "$pre-kft.sites" "$pre-vanilla.map" "$pre-vanilla.prof" \
			"$pre-kft.map" "$pre-kft.prof" >> "$out/idle.md"
	done
done
cat "$out/idle.md"
kft_log "bench-idle done in $((SECONDS - t0)) s; report in $out/idle.md"
