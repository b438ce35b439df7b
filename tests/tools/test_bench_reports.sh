#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The benchmark reports' arithmetic, on raw data whose answers are known:
# bench/ab.awk (make bench-ab) turns boots of two kernels into ns per
# traced call, (traced - untraced, same boot) / calls per operation, and
# compares their medians; bench/configs.sh, fidelity.awk (make fidelity),
# idle_sites.awk and idle_profile.awk (make bench-idle), bench/realcpu/report.awk
# (make bench-realcpu).
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

# make bench-idle: idle_sites.awk finds the sites and the argument setup
# just before them, not a tail call, not what comes before other code;
# idle_profile.awk splits the KFT kernel's excess.
cat > "$tmp/dis.txt" <<'EOD'
ffffffff81000000 <f>:
ffffffff81000000:	push   %rbx
ffffffff81000001:	mov    0x8(%rsp),%rsi
ffffffff81000006:	mov    %rdi,%rbx
ffffffff81000009:	mov    $0xffffffff81000000,%rdi
ffffffff81000010:	call   ffffffff81100000 <__cyg_profile_func_enter>
ffffffff81000015:	mov    0x8(%rsp),%rsi
ffffffff8100001a:	mov    $0xffffffff81000000,%rdi
ffffffff81000021:	call   ffffffff81100100 <__cyg_profile_func_exit>
ffffffff81000026:	pop    %rbx
ffffffff81000027:	ret
ffffffff81000030 <g>:
ffffffff81000030:	mov    (%rsp),%rsi
ffffffff81000034:	mov    $0xffffffff81000030,%rdi
ffffffff8100003b:	jmp    ffffffff81100100 <__cyg_profile_func_exit>
EOD
awk -v arch=x86_64 -f bench/idle_sites.awk "$tmp/dis.txt" > "$tmp/sites.txt"
printf '%s\n' "ffffffff81000009 arg" "ffffffff81000010 enter" "ffffffff81000015 arg" \
	"ffffffff8100001a arg" "ffffffff81000021 exit" | sort > "$tmp/sites.want"
sort "$tmp/sites.txt" | cmp -s - "$tmp/sites.want"
ok $? "idle_sites.awk: sites and the argument setup just before them; not a tail call, nor past other code"
# Vanilla runs f (5 instructions) 100 times and h 10; the KFT kernel f's
# 10 (with 1 site and 1 argument each way) 100 times, a function of its
# own (k, 3 instructions, entered 20 times) and its exit hook 4 times.
printf '%s\n' "ffffffff81000000 f" "ffffffff81000100 h" > "$tmp/v.map"
printf '%s\n' "ffffffff81000000 500" "ffffffff81000100 10" > "$tmp/v.prof"
printf '%s\n' "ffffffff81000000 f" "ffffffff81000040 k" "ffffffff81000100 h" \
	"ffffffff81100100 __cyg_profile_func_exit" > "$tmp/k.map"
printf '%s\n' "ffffffff81000000 600" "ffffffff81000009 100" "ffffffff81000010 100" \
	"ffffffff81000015 100" "ffffffff81000021 100" "ffffffff81000040 20" "ffffffff81000041 40" \
	"ffffffff81000100 10" "ffffffff81100100 4" "ffffffff81100101 4" > "$tmp/k.prof"
printf '%s\n' "ffffffff81000009 arg" "ffffffff81000010 enter" "ffffffff81000015 arg" \
	"ffffffff81000021 exit" > "$tmp/k.sites"
awk -v title=t -v top=3 -f bench/idle_profile.awk "$tmp/k.sites" "$tmp/v.map" "$tmp/v.prof" \
	"$tmp/k.map" "$tmp/k.prof" > "$tmp/idle.txt"
