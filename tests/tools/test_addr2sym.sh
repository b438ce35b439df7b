#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# addr2sym on fixtures: names, offsets, modules, vmlinux, KASLR, errors.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
A2S=${BUILD:-build}/asan/addr2sym
fx=tests/tools/fixtures
tap_tmpdir

"$A2S" -m $fx/System.map $fx/raw.log > "$tmp/out" 2> "$tmp/err"
ok $? "resolves a log against System.map"
diff -u $fx/resolved.expected "$tmp/out"
ok $? "output: exact name, name+0xoff, unknown address kept, columns aligned"
grep -q 'raw.log:22: no function and caller addresses' "$tmp/err"
ok $? "a malformed data line is a warning with its line number"

"$A2S" -m $fx/System.map < $fx/raw.log | cmp -s - $fx/resolved.expected
ok $? "reads standard input"

# KASLR: the same log from a kernel loaded 0x19000000 higher.
sed -e 's/0xffffffff81/0xffffffff9a/g' $fx/raw.log > "$tmp/kaslr.log"
"$A2S" -m $fx/System.map "$tmp/kaslr.log" 2>/dev/null |
	grep -v '^Kernel text base' > "$tmp/kaslr.out"
grep -v '^Kernel text base' $fx/resolved.expected | diff -u - "$tmp/kaslr.out"
ok $? "KASLR: the log's text base shifts lookups into an unrandomised map"
"$A2S" -m $fx/System.map --offset 0x19000000 "$tmp/kaslr.log" 2>/dev/null |
	grep -q ' start_kernel startup_64+0x40 '
ok $? "KASLR: --offset by hand"
# Logs put end to end, the second from a KASLR boot: each log's header is
# read as a header, with its own text base (it was read as bad data lines).
cat $fx/raw.log "$tmp/kaslr.log" > "$tmp/two.log"
for j in 1 4; do
	"$A2S" -j $j -m $fx/System.map "$tmp/two.log" > "$tmp/two.out" 2> "$tmp/two.err"
	diff -u <(grep -v '^Kernel text base' $fx/resolved.expected; grep -v '^Kernel text base' $fx/resolved.expected) \
		<(grep -v '^Kernel text base' "$tmp/two.out") &&
		[ "$(grep -c 'no function and caller' "$tmp/two.err")" = 2 ] && grep -q 'two.log:44: ' "$tmp/two.err"
	ok $? "two logs end to end (-j $j): each with its own text base, line numbers running on"
done
# The same with logs of a million lines: the second's header in the middle
# of a chunk, read ahead, across threads.
${BUILD:-build}/genlog 300000 "$tmp/g.map" "$tmp/g1.raw" > /dev/null
echo "ffffffff81000000 T _text" >> "$tmp/g.map"	# what a text base counts from
awk '/^Kernel text base/ { print "Kernel text base 0xffffffff9a000000"; next } { gsub(/0xffffffff81/, "0xffffffff9a") } 1' \
	"$tmp/g1.raw" > "$tmp/g2.raw"
cat "$tmp/g1.raw" "$tmp/g2.raw" "$tmp/g1.raw" > "$tmp/g3.raw"
"$A2S" -j 1 -m "$tmp/g.map" "$tmp/g1.raw" 2>/dev/null | grep -v '^Kernel text base' > "$tmp/g1.out"
for j in 1 4; do
	"$A2S" -j $j -m "$tmp/g.map" "$tmp/g3.raw" 2>/dev/null | grep -v '^Kernel text base' > "$tmp/g3.out"
	cat "$tmp/g1.out" "$tmp/g1.out" "$tmp/g1.out" | cmp -s - "$tmp/g3.out"
	ok $? "three generated logs end to end, the middle one moved (-j $j): as each alone"
done

