#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kd on logs whose answers were worked out by hand (fixtures/kd/nested.log:
# nesting, an interrupt inside a task, a context switch inside schedule(),
# a second CPU, a call without exit, a stack-watch marker; callsite.log and
# original-softirq.log: who called whom by the call site, with interrupts,
# softirqs and a preemption among a task's calls) and on the original
# KFT's sample boot log.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
KD=${BUILD:-build}/asan/kd
fx=tests/tools/fixtures/kd
tap_tmpdir

golden() {	# golden NAME ARGS...: kd ARGS matches fixtures/kd/NAME.expected
	local name=$1
	shift
	"$KD" "$@" > "$tmp/$name.out" 2> "$tmp/$name.err"
	diff -u "$fx/$name.expected" "$tmp/$name.out"
	ok $? "kd $*"
}
golden summary $fx/nested.log
golden tree -c $fx/nested.log
golden tree-interlaced -c -i $fx/nested.log
golden long -l $fx/nested.log

# The original's do_fork sample (../shared/seeds/001_*.txt, kd -c -l -i on a
# 2.6 PPC440 log), copied verbatim: timer_interrupt carries the task's pid,
# its callees -1.  kd must print the sample as shown: depths, Local times,
# the interlaced block.  The seed is a wiki page, with its blanks changed (eaten, or non-breaking):
# compared with blanks squeezed, line for line, the sample's length.
"$KD" -c -l -i $fx/original-irq.log > "$tmp/irq.out" 2> "$tmp/irq.err"
rc=$?
n=$(wc -l < $fx/original-irq.expected)
diff -u <(sed 's/\xc2\xa0/ /g' $fx/original-irq.expected | awk '{$1=$1; print}') \
	<(head -n "$n" "$tmp/irq.out" | awk '{$1=$1; print}') && [ $rc -eq 0 ] && [ ! -s "$tmp/irq.err" ]
ok $? "the original's timer_interrupt sample: its tree exactly as the seed shows it"
grep -q '^       330         19         19      -1 !  do_timer$' "$tmp/irq.out" &&
	grep -q '^       450          8          8      33 |  |  |  cache_alloc_refill$' "$tmp/irq.out"
ok $? "the original's sample: the interrupt's calls past the cut stay in its block, the task resumes after"
# The same interrupt in this KFT's format (pid -1 from the first call, a CPU
# column) nests the same way, and its time is not the interrupted call's.
awk '/^--------/ {d=1; print; next} d && NF {pid=$3; if ($4=="timer_interrupt") pid=-1; printf "%s.000 %s.000 %s %s %s 0\n", $1, $2, pid, $4, $5; next} {print}' \
	$fx/original-irq.log > "$tmp/modern-irq.log"
"$KD" -c -i "$tmp/modern-irq.log" > "$tmp/modern-irq.out"
grep -q '^       253        151         63      -1 timer_interrupt$' "$tmp/modern-irq.out" &&
	grep -q '^       256          8          6      -1 !  profile_tick$' "$tmp/modern-irq.out" &&
	grep -q '^       249        199         48      33 |  |  |  __might_sleep$' "$tmp/modern-irq.out"
ok $? "the same trace in this KFT's format: the same block; the interrupt's time is not __might_sleep's"

# The call site says who called whom (fixtures/kd/original-softirq.log in
# the original's format, callsite.log in this KFT's; both worked out by
# hand).  Softirqs an interrupt runs on its way out, logged with the
# task's pid, are the interrupt's; a preemption from the entry code and a
# call from a function the log has but not open are trees of their own;
# a call from its caller's caller closes the calls above it whose exit
# was not seen; calls from inlined code, from notrace or assembly code
# (__schedule, __switch_to_asm) and from addresses no symbol holds stay
# where their time puts them.
golden original-softirq -c -l -i $fx/original-softirq.log
golden callsite -c -l -i $fx/callsite.log
golden callsite-folded --folded $fx/callsite.log
grep -q '^        86        130          5      33 !  !  do_softirq$' "$tmp/original-softirq.out" &&
	grep -q '^       240        100         10      33 preempt_schedule_irq$' "$tmp/original-softirq.out" &&
	grep -q '^       400          5          5      33 |  |  sched_fork$' "$tmp/original-softirq.out" &&
	grep -q '^       445         20         15      33 |  |  |  enqueue_task$' "$tmp/original-softirq.out"
