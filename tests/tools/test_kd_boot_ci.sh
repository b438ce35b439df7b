#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kd --boot for the boot-time toolchain, on the hand-worked boot of
# fixtures/kd/boot.log (boot-new.log: mm_core_init 100 us faster, dev_init
# 140 us slower, user space 500 us later):
#  - --json, read by Python's json and checked against the text report;
#  - --initcall-debug, parsed with the regular expressions of
#    pm-graph's bootgraph and the Boot Time SIG's analyze-initcall-debug
#    (and rendered by the kernel's scripts/bootgraph.pl when a kernel tree
#    is in the cache; the boot-run test always does);
#  - --check: pass, fail, thresholds, several references, JSON references,
#    and every refusal, with its exit status;
#  - a log that gives its hooks' cost (boot-hooks.log): compensated JSON,
#    initcall_debug lines and checks, and references not alike said.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
. tests/lib/common.sh
KD=${BUILD:-build}/asan/kd
fx=tests/tools/fixtures/kd
tap_tmpdir

# --json
"$KD" --boot --json $fx/boot.log > "$tmp/boot.json"
ok $? "--boot --json exits 0"
python3 - "$tmp/boot.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["format"] == "kft-boot-report" and r["version"] == 1 and r["units"] == "us", r
b = r["boot"]
assert b == {"start_kernel": True, "start": 10, "reached_user_space": True, "end": 7400, "time": 7390}, b
assert abs(sum(p["time"] for p in r["phases"]) - 7390) < 1e-6
assert [p["name"] for p in r["phases"]][:3] == ["start_kernel, other", "setup_arch", "mm_core_init"]
ic = {i["name"]: i for i in r["initcalls"]}
assert [i["name"] for i in r["initcalls"]] == ["early_fn", "slow_init", "dev_init", None], r["initcalls"]
s = ic["slow_init"]
assert (s["time"], s["off_cpu"], s["busy_wait"], s["level"], s["level_name"], s["pid"], s["start"]) == \
    (270, 100, 50, 4, "subsys", 1, 4235), s
assert s["top_calls"] == [{"name": "schedule", "time": 100}, {"name": "probe_hw", "time": 80},
                          {"name": "__const_udelay", "time": 50}], s["top_calls"]
assert ic["early_fn"]["level"] is None and ic["early_fn"]["level_name"] == "early"
assert r["initcalls_after_user_space"] == 0
PY
ok $? "--boot --json: valid JSON (Python's json), the schema's fields, the report's numbers"
printf 'bad\xffname' > "$tmp/odd"
sed "s/slow_init do_one/$(cat "$tmp/odd") do_one/; s/ slow_init\$/ $(cat "$tmp/odd")/" $fx/boot.log |
	sed 's/"/\\"/' | "$KD" --boot --json > "$tmp/odd.json" &&
	python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/odd.json"
ok $? "--boot --json: a name with bytes that are not UTF-8 still gives valid JSON"

# --initcall-debug
"$KD" --boot --initcall-debug $fx/boot.log > "$tmp/dmesg.txt"
cat > "$tmp/dmesg.expected" <<'OUT'
[    0.001820] calling  early_fn+0x0/0x0 @ 1
[    0.002380] initcall early_fn+0x0/0x0 returned 0 after 560 usecs
[    0.004245] calling  slow_init+0x0/0x0 @ 1
[    0.004515] initcall slow_init+0x0/0x0 returned 0 after 270 usecs
[    0.005025] calling  dev_init+0x0/0x0 @ 1
[    0.005215] initcall dev_init+0x0/0x0 returned 0 after 190 usecs
[    0.007400] Run init as init process
OUT
diff -u "$tmp/dmesg.expected" "$tmp/dmesg.txt"
ok $? "--boot --initcall-debug: the kernel's lines, printk's timestamps, in boot order"
python3 - "$tmp/dmesg.txt" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
# pm-graph's bootgraph (parseKernelLog): the timestamp, then the message.
ktime = re.compile(r'[ \t]*(\[ *)(?P<ktime>[0-9\.]*)(\]) (?P<msg>.*)')
pm_call = re.compile(r'^calling *(?P<f>.*)\+.* @ (?P<p>[0-9]*)')
pm_ret = re.compile(r'^initcall *(?P<f>.*)\+.* returned (?P<r>.*) after (?P<t>.*) usecs')
# The Boot Time SIG's analyze-initcall-debug.py: whole lines.
sig_call = re.compile(r'\[([0-9\s]+\.[0-9]+)\] calling  ([0-9a-zA-Z_]+)\+(0x[0-9a-fA-F]+\/0x[0-9a-fA-F]+)( \[[a-zA-Z0-9\-_]+\])? @ ([0-9]+)')
sig_ret = re.compile(r'\[([0-9\s]+\.[0-9]+)\] initcall ([0-9a-zA-Z_]+)\+(0x[0-9a-fA-F]+\/0x[0-9a-fA-F]+)( \[[a-zA-Z0-9\-_]+\])? returned ([\-0-9]+) after ([0-9]+) usecs')
sig_init = re.compile(r'\[([0-9\s]+\.[0-9]+)\] Run ([/0-9a-zA-Z_]+) as init process')
start, seen = {}, {}
for line in lines:
    m = ktime.match(line)
    assert m, line
    t, msg = float(m.group("ktime")), m.group("msg")
    c, r = pm_call.match(msg), pm_ret.match(msg)
    if c:
        assert sig_call.match(line) and sig_call.match(line).group(2) == c.group("f"), line
        start[c.group("f")] = t
    elif r:
        s = sig_ret.match(line)
        assert s and s.group(2) == r.group("f") and s.group(6) == r.group("t"), line
        assert abs(t - start[r.group("f")] - int(r.group("t")) / 1e6) < 2e-6, line
        seen[r.group("f")] = int(r.group("t"))
    else:
        assert sig_init.match(line), line
