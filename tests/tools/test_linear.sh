#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every host tool mode (kft record's too) stays linear in the log's length, on every shape of
# log bench/genlog.c makes (calls that never exit and repeated runs,
# 2.6-era interrupt blocks, thousands of tasks): the CPU time for a log
# four times as long must stay well under the 16x a quadratic mode takes.
# Ratios, not times: nothing here depends on this machine's speed.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
B=${BUILD:-build}
N=${LINEAR_LINES:-100000}
tap_tmpdir

# cpu COMMAND...: the least user+system seconds of three runs.
# linear A B: B seconds for 4x the lines of A seconds is linear (under 8x;
# below 0.2 s the base is noise: times are in 10 ms steps, and kd --chrome's
# 100,000 lines took 0.14 to 0.26 s between runs, its 4x 1.07-1.13 s, which
# once came out 8.0x; at 1.6 million lines it is 4.2x).
linear() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(b < 8 * (a > 0.2 ? a : 0.2)) }'
}
cpu() {
	local best= t i
	for i in 1 2 3; do
		/usr/bin/time -f '%U %S' -o "$tmp/time" "$@" > /dev/null 2>&1
		# The last line: time(1) says first if the command failed.
		t=$(awk 'END { printf "%.3f", $1 + $2 }' "$tmp/time")
		best=$(awk -v a="$t" -v b="${best:-$t}" 'BEGIN { print (a < b ? a : b) }')
	done
	echo "$best"
}

for shape in plain open irq26 tasks; do
	for n in "$N" $((4 * N)); do
		"$B/genlog" --shape "$shape" "$n" "$tmp/map" "$tmp/$shape-$n.log" &&
		"$B/addr2sym" -m "$tmp/map" "$tmp/$shape-$n.log" -o "$tmp/$shape-$n.sym"
	done
	ok $? "$shape: $N- and $((4 * N))-line logs generated and resolved"
	for mode in addr2sym kft-record summary tree tree-r tree-i tree-ir folded chrome trace-cmd boot; do
		t=()
		for n in "$N" $((4 * N)); do
			case $mode in
			addr2sym) set -- "$B/addr2sym" -m "$tmp/map" "$tmp/$shape-$n.log" ;;
			# kft record's symbol saver: the log and the map as a
			# fake /proc (run 1, complete, as genlog's log says).
			kft-record)
				mkdir -p "$tmp/proc-$n"
				# (kft writes its config over the start of a file.)
				printf '%64s\nstatus: run id 1, primed, triggered, complete\nstate: complete\n' '#' > "$tmp/proc-$n/kft.status"
				ln -sf "$tmp/$shape-$n.log" "$tmp/proc-$n/kft_data"
				ln -sf "$tmp/map" "$tmp/proc-$n/kallsyms"
				set -- sh -c 'cp "$1/kft.status" "$1/kft" && KFT_PROC=$1 "$2" record -e "" -o "$1/out.log" -- true' sh "$tmp/proc-$n" "$B/kft" ;;
			summary)  set -- "$B/kd" "$tmp/$shape-$n.sym" ;;
			tree)     set -- "$B/kd" -c "$tmp/$shape-$n.sym" ;;
			tree-r)   set -- "$B/kd" -c -r "$tmp/$shape-$n.sym" ;;
			tree-i)   set -- "$B/kd" -c -i "$tmp/$shape-$n.sym" ;;
			tree-ir)  set -- "$B/kd" -c -i -r "$tmp/$shape-$n.sym" ;;
			folded)   set -- "$B/kd" --folded "$tmp/$shape-$n.sym" ;;
			chrome)   set -- "$B/kd" --chrome "$tmp/$shape-$n.sym" ;;
			trace-cmd) set -- "$B/kd" --trace-cmd "$tmp/out.dat" "$tmp/$shape-$n.sym" ;;
			# A boot: its first call start_kernel (kd --boot refuses
			# a log none of the boot's functions is in).
			boot)     awk 'd == 1 { $4 = "start_kernel"; d = 2 } /^------------ / && !d { d = 1 } { print }' \
					"$tmp/$shape-$n.sym" > "$tmp/$shape-$n.boot"
				  set -- "$B/kd" --boot "$tmp/$shape-$n.boot" ;;
			esac
			t+=("$(cpu "$@")")
		done
		# A quadratic mode still fails by far (0.35 s -> 16.5 s, 47x,
		# was kd -c's on repeated runs).
		linear "${t[0]}" "${t[1]}"
		ok $? "$shape: $mode: ${t[0]} s for $N lines, ${t[1]} s for 4x as many"
	done
