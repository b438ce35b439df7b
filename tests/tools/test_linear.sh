#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every host tool mode stays linear in the log's length, on every shape of
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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu COMMAND...: the least user+system seconds of three runs.
cpu() {
	local best= t i
	for i in 1 2 3; do
		/usr/bin/time -f '%U %S' -o "$tmp/time" "$@" > /dev/null 2>&1
		t=$(awk '{ printf "%.3f", $1 + $2 }' "$tmp/time")
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
	for mode in addr2sym summary tree tree-r tree-i tree-ir folded chrome; do
		t=()
		for n in "$N" $((4 * N)); do
			case $mode in
			addr2sym) set -- "$B/addr2sym" -m "$tmp/map" "$tmp/$shape-$n.log" ;;
			summary)  set -- "$B/kd" "$tmp/$shape-$n.sym" ;;
			tree)     set -- "$B/kd" -c "$tmp/$shape-$n.sym" ;;
			tree-r)   set -- "$B/kd" -c -r "$tmp/$shape-$n.sym" ;;
			tree-i)   set -- "$B/kd" -c -i "$tmp/$shape-$n.sym" ;;
			tree-ir)  set -- "$B/kd" -c -i -r "$tmp/$shape-$n.sym" ;;
			folded)   set -- "$B/kd" --folded "$tmp/$shape-$n.sym" ;;
			chrome)   set -- "$B/kd" --chrome "$tmp/$shape-$n.sym" ;;
			esac
			t+=("$(cpu "$@")")
		done
		# Times are in 10 ms steps: below 0.1 s the base is noise.  A
		# quadratic mode still fails by far (0.35 s -> 16.5 s, 47x, was
		# kd -c's on repeated runs).
		awk -v a="${t[0]}" -v b="${t[1]}" 'BEGIN { exit !(b < 8 * (a > 0.1 ? a : 0.1)) }'
		ok $? "$shape: $mode: ${t[0]} s for $N lines, ${t[1]} s for 4x as many"
	done
done
tap_done
