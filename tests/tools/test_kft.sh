#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kft, the target's recorder (scripts/kft.c), on the host against a fake
# /proc (KFT_PROC): what it writes to /proc/kft, the log and symbols it
# saves, its refusals.  tests/guest/record.sh runs it on real kernels.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
B=${BUILD:-build}
KFT=$B/asan/kft
fx=tests/tools/fixtures
tap_tmpdir

proc=$tmp/proc
mkdir -p "$proc"
: > "$proc/kft"
cp $fx/raw.log "$proc/kft_data"
cp $fx/kallsyms.txt "$proc/kallsyms"

# The log and the symbols it names, resolved as well as by all of kallsyms.
KFT_PROC=$proc "$KFT" record -e 'trigger start entry do_fork
trigger stop exit do_fork' -o "$tmp/r.log" -- true > "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && cmp -s "$tmp/r.log" "$proc/kft_data" &&
	grep -q "^kft: log in $tmp/r.log, [0-9]* symbols in $tmp/r.log.syms" "$tmp/out"
ok $? "record: saves /proc/kft_data as it is, says where"
diff <("$B/addr2sym" -m "$tmp/r.log.syms" "$tmp/r.log" 2>/dev/null) \
	<("$B/addr2sym" -m "$proc/kallsyms" "$proc/kft_data" 2>/dev/null) &&
	[ "$(wc -l < "$tmp/r.log.syms")" -lt "$(wc -l < "$proc/kallsyms")" ]
ok $? "record: its symbols resolve the log as all of kallsyms does, with fewer lines"
grep -q 'trigger stop exit do_fork' "$proc/kft" && tail -c 5 "$proc/kft" | grep -q '^end$'
ok $? "record: the config goes to /proc/kft, with new and end added"
# Names sharing an address (riscv64's __sched_text_end and _raw_spin_lock):
# all kept, so the host picks the same one as from the whole table.
mkdir -p "$tmp/same"
: > "$tmp/same/kft"
printf '0000000000001000 T start\n0000000000002000 T zeta_fn\n0000000000002000 T __a_marker\n0000000000002000 t mid_fn\n0000000000003000 T after\n0000000000003000 T __b_marker\n0000000000009000 T far\n' > "$tmp/same/kallsyms"
printf -- '------------ ------------ ------ -------- -------- ----\n   1.000   2.000   5 0x2010 0x1010 0\n' > "$tmp/same/kft_data"
KFT_PROC=$tmp/same "$KFT" record -e '' -o "$tmp/s.log" -- true > /dev/null 2>&1
diff <("$B/addr2sym" -m "$tmp/s.log.syms" "$tmp/s.log" 2>&1) <("$B/addr2sym" -m "$tmp/same/kallsyms" "$tmp/same/kft_data" 2>&1) &&
	[ "$(grep -c ' \(zeta_fn\|__a_marker\|mid_fn\|after\|__b_marker\)$' "$tmp/s.log.syms")" = 5 ] && ! grep -q far "$tmp/s.log.syms"
ok $? "record: every name at a kept address is kept, and resolves as the whole table does"
printf 'new\nfilter mintime 5\nend\n' > "$tmp/cfg"
: > "$proc/kft"
# (A fake /proc/kft is a file: "prime" lands over the config's start.)
KFT_PROC=$proc "$KFT" record -c "$tmp/cfg" -o "$tmp/c.log" -- true > /dev/null 2>&1 &&
	[ "$(head -c 6 "$proc/kft")" = "$(printf 'prime\n')" ] && grep -q 'mintime 5$' "$proc/kft" &&
	[ "$(grep -c '^end$' "$proc/kft")" = 1 ]
ok $? "record -c: a config file, end not added twice (prime written after it)"

# Refusals: each says why, nothing is left half done.
run() { "$@" > "$tmp/o" 2> "$tmp/e"; rc=$?; }
run env KFT_PROC=$tmp/none "$KFT" record -e '' -- true
[ $rc -eq 1 ] && grep -q 'this kernel has no KFT (CONFIG_KFT)' "$tmp/e"
ok $? "no /proc/kft: says the kernel has no KFT"
run env KFT_PROC=$proc "$KFT" record -c "$tmp/missing" -- true
[ $rc -eq 1 ] && grep -q "$tmp/missing: No such file" "$tmp/e"
ok $? "a missing -c file: named"
run env KFT_PROC=$proc "$KFT" record -c "$tmp/cfg" -e 'x' -- true
[ $rc -eq 2 ] && grep -q 'not both' "$tmp/e"
ok $? "-c and -e together: usage error"
run env KFT_PROC=$proc "$KFT" record -e ''
[ $rc -eq 2 ] && grep -q 'a command after --' "$tmp/e"
ok $? "no command: usage error"
run env KFT_PROC=$proc "$KFT" record -e '' -o "$tmp/n.log" -- /nonexistent/cmd
[ $rc -eq 0 ] && grep -q '/nonexistent/cmd: No such file' "$tmp/e" && [ -s "$tmp/n.log" ]
ok $? "a command that cannot run: said, the log still saved"
run env KFT_PROC=$proc "$KFT" record -e '' -o /nonexistent/dir/x.log -- true
[ $rc -eq 1 ] && grep -q '/nonexistent/dir/x.log: No such file' "$tmp/e"
ok $? "an output file that cannot be written: named, exit 1"
run env KFT_PROC=$proc "$KFT" frobnicate
[ $rc -eq 2 ] && grep -q "unknown command 'frobnicate'" "$tmp/e"
ok $? "an unknown command: usage error"
run "$KFT" --help
[ $rc -eq 0 ] && grep -q '^usage: kft record' "$tmp/o"
ok $? "--help"
run env KFT_PROC=$proc "$KFT" status
[ $rc -eq 0 ] && cmp -s "$tmp/o" "$proc/kft"
ok $? "status: /proc/kft"
tap_done
