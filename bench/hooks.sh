#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-hooks: instructions per call in the hooks, per path a call can
# take (bench/hooks.c), counted by callgrind: the same on any machine,
# loaded or not, so a change to the hot path shows in one number.  Built
# -O2 (a distribution's kernel) and -Os (the reference tinyconfig kernel).
# Under QEMU, time is not proportional to instructions (the clock read is
# a helper call, memory accesses cost more): make bench measures that.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
BUILD=${BUILD:-build}
CALLS=${CALLS:-30000}
command -v valgrind >/dev/null || { echo "bench-hooks: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
out=$BUILD/bench
mkdir -p "$out"
# O2-saveall: x86_64's CONFIG_KFT_AFTER_INLINING, whose entry hook saves
# every register it uses and whose exit hook is a thunk that saves the
# return value's (built on x86_64 hosts).
# O2-nopsites: as a kernel with CONFIG_KFT_NOP_SITES (the default) builds
# the hooks, called only from armed sites.
opts=(O2 Os O2-nopsites)
head='| path | -O2 instructions per call | -Os instructions per call | -O2, NOP sites (the default kernel) |'
if [ -x "$BUILD/hooks-O2-saveall" ]; then
	opts+=(O2-saveall)
	head+=' -O2, x86_64 after inlining (the hooks saving registers) |'
fi
printf '%s\n|%s\n' "$head" "$(printf -- '---|%.0s' $(seq 0 ${#opts[@]}))" > "$out/hooks.md"
for path in idle primed mintime early funclist every watch; do
	row="| $path"
	for opt in "${opts[@]}"; do
		cg=$out/callgrind-$path-$opt.out
		valgrind --tool=callgrind --toggle-collect=calls --callgrind-out-file="$cg" \
			"$BUILD/hooks-$opt" "$path" "$CALLS" > /dev/null 2>&1
		ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$cg")
		row+=" | $(awk -v ir="$ir" -v n="$CALLS" 'BEGIN { printf "%.1f", ir / n }')"
	done
	echo "$row |" >> "$out/hooks.md"
done
cat "$out/hooks.md"
