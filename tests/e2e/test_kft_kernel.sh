#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End to end, on each architecture (KFT_ARCHES: x86_64 arm64 riscv64 arm).
# KFT_TIER=check (make check): each architecture's check kernel (GCC, the
# boot run and modules built in; booted with kft=off) on 2 CPUs.
# KFT_TIER=full (make check-full) adds the reference KFT kernel with GCC
# and with Clang (riscv64: GCC; 32-bit arm: Thumb-2, and with GCC ARM
# too) on 1, 2 and 4 CPUs (x86_64 GCC), at EL2 (arm64 GCC), on 2
# elsewhere; and on x86_64 and arm64 a GCC kernel whose hooks a GCC
# plugin put in after inlining (CONFIG_KFT_AFTER_INLINING), on 2.  Each
# kernel is booted in QEMU, and we
#  - trace one openat() of a guest program from entry to exit of
#    __x64_sys_openat, __arm64_sys_openat, ... (configured by name through
#    /proc/kft), bring the log back, resolve it with addr2sym and check what
#    it says;
#  - drive /proc/kft as a user would (tests/guest/control.sh): configs in
#    pieces, refusals that change nothing, commands, round trip; and as
#    several users at once (writers.sh): writes split anywhere, commands
#    amid another's config, three writers, big configs and funclists;
#  - every trigger and filter, a stack watch, a quiet run, a stress run.
# Test names start with the arch, compiler and CPUs: "arm64 gcc 2cpu: ...".
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
. tests/lib/common.sh
BUILD=${BUILD:-build}
ARCHES=${KFT_ARCHES:-x86_64 arm64 riscv64 arm}
KFT_TIER=${KFT_TIER:-check}

# The runs of tests/guest/filters.sh, one resolved log each.
filter_checks() {
	local cc=$1 out=$2 kdir=$3 r f fo
	fo=$(kft_file_open "$kdir")
	awk -v dir="$out" '/^=== run / { f = dir "/run-" $3 ".raw"; next }
		/^=== asked / { print > (dir "/time-asked"); next }
		/^=== pid / { print $3, $4 > (dir "/pid-" $3); next }
		/^=== / { print > (dir "/notes"); next }
		f { print > f }' "$out/filters.out"
	for r in funclist mintime maxtime noints onlyints time autorepeat pid comm children depth notunder; do
		"$BUILD/asan/addr2sym" -m "$kdir/System.map" "$out/run-$r.raw" > "$out/run-$r.sym" 2>/dev/null
	done
	data() { awk '/^------/ { d = 1; next } d && NF >= 6' "$out/run-$1.sym"; }

	f=$(data funclist | awk '{ print $4 }' | sort -u | tr '\n' ' ')
	[ "$f" = "$(printf '%s\n' "${SYS}openat" "$fo" do_sys_openat2 getname_flags | sort | tr '\n' ' ')" ]
	ok $? "$cc: funclist leaves only the listed functions and the trigger ($f)"
	data mintime | awk -v t="${SYS}openat" '$4 != t && $2 >= 0 && $2 < 20 { bad = 1 } END { exit bad || NR < 2 }'
	ok $? "$cc: mintime 20 leaves nothing shorter"
	grep -q '^Execution time filter count = [1-9]' "$out/run-mintime.sym"
	ok $? "$cc: mintime counts what it filtered"
	data maxtime | awk -v t="${SYS}openat" '$4 != t && $2 > 2 { bad = 1 } END { exit bad || NR < 5 }'
	ok $? "$cc: maxtime 2 leaves nothing longer"
	data noints | awk '$3 == -1 { bad = 1 } END { exit bad || NR < 100 }'
	ok $? "$cc: noints leaves no interrupt calls ($(data noints | wc -l) calls)"
	grep -q '^No Interrupt functions filter count = [1-9]' "$out/run-noints.sym"
	ok $? "$cc: noints filtered interrupt calls"
	data onlyints | awk '$3 != -1 { bad = 1 } END { exit bad || NR < 1 }'
	ok $? "$cc: onlyints leaves only interrupt calls ($(data onlyints | wc -l) calls)"
	asked=- after=-
	read -r _ _ _ asked _ after < "$out/time-asked" 2>/dev/null
	read -r started stopped < <(awk '/^Logging started at/ { s = $4 } /^Logging stopped at .* by time/ { e = $4 } END { print s, e }' "$out/run-time.sym")
	[[ $asked =~ ^[0-9]+$ && $after =~ ^[0-9]+$ ]] &&
	[ -n "${started:-}" ] && [ -n "${stopped:-}" ] &&
	[ "$started" -ge "$asked" ] && [ "$started" -lt $((asked + 20000)) ] &&
	[ $((stopped - started)) -ge "$after" ] && [ $((stopped - started)) -lt $((after + 10000)) ]
	ok $? "$cc: time triggers: asked start $asked for ${after} us, got $started to $stopped ($(grep -c '^=== time trigger' "$out/notes") prime(s), clocksource $(awk '/^=== clocksource/ { print $3 }' "$out/notes"))"
	data time | awk -v s="$started" -v a="$asked" '{ if ($2 >= 0 && $2 < 1000) bad = 1 } END { exit bad }'
	ok $? "$cc: time run: mintime 1ms holds"
	[ "$(data autorepeat | awk -v t="${SYS}sched_yield" '$4 == t' | wc -l)" = 5 ]
	ok $? "$cc: autorepeat: five start/stop rounds in one log"
	data autorepeat | awk '$1 < last { bad = 1 } { last = $1 } END { exit bad }'
	ok $? "$cc: autorepeat: one time base, entry times increase"
	scope_checks "$cc" "$out"
}