ok $? "the original's format: softirqs in the interrupt's block, the preemption a block of its own, sched_fork copy_process's, enqueue_task its inlined caller's"
# The same trace in this KFT's format: the same trees; the interrupt and
# the preemption are not __might_sleep's time (320 - 200 - 100).
awk '/^--------/ {d=1; print; next} d && NF {pid=$3; if ($4=="timer_interrupt") pid=-1; printf "%s.000 %s %s %s %s 0\n", $1, ($2 == -1 ? $2 : $2 ".000"), pid, $4, $5; next} {print}' \
	$fx/original-softirq.log > "$tmp/modern-softirq.log"
"$KD" -c -l -i "$tmp/modern-softirq.log" > "$tmp/modern-softirq.out" &&
	diff -u <(cut -c45- $fx/original-softirq.expected) <(cut -c45- "$tmp/modern-softirq.out") &&
	grep -q '^        22        320         20      33 |  |  |  __might_sleep$' "$tmp/modern-softirq.out"
ok $? "the same trace in this KFT's format: the same trees; the interrupt and the preemption are not __might_sleep's time"
# (-r prints the log's decimals: a time that needs them makes -i print them too.)
sed 's/  500.000 /  500.500 /' $fx/callsite.log > "$tmp/callsite.log"
for f in $fx/original-softirq.log "$tmp/callsite.log"; do
	"$KD" -c -i "$f" > "$tmp/i.out" && "$KD" -c -i -r "$f" > "$tmp/ir.out" &&
		cmp "$tmp/i.out" "$tmp/ir.out" &&
		"$KD" -c "$f" | sort > "$tmp/c.out" && "$KD" -c -r "$f" | sort | cmp -s - "$tmp/c.out"
	ok $? "$(basename "$f"): kd -c -i -r lists what kd -c -i does, kd -c -r what kd -c does"
done
# A raw log read with a map: the call site's address names the caller.
printf -- '------------ ----\n 0.000 100.000 5 0xffffffff81001000 0xffffffff81000040 0\n 1.000 50.000 5 0xffffffff81001200 0xffffffff81001010 0\n 2.000 10.000 5 0xffffffff81001400 0xffffffff81001210 0\n 20.000 5.000 5 0xffffffff81002000 0xffffffff81001420 0\n 30.000 5.000 5 0xffffffff81001800 0xffffffff90000000 0\n' > "$tmp/raw-site.log"
"$KD" -m tests/tools/fixtures/System.map -c "$tmp/raw-site.log" > "$tmp/raw-site.out"
grep -q '       5 |  |  do_fork$' "$tmp/raw-site.out" && grep -q '       5 __x64_sys_openat$' "$tmp/raw-site.out" &&
	grep -q '       5 |  |  helper$' "$tmp/raw-site.out"
ok $? "raw log with -m: a call from do_fork, not open, is a tree of its own; one from an address outside the map stays in rest_init"

golden columns -f Fctarswlmnu -s l $fx/nested.log
golden top $fx/nested.log -n 3 -t 10
golden original-summary -n 10 $fx/original.log
golden original-tree -c -l $fx/original.log

# -r prints trees while reading: each as it completes (the interrupt's when
# schedule() starts after it, C's when E does, the rest at the end), with
# the log's decimals; -i -r lists exactly what -i does.
golden tree-stream -c -r $fx/nested.log
sed 's/  100.000 /  100.500 /' $fx/nested.log > "$tmp/frac.log"
"$KD" -c -i "$tmp/frac.log" > "$tmp/i.out" && "$KD" -c -i -r "$tmp/frac.log" > "$tmp/ir.out" &&
	cmp "$tmp/i.out" "$tmp/ir.out"
ok $? "kd -c -i -r lists what kd -c -i does"
"$KD" -c -l -i $fx/original.log > "$tmp/i.out" && "$KD" -c -l -i -r $fx/original.log > "$tmp/ir.out" &&
	cmp "$tmp/i.out" "$tmp/ir.out"
ok $? "kd -c -l -i -r on the original's boot log: the same listing"
"$KD" -c -l $fx/original.log | sort > "$tmp/c.out" &&
	"$KD" -c -l -r $fx/original.log | sort | cmp -s - "$tmp/c.out"