done
# The same logs with a hook cost and Calls and Logged columns: the times
# compensated, and calls placed on the compensated clock (--chrome,
# --timeline, --boot), still linear.
for shape in plain open tasks; do
	for n in "$N" $((4 * N)); do
		awk '/^------------ / { print "Hook cost = 84.3 ns dropped, 131.0 ns logged, 38.2 ns own"; d = 1; print; next }
			d && NF == 6 { print $0, (NR * 7) % 1000 + 5, NR % 5; next } { print }' \
			"$tmp/$shape-$n.sym" > "$tmp/$shape-$n.hooks"
	done
	for mode in summary tree-i chrome trace-cmd timeline boot boot-html; do
		t=()
		for n in "$N" $((4 * N)); do
			case $mode in
			summary)  set -- "$B/kd" "$tmp/$shape-$n.hooks" ;;
			tree-i)   set -- "$B/kd" -c -i "$tmp/$shape-$n.hooks" ;;
			chrome)   set -- "$B/kd" --chrome "$tmp/$shape-$n.hooks" ;;
			trace-cmd) set -- "$B/kd" --trace-cmd "$tmp/out.dat" "$tmp/$shape-$n.hooks" ;;
			timeline) set -- "$B/kd" --timeline "$tmp/$shape-$n.hooks" ;;
			boot)     awk 'd == 1 { $4 = "start_kernel"; d = 2 } /^------------ / && !d { d = 1 } { print }' \
					"$tmp/$shape-$n.hooks" > "$tmp/$shape-$n.boot"
				  set -- "$B/kd" --boot "$tmp/$shape-$n.boot" ;;
			boot-html) set -- "$B/kd" --boot --html "$tmp/$shape-$n.boot" ;;
			esac
			t+=("$(cpu "$@")")
		done
		linear "${t[0]}" "${t[1]}"
		ok $? "$shape, hook cost and Calls and Logged: $mode: ${t[0]} s for $N lines, ${t[1]} s for 4x as many"
	done
done
# A stack N calls deep, each call from a function the log has but not open
# (x or y, alternately): kd looks for the caller down the stack a bounded
# way, not the whole stack each time (which took 6 s for 100,000 calls,
# and 16 times that for 4x as many).
deepsite() {	# deepsite CALLS
	awk -v n="$1" 'BEGIN {
		print "------------ ------------ ------ -------- -------- ----"
		print "0 1 1 x start 0"
		print "1 1 1 y start 0"
		for (i = 1; i <= n; i++)
			printf "%d %d 1 f%d %s+0x10 0\n", 10 + i, 4 * n - 2 * i, i % 7, i % 2 ? "x" : "y"
	}'
}
for n in "$N" $((4 * N)); do
	deepsite "$n" > "$tmp/deepsite-$n.log"
done
for mode in summary tree tree-i folded; do
	t=()
	for n in "$N" $((4 * N)); do
		case $mode in
		summary) set -- "$B/kd" "$tmp/deepsite-$n.log" ;;
		tree)    set -- "$B/kd" -c "$tmp/deepsite-$n.log" ;;
		tree-i)  set -- "$B/kd" -c -i "$tmp/deepsite-$n.log" ;;
		folded)  set -- "$B/kd" --folded "$tmp/deepsite-$n.log" ;;
		esac
		t+=("$(cpu "$@")")
	done
	linear "${t[0]}" "${t[1]}"
	ok $? "calls from callers not open, $N deep: $mode: ${t[0]} s for $N lines, ${t[1]} s for 4x as many"
done
# A boot of N/10 initcalls, each a distinct function with ten calls inside
# and one inside the next (nested initcalls, as module loading makes):
# --boot and --boot --diff.
bootlog() {	# bootlog INITCALLS
	awk -v n="$1" 'BEGIN {
		print "------------ ------------ ------ -------- -------- ----"
		print 10, -1, 0, "start_kernel", "clear_bss", 0
		print 20, -1, 1, "kernel_init", "ret_from_fork+0x35", 0
		print 30, 100 * n + 100, 1, "do_initcall_level", "do_initcalls+0x67", 0
		t = 40; d = 100 * n
		for (i = 0; i < n; i++) {
			printf "%d %d 1 do_one_initcall do_initcall_level+0x91 0\n", t, d
			printf "%d %d 1 init_%d do_one_initcall+0x84 0\n", t + 1, d - 2, i
			for (j = 0; j < 10; j++)
				printf "%d 5 1 %s init_%d+0x%x 0\n", t + 2 + 6 * j, j % 2 ? "schedule" : "probe_" j, i, j
			t += 64; d -= 64
		}
		print t + 100, -1, 1, "to_userspace", "kernel_init+0x90", 0
	}'
}
for n in $((N / 10)) $((4 * N / 10)); do
	bootlog "$n" > "$tmp/boot-$n.log"
	"$B/kd" --boot --json "$tmp/boot-$n.log" > "$tmp/boot-$n.json"
done
for mode in boot boot-diff boot-json boot-html boot-initcall-debug boot-data boot-check boot-check-json; do
	t=()
	for n in $((N / 10)) $((4 * N / 10)); do
		case $mode in
		boot)      set -- "$B/kd" --boot "$tmp/boot-$n.log" ;;
		boot-diff) set -- "$B/kd" --boot --diff "$tmp/boot-$n.log" "$tmp/boot-$n.log" ;;
		boot-json) set -- "$B/kd" --boot --json "$tmp/boot-$n.log" ;;
		boot-html) set -- "$B/kd" --boot --html "$tmp/boot-$n.log" ;;
		boot-initcall-debug) set -- "$B/kd" --boot --initcall-debug "$tmp/boot-$n.log" ;;
		boot-data) set -- "$B/kd" --boot --boot-data "$tmp/boot-$n.log" ;;
		boot-check) set -- "$B/kd" --boot --check "$tmp/boot-$n.log" "$tmp/boot-$n.log" "$tmp/boot-$n.log" ;;
		boot-check-json) set -- "$B/kd" --boot --check "$tmp/boot-$n.json" "$tmp/boot-$n.log" ;;
		esac
		t+=("$(cpu "$@")")
	done
	linear "${t[0]}" "${t[1]}"
	ok $? "nested initcalls: $mode: ${t[0]} s for $((N / 10)) initcalls, ${t[1]} s for 4x as many"
done
tap_done