# The Calls and Logged columns after CPU (fixtures/raw-hooks.log, as the
# kernel prints it) pass through with their titles and the Hook cost line,
# aligned under them; kd reads the result as it reads the raw log with -m.
"$A2S" -m $fx/System.map $fx/raw-hooks.log > "$tmp/hooks.out" 2> "$tmp/hooks.err"
[ $? -eq 0 ] && [ ! -s "$tmp/hooks.err" ] && diff -u $fx/resolved-hooks.expected "$tmp/hooks.out"
ok $? "Calls and Logged columns: kept, titled and aligned; the Hook cost line kept"
${BUILD:-build}/asan/kd "$tmp/hooks.out" > "$tmp/hooks-kd.out" 2>&1 &&
	${BUILD:-build}/asan/kd -m $fx/System.map $fx/raw-hooks.log | cmp -s - "$tmp/hooks-kd.out" &&
	grep -q "^times: compensated for KFT's hooks (84.3/131.0/38.2 ns" "$tmp/hooks-kd.out" &&
	[ "$(awk '$1 == "rest_init" { print $3 }' "$tmp/hooks-kd.out")" = 371.242 ]
ok $? "kd on addr2sym's output: compensated as the raw log is (rest_init 1234.567 - 10222 x 0.0843 - 12 x 0.131 - 0.0382)"
sed 's/^ *[0-9]*\.[0-9]* .* \(0x[0-9a-f]*\) \(0x[0-9a-f]*\) .*$/&   7/' $fx/raw-hooks.log > "$tmp/hooks9.log"
"$A2S" -m $fx/System.map "$tmp/hooks9.log" | awk '$4 == "rest_init" { print NF, $(NF-2), $(NF-1), $NF }' | grep -qx '9 10234 12 7'
ok $? "words after the Logged column: kept"

printf -- '--------\n 1.0 2.0 3 0xffffffffc0001000 0xffffffffc0001104 0\n' > "$tmp/mod.log"
"$A2S" -m $fx/kallsyms.txt "$tmp/mod.log" > "$tmp/mod.out"
grep -q ' mod_fn mod_other+0x4\[mymod\] ' "$tmp/mod.out"
ok $? "kallsyms with module symbols"

# vmlinux: an ELF file with functions at kernel addresses.
cat > "$tmp/k.c" <<'C'
void start_kernel(void) { }
void do_fork(void) { start_kernel(); }
void _start(void) { do_fork(); }
C
if gcc -O0 -nostdlib -static -no-pie -fno-pic -Wl,-Ttext=0xffffffff81000000 \
	-Wl,--defsym=_text=0xffffffff81000000 -o "$tmp/vmlinux" "$tmp/k.c" 2>"$tmp/ld.err"; then
	addr=$(nm "$tmp/vmlinux" | awk '$3 == "do_fork" { print $1 }')
	printf -- '--------\n 1.0 2.0 3 0x%s 0x%s 0\n' "$addr" "$addr" |
		sed 's/0x\([0-9a-f]*\) 0\(x[0-9a-f]*\) 0$/0x\1 0\2 0/' > "$tmp/elf.log"
	"$A2S" -e "$tmp/vmlinux" "$tmp/elf.log" | grep -q ' do_fork do_fork '
	ok $? "vmlinux symbols through libelf"
else
	cat "$tmp/ld.err"
	ok 1 "could not link a test vmlinux"
fi

