#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot runs, end to end in QEMU (GCC kernels), on each architecture
# (KFT_ARCHES: x86_64 arm64 riscv64 arm):
#  - the run given as kft=, on 2 CPUs, then a dynamic run on the same boot;
#  - the default kernel/kftstatic.conf compiled in (CONFIG_KFT_STATIC_RUN),
#    booted with initcall_debug: kd --boot's report against the kernel's;
#    on the same kernel, kft= taking precedence (a funclist of functions
#    that run early in setup_arch(): on x86, before the TSC is calibrated)
#    and kft=off;
#  - the boot-time toolchain (x86_64, arm64): kd --boot --check on boots
#    under QEMU's instruction counting, one made slower in a known
#    initcall; --json and --initcall-debug (the kernel's bootgraph.pl);
#  - boots that never reach user space, with kft_dump=: one that hangs
#    (pid 1 asleep for ever in prepare_namespace(), rootdelay=) printed
#    at a time, one that panics (no working init) printed at the panic;
#    the host tools read the log back from the captured console.
# KFT_TIER=check runs them all on the check kernel (KFT_CHECK_VARIANT: the
# static run and modules built in; kft= overrides its run); KFT_TIER=full
# also on the kernels of the whole matrix: kft= on the reference kernel,
# built without a static run, the rest on kft+static; and on x86_64:
#  - a kftstatic.conf naming static functions, and one with an error,
#    which must fail the kernel build naming its line.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
. tests/lib/common.sh
BUILD=${BUILD:-build}
E2E=$BUILD/e2e
ARCHES=${KFT_ARCHES:-x86_64 arm64 riscv64 arm}
DEFAULT_RUN="trigger start entry start_kernel trigger stop entry to_userspace filter mintime 500"

# boot LABEL KDIR OUT SMP STEPS [KERNEL-ARGS]: one TAP line.
boot() {
	local label="$KFT_TAG $1" kdir=$2 out=$3 smp=$4 steps=$5 args=${6:-}
	tests/lib/qemu-run.sh -s "$smp" -a "$args" "$kdir" "$out" "$steps"
	ok $? "$label: boots, guest steps pass, kernel log clean"
}

# resolve OUT KDIR MINTIME KEEP: the boot step's log, resolved and checked.
resolve() {
	local out=$1 kdir=$2
	sed -n '/^=== data$/,/^=== sites$/p' "$out/boot.out" | sed '1d;/^=== sites$/d' > "$out/boot.raw"
	"$BUILD/asan/addr2sym" -m "$kdir/System.map" "$out/boot.raw" > "$out/boot.sym"
	awk -v mintime="$3" -v keep="$4" -f tests/lib/boottrace.awk \
		"$out/boot.sym" > "$out/boot.txt"
}