ok $? "kd -c -r on the original's boot log: the same lines as -c"

# The same on a generated log (bench/genlog.c: 8 tasks, interrupts, deep
# trees), where nodes are reused while earlier trees still wait, and with
# filters that hide the roots of the trees they show.
${BUILD:-build}/genlog 300000 "$tmp/gen.map" "$tmp/gen.raw" > /dev/null
addr=$(awk 'NR > 20 { print $4 }' "$tmp/gen.raw" | sort | uniq -c | sort -rn | awk 'NR == 40 { print $2 }')
fn=$(awk -v a="${addr#0x}" '$1 == a { print $3 }' "$tmp/gen.map")
for filter in "" "--subtree $fn" "--pid -1" "--pid 103"; do
	# shellcheck disable=SC2086
	"$KD" -m "$tmp/gen.map" -c -i $filter "$tmp/gen.raw" > "$tmp/i.out" &&
		"$KD" -m "$tmp/gen.map" -c -i -r $filter "$tmp/gen.raw" > "$tmp/ir.out" &&
		cmp "$tmp/i.out" "$tmp/ir.out" && [ "$(wc -l < "$tmp/i.out")" -gt 2 ]
	ok $? "kd -c -i -r ${filter:-(no filter)} on a generated log: what -c -i lists"
done

# ... and a tree is out before the log ends: feed the log through a FIFO
# and hold back everything after schedule()'s line.
mkfifo "$tmp/fifo"
"$KD" -c -r < "$tmp/fifo" > "$tmp/stream.out" 2>&1 &
kd_pid=$!
exec 3> "$tmp/fifo"
sed -n '1,/ schedule /p' $fx/nested.log >&3
for i in $(seq 300); do
	grep -q irq_sub "$tmp/stream.out" && break
	sleep 0.1
done
grep -q irq_sub "$tmp/stream.out"
ok $? "kd -c -r: a complete tree is printed while the log is still open"
sed -n '/ schedule /,$p' $fx/nested.log | tail -n +2 >&3
exec 3>&-
wait $kd_pid && diff -u $fx/tree-stream.expected "$tmp/stream.out"
ok $? "kd -c -r from a FIFO: the whole listing once the log ends"

# Memory follows the calls still open, not the log: 300,000 small trees.
awk 'BEGIN { print "--------"
	for (i = 0; i < 300000; i++)
		printf "%d.000 5.000 1 A x 0\n%d.500 2.000 1 B A+0x1 0\n%d.000 1.000 1 C B+0x1 0\n",
			10 * i, 10 * i + 1, 10 * i + 2 }' > "$tmp/many.log"
/usr/bin/time -f %M -o "$tmp/full.kb" ${BUILD:-build}/kd -c "$tmp/many.log" > "$tmp/full.out"
/usr/bin/time -f %M -o "$tmp/stream.kb" ${BUILD:-build}/kd -c -r "$tmp/many.log" > "$tmp/stream.out"
echo "# peak RSS: kd -c $(cat "$tmp/full.kb") KB, kd -c -r $(cat "$tmp/stream.kb") KB"
cmp "$tmp/full.out" "$tmp/stream.out" &&
	[ $(($(cat "$tmp/stream.kb") * 4)) -lt "$(cat "$tmp/full.kb")" ]
ok $? "kd -c -r: same listing of 900,000 calls in under a quarter of the memory"

# __switch_to's own time is the task being switched out: off the CPU even
# when the log holds nothing of the tasks that ran meanwhile.
"$KD" -f Fctlw $fx/switch.log > "$tmp/switch.out" 2>&1
[ "$(awk '$1 == "__switch_to" { print $4, $5 }' "$tmp/switch.out")" = "0 910" ] &&
[ "$(awk '$1 == "fpu_restore" { print $4 }' "$tmp/switch.out")" = "50" ] &&
[ "$(awk '$1 == "schedule" { print $4 }' "$tmp/switch.out")" = "20" ]
ok $? "__switch_to: its own time is off-CPU (local 0, wall 910); callees and callers keep theirs"

