#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kd --trace-cmd FILE, read by the real client: trace-cmd report must print
# the calls kd -c prints -- the same trees, nesting, pids, interrupt
# context and durations, compensated and --raw (and with --raw the same
# entry times) -- for the hand-made logs (fixtures/kd/hooks.log: nesting,
# two CPUs, four tasks, an interrupt, a call without exit, a hook cost)
# and every other log fixture; times in order on every CPU; and hostile
# logs: names with odd bytes, empty logs, unfinished calls, runs put end
# to end, gaps of seconds, a log too long for one ring buffer page per
# CPU.  tracecmd_compare.py does the comparing.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
KD=${BUILD:-build}/asan/kd
fx=tests/tools/fixtures
cmp=tests/tools/tracecmd_compare.py
tap_tmpdir

if ! command -v trace-cmd > /dev/null; then
	tap_skip "trace-cmd is not installed (make deps)"
	tap_done
	exit
fi

# report FILE: trace-cmd report's function graph, with what the comparer
# needs (latency flags, full timestamps, the exit's function and depths).
report() {
	trace-cmd report -l -t -O fgraph:tailprint -O fgraph:depth -i "$1"
}

# same NAME [KD-OPTIONS...] LOG: kd --trace-cmd and kd -c agree on LOG.
same() {
	local name=$1 opts=()
	shift
	case " $* " in *" --raw "*) opts+=(--entries) ;; esac
	case " $* " in *"/original"* | *irq26*) opts+=(--original) ;; esac
	"$KD" --trace-cmd "$tmp/$name.dat" "$@" > "$tmp/$name.msg" 2> "$tmp/$name.err" &&
		"$KD" -c -f etp "$@" > "$tmp/$name.tree" 2>&1 &&
		report "$tmp/$name.dat" > "$tmp/$name.report" 2> "$tmp/$name.rerr" &&
		! grep -q . "$tmp/$name.rerr" &&
		trace-cmd report --ts-check -i "$tmp/$name.dat" > /dev/null 2>&1 &&
		python3 "$cmp" "${opts[@]}" "$tmp/$name.tree" "$tmp/$name.report" > "$tmp/$name.cmp" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || cat "$tmp/$name.err" "$tmp/$name.rerr" "$tmp/$name.cmp" | head -20 | sed 's/^/# /'
	ok $rc "$name: trace-cmd report prints kd -c's calls ($*)"
}

# The hand-made log, compensated and raw; then by hand what it must say.
same hooks $fx/kd/hooks.log
same hooks-raw --raw $fx/kd/hooks.log
grep -Eq '^ *<\.\.\.>-10 +0\.{5} +0\.000000000: funcgraph_entry: .*\|  A\(\) \{ \(0\)$' "$tmp/hooks.report" &&
	grep -Eq '^ *<\.\.\.>-10 +0\.{5} .*funcgraph_exit: +\+ 69\.550 us +\|  \} /\* A \*/ \(0\)$' "$tmp/hooks.report" &&
	grep -Eq '^ *<\.\.\.>-10 +0d\.h\.\. .*funcgraph_entry: +4\.950 us +\|  irq_handler\(\); \(0\)$' "$tmp/hooks.report" &&
	grep -Eq '^ *<\.\.\.>-20 +1\.{5} .*funcgraph_entry: .*\|  F\(\) \{ \(0\)$' "$tmp/hooks.report" &&
	! grep -q '/\* F \*/' "$tmp/hooks.report" &&
	grep -Eq '^ *<\.\.\.>-40 +1\.{5} .*funcgraph_entry: +\|    I\(\) \{ \(1\)$' "$tmp/hooks.report" &&
	grep -Eq '^ *<\.\.\.>-40 +1\.{5} .*funcgraph_exit: +9\.850 us +\|    \} /\* I \*/ \(1\)$' "$tmp/hooks.report"