assert seen == {"early_fn": 560, "slow_init": 270, "dev_init": 190}, seen
PY
ok $? "--boot --initcall-debug: every line parses with pm-graph's and analyze-initcall-debug's expressions"
# The same script in every series: the cache's default tree, or the
# linux-source package make deps installs (the tree may not be extracted
# yet; KFT_KVER may name a series whose tree is called otherwise).
bootgraph=$KFT_CACHE/src/linux-source-$KFT_KVER_DEFAULT/scripts/bootgraph.pl
ksrc_tar=$(ls /usr/src/linux-source-"$KFT_KVER_DEFAULT".tar.* 2>/dev/null | head -n1)
if [ ! -f "$bootgraph" ] && [ -n "$ksrc_tar" ]; then
	tar -xOf "$ksrc_tar" "linux-source-$KFT_KVER_DEFAULT/scripts/bootgraph.pl" > "$tmp/bootgraph.pl" &&
		bootgraph=$tmp/bootgraph.pl
fi
if [ ! -f "$bootgraph" ]; then
	tap_skip "no kernel tree or linux-source-$KFT_KVER_DEFAULT package for scripts/bootgraph.pl (make deps)"
else
	perl "$bootgraph" "$tmp/dmesg.txt" > "$tmp/bootgraph.svg" &&
		python3 - "$tmp/bootgraph.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
texts = [t.text for t in ET.parse(sys.argv[1]).getroot().iter("{http://www.w3.org/2000/svg}text")]
assert {"early_fn", "slow_init", "dev_init"} <= set(texts), texts
PY
	ok $? "the kernel's scripts/bootgraph.pl draws the three initcalls (SVG read back)"
fi

# --check: exit 0 pass, 1 slower, 2 could not compare.
check() {	# check WANT-EXIT ARGS...: kd --boot --check ARGS
	local want=$1
	shift
	"$KD" --boot --check "$@" > "$tmp/check.out" 2> "$tmp/check.err"
	local rc=$?
	[ $rc -eq "$want" ] || { echo "exit $rc, not $want" >&2; cat "$tmp/check.out" "$tmp/check.err" >&2; return 1; }
}
check 0 $fx/boot.log $fx/boot.log && grep -q '^PASS: nothing slower beyond the threshold$' "$tmp/check.out"
ok $? "--check: a boot against itself passes"
check 0 $fx/boot.log $fx/boot-new.log
ok $? "--check: 500 us later is within the default 10% and 1 ms"
check 1 --min 100 $fx/boot.log $fx/boot-new.log &&
	grep -q '^  initcall dev_init  *190 ->  *330 us  *+140 us  *+73.7%$' "$tmp/check.out" &&
	grep -q '^  phase    kernel_init, other  *200 ->  *700 us  *+500 us  *+250.0%$' "$tmp/check.out" &&
	grep -q '^FAIL: 1 initcall and 1 phase slower beyond the threshold$' "$tmp/check.out"
ok $? "--check --min 100: fails, naming dev_init (+140 us) and the phase kernel_init (+500 us)"
check 1 --min 50 --threshold 20% $fx/boot.log $fx/boot-new.log &&
	sed -n '/^Faster/,/^Within/p' "$tmp/check.out" | grep -q '^  phase    mm_core_init  *400 ->  *300 us  *-100 us  *-25.0%$'
ok $? "--check: what got faster beyond the threshold is listed too"
check 1 --threshold 100 --min 0 $fx/boot.log $fx/boot-new.log &&
	! grep -q 'dev_init' "$tmp/check.out" && grep -q 'kernel_init, other' "$tmp/check.out"
