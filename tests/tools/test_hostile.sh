#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host tools against inputs a hostile or unlucky user gives them, one
# class at a time, under ASan/UBSan: every case must end in output or a
# clear error (file:line where there is a line), never a crash, a hang, or
# wrong output with exit 0.  JSON and SVG are read back with real parsers.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
B=${BUILD:-build}/asan
KD=$B/kd A2S=$B/addr2sym S2A=$B/sym2addr MKR=$B/mkkftrun
fx=tests/tools/fixtures
tap_tmpdir
hdr='------------ ------------ ------ ------------ -------- ----'

# run NAME CMD...: CMD with a time limit; its status in $rc, output in
# $tmp/NAME.out and .err; a sanitizer report or a timeout fails the case.
run() {
	local name=$1
	shift
	timeout 60 "$@" > "$tmp/$name.out" 2> "$tmp/$name.err"
	rc=$?
	if [ $rc -eq 124 ] || grep -q 'Sanitizer\|runtime error' "$tmp/$name.err"; then
		sed 's/^/# /' "$tmp/$name.err" | head -20
		rc=99
	fi
}

json_ok() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1"; }
xml_ok() { python3 -c 'import xml.etree.ElementTree as E,sys; E.parse(sys.argv[1])' "$1"; }

# --- memory safety ----------------------------------------------------------
python3 - "$tmp" "$hdr" <<'PY'
import sys
d, hdr = sys.argv[1], sys.argv[2] + "\n"
w = lambda n, lines: open(f"{d}/{n}", "w").write(hdr + "".join(lines))
# 3,000 tasks, nested calls, on 4 CPUs
w("tasks.log", [f"{i*3}.000 2.000 {i+1} f{i%50} start {i%4}\n{i*3+1}.000 0.500 {i+1} g f{i%50}+0x4 {i%4}\n" for i in range(3000)])
# ... and as a boot (kd --boot refuses a log without the boot's functions)
w("tasks-boot.log", ["0.000 -1 0 start_kernel c 0\n"] + [f"{i*3}.000 2.000 {i+1} f{i%50} start {i%4}\n{i*3+1}.000 0.500 {i+1} g f{i%50}+0x4 {i%4}\n" for i in range(3000)])
w("bigtime.log", ["1e300 5.0 5 f c 0\n", "99999999999999999999.000 1.000 5 g c 0\n", "1.000 2.000 5 ok c 0\n"])
w("nan.log", ["nan 1.0 5 f c 0\n", "1.0 inf 5 g c 0\n", "2.0 -inf 5 h c 0\n", "3.000 1.000 5 ok c 0\n"])
w("bigcpu.log", ["1.000 2.000 5 f c 2000000000\n", "1.000 2.000 5.99999999999 g c\n", "2.000 1.000 5 ok c 3\n"])
w("deep.log", [f"{i}.000 {1000000-i}.000 5 f{i} c 0\n" for i in range(60000)])
w("opentasks.log", [f"{i}.000 -1 {i+1} f{i%7} c 0\n" for i in range(60000)])
PY
for m in "" -c "-c -i" "-c -r" "-c -i -r" --folded --chrome --svg --timeline --boot "--boot --svg"; do
	log=tasks
	case $m in --boot*) log=tasks-boot ;; esac
	run tasks "$KD" $m "$tmp/$log.log"
	[ $rc -eq 0 ]
	ok $? "3,000 tasks on 4 CPUs: kd ${m:-summary} is fine"
done
run tasks-c "$KD" -c "$tmp/tasks.log"
[ "$(grep -c '|  g$' "$tmp/tasks-c.out")" -eq 3000 ]
ok $? "3,000 tasks: each task's callee nests in its caller"
run missing "$KD" "$tmp/missing.log"
[ $rc -eq 1 ] && grep -q 'missing.log: No such file' "$tmp/missing.err"
ok $? "kd on a missing file: an error, exit 1"
run missing-diff "$KD" --diff "$tmp/missing.log" "$tmp/tasks.log"
[ $rc -eq 1 ] && grep -q 'missing.log: No such file' "$tmp/missing-diff.err"
ok $? "kd --diff with a missing file: an error, exit 1"
run deep-svg "$KD" --svg "$tmp/deep.log"
[ $rc -eq 1 ] && xml_ok "$tmp/deep-svg.out" && grep -q 'deeper than any kernel stack' "$tmp/deep-svg.err"
ok $? "60,000 levels of nesting: --svg draws (no recursion), says the log is deeper than a kernel stack"
run deep-c "$KD" -c "$tmp/deep.log"
[ $rc -eq 1 ] && [ "$(awk '{print length($0)}' "$tmp/deep-c.out" | sort -n | tail -1)" -lt 7000 ]
ok $? "60,000 levels: -c lines stay bounded (a tree per 2,048 levels)"
run bigcpu "$KD" -c "$tmp/bigcpu.log"
[ $rc -eq 1 ] && grep -q 'bigcpu.log:2: CPU number out of range' "$tmp/bigcpu.err" &&
	grep -q 'bigcpu.log:3: bad CPU after the pid' "$tmp/bigcpu.err" && grep -q ' ok$' "$tmp/bigcpu.out"
ok $? "CPU numbers beyond 65535 (either column): refused by line, not gigabytes of per-CPU state"
printf 'ffffffff81000000 T _text\nffffffff81001000 T f\n' > "$tmp/zero.map"
python3 - "$tmp/zero.elf" <<'PY'
import struct, sys
# a minimal ELF64 with a .symtab whose sh_entsize is 0
shstr = b"\0.symtab\0.strtab\0.shstrtab\0"
strtab = b"\0f\0"
sym = b"\0" * 24 + struct.pack("<IBBHQQ", 1, 0x12, 0, 1, 0xffffffff81001000, 16)
off_sym = 64; off_str = off_sym + len(sym); off_shs = off_str + len(strtab)
off_sh = (off_shs + len(shstr) + 7) & ~7
eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
eh += struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, 0, 0, off_sh, 0, 64, 0, 0, 64, 4, 3)
def sh(name, typ, off, size, link=0, ent=0):
    return struct.pack("<IIQQQQIIQQ", name, typ, 0, 0, off, size, link, 0, 1, ent)
shs = sh(0, 0, 0, 0) + sh(1, 2, off_sym, len(sym), 2, 0) + sh(9, 3, off_str, len(strtab)) + sh(17, 3, off_shs, len(shstr))
data = eh + sym + strtab + shstr
data += b"\0" * (off_sh - len(data)) + shs
open(sys.argv[1], "wb").write(data)
PY
printf -- '--------\n 1.0 2.0 1 0xffffffff81001000 0xffffffff81001010 0\n' > "$tmp/raw.log"
run zero-elf "$KD" -e "$tmp/zero.elf" "$tmp/raw.log"
[ $rc -eq 1 ] && grep -q 'bad symbol table (entry size 0)' "$tmp/zero-elf.err"
ok $? "-e with a .symtab of entry size 0: refused, no division by zero"
run zero-elf-a2s "$A2S" -e "$tmp/zero.elf" "$tmp/raw.log"
[ $rc -eq 1 ] && grep -q 'entry size 0' "$tmp/zero-elf-a2s.err"
ok $? "addr2sym -e with the same ELF: refused"
for m in "" -c "-c -i" --chrome --svg --timeline --boot; do
	run big "$KD" $m "$tmp/bigtime.log"
	# (--boot: not a boot, exit 2, after the lines are named)
	[ $rc -eq $([ "$m" = --boot ] && echo 2 || echo 1) ] && grep -q 'bigtime.log:2: bad entry time' "$tmp/big.err" &&
		grep -q 'bigtime.log:3: bad entry time' "$tmp/big.err" &&
		if [ "$m" = --boot ]; then grep -q 'not a boot' "$tmp/big.err"; else grep -q 'ok' "$tmp/big.out"; fi
	ok $? "times of 1e300 and 10^20 us: kd ${m:-summary} refuses the lines by number, ends, keeps the rest"