ok $? "hooks.log: A compensated to 69.550 us; the interrupt flagged h with the pid it interrupted; F (no exit) has an entry and no exit; I nested in H"
grep -Eq 'funcgraph_exit: +\+ 100\.000 us \|  \} /\* A \*/ \(0\)$' "$tmp/hooks-raw.report" &&
	grep -Eq 'funcgraph_exit: +5\.000 us +\|  \} /\* irq_handler \*/ \(0\)$' "$tmp/hooks-raw.report"
ok $? "hooks.log --raw: the times as measured (A 100 us, irq_handler 5 us)"
# The file says how its times were taken: a print event and the uname option.
grep -q "print: .*tracing_mark_write: KFT: times: compensated for KFT's hooks (100.0/200.0/50.0 ns" "$tmp/hooks.report" &&
	grep -q "times: compensated" "$tmp/hooks.msg" &&
	trace-cmd report --uname -i "$tmp/hooks.dat" 2>/dev/null | grep -q "^KFT kd .*times: compensated" &&
	grep -q "print: .*KFT: times: as measured (--raw)" "$tmp/hooks-raw.report" &&
	trace-cmd report --uname -i "$tmp/hooks-raw.dat" 2>/dev/null | grep -q "times: as measured (--raw)"
ok $? "the file says whether its times are compensated or as measured (a print event, the uname option, kd's message)"
trace-cmd report --check-events -i "$tmp/hooks.dat" > /dev/null 2>&1 &&
	[ "$(trace-cmd report --cpus -i "$tmp/hooks.dat" 2>/dev/null | tr -s ' \n' ' ')" = "List of CPUs in hooks.dat with data: 0 1 " ] ||
	[ "$(trace-cmd report --cpus -i "$tmp/hooks.dat" 2>/dev/null | grep -c .)" -ge 2 ]
ok $? "hooks.log: trace-cmd parses every event format; data on CPUs 0 and 1"

# Every log fixture, both ways.
for f in $fx/kd/*.log; do
	b=$(basename "$f" .log)
	[ "$b" = hooks ] && continue
	same "$b" "$f"
	same "$b-raw" --raw "$f"
done
same raw-hooks -m $fx/System.map $fx/raw-hooks.log
same raw-hooks-raw --raw -m $fx/System.map $fx/raw-hooks.log
# Filters choose the calls, as for kd -c.
same nested-pid --pid 10 $fx/kd/nested.log
same nested-irq --pid -1 $fx/kd/nested.log
same callsite-subtree --subtree handle_softirqs $fx/kd/callsite.log
same hooks-cpu --cpu 1 $fx/kd/hooks.log

# A generated log (bench/genlog.c: 8 tasks, interrupts, deep nesting) of
# pages and pages per CPU, every call alike.
${BUILD:-build}/genlog 30000 "$tmp/gen.map" "$tmp/gen.raw" > /dev/null &&
	same genlog -m "$tmp/gen.map" "$tmp/gen.raw"
for shape in open irq26 tasks; do
	${BUILD:-build}/genlog --shape $shape 8000 "$tmp/$shape.map" "$tmp/$shape.raw" > /dev/null &&
		same "genlog-$shape" -m "$tmp/$shape.map" "$tmp/$shape.raw"
done

# Hostile logs.
hdr='       Entry        Delta    PID     Function   Caller  CPU
------------ ------------ ------ ------------ -------- ----'
# Names with odd bytes: kallsyms is split at blanks, so they are written
# \xNN; a long name; UTF-8 stays.
{
	echo "$hdr"
	printf '       0.000       10.000     10 a\x01b start 0\n'
	printf '       1.000        2.000     10 bad\xff\xfe a\x01b+0x4 0\n'
	printf '       4.000        1.000     10 back\\slash a\x01b+0x8 0\n'
	printf '       5.000        1.000     10 caf\xc3\xa9 a\x01b+0xc 0\n'
	printf '       6.000        1.000     10 %s a\x01b+0x10 0\n' "$(printf 'x%.0s' $(seq 3000))"
} > "$tmp/odd.log"
"$KD" --trace-cmd "$tmp/odd.dat" "$tmp/odd.log" > /dev/null 2>&1 &&
	report "$tmp/odd.dat" > "$tmp/odd.report" 2>&1 &&
	grep -q '|  a\\x01b() { (0)$' "$tmp/odd.report" &&
	grep -q '|    bad\\xff\\xfe(); (1)$' "$tmp/odd.report" &&
	grep -q '|    back\\x5cslash(); (1)$' "$tmp/odd.report" &&
	grep -q "|    café(); (1)$" "$tmp/odd.report" &&
	grep -q "|    $(printf 'x%.0s' $(seq 3000))(); (1)$" "$tmp/odd.report" &&
	grep -q '} /\* a\\x01b \*/ (0)$' "$tmp/odd.report"
