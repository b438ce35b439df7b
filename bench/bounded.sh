#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-bounded: how many of a boot run's hook calls are calls of
# functions with a bound on the instructions they run (scripts/kftsites
# --bounded: no loop, no call through a pointer, nothing that waits, only
# bounded callees), whose hook sites a run with a time filter of a few
# hundred microseconds could leave NOPs.  Lists each function of the KFT
# kernel's vmlinux.o with its bound or why it has none, then boots the
# kernel with the default boot run under QEMU's instruction counting with
# bench/insn_profile.c, which counts each kernel instruction run from
# start_kernel() to run_init_process(): a function's first instruction
# counts its calls (bench/bounded.awk joins the two).
#
# Environment: BOUNDED_ARCHES (x86_64; arm64 too), BOUNDED_CC (gcc, clang
# or both), BOUNDED_VARIANT (a config fragment the KFT kernel adds, e.g.
# afterinlining: the hooks put in after inlining), BOUNDED_TOP (functions
# listed, 15), BUILD.  Output: build/bounded/bounded.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. tests/lib/common.sh
BUILD=${BUILD:-build}
out=$BUILD/bounded
mkdir -p "$out"
DEFAULT_RUN="trigger start entry start_kernel trigger stop entry to_userspace filter mintime 500"
plugin=$repo/$BUILD/insn_profile.so
kftsites=$repo/$BUILD/asan/kftsites
if [ ! -f "$plugin" ] || [ ! -x "$kftsites" ]; then
	kft_die "no $plugin or $kftsites (make bench-bounded builds them)"
fi
variant=${BOUNDED_VARIANT:++$BOUNDED_VARIANT}
t0=$SECONDS

: > "$out/bounded.md"
for KFT_ARCH in ${BOUNDED_ARCHES:-x86_64}; do
	. tests/lib/arch.sh
	for cc in ${BOUNDED_CC:-gcc}; do
		pre=$out/$KFT_ARCH-$cc$variant
		kdir=$(tests/lib/kbuild.sh "kft$variant" "$cc" | tail -n 1)
		"$kftsites" --bounded "$kdir/vmlinux.o" > "$pre.bounded"
		spec="$plugin,lo=$(kft_map_sym "$kdir" _text),hi=$(kft_map_sym "$kdir" _end)"
		spec+=",start=$(kft_map_sym "$kdir" start_kernel),stop=$(kft_map_sym "$kdir" run_init_process)"
		spec+=",out=$repo/$pre.prof.raw"
		kft_log "$KFT_ARCH $cc$variant: the default boot run, under icount, every kernel instruction counted"
		tests/lib/qemu-run.sh -I -s 1 -t 900 -p "$spec" -a "kft=\"$DEFAULT_RUN\"" "$kdir" "$pre-run" kft_data
		grep -qx '# window' "$pre.prof.raw" ||
			kft_die "$pre.prof.raw: $(grep '^#' "$pre.prof.raw" | tr '\n' ' ')"
		awk -v title="$KFT_ARCH, $cc$variant, Linux $KFT_KVER" -v top="${BOUNDED_TOP:-15}" \
		    -f bench/bounded.awk "$kdir/System.map" "$pre.prof.raw" "$pre.bounded" >> "$out/bounded.md"
	done
done
cat "$out/bounded.md"
kft_log "bench-bounded done in $((SECONDS - t0)) s; report in $out/bounded.md"
