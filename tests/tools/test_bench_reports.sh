#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The benchmark reports' arithmetic, on raw data whose answers are known:
# bench/ab.awk (make bench-ab) turns boots of two kernels into ns per
# traced call, (traced - untraced, same boot) / calls per operation, and
# compares their medians.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
tap_tmpdir

# Kernel a: 10 calls per getppid; boots cost 10, 12 and 20 ns per logged
# call (median 12) and 5 per dropped one.  Kernel b: 8, 9 and 30 (median
# 9).  A boot with no untraced line for a workload adds nothing.
{
	for r in 1 2 3; do
		case $r in 1) a=10 b=8 ;; 2) a=12 b=9 ;; 3) a=20 b=30 ;; esac
		echo "a $r boot 1.0"
		echo "a $r result idle getppid 300 60000 0 0 0"
		echo "a $r result kft-all getppid $((300 + 10 * a)) 60000 600000 0 24"
		echo "a $r result kft-min100 getppid 350 60000 3 0 24"
		echo "b $r result idle getppid 200 60000 0 0 0"
		echo "b $r result kft-all getppid $((200 + 10 * b)) 60000 600000 0 24"
		echo "b $r result kft-min100 getppid 250 60000 3 0 24"
	done
	echo "b 4 result kft-all getppid 9999 60000 600000 0 24"
} > "$tmp/raw.txt"
awk -v arch=x86_64 -v cc=gcc -v runs=3 -v a=abc1234 -v clock="instruction time" -f bench/stats.awk -f bench/ab.awk \
	"$tmp/raw.txt" > "$tmp/ab.md"
rc=$?
sed 's/^/# /' "$tmp/ab.md"
[ $rc -eq 0 ] && grep -qF 'KFT at abc1234 (A) against the working tree (B), x86_64, gcc, 3 boots each' "$tmp/ab.md" &&
	grep -qxF 'Clock: instruction time.' "$tmp/ab.md"
ok $? "ab.awk: the table names the revision, architecture, compiler, boots and clock"
grep -qxF '| every call logged | getppid | 12 [10-20] | 9 [8-30] | 0.750 |' "$tmp/ab.md"
ok $? "ab.awk: logged calls - medians, spreads and B/A from the boots"
grep -qxF '| filter mintime 100, (nearly) every call dropped | getppid | 5 [5-5] | 5 [5-5] | 1.000 |' "$tmp/ab.md"
ok $? "ab.awk: dropped calls, per call of the run that logs every call"
[ "$(grep -c '^| ' "$tmp/ab.md")" -eq 3 ] && ! ls "$repo"/0 2>/dev/null
ok $? "ab.awk: a header and no row for a workload without data; no stray output file"
# bench/configs.sh: the bench's kernels may differ only in the tracer.
mkdir -p "$tmp/vanilla" "$tmp/ftrace" "$tmp/debug"
printf 'CONFIG_SMP=y\nCONFIG_FTRACE=y\n' > "$tmp/vanilla/.config"
printf 'CONFIG_SMP=y\nCONFIG_FTRACE=y\nCONFIG_FUNCTION_TRACER=y\nCONFIG_TRACING=y\nCONFIG_RING_BUFFER=y\nCONFIG_DYNAMIC_FTRACE_WITH_ARGS=y\n' > "$tmp/ftrace/.config"
cp "$tmp/ftrace/.config" "$tmp/debug/.config"
printf 'CONFIG_DEBUG_FS=y\nCONFIG_SCHED_DEBUG=y\n' >> "$tmp/debug/.config"
bench/configs.sh "$tmp/vanilla" "$tmp/ftrace"
ok $? "configs.sh: the tracer and what it selects are the only differences: accepted"
bench/configs.sh "$tmp/vanilla" "$tmp/ftrace" "$tmp/debug" 2> "$tmp/configs.err"
[ $? -eq 1 ] && grep -q 'debug differs from vanilla in more than the tracer: CONFIG_DEBUG_FS CONFIG_SCHED_DEBUG$' "$tmp/configs.err"
ok $? "configs.sh: DEBUG_FS and the SCHED_DEBUG it pulls in are refused, named"
# fidelity.awk: boot and initcall times of three kernels and kd --boot's,
# compensated and raw.
f=$tmp/fid
mkdir -p "$f"
echo 400000 > "$f/vu"; echo 440000 > "$f/iu"; echo 800000 > "$f/ru"
printf 'early_a 9000 0\nslow_a 5000 1\nslow_b 1000 1\nslow_a 1000 1\n' > "$f/vi"
printf 'early_a 9000 0\nslow_a 6600 1\nslow_b 1100 1\n' > "$f/ii"
printf 'early_a 9000 0\nslow_a 12000 1\nslow_b 1500 1\n' > "$f/ri"
printf 'slow_a 6700\nslow_b 1000\nearly_a 8000\n' > "$f/kd"
printf 'slow_a 12000\nslow_b 1500\nearly_a 9000\n' > "$f/kdraw"
echo 2000000 > "$f/calls"
awk -v arch=x86_64 -v cc=gcc -v opt=O2 -v top=15 -v kver=6.12 -f bench/fidelity.awk \
	"$f/vu" "$f/vi" "$f/iu" "$f/ii" "$f/ru" "$f/ri" "$f/kd" "$f/kdraw" "$f/calls" > "$f/out.md"
sed 's/^/# /' "$f/out.md"
grep -qxF '| first user program, us | 400000 | 440000 | 1.10x | 800000 | 2.00x |' "$f/out.md" &&
	grep -qxF '| sum of initcalls (initcall_debug), us | 16000 | 16700 | 1.04x | 22500 | 1.41x |' "$f/out.md"
ok $? "fidelity.awk: the boot and the initcalls' sum of each kernel, ratios to vanilla"
grep -qxF '| slow_a | 6000 | 6600 | 12000 | 1.82x | 6700 | 1.02x |' "$f/out.md" &&
	[ "$(grep -c '^| slow_\|^| early_' "$f/out.md")" = 2 ] &&
	grep -q 'Longest five, KFT idle (initcall_debug, real clock): *slow_a, slow_b$' "$f/out.md" &&
	grep -q 'Longest five, kd --boot, compensated: *early_a, slow_a, slow_b$' "$f/out.md" &&
	grep -q 'Longest five, kd --boot --raw: *slow_a, early_a, slow_b$' "$f/out.md"
ok $? "fidelity.awk: only initcalls timed by a real clock, run twice added up, against idle; both rankings"
# 40 ms idle and 360 ms traced over 2,000,000 calls, one instruction a ns.
grep -qxF "Instructions per call of the boot (2000000 calls to the first user program, the boot run's count): idle 20.0, the boot run 180.0 more." "$f/out.md" &&
	grep -q '^## Fidelity: x86_64, GCC, -O2, Linux 6.12$' "$f/out.md"
ok $? "fidelity.awk: instructions per call of the boot, idle and traced; the optimisation level named"
tap_done