ok $? "names with control bytes, bytes that are no UTF-8, a backslash: written \\xNN; UTF-8 and a 3000-byte name as they are"

# An empty log (a header, no calls): a file with no events but the note.
printf '%s\n' "$hdr" > "$tmp/empty.log"
"$KD" --trace-cmd "$tmp/empty.dat" "$tmp/empty.log" > "$tmp/empty.msg" 2>&1 &&
	grep -q "wrote $tmp/empty.dat: 0 calls on 1 CPU" "$tmp/empty.msg" &&
	report "$tmp/empty.dat" > "$tmp/empty.report" 2>&1 &&
	! grep -q funcgraph "$tmp/empty.report" && grep -q 'print: ' "$tmp/empty.report"
ok $? "a log with no calls: a file trace-cmd reads, no function_graph events"
# No log data: an error, and no file.
echo "not a log" > "$tmp/nolog.log"
"$KD" --trace-cmd "$tmp/nolog.dat" "$tmp/nolog.log" > /dev/null 2> "$tmp/nolog.err"
[ $? -eq 1 ] && [ ! -e "$tmp/nolog.dat" ] && grep -q 'no KFT log data' "$tmp/nolog.err"
ok $? "a file with no log data: exit 1, no file written"
# A line kd cannot read: the rest is written, the exit status says so.
{ echo "$hdr"; echo "       0.000        5.000     10 A start 0"; echo "garbage line"; echo "       1.000        1.000     10 B A+0x4 0"; } > "$tmp/bad.log"
"$KD" --trace-cmd "$tmp/bad.dat" "$tmp/bad.log" > /dev/null 2> "$tmp/bad.err"
[ $? -eq 1 ] && grep -q 'bad.log:4' "$tmp/bad.err" &&
	report "$tmp/bad.dat" 2>&1 | grep -q '|    B(); (1)$'
ok $? "a malformed line: named with its line number, left out, exit 1; the other calls written"

# Calls without exit at every level, the log ending inside them.
{
	echo "$hdr"
	echo "       0.000           -1      1 outer start 0"
	echo "       1.000           -1      1 middle outer+0x4 0"
	echo "       2.000        3.000      1 inner middle+0x4 0"
	echo "       6.000           -2      1 marker middle+0x8 0"
} > "$tmp/open.log"
same open "$tmp/open.log"
grep -q '|  outer() { (0)$' "$tmp/open.report" && grep -q '|    middle() { (1)$' "$tmp/open.report" &&
	[ "$(grep -c funcgraph_exit "$tmp/open.report")" -eq 0 ] &&
	grep -q '3.000 us   |      inner(); (2)$' "$tmp/open.report"
ok $? "unfinished calls (-1, -2): entries and no exits; their callees nested and timed"