# The scoped runs of tests/guest/filters.sh.  pids NAME: the pids (not -1)
# a run's log holds, one a line.
scope_checks() {
	local cc=$1 out=$2 p n
	pids() { data "$1" | awk '$3 != -1 { print $3 }' | sort -un; }
	read -r _ p < "$out/pid-pid" 2>/dev/null
	[ "$(pids pid)" = "${p:-none}" ] && grep -q '^Pid filter count = [1-9]' "$out/run-pid.sym"
	ok $? "$cc: filter pid $p: only the shell's calls and interrupts, the rest counted ($(data pid | wc -l) calls)"
	read -r _ p < "$out/pid-comm" 2>/dev/null
	pids comm | awk -v p="${p:-0}" '$1 < p { bad = 1 } $1 == p { seen = 1 } END { exit bad || !seen || NR < 2 }' &&
		grep -q '^Comm filter count = [1-9]' "$out/run-comm.sym"
	ok $? "$cc: filter comm kft-do: kft-do ($p) and its forks only ($(pids comm | wc -l) tasks)"
	read -r _ p < "$out/pid-children" 2>/dev/null
	n=$(pids children | tr '\n' ' ')
	pids children | awk -v p="${p:-0}" '$1 == p { seen = 1 } $1 != p { other++ } END { exit !seen || other != 1 }' &&
		data children | awk -v p="${p:-0}" '$3 != p && $3 != -1 && $4 ~ /sys_execve$/ { x = 1 } END { exit !x }' &&
		grep -q '^Children filter count = [1-9]' "$out/run-children.sym"
	ok $? "$cc: filter children: kft-do ($p) and the child that execs, interrupts, nothing else (pids $n)"
	# The depth of each of the program's calls, from entries and durations
	# (other tasks, idle ones too, count depth from their first call).
	data depth | awk -v t="${SYS}openat" '$4 == t && !p { p = $3 } p && $3 == p {
		while (n && (end[n] >= 0 && end[n] <= $1)) n--
		if ($4 == t) n = 0
		d = n; if (d > max) max = d
		end[++n] = $2 >= 0 ? $1 + $2 : -1
	} END { exit !p || max != 2 }' && grep -q '^Depth filter count = [1-9]' "$out/run-depth.sym"
	ok $? "$cc: filter depth 2: the program's calls go two levels below ${SYS}openat, none deeper"
	# (awk reads it all: grep -q would close the pipe early, and pipefail
	# would count the writer's SIGPIPE.)
	data notunder | awk -v fo="$fo" '$4 == fo || $4 ~ /^(path_openat|link_path_walk)$/ { bad = 1 }
		$4 == "getname_flags" { g = 1 } END { exit bad || !g }' &&
		grep -q '^Notunder filter count = [1-9]' "$out/run-notunder.sym"
	ok $? "$cc: filter notunder $fo: no path walk, the rest of openat there"
}