done

# --- termination and linear cost on hostile shapes ----------------------------
run open-i "$KD" -c -i "$tmp/opentasks.log"
[ $rc -eq 0 ] && [ "$(grep -c 'start ---' "$tmp/open-i.out")" -eq 59999 ]
ok $? "60,000 tasks with calls that never return: -c -i splices each, in time"
run open-tl "$KD" --timeline "$tmp/opentasks.log"
[ $rc -eq 0 ] && xml_ok "$tmp/open-tl.out"
ok $? "60,000 tasks: --timeline draws a lane each, valid SVG"

# --- silent wrong output --------------------------------------------------------
printf '%s\n' "$hdr" > "$tmp/names.log"
printf '1.000 10.000 5 f\xff\xfeo c 0\n2.000 1.000 5 ctl\x01\x1f\x7fx f+4 0\n3.000 1.000 5 q"<&>\x27\\ f+8 0\n4.000 1.000 5 cut\xe2\x82 f+c 0\n5.000 1.000 5 \xf0\x9f\x94\xa5fire f+10 0\n6.000 1.000 5 ok\xc3\xa9 f+14 0\n' >> "$tmp/names.log"
run names-json "$KD" --chrome "$tmp/names.log"
[ $rc -eq 0 ] && json_ok "$tmp/names-json.out" &&
	python3 - "$tmp/names-json.out" <<'PY'
import json, sys
names = [e["name"] for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
want = ["f\ufffd\ufffdo", "ctl\x01\x1f\x7fx", "q\"<&>'\\", "cut\ufffd\ufffd", "\U0001f525fire", "ok\u00e9"]
sys.exit(names != want)
PY
ok $? "--chrome: invalid UTF-8, control characters, quotes, cut characters: valid JSON, the names as they were where valid"
for m in --svg --timeline; do
	run names-svg "$KD" $m "$tmp/names.log"
	[ $rc -eq 0 ] && xml_ok "$tmp/names-svg.out" && grep -q 'q&quot;&lt;&amp;&gt;' "$tmp/names-svg.out"
	ok $? "$m: the same names give valid XML, escaped"
done
printf '%s\n' "$hdr" > "$tmp/boot-names.log"
printf '1.000 -1 0 start_kernel c 0\n2.000 90.000 1 do_one_initcall f 0\n3.000 80.000 1 q"<&>\x27\xff\x01 do_one_initcall+0x84 0\n4.000 9.000 1 sch<edule> q+0x4 0\n99.000 -1 1 to_userspace k 0\n' >> "$tmp/boot-names.log"
run boot-names "$KD" --boot --svg "$tmp/boot-names.log"
[ $rc -eq 0 ] && xml_ok "$tmp/boot-names.out" && grep -q 'q&quot;&lt;&amp;&gt;' "$tmp/boot-names.out"
ok $? "--boot --svg: an initcall named with XML's characters and bad bytes: valid XML, escaped"
run names-folded "$KD" --folded "$tmp/names.log"
[ $rc -eq 0 ] && [ "$(wc -l < "$tmp/names-folded.out")" -eq 6 ]
ok $? "--folded: one stack per name, whatever its bytes"
# ';' separates frames: a name with one must stay one frame, with a
# caller (2 frames) and alone (1), as flamegraph.pl splits them.
printf '%s\n' "$hdr" > "$tmp/semi.log"
printf '1.000 10.000 5 outer;x c 0\n2.000 4.000 5 in;ner outer;x+4 0\n20.000 3.000 5 ;;; c 0\n' >> "$tmp/semi.log"
run semi-folded "$KD" --folded "$tmp/semi.log"
[ $rc -eq 0 ] && awk '{ n = split($1, f, ";"); d[n]++ } END { exit !(NR == 3 && d[1] == 2 && d[2] == 1) }' "$tmp/semi-folded.out" &&
	grep -qx 'outer:x;in:ner 4000' "$tmp/semi-folded.out" && grep -qx ':::  *3000' "$tmp/semi-folded.out"
ok $? "--folded: a ';' in a name does not split its frame (written ':')"
run nan "$KD" -c "$tmp/nan.log"
[ $rc -eq 1 ] && [ "$(grep -c 'nan.log:[234]: bad' "$tmp/nan.err")" -eq 3 ] && grep -q ' ok$' "$tmp/nan.out" &&
	! grep -qi 'nan\|inf' "$tmp/nan.out"
ok $? "nan and inf times: refused by line; exit 1"
for t in kd a2s; do
	case $t in
	kd) run full sh -c "'$KD' $fx/kd/nested.log > /dev/full" ;;
	a2s) run full sh -c "'$A2S' -m $fx/System.map $fx/raw.log > /dev/full" ;;
	esac
	[ $rc -eq 1 ] && grep -qi 'No space left' "$tmp/full.err"
	ok $? "$t writing to a full disk (/dev/full): an error, exit 1"
done
run full-s2a sh -c "printf 'trigger start entry start_kernel\n' | '$S2A' - $fx/System.map > /dev/full"
[ $rc -ne 0 ] && grep -qi 'No space left' "$tmp/full-s2a.err"
ok $? "sym2addr writing to a full disk: an error"
# Numbers in options: empty, past their type, out of range, NaN and
# infinity are refused with exit 2 and the value named, never read as 0 or
# clamped (kd's --from nan, --pid past long, addr2sym's --offset '', -n -1
# in mkkftrun were taken).
while IFS='|' read -r tool opt val; do
	case $tool in
	kd) run opt "$KD" "$opt" "$val" $fx/kd/nested.log ;;
	a2s) run opt "$A2S" -m $fx/System.map "$opt" "$val" $fx/raw.log ;;
	mkr) run opt "$MKR" "$opt" "$val" kernel/kftstatic.conf "$tmp/opt.c" ;;
	esac
	[ $rc -eq 2 ] && [ ! -s "$tmp/opt.out" ] && grep -qF -- "'$val'" "$tmp/opt.err"
	ok $? "$tool $opt '$val': refused, exit 2, the value named"
done <<'OPTS'
kd|-n|
kd|-n|-1
kd|-n|99999999999999999999
kd|-n|3x
kd|-t|nan
kd|-t|-5
kd|-t| 7
kd|--from|nan
kd|--to|inf
kd|--from|1e999
kd|--pid|99999999999999999999
kd|--pid|2147483648
kd|--pid|-2
kd|--cpu|-1
kd|--cpu|
a2s|--offset|
a2s|--offset|0x
a2s|--offset|99999999999999999999999
a2s|--jobs|0
mkr|-n|-1
mkr|-n|0
mkr|-n|
mkr|-n|18446744073709551616
OPTS

# --help and --version, each tool's kft status too: a full disk is an
# error there as well (they used to exit 0).
for t in "$KD" "$A2S" "$S2A" "$MKR" "$B/kft"; do
	for o in --help --version; do
		run full-help sh -c "'$t' $o > /dev/full"
		[ $rc -eq 1 ] && grep -qi 'No space left' "$tmp/full-help.err" &&
			"$t" $o > /dev/null
		ok $? "$(basename "$t") $o to a full disk: an error, exit 1 (0 where it is written)"
	done