# What a boot run from start_kernel to to_userspace, mintime 500, must show.
default_run_checks() {
	local label="$KFT_TAG $1" out=$2 kdir=$3 origin=$4 fn pid entry n
	resolve "$out" "$kdir" 500 "start_kernel to_userspace"
	grep -q "^boot run from $origin " "$out/boot.out"
	ok $? "$label: /proc/kft says the boot run came from $origin"
	grep -q '^status: run id 0, primed, triggered, complete' "$out/boot.out"
	ok $? "$label: the boot run is run 0, complete"
	grep -q '^log: 32768 entries of 32 bytes' "$out/boot.out"
	ok $? "$label: without logentries it has the whole static log (CONFIG_KFT_BOOT_LOG_ENTRIES)"
	grep -q '^Logging started at [0-9]* usec by entry to function start_kernel$' "$out/boot.sym"
	ok $? "$label: started by entry to start_kernel"
	grep -q '^Logging stopped at [0-9]* usec by entry to function to_userspace$' "$out/boot.sym"
	ok $? "$label: stopped by entry to to_userspace"
	# x86_64 and arm64 list the functions too short for mintime 500 to
	# log (scripts/kftsites --bounded-sites): their sites were NOPs, but
	# to_userspace()'s, a trigger's (it is one of them).
	case $KFT_ARCH in
	x86_64 | arm64)
		grep -q '^hook sites left NOPs: [1-9][0-9]*, for run 0, in functions too short for its mintime$' "$out/boot.out"
		ok $? "$label: the boot run left the sites of functions too short for its mintime NOPs ($(grep -o '^hook sites left NOPs: [0-9]*' "$out/boot.out"))"
		;;
	esac
	read -r _ fn pid entry < <(grep '^first ' "$out/boot.txt")
	[ "${fn:-}" = start_kernel ] && [ "${pid:-}" = 0 ]
	ok $? "$label: the first call is start_kernel in pid 0 (got ${fn:-none} ${pid:-})"
	awk -v e="${entry:-0}" 'BEGIN { exit !(e > 0 && e < 100000) }'
	ok $? "$label: start_kernel entered ${entry:-?} us after kernel start, not at 0"
	! grep '^error' "$out/boot.txt" | head -5 >&2
	ok $? "$label: entry times non-zero and increasing, every call >= 500 us, callees end within callers"
	# Before 6.2, through arch_call_rest_init()
	grep -q '^chain setup_arch start_kernel$' "$out/boot.txt" &&
	grep -q '^chain rest_init \(arch_call_rest_init \)\?start_kernel$' "$out/boot.txt"
	ok $? "$label: start_kernel -> setup_arch, start_kernel -> rest_init"
	grep -q '^chain do_initcalls .*kernel_init_freeable kernel_init\( \|$\)' "$out/boot.txt"
	ok $? "$label: kernel_init -> kernel_init_freeable -> ... -> do_initcalls"
	awk '/^------/ { d = 1; next } d && $4 == "kernel_init" && $3 == 1 { f = 1 } END { exit !f }' "$out/boot.sym"
	ok $? "$label: kernel_init runs as pid 1"
	n=$(sed -n 's/^calls //p' "$out/boot.txt")
	[ "${n:-0}" -ge 100 ]
	ok $? "$label: $n calls logged"
	grep -q '^Entries lost = 0$' "$out/boot.sym"
	ok $? "$label: no entries lost"
	if [ "$KSITES" = 1 ]; then
		sed -n '/^=== sites$/,$p' "$out/boot.out" | grep -q '^hook sites: [0-9]*, NOPs$'
		ok $? "$label: after the boot run the hooks' call sites are NOPs"
	else
		sed -n '/^=== sites$/,$p' "$out/boot.out" | grep -q '^hook sites: always called'
		ok $? "$label: /proc/kft says the hooks' call sites are always called (no NOP sites on $KFT_ARCH)"
	fi
}