rc=$?
sed 's/^/# /' "$tmp/idle.txt"
# Excess 1078 - 510 = 568: sites 200, arguments 200, the hook 8, the rest
# 160 (f's 100 more, k's 60); 100 calls.
[ $rc = 0 ] &&
	grep -qE '^  KFT, no run \(idle\) +0\.00 M +2\.114x vanilla$' "$tmp/idle.txt" &&
	grep -qE '^  KFT.s excess +0\.00 M +100\.0% +5\.68 a call$' "$tmp/idle.txt" &&
	grep -qE '^    hook call sites, NOPs \(entry and exit\) +0\.00 M +35\.2% +2\.00 a call$' "$tmp/idle.txt" &&
	grep -qE '^    their arguments, set up just before them +0\.00 M +35\.2% +2\.00 a call$' "$tmp/idle.txt" &&
	grep -qE '^    KFT.s own functions +0\.00 M +1\.4% +0\.08 a call$' "$tmp/idle.txt" &&
	grep -qE '^      \(the hooks called 4 times' "$tmp/idle.txt" &&
	grep -qE '^    the rest: the code around the calls +0\.00 M +28\.2% +1\.60 a call$' "$tmp/idle.txt" &&
	grep -qE 'called 20 times' "$tmp/idle.txt" &&
	grep -qE '^    f +100 +vanilla +500 +KFT +600$' "$tmp/idle.txt" &&
	grep -qE '^    k +20 +vanilla +0 +KFT +60$' "$tmp/idle.txt"
ok $? "idle_profile.awk: the excess split into sites, arguments, KFT's functions and the rest"
# bench/realcpu/report.awk (make bench-realcpu): three rounds of one
# phase.  (a) 1.0, 1.1, 1.3 ms: median 1.1, spread 0.3 / 1.1; (b) 2.0, 2.0,
# 2.2.  Every call logged: compensated 1.9, 2.1, 1.8 (0.95x of (b), passes),
# raw 12 ms over 500000 calls, all logged at 30 ns: in place (12 - 2) ms /
# 500000 = 20 ns a call, calibrated 30.  mintime: 1.0 ms (0.50x, fails),
# 100 of the calls logged: calibrated (499900 * 20 + 100 * 30) / 500000.
# Best rounds: 1.8 / 2.0 and 1.0 / 2.0.
{
	for r in 1 2 3; do
		case $r in 1) a=1000000 b=2000000 c=1900000 ;; 2) a=1100000 b=2000000 c=2100000 ;;
		3) a=1300000 b=2200000 c=1800000 ;; esac
		echo "lua/gcc $r a phase_x $a 5"
		echo "lua/gcc $r b phase_x $b $((r == 3 ? 0 : 5))"
		echo "lua/gcc $r every phase_x $c 500000 500000 20 30 10 12000000 5"
		echo "lua/gcc $r mintime phase_x 1000000 500000 100 20 30 10 11000000 5"
	done
} > "$tmp/realcpu.txt"
awk -v limit=0.10 -v reps=5 -f bench/realcpu/report.awk "$tmp/realcpu.txt" > "$tmp/realcpu.md"
rc=$?
sed 's/^/# /' "$tmp/realcpu.md"
[ $rc -eq 0 ] &&
	grep -qxF '| lua/gcc | every | phase_x | 1.100 (27.3%) | 2.000 (10.0%) | 12.000 (0.0%) | 1.900 (15.8%) | 0.95x | 1.73x | 0.90x | 500000 | 20.0 | 30.0 | PASS |' "$tmp/realcpu.md" &&
	grep -qxF '| lua/gcc | mintime | phase_x | 1.100 (27.3%) | 2.000 (10.0%) | 11.000 (0.0%) | 1.000 (0.0%) | 0.50x | 0.91x | 0.50x | 500000 | 18.0 | 20.0 | FAIL |' "$tmp/realcpu.md"
ok $? "realcpu report.awk: medians, spreads, ratios, in-place and calibrated cost per call, PASS/FAIL"
grep -qxF 'verdict: FAIL (1 of 2 phases within 10% of the empty-hooks build)' "$tmp/realcpu.md" &&
	grep -qxF 'repeats without a context switch: 55 of 60 (1 times a run had none of a phase: its best of all)' "$tmp/realcpu.md"
ok $? "realcpu report.awk: the verdict, and the repeats without a context switch"
awk -v limit=0.10 -v reps=5 -f bench/realcpu/report.awk /dev/null > /dev/null 2>&1
[ $? -ne 0 ]
ok $? "realcpu report.awk: no phase measured is an error"
tap_done