done
mkdir -p "$tmp/proc"
printf 'No logging run registered\n' > "$tmp/proc/kft"
run full-status sh -c "KFT_PROC='$tmp/proc' '$B/kft' status > /dev/full"
[ $rc -eq 1 ] && grep -qi 'No space left' "$tmp/full-status.err"
ok $? "kft status to a full disk: an error, exit 1"
for t in kd a2s; do
	case $t in
	kd) run dir "$KD" "$tmp" ;;
	a2s) run dir "$A2S" -m $fx/System.map "$tmp" ;;
	esac
	[ $rc -eq 1 ] && grep -q 'Is a directory' "$tmp/dir.err"
	ok $? "$t with a directory as the log: 'Is a directory', exit 1"
done
run dir-map "$KD" -m "$tmp" "$tmp/raw.log"
[ $rc -eq 1 ] && grep -q 'Is a directory' "$tmp/dir-map.err"
ok $? "a directory as the map: 'Is a directory', exit 1"
printf '%s\n10.000 5.000 5 late c 0\n1.000 20.000 5 early c 0\n2.000 3.000 5 inner early+4 0\n' "$hdr" > "$tmp/order.log"
run order "$KD" -c "$tmp/order.log"
[ $rc -eq 0 ] && grep -q 'order.log:3: entry time 1.000 is before the previous line' "$tmp/order.err" &&
	grep -q '^ *2 *3 *3 *5 |  inner$' "$tmp/order.out" && grep -q '^ *1 *20 *17 *5 early$' "$tmp/order.out"
ok $? "a log out of entry order: said with its line, a new run from there (no bogus nesting)"
run runs "$KD" -c -i -r "$tmp/order.log"
[ $rc -eq 0 ] && [ "$(grep -c 'start ---' "$tmp/runs.out")" -eq 0 ]
ok $? "-c -i -r on the same: runs not spliced into each other"
printf 'ffffffff81000000 T _text\r\nffffffff81001000 T start_kernel\r\nffffffff81001200 t rest_init\r\n' > "$tmp/crlf.map"
run crlf "$KD" -m "$tmp/crlf.map" -c "$tmp/raw.log"
[ $rc -eq 0 ] && grep -q ' start_kernel$' "$tmp/crlf.out" && ! grep -q $'\r' "$tmp/crlf.out"
ok $? "a System.map with CRLF line ends: names without the CR"
run crlf-a2s "$A2S" -m "$tmp/crlf.map" "$tmp/raw.log"
[ $rc -eq 0 ] && grep -q ' start_kernel ' "$tmp/crlf-a2s.out" && ! grep -q $'\r' "$tmp/crlf-a2s.out"
ok $? "addr2sym with the CRLF map: the same"
printf 'ffffffff81000000 T _text\nffffffff81001000 T start\0_kernel\nffffffff81001200 t rest_init\n' > "$tmp/nul.map"
run nul-map "$A2S" -m "$tmp/nul.map" "$tmp/raw.log"
[ $rc -eq 1 ] && grep -q 'nul.map:2: NUL byte' "$tmp/nul-map.err"
ok $? "a map with a NUL byte: refused with its line (it hid the rest of the line)"
printf '%s\n1.000 2.000 5 f\0hidden c 0\n2.000 1.000 5 ok c 0\n' "$hdr" > "$tmp/nul.log"
run nul-log "$KD" "$tmp/nul.log"
[ $rc -eq 1 ] && grep -q 'nul.log:2: NUL byte' "$tmp/nul-log.err" && grep -q '^ok ' "$tmp/nul-log.out" && ! grep -q '^f ' "$tmp/nul-log.out"
ok $? "a log line with a NUL byte: skipped with its line, exit 1"
printf '%s\n1.000 5.000 5 f c 0\n2.000 1.000 5 g f+4 0\n' "$hdr" > "$tmp/small.log"
run stdin sh -c "'$KD' -c - < '$tmp/small.log'"
[ $rc -eq 0 ] && grep -q '|  g$' "$tmp/stdin.out"
ok $? "kd reads '-' as standard input"
run stdin-a2s sh -c "'$A2S' -m $fx/System.map - < $fx/raw.log"
[ $rc -eq 0 ] && cmp -s "$tmp/stdin-a2s.out" $fx/resolved.expected
ok $? "addr2sym reads '-' as standard input"
run truncated sh -c "head -c 960 $fx/kd/original.log | '$KD' -c -"
[ $rc -eq 1 ] && grep -q '<stdin>:[0-9]*: ' "$tmp/truncated.err" && [ -s "$tmp/truncated.out" ]
ok $? "a log cut mid-line: the last line refused by number, the rest shown, exit 1"
printf '%s\n' "$hdr" > "$tmp/many-bad.log"
for i in $(seq 100); do echo "garbage $i" >> "$tmp/many-bad.log"; done
run many-bad "$KD" "$tmp/many-bad.log"
[ $rc -eq 1 ] && [ "$(wc -l < "$tmp/many-bad.err")" -le 23 ] && grep -q '100 warnings in all' "$tmp/many-bad.err"
ok $? "100 bad lines: 20 warnings, then a count"

# Tracks: pid 0 on two CPUs is two idle tasks; a pid of 1000000 (the
# interrupts' old track id) and one of 2^31-1 are tasks, not interrupts;
# extra words after the CPU column do not make the CPU -1.
printf '%s\n' "$hdr" > "$tmp/tracks.log"
printf '1.000 5.000 0 idle0 c 0\n1.000 5.000 0 idle1 c 1\n2.000 1.000 1000000 big c 1\n3.000 1.000 -1 irq c 1\n4.000 1.000 2147483647 huge c 0\n6.000 1.000 7 extra c 1 some words\n' >> "$tmp/tracks.log"
run tracks "$KD" --chrome "$tmp/tracks.log"
[ $rc -le 1 ] && json_ok "$tmp/tracks.out" && python3 - "$tmp/tracks.out" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
tname = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
x = {e["name"]: e for e in ev if e["ph"] == "X"}
assert x["idle0"]["tid"] != x["idle1"]["tid"], "pid 0 of two CPUs on one track"
assert tname[x["idle0"]["tid"]] == "swapper/0 (pid 0)" and tname[x["idle1"]["tid"]] == "swapper/1 (pid 0)", tname
assert x["big"]["tid"] == 1000000 and x["huge"]["tid"] == 2147483647, x
assert tname[x["irq"]["tid"]] == "interrupts, CPU 1", tname
assert len({x[n]["tid"] for n in ("idle0", "idle1", "big", "irq", "huge", "extra")}) == 6
assert x["extra"]["cat"] == "cpu1", x["extra"]
PY
ok $? "--chrome: pid 0 a track per CPU, large pids never on the interrupts' track, the CPU with extra words after it"
grep -q 'tracks.log:7: .*extra words' "$tmp/tracks.err"
ok $? "extra words after the CPU column: a warning with the line"
run tracks-svg "$KD" --timeline "$tmp/tracks.log"
[ $rc -le 1 ] && xml_ok "$tmp/tracks-svg.out" && grep -q '>pid 0, CPU 0<' "$tmp/tracks-svg.out" &&
	grep -q '>pid 0, CPU 1<' "$tmp/tracks-svg.out" && grep -q '>pid 1000000<' "$tmp/tracks-svg.out" &&
	grep -q '>irq CPU 1<' "$tmp/tracks-svg.out"
