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
# Inherited signal state (some CI agents and runtimes start processes so):
# SIGCHLD blocked or ignored, kft still learns that CMD ended (it waited
# for ever: the run stays armed here, as a real one whose trigger never
# fires), and CMD gets a clean state: nothing blocked, SIGCHLD and
# SIGPIPE at their default.
for how in --block-signal=CHLD --ignore-signal=CHLD "--block-signal --ignore-signal=CHLD,PIPE"; do
	fake_kft "$proc" 1 primed
	# shellcheck disable=SC2086
	run timeout -s KILL 20 env $how KFT_PROC=$proc "$KFT" record -e '' -o "$tmp/b.log" -- \
		grep -E '^Sig(Blk|Ign):' /proc/self/status
	ign=$(awk '$1 == "SigIgn:" { print $2 }' "$tmp/o")
	[ $rc -eq 0 ] && cmp -s "$tmp/b.log" "$proc/kft_data" && grep -q '^stop$' "$proc/kft" &&
		grep -q '^SigBlk:[[:space:]]*0*$' "$tmp/o" && [ -n "$ign" ] &&
		[ $(( 0x$ign & ((1 << (17 - 1)) | (1 << (13 - 1))) )) = 0 ]
	ok $? "started with env $how: CMD's end seen, the log saved; CMD had nothing blocked, SIGCHLD/SIGPIPE not ignored (exit $rc, $(tr '\n\t' '  ' < "$tmp/o"))"
	rm -f "$tmp/b.log"
done

# A signal to kft record (^C, timeout, a closed terminal): passed on to
# CMD, the run stopped, what it logged saved, said, kft ends by the same
# signal (exit status 128 + N).  Before: killed, the run left armed,
# nothing saved, not a word.  Every signal whose default ends a process
# does so (SIGUSR1, SIGALRM, SIGXCPU, real-time ones killed kft silently,
# the run left armed, CMD running on).
# wait_for FILE: until FILE is there, 10 s at most.
wait_for() {
	local i
	for i in $(seq 100); do [ -s "$1" ] && return 0; sleep 0.1; done
	return 1
}
# watchdog PID: kill PID if it still runs in 30 s (a hang fails, not waits).
watchdog() {
	( for _ in $(seq 300); do sleep 0.1; kill -0 "$1" 2>/dev/null || exit 0; done
	  kill -KILL "$1" ) > /dev/null 2>&1 &
	dog=$!
}
for s in TERM HUP INT QUIT USR1 USR2 ALRM VTALRM PROF XCPU PWR IO RTMIN+2; do
	fake_kft "$proc" 1 primed
	rm -f "$tmp/pid" "$tmp/s.log"
	# (A background job's SIGINT and SIGQUIT are ignored, and stay so for
	# kft, as nohup's SIGHUP: --default-signal gives them back.)
	env --default-signal=INT,QUIT KFT_PROC=$proc "$KFT" record -e '' -o "$tmp/s.log" -- \
		sh -c 'echo $$ > "$1"; exec sleep 60' sh "$tmp/pid" > "$tmp/o" 2> "$tmp/e" &
	k=$!
	watchdog $k
	wait_for "$tmp/pid" && sleep 0.2 && kill -$s $k
	wait $k 2>/dev/null
	rc=$?
	kill $dog 2>/dev/null
	n=$(kill -l $s)
	[ $rc -eq $((128 + n)) ] && cmp -s "$tmp/s.log" "$proc/kft_data" && [ -s "$tmp/s.log.syms" ] &&
		grep -q '^stop$' "$proc/kft" && grep -q "SIG$s: run 1 stopped" "$tmp/e" &&
		grep -q "ended by SIG$s" "$tmp/e" && ! kill -0 "$(cat "$tmp/pid")" 2>/dev/null
	ok $? "SIG$s to kft record: CMD ended, the run stopped, the log saved, exit $rc = 128 + $n ($(tr '\n' ' ' < "$tmp/e"))"
done
# A signal ignored when kft started (nohup's SIGHUP) stays ignored, for
# kft and CMD: the record goes on to CMD's end.
fake_kft "$proc" 1 primed
rm -f "$tmp/pid" "$tmp/s.log"
env --ignore-signal=HUP KFT_PROC=$proc "$KFT" record -e '' -o "$tmp/s.log" -- \
	sh -c 'echo $$ > "$1"; sleep 1; grep "^SigIgn:" /proc/$$/status' sh "$tmp/pid" > "$tmp/o" 2> "$tmp/e" &