golden folded --folded $fx/nested.log
golden diff --diff $fx/nested.log $fx/nested-new.log
[ "$(awk '$1 == "schedule" { print $4, $5 }' "$tmp/diff.out")" = "40 +20" ] &&
[ "$(awk '$1 == "newfn" { print $2, $3 }' "$tmp/diff.out")" = "0 1" ] &&
[ "$(awk 'NR == 4 { print $1 }' "$tmp/diff.out")" = A ]
ok $? "--diff: changes per function, new functions, largest change first"

# Chrome JSON: valid, one complete event per timed call, nested per track.
"$KD" --chrome $fx/nested.log > "$tmp/trace.json"
python3 - "$tmp/trace.json" <<'PY'
import json, sys
all_ev = json.load(open(sys.argv[1]))["traceEvents"]
ev = [e for e in all_ev if e["ph"] != "M"]
tname = {e["tid"]: e["args"]["name"] for e in all_ev if e["ph"] == "M" and e["name"] == "thread_name"}
x = [e for e in ev if e["ph"] == "X"]
assert len(ev) == 11 and len(x) == 10, (len(ev), len(x))
a = next(e for e in x if e["name"] == "A")
assert a["ts"] == 0 and a["dur"] == 100 and a["tid"] == 10
irq = next(e for e in x if e["name"] == "irq_handler")
assert tname.get(irq["tid"]) == "interrupts, CPU 0", (irq, tname)
# complete events on one track nest or are disjoint
for t in set(e["tid"] for e in x):
    s = sorted((e["ts"], -e["dur"], e["ts"] + e["dur"]) for e in x if e["tid"] == t)
    stack = []
    for ts, _, end in s:
        while stack and stack[-1] <= ts: stack.pop()
        assert not stack or end <= stack[-1], (t, ts, end, stack)
        stack.append(end)
PY
ok $? "--chrome: valid JSON, events nest on each track, interrupts on their own track"

# Pictures: well-formed SVG with the calls in them.
"$KD" --svg $fx/nested.log > "$tmp/flame.svg" && "$KD" --timeline $fx/nested.log > "$tmp/timeline.svg"
python3 - "$tmp/flame.svg" "$tmp/timeline.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
flame = ET.parse(sys.argv[1]).getroot()
titles = [t.text for t in flame.iter(ns + "title")]
# On-CPU widths: A = its own 30 + B's 25 (the interrupt is apart) +
# schedule's 20 (task 20 had the CPU for the other 20).
assert any(t.startswith("A (75.000 us)") for t in titles), titles
assert any(t.startswith("schedule (20.000 us)") for t in titles), titles
assert any(t.startswith("[interrupts]") for t in titles), titles
widths = {t.text.split()[0]: float(g.find(ns + "rect").get("width"))
          for g in flame.iter(ns + "g") for t in g.findall(ns + "title")}
assert abs(widths["schedule"] / widths["A"] - 20 / 75) < 0.01, widths
tl = ET.parse(sys.argv[2]).getroot()
lanes = [t.text for t in tl.iter(ns + "text") if t.text and (t.text.startswith("pid ") or t.text.startswith("irq CPU"))]
assert lanes == ["pid 10", "pid 30", "irq CPU 0", "pid 20"], lanes
PY
ok $? "--svg and --timeline: valid SVG, widths by time on the CPU, a lane per task and interrupts"

# Boot report: a boot worked out by hand (fixtures/kd/boot.log: start_kernel
# and kernel_init's calls, eight initcall levels, an early initcall, one
# with a sleep, a udelay and an initcall_debug printk inside, one shorter
# than the log keeps, an interrupt in setup_arch; boot-new.log: mm_core_init
# 100 us faster, dev_init 140 us slower, user space 500 us later).
golden boot --boot $fx/boot.log
awk '/^Phases/ { p = 1; next } /^Initcalls/ { p = 0 }
	p && $NF == "total" { total = $1 }
	p && $1 ~ /^[0-9]+$/ && $NF != "total" && NF >= 4 { sum += $2 }
	END { exit !(total == 7390 && sum == total) }' "$tmp/boot.out"