ok $? "--timeline: a lane for each CPU's pid 0, large pids their own, interrupts per CPU"
# kd --boot: names are whole.  Two initcalls alike in their first 100
# bytes were cut at 79 and merged into one row by --diff.
long=$(printf 'x%.0s' $(seq 100))
for v in a b; do
	{ echo "$hdr"; printf '1.000 -1 0 start_kernel c 0\n2.000 90.000 1 do_one_initcall f 0\n3.000 80.000 1 %s_%s do_one_initcall+0x84 0\n99.000 -1 1 to_userspace k 0\n' "$long" "$v"; } > "$tmp/long-$v.log"
done
run long-diff "$KD" --boot --diff "$tmp/long-a.log" "$tmp/long-b.log"
[ $rc -eq 0 ] && grep -q "${long}_a" "$tmp/long-diff.out" && grep -q "${long}_b" "$tmp/long-diff.out"
ok $? "kd --boot --diff: initcalls alike in their first 100 bytes are two rows, named whole"
# Initcalls after to_userspace (a module's init once user space runs):
# not the boot's.  They drew at negative widths and were counted in the
# report's total but not listed.
{ echo "$hdr"; printf '1.000 -1 0 start_kernel c 0\n2.000 40.000 1 do_one_initcall f 0\n3.000 30.000 1 early_init do_one_initcall+0x84 0\n99.000 -1 1 to_userspace k 0\n150.000 60.000 77 do_one_initcall do_init_module+0x5 0\n151.000 50.000 77 mod_init do_one_initcall+0x84 0\n'; } > "$tmp/late.log"
run late "$KD" --boot "$tmp/late.log"
[ $rc -eq 0 ] && grep -q '(1 in the log' "$tmp/late.out" && grep -q '^(and 1 after the first user program' "$tmp/late.out" &&
	! grep -q mod_init "$tmp/late.out"
ok $? "kd --boot: an initcall after the first user program is said, not counted as the boot's"
run late-svg "$KD" --boot --svg "$tmp/late.log"
[ $rc -eq 0 ] && xml_ok "$tmp/late-svg.out" && ! grep -q '\(width\|x\)="-' "$tmp/late-svg.out"
ok $? "kd --boot --svg: no negative width or position for it"
# --- mkkftrun -------------------------------------------------------------------
{ echo 'trigger start entry start_kernel'; echo 'filter funclist'; for i in $(seq 1025); do echo " f$i"; done; echo fend; } > "$tmp/many.conf"
run many "$MKR" "$tmp/many.conf" "$tmp/out.c"
[ $rc -eq 1 ] && grep -q 'many.conf:1027: error: more than a boot run holds' "$tmp/many.err" && [ ! -e "$tmp/out.c" ]
ok $? "mkkftrun: a funclist of 1,025 names (more than the boot takes) is refused at build time"
{ echo 'filter funclist'; for i in $(seq 1024); do echo " a_longish_kernel_function_name_$i"; done; echo fend; } > "$tmp/max.conf"
run max "$MKR" "$tmp/max.conf" "$tmp/out.c"
[ $rc -eq 0 ] && [ -s "$tmp/out.c" ]
ok $? "mkkftrun: 1,024 names, as the documentation promises, are taken"
printf 'trigger start entry start_kernel\0\nfilter mintime 5\n' > "$tmp/nul.conf"
run nul-conf "$MKR" "$tmp/nul.conf" "$tmp/nul.c"
[ $rc -eq 1 ] && grep -q 'nul.conf:1: error: NUL byte' "$tmp/nul-conf.err" && [ ! -e "$tmp/nul.c" ]
ok $? "mkkftrun: a NUL byte (the boot would drop what follows) is refused with its line"
printf 'trigger start entry start_kernel\n' > "$tmp/ok.conf"
run comment "$MKR" -N 'evil */ int x; /*' "$tmp/ok.conf" "$tmp/comment.c"
[ $rc -eq 0 ] && ! grep -q 'evil' <(sed -n '1,/\*\//p' "$tmp/comment.c") &&
	gcc -fsyntax-only -Iinclude -include stddef.h -D__initconst= -x c - < <(grep -v '#include' "$tmp/comment.c")
ok $? "mkkftrun -N with '*/': not in a comment; the C compiles"
run proc "$MKR" /proc/self/status "$tmp/proc.c"
[ $rc -eq 1 ] && grep -q "/proc/self/status:1: error: 'Name:': unknown keyword" "$tmp/proc.err"
ok $? "mkkftrun reads a /proc file to its end (not by its size 0)"
run pipe sh -c "cat '$tmp/ok.conf' | '$MKR' - '$tmp/pipe.c'"
[ $rc -eq 0 ] && grep -q 'start_kernel' "$tmp/pipe.c"
ok $? "mkkftrun reads a pipe ('-')"
# An output that is not a regular file is written in place: renamed over,
# a device node or FIFO itself would be replaced (as root, /dev/null).
mkfifo "$tmp/out.fifo"
timeout 20 cat "$tmp/out.fifo" > "$tmp/fifo.c" &
run fifo "$MKR" "$tmp/ok.conf" "$tmp/out.fifo"
wait
[ $rc -eq 0 ] && [ -p "$tmp/out.fifo" ] && grep -q 'start_kernel' "$tmp/fifo.c" && [ ! -e "$tmp/out.fifo.tmp" ]
ok $? "mkkftrun to a FIFO: written through it, the FIFO left a FIFO"
if mknod "$tmp/null" c 1 3 2>/dev/null; then
	run dev "$MKR" "$tmp/ok.conf" "$tmp/null"
	[ $rc -eq 0 ] && [ -c "$tmp/null" ]
	ok $? "mkkftrun to a device node (a /dev/null made here): the node left as it was"
else
	echo "ok - # SKIP mknod needs root: mkkftrun to a device node"
fi
# --- console captures (kft_dump=) -------------------------------------------
# Tags in tags, 100,000 deep: a capture is taken apart once (addr2sym
# recursed a level a tag, to a stack overflow), and what is in it is no
# log: said, exit 1, copied through.
python3 -c "import sys; sys.stdout.write('kft_dump begin: run 1, 1 calls, at panic\n' + 'kft_dump: ' * 100000 + 'x\nkft_dump end: run 1, 1 lines\n')" > "$tmp/nest.log"
run nest "$A2S" -m $fx/System.map "$tmp/nest.log"
[ $rc -eq 1 ] && grep -q 'no KFT log in it' "$tmp/nest.err" && [ "$(wc -c < "$tmp/nest.out")" -gt 900000 ]
ok $? "addr2sym: 100,000 nested kft_dump tags: no recursion, 'no KFT log in it', exit 1"
run nest-kd "$KD" -m $fx/System.map "$tmp/nest.log"
[ $rc -le 1 ]
ok $? "kd: 100,000 nested kft_dump tags: a warning at most, no crash"
printf 'Run still armed: write stop to /proc/kft first\n' > "$tmp/notlog.txt"
run notlog "$A2S" -m $fx/System.map "$tmp/notlog.txt"
[ $rc -eq 1 ] && grep -q 'notlog.txt: no KFT log in it (no column header line): copied as it is' "$tmp/notlog.err" &&
	cmp -s "$tmp/notlog.txt" "$tmp/notlog.out"
ok $? "addr2sym on text that is no log: copied, said, exit 1 (it was copied without a word)"
python3 - "$tmp" "$hdr" <<'PY'
import sys
d, hdr = sys.argv[1], sys.argv[2]
line = " 1.000 2.000 5 0xffffffff81001000 0xffffffff81000040 0"
def cap(name, body):
    open(f"{d}/{name}", "wb").write(body)
