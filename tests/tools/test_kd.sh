#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kd on logs whose answers were worked out by hand (fixtures/kd/nested.log:
# nesting, an interrupt inside a task, a context switch inside schedule(),
# a second CPU, a call without exit, a stack-watch marker; callsite.log and
# original-softirq.log, original-bh.log: who called whom by the call site,
# with interrupts, softirqs, bottom-half sections and a preemption among a
# task's calls) and on the original
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
# Bottom halves, softirqs and a preemption among a task's calls in the
# original's format (fixtures/kd/original-bh.log, worked out by hand).  -1
# there is in_interrupt(), true with bottom halves disabled: a task's call
# whose callees log -1 (lock_sock, dev_queue_xmit, release_sock) is not an
# interrupt's head, since its call site is in the open caller; its -1
# callees are its children, and so are the softirqs local_bh_enable() runs.
# A call from a caller the log never shows (do_softirq from irq_exit, a
# page fault, a preemption from the entry code) is a block of its own, as
# the original kd showed it, its callees (__do_softirq) with it; a -1 call
# from the entry code inside a bottom-half section is the interrupt's.
golden original-bh -c -l -i $fx/original-bh.log
grep -q '^        30        400         30      33 |  |  |  lock_sock$' "$tmp/original-bh.out" &&
	grep -q '^       110        300         10      33 |  |  |  |  |  do_softirq$' "$tmp/original-bh.out" &&
	grep -q '^       520        600         70      33 |  |  |  |  |  dev_queue_xmit$' "$tmp/original-bh.out" &&
	grep -q '^      1500        380         10      33 do_softirq$' "$tmp/original-bh.out" &&
	grep -q '^      1505        370         70      33 @  __do_softirq$' "$tmp/original-bh.out" &&
	grep -q '^      2300        200        120      33 |  |  |  release_sock$' "$tmp/original-bh.out" &&
	grep -q '^      2650        100         50      33 do_page_fault$' "$tmp/original-bh.out"