# A run armed for seconds: nothing of KFT's own poll between runs is in it.
quiet_checks() {
	local cc=$1 out=$2 kdir=$3 started stopped n mine
	sed -n '/^=== data$/,$p' "$out/quiet.out" | tail -n +2 > "$out/quiet.raw"
	"$BUILD/asan/addr2sym" -m "$kdir/System.map" "$out/quiet.raw" > "$out/quiet.sym"
	read -r started stopped < <(awk '/^Logging started at/ { s = $4 } /^Logging stopped at/ { e = $4 } END { print s, e }' "$out/quiet.sym")
	n=$(awk '/^------/ { d = 1; next } d && NF >= 6' "$out/quiet.sym" | wc -l)
	[ -n "${started:-}" ] && [ -n "${stopped:-}" ] &&
	[ $((stopped - started)) -ge 2500000 ] && [ "$n" -ge 100 ]
	ok $? "$cc: a run armed for $(((${stopped:-0} - ${started:-0}) / 1000)) ms logged $n calls"
	mine=$(grep -c 'kft_sites' "$out/quiet.sym")
	[ "$mine" = 0 ]
	ok $? "$cc: none of them is KFT's poll between runs ($mine)"
}

# kft record in the guest (tests/guest/record.sh): the kernel's reason for a
# refused config; a log and its own symbols, which resolve it as System.map.
record_checks() {
	local cc=$1 out=$2 kdir=$3 pid
	local s
	for s in refused record status data syms two; do
		sed -n "/^=== $s\$/,/^=== /p" "$out/record.out" | sed '1d;/^=== /d' > "$out/record-$s.txt"
	done
	grep -q "^kft: config refused: Invalid argument" "$out/record-refused.txt" &&
		grep -q "^kft: the kernel says: line 2: 'bogus': expected mintime" "$out/record-refused.txt" &&
		grep -q '^rc 1$' "$out/record-refused.txt"
	ok $? "$cc: kft record: a refused config exits 1 with the kernel's reason"
	cp "$out/record-data.txt" "$out/record.raw"
	cp "$out/record-syms.txt" "$out/record.syms"
	pid=$(sed -n 's/^kft-do: pid \([0-9]*\)$/\1/p' "$out/record-record.txt")
	"$BUILD/asan/addr2sym" -m "$out/record.syms" "$out/record.raw" > "$out/record-own.sym" 2>/dev/null
	"$BUILD/asan/addr2sym" -m "$kdir/System.map" "$out/record.raw" > "$out/record-map.sym" 2>/dev/null
	grep -q '^rc 0$' "$out/record-record.txt" && grep -q '^state complete' "$out/record-status.txt" &&
		diff <(awk '/^------/ { d = 1; next } d && NF >= 6 { print $3, $4, $5 }' "$out/record-own.sym") \
		     <(awk '/^------/ { d = 1; next } d && NF >= 6 { print $3, $4, $5 }' "$out/record-map.sym") >&2 &&
		awk -v t="${SYS}openat" -v p="${pid:-x}" '/^------/ { d = 1; next } d && NF >= 6 { n++; if (n == 1 && ($4 != t || $3 != p)) bad = 1 } END { exit bad || n < 20 }' "$out/record-own.sym"
	ok $? "$cc: kft record: the run complete, its log resolved by its own symbols as by System.map, ${SYS}openat first in kft-do's pid ($(wc -l < "$out/record.syms") symbols)"
	s=$out/record-two.txt
	grep -qx 'a rc 1' "$s" && grep -qx 'a not saved' "$s" &&
		grep -q '^a: kft: another config replaced run [0-9]* while sleep ran' "$s"
	ok $? "$cc: kft record, two at once: the first's run replaced, it says so, saves nothing, exits 1"
	grep -qx 'b rc 0' "$s" && grep -q '^b run [0-9][0-9]*$' "$s" && grep -q '^b: kft: log in /tmp/b.log' "$s"
	ok $? "$cc: kft record, two at once: the second records its own run"
	grep -qx 'c rc 127' "$s" && grep -qx 'c not saved' "$s" && grep -q '/no/such/cmd: No such file or directory: not run' "$s"
	ok $? "$cc: kft record of a command that cannot run: exit 127, nothing saved"
}