# the end line's count out of range, a begin line with no run id
cap("c-huge.log", b"kft_dump begin: run x\nkft_dump: " + hdr.encode() + b"\nkft_dump: " + line.encode() +
    b"\nkft_dump end: run 0, 99999999999999999999999999 lines\n")
# NUL bytes before, inside and after the tag
cap("c-nul.log", b"kft_dump begin: run 1\nkft_dump: " + hdr.encode() + b"\n\0kft_dump: " + line.encode() +
    b"\nkft_\0dump: x\nkft_dump: " + line.encode() + b"\0tail\nkft_dump end: run 1, 4 lines\n")
# 20,000 dumps of one line each, begin lines without end lines
cap("c-many.log", b"".join(b"[ 1.0] kft_dump begin: run %d, 1 calls\r\nkft_dump: %s\r\nkft_dump: %s\r\n" %
    (i, hdr.encode(), line.encode()) for i in range(20000)))
# a tag alone, tags in tags, a 1 MB line behind the tag
cap("c-odd.log", b"kft_dump\nkft_dump:\nkft_dump: kft_dump: kft_dump end: run 1, 1 lines\n" +
    b"kft_dump: " + b"x" * 1000000 + b"\nkft_dump end: run 1, 1 lines\n")
PY
for c in huge nul many odd; do
	run "c-$c-kd" "$KD" -m $fx/System.map "$tmp/c-$c.log"
	rc_kd=$rc
	run "c-$c-a2s" "$A2S" -m $fx/System.map "$tmp/c-$c.log"
	[ $rc_kd -le 1 ] && [ $rc -le 1 ] && [ -s "$tmp/c-$c-kd.err" ] && [ -s "$tmp/c-$c-a2s.err" ]
	ok $? "console capture $c: kd and addr2sym warn and finish ($(head -n 1 "$tmp/c-$c-kd.err" | sed "s|$tmp/||" | cut -c1-80))"
done
grep -q "c-huge.log:4: a dump's end line without its run id and line count" "$tmp/c-huge-kd.err" &&
	grep -q "c-huge.log:1: a dump's begin line without a run id" "$tmp/c-huge-kd.err"
ok $? "console capture: a count beyond 64 bits and a begin line without a run id are said, by line"
grep -q "c-many.log: 20000 warnings in all" "$tmp/c-many-kd.err" &&
	[ "$(grep -c "dump has no end line" "$tmp/c-many-a2s.err")" = 20 ] &&
	grep -q "c-many.log: further problems of the capture not shown" "$tmp/c-many-a2s.err" &&
	[ "$(grep -c "^ *1.000 *2.000 *5 *start_kernel" "$tmp/c-many-a2s.out")" = 20000 ]
ok $? "console capture: 20,000 dumps without end lines, each counted (20 said); every line still read"
# --- ELF files and symbol maps -----------------------------------------------
# A real ELF built here, then cut and patched: addr2sym -e, sym2addr -e and
# kd -e each refuse it naming the file and what is wrong (libelf reads a
# truncated file as one without sections: "no function symbols" before).
printf 'void start_kernel(void) {}\nint main(void) { start_kernel(); return 0; }\n' > "$tmp/k.c"
cc -o "$tmp/k.elf" "$tmp/k.c"
printf 'trigger start entry start_kernel\n' > "$tmp/k.conf"
# patch IN OUT SECTION FIELD VALUE: a field of a section's header (ELF64 LE)
patch() {
	python3 - "$@" <<'PY'
import struct, sys
src, dst, name, field, val = sys.argv[1], sys.argv[2], sys.argv[3].encode(), sys.argv[4], int(sys.argv[5], 0)
b = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)
stroff, = struct.unpack_from("<Q", b, shoff + shstrndx * shentsize + 0x18)
off, fmt = {"offset": (0x18, "Q"), "size": (0x20, "Q"), "link": (0x28, "I")}[field]
for i in range(shnum):
    h = shoff + i * shentsize
    n, = struct.unpack_from("<I", b, h)
    if b[stroff + n:].split(b"\0")[0] == name:
        struct.pack_into("<" + fmt, b, h + off, val)
        break
else:
    sys.exit("no section " + name.decode())
open(dst, "wb").write(b)
PY
}
# elf_refused WHAT FILE MESSAGE: each tool says "FILE: MESSAGE", exit 1
elf_refused() {
	local what=$1 f=$2 msg=$3 t
	for t in addr2sym sym2addr kd; do
		case $t in
		addr2sym) run "elf-$t" "$A2S" -e "$f" $fx/raw.log ;;
		sym2addr) run "elf-$t" "$S2A" -e "$f" "$tmp/k.conf" ;;
		kd) run "elf-$t" "$KD" -e "$f" $fx/raw.log ;;
		esac
		[ $rc -eq 1 ] && grep -qF -e "$f: $msg" "$tmp/elf-$t.err" && [ ! -s "$tmp/elf-$t.out" ]
		ok $? "$t -e $what: '$msg', exit 1"
	done
}
size=$(stat -c %s "$tmp/k.elf") shnum=$(od -An -tu2 -j60 -N2 "$tmp/k.elf" | tr -d " ")
: > "$tmp/empty.elf"
elf_refused "an empty file" "$tmp/empty.elf" "an empty file, not an ELF file"
head -c 3 "$tmp/k.elf" > "$tmp/cut3.elf"
elf_refused "3 bytes of ELF magic" "$tmp/cut3.elf" "not an ELF file"
head -c 10 "$tmp/k.elf" > "$tmp/cut10.elf"
elf_refused "cut within e_ident" "$tmp/cut10.elf" "a truncated ELF file (10 bytes, within its ELF header)"
head -c 40 "$tmp/k.elf" > "$tmp/cut40.elf"
elf_refused "cut within its header" "$tmp/cut40.elf" "a truncated ELF file (40 bytes, within its 64-byte ELF header)"
head -c 2000 "$tmp/k.elf" > "$tmp/cut2000.elf"
elf_refused "cut before its section headers" "$tmp/cut2000.elf" "a truncated or corrupt ELF file: its section headers start past its end (2000 bytes)"
head -c $((size - 100)) "$tmp/k.elf" > "$tmp/cutend.elf"
elf_refused "cut within its section headers" "$tmp/cutend.elf" "a truncated or corrupt ELF file: $shnum section headers run past its end ($((size - 100)) bytes)"
patch "$tmp/k.elf" "$tmp/symoff.elf" .symtab offset 0x1000000
elf_refused "whose symbol table starts past its end" "$tmp/symoff.elf" "a truncated or corrupt ELF file: its symbol table (section"
patch "$tmp/k.elf" "$tmp/symsize.elf" .symtab size 0x7ffffffffffff0
elf_refused "whose symbol table runs past its end" "$tmp/symsize.elf" "a truncated or corrupt ELF file: its symbol table (section"
patch "$tmp/k.elf" "$tmp/stroff.elf" .strtab size 0x1000000
elf_refused "whose names run past its end" "$tmp/stroff.elf" "a truncated or corrupt ELF file: the symbol table's names (section"
patch "$tmp/k.elf" "$tmp/strlink.elf" .symtab link 0
elf_refused "whose symbol table links to no string table" "$tmp/strlink.elf" "a corrupt ELF file: the symbol table's names (section 0) are no string table"
patch "$tmp/k.elf" "$tmp/strcut.elf" .strtab size 3
elf_refused "with names outside its string table" "$tmp/strcut.elf" "a corrupt ELF file: symbol"
strip -o "$tmp/stripped.elf" "$tmp/k.elf"
elf_refused "stripped" "$tmp/stripped.elf" "no symbol table (a stripped file?)"
mkdir -p "$tmp/dir.elf"
elf_refused "a directory" "$tmp/dir.elf" "Is a directory"
mkfifo "$tmp/fifo.elf"
elf_refused "a FIFO (it hung, waiting for a writer)" "$tmp/fifo.elf" "not a regular file"
elf_refused "'-'" "-" "an ELF file is read by its name, not from standard input"
run elf-ok "$A2S" -e "$tmp/k.elf" $fx/raw.log
[ $rc -eq 0 ] && [ -s "$tmp/elf-ok.out" ]
ok $? "the ELF before it was cut: read (the refusals are the cuts')"
# A symbol named the prefix alone ("__initcall", last of the names, which
# libelf's table ends with) was read past its NUL: a heap overflow in
# every tool that reads the initcall table.
cat > "$tmp/initcall.s" <<'S'
.text
nop
.globl start_kernel
.type start_kernel,@function
start_kernel: ret
.size start_kernel,1
.data
.quad 0
.globl __initcall_start
__initcall_start: .quad 0
.globl __initcall
__initcall: .quad 0
S
cc -c -o "$tmp/initcall.o" "$tmp/initcall.s"
run ic-s2a "$S2A" -e "$tmp/initcall.o" "$tmp/k.conf"
[ $rc -eq 0 ] && grep -q 'trigger start entry 0x1$' "$tmp/ic-s2a.out"
ok $? "sym2addr -e: a symbol named '__initcall' alone is no entry (it was read past its end)"
run ic-a2s "$A2S" -e "$tmp/initcall.o" $fx/raw.log
[ $rc -eq 0 ]
ok $? "addr2sym -e: the same ELF"
run ic-kd "$KD" --boot -e "$tmp/initcall.o" $fx/kd/boot.log
[ $rc -le 1 ]
ok $? "kd --boot -e: the same ELF"
printf 'ffffffff81000000 T _text\nffffffff81001000 T start_kernel\nffffffff81002000 d __initcall_start\nffffffff81002008 d __initcall\nffffffff81002010 d __initcall_\nffffffff81002018 d __initcall__\nffffffff81002020 d __initcall__kmod_\nffffffff81002028 d __initcall_end\n' > "$tmp/ic.map"
run ic-map "$S2A" "$tmp/k.conf" "$tmp/ic.map"
[ $rc -eq 0 ] && grep -q 'trigger start entry 0xffffffff81001000$' "$tmp/ic-map.out"
ok $? "a map with '__initcall', '__initcall_', '__initcall__kmod_' (prefixes alone): read"