ok $? "--boot: the phases add up to the boot time, start_kernel to to_userspace"
golden boot-diff --boot --diff $fx/boot.log $fx/boot-new.log
"$KD" --boot -n 2 $fx/boot.log | awk '/^Initcalls/ { i = 1; next } i && /^ +[0-9]/ { n++ } END { exit n != 2 }'
ok $? "--boot -n 2: the two longest initcalls"
"$KD" --boot -t 300 $fx/boot.log > "$tmp/boot-t.out"
grep -q '^ *690 *9.3  (4 phases of less than 300 us each)$' "$tmp/boot-t.out" &&
	! grep -q 'start_kernel, other\|rest_init' "$tmp/boot-t.out" && grep -q ' setup_arch$' "$tmp/boot-t.out"
ok $? "--boot -t 300: shorter phases folded into one line, which keeps the sum"
"$KD" --boot --svg $fx/boot.log > "$tmp/boot.svg"
python3 - "$tmp/boot.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
bars = {r.find(ns + "title").text.split(":")[0]: float(r.get("width"))
        for r in svg.iter(ns + "rect") if r.find(ns + "title") is not None}
assert "setup_arch" in bars and "slow_init" in bars, bars
assert abs(bars["setup_arch"] / bars["mm_core_init"] - 1000 / 400) < 0.01, bars
assert abs(bars["slow_init"] / bars["dev_init"] - 270 / 190) < 0.01, bars
PY
ok $? "--boot --svg: valid SVG, phases and initcalls as bars by time"
grep -v to_userspace $fx/boot.log | "$KD" --boot > "$tmp/boot-hung.out"
[ $? -eq 0 ] && grep -q '^Boot: start_kernel at 10 us, no first user program in the log (to_userspace): to its last call at 7300 us, 7290 us$' "$tmp/boot-hung.out"
ok $? "--boot on a boot that never reached user space: up to its last call"
grep -v start_kernel $fx/boot.log | "$KD" --boot > "$tmp/boot-late.out"
[ $? -eq 0 ] && grep -q "^Boot: the log's first call (no start_kernel) at 500 us, first user program at 7400 us: 6900 us$" "$tmp/boot-late.out"
ok $? "--boot on a run that started after start_kernel: says so"
"$KD" --boot -c $fx/boot.log 2> "$tmp/boot-c.err"
[ $? -eq 2 ] && grep -q 'not with -c' "$tmp/boot-c.err"
ok $? "--boot with -c: usage error, saying why"

# The hand-worked numbers, spelled out.
row() { awk -v f="$1" '$1 == f' "$tmp/summary.out"; }
[ "$(row A)" = "$(printf '%-25s %5s %8s %8s %8s' A 1 100 100 30)" ]
ok $? "A: local 30 = 100 - B 30 - schedule 40"
[ "$(row B | awk '{ print $5 }')" = 25 ]
ok $? "B: the interrupt inside it (5) is not its local time"
[ "$(row schedule | awk '{ print $5 }')" = 20 ]
ok $? "schedule: 20 of its 40 were task 20 on the CPU: not local"
[ "$(row E | awk '{ print $2, $3 }')" = "1 0" ] && [ "$(row F | awk '{ print $2, $3 }')" = "1 0" ]
ok $? "-1 and -2 calls are counted, never timed"
grep -q '^        15          5          3      -1 irq_handler$' "$tmp/tree.out"
ok $? "an interrupt's own tree, pid -1"

# Filters.
names() { "$KD" "$@" $fx/nested.log | awk 'NR > 2 { print $1 }' | sort | tr '\n' ' '; }
[ "$(names --subtree A)" = "A B E F irq_handler irq_sub schedule " ]
ok $? "--subtree: a function and all it called, interrupts inside included"
[ "$(names --pid 20)" = "C D " ]
ok $? "--pid"
[ "$(names --cpu 1)" = "G H " ]
ok $? "--cpu"
[ "$(names --from 50 --to 60)" = "C D schedule " ]
ok $? "--from/--to"
"$KD" --pid x $fx/nested.log 2>/dev/null
[ $? -eq 2 ]
ok $? "--pid with a non-number: usage error"

# Options in any order, as the original could not.
"$KD" $fx/nested.log -n 2 | cmp -s - <("$KD" -n 2 $fx/nested.log)
ok $? "options after the file name"
"$KD" < $fx/nested.log | cmp -s - $fx/summary.expected
ok $? "reads standard input"