# kernel_test COMPILER [FRAGMENTS [CPUS]]: the reference kernel, or with
# tests/configs/FRAGMENT.config too, A+B for more than one (their names
# join the compiler's in the test names: "arm gcc arm-isa 2cpu: ...");
# on each of CPUS (default: smp_list).  A kernel with a boot run built in
# boots with kft=off: the steps start with no run registered.
kernel_test() {
	local cc=$1 frag=${2:-} cpus=${3:-} kdir smp args

	kdir=$(tests/lib/kbuild.sh "kft${frag:++$frag}" "$cc" | tail -n 1)
	ok $? "$KFT_TAG $cc${frag:+ $frag}: KFT kernel builds" || return
	[ -f "$kdir/$KIMAGE" ] || return
	args=$(kft_noboot_args "kft${frag:++$frag}")
	for smp in ${cpus:-$(smp_list "$cc")}; do
		boot_test "$cc${frag:+-$frag}" "$smp" "$kdir" "$args"
	done
}

# x86_64: the check kernel with the TSC found unstable (tsc=unstable, as
# the clocksource watchdog can decide at any time): runs read
# sched_clock(), off the hooks' fast paths, and the filters, time
# triggers and the traced openat() hold as on the TSC.
sched_clock_test() {
	local cc=$1 frag=$2 kdir out
	kdir=$(tests/lib/kbuild.sh "kft${frag:++$frag}" "$cc" | tail -n 1)
	[ -f "$kdir/$KIMAGE" ] || return
	out=$BUILD/e2e/$(kft_arch_name kernel "$cc-notsc" 1cpu)
	KFT_BOOT_STEPS=filters,syscall boot_test "$cc-notsc" 1 "$kdir" \
		"$(kft_noboot_args "kft${frag:++$frag}") tsc=unstable"
	grep -q 'Marking TSC unstable due to boot parameter' "$out/dmesg.out" &&
		! grep -q '^=== clocksource tsc$' "$out/notes"
	ok $? "$KFT_TAG $cc notsc 1cpu: the TSC is unstable, not the clocksource ($(awk '/^=== clocksource/ { print $3 }' "$out/notes" 2>/dev/null))"
}

# x86_64 GCC kernels on 1, 2 and 4 CPUs; arm64 GCC on 2, and on 2 booted at
# EL2, with VHE ("2+vhe"); the others on 2 (KFT_SMP overrides).
smp_list() {
	if [ -n "${KFT_SMP:-}" ]; then echo "$KFT_SMP"
	elif [ "$KFT_ARCH-$1" = x86_64-gcc ]; then echo 1 2 4
	elif [ "$KFT_ARCH-$1" = arm64-gcc ]; then echo 2 2+vhe
	else echo 2
	fi
}

# funclist_sites_checks LABEL OUT KDIR: which sites control.sh's funclist
# run armed.  Where functions call the hooks from their own text (KFT's
# plugin, Clang), its functions' and triggers' alone: the system call's
# and schedule()'s entries and exits, a few dozen at most; with
# -finstrument-functions, whose inlined functions call them from their
# callers' text, every site.
funclist_sites_checks() {
	local cc=$1 out=$2 kdir=$3 line n f
	line=$(sed -n 's/^sites funclist: \(hook sites: .*\)/\1/p' "$out/control.out")
	f=$(sed -n 's/^sites funclist: Total entries filtered = \([0-9]*\).*/\1/p' "$out/control.out")
	if grep -q '^CONFIG_KFT_AFTER_INLINING=y$\|^CONFIG_CC_IS_CLANG=y$' "$kdir/.config"; then
		n=$(sed -n "s/.* at \([0-9]*\), the run's functions'.*/\1/p" <<< "$line")
		[ -n "$n" ] && [ "$n" -ge 4 ] && [ "$n" -le 64 ]
		ok $? "$cc: a funclist run arms its functions' sites alone (${line:-no line})"
		# No other function's hooks ran: none for the funclist to drop.
		[ "$f" = 0 ]
		ok $? "$cc: and no call it did not name reached the hooks (${f:-no count} filtered)"
	else
		[ -n "$line" ] && [[ $line != *" at "* ]] && [ "${f:-0}" -gt 0 ]
		ok $? "$cc: a funclist run arms every site, -finstrument-functions' inlined calls being in their callers' text (${line:-no line}; ${f:-no count} calls filtered)"
	fi
}