# Lines ended by a lone CR (a map or config saved by a tool that writes CR
# alone) are lines: read, and numbered as lines in messages.
tr '\n' '\r' < $fx/System.map > "$tmp/cr.map"
run cr-map "$A2S" -m "$tmp/cr.map" $fx/raw.log
[ $rc -eq 0 ] && cmp -s "$tmp/cr-map.out" $fx/resolved.expected
ok $? "addr2sym -m with a map of CR line ends: the same names as with LF"
run lf-map-kd "$KD" -m $fx/System.map -c $fx/raw.log
run cr-map-kd "$KD" -m "$tmp/cr.map" -c $fx/raw.log
grep -q 'start_kernel' "$tmp/cr-map-kd.out" && cmp -s "$tmp/cr-map-kd.out" "$tmp/lf-map-kd.out"
ok $? "kd -m with the same map"
printf 'ffffffff81000000 T _text\rffffffff81001000 T start_kernel\r\rnot a map line\r' > "$tmp/crbad.map"
for t in addr2sym kd sym2addr; do
	case $t in
	addr2sym) run crbad "$A2S" -m "$tmp/crbad.map" $fx/raw.log ;;
	kd) run crbad "$KD" -m "$tmp/crbad.map" $fx/raw.log ;;
	sym2addr) run crbad "$S2A" "$tmp/k.conf" "$tmp/crbad.map" ;;
	esac
	[ $rc -eq 1 ] && grep -q 'crbad.map:4: not a symbol map line' "$tmp/crbad.err"
	ok $? "$t: a bad line of a CR-ended map is named by its line (4, not 1)"
done
printf 'ffffffff81000000 T _text\r\nffffffff81001000 T start\0_kernel\r\n' > "$tmp/crnul.map"
run crnul "$A2S" -m "$tmp/crnul.map" $fx/raw.log
[ $rc -eq 1 ] && grep -q 'crnul.map:2: NUL byte' "$tmp/crnul.err"
ok $? "a NUL in a CR LF map: its line counted once per CR LF"
printf '# first\rtrigger start entry start_kernel\r# a comment\rtrigger stop exit nosuch\r' > "$tmp/cr.conf"
run cr-conf "$S2A" "$tmp/cr.conf" $fx/System.map
[ $rc -eq 1 ] && grep -q 'cr.conf:4: .nosuch.' "$tmp/cr-conf.err"
ok $? "sym2addr: a CR-ended config's error names its line (4: a '#' hid the rest of the file)"
printf '# first\rtrigger start entry start_kernel\r' > "$tmp/cr2.conf"
run cr-conf2 "$S2A" "$tmp/cr2.conf" $fx/System.map
[ $rc -eq 0 ] && grep -q '^trigger start entry 0xffffffff8[0-9a-f]*$' "$tmp/cr-conf2.out" && ! grep -q $'\r' "$tmp/cr-conf2.out"
ok $? "sym2addr: a CR-ended config is written with newlines (the kernel reads lines by them)"
printf 'new\r# c\rtrigger start entry foo\rbogus\rend\r' > "$tmp/cr-run.conf"
run cr-mkr "$MKR" "$tmp/cr-run.conf" "$tmp/cr-run.c"
[ $rc -eq 1 ] && grep -q 'cr-run.conf:4: error: .bogus.: unknown keyword' "$tmp/cr-mkr.err"
ok $? "mkkftrun: a CR-ended config's error names its line"
printf 'new\rtrigger start entry foo\rend\r' > "$tmp/cr-run.conf"
run cr-mkr "$MKR" "$tmp/cr-run.conf" "$tmp/cr-run.c"
[ $rc -eq 0 ] && grep -q '"trigger start entry foo\\n"' "$tmp/cr-run.c"
ok $? "mkkftrun: a CR-ended config compiled in by lines (a '#' at boot would hide the rest)"

