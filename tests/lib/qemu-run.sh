#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel in QEMU (software emulation) with the test initramfs, run
# guest test steps, and bring their output back.
#
# usage: tests/lib/qemu-run.sh [options] BUILD_DIR OUTDIR STEP[,STEP...]
#   -s N        virtual CPUs (default 1)
#   -a ARGS     extra kernel command line
#   -t SECS     timeout (default KTIMEOUT of tests/lib/arch.sh)
#   -i FILE     initramfs (default: build it into OUTDIR)
#   -m MEM      guest memory (default 512M)
#   -v          arm64: boot at EL2, with the virtualization extensions,
#               so that the kernel runs with VHE
#   -I          QEMU's instruction counting (-icount shift=0,sleep=off, one
#               host thread): guest time is instruction time, one
#               instruction a nanosecond, and idle time is skipped, so the
#               same boot takes the same guest time on every run and host
#               (KFT_ICOUNT_SHIFT=N: an instruction 2^N ns; 0 by default)
#   -p SPEC     load a QEMU TCG plugin: -plugin SPEC (make bench-idle)
#   -x REGEX    a boot that is not to reach the steps (it panics or hangs):
#               stop QEMU once the console shows a line matching REGEX (an
#               extended regular expression); success if it did
# BUILD_DIR holds the boot image of KFT_ARCH (tests/lib/arch.sh).  In
# OUTDIR: console.log (the kernel's console), serial.out (what the guest
# framed on a second serial port or virtio-console), STEP.out and
# STEP.rc for each step, dmesg.out.  Exit status 0 only if the guest ran
# every step and each returned 0; otherwise the console's tail is shown.
# All virtual CPUs run in one host thread: QEMU 7.2's multi-threaded TCG
# can run a stale translation of code that the kernel patched live, and so
# an int3 the patching has already removed (enabling ftrace on 2 CPUs
# oopses there too).  KFT_TCG_THREAD=multi gives each CPU a host thread;
# riscv64, which patches with the other CPUs stopped, uses it (arch.sh).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/common.sh"
. "$repo/tests/lib/arch.sh"

smp=1 append="" timeout=${KTIMEOUT:-300} initrd="" mem=512M el2=() until=""
tcg=${KFT_TCG_THREAD:-$KTCG} icount=() plugin=()
while getopts "s:a:t:i:m:vx:Ip:" o; do
	case $o in
	s) smp=$OPTARG ;;
	a) append=$OPTARG ;;
	t) timeout=$OPTARG ;;
	i) initrd=$OPTARG ;;
	m) mem=$OPTARG ;;
	v) el2=(-machine virtualization=on) ;;
	x) until=$OPTARG ;;
	I) icount=(-icount "shift=${KFT_ICOUNT_SHIFT:-0},sleep=off") tcg=single ;;
	p) plugin=(-plugin "$OPTARG") ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || kft_die "usage: qemu-run.sh [-s N] [-a ARGS] [-t SECS] [-i INITRD] [-m MEM] [-v] [-I] [-p SPEC] [-x REGEX] BUILD_DIR OUTDIR STEPS"
[ ${#el2[@]} = 0 ] || [ "$KFT_ARCH" = arm64 ] || kft_die "-v is for arm64"
build=$1 outdir=$2 steps=$3
kernel=$build/$KIMAGE
[ -f "$kernel" ] || kft_die "no kernel at $kernel"
mkdir -p "$outdir"
rm -f "$outdir"/*.out "$outdir"/*.rc "$outdir/console.log"
if [ -z "$initrd" ]; then
	initrd=$outdir/initramfs.cpio.gz
	"$repo/tests/lib/initramfs.sh" "$initrd"
fi

# The framed output: x86's second serial port; virt machines have one UART.
if [ "$KFT_ARCH" = x86_64 ]; then
	framed=(-serial "file:$outdir/serial.out")
else
	framed=(-device virtio-serial-device -chardev "file,id=kft,path=$outdir/serial.out"
		-device virtconsole,chardev=kft)
fi

start=$SECONDS
set +e
timeout --foreground -k 5 "$timeout" "${QEMU[@]}" ${el2[@]+"${el2[@]}"} \
	-accel tcg,thread=$tcg ${icount[@]+"${icount[@]}"} ${plugin[@]+"${plugin[@]}"} -smp "$smp" -m "$mem" \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=$CONSOLE${KPARAMS:+ $KPARAMS} nokaslr panic=-1 oops=panic loglevel=6 kfttests=$steps $append" \
	-display none -monitor none -no-reboot \
	-serial "file:$outdir/console.log" "${framed[@]}" \
	</dev/null >"$outdir/qemu.log" 2>&1 &
qemu=$!
if [ -n "$until" ]; then
	# QEMU ends by itself after a panic (-no-reboot); a hang, never.
	while kill -0 $qemu 2>/dev/null; do
		grep -Eq "$until" "$outdir/console.log" 2>/dev/null && break
		sleep 0.5
	done
	kill $qemu 2>/dev/null
fi
wait $qemu
qrc=$?
set -e
elapsed=$((SECONDS - start))
kft_timing boot "$KFT_ARCH $(basename "$outdir")" "$elapsed" "$smp CPU(s)${icount[*]:+, icount}: $steps${append:+; $append}"

if [ -n "$until" ]; then
	if ! grep -Eq "$until" "$outdir/console.log"; then
		echo "qemu-run: the console never showed /$until/ (qemu exit $qrc after ${elapsed}s)" >&2
		tail -n 40 "$outdir/console.log" >&2
		exit 1
	fi
	kft_log "the console showed /$until/ after ${elapsed}s"
	exit 0
fi

# Split the framed output into STEP.out / STEP.rc.
awk -v dir="$outdir" '
	{ sub(/\r$/, "") }
	/^=== KFT-BEGIN / { name = $3; file = dir "/" name ".out"; printf "" > file; next }
	/^=== KFT-END /   { split($4, a, "="); print a[2] > (dir "/" $3 ".rc"); close(file); file = ""; next }
	file != ""        { print > file }
' "$outdir/serial.out"

fail=0
if ! grep -q '^=== KFT-DONE' "$outdir/serial.out"; then
	[ $qrc -eq 124 ] && echo "qemu-run: timeout after ${timeout}s" >&2
	echo "qemu-run: the guest did not finish (qemu exit $qrc)" >&2
	fail=1
fi
for s in $(echo "$steps" | tr ',' ' '); do
	rc=$(cat "$outdir/$s.rc" 2>/dev/null || echo missing)
	if [ "$rc" != 0 ]; then
		echo "qemu-run: guest step $s: rc=$rc" >&2
		[ -f "$outdir/$s.out" ] && tail -n 20 "$outdir/$s.out" >&2
		fail=1
	fi
done
if grep -qE 'Oops|BUG:|WARNING:|Kernel panic|general protection|lockdep' "$outdir/console.log"; then
	echo "qemu-run: the kernel log reports a problem" >&2
	fail=1
fi
if [ $fail -ne 0 ]; then
	echo "--- console (last 40 lines of $outdir/console.log)" >&2
	tail -n 40 "$outdir/console.log" >&2
	exit 1
fi
kft_log "guest ran $steps on $smp CPU(s) in ${elapsed}s"
