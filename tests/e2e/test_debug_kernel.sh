#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The engine in a debugging kernel (GCC, 2 CPUs): CONFIG_PROVE_LOCKING and
# CONFIG_DEBUG_ATOMIC_SLEEP check every lock and sleep, and the KUnit suite
# (kernel/kft_test.c) runs at boot; its KTAP results come back through the
# kernel log, one TAP line per case here.  Then the stress step replaces,
# primes, stops and reads runs for 60 s while every CPU is busy; the
# kernel log must hold no oops, warning, lockdep or might_sleep report.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
BUILD=${BUILD:-build}
out=$BUILD/e2e/debug-kernel
secs=${KFT_DEBUG_STRESS_SECONDS:-60}

kdir=$(tests/lib/kbuild.sh kft+debug gcc | tail -n 1)
ok $? "debug kernel (PROVE_LOCKING, DEBUG_ATOMIC_SLEEP, KUnit) builds" || { tap_done; exit; }

tests/lib/qemu-run.sh -s 2 -t $((secs + 300)) -a "kftstress=$secs" "$kdir" "$out" stress
ok $? "boots, stress step passes, kernel log clean (no oops, warning, lockdep report)"

# KTAP from the kernel log: the suite's cases and its verdict.
sed 's/^\[[ 0-9.]*\] //' "$out/dmesg.out" > "$out/ktap.txt"
n=0
while read -r verdict num name; do
	n=$((n + 1))
	[ "$verdict" = ok ]
	ok $? "KUnit kft: $name"
done < <(sed -n '/# Subtest: kft$/,/^ok [0-9]* kft$\|^not ok [0-9]* kft$/p' "$out/ktap.txt" |
	 sed -n 's/^ *\(ok\|not ok\) \([0-9]*\) \(kft_test_[a-z_]*\).*/\1 \2 \3/p' | sed 's/^not ok/not_ok/')
[ "$n" -ge 10 ]
ok $? "KUnit kft: $n cases reported in KTAP"
grep -q '^# kft: pass:[0-9]* fail:0 skip:0' "$out/ktap.txt" && grep -q '^ok [0-9]* kft$' "$out/ktap.txt"
ok $? "KUnit kft: suite passed ($(grep -m1 '^# kft: pass' "$out/ktap.txt"))"

grep -q '^stress done' "$out/stress.out" 2>/dev/null
ok $? "$(grep '^stress loops' "$out/stress.out" 2>/dev/null): ${secs} s of runs replaced and read under load on a lockdep kernel"
! grep -qE 'BUG: sleeping function|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU' "$out/dmesg.out"
ok $? "no might_sleep, lockdep or RCU report in the kernel log"
tap_done