# Inputs that conflict: '-' twice, an output that is an input, a
# directory or an empty file where a file is expected.
run stdin2 sh -c "'$S2A' - - < '$tmp/k.conf'"
[ $rc -eq 2 ] && grep -q 'the config and the map cannot both be standard input' "$tmp/stdin2.err"
ok $? "sym2addr - -: refused, exit 2 (the map read the config's rest)"
run stdin2m sh -c "'$S2A' -m - - < '$tmp/k.conf'"
[ $rc -eq 2 ] && grep -q 'cannot both be standard input' "$tmp/stdin2m.err"
ok $? "sym2addr -m - -: the same"
run stdin2a sh -c "'$A2S' -m - < $fx/raw.log"
[ $rc -eq 2 ] && grep -q 'the map and the log cannot both be standard input' "$tmp/stdin2a.err"
ok $? "addr2sym -m - with the log on standard input: refused, exit 2"
run stdin2b sh -c "'$A2S' -m - - < $fx/raw.log"
[ $rc -eq 2 ] && grep -q 'cannot both be standard input' "$tmp/stdin2b.err"
ok $? "addr2sym -m - -: the same"
run dir-conf "$S2A" "$tmp/dir.elf" $fx/System.map
[ $rc -eq 1 ] && grep -q 'dir.elf: Is a directory' "$tmp/dir-conf.err" && [ ! -s "$tmp/dir-conf.out" ]
ok $? "sym2addr with a directory as the config: 'Is a directory', exit 1 (it wrote 'new end', exit 0)"
run empty-conf "$S2A" "$tmp/empty.elf" $fx/System.map
[ $rc -eq 1 ] && grep -q 'empty.elf: an empty file, no config' "$tmp/empty-conf.err" && [ ! -s "$tmp/empty-conf.out" ]
ok $? "sym2addr with an empty config: refused (it wrote 'new end', exit 0)"
for t in addr2sym kd sym2addr; do
	case $t in
	addr2sym) run empty-map "$A2S" -m "$tmp/empty.elf" $fx/raw.log ;;
	kd) run empty-map "$KD" -m "$tmp/empty.elf" $fx/raw.log ;;
	sym2addr) run empty-map "$S2A" "$tmp/k.conf" "$tmp/empty.elf" ;;
	esac
	[ $rc -eq 1 ] && grep -q 'empty.elf: an empty file, no symbols' "$tmp/empty-map.err"
	ok $? "$t with an empty map: 'an empty file', exit 1"
done
run dir-map-s2a "$S2A" "$tmp/k.conf" "$tmp/dir.elf"
[ $rc -eq 1 ] && grep -q 'Is a directory' "$tmp/dir-map-s2a.err"
ok $? "sym2addr with a directory as the map: 'Is a directory', exit 1"
mkfifo "$tmp/fifo.map"
run fifo-map sh -c "cat $fx/System.map > '$tmp/fifo.map' & '$A2S' -m '$tmp/fifo.map' $fx/raw.log"
[ $rc -eq 0 ] && cmp -s "$tmp/fifo-map.out" $fx/resolved.expected
ok $? "a map from a FIFO (a pipe, <(...)): read"
cp $fx/raw.log "$tmp/self.log"
run self "$A2S" -m $fx/System.map -o "$tmp/self.log" "$tmp/self.log"
[ $rc -eq 2 ] && grep -q 'self.log: the output would replace an input' "$tmp/self.err" && cmp -s "$tmp/self.log" $fx/raw.log
ok $? "addr2sym -o LOG LOG: refused, the log kept (it was emptied, then read as empty)"
ln -s self.log "$tmp/link.log"
run self-link "$A2S" -m $fx/System.map -o "$tmp/link.log" "$tmp/self.log"
[ $rc -eq 2 ] && cmp -s "$tmp/self.log" $fx/raw.log
ok $? "addr2sym -o through a link to the log: the same"
cp $fx/System.map "$tmp/self.map"
run self-map "$S2A" -o "$tmp/self.map" "$tmp/k.conf" "$tmp/self.map"
[ $rc -eq 2 ] && grep -q 'the output would replace an input' "$tmp/self-map.err" && cmp -s "$tmp/self.map" $fx/System.map
ok $? "sym2addr -o MAP: refused, the map kept"
cp "$tmp/k.conf" "$tmp/self.conf"
run self-mkr "$MKR" "$tmp/self.conf" "$tmp/self.conf"
[ $rc -eq 2 ] && grep -q 'the output would replace the config' "$tmp/self-mkr.err" && cmp -s "$tmp/self.conf" "$tmp/k.conf"
ok $? "mkkftrun CONF CONF: refused, the config kept (it became its own C)"
run mkr-stdout sh -c "'$MKR' - - < '$tmp/k.conf'"
[ $rc -eq 0 ] && grep -q '"trigger start entry start_kernel\\n"' "$tmp/mkr-stdout.out" && [ ! -e ./- ]
ok $? "mkkftrun - -: standard input to standard output (it wrote a file named '-')"

# --- kd: numbers that are no KFT time, columns that are no CPU ---------------
# KFT writes times as decimal microseconds and the CPU as a number: hex, an
# exponent, a sign, or a word there is a malformed line, named by its line
# number and left out (exit 1), never read silently as some other number.
printf -- '%s\n' "$hdr" \
	'      1.000        5.000      7            f   caller    0' \
	'      0x10        5.000      7            g   caller    0' \
	'       1e1        5.000      7            h   caller    0' \
	'      20.000         0x5      7            i   caller    0' \
	'      30.000        5e0      7            j   caller    0' \
	'      40.000        +5       7            k   caller    0' \
	'      +50          5.000      7            l   caller    0' \
	'      60.000        5.000      7            m   caller    x' \
	'      70.000        5.000      7            n   caller   +1' \
	'      80.000        5.000      7            o   caller   -1' \
	'      90.000        5.000      7            p   caller  0x1' \
	'     100.000        5.000      7            q   caller    1' > "$tmp/nums.log"
for m in "" -c --chrome; do
	run nums "$KD" $m "$tmp/nums.log"
	[ $rc -eq 1 ] &&
		grep -q "nums.log:3: bad entry time '0x10': not a decimal number" "$tmp/nums.err" &&
		grep -q "nums.log:4: bad entry time '1e1'" "$tmp/nums.err" &&
		grep -q "nums.log:5: bad duration '0x5'" "$tmp/nums.err" &&
		grep -q "nums.log:6: bad duration '5e0'" "$tmp/nums.err" &&
		grep -q "nums.log:7: bad duration '+5'" "$tmp/nums.err" &&
		grep -q "nums.log:8: bad entry time '+50'" "$tmp/nums.err" &&
		grep -q "nums.log:9: CPU column 'x' is not a CPU number; line skipped" "$tmp/nums.err" &&
		grep -q "nums.log:10: CPU column '+1' is not a CPU number" "$tmp/nums.err" &&
		grep -q "nums.log:11: CPU column '-1' is not a CPU number" "$tmp/nums.err" &&
		grep -q "nums.log:12: CPU column '0x1' is not a CPU number" "$tmp/nums.err" &&
		[ "$(grep -c 'line skipped' "$tmp/nums.err")" = 10 ] &&
		grep -q '\bf\b' "$tmp/nums.out" && grep -q '\bq\b' "$tmp/nums.out" &&
		! grep -q '\b[g-p]\b' "$tmp/nums.out"
	ok $? "kd ${m:-summary}: hex, exponent and signed times, a CPU column that is no number: each line named and left out, exit 1"
done

# Two logs in one file, the second with its header but without the "Kernel
# Instrumentation Run ID" line (the original's sample, a hand-cut log): its
# dashed line ends the first log's data, the lines before it are its header
# (not bad lines), and its calls are a new run, as the first log's are.
cat $fx/kd/original-irq.log $fx/kd/original-irq.log > "$tmp/twolog.log"
run twolog "$KD" -c "$tmp/twolog.log"
run onelog "$KD" -c $fx/kd/original-irq.log
[ $rc -eq 0 ] && [ ! -s "$tmp/twolog.err" ] &&
	diff -u <(cat "$tmp/onelog.out"; tail -n +3 "$tmp/onelog.out") "$tmp/twolog.out"
ok $? "two logs in one file, headers and all: the second header read as one, each log a run, no warning"
# With a hook cost in the second header: its lines are compensated by it.
{ printf -- '%s\n 0.000 1.000 5 a b 0\n\nsecond log\n' "$hdr"
  grep -v '^Kernel Instrumentation Run ID' $fx/kd/hooks.log; } > "$tmp/twocost.log"