"$A2S" -m $fx/System.map /nonexistent 2> "$tmp/err"
[ $? -ne 0 ] && grep -q 'nonexistent' "$tmp/err"
ok $? "missing log: error and non-zero exit"
"$A2S" -m /nonexistent $fx/raw.log 2> "$tmp/err"
[ $? -ne 0 ] && grep -q 'nonexistent' "$tmp/err"
ok $? "missing map: error and non-zero exit"
"$A2S" -m $fx/raw.log $fx/raw.log 2> "$tmp/err"
[ $? -ne 0 ] && grep -q 'not a symbol map line' "$tmp/err"
ok $? "a log given as map: error with line number"
# 32-bit arm Thumb-2 kernels' System.map has a symbol without a name.
awk 'NR == 3 { print "ffffffff81000010 t" } { print }' $fx/System.map > "$tmp/nameless.map"
"$A2S" -m "$tmp/nameless.map" $fx/raw.log 2>/dev/null | cmp -s - $fx/resolved.expected
ok $? "a nameless symbol in the map (\"ADDR t\", as nm prints it) is passed over"
printf 'ffffffff81000000 T _text\nnot-hex t\n' > "$tmp/badaddr.map"
"$A2S" -m "$tmp/badaddr.map" $fx/raw.log 2> "$tmp/err" >/dev/null
[ $? -ne 0 ] && grep -q 'badaddr.map:2: not a symbol map line' "$tmp/err"
ok $? "a two-word line without a hex address is still refused, with its line"
"$A2S" $fx/raw.log 2>/dev/null
[ $? -eq 2 ]
ok $? "no symbols given: usage error"
: | "$A2S" -m $fx/System.map > "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && [ ! -s "$tmp/out" ] && grep -q 'empty log' "$tmp/err"
ok $? "empty input: a warning, nothing written"
# A log of many chunks, translated by one and by three threads: the same
# output in the same order, warnings with the log's line numbers, a line
# longer than a chunk and a last line without its newline.
repeat() {	# repeat N FIRST LAST FILE: lines FIRST..LAST of FILE, N times
	awk -v n="$1" -v a="$2" -v b="$3" 'NR >= a && NR <= b { l[k++] = $0 }
		END { for (i = 0; i < n; i++) for (j = 0; j < k; j++) print l[j] }' "$4"
}
{
	head -n 18 $fx/raw.log
	repeat 40000 19 21 $fx/raw.log
	echo "garbage in the middle"
	head -c 1200000 /dev/zero | tr '\0' 'x'; echo
	repeat 20000 19 21 $fx/raw.log
	sed -n '19p' $fx/raw.log | tr -d '\n'
} > "$tmp/big.log"
{
	head -n 18 $fx/resolved.expected
	repeat 40000 19 21 $fx/resolved.expected
	echo "garbage in the middle"
	head -c 1200000 /dev/zero | tr '\0' 'x'; echo	# kept whole (it was cut at 1 KiB)
	repeat 20000 19 21 $fx/resolved.expected
	sed -n '19p' $fx/resolved.expected
} > "$tmp/big.expected"
# Lines kept as they were: whole past 1 KiB and 16 words, spacing too; a
# data line's words past the sixteenth after its columns.
printf '%s\n' "$(head -n 18 $fx/raw.log)" > "$tmp/words.log"
printf 'not  a\tlog line: %s\n' "$(seq -s ' ' 40)" >> "$tmp/words.log"
printf '1.000 2.000 5 0xffffffff81001000 0xffffffff81000040 0 %s\n' "$(seq -s ' ' 30)" >> "$tmp/words.log"
"$A2S" -m $fx/System.map "$tmp/words.log" > "$tmp/words.out" 2> /dev/null
grep -qxF "not  a	log line: $(seq -s ' ' 40)" "$tmp/words.out" &&
	awk '{ $1 = $1; print }' "$tmp/words.out" | grep -qx "1.000 2.000 5 start_kernel startup_64+0x40 0 $(seq -s ' ' 30)"
ok $? "lines kept as they were: past 16 words, their spacing; a data line's extra words after its columns"
for j in 1 3; do
	"$A2S" -j $j -m $fx/System.map "$tmp/big.log" > "$tmp/big.out" 2> "$tmp/big.err"
	cmp "$tmp/big.out" "$tmp/big.expected"
	ok $? "-j $j: a log of many chunks comes out whole and in order"
	printf 'addr2sym: %s:%s: no function and caller addresses; line kept\n' \
		"$tmp/big.log" 120019 "$tmp/big.log" 120020 | diff -u - "$tmp/big.err"
	ok $? "-j $j: warnings carry the log's line numbers, in order"
done
"$A2S" -j 0 -m $fx/System.map $fx/raw.log > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "bad --jobs '0'" "$tmp/err"
ok $? "--jobs 0: usage error"