k=$!
watchdog $k
wait_for "$tmp/pid" && kill -HUP $k
wait $k 2>/dev/null
rc=$?
kill $dog 2>/dev/null
ign=$(awk '$1 == "SigIgn:" { print $2 }' "$tmp/o")
[ $rc -eq 0 ] && cmp -s "$tmp/s.log" "$proc/kft_data" && [ -n "$ign" ] && [ $(( 0x$ign & 1 )) = 1 ]
ok $? "SIGHUP ignored at start (nohup): ignored by kft and CMD, the record runs to CMD's end (exit $rc)"
# timeout(1): it signals kft, then the process group (CMD a second time).
fake_kft "$proc" 1 primed
rm -f "$tmp/s.log"
timeout 1 env KFT_PROC=$proc "$KFT" record -e '' -o "$tmp/s.log" -- sleep 60 > "$tmp/o" 2> "$tmp/e"
rc=$?
[ $rc -eq 124 ] && cmp -s "$tmp/s.log" "$proc/kft_data" && grep -q '^stop$' "$proc/kft" &&
	grep -q 'ended by SIGTERM' "$tmp/e"
ok $? "timeout 1 kft record -- sleep 60: the run stopped, the log saved (exit $rc: timeout's)"
# A second signal while the log is being saved: the save goes on, FILE
# is the whole log, never half of it; until then it is as it was.
fake_kft "$proc" 1 primed
mkdir -p "$tmp/fifo"
cp "$proc/kft" "$proc/kallsyms" "$tmp/fifo/"
mkfifo "$tmp/fifo/kft_data"
echo old > "$tmp/s.log"
rm -f "$tmp/pid"
KFT_PROC=$tmp/fifo "$KFT" record -e '' -o "$tmp/s.log" -- \
	sh -c 'echo $$ > "$1"; exec sleep 60' sh "$tmp/pid" > "$tmp/o" 2> "$tmp/e" &
k=$!
watchdog $k
half=$(( $(wc -c < "$proc/kft_data") / 2 ))
wait_for "$tmp/pid" && kill -TERM $k
# (In the background: with no kft to read it, opening the FIFO waits.)
{ head -c $half "$proc/kft_data"; sleep 0.3
  cat "$tmp/s.log" > "$tmp/mid"; kill -TERM $k; sleep 0.3
  tail -c +$((half + 1)) "$proc/kft_data"; } > "$tmp/fifo/kft_data" 2>/dev/null &
writer=$!
wait $k 2>/dev/null
rc=$?
kill $dog $writer 2>/dev/null
[ $rc -eq 143 ] && [ "$(cat "$tmp/mid" 2>/dev/null)" = old ] && cmp -s "$tmp/s.log" "$proc/kft_data" &&
	[ -z "$(find "$tmp" -maxdepth 1 -name '.kft-*')" ]
ok $? "a second SIGTERM while saving: FILE the whole log (before: as it was), no temporary left (exit $rc)"
# A log past ulimit -f (SIGXFSZ, which killed kft in the middle of the
# write, its temporary file left): the write's error said, exit 1, no
# temporary left, the run stopped.
mkdir -p "$tmp/big"
cp "$proc/kallsyms" "$tmp/big/"
fake_kft "$tmp/big" 1 primed
{ cat "$proc/kft_data"; for _ in $(seq 2000); do tail -n 1 "$proc/kft_data"; done; } > "$tmp/big/kft_data"
rm -f "$tmp/s.log"
( ulimit -f 16; KFT_PROC=$tmp/big "$KFT" record -e '' -o "$tmp/s.log" -- true > "$tmp/o" 2> "$tmp/e" ) 2>/dev/null
rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/s.log" ] && grep -q 's.log: File too large' "$tmp/e" &&
	grep -q '^stop$' "$tmp/big/kft" && [ -z "$(find "$tmp" -maxdepth 1 -name '.kft-*')" ]
ok $? "a log past ulimit -f: 'File too large', exit 1, no temporary left (exit $rc: $(tr '\n' ' ' < "$tmp/e"))"
tap_done