# Two runs end to end (times start again) and gaps of seconds (beyond a
# ring buffer event's 27-bit delta): in order, each run after the last.
{
	echo "$hdr"
	echo "       0.000       10.000      1 A start 0"
	echo "       2.000        1.000      1 B A+0x4 0"
	echo "   5000000.000  1000000.000    2 C start 1"
	echo "   5000001.000        1.500    2 D C+0x4 1"
	echo "Kernel Instrumentation Run ID 2"
	echo "$hdr"
	echo "       0.000        4.000      1 A start 0"
	echo " 9000000000.000       2.000     1 E start 0"
} > "$tmp/runs.log"
"$KD" --trace-cmd "$tmp/runs.dat" --raw "$tmp/runs.log" > /dev/null 2>&1 &&
	report "$tmp/runs.dat" > "$tmp/runs.report" 2>&1 &&
	trace-cmd report --ts-check -i "$tmp/runs.dat" > /dev/null 2>&1 &&
	grep -Eq '^ *<\.\.\.>-2 +1\.{5} +5\.000000000: funcgraph_entry: .*C\(\) \{' "$tmp/runs.report" &&
	grep -Eq '^ *<\.\.\.>-2 +1\.{5} +5\.000001000: funcgraph_entry: +1\.500 us +\|    D\(\);' "$tmp/runs.report" &&
	grep -Eq '^ *<\.\.\.>-1 +0\.{5} +6\.000001000: funcgraph_entry: +4\.000 us +\|  A\(\);' "$tmp/runs.report" &&
	grep -Eq '^ *<\.\.\.>-1 +0\.{5} +9006\.000001000: funcgraph_entry: +2\.000 us +\|  E\(\);' "$tmp/runs.report"
ok $? "runs end to end: the second 1 us after the first's last return; gaps of seconds and hours to the ns"

# 1,100 runs of 103 days each: more time than a trace-cmd timestamp
# holds (2^63 ns) end to end: said, nothing written, not an overflow.
for r in $(seq 1100); do
	echo "Kernel Instrumentation Run ID $r"
	echo "$hdr"
	echo "       0.000        1.000      1 A start 0"
	echo " 8900000000000.000        1.000      1 B start 0"
done > "$tmp/eons.log"
"$KD" --trace-cmd "$tmp/eons.dat" "$tmp/eons.log" > /dev/null 2> "$tmp/eons.err"
[ $? -eq 1 ] && [ ! -e "$tmp/eons.dat" ] && grep -q "take more than 146 years: not written" "$tmp/eons.err"
ok $? "runs end to end beyond 2^62 ns: an error, no file (and no overflow)"

# Refused: other outputs with it; a file that cannot be written changes nothing.
"$KD" --trace-cmd "$tmp/x.dat" -c $fx/kd/nested.log > /dev/null 2>&1
[ $? -eq 2 ] && [ ! -e "$tmp/x.dat" ]
ok $? "--trace-cmd with -c: refused (exit 2), nothing written"
"$KD" --trace-cmd "$tmp/x.dat" --chrome $fx/kd/nested.log > /dev/null 2>&1
[ $? -eq 2 ] && [ ! -e "$tmp/x.dat" ]
ok $? "--trace-cmd with --chrome: refused (exit 2), nothing written"
"$KD" --trace-cmd "$tmp/no/such/dir/x.dat" $fx/kd/nested.log > /dev/null 2> "$tmp/nodir.err"
[ $? -eq 1 ] && grep -q "no/such/dir/x.dat: No such file or directory" "$tmp/nodir.err"
ok $? "a file in a directory that does not exist: exit 1, the path and why"
mkdir "$tmp/isdir"
"$KD" --trace-cmd "$tmp/isdir" $fx/kd/nested.log > /dev/null 2> "$tmp/isdir.err"
[ $? -eq 1 ] && [ -d "$tmp/isdir" ] && [ -z "$(ls "$tmp/isdir")" ] &&
	[ "$(ls "$tmp" | grep -c '^isdir')" -eq 2 ] && grep -q "isdir" "$tmp/isdir.err"
ok $? "a directory as the file: exit 1, the directory untouched, no temporary file left"
cp "$tmp/hooks.dat" "$tmp/keep.dat"
"$KD" --trace-cmd "$tmp/keep.dat" "$tmp/nolog.log" > /dev/null 2>&1
[ $? -eq 1 ] && cmp -s "$tmp/hooks.dat" "$tmp/keep.dat"
ok $? "a log kd cannot read: an existing file left as it was"

tap_done
