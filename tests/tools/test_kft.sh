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

# fake_kft DIR ID [STATE]: a fake /proc/kft showing run ID in STATE
# (complete), as the kernel's does once a config is in.  kft writes over
# its start (a file, not /proc): the status stays behind a 4 KiB comment.
fake_kft() {
	{ head -c 4096 /dev/zero | tr '\0' '#'; printf '\nstatus: run id %s, primed, triggered, complete\nstate: %s\n' "$2" "${3:-complete}"; } > "$1/kft"
}
proc=$tmp/proc
mkdir -p "$proc"
fake_kft "$proc" 1
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
head -c 200 "$proc/kft" | awk '/^trigger stop exit do_fork$/ { t = NR } /^end$/ { e = NR } END { exit !(t && e == t + 1) }'
ok $? "record: the config goes to /proc/kft, with end added"
# The kernel's grammar decides (kernel/kft_config.c): a task named
# "endless" does not end the config, a comment before new does not hide it.
mkdir -p "$tmp/end"
fake_kft "$tmp/end" 1
cp "$proc/kft_data" "$proc/kallsyms" "$tmp/end/"
KFT_PROC=$tmp/end "$KFT" record -e '# mine
new
filter comm endless' -o "$tmp/e.log" -- true > /dev/null 2>&1
[ "$(head -c 200 "$tmp/end/kft" | grep -c '^new$')" = 1 ] &&
	head -c 200 "$tmp/end/kft" | awk '/^filter comm endless$/ { t = NR } /^end$/ { e = NR } END { exit !(t && e == t + 1) }'
ok $? "record: 'filter comm endless' last gets its end, a commented 'new' no second one"
# Names sharing an address (riscv64's __sched_text_end and _raw_spin_lock):
# all kept, so the host picks the same one as from the whole table.
mkdir -p "$tmp/same"
fake_kft "$tmp/same" 1
printf '0000000000001000 T start\n0000000000002000 T zeta_fn\n0000000000002000 T __a_marker\n0000000000002000 t mid_fn\n0000000000003000 T after\n0000000000003000 T __b_marker\n0000000000009000 T far\n' > "$tmp/same/kallsyms"
printf -- '\nKernel Instrumentation Run ID 1\n------------ ------------ ------ -------- -------- ----\n   1.000   2.000   5 0x2010 0x1010 0\n' > "$tmp/same/kft_data"
KFT_PROC=$tmp/same "$KFT" record -e '' -o "$tmp/s.log" -- true > /dev/null 2>&1
diff <("$B/addr2sym" -m "$tmp/s.log.syms" "$tmp/s.log" 2>&1) <("$B/addr2sym" -m "$tmp/same/kallsyms" "$tmp/same/kft_data" 2>&1) &&
	[ "$(grep -c ' \(zeta_fn\|__a_marker\|mid_fn\|after\|__b_marker\)$' "$tmp/s.log.syms")" = 5 ] && ! grep -q far "$tmp/s.log.syms"
ok $? "record: every name at a kept address is kept, and resolves as the whole table does"
printf 'new\nfilter mintime 5\nend\n' > "$tmp/cfg"
fake_kft "$proc" 1
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
[ $rc -eq 127 ] && grep -q '/nonexistent/cmd: No such file.*not run, nothing saved' "$tmp/e" && [ ! -e "$tmp/n.log" ] &&
	grep -q '^stop$' "$proc/kft"
ok $? "a command that cannot run: said, the run stopped, nothing saved, exit 127 (it was 0)"
# (The run still armed while the command runs, as a real one would be.)
fake_kft "$proc" 1 primed
run env KFT_PROC=$proc "$KFT" record -e '' -o "$tmp/f.log" -- sh -c 'exit 3'
[ $rc -eq 3 ] && [ -s "$tmp/f.log" ] && grep -q 'exited with status 3' "$tmp/e"
ok $? "a command that fails: the log saved, its exit status passed on (3)"
fake_kft "$proc" 1 primed
run env KFT_PROC=$proc "$KFT" record -e '' -o "$tmp/k.log" -- sh -c 'kill -TERM $$'
[ $rc -eq 143 ] && [ -s "$tmp/k.log" ] && grep -q 'killed by signal 15' "$tmp/e"
ok $? "a command killed by a signal: the log saved, exit 128 + 15"
# Two records at once: the run the log holds is not the one this record
# configured (another config replaced it).  Nothing saved, exit 1.
mkdir -p "$tmp/other"
fake_kft "$tmp/other" 7
cp $fx/raw.log "$tmp/other/kft_data"	# "Run ID 1"
cp $fx/kallsyms.txt "$tmp/other/kallsyms"
run env KFT_PROC=$tmp/other "$KFT" record -e '' -o "$tmp/o.log" -- true
[ $rc -eq 1 ] && grep -q 'holds run 1, not this record.s run 7' "$tmp/e" && [ ! -e "$tmp/o.log" ]
ok $? "a log of another run (id 1, this record's 7): refused, nothing saved"
: > "$tmp/other/kft"
run env KFT_PROC=$tmp/other "$KFT" record -e '' -o "$tmp/o.log" -- true
[ $rc -eq 1 ] && grep -q 'names no run after the config' "$tmp/e" && [ ! -e "$tmp/o.log" ]
ok $? "/proc/kft naming no run after the config: refused before anything runs"
fake_kft "$proc" 1
printf 'filter mintime 5\0trigger start entry do_fork\n' > "$tmp/nul.cfg"
run env KFT_PROC=$proc "$KFT" record -c "$tmp/nul.cfg" -o "$tmp/nul.log" -- true
[ $rc -eq 1 ] && grep -q 'a NUL byte in the config' "$tmp/e" && [ ! -e "$tmp/nul.log" ] &&
	! head -c 100 "$proc/kft" | grep -q mintime
ok $? "a config file with a NUL byte: refused, not cut there, nothing written to /proc/kft"
# An output path near PATH_MAX: FILE.syms must not be cut to FILE.
long=$tmp/$(printf 'd%.0s' $(seq 200))
mkdir -p "$long"
name=$(printf 'f%.0s' $(seq 250))
deep=$long
for i in $(seq 16); do deep=$deep/$(printf 'd%.0s' $(seq 200)); done
run env KFT_PROC=$proc "$KFT" record -e '' -o "$long/$name" -- true
[ $rc -eq 0 ] && cmp -s "$long/$name" "$proc/kft_data" && [ -s "$long/$name.syms" ]
ok $? "a 450-byte output path: the log and FILE.syms both whole"
run env KFT_PROC=$proc "$KFT" record -e '' -o "$deep/x.log" -- true
[ $rc -eq 1 ] && grep -q 'File name too long\|No such file' "$tmp/e"
ok $? "an output path past PATH_MAX: an error, exit 1"
run env KFT_PROC=$proc "$KFT" record -e '' -o /dev/full -- true
[ $rc -eq 1 ] && grep -q 'No space left' "$tmp/e"
ok $? "the log to a full disk: an error, exit 1 (fclose() once: no double free under ASan)"
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