ok $? "--check --threshold 100: +73.7% is within it, +250% is not"
check 0 --min 100 $fx/boot.log $fx/boot-new.log $fx/boot-new.log
ok $? "--check with several references: each item's reference is the slowest of them"
"$KD" --boot --json $fx/boot.log > "$tmp/ref.json"
check 1 --min 100 "$tmp/ref.json" $fx/boot-new.log && cp "$tmp/check.out" "$tmp/json.out" &&
	check 1 --min 100 $fx/boot.log $fx/boot-new.log &&
	diff <(sed 1d "$tmp/json.out") <(sed 1d "$tmp/check.out")
ok $? "--check against a --json report: the same verdict as against its log"
check 0 - $fx/boot.log < "$tmp/ref.json"
ok $? "--check: the reference from standard input"
grep -v to_userspace $fx/boot.log > "$tmp/hung.log"
check 1 $fx/boot.log "$tmp/hung.log" && grep -q '^FAIL: the boot did not reach the first user program' "$tmp/check.out"
ok $? "--check: a boot that never reached user space fails"
check 2 "$tmp/hung.log" $fx/boot.log && grep -q 'reference boot did not reach' "$tmp/check.err"
ok $? "--check: a reference that never reached user space is refused (exit 2)"
sed 's/^ *4420 .*/garbage line/' $fx/boot.log > "$tmp/garbled.log"
check 2 $fx/boot.log "$tmp/garbled.log" && grep -q 'garbled.log:[0-9]*' "$tmp/check.err"
ok $? "--check: a line that cannot be read is named and the verdict is not trusted (exit 2)"
check 2 $fx/boot.log /nonexistent && grep -q '/nonexistent' "$tmp/check.err"
ok $? "--check: a missing file (exit 2)"
check 2 $fx/boot.log > /dev/null && grep -q 'takes a reference boot or more, then the boot to check' "$tmp/check.err"
ok $? "--check with one file: usage error"
"$KD" --boot --check $fx/boot.log $fx/boot.log > /dev/full 2> "$tmp/full.err"
[ $? -eq 2 ] && grep -q 'writing the output' "$tmp/full.err"
ok $? "--check to a full disk: exit 2, not a verdict"

# A log that gives its hooks' cost (fixtures/kd/boot-hooks.log, worked out
# by hand): --json says the times are compensated, and how much the hooks
# were; --initcall-debug's times are compensated; --check and --diff say
# when a reference's times are not like the boot's.
"$KD" --boot --json $fx/boot-hooks.log > "$tmp/hooks.json" &&
	"$KD" --boot --json --raw $fx/boot-hooks.log > "$tmp/hooks-raw.json"
python3 - "$tmp/hooks.json" "$tmp/hooks-raw.json" <<'PY'
import json, sys
r, m = (json.load(open(f)) for f in sys.argv[1:])
assert r["format"] == "kft-boot-report" and r["version"] == 1, r
assert r["times"] == "compensated" and m["times"] == "measured", (r["times"], m["times"])
for x in (r, m):
    assert x["hook_cost_ns"] == {"dropped": 1000, "logged": 2000, "own": 500}, x["hook_cost_ns"]
    assert abs(x["instrumentation"] - 1312 / 6900) < 1e-4, x["instrumentation"]
assert r["boot"]["time"] == 6078 and m["boot"]["time"] == 7390, (r["boot"], m["boot"])
assert abs(sum(p["time"] for p in r["phases"]) - 6078) < 1e-6
ic = r["initcalls"][0]
assert (ic["name"], ic["start"], ic["time"]) == ("my_init", 4039, 1399.5), ic
PY
ok $? "--boot --json: \"times\", \"hook_cost_ns\", \"instrumentation\"; the compensated boot (6078 us) and --raw's (7390)"
"$KD" --boot --json $fx/boot.log | python3 -c 'import json, sys; r = json.load(sys.stdin); assert "times" not in r and "hook_cost_ns" not in r'
ok $? "--boot --json of a log without a hook cost: no such fields, as before"
"$KD" --boot --initcall-debug $fx/boot-hooks.log > "$tmp/hooks-dmesg.txt"
cat > "$tmp/hooks-dmesg.expected" <<'OUT'
[    0.004049] calling  my_init+0x0/0x0 @ 1
[    0.005449] initcall my_init+0x0/0x0 returned 0 after 1400 usecs
[    0.006088] Run init as init process
OUT
diff -u "$tmp/hooks-dmesg.expected" "$tmp/hooks-dmesg.txt"
ok $? "--boot --initcall-debug: compensated times (my_init 1399.5 us at 4049 us)"
check 0 "$tmp/hooks.json" $fx/boot-hooks.log && [ ! -s "$tmp/check.err" ] &&
	grep -q "^This boot's times: compensated for KFT's hooks" "$tmp/check.out"
