#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: from a fresh machine to two answers.  Builds the check tier's
# KFT kernel (GCC, the boot run and modules built in; cached, and shared
# with make check) and boots it in QEMU twice:
#  1. with the default boot run (kernel/kftstatic.conf, given as kft=):
#     every call of 500 us or more from start_kernel() to the first user
#     program;
#  2. with a dynamic run configured by name in /proc/kft: one fork and exec
#     of a small program (tests/guest/forkexec.sh).
# Each log comes back raw and resolved (addr2sym), with a kd summary (top
# 30) and call tree, an SVG flame graph, a Chrome/Perfetto JSON trace, a
# trace-cmd data file (trace-cmd report, KernelShark), and for boot an SVG
# timeline and the boot report (kd --boot: text, SVG, an HTML page, the
# kernel's initcall_debug lines): all in $BUILD/demo/ (another architecture's in
# $BUILD/ARCH-demo/: make demo ARCH=arm64, riscv or arm).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. tests/lib/common.sh
. tests/lib/arch.sh
BUILD=${BUILD:-build}
out=$BUILD/$(kft_arch_name demo "" "" | sed 's/-*$//')
mkdir -p "$out"
t0=$SECONDS
step() { kft_log "[$((SECONDS - t0)) s] $*"; }

step "1/5 kernel: Linux $KFT_KVER + KFT, $KFT_ARCH, GCC, small config (cached in $KFT_CACHE)"
kdir=$(tests/lib/kbuild.sh "$KFT_CHECK_VARIANT" gcc | tail -n 1)
map=$kdir/System.map
initrd=$out/initramfs.cpio.gz
tests/lib/initramfs.sh "$initrd"

# The default static run, as a kft= parameter: what a kernel without one
# built in would be given (here it overrides the same run).
bootrun=$(sed 's/#.*//' kernel/kftstatic.conf | tr -s ' \n\t' ' ' | sed 's/^ //; s/ $//')
step "2/5 boot with kft=\"$bootrun\""
tests/lib/qemu-run.sh -i "$initrd" -a "kft=\"$bootrun\"" "$kdir" "$out/qemu-boot" boot
step "3/5 boot again and trace fork+exec (tests/guest/forkexec.sh)"
tests/lib/qemu-run.sh -i "$initrd" -a kft=off "$kdir" "$out/qemu-fork" forkexec

step "4/5 resolve (addr2sym) and analyse (kd)"
# results NAME STEP-OUTPUT: NAME.raw, .sym, -summary.txt, -tree.txt, .svg, .json
results() {
	local name=$1 log=$2
	sed -n '/^=== data$/,/^=== sites$/p' "$log" | sed '1d;/^=== sites$/d' > "$out/$name.raw"
	"$BUILD/addr2sym" -m "$map" "$out/$name.raw" > "$out/$name.sym"
	"$BUILD/kd" -n 30 -l "$out/$name.sym" > "$out/$name-summary.txt"
	"$BUILD/kd" -c "$out/$name.sym" > "$out/$name-tree.txt"
	"$BUILD/kd" --svg "$out/$name.sym" > "$out/$name-flamegraph.svg"
	"$BUILD/kd" --chrome "$out/$name.sym" > "$out/$name-trace.json"
	# (its message, on success, names the file: the list below does)
	if ! msg=$("$BUILD/kd" --trace-cmd "$out/$name.dat" "$out/$name.sym" 2>&1); then
		echo "$msg" >&2
		exit 1
	fi
}
results boot "$out/qemu-boot/boot.out"
"$BUILD/kd" --timeline "$out/boot.sym" > "$out/boot-timeline.svg"
"$BUILD/kd" --boot -m "$map" "$out/boot.sym" > "$out/boot-report.txt"
"$BUILD/kd" --boot --svg -m "$map" "$out/boot.sym" > "$out/boot-report.svg"
"$BUILD/kd" --boot --html -m "$map" "$out/boot.sym" > "$out/boot-report.html"
"$BUILD/kd" --boot --initcall-debug -m "$map" "$out/boot.sym" > "$out/boot-initcall-debug.txt"
"$BUILD/kd" --boot --boot-data -m "$map" "$out/boot.sym" > "$out/boot-data-kft.txt"
results fork "$out/qemu-fork/forkexec.out"

step "5/5 done"
echo
echo "== Boot: $(grep -m1 '^Logging started' "$out/boot.sym")"
echo "         $(grep -m1 '^Logging stopped' "$out/boot.sym")"
echo "   $(grep -m1 '^Number of entries' "$out/boot.sym")"
echo
echo "Where boot time went, by phase and initcall (scripts/kd --boot -m System.map -n 10"
echo "-t 5000: phases and initcalls of 5 ms or more; the phases add up to"
echo "the boot; boot-report.txt has them all):"
"$BUILD/kd" --boot -m "$map" -n 10 -t 5000 "$out/boot.sym"
echo
echo "The 12 functions with the most local time on the CPU (their own code,"
echo "not their callees'; scripts/kd -n 12 -s l):"
"$BUILD/kd" -n 12 -s l -f Fctal "$out/boot.sym"
echo
echo "== fork + exec of /bin/true: the calls of 100 us or more, two levels deep"
echo "   (scripts/kd -c; the parent forks and waits, the child execs; -1: interrupts):"
awk 'NR <= 2 || ($0 !~ /[|]  [|]  / && ($2 >= 100 || $2 == -1)) { if (++n <= 40) print }' "$out/fork-tree.txt"
echo
echo "Files in $out/:"
echo "  boot.raw, fork.raw              the logs as read from /proc/kft_data"
echo "  boot.sym, fork.sym              resolved with scripts/addr2sym"
echo "  *-summary.txt                   scripts/kd -n 30 -l"
echo "  *-tree.txt                      scripts/kd -c, every call"
echo "  *-flamegraph.svg                flame graphs (open in a browser)"
echo "  boot-timeline.svg               boot, task by task, over time"
echo "  boot-report.txt, .svg           scripts/kd --boot: phases, initcalls"
echo "  boot-report.html                the same as a page: zoom in, click an initcall"
echo "                                  for its calls and time asleep (any browser, offline)"
echo "  boot-initcall-debug.txt         the kernel's initcall_debug lines: bootgraph.pl,"
echo "                                  pm-graph, analyze-initcall-debug"
echo "  boot-data-kft.txt               the same as a grab-boot-data file: boot-data"
echo "                                  boot-data-kft.txt top (the Boot Time SIG's tool)"
echo "  *-trace.json                    ui.perfetto.dev, chrome://tracing, speedscope"
echo "  boot.dat, fork.dat              trace-cmd report -i boot.dat; KernelShark"
echo "  qemu-boot/, qemu-fork/          the guests' console and output"
echo "Finished in $((SECONDS - t0)) s."