boot_test() {
	local smp=${2%+vhe} vhe=() name=${2/+/-}cpu
	[ "$smp" = "$2" ] || { vhe=(-v); name=${smp}cpu-vhe; }
	local cc="$KFT_TAG ${1/-/ } ${name/-/ }" kdir=$3 args=$4 out pid log kthreads
	out=$BUILD/e2e/$(kft_arch_name kernel "$1" "$name")

	local steps=control,writers,watch,filters,syscall,record
	# quiet: KFT's poll of the NOP sites is not in a run's log
	[ "$KSITES" = 1 ] && steps=$steps,quiet
	[ "$smp" -gt 1 ] && steps=$steps,stress
	steps=${KFT_BOOT_STEPS:-$steps}	# test_series.sh: a few
	tests/lib/qemu-run.sh -s "$smp" ${vhe[@]+"${vhe[@]}"} -a "kftstress=${KFT_STRESS_SECONDS:-20}${args:+ $args}" "$kdir" "$out" "$steps"
	ok $? "$cc: kernel boots in QEMU, guest steps pass, no oops or warning"
	if [ ${#vhe[@]} -gt 0 ]; then
		grep -q 'CPU: All CPU(s) started at EL2' "$out/dmesg.out"
		ok $? "$cc: the kernel runs at EL2 (VHE)"
	fi
	if [[ ,$steps, = *,stress,* ]]; then
		grep -q '^stress done' "$out/stress.out" 2>/dev/null
		ok $? "$cc: $(grep '^stress loops' "$out/stress.out" 2>/dev/null): runs replaced and read under load, kernel log clean"
	fi
	local step
	for step in control writers; do
		[ -f "$out/$step.out" ] || continue
		while read -r _ name verdict; do
			[ "$verdict" = ok ]
			ok $? "$cc: /proc/kft: $name"
		done < <(grep '^check ' "$out/$step.out")
		grep -q '^check ' "$out/$step.out"
		ok $? "$cc: /proc/kft $step checks ran"
	done
	if [ -f "$out/watch.out" ]; then
		local low chains
		low=$(sed -n 's/^lowest stack: \([0-9]*\) bytes left$/\1/p' "$out/watch.out")
		[ -n "$low" ] && [ "$low" -gt 0 ] && [ "$low" -lt 16384 ]
		ok $? "$cc: watch worst-stack: /proc/kft reports the lowest stack (${low:-none} bytes left)"
		chains=$(awk '$2 == "-2"' "$out/watch.out" | wc -l)
		[ "$chains" -ge 2 ]
		ok $? "$cc: watch worst-stack: call chains kept in the log, marked -2 ($chains entries)"
		grep -q "^Lowest stack seen = $low bytes left" "$out/watch.out"
		ok $? "$cc: watch worst-stack: the log's header agrees"
	fi
	[ -f "$out/control.out" ] && funclist_sites_checks "$cc" "$out" "$kdir"
	[ -f "$out/filters.out" ] && filter_checks "$cc" "$out" "$kdir"
	[ -f "$out/quiet.out" ] && quiet_checks "$cc" "$out" "$kdir"
	[ -f "$out/record.out" ] && record_checks "$cc" "$out" "$kdir"
	log=$out/syscall.out
	[ -f "$log" ] || return

	pid=$(sed -n 's/^kft-do: pid \([0-9]*\)$/\1/p' "$log")
	grep -q '^status: run id [0-9]*, primed, triggered, complete' "$log"
	ok $? "$cc: /proc/kft says the run is complete"
	grep -q "Logging started at [0-9]* usec by entry to function ${SYS}openat" "$log" &&
	grep -q "Logging stopped at [0-9]* usec by exit from function ${SYS}openat" "$log"
	ok $? "$cc: the log names the start and stop triggers"

	sed -n '/^=== data$/,$p' "$log" | tail -n +2 > "$out/raw.log"
	"$BUILD/asan/addr2sym" -m "$kdir/System.map" "$out/raw.log" > "$out/resolved.log"
	ok $? "$cc: addr2sym resolves the log (ASan/UBSan build)"
	awk -f tests/lib/calltree.awk "$out/resolved.log" > "$out/tree.txt"

	read -r _ root rpid rdelta rcpu < <(grep '^root ' "$out/tree.txt")
	[ "${root:-}" = "${SYS}openat" ]
	ok $? "$cc: the first call is ${SYS}openat (got ${root:-none})"
	[ -n "$pid" ] && [ "${rpid:-}" = "$pid" ]
	ok $? "$cc: it ran in the guest program's pid ($pid, got ${rpid:-none})"
	awk -v d="${rdelta:-0}" 'BEGIN { exit !(d > 0 && d < 1000000) }'
	ok $? "$cc: it has a plausible duration (${rdelta:-none} us)"
	for fn in do_sys_openat2 "$(kft_file_open "$kdir")" path_openat; do
		grep -q "^call $fn " "$out/tree.txt"
		ok $? "$cc: callee $fn is in the trace"
	done
	grep -q '^child \(__se_sys_openat\|do_sys_open\|do_sys_openat2\)$' "$out/tree.txt"
	ok $? "$cc: the openat implementation nests directly under ${SYS}openat"
	! grep '^error' "$out/tree.txt" >&2
	ok $? "$cc: calls nest, entry times increase, callee durations add up"
	# The system call's CPU runs only the program, interrupts and kernel
	# threads (softirq work, load balancing) until the stop trigger; other
	# CPUs run whatever they run.  No other process.
	kthreads=$(sed -n '/^=== kthreads$/{n;p;}' "$log")
	[ -n "${rcpu:-}" ] && awk -v p="$pid" -v c="$rcpu" -v k=" $kthreads " '$1 == "call" && $4 == c && $3 != p && $3 != -1 && index(k, " " $3 " ") == 0 { print "foreign:", $0; bad = 1 }
		$1 == "call" && $3 !~ /^(-1|[0-9]+)$/ { print "bad pid:", $0; bad = 1 } END { exit bad }' "$out/tree.txt" >&2
	ok $? "$cc: on its CPU every call ran in the program's pid, an interrupt or a kernel thread; every pid is valid"
	n=$(sed -n 's/^calls //p' "$out/tree.txt")
	[ "${n:-0}" -ge 20 ]
	ok $? "$cc: the trace holds the whole system call (${n:-0} calls)"
	grep -q '^Entries lost = 0$' "$out/raw.log"
	ok $? "$cc: no entries lost"
}

# The plugin's kernel keeps out of line about what an untraced one does:
# far fewer local functions than -finstrument-functions' (these x86_64
# tinyconfig kernels: 10,185 against 15,157; vanilla 10,099).  Clang
# instruments after inlining already; its LLVM pass changes only how the
# hooks are called.
after_inlining_test() {	# after_inlining_test CC
	local cc=$1 a r na nr
	a=$(tests/lib/kbuild.sh kft+afterinlining "$cc" | tail -n 1) || return
	if [ "$cc" = gcc ]; then
		r=$(tests/lib/kbuild.sh kft gcc | tail -n 1) || return
		na=$(awk '$2 == "t"' "$a/System.map" | wc -l)
		nr=$(awk '$2 == "t"' "$r/System.map" | wc -l)
		[ "$na" -gt 0 ] && [ $((na * 10)) -lt $((nr * 8)) ]
		ok $? "$KFT_TAG gcc afterinlining: $na local functions, against $nr with -finstrument-functions"
	fi
	# An object compiled by an older plugin would keep calls whose
	# clobbers no longer match the hooks: the plugin's source sum in
	# every command line that loads it makes Kbuild rebuild it.
	local src=scripts/gcc-plugins/kft_plugin.c sum with stale
	[ "$cc" = clang ] && src=scripts/llvm-plugins/kft_pass.cpp
	sum=$(md5sum < "$src" | cut -d' ' -f1)
	with=$(grep -rlE --include='.*.o.cmd' 'kft_(plugin|pass)\.so' "$a" | wc -l)
	stale=$(grep -rlE --include='.*.o.cmd' 'kft_(plugin|pass)\.so' "$a" |
		xargs grep -L -e "-DKFT_PLUGIN_SUM=$sum" | head -3)
	[ "$with" -gt 100 ] && [ -z "$stale" ]
	ok $? "$KFT_TAG $cc afterinlining: the $with objects the plugin compiled carry its source's sum${stale:+ (not: $stale)}"
	local fn call saved start size body
	case $KFT_ARCH in
	x86_64) fn=strncmp call=call saved='push' ;;
	arm64) fn=__init_single_page call=bl saved='st(r|p)[[:space:]].*x(19|2[0-8])' ;;
	*) return 0 ;;
	esac
	read -r start size < <("${KCROSS}nm" -S "$a/vmlinux" | awk -v f="$fn" '$4 == f { print $1, $2 }')
	body=$("${KCROSS}objdump" -d --no-show-raw-insn --start-address=0x"$start" \
		--stop-address=$((0x$start + 0x$size)) "$a/vmlinux")
	grep -Eq "$call.*<__cyg_profile_func_enter>" <<< "$body" &&
		grep -Eq "$call.*<__cyg_profile_func_exit>" <<< "$body" &&
		! grep -Eq "$saved" <<< "$body"
	ok $? "$KFT_TAG $cc afterinlining: $fn() calls the hooks and saves no register"
}