ok $? "--check against a compensated JSON reference: alike, said, no warning"
check 1 $fx/boot.log $fx/boot-hooks.log &&
	grep -q "boot.log's times are as measured, .*boot-hooks.log's compensated for KFT's hooks: not alike (kd --raw reads every log's as measured)" "$tmp/check.err"
ok $? "--check of a compensated boot against a measured reference: a warning"
check 1 --raw "$tmp/hooks.json" $fx/boot-hooks.log &&
	grep -q "hooks.json's times are compensated for KFT's hooks, .*boot-hooks.log's as measured: not alike" "$tmp/check.err"
ok $? "--check --raw against a compensated JSON reference: a warning (and 1312 us slower)"
"$KD" --boot --diff $fx/boot.log $fx/boot-hooks.log > "$tmp/hdiff.out" 2> "$tmp/hdiff.err" &&
	grep -q '^new: times: compensated' "$tmp/hdiff.out" && grep -q 'not alike' "$tmp/hdiff.err" &&
	grep -q '^Boot time: 7390.000 us -> 6078.000 us (-1312.000 us)$' "$tmp/hdiff.out"
ok $? "--boot --diff of a measured and a compensated boot: said, with a warning"

# Hostile JSON references: an error naming where, never a crash.
bad_json() {	# bad_json TEXT WHAT
	printf '%b' "$1" > "$tmp/bad.json"
	check 2 "$tmp/bad.json" $fx/boot.log && grep -q "$2" "$tmp/check.err"
	ok $? "--check refuses a JSON reference: $(printf '%s' "$1" | head -c 40 | tr '\n' ' ') ($2)"
}
bad_json '{' 'line 1, column 2: '
bad_json '{"format": "kft-boot-report",}' 'not valid JSON'
bad_json '{"a": 1} x' 'more after the JSON value'
bad_json '{"a": "\\u0000"}' 'u0000'
bad_json '{"a": "\\ud800"}' 'surrogate'
bad_json '{"a": "\xff"}' 'invalid UTF-8'
bad_json '{"a": "x\ny"}' 'control character'
bad_json '{"a": 01}' 'not valid JSON'
bad_json '{"a": NaN}' 'not a JSON value'
bad_json '{"format": "other"}' 'not a kd --boot --json report'
bad_json '{"format": "kft-boot-report", "version": 2}' 'version'
python3 -c 'print("{\"a\":" + "[" * 100000)' > "$tmp/deep.json"
check 2 "$tmp/deep.json" $fx/boot.log && grep -q 'nested deeper than 64' "$tmp/check.err"
ok $? "--check refuses a JSON reference nested 100000 deep, without recursing into it"
sed 's/"time": 7390.000/"time": 1e999/; s/"end": 7400.000/"end": 1e999/' "$tmp/ref.json" > "$tmp/inf.json"
check 2 "$tmp/inf.json" $fx/boot.log && grep -q 'not a finite number' "$tmp/check.err"
ok $? "--check refuses a JSON reference whose time is not finite"

# Options: taken whole or refused.
for bad in "--threshold nan" "--threshold -1" "--threshold abc" "--threshold ''" "--threshold 10%%" \
	   "--min 1h" "--min -1ms" "--min ms" "--min '1 ms'" "--min inf"; do
	eval "\"$KD\" --boot --check $bad $fx/boot.log $fx/boot.log" > /dev/null 2> "$tmp/opt.err"
	[ $? -eq 2 ] && grep -q 'takes' "$tmp/opt.err"
	ok $? "--check $bad: refused, saying what it takes"
done
for min in 1ms 1000us 1000 0.001s; do
	check 0 --min "$min" --threshold 0 $fx/boot.log $fx/boot-new.log || break
	grep -q 'more than 1000 us' "$tmp/check.out" || break
done
ok $? "--min 1ms, 1000us, 1000 and 0.001s are the same"
"$KD" --json $fx/boot.log 2> "$tmp/usage.err"
[ $? -eq 2 ] && grep -q 'go with --boot' "$tmp/usage.err"
ok $? "--json without --boot: usage error (a trace as JSON is --chrome)"
"$KD" --boot --threshold 5 $fx/boot.log 2> "$tmp/usage.err"
[ $? -eq 2 ] && grep -q 'go with --check' "$tmp/usage.err"
ok $? "--threshold without --check: usage error"
"$KD" --boot --check --json $fx/boot.log $fx/boot.log 2> "$tmp/usage.err"
[ $? -eq 2 ]
ok $? "--check with --json: usage error"
tap_done