ok $? "the original's format: bottom-half sections in the task's tree; softirqs from irq_exit and a page fault blocks of their own"
# Without -i: one tree for the task (its 22 calls), the interrupts', the
# softirq's, the preemption's, task 40's and the page fault's apart.
"$KD" -c $fx/original-bh.log > "$tmp/bh-c.out" &&
	[ "$(awk 'NR > 2 { if (/\|/) n[root]++; else { root = $NF; roots++ } }
		END { print n["sys_sendto"], roots }' "$tmp/bh-c.out")" = "22 7" ]
ok $? "kd -c on it: the task's tree whole, six trees of their own beside it"
# The same log raw, its addresses resolved with a System.map (call site =
# function + offset): the same listing.
python3 - $fx/original-bh.map $fx/original-bh.log > "$tmp/bh-raw.log" <<'PY'
import sys
addr = {l.split()[2]: int(l.split()[0], 16) for l in open(sys.argv[1])}
data = False
for l in open(sys.argv[2]):
    f = l.split()
    if data and len(f) == 5:
        fn, off = f[4].split('+0x')
        l = '%8s %8s %8s  0x%08x 0x%08x\n' % (f[0], f[1], f[2], addr[f[3]], addr[fn] + int(off, 16))
    data = data or l.startswith('--------')
    sys.stdout.write(l)
PY
"$KD" -m $fx/original-bh.map -c -l -i "$tmp/bh-raw.log" > "$tmp/bh-raw.out" 2> "$tmp/bh-raw.err" &&
	[ ! -s "$tmp/bh-raw.err" ] && ! grep -q ' 0x' "$tmp/bh-raw.out" && cmp -s $fx/original-bh.expected "$tmp/bh-raw.out"
ok $? "the same log raw with its System.map: the call sites resolve to their functions, the same listing"
# (-r prints the log's decimals: a time that needs them makes -i print them too.)
sed 's/  500.000 /  500.500 /' $fx/callsite.log > "$tmp/callsite.log"
for f in $fx/original-softirq.log $fx/original-bh.log "$tmp/callsite.log"; do
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
# The same boot from a kernel where do_initcall_level() and
# do_pre_smp_initcalls() were inlined (GCC with KFT's plugin): the
# containers call do_one_initcall() themselves (boot-inlined.log).  Without
# symbols the levels are unknown and kd says how to get them; with
# System.map's __initcall* symbols (boot-initcalls.map: an empty level, a
# module name holding "__", an ID of "6s" after a name ending in a digit,
# rootfs in level 5, markers listed after an entry at their address, one
# static name at levels 6 and 7, an entry past __initcall_end) each
# initcall has its level and each level's initcalls make one phase; one
# not in the log between two of level 6 is of level 6.
golden boot-inlined --boot $fx/boot-inlined.log
golden boot-inlined-map --boot -m $fx/boot-initcalls.map $fx/boot-inlined.log
awk '/^Phases/ { p = 1; next } /^Initcalls/ { p = 0 }
	p && $NF == "total" { total = $1 }
	p && $1 ~ /^[0-9]+$/ && $NF != "total" && NF >= 4 { sum += $2 }
	END { exit !(total == 7390 && sum == total) }' "$tmp/boot-inlined-map.out"
ok $? "--boot -m, do_initcall_level() inlined: the phases still add up to the boot time"
# The same symbols in an ELF file (-e vmlinux): assembled from the map.
awk '{ sec = $2 ~ /^[tT]$/ ? "text" : "data"; printf "%s %s %s\n", sec, $1, $3 }' \
	$fx/boot-initcalls.map | python3 -c '
import sys
base = {"text": 0xffffffff81000000, "data": 0xffffffff82000000}
out = {"text": [], "data": []}
seen = set()
for line in sys.stdin:
    sec, addr, name = line.split()
    if name not in seen:    # gas takes each name once
        out[sec].append((int(addr, 16) - base[sec] + 0x100, name))
    seen.add(name)
for sec in ("text", "data"):
    print("\t.section .%s" % sec)
    for off, name in sorted(out[sec], key=lambda x: x[0]):
        print("\t.org 0x%x" % off)
        if sec == "text":
            print("\t.type \"%s\", @function" % name)
        print("\"%s\":" % name)
    print("\t.byte 0")
' > "$tmp/initcalls.s" && as -o "$tmp/initcalls.o" "$tmp/initcalls.s" &&
	"$KD" --boot -e "$tmp/initcalls.o" $fx/boot-inlined.log > "$tmp/boot-inlined-elf.out" &&
	diff -u <(awk '/^Initcalls/ { i = 1 } i' $fx/boot-inlined-map.expected) \
		<(awk '/^Initcalls/ { i = 1 } i' "$tmp/boot-inlined-elf.out")
ok $? "--boot -e: the levels from an ELF file's __initcall* symbols, as from the map"
"$KD" --boot --json -m $fx/boot-initcalls.map $fx/boot-inlined.log | python3 -c '
import json, sys
r = json.load(sys.stdin)
got = {c["name"]: (c["level"], c["level_name"]) for c in r["initcalls"] if c["name"]}
want = {"early_fn": (None, "early"), "slow_init": (4, "subsys"), "populate_rootfs": (5, "fs"),
        "dev_init": (6, "device"), "vt_init2": (6, "device"), "dup_init": (None, None)}
sys.exit(got != want)'
ok $? "--boot --json -m, do_initcall_level() inlined: each initcall's level"
# A normal kernel's log keeps its own levels, whatever the symbols say.
"$KD" --boot -m $fx/boot-initcalls.map $fx/boot.log | diff -u $fx/boot.expected -
ok $? "--boot -m on a log with do_initcall_level(): the log's levels"
# A log where one do_initcall_level() is missing (level 0, shorter than the
# log's mintime: boot-short-level.log): without symbols kd numbers the seven
# and says so; with them, core_fn places the first at level 1, slow_init and
# dev_init the rest, one between two known by the order levels run in.
golden boot-short-level --boot $fx/boot-short-level.log
golden boot-short-level-map --boot -m $fx/boot-initcalls.map $fx/boot-short-level.log
# Where the symbols leave it open (no initcall in the log before slow_init,
# so the missing level is any of 0-3) or contradict the log (core_fn after
# slow_init), kd keeps the numbers and says the symbols could not place them.
for case in open contradict; do
	if [ $case = open ]; then
		grep -v ' core_fn \| 3020 ' $fx/boot-short-level.log
	else
		awk '$1 == 3020 || $1 == 3025 { next } { print }
			$1 == 4610 { print "        4620          300      1                  do_one_initcall do_initcall_level+0x91                      0"
				     print "        4625          290      1                          core_fn do_one_initcall+0x84                        0" }' \
			$fx/boot-short-level.log
	fi > "$tmp/short-$case.log"
	"$KD" --boot -m $fx/boot-initcalls.map "$tmp/short-$case.log" > "$tmp/short-$case.out" &&
		grep -q '^          3000            350    4.7  initcall level #0 of 7$' "$tmp/short-$case.out" &&
		grep -q '^(levels: do_initcall_level() is in the log, not eight times .* the symbols given could not place them)$' "$tmp/short-$case.out" &&
		! grep -q 'initcall level [0-7] (' "$tmp/short-$case.out"
	ok $? "--boot -m, one level missing and the symbols $case: the levels stay numbered, and kd says why"
done
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

# A boot run's log that gives its hooks' cost (fixtures/kd/boot-hooks.log,
# worked out by hand in its header): the report on the compensated clock,
# its phases still adding up to the boot; --raw the boot as measured.
golden boot-hooks --boot $fx/boot-hooks.log
golden boot-hooks-raw --boot --raw $fx/boot-hooks.log
[ ! -s "$tmp/boot-hooks.err" ] && grep -q '^Boot: start_kernel at 10.000 us, first user program at 6088.000 us: 6078.000 us$' "$tmp/boot-hooks.out" &&
	grep -q '^Boot: start_kernel at 10 us, first user program at 7400 us: 7390 us$' "$tmp/boot-hooks-raw.out" &&
	head -n 1 "$tmp/boot-hooks.out" | grep -q "^times: compensated for KFT's hooks (1000.0/2000.0/500.0 ns per dropped/logged/own call): instrumentation was 19.0% of the traced time"
ok $? "--boot: the boot less its hooks' 1312 us, said first"
awk '/^Phases/ { p = 1; next } /^Initcalls/ { p = 0 }
	p && $NF == "total" { total = $1 }
	p && $1 ~ /^[0-9.]+$/ && $NF != "total" && NF >= 4 { sum += $2 }
	END { exit !(total == 6078 && sum == total) }' "$tmp/boot-hooks.out" &&
	grep -q '^ *1399.000 *898.000 .*kernel_init_freeable, other$' "$tmp/boot-hooks.out" &&
	grep -q '^ *3093.000 *2345.500 .*initcall level #0 of 1$' "$tmp/boot-hooks.out" &&
	grep -q '^ *889.500 *299.500 .* mm_core_init$' "$tmp/boot-hooks.out" &&
	grep -q '^ *4039.000 *1399.500 .* my_init$' "$tmp/boot-hooks.out"
ok $? "--boot: compensated phases add up to the boot; kernel_init starts where start_kernel's calls left the clock"
# Waiting (fixtures/kd/boot-wait.log, worked out in its header): the hooks
# of other tasks' calls in a waiting call's window come off it, those of a
# task whose calls were too short to log too (where it was not asleep);
# not the idle task's, nor a task's own twice; --raw keeps them, and -r,
# which prints before the log ends, says it does not know them.
"$KD" --boot --initcall-debug $fx/boot-wait.log > "$tmp/wait-boot.out" 2> "$tmp/wait.err" &&
	"$KD" $fx/boot-wait.log > "$tmp/wait-sum.out" 2>> "$tmp/wait.err" &&
	"$KD" -c $fx/boot-wait.log > "$tmp/wait-tree.out" 2>> "$tmp/wait.err" &&
	"$KD" -c -r $fx/boot-wait.log > "$tmp/wait-r.out" 2>> "$tmp/wait.err" &&
	"$KD" --raw --boot --initcall-debug $fx/boot-wait.log > "$tmp/wait-raw.out" 2>> "$tmp/wait.err" &&
	"$KD" --no-waits --boot --initcall-debug $fx/boot-wait.log > "$tmp/wait-nw.out" 2>> "$tmp/wait.err"
[ $? -eq 0 ] && [ ! -s "$tmp/wait.err" ] &&
	grep -q 'initcall wait_init+0x0/0x0 returned 0 after 3792 usecs$' "$tmp/wait-boot.out" &&
	grep -q 'initcall wait2_init+0x0/0x0 returned 0 after 1790 usecs$' "$tmp/wait-boot.out" &&
	grep -q 'initcall cpu_init+0x0/0x0 returned 0 after 1900 usecs$' "$tmp/wait-boot.out" &&
	grep -q '^wait_init  *1 3792.000 3792.000  798.000 ' "$tmp/wait-sum.out" &&
	grep -q '^wait2_init  *1 1790.000 1790.000  798.000 ' "$tmp/wait-sum.out" &&
	grep -q '^handle  *1 1999.500 1999.500 1999.500 ' "$tmp/wait-sum.out" &&
	grep -q '^default_idle_call  *1  789.500 ' "$tmp/wait-sum.out" &&
	grep -q '^  *3210.000  *3792.000  *798.000  *1 .*wait_init$' "$tmp/wait-tree.out" &&
	grep -q '^  *3210.000  *5792.500 .*wait_init$' "$tmp/wait-r.out" &&
	grep -q "; -r keeps other tasks' hooks in waiting calls (-c takes them off); --raw for measured$" "$tmp/wait-r.out" &&
	grep -q 'initcall wait_init+0x0/0x0 returned 0 after 5900 usecs$' "$tmp/wait-raw.out" &&
	grep -q 'initcall wait_init+0x0/0x0 returned 0 after 5793 usecs$' "$tmp/wait-nw.out" &&
	grep -q 'initcall wait2_init+0x0/0x0 returned 0 after 2793 usecs$' "$tmp/wait-nw.out" &&
	"$KD" --pid 1 $fx/boot-wait.log | grep -q '^wait_init  *1 5792.500 '
ok $? "waiting: other tasks' hooks in wait_init's and wait2_init's windows come off them (3792, 1790 us), in --boot, the summary and -c; not the idle task's; not with --raw, --no-waits or --pid; -r says so"
# The '!' of an initcall mostly compensated counts what it waited for:
# wait_init's own hooks are 4% of it, with handle's 71%.
sed 's/^Hook cost = .*/Hook cost = 2000.0 ns dropped, 2000.0 ns logged, 500.0 ns own/' \
	$fx/boot-wait.log > "$tmp/wait-mark.log"
"$KD" --boot "$tmp/wait-mark.log" > "$tmp/wait-mark.out" 2>&1
"$KD" --no-waits --boot "$tmp/wait-mark.log" > "$tmp/wait-mark-nw.out" 2>&1
grep -q ' wait_init: wait_for_completion 993.500  (!: hooks 71% of it as measured)$' "$tmp/wait-mark.out" &&
	grep -q ' wait_init: wait_for_completion 4993.500$' "$tmp/wait-mark-nw.out"
ok $? "waiting: an initcall whose compensation is mostly other tasks' hooks is marked '!' (71%; 4% its own)"
# The same log on two CPUs, handle on the other one: a log says where a
# call returned, not where it ran; waiting is left in.
sed '/^ *3330.000 .* handle /s/ 0  *2000 / 1       2000 /' $fx/boot-wait.log > "$tmp/wait2.log"
"$KD" --boot --initcall-debug "$tmp/wait2.log" > "$tmp/wait2.out" 2>&1
grep -q 'initcall wait_init+0x0/0x0 returned 0 after 5793 usecs$' "$tmp/wait2.out" &&
	grep -q 'initcall wait2_init+0x0/0x0 returned 0 after 2793 usecs$' "$tmp/wait2.out"
ok $? "waiting: a run on two CPUs keeps it (5792.5, 2792.5 us)"

# An initcall whose hooks were half or more of its measured time: marked,
# with a note (the summary's h column's rule); not with --raw, nor below.
sed 's/^Hook cost = .*/Hook cost = 2000.0 ns dropped, 4000.0 ns logged, 500.0 ns own/' \
	$fx/boot-hooks.log > "$tmp/boot-hooks2.log"
"$KD" --boot "$tmp/boot-hooks2.log" > "$tmp/boot-hooks2.out" 2>/dev/null
grep -q '^ *3279.000 *899.500 .* my_init  (!: hooks 53% of it as measured)$' "$tmp/boot-hooks2.out" &&
	grep -q "^!: KFT's hooks were half or more of the initcall's time as measured" "$tmp/boot-hooks2.out" &&
	! "$KD" --boot --raw "$tmp/boot-hooks2.log" 2>/dev/null | grep -q '!' &&
	! grep -q '(!: \|^!: ' "$tmp/boot-hooks.out"
ok $? "--boot: an initcall half or more hooks (my_init: 1000.5 of 1900 us) marked '!', a note; not with --raw or under half (26%)"
"$KD" --boot --svg $fx/boot-hooks.log > "$tmp/boot-hooks.svg"
python3 - "$tmp/boot-hooks.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
assert any("compensated for KFT's hooks" in (t.text or "") for t in svg.iter(ns + "text"))
bars = {r.find(ns + "title").text.split(":")[0]: float(r.get("width"))
        for r in svg.iter(ns + "rect") if r.find(ns + "title") is not None}
assert abs(bars["setup_arch"] / bars["mm_core_init"] - 799.5 / 299.5) < 0.01, bars
PY
ok $? "--boot --svg: valid SVG, compensated bars, says so"

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

# KFT's hooks taken off (fixtures/kd/hooks.log: a Hook cost line and the
# Calls and Logged columns, every number worked out by hand in its
# header): the summary, the call tree, -r, --raw.
golden hooks-summary $fx/hooks.log
golden hooks-raw --raw $fx/hooks.log
golden hooks-tree -c $fx/hooks.log
golden hooks-tree-stream -c -r $fx/hooks.log
[ ! -s "$tmp/hooks-summary.err" ] && [ ! -s "$tmp/hooks-tree.err" ]
ok $? "hooks.log: no warnings"
hrow() { awk -v f="$1" '$1 == f { print $3, $5 }' "$tmp/hooks-summary.out"; }
[ "$(hrow A)" = "69.550 19.850" ] && [ "$(hrow B)" = "29.750 19.850" ] && [ "$(hrow D)" = "4.950 4.950" ]
ok $? "compensated: A 100 - 296 x 0.1 - 4 x 0.2 - 0.05, local less its callees' compensated times"
[ "$(hrow G)" = "0.000 0.000" ] && [ "$(hrow H)" = "9.850 0.000" ] && [ "$(hrow I)" = "9.850 9.850" ] &&
	[ "$(awk '$1 == "F" { print $2, $3 }' "$tmp/hooks-summary.out")" = "1 0.000" ]
ok $? "compensated: never below 0 (G), never below its callees' (H), -1 untouched (F)"
hooks_col() { awk -v f="$1" '$1 == f { print $NF }' "$tmp/hooks-summary.out"; }
[ "$(hooks_col A)" = "30%" ] && [ "$(hooks_col C)" = "34%" ] && [ "$(hooks_col D)" = "50%!" ] &&
	[ "$(hooks_col G)" = "100%!" ] && [ "$(hooks_col F)" = "-" ] &&
	grep -q "^!: KFT's hooks were half or more of the time as measured" "$tmp/hooks-summary.out" &&
	! grep -q "Hooks\|^!:" "$tmp/hooks-raw.out"
ok $? "the Hooks column: each function's share of its measured time taken off (A 30.45 of 100, C 10.05 of 30), ! and a note at half or more (D 5.05 of 10, G all of 1), - for no time (F); not with --raw"
"$KD" -f Fth $fx/hooks.log | awk '$1 == "D" { print $2, $3 }' | grep -qx "4.950 50%!" &&
	! "$KD" -f Ft $fx/hooks.log | grep -q Hooks && ! "$KD" -l $fx/hooks.log | grep -q Hooks &&
	! "$KD" $fx/nested.log 2>/dev/null | grep -q Hooks
ok $? "-f h asks for it; -f or -l without h, or a log that is not compensated, has none"
# The call tree's h column: each call's own share, the summary's rule.
"$KD" -c -f th $fx/hooks.log > "$tmp/tree-h.out" 2>&1
tcol() { awk -v f="$1" '$NF == f { print $1, $2 }' "$tmp/tree-h.out"; }
[ "$(tcol A)" = "69.550 30%" ] && [ "$(tcol B)" = "29.750 26%" ] && [ "$(tcol D)" = "4.950 50%!" ] &&
	[ "$(tcol G)" = "0.000 100%!" ] && [ "$(tcol F)" = "-1 -" ] &&
	grep -q "^ Duration  Hooks  Trace$" "$tmp/tree-h.out" &&
	grep -q "^!: KFT's hooks were half or more of the time as measured" "$tmp/tree-h.out" &&
	"$KD" -c -r -f th $fx/hooks.log | grep -q "^!: KFT's hooks were half" &&
	"$KD" -c -f th --raw $fx/hooks.log | awk '$NF == "D" { print $2 }' | grep -qx -- - &&
	! "$KD" -c -f th --raw $fx/hooks.log | grep -q "^!:" && ! "$KD" -c -f etlp $fx/hooks.log | grep -q "Hooks\|^!:" &&
	grep -q "^ Entry      Duration   Local         Pid Hooks  Trace$" "$tmp/hooks-tree.out" &&
	grep -q "^ Entry      Duration   Local         Pid Hooks  Trace$" "$tmp/hooks-tree-stream.out" &&
	! "$KD" -c --raw $fx/hooks.log | grep -q "Hooks\|^!:" && ! "$KD" -c $fx/nested.log 2>/dev/null | grep -q Hooks
ok $? "kd -c -f h: each call's hooks' share (A 30%, B 26%), ! and the note at half or more (D, G), - for an open call (F), with -r too; a compensated log's default columns have it; none with --raw, -f without h, or a log not compensated"
head -n 1 "$tmp/hooks-summary.out" | grep -qx "times: compensated for KFT's hooks (100.0/200.0/50.0 ns per dropped/logged/own call): instrumentation was 24.2% of the traced time; --raw for measured" &&
	head -n 1 "$tmp/hooks-raw.out" | grep -q '^times: as measured (--raw), .*: instrumentation was 24.2% of the traced time$' &&
	head -n 1 "$tmp/hooks-tree.out" | grep -q '^times: compensated for ' && tail -n 1 "$tmp/hooks-tree-stream.out" | grep -q 'instrumentation was 24.2%'
ok $? "the outputs say the times are compensated, and the hooks' share of the traced time (A, E, G, H: 31.65 of 131 us)"
# Where the kernel measured the cost (its "Calibrated on CPU" line after
# the Hook cost line): said beside the cost in every output's note, in
# the JSON; a line of another shape warned of with its number, the cost
# kept.
cal() { sed "/^Hook cost = /a $1" "$2"; }
cal 'Calibrated on CPU 1, back to back, cycle counter at 2994200 kHz, 812 ms after the stop' $fx/hooks.log > "$tmp/cal.log"
cal 'Calibrated on CPU 0, back to back, sched_clock()' $fx/hooks.log > "$tmp/cal-sched.log"
cal 'Calibrated on CPU 1, back to back, cycle counter at 0 kHz' $fx/hooks.log > "$tmp/cal-bad.log"
cal 'Calibrated on CPU 1, back to back, cycle counter at 2994200 kHz, 812 ms after the stop' $fx/boot-hooks.log > "$tmp/cal-boot.log"
"$KD" "$tmp/cal.log" 2> "$tmp/cal.err" | head -n 1 | grep -qx "times: compensated for KFT's hooks (100.0/200.0/50.0 ns per dropped/logged/own call, measured back to back on CPU 1, cycle counter at 2994.2 MHz, 812 ms after the stop): instrumentation was 24.2% of the traced time; --raw for measured" &&
	[ ! -s "$tmp/cal.err" ] &&
	"$KD" -c "$tmp/cal-sched.log" | head -n 1 | grep -q "call, measured back to back on CPU 0, sched_clock()): "
ok $? "Calibrated on CPU: where, with which clock and when the cost was measured, beside it (summary, -c)"
"$KD" "$tmp/cal-bad.log" 2> "$tmp/cal-bad.err" | head -n 1 | grep -q "^times: compensated for KFT's hooks (100.0/200.0/50.0 ns per dropped/logged/own call): " &&
	grep -q "cal-bad.log:$(grep -n '^Calibrated' "$tmp/cal-bad.log" | cut -d: -f1): a Calibrated line that is not " "$tmp/cal-bad.err"
ok $? "Calibrated line of another shape (a 0 kHz counter): warned of with its line, the cost kept without it"
"$KD" --boot "$tmp/cal-boot.log" 2>/dev/null | grep -q "measured back to back on CPU 1, cycle counter at 2994.2 MHz, 812 ms after the stop" &&
	"$KD" --boot --json "$tmp/cal-boot.log" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
m = [v for k, v in d.items() if k.endswith("hook_cost_measured")] or [v for k, v in d.get("note", {}).items() if k.endswith("hook_cost_measured")]
assert m == [{"cpu": 1, "clock_khz": 2994200, "after_stop_ms": 812}], m
' && "$KD" --boot --json $fx/boot-hooks.log 2>/dev/null | grep -q '"hook_cost_measured": null'
ok $? "Calibrated on CPU in kd --boot's report and its JSON (hook_cost_measured; null without the line)"

# --raw is the log as if it had no Calls and Logged columns and no cost.
awk '/^Hook cost/ { next } /^------------ / { d = 1; print; next } d && NF == 8 { NF = 6 } { print }' \
	$fx/hooks.log > "$tmp/hooks-plain.log"
awk '/^Hook cost/ { next } /^------------ / { d = 1; print; next } d && NF == 8 { NF = 6 } { print }' \
	$fx/boot-hooks.log > "$tmp/boot-hooks-plain.log"
for m in "" -c "-c -i" --folded --chrome --timeline --boot; do
	log=$fx/hooks.log plain=$tmp/hooks-plain.log
	[ "$m" = --boot ] && log=$fx/boot-hooks.log plain=$tmp/boot-hooks-plain.log
	# shellcheck disable=SC2086
	"$KD" $m "$plain" > "$tmp/plain.out" 2> "$tmp/plain.err" &&
		"$KD" $m --raw "$log" 2> "$tmp/raw.err" | grep -v '^times: \|^KFT.s hooks: \|"otherData"\|font-size="15"' > "$tmp/raw.out" &&
		grep -v '"displayTimeUnit"\|font-size="15"' "$tmp/plain.out" | diff -u - "$tmp/raw.out" && [ ! -s "$tmp/plain.err" ] && [ ! -s "$tmp/raw.err" ]
	ok $? "kd ${m:-(summary)} --raw: the times of the log without the columns and the cost, as measured"
done
# Folded stacks and the flame graph weigh calls by compensated self time.
"$KD" --folded $fx/hooks.log > "$tmp/hooks.folded"
grep -qx 'A 19850' "$tmp/hooks.folded" && grep -qx 'A;B;D 4950' "$tmp/hooks.folded" &&
	grep -qx 'H;I 9850' "$tmp/hooks.folded" && ! grep -q '^H ' "$tmp/hooks.folded"
ok $? "--folded: compensated self times in ns"
# Chrome JSON and the timeline place calls on the compensated clock: a
# callee starts after its caller's hooks and its earlier siblings' (B:
# 10 - 10 x 10.15/30), and ends inside its caller.
"$KD" --chrome $fx/hooks.log > "$tmp/hooks.json"
python3 - "$tmp/hooks.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
o = d["otherData"]
assert o["kft_times"] == "compensated" and o["kft_hook_cost_ns"] == {"dropped": 100, "logged": 200, "own": 50}, o
assert abs(o["kft_instrumentation"] - 31.65 / 131) < 1e-4, o
x = {e["name"]: e for e in d["traceEvents"] if e["ph"] == "X"}
assert (x["A"]["ts"], x["A"]["dur"]) == (0, 69.55), x["A"]
assert (x["B"]["ts"], x["B"]["dur"]) == (6.617, 29.75), x["B"]
assert (x["C"]["ts"], x["C"]["dur"]) == (42.983, 19.95), x["C"]
assert (x["G"]["ts"], x["H"]["ts"], x["I"]["ts"]) == (29.95, 68.95, 68.95), (x["G"], x["H"], x["I"])
for t in set(e["tid"] for e in x.values()):
    s = sorted((e["ts"], -e["dur"], e["ts"] + e["dur"]) for e in x.values() if e["tid"] == t)
    stack = []
    for ts, _, end in s:
        while stack and stack[-1] <= ts + 1e-9: stack.pop()
        assert not stack or end <= stack[-1] + 1e-9, (t, ts, end, stack)
        stack.append(end)
PY
ok $? "--chrome: compensated durations on the compensated clock, nested per track; otherData says so"
"$KD" --svg $fx/hooks.log > "$tmp/hooks-flame.svg" && "$KD" --timeline $fx/hooks.log > "$tmp/hooks-tl.svg"
python3 - "$tmp/hooks-flame.svg" "$tmp/hooks-tl.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
for f in sys.argv[1:]:
    root = ET.parse(f).getroot()
    texts = [t.text or "" for t in root.iter(ns + "text")]
    assert "compensated for KFT's hooks" in texts[0], texts[0]
flame = ET.parse(sys.argv[1]).getroot()
titles = [t.text for t in flame.iter(ns + "title")]
assert any(t.startswith("A (64.600 us)") for t in titles), titles
tl = ET.parse(sys.argv[2]).getroot()
titles = [t.text for t in tl.iter(ns + "title")]
assert "B: 29.750 us at 6.617 us" in titles, titles
PY
ok $? "--svg and --timeline: valid SVG, compensated widths and places, the title says so"
# Generated logs (deep trees, calls that never return, thousands of tasks)
# given counts that fit no calibration (times clamped to 0, to their
# callees'): on the compensated clock, calls still nest on every track,
# to the ns as printed.
for shape in open tasks; do
	${BUILD:-build}/genlog --shape $shape 40000 "$tmp/h.map" "$tmp/h.raw" > /dev/null &&
		${BUILD:-build}/addr2sym -m "$tmp/h.map" "$tmp/h.raw" |
		awk '/^------------ / { print "Hook cost = 84.3 ns dropped, 131.0 ns logged, 38.2 ns own"; d = 1; print; next }
			d && NF == 6 { print $0, (NR * 7) % 1000 + 5, NR % 5; next } { print }' > "$tmp/h.log" &&
		"$KD" --chrome "$tmp/h.log" > "$tmp/h.json" && python3 - "$tmp/h.json" <<'PY'
import json, sys
x = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X" and "args" not in e]
assert len(x) > 30000, len(x)
for t in set(e["tid"] for e in x):
    s = sorted((round(e["ts"] * 1000), -round(e["dur"] * 1000), round((e["ts"] + e["dur"]) * 1000)) for e in x if e["tid"] == t)
    stack = []
    for ts, _, end in s:
        while stack and stack[-1] <= ts: stack.pop()
        assert not stack or end <= stack[-1], (t, ts, end, stack)
        stack.append(end)
PY
	ok $? "genlog --shape $shape with any Calls and Logged: --chrome's calls nest on every track"
done
# The old and the new log differ in kind: --diff says so.
"$KD" --diff "$tmp/hooks-plain.log" $fx/hooks.log > "$tmp/hdiff.out" 2> "$tmp/hdiff.err"
[ $? -eq 0 ] && grep -q "hooks-plain.log's times are as measured, .*hooks.log's compensated for KFT's hooks: not alike" "$tmp/hdiff.err" &&
	grep -q "^new: times: compensated" "$tmp/hdiff.out" && ! grep -q '^old: ' "$tmp/hdiff.out" &&
	[ "$(awk '$1 == "A" { print $5 }' "$tmp/hdiff.out")" = "-30.450" ]
ok $? "--diff of a measured and a compensated log: each one's note, a warning, the change"

# Logs put end to end: each with its own header, text base and hook cost,
# a new run each (no 'not in entry order').
sed -n '/^Kernel Instrumentation/,$p' $fx/hooks.log > "$tmp/hooks1.log"
sed 's/100.0 ns dropped/150.0 ns dropped/' "$tmp/hooks1.log" > "$tmp/hooks2.log"
cat "$tmp/hooks1.log" "$tmp/hooks1.log" > "$tmp/twice.log"
"$KD" "$tmp/twice.log" > "$tmp/twice.out" 2> "$tmp/twice.err"
[ $? -eq 0 ] && [ ! -s "$tmp/twice.err" ] && [ "$(awk '$1 == "A" { print $2, $3 }' "$tmp/twice.out")" = "2 139.100" ] &&
	head -n 1 "$tmp/twice.out" | grep -q '(100.0/200.0/50.0 ns per dropped/logged/own call): instrumentation was 24.2%'
ok $? "two logs end to end: both read, each a run of its own, no warning"
cat "$tmp/hooks1.log" "$tmp/hooks2.log" | "$KD" > "$tmp/two.out" 2>&1
[ "$(awk '$1 == "A" { print $2, $3 }' "$tmp/two.out")" = "2 124.300" ] &&
	head -n 1 "$tmp/two.out" | grep -q "^times: compensated for KFT's hooks (each log's hook cost)"
ok $? "two logs end to end with different hook costs: each its own (A: 69.55 + 100 - 296 x 0.15 - 0.85)"
sed -n '/^Kernel Instrumentation/,$p' "$tmp/hooks-plain.log" | cat - "$tmp/hooks1.log" | "$KD" > "$tmp/half.out" 2>&1
[ "$(awk '$1 == "A" { print $2, $3 }' "$tmp/half.out")" = "2 169.550" ] &&
	head -n 1 "$tmp/half.out" | grep -q "^times: compensated for KFT's hooks in 1 of 2 logs "
ok $? "a log without the cost and one with it: only the second compensated, and said"

# The columns without the cost, the cost without the columns, a cost that
# is not one: a warning (once, with its line), the times as measured.
hw() {	# hw NAME SED: hooks.log edited, kd's summary and warnings
	sed "$2" $fx/hooks.log > "$tmp/$1.log"
	"$KD" "$tmp/$1.log" > "$tmp/$1.out" 2> "$tmp/$1.err"
	rc=$?
}
measured() {	# the times of hooks.log as measured
	[ "$(awk '$1 == "A" || $1 == "G" { print $3 }' "$tmp/$1.out" | tr '\n' ' ')" = "100.000 1.000 " ]
}
hw nocost '/^Hook cost/d'
[ $rc -eq 0 ] && measured nocost && [ "$(wc -l < "$tmp/nocost.err")" = 1 ] &&
	grep -q "nocost.log:26: Calls and Logged columns, but no 'Hook cost = ...' line in the log's header: its times as measured" "$tmp/nocost.err" &&
	head -n 1 "$tmp/nocost.out" | grep -q "^times: as measured, KFT's hooks included"
ok $? "Calls and Logged without a hook cost: one warning with its line, times as measured, said"
hw uncal 's/^Hook cost = .*/Hook cost = not calibrated/'
[ $rc -eq 0 ] && measured uncal && [ ! -s "$tmp/uncal.err" ] &&
	head -n 1 "$tmp/uncal.out" | grep -q "^times: as measured"
ok $? "'Hook cost = not calibrated' (a run ended by a panic): times as measured, said, no warning"
hw refused 's/^Hook cost = .*/Hook cost = not calibrated (untrusted repeats: 12.0 ns to 30.1 ns dropped, 20.0 ns to 21.0 ns logged)/'
[ $rc -eq 0 ] && measured refused && [ "$(wc -l < "$tmp/refused.err")" = 1 ] &&
	grep -q "refused.log:20: the kernel refused its calibration of the hooks' cost (its repeats disagreed" "$tmp/refused.err" &&
	head -n 1 "$tmp/refused.out" | grep -q "^times: as measured"
ok $? "a calibration the kernel refused (repeats that disagree): one warning with its line, times as measured, said"
for cost in "0.0 ns dropped, 2 ns logged, 3 ns own" "1.0 ns dropped, 0 ns logged, 3 ns own"; do
	hw zerocost "s/^Hook cost = .*/Hook cost = $cost/"
	[ $rc -eq 0 ] && measured zerocost && [ "$(wc -l < "$tmp/zerocost.err")" = 1 ] &&
		grep -q "zerocost.log:20: a Hook cost of 0 ns a dropped or logged call is no calibration" "$tmp/zerocost.err" &&
		head -n 1 "$tmp/zerocost.out" | grep -q "^times: as measured"
	ok $? "Hook cost = $cost: no calibration, one warning with its line, times as measured"
done
hw zeroown 's/^Hook cost = .*/Hook cost = 84.0 ns dropped, 131.0 ns logged, 0.0 ns own/'
[ $rc -eq 0 ] && [ ! -s "$tmp/zeroown.err" ] && head -n 1 "$tmp/zeroown.out" | grep -q "^times: compensated"
ok $? "an own cost of 0 ns (a coarse clock: under one tick) is a calibration"
awk '/^------------ / { d = 1; print; next } d && NF == 8 { NF = 6 } { print }' $fx/hooks.log > "$tmp/nocols.log"
"$KD" "$tmp/nocols.log" > "$tmp/nocols.out" 2> "$tmp/nocols.err"
[ $? -eq 0 ] && measured nocols && [ "$(wc -l < "$tmp/nocols.err")" = 1 ] &&
	grep -q "nocols.log:27: the log's header gives a hook cost, but this line has no Calls and Logged columns" "$tmp/nocols.err"
ok $? "a hook cost without Calls and Logged: one warning, times as measured"
for cost in "-1 ns dropped, 2 ns logged, 3 ns own" "nan ns dropped, 2 ns logged, 3 ns own" \
	"1e400 ns dropped, 2 ns logged, 3 ns own" "1000001 ns dropped, 2 ns logged, 3 ns own" \
	"1 ns dropped, 2 ns logged" "1 ns dropped, 2 ns logged, 3 ns own, 4 ns more" "84.3 dropped, 131.0 logged, 38.2 own" "lots" \
	"0x10 ns dropped, 2 ns logged, 3 ns own" "1e2 ns dropped, 2 ns logged, 3 ns own" "1.2.3 ns dropped, 2 ns logged, 3 ns own"; do
	hw badcost "s/^Hook cost = .*/Hook cost = $cost/"
	[ $rc -eq 0 ] && measured badcost &&
		grep -q "badcost.log:20: a Hook cost line that is not 'Hook cost = D ns dropped, L ns logged, O ns own'" "$tmp/badcost.err"
	ok $? "Hook cost = $cost: a warning with its line, times as measured"
done
# Calls and Logged that are not counts: that line's time as measured.
hw badcnt 's/    0        300        4$/    0        3        4/; s/^\( *15.000 .*\)    0         50        0$/\1    0        -50        0/; s/^\( *60.000 .*\)    0        100        0$/\1    0 4294967296        0/; s/^\( *5.000 .*\)    1          0        0$/\1    1 4294967295 4294967295/'
[ $rc -eq 0 ] && grep -q 'badcnt.log:27: more calls Logged than Calls' "$tmp/badcnt.err" &&
	grep -q 'badcnt.log:30: Calls and Logged columns that are not counts' "$tmp/badcnt.err" &&
	grep -q 'badcnt.log:34: Calls and Logged columns that are not counts' "$tmp/badcnt.err" &&
	[ "$(awk '$1 == "A" || $1 == "D" || $1 == "C" || $1 == "B" { print $1, $3 }' "$tmp/badcnt.out" | tr '\n' ' ')" = "A 100.000 C 30.000 B 29.750 D 10.000 " ] &&
	[ "$(awk '$1 == "E" { print $3 }' "$tmp/badcnt.out")" = 0.000 ]
ok $? "Calls and Logged not counts, or Logged above Calls: a warning with the line, that time as measured; 2^32-1 of each is one"
hw words 's/^\( *70.050 .*\)$/\1 more words/; s/^\( *30.000 .*G .*\)    1        100        0$/\1    1        100/'
[ $rc -eq 0 ] && grep -q 'words.log:36: extra words after the Logged column: ignored' "$tmp/words.err" &&
	grep -q 'words.log:32: extra words after the CPU column: ignored' "$tmp/words.err" &&
	[ "$(awk '$1 == "I" || $1 == "G" { print $1, $3 }' "$tmp/words.out" | tr '\n' ' ')" = "I 9.850 G 1.000 " ]
ok $? "words after the Logged column: ignored, said; Calls alone: no columns, said"

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
"$KD" --help > "$tmp/help.out" && grep -q '^usage: kd' "$tmp/help.out" && grep -q '^ *h hooks' "$tmp/help.out"
ok $? "--help"
"$KD" -V | grep -q 'kd (KFT)'
ok $? "-V"
tap_done