# Sourced (test_series.sh), this file only defines its tests.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0
for KFT_ARCH in $ARCHES; do
	. tests/lib/arch.sh
	compilers=" ${KFT_COMPILERS:-$KCOMPILERS} "
	[[ $compilers = *" gcc "* ]] && kernel_test gcc "${KFT_CHECK_VARIANT#kft+}" 2
	[ "$KFT_ARCH" = x86_64 ] && [[ $compilers = *" gcc "* ]] &&
		sched_clock_test gcc "${KFT_CHECK_VARIANT#kft+}"
	# Clang's boots are make check-full's: a kernel more than a cold make
	# check's hour holds (README).  (make check's Clang kernels are the
	# accuracy test's; their code is checked below.)
	[ "$KFT_TIER" = full ] || continue
	for cc in $compilers; do
		kernel_test "$cc"
	done
	# KFT's compiler plugin: GCC's hooks put in after inlining, as
	# Clang puts them; both compilers' calls as inline asm that keeps
	# the caller's registers (GCC plugin, LLVM pass): x86_64 and arm64.
	if [[ $KFT_ARCH = @(x86_64|arm64) ]]; then
		for cc in $compilers; do
			kernel_test "$cc" afterinlining 2
			after_inlining_test "$cc"
		done
	fi
	# 32-bit arm: the reference kernel is Thumb-2 (tinyconfig's choice);
	# ARM-mode call sites are encoded and patched differently.
	[ "$KFT_ARCH" = arm ] && [[ $compilers = *" gcc "* ]] && kernel_test gcc arm-isa
done
# make check: the LLVM pass's calls in the Clang kernels test_accuracy.sh
# boots (KFT_CHECK_KERNELS; last, so that they are built by now).
if [ "$KFT_TIER" != full ]; then
	for KFT_ARCH in $ARCHES; do
		[[ $KFT_ARCH = @(x86_64|arm64) ]] || continue
		. tests/lib/arch.sh
		[[ " ${KFT_COMPILERS:-$KCOMPILERS} " = *" clang "* ]] || continue
		after_inlining_test clang
		# /proc/kft on it, as control.sh drives it: the sites a run
		# arms, where each function's are in its own text (x86_64;
		# make check-full boots every Clang kernel with it).
		[ "$KFT_ARCH" = x86_64 ] || continue
		kdir=$(tests/lib/kbuild.sh kft+afterinlining clang | tail -n 1)
		KFT_BOOT_STEPS=control boot_test clang-afterinlining 1 "$kdir" \
			"$(kft_noboot_args kft+afterinlining)"
	done
fi
tap_done