run twocost "$KD" "$tmp/twocost.log"
run onecost "$KD" $fx/kd/hooks.log
[ $rc -eq 0 ] && grep -q "compensated" "$tmp/onecost.out" &&
	[ "$(grep -v '^times:\|^a ' "$tmp/twocost.out" | grep -v '^-' | sort)" = "$(grep -v '^times:' "$tmp/onecost.out" | grep -v '^-' | sort)" ] &&
	! grep -q 'line skipped' "$tmp/twocost.err"
ok $? "a second log's header without its Run ID line: its hook cost is its calls' (lines as compensated as read alone)"
# A line that starts with a number before the second header is no header's.
{ printf -- '%s\n 0.000 1.000 5 a b 0\n 0x10 1.000 5 c a+0x1 0\n' "$hdr"
  grep -v '^Kernel Instrumentation Run ID' $fx/kd/hooks.log; } > "$tmp/twobad.log"
run twobad "$KD" "$tmp/twobad.log"
[ $rc -eq 1 ] && grep -q "twobad.log:3: bad entry time '0x10'" "$tmp/twobad.err" &&
	[ "$(grep -c 'line skipped' "$tmp/twobad.err")" = 1 ]
ok $? "a malformed data line just before a second header: still named, exit 1"
# Lines that are no data between two runs' data, with no header after them:
# bad lines after all, each named.
printf -- '%s\n 1.0 2.0 5 a b 0\nsome words here and there\n 3.0 1.0 5 c a+0x1 0\n' "$hdr" > "$tmp/words.log"
run words "$KD" "$tmp/words.log"
[ $rc -eq 1 ] && grep -q "words.log:3: bad entry time 'some'" "$tmp/words.err"
ok $? "a line of words among the data, no header after it: named, exit 1"

# --- kd: options that contradict each other or say nothing -------------------
for pair in "-c --folded" "--folded -c" "--chrome --svg" "--svg --timeline" "--timeline --chrome" \
	"-c --chrome" "--diff -c" "--diff --folded" "--boot --json --svg" "--boot --json --initcall-debug" \
	"--boot --boot-data --json" "--boot --initcall-debug --boot-data"; do
	set -- $pair
	run modes "$KD" "$@" $fx/kd/nested.log
	[ "$1" = --boot ] && shift
	[ $rc -eq 2 ] && [ ! -s "$tmp/modes.out" ] &&
		grep -q "^kd: $1 and $2 are two outputs: give one$" "$tmp/modes.err"
	ok $? "kd $pair: refused, exit 2, both named"
done
run modes "$KD" --chrome --chrome $fx/kd/nested.log
[ $rc -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/modes.out"
ok $? "kd --chrome --chrome: one output given twice, fine"
run fempty "$KD" -f '' $fx/kd/nested.log
[ $rc -eq 2 ] && [ ! -s "$tmp/fempty.out" ] && grep -q "^kd: -f takes one or more columns, not ''$" "$tmp/fempty.err"
ok $? "kd -f '': refused, exit 2"
run fempty "$KD" -c -f '' $fx/kd/nested.log
[ $rc -eq 2 ] && grep -q "^kd: -f takes one or more columns" "$tmp/fempty.err"
ok $? "kd -c -f '': refused, exit 2"
for o in -i -r; do
	run notree "$KD" $o $fx/kd/nested.log
	[ $rc -eq 2 ] && [ ! -s "$tmp/notree.out" ] && grep -q "^kd: $o goes with -c" "$tmp/notree.err"
	ok $? "kd $o without -c: refused, exit 2 (it would change nothing)"
done
# The summary's options where they would change nothing.
for c in "-c -n 3:-n:-c" "-s l -c:-s:-c" "-c -t 5:-t:-c" "--folded -f Fc:-f:--folded" \
	"--chrome -l:-l:--chrome" "--svg -n 2:-n:--svg" "--timeline -s c:-s:--timeline"; do
	IFS=: read -r args opt with <<< "$c"
	run summ "$KD" $args $fx/kd/nested.log
	[ $rc -eq 2 ] && [ ! -s "$tmp/summ.out" ] &&
		grep -q "^kd: $opt goes with a summary, not with $with$" "$tmp/summ.err"
	ok $? "kd $args: refused, exit 2 ($opt changes nothing there)"
done
run summ "$KD" -c -l -f etl $fx/kd/nested.log
[ $rc -eq 0 ] && grep -q '^ Entry' "$tmp/summ.out"
ok $? "kd -c -l / -f: the tree's columns, taken"
run me "$KD" -m $fx/System.map -e /nonexistent $fx/kd/nested.log
[ $rc -eq 2 ] && grep -q "^kd: -m and -e are two symbol sources: give one$" "$tmp/me.err"
ok $? "kd -m and -e: refused, exit 2, both named"
# An option's value given twice, two values: which was meant?  The last
# was taken without a word (-m, -o, --pid...); refused, both named.  The
# same value twice is taken.
printf 'new\ntrigger start entry do_fork\nend\n' > "$tmp/twice.conf"
while IFS='|' read -r opt args; do
	# shellcheck disable=SC2086
	run twice $args
	[ $rc -eq 2 ] && [ ! -s "$tmp/twice.out" ] && [ ! -e "$tmp/tw1" ] && [ ! -e "$tmp/tw2" ] &&
		grep -q "^$(basename "${args%% *}"): $opt given twice ('[^']*', then '[^']*'): give one\$" "$tmp/twice.err"
	ok $? "$(basename "${args%% *}") $opt twice with two values: refused, exit 2, both named"
done <<EOF2
-m|$KD -m $fx/System.map -m $fx/kallsyms.txt $fx/kd/nested.log
--pid|$KD --pid 5 --pid 7 $fx/kd/nested.log
--subtree|$KD -c --subtree a --subtree b $fx/kd/nested.log
-n|$KD -n 3 -n 4 $fx/kd/nested.log
--trace-cmd|$KD --trace-cmd $tmp/tw1 --trace-cmd $tmp/tw2 $fx/kd/nested.log
--min|$KD --boot --check --min 1ms --min 2ms $fx/kd/boot.log $fx/kd/boot.log
-m|$A2S -m $fx/System.map --map=$fx/kallsyms.txt $fx/raw.log
-o|$A2S -m $fx/System.map -o $tmp/tw1 -o $tmp/tw2 $fx/raw.log
--offset|$A2S -m $fx/System.map --offset 0 --offset 0x1000 $fx/raw.log
-o|$S2A -o $tmp/tw1 -o $tmp/tw2 $tmp/twice.conf $fx/System.map
-e|$S2A -e $tmp/tw1 -e $tmp/tw2 $tmp/twice.conf
-n|$MKR -n 3 -n 4 $tmp/twice.conf $tmp/tw1
-o|$B/kft record -o $tmp/tw1 -o $tmp/tw2 -- true
EOF2
run twice "$KD" --pid 5 --pid 5 -n 3 -n 3 $fx/kd/nested.log
[ $rc -eq 0 ] && [ -s "$tmp/twice.out" ]
ok $? "kd --pid 5 --pid 5 -n 3 -n 3: the same value twice, taken"
# Standard input can be read once: kd with the map and a log both '-'
# (or the log left to standard input), or two logs '-', is refused.
for args in "-m - -" "-m -" "--diff - -"; do
	run kd-stdin2 sh -c "'$KD' $args < $fx/kd/nested.log"
	[ $rc -eq 2 ] && grep -q "standard input ('-') can be read once" "$tmp/kd-stdin2.err"
	ok $? "kd $args: standard input given twice, refused (exit 2)"
done
tap_done