# Raw /proc/kft_data with a map is the same as addr2sym output.
printf -- '------------ ----\n 0.000 10.000 5 0xffffffff81001000 0xffffffff81000040 0\n 1.000 2.500 5 0xffffffff81001200 0xffffffff81001010 0\n' > "$tmp/raw.log"
"$KD" -m tests/tools/fixtures/System.map -c "$tmp/raw.log" > "$tmp/raw.out"
grep -q '|  rest_init$' "$tmp/raw.out" && grep -q ' start_kernel$' "$tmp/raw.out"
ok $? "raw log resolved with -m"
grep -q '     10.000      7.500       5 start_kernel' "$tmp/raw.out"
ok $? "sub-microsecond times keep their fraction"
# Logs put end to end, the second from a KASLR boot: each is read with its
# own header and text base, and is a run of its own (its header lines were
# bad data lines, its addresses read with the first log's base).
sed -e 's/0xffffffff81/0xffffffff9a/g' tests/tools/fixtures/raw.log > "$tmp/kaslr.log"
"$KD" -m tests/tools/fixtures/System.map -c tests/tools/fixtures/raw.log > "$tmp/one.out" 2> /dev/null
cat tests/tools/fixtures/raw.log "$tmp/kaslr.log" | "$KD" -m tests/tools/fixtures/System.map -c > "$tmp/two.out" 2> "$tmp/two.err"
[ $? -eq 1 ] && diff -u <(cat "$tmp/one.out"; tail -n +3 "$tmp/one.out") "$tmp/two.out" &&
	[ "$(grep -c 'fewer than 5 columns' "$tmp/two.err")" = 2 ] && grep -q '<stdin>:44: ' "$tmp/two.err" &&
	! grep -q 'not in entry order\|bad entry time' "$tmp/two.err"
ok $? "two logs end to end: each with its own header and text base, a run each, line numbers running on"

# A console capture (kft_dump=): the log behind printk's prefix, CRLF line
# ends, the kernel's own lines around and inside it.
awk 'BEGIN { printf "[    0.000000] Linux version 6.12\r\n" }
	{ n++ } n == 1 { printf "[    2.0] kft_dump begin: run 0, 9 calls, at panic\r\n" }
	n == 30 { printf "[    2.1] random: crng init done\r\n" }
	{ printf "[    2.%06d] kft_dump: %s\r\n", n, $0 }
	END { printf "[    3.0] kft_dump end: run 0, %d lines\r\n[    3.1] ---[ end Kernel panic ]---\r\n", n }' \
	$fx/nested.log > "$tmp/capture.log"
"$KD" "$tmp/capture.log" > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/out" $fx/summary.expected
ok $? "a console capture: the log in it, as if read from /proc/kft_data"
"$KD" -c "$tmp/capture.log" | cmp -s - <("$KD" -c $fx/nested.log)
ok $? "a console capture: the same call tree"
head -n 12 "$tmp/capture.log" > "$tmp/cut.log"
"$KD" "$tmp/cut.log" > /dev/null 2> "$tmp/err"
grep -q "cut.log:12: the capture ends inside run 0's dump, after 10 lines of it" "$tmp/err"
ok $? "a console capture cut short: said"

# Errors.
printf -- '--------\n 1 2 3\n garbage here x y z\n 5.0 1.0 7 f caller 0\n' > "$tmp/bad.log"
"$KD" "$tmp/bad.log" > "$tmp/out" 2> "$tmp/err"
[ $? -eq 1 ] && grep -q 'bad.log:2: fewer than 5 columns' "$tmp/err" &&
	grep -q 'bad.log:3: bad entry time' "$tmp/err" && grep -q '^f ' "$tmp/out"
ok $? "malformed lines: warnings with line numbers, the rest analysed, exit 1"
"$KD" /nonexistent 2> "$tmp/err"
[ $? -eq 1 ] && grep -q nonexistent "$tmp/err"
ok $? "missing file: error, exit 1"
: | "$KD" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q 'no KFT log data' "$tmp/err"
ok $? "empty input: error, exit 1"
"$KD" -s q $fx/nested.log 2>/dev/null
[ $? -eq 2 ]
ok $? "bad option value: usage error"
"$KD" -f Fx $fx/nested.log 2>/dev/null
[ $? -eq 2 ]
ok $? "unknown column: usage error"
"$KD" --help | grep -q '^usage: kd'
ok $? "--help"
"$KD" -V | grep -q 'kd (KFT)'
ok $? "-V"
tap_done