# kd --boot on a boot run's log (booted with initcall_debug): the phases add
# up to the boot, start_kernel to to_userspace, and its initcalls are the
# kernel's own.  As measured (--raw): the traced kernel's initcall_debug
# times the same traced calls (test_accuracy.sh judges the compensated).  initcall_debug times early initcalls with whatever clock
# ktime has then (jiffies, 4 ms steps, on some): names are compared above 5
# ms, times above 20 ms.
boot_report_checks() {
	local label="$KFT_TAG $1" out=$2 boot nlev
	"$BUILD/asan/kd" --raw --boot "$out/boot.sym" > "$out/report.txt" 2> "$out/report.err"
	ok $? "$label: kd --boot reads the boot run's log"
	boot=$(awk '/^------/ { d = 1; next } d && $4 == "start_kernel" && !s { s = $1 }
		d && $4 == "to_userspace" && !u { u = $1 }
		END { if (s && u) printf "%.3f", u - s }' "$out/boot.sym")
	awk -v boot="${boot:-0}" '/^Phases/ { p = 1; next } /^Initcalls/ { p = 0 }
		p && $NF == "total" { total = $1 }
		p && $1 ~ /^[0-9.]+$/ && $NF != "total" && NF >= 4 { sum += $2; n++ }
		END { exit !(n > 10 && boot > 0 && (total - boot) ^ 2 < 1e-6 &&
			      (sum - total) ^ 2 < (0.001 * n) ^ 2) }' "$out/report.txt"
	ok $? "$label: kd --boot's phases add up to the boot, start_kernel to to_userspace ($boot us)"
	# A level shorter than the run's mintime (QEMU's clock here, not
	# icount: level 0 is near 500 us on some) is not in the log: then kd
	# numbers the levels it has and says why.
	nlev=$(awk '/^------/ { d = 1; next } d && $4 == "do_initcall_level" { n++ } END { print n + 0 }' "$out/boot.sym")
	if [ "$nlev" = 8 ]; then
		grep -q '^ *[0-9.]* *[0-9.]* *[0-9.]* *[0-9.]*  [0-9] \(pure\|core\|postcore\|arch\|subsys\|fs\|device\|late\) ' "$out/report.txt" &&
			grep -q 'initcall level 6 (device)$' "$out/report.txt"
		ok $? "$label: kd --boot finds the eight initcall levels and places initcalls in them"
	else
		[ "$nlev" -ge 5 ] && grep -q " initcall level #$((nlev - 1)) of $nlev\$" "$out/report.txt" &&
			grep -q '^(levels: do_initcall_level() is in the log, not eight times' "$out/report.txt" &&
			! grep -q 'initcall level [0-7] (' "$out/report.txt"
		ok $? "$label: $nlev of the eight initcall levels are in the log (one under the mintime): kd --boot numbers them and says why"
	fi
	# "NAME USECS 1" once ktime has left jiffies for a real clocksource.
	awk '/clocksource: Switched to clocksource/ { sw = 1 }
		match($0, /initcall [^ +]+\+0x[0-9a-f]+\/0x[0-9a-f]+ returned -?[0-9]+ after [0-9]+ usecs/) {
			split(substr($0, RSTART, RLENGTH), w, /[ +]/); print w[2], w[7], sw + 0 }' \
		"$out/dmesg.out" > "$out/initcall_debug.txt"
	awk '/^Initcalls/ { i = 1; next }	# level: "early", "-", or "4 subsys"
		i && $1 ~ /^[0-9.]+$/ { n = $5 ~ /^[0-9]+$/ ? $7 : $6; sub(/:$/, "", n); print $1, n, $2 }' \
		"$out/report.txt" | grep -v ' (not' | sort -n | cut -d' ' -f2- > "$out/kd-initcalls.txt"
	# kd's initcalls, in boot order, are initcall_debug's in the same order;
	# nine in ten of those over 5 ms are in kd's (the others: ktime, not
	# the tracer, is off around the kernel's clocksource switch); the
	# longest take as long by both, where ktime had a real clock (before
	# clocksource_done_booting it counts jiffies, late under emulation).
	# initcall_debug reads the clock in do_one_initcall()'s callbacks, so
	# its time may also hold what ran there around the initcall (the
	# task preempted in the callback, in a CI run: 18 ms): it must then
	# lie between kd's time of the initcall and of its do_one_initcall().
	awk '/^------/ { d = 1; next }
		d && $4 == "do_one_initcall" { doi = $2 }
		d && $5 ~ /^do_one_initcall\+/ { print $4, doi }' "$out/boot.sym" > "$out/do_one_initcall.txt"
	awk 'FILENAME == ARGV[1] { dbg[$1] = $2; real[$1] = $3; order[++nd] = $1; next }
		FILENAME == ARGV[2] { doi[$1] = $2; next }
		{ kd[$1] = $2; seq[++nk] = $1 }
		END {
			j = 1
			for (i = 1; i <= nk; i++) {
				while (j <= nd && order[j] != seq[i]) j++
				if (j > nd) { print "kd has " seq[i] " out of initcall_debug order"; bad = 1; break }
			}
			for (f in dbg) if (dbg[f] >= 5000) { big++; if (f in kd) found++; else print "note: kd has no " f " (" dbg[f] " us)" }
			for (f in kd) if ((f in dbg) && dbg[f] >= 20000 && real[f]) {
				tol = 0.1 * dbg[f] + 4000
				d = kd[f] - dbg[f]; if (d < 0) d = -d
				around = (f in doi) && doi[f] > 0 && dbg[f] > kd[f] && dbg[f] <= doi[f] + tol
				if (d > tol && !around) { print f ": kd " kd[f] ", initcall_debug " dbg[f] ", do_one_initcall " doi[f]; bad = 1 }
				else if (d > tol) print "note: " f ": kd " kd[f] ", initcall_debug " dbg[f] ", within do_one_initcall " doi[f]
				m++
			}
			exit bad || m < 1 || nd < 50 || nk < 20 || found < 0.9 * big
		}' "$out/initcall_debug.txt" "$out/do_one_initcall.txt" "$out/kd-initcalls.txt" >&2
	ok $? "$label: kd --boot's initcalls are initcall_debug's, in order; $(awk '$2 >= 5000' "$out/initcall_debug.txt" | wc -l) over 5 ms, the longest as long"
}

# dump_checks LABEL OUT KDIR HOW: the log kft_dump= printed on OUT's console,
# read back by the host tools, is whole and checks out.
dump_checks() {
	local label="$KFT_TAG $1" out=$2 kdir=$3 how=$4 lines logged rc
	"$BUILD/asan/addr2sym" -m "$kdir/System.map" "$out/console.log" \
		> "$out/dump.sym" 2> "$out/dump.err"
	[ $? = 0 ] && [ ! -s "$out/dump.err" ]
	ok $? "$label: addr2sym takes the log out of the captured console, no line lost $(head -c 300 "$out/dump.err")"
	lines=$(tr -d '\r' < "$out/console.log" | sed -n 's/.*kft_dump end: run 0, \([0-9]*\) lines$/\1/p')
	[ -n "$lines" ] && [ "$lines" = "$(grep -c 'kft_dump: ' "$out/console.log")" ]
	ok $? "$label: the dump's end line counts the lines the console shows (${lines:-none})"
	logged=$(sed -n 's/^Number of entries after filters = //p' "$out/dump.sym")
	[ "${logged:-0}" -gt 100 ] &&
	[ "$logged" = "$(awk '/^------/ { d = 1; next } d && NF >= 6' "$out/dump.sym" | wc -l)" ] &&
	grep -q '^Entries lost = 0$' "$out/dump.sym"
	ok $? "$label: all $logged calls the header counts are in the dump, none lost"
	grep -q "^Logging stopped at [0-9]* usec by $how\$" "$out/dump.sym"
	ok $? "$label: the run was stopped by $how"
	# Under QEMU's wall clock a loaded host can make the calibration's
	# repeats disagree: the kernel refuses it and kd says so, rightly.
	"$BUILD/asan/kd" -m "$kdir/System.map" --boot "$out/console.log" > "$out/dump.report" 2> "$out/dump.kderr"
	rc=$?
	grep -v "refused its calibration of the hooks' cost" "$out/dump.kderr" > "$out/dump.kderr.other"
	[ $rc = 0 ] && [ ! -s "$out/dump.kderr.other" ] && grep -q 'no first user program' "$out/dump.report"
	ok $? "$label: kd --boot reads the captured console: a boot with no user program $(head -c 300 "$out/dump.kderr.other")"
}

# A boot that never reaches user space, its log printed on the console.
dump_test() {
	local kdir=$1 v=$2 out at
	out=$E2E/$(kft_arch_name "boot-$v" dump-hang gcc)
	# pid 1 waits rootdelay= seconds before mounting a root (rdinit= is
	# not in the initramfs): for ever, here.  Printed at 10 s.
	tests/lib/qemu-run.sh -x 'kft_dump end: ' \
		-a "rdinit=/nope rootdelay=100000 kft_dump=10s" "$kdir" "$out" none
	ok $? "$KFT_TAG $v kft_dump=10s: a boot that hangs prints the boot run's log" || return
	dump_checks "$v kft_dump=10s" "$out" "$kdir" "kft_dump= time"
	at=$(sed -n 's/^Logging stopped at \([0-9]*\) usec.*/\1/p' "$out/dump.sym")
	[ "${at:-0}" -ge 10000000 ] && [ "$at" -lt 30000000 ]
	ok $? "$KFT_TAG $v kft_dump=10s: stopped 10 s after the kernel started ($at us)"
	awk '/^------/ { d = 1; next } d && $2 == -1 && $3 == 1 { open[$4] = 1 }
		END { exit !(open["kernel_init"] && open["kernel_init_freeable"] &&
			     open["prepare_namespace"] && open["msleep"]) }' "$out/dump.sym"
	ok $? "$KFT_TAG $v kft_dump=10s: where it hangs: pid 1 in kernel_init -> kernel_init_freeable -> prepare_namespace -> msleep, never returned"

	out=$E2E/$(kft_arch_name "boot-$v" dump-panic gcc)
	# No init at all: the kernel panics in pid 1.  A run with no stop
	# trigger: the panic stops it.
	tests/lib/qemu-run.sh -x 'kft_dump end: ' \
		-a "kft=\"trigger start entry start_kernel filter mintime 500\" rdinit=/nope init=/nope kft_dump=panic" \
		"$kdir" "$out" none
	ok $? "$KFT_TAG $v kft_dump=panic: a boot that panics prints the boot run's log" || return
	awk '/Kernel panic - not syncing/ { p = NR } /kft_dump begin: run 0, [0-9]+ calls, at panic/ { b = NR }
		END { exit !(p && b > p) }' "$out/console.log"
	ok $? "$KFT_TAG $v kft_dump=panic: the dump follows the panic message"
	dump_checks "$v kft_dump=panic" "$out" "$kdir" "kernel panic"
	awk '/^------/ { d = 1; next } d && $2 == -1 && $3 == 1 { open[$4] = 1 }
		END { exit !(open["kernel_init"] && open["panic"]) }' "$out/dump.sym"
	ok $? "$KFT_TAG $v kft_dump=panic: where it died: pid 1 in kernel_init -> ... -> panic, never returned"
}

# cmdline_test VARIANT: the run given on the command line (to the reference
# kernel: one without a static run).
cmdline_test() {
	local kdir out=$E2E/$(kft_arch_name "boot-$1" cmdline gcc)
	kdir=$(tests/lib/kbuild.sh "$1" gcc | tail -n 1)
	ok $? "$KFT_TAG $1 kft=: kernel builds" || return
	boot "$1 kft=" "$kdir" "$out" 2 boot,syscall "kft=\"$DEFAULT_RUN\""
	[ -f "$out/boot.out" ] || return
	default_run_checks "$1 kft= (2 CPUs)" "$out" "$kdir" "kft= parameter"
	grep -q '^status: run id 1, primed, triggered, complete' "$out/syscall.out" &&
	grep -q "Logging started at [0-9]* usec by entry to function ${SYS}openat" "$out/syscall.out"
	ok $? "$KFT_TAG $1 kft=: after the boot run, a dynamic run traces openat() as usual"
}

# static_test VARIANT: a kernel with the default static run.
static_test() {
	local kdir out early off v=$1
	out=$E2E/$(kft_arch_name "boot-$v" static gcc)
	early=$out-early off=$out-off
	kdir=$(tests/lib/kbuild.sh "$v" gcc | tail -n 1)
	ok $? "$KFT_TAG $v kftstatic.conf: kernel with the default static run builds" || return
	boot "$v kftstatic.conf" "$kdir" "$out" 1 boot initcall_debug
	if [ -f "$out/boot.out" ]; then
		default_run_checks "$v kftstatic.conf" "$out" "$kdir" "kernel/kftstatic.conf"
		boot_report_checks "$v kftstatic.conf" "$out"
	fi

	# kft= wins over the static run.  Its funclist logs every call of a
	# few functions however short, so those made before the TSC is
	# calibrated show whether their times are real.
	boot "$v kft= over kftstatic.conf" "$kdir" "$early" 1 boot \
		"kft=\"trigger start entry start_kernel trigger stop entry to_userspace filter funclist start_kernel setup_arch $EARLY_FNS $LATER_FN fend\""
	[ -f "$early/boot.out" ] || return
	resolve "$early" "$kdir" 0 ""
	grep -q '^boot run from kft= parameter ' "$early/boot.out"
	ok $? "$KFT_TAG $v kft= takes precedence over kftstatic.conf"
	awk -v fns="setup_arch $EARLY_FNS $LATER_FN" '
		BEGIN { n = split(fns, f); for (i = 1; i <= n; i++) want[f[i]] = i }
		/^------/ { d = 1; next }
		d && ($4 in want) && !($4 in at) {
			at[$4] = $1 + 0; len[$4] = $2 + 0
		}
		END {
			for (i = 1; i <= n; i++) {
				if (!(f[i] in at)) { print "missing " f[i]; bad = 1; continue }
				if (at[f[i]] <= 0 || len[f[i]] <= 0) { print f[i] " at " at[f[i]] " for " len[f[i]]; bad = 1 }
				if (i > 1 && at[f[i]] <= at[f[i - 1]]) { print f[i] " not after " f[i - 1]; bad = 1 }
				if (i > 1 && at[f[i]] + len[f[i]] > at["setup_arch"] + len["setup_arch"]) { print f[i] " outside setup_arch"; bad = 1 }
			}
			exit bad
		}' "$early/boot.sym" >&2
	ok $? "$KFT_TAG $v early clock: $EARLY_FNS and $LATER_FN have real, increasing times inside setup_arch"
	! grep '^error' "$early/boot.txt" | head -5 >&2
	ok $? "$KFT_TAG $v early clock: entry times non-zero and increasing"

	boot "$v kft=off" "$kdir" "$off" 1 control_none "kft=off"
	grep -q '^No logging run registered' "$off/control_none.out" 2>/dev/null
	ok $? "$KFT_TAG $v kft=off boots without the static run"

	dump_test "$kdir" "$v"
}

# boot_us OUT: the boot's length, start_kernel to the first user program.
boot_us() {
	"$BUILD/asan/kd" --boot "$1/boot.sym" | sed -n 's/^Boot: .*: \([0-9.]*\) us$/\1/p'
}

# ci_test VARIANT: the boot-time toolchain on real boots, under QEMU's
# instruction counting, one vCPU (the same boot takes the same guest time on every
# run and host): two boots of the kernel pass kd --boot --check against
# each other; a third, booted so that kft_test_initcall() sleeps 20 ms
# more (CONFIG_KFT_TEST_INITCALL), fails it naming that initcall.  The
# reference's --json is read by Python, and its --initcall-debug lines are
# drawn by the kernel's own scripts/bootgraph.pl.
ci_test() {
	local v=$1 kdir base name ms ksrc rc
	base=$E2E/$(kft_arch_name "boot-$v" ci gcc)
	kdir=$(tests/lib/kbuild.sh "$v" gcc | tail -n 1) || return
	for name in ref same slow; do
		ms=5
		[ $name = slow ] && ms=25
		tests/lib/qemu-run.sh -I -s 1 -a "kft_test_initcall.sleep_ms=$ms" "$kdir" "$base-$name" boot
		ok $? "$KFT_TAG $v icount boot $name (kft_test_initcall.sleep_ms=$ms): boots, guest steps pass, kernel log clean" || return
		resolve "$base-$name" "$kdir" 500 "start_kernel to_userspace"
	done
	# Two icount boots still differ by tens to hundreds of us (not every
	# source of time is the instruction count), and a wait that ends at a
	# timer tick then moves by a tick (4 ms): changes under 5 ms pass.
	"$BUILD/asan/kd" --boot --check --min 5000 "$base-ref/boot.sym" "$base-same/boot.sym" > "$base-same/check.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && grep -q '^PASS: ' "$base-same/check.out"
	ok $? "$KFT_TAG $v kd --boot --check: two boots of the same kernel under icount pass (exit $rc; boots of $(boot_us "$base-ref") and $(boot_us "$base-same") us)"
	cat "$base-same/check.out"
	"$BUILD/asan/kd" --boot --check --min 5000 "$base-ref/boot.sym" "$base-slow/boot.sym" > "$base-slow/check.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] && grep -q '^FAIL: ' "$base-slow/check.out" &&
		sed -n '/^Slower/,/^Within/p' "$base-slow/check.out" | grep -q '^  initcall kft_test_initcall '
	ok $? "$KFT_TAG $v kd --boot --check: kft_test_initcall sleeping 20 ms more fails the check, named (exit $rc): $(grep '^  initcall kft_test_initcall ' "$base-slow/check.out" | tr -s ' ')"
	cat "$base-slow/check.out"

	"$BUILD/asan/kd" --boot --json "$base-ref/boot.sym" > "$base-ref/report.json" &&
		python3 - "$base-ref/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["format"] == "kft-boot-report" and r["boot"]["reached_user_space"], r["boot"]
assert abs(sum(p["time"] for p in r["phases"]) - r["boot"]["time"]) < 0.01 * len(r["phases"])
ic = {i["name"]: i for i in r["initcalls"]}
t = ic["kft_test_initcall"]
assert t["time"] >= 5000 and t["off_cpu"] > 0.9 * t["time"] and t["top_calls"][0]["name"] == "msleep", t
assert t["level"] == 6 or (t["level"] is None and t["level_seen"] >= 0), t
assert len(ic) > 10, len(ic)
PY
	ok $? "$KFT_TAG $v kd --boot --json: valid JSON (Python), phases adding up to the boot, kft_test_initcall 5 ms or more, asleep in msleep"
	"$BUILD/asan/kd" --boot --check "$base-ref/report.json" "$base-slow/boot.sym" > /dev/null 2>&1
	[ $? -eq 1 ]
	ok $? "$KFT_TAG $v kd --boot --check against the reference's JSON fails the slow boot too"

	ksrc=$(kft_kernel_tree)
	# As measured: bootgraph.pl leaves out initcalls short against the
	# boot, which some compensated ones are.
	"$BUILD/asan/kd" --raw --boot --initcall-debug "$base-ref/boot.sym" > "$base-ref/initcall_debug.txt" &&
		perl "$ksrc/scripts/bootgraph.pl" "$base-ref/initcall_debug.txt" > "$base-ref/bootgraph.svg" &&
		python3 - "$base-ref/bootgraph.svg" "$base-ref/initcall_debug.txt" <<'PY'
import re, sys, xml.etree.ElementTree as ET
texts = {t.text for t in ET.parse(sys.argv[1]).getroot().iter("{http://www.w3.org/2000/svg}text")}
names = set(re.findall(r"\] calling  (\w+)\+", open(sys.argv[2]).read()))
assert "kft_test_initcall" in names and len(names) > 10, names
assert names <= texts, names - texts
PY
	ok $? "$KFT_TAG $v kd --boot --initcall-debug: the kernel's scripts/bootgraph.pl draws every initcall of the boot run ($(grep -c '] calling ' "$base-ref/initcall_debug.txt"))"
}

staticfn_test() {
	local kdir out=$E2E/boot-staticfn ksrc log rc
	kdir=$(tests/lib/kbuild.sh kft+staticfn gcc | tail -n 1)
	ok $? "$KFT_TAG kftstatic.conf naming static functions: kernel builds (and links)" || return
	boot "static functions" "$kdir" "$out" 1 boot
	if [ -f "$out/boot.out" ]; then
		resolve "$out" "$kdir" 200 "kernel_init_freeable do_initcalls"
		grep -q '^Logging started at [0-9]* usec by entry to function kernel_init_freeable$' "$out/boot.sym" &&
		grep -q '^Logging stopped at [0-9]* usec by exit from function do_initcalls$' "$out/boot.sym"
		ok $? "$KFT_TAG static functions: started by kernel_init_freeable, stopped by do_initcalls (both static)"
		grep -q '^first kernel_init_freeable 1 ' "$out/boot.txt" && ! grep -q '^error' "$out/boot.txt"
		ok $? "$KFT_TAG static functions: first call kernel_init_freeable in pid 1, the log checks out"
	fi

	# An error in the file fails the build, naming file and line.  The
	# good file and what the build made of it are put back as they were
	# (times too), so that the next build has nothing to do.
	ksrc=$(kft_kernel_tree)
	log=$out/bad-build.log
	keep=$out/kept
	mkdir -p "$keep"
	cp -p "$kdir/staticfn.conf" "$kdir/kernel/kftstatic.c" "$kdir/kernel/.kftstatic.c.cmd" "$keep/"
	printf '# three lines\ntrigger start entry start_kernel\nfilter mintime 10 bogus\n' > "$kdir/staticfn.conf"
	# (With kbuild.sh's build stamp: another would regenerate compile.h
	# and relink the kernel on its next build.)
	CCACHE_DIR=${CCACHE_DIR:-$KFT_CACHE/ccache} \
	make -C "$ksrc" O="$kdir" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_TIMESTAMP="2025-01-01" KBUILD_BUILD_USER=kft KBUILD_BUILD_HOST=kft \
		kernel/kftstatic.o > "$log" 2>&1
	rc=$?
	cp -p "$keep/staticfn.conf" "$kdir/"
	cp -p "$keep/kftstatic.c" "$keep/.kftstatic.c.cmd" "$kdir/kernel/"
	[ "$rc" -ne 0 ] && grep -q "staticfn.conf:3: error: 'bogus': unknown keyword" "$log"
	ok $? "$KFT_TAG an error in kftstatic.conf fails the build: $(grep -m1 'error:' "$log")"
}

# Sourced (test_series.sh), this file only defines its tests.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0
for KFT_ARCH in $ARCHES; do
	. tests/lib/arch.sh
	cmdline_test "$KFT_CHECK_VARIANT"
	static_test "$KFT_CHECK_VARIANT"
	case $KFT_ARCH in x86_64|arm64) ci_test "$KFT_CHECK_VARIANT" ;; esac
	[ "${KFT_TIER:-check}" = full ] || continue
	cmdline_test kft
	static_test kft+static
	[ "$KFT_ARCH" = x86_64 ] && staticfn_test
done
tap_done