# A console capture (kft_dump=): the log behind printk's prefix, CRLF line
# ends, the kernel's own lines before, inside and after it.
capture() {	# capture LOG [DROP-LINE]: the capture on stdout
	awk -v drop="${2:-0}" '
		BEGIN { printf "[    0.000000] Linux version 6.12\r\n[    0.100000] -------- not a header\r\n" }
		{ n++ } n == drop { next }
		n == 1 { printf "[    2.000000] kft_dump begin: run 3, 9 calls, at panic\r\n" }
		n == 10 { printf "[    2.100000] random: crng init done\r\n" }
		{ printf "[    2.%06d] kft_dump: %s\r\n", n, $0 }
		END { printf "[    3.000000] kft_dump end: run 3, %d lines\r\n[    3.1] ---[ end Kernel panic ]---\r\n", n }' "$1"
}
capture $fx/raw.log > "$tmp/capture.log"
"$A2S" -m $fx/System.map "$tmp/capture.log" > "$tmp/out" 2> "$tmp/err"
ok $? "a console capture: resolved"
diff -u $fx/resolved.expected "$tmp/out"
ok $? "a console capture: the log alone comes out, as from /proc/kft_data"
echo "addr2sym: $tmp/capture.log (kft_dump):22: no function and caller addresses; line kept" |
	diff -u - "$tmp/err"
ok $? "a console capture: a malformed line is warned about by its line in the log"
# Empty log lines as "kft_dump:", their blank stripped (the manual shows them
# so; so do editors and some capture tools): lines like any other, none
# lost, by addr2sym and kd alike.
capture $fx/raw.log | sed 's/ *\r$/\r/' > "$tmp/stripped.log"
grep -q 'kft_dump:.$' "$tmp/stripped.log" &&
	"$A2S" -m $fx/System.map "$tmp/stripped.log" 2> "$tmp/err" | diff -u $fx/resolved.expected - &&
	! grep -q 'lost\|missing' "$tmp/err" &&
	{ "${BUILD:-build}/asan/kd" -m $fx/System.map "$tmp/stripped.log" > /dev/null 2> "$tmp/err"; [ $? -le 1 ]; } &&
	! grep -q 'lost\|missing' "$tmp/err"
ok $? "a console capture whose empty lines are 'kft_dump:' without the blank: read whole, nothing said lost"
# A capture whose lines end in CR alone (some serial tools write so):
# lines all the same (addr2sym printed nothing).
capture $fx/raw.log | tr -d '\n' > "$tmp/cr.log"
! grep -q . <(tr -d '\r' < "$tmp/cr.log" | tr -cd '\n') &&
	"$A2S" -m $fx/System.map "$tmp/cr.log" 2> /dev/null | diff -u $fx/resolved.expected - &&
	{ "${BUILD:-build}/asan/kd" -m $fx/System.map "$tmp/cr.log" > "$tmp/cr.kd" 2> /dev/null; [ $? -le 1 ]; } &&
	grep -q '^rest_init  *1 ' "$tmp/cr.kd"
ok $? "a console capture with CR line ends alone: resolved by addr2sym, read by kd"
capture $fx/raw.log 20 > "$tmp/capture.log"
"$A2S" -m $fx/System.map "$tmp/capture.log" 2> "$tmp/err" > /dev/null
grep -q "capture.log:26: run 3's dump: the console lost 1 of its 22 lines" "$tmp/err"
ok $? "a console capture missing a line: said, with the count"
capture $fx/raw.log | head -n 20 > "$tmp/capture.log"
"$A2S" -m $fx/System.map "$tmp/capture.log" 2> "$tmp/err" > /dev/null
grep -q "capture.log: the capture ends inside run 3's dump, after 16 lines of it" "$tmp/err"
ok $? "a console capture cut inside the dump: said"

"$A2S" --help | grep -q '^usage: addr2sym'
ok $? "--help"
"$A2S" --version | grep -q 'addr2sym (KFT)'
ok $? "--version"
tap_done
