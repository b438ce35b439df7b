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
[    0.007400] Run /init as init process
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
start, seen, init = {}, {}, False
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
        # boot-data (the Boot Time SIG's boot-time-wizard): time-to-init
        # from the kernel's line for /init or /sbin/init.
        bd = re.search(r'\[\s*([0-9]+\.[0-9]+)\] Run (/init|/sbin/init) as init process', line)
        assert bd and float(bd.group(1)) == 0.0074, line
        init = True
assert seen == {"early_fn": 560, "slow_init": 270, "dev_init": 190}, seen
assert init, "no init line"
PY
ok $? "--boot --initcall-debug: every line parses with pm-graph's and analyze-initcall-debug's expressions, time-to-init with boot-data's"

# --boot-data: a boot-data file (the Boot Time SIG's grab-boot-data.sh
# format), read the way boot-data's parser reads one and compared with
# --json: the initcalls (boot-data top), time-to-init, KFT's own section.
cat > "$tmp/bd.expected" <<'OUT'
== KFT INFO ==
KFT_KD_VERSION="2.0"
KFT_SOURCE="tests/tools/fixtures/kd/boot.log"
KFT_TIMES="measured"
KFT_START_KERNEL_USECS="10"
KFT_TIME_TO_INIT_USECS="7400"
KFT_INITCALLS="3"

== KERNEL MESSAGES ==
OUT
{ cat "$tmp/dmesg.expected"; echo; } >> "$tmp/bd.expected"
"$KD" --boot --boot-data $fx/boot.log > "$tmp/bd.txt" &&
	diff -u "$tmp/bd.expected" "$tmp/bd.txt"
ok $? "--boot --boot-data: KFT INFO, then --initcall-debug's lines as KERNEL MESSAGES, each section ended by an empty line"
bad=0
python3 tests/tools/gen_boot_log.py 40 3 16 odd > "$tmp/odd-boot.log"
python3 tests/tools/gen_boot_log.py 40 3 16 html > "$tmp/html-boot.log"
for l in $fx/boot.log $fx/boot-hooks.log $fx/boot-new.log "$tmp/odd-boot.log" "$tmp/html-boot.log"; do
	for raw in "" --raw; do
		# shellcheck disable=SC2086
		"$KD" --boot --boot-data $raw "$l" > "$tmp/bd.txt" &&
			"$KD" --boot --json $raw "$l" > "$tmp/bd.json" &&
			python3 tests/tools/boot_data_read.py "$tmp/bd.txt" "$tmp/bd.json" 5 > "$tmp/bd.top" || { bad=1; echo "# $l $raw"; }
	done
done
[ $bad -eq 0 ]
ok $? "--boot --boot-data: boot-data's sections, initcalls (top 5) and time-to-init agree with --json (5 boots, hostile names, compensated and raw)"
"$KD" --boot --boot-data $fx/boot.log > "$tmp/bd.txt" && "$KD" --boot --json $fx/boot.log > "$tmp/bd.json" &&
	python3 tests/tools/boot_data_read.py "$tmp/bd.txt" "$tmp/bd.json" 2 > "$tmp/bd.top" &&
	printf '%-40s = %8d usecs\n' early_fn 560 slow_init 270 > "$tmp/bd.top.expected" &&
	echo "time_to_init = 0.0074" >> "$tmp/bd.top.expected" &&
	diff -u "$tmp/bd.top.expected" "$tmp/bd.top"
ok $? "--boot --boot-data: boot-data top's two longest initcalls and time-to-init, as boot-data prints them"
# The reader has teeth: a forged header, an initcall outside KERNEL
# MESSAGES, a name with a space, a changed duration each fail it.
bad=0
"$KD" --boot --boot-data $fx/boot.log > "$tmp/bd.txt"
for forge in 's/^\(\[    0.004245\]\) calling  slow_init/== KERNEL MESSAGES ==\n\1 calling  slow_init/' \
	's/^KFT_INITCALLS="3"$/&\n[    0.000001] initcall evil+0x0\/0x0 returned 0 after 9 usecs/' \
	's/slow_init+0x0\/0x0 @ 1/slow init+0x0\/0x0 @ 1/' \
	's/after 270 usecs/after 271 usecs/' 's/Run \/init/Run \/sbin\/init/'; do
	sed "$forge" "$tmp/bd.txt" > "$tmp/bd-forged.txt"
	if cmp -s "$tmp/bd.txt" "$tmp/bd-forged.txt" ||
		python3 tests/tools/boot_data_read.py "$tmp/bd-forged.txt" "$tmp/bd.json" > /dev/null 2>&1; then
		bad=1; echo "# not caught: $forge"
	fi
done
[ $bad -eq 0 ]
ok $? "boot_data_read.py fails a forged section header, an initcall in KFT INFO, a name with a space, a changed duration, another init"
# Hostile names (the HTML boot's: </script>, U+2028, quotes, controls) in
# --initcall-debug's and --boot-data's lines: one word each, ASCII, so no
# reader splits a line (Python's splitlines() splits at U+2028) or reads
# another message in it.
bad=0
for m in --initcall-debug --boot-data; do
	"$KD" --boot $m "$tmp/html-boot.log" > "$tmp/hn.txt" &&
		python3 - "$tmp/hn.txt" <<'PY' || bad=1
import re, sys
raw = open(sys.argv[1], "rb").read()
assert all(b == 10 or 0x20 <= b <= 0x7e for b in raw), "not ASCII"
text = raw.decode("ascii")
assert text.splitlines() == text.split("\n")[:-1], "a line break other than \\n"
names = re.findall(r"(?:calling  |initcall )(\S+)\+0x0/0x0 ", text)
assert len(names) >= 40 and any("\\x3c" in n or "<" in n for n in names), names[:3]
assert all(re.fullmatch(r"[!-~]+", n) and "+" not in n for n in names), names
PY
done
[ $bad -eq 0 ]
ok $? "--initcall-debug, --boot-data: hostile names one word of ASCII each, no line split"

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
[    0.006088] Run /init as init process
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
# Logs that are not exactly one boot: never one boot's numbers mixed with
# another's.  Two boots put end to end (a serial capture of two power
# cycles): the last is reported, the lines where each starts named.
cat $fx/boot.log $fx/boot-new.log > "$tmp/two.log"
"$KD" --boot --json "$tmp/two.log" > "$tmp/two.json" 2> "$tmp/two.err" &&
	"$KD" --boot --json $fx/boot-new.log > "$tmp/new.json" &&
	diff <(grep -v '"log"' "$tmp/two.json") <(grep -v '"log"' "$tmp/new.json") &&
	grep -q "two.log: 2 boots in the log, their runs from lines 12 and 54: the report is of the last, from line 54" "$tmp/two.err"
ok $? "--boot on two boots in one file: the last boot's report exactly, each boot's first line named"
"$KD" --boot "$tmp/two.log" 2> /dev/null | diff -u - <("$KD" --boot $fx/boot-new.log) &&
	! "$KD" --boot "$tmp/two.log" 2> /dev/null | grep -q '#[0-9]'
ok $? "--boot on two boots: the text report is the last boot's (no level #8 and on, no doubled initcalls)"
check 0 --min 100 $fx/boot-new.log "$tmp/two.log" && grep -q 'Within the threshold' "$tmp/check.out" &&
	! grep -q '^  initcall dev_init  *330 ->  *660' "$tmp/check.out"
ok $? "--check of two boots in one file: the last boot against its reference (times not added)"
cat $fx/boot.log > "$tmp/splice.log"
sed -n '/^------------ /,$p' $fx/boot-new.log | awk 'NR > 1 && $1 >= 4000' >> "$tmp/splice.log"
"$KD" --boot "$tmp/splice.log" > "$tmp/splice.out" 2> "$tmp/splice.err"
[ $? -eq 2 ] && grep -q 'not one boot' "$tmp/splice.err" && [ ! -s "$tmp/splice.out" ]
ok $? "--boot on a log spliced from two boots (one run): exit 2, 'not one boot', the lines named"
{ head -n 24 $fx/boot.log; sed -n '/^Kernel Instrumentation/,/^------------ /p' $fx/boot-new.log
  sed -n '/^------------ /,$p' $fx/boot-new.log | awk 'NR > 1 && $1 >= 4000'; } > "$tmp/splice2.log"
"$KD" --boot "$tmp/splice2.log" > "$tmp/splice2.out" 2> "$tmp/splice2.err"
[ $? -eq 2 ] && grep -q 'no start_kernel, after another boot.s run (from line 12): a log spliced from two boots' "$tmp/splice2.err"
ok $? "--boot on one boot's start and another's end (two runs): exit 2, both runs' lines named"
{ head -n 11 $fx/boot.log
  printf '%12s %12s %6s %32s %-40s %4s\n' 10 50 100 kernel_clone '__do_sys_clone+0x54' 0 60 20 100 copy_process 'kernel_clone+0x80' 0; } > "$tmp/fork.log"
bad=0
for m in "" --json --svg --initcall-debug --boot-data; do
	# shellcheck disable=SC2086
	"$KD" --boot $m "$tmp/fork.log" > "$tmp/fork.out" 2> "$tmp/fork.err"
	[ $? -eq 2 ] && grep -q 'fork.log: not a boot: none of start_kernel, .* is in the log' "$tmp/fork.err" && [ ! -s "$tmp/fork.out" ] || bad=1
done
[ $bad -eq 0 ]
ok $? "--boot (text, --json, --svg, --initcall-debug, --boot-data) on a fork's trace: exit 2, not a boot, nothing printed"
"$KD" --boot --diff $fx/boot.log "$tmp/fork.log" > "$tmp/fdiff.out" 2> "$tmp/fdiff.err"
[ $? -eq 2 ] && grep -q 'not a boot' "$tmp/fdiff.err" && ! grep -q 'Boot time' "$tmp/fdiff.out"
ok $? "--boot --diff with a fork's trace: exit 2, no 'Boot time: 7390 us -> 50 us'"
check 2 $fx/boot.log "$tmp/fork.log" && grep -q 'not a boot' "$tmp/check.err" && ! grep -q 'PASS\|FAIL' "$tmp/check.out"
ok $? "--check of a fork's trace: exit 2, no verdict"
grep -v start_kernel $fx/boot.log > "$tmp/late.log"
"$KD" --boot --diff $fx/boot.log "$tmp/late.log" > "$tmp/ldiff.out" 2> "$tmp/ldiff.err"
[ $? -eq 2 ] && grep -q 'late.log: no start_kernel in the log' "$tmp/ldiff.err" &&
	check 2 $fx/boot.log "$tmp/late.log" && grep -q 'no start_kernel' "$tmp/check.err" &&
	check 2 "$tmp/late.log" $fx/boot.log && grep -q 'no start_kernel' "$tmp/check.err"
ok $? "--diff and --check refuse a side without start_kernel (its boot time is not the boot's): exit 2"

# --check against impossible references: exit 2 naming what is wrong.
impossible() {	# impossible SED-SCRIPT WHAT
	sed "$1" "$tmp/ref.json" > "$tmp/imp.json"
	check 2 "$tmp/imp.json" $fx/boot.log && grep -q "imp.json: not a possible boot: $2" "$tmp/check.err" &&
		! grep -q 'PASS\|FAIL' "$tmp/check.out"
	ok $? "--check refuses an impossible reference: $2"
}
impossible 's/"name": "setup_arch", "start": 10.000, "time": 1000.000/"name": "setup_arch", "start": 10.000, "time": -5/' 'phase 2.s "time" is negative'
impossible 's/"end": 7400.000, "time": 7390.000/"end": 1e300, "time": 1e300/' 'the boot.s "end" (1e+300 us) is longer than a log.s times go'
impossible 's/"end": 7400.000, "time": 7390.000/"end": 5.000, "time": -5/' 'the boot.s "end" (5 us) is before its "start" (10 us): the first user program before start_kernel'
impossible 's/"end": 7400.000, "time": 7390.000/"end": 7400.000, "time": 100/' 'the boot.s "time" (100 us) is not its "end" less its "start"'
impossible 's/"time": 270.000/"time": 1e9/' 'initcall 2.s "time" (1e+09 us) is longer than the boot'
impossible 's/"off_cpu": 100.000/"off_cpu": 5000/' 'initcall 2.s "off_cpu" (5000 us) is longer than'
impossible 's/"level": 4,/"level": 9,/' 'initcall 2.s "level" is 9, not a whole number from 0 to 7'
impossible 's/"pid": 1, "start": 4235/"pid": 1.5, "start": 4235/' 'initcall 2.s "pid" is 1.5'
# Phases and initcalls within the boot, the phases no more than it together
# (a setup_arch of 7000 us among the others' 6390 was read as a boot).
impossible 's/"name": "setup_arch", "start": 10.000, "time": 1000.000/"name": "setup_arch", "start": 10.000, "time": 7000/' "its phases' times add up to 13390 us, more than the boot (7390 us)"
impossible 's/"name": "setup_arch", "start": 10.000/"name": "setup_arch", "start": 7000/' 'phase 2.s "start" and "time" (7000 + 1000 us) end after the boot (7390 us)'
impossible 's/"pid": 1, "start": 4235[.0]*/"pid": 1, "start": 7300/' 'initcall 2.s "start" and "time" (7300 + 270 us) end after the boot (7390 us)'
sed 's/"reached_user_space": true/"reached_user_space": "true"/' "$tmp/ref.json" > "$tmp/strbool.json"
check 2 "$tmp/strbool.json" $fx/boot.log && grep -q '"reached_user_space" is not true or false (a string, in quotes)' "$tmp/check.err"
ok $? "--check refuses a boolean given as a string, saying so"
sed 's/"times": .*//' "$tmp/ref.json" | sed 's/"units": "us",/"units": "us", "times": "fast",/' > "$tmp/times.json"
check 2 "$tmp/times.json" $fx/boot.log && grep -q '"times" is not "compensated" or "measured"' "$tmp/check.err"
ok $? "--check refuses \"times\" that is neither compensated nor measured"

# "waits": a compensated report says whether other tasks' hooks came off
# the calls that waited (fixtures/kd/boot-wait.log: one CPU); a reference
# without it, or with the other, is said to be unlike the boot.
"$KD" --boot --json $fx/boot-wait.log > "$tmp/wait.json" &&
	"$KD" --boot --json --no-waits $fx/boot-wait.log > "$tmp/wait-nw.json" &&
	"$KD" --boot --json --raw $fx/boot-wait.log > "$tmp/wait-raw.json"
python3 - "$tmp/wait.json" "$tmp/wait-nw.json" "$tmp/wait-raw.json" <<'PY'
import json, sys
w, nw, raw = (json.load(open(f)) for f in sys.argv[1:])
assert w["waits"] == "taken off" and nw["waits"] == "left in" and "waits" not in raw, (w.get("waits"), nw.get("waits"), raw.get("waits"))
t = {ic["name"]: ic["time"] for ic in w["initcalls"]}
assert t["wait_init"] == 3792 and t["wait2_init"] == 1790, t
PY
ok $? "--boot --json: \"waits\": \"taken off\" (wait_init 3792 us), \"left in\" with --no-waits, none measured"
check 0 "$tmp/wait.json" $fx/boot-wait.log && [ ! -s "$tmp/check.err" ] &&
	check 0 "$tmp/wait-nw.json" $fx/boot-wait.log &&
	grep -q "wait-nw.json's waiting calls have other tasks' hooks left in, .*boot-wait.log's taken off: not alike (kd --no-waits leaves them in every log's)" "$tmp/check.err" &&
	sed '/"waits"/d' "$tmp/wait.json" > "$tmp/wait-old.json" &&
	check 0 "$tmp/wait-old.json" $fx/boot-wait.log && grep -q "wait-old.json's waiting calls have other tasks' hooks left in" "$tmp/check.err" &&
	"$KD" --boot --check --no-waits "$tmp/wait-nw.json" $fx/boot-wait.log > /dev/null 2> "$tmp/check.err" && [ ! -s "$tmp/check.err" ]
ok $? "--check: a reference whose waits were left in against a boot whose were taken off is said unlike; --no-waits compares them"
sed 's/"waits": "taken off"/"waits": "gone"/' "$tmp/wait.json" > "$tmp/wait-bad.json"
check 2 "$tmp/wait-bad.json" $fx/boot-wait.log && grep -q '"waits" is not "taken off" or "left in"' "$tmp/check.err"
ok $? "--check refuses \"waits\" that is neither taken off nor left in"

# Unclear errors of the JSON reference side.
printf '\xef\xbb\xbf' | cat - "$tmp/ref.json" > "$tmp/bom.json"
check 0 "$tmp/bom.json" $fx/boot.log && grep -q '^PASS' "$tmp/check.out"
ok $? "--check: a JSON reference with a byte-order mark is read (RFC 8259 lets a reader ignore it)"
bad=0
for v in '[{"format": "kft-boot-report"}]' '"kft-boot-report"' '42' 'true' 'null'; do
	printf '%s\n' "$v" > "$tmp/notobj.json"
	check 2 "$tmp/notobj.json" $fx/boot.log && grep -q 'notobj.json: not a kd --boot --json report: .*, not a JSON object' "$tmp/check.err" &&
		! grep -q 'no KFT log data' "$tmp/check.err" || bad=1
done
[ $bad -eq 0 ]
ok $? "--check: JSON that is not an object (array, string, number, boolean, null) is said to be so, not 'no KFT log data'"
"$KD" --boot --check - - < "$tmp/ref.json" > "$tmp/dash.out" 2> "$tmp/dash.err"
[ $? -eq 2 ] && grep -q "reads one of its files from standard input ('-'), not two" "$tmp/dash.err" && [ ! -s "$tmp/dash.out" ]
ok $? "--check - -: both from standard input refused (exit 2)"
check 2 - "$tmp/ref.json" - < "$tmp/ref.json" && grep -q 'not two (arguments 1 and 3)' "$tmp/check.err"
ok $? "--check - REF -: the arguments named"

# Names from a JSON reference or a log reach the terminal escaped.
sed 's/"name": "slow_init"/"name": "slow_init\\nPASS: nothing slower beyond the threshold\\u001b[2J\\u0007\\u0085"/' "$tmp/ref.json" > "$tmp/forge.json"
check 1 --min 100 "$tmp/forge.json" $fx/boot-new.log
[ "$(grep -c '^PASS' "$tmp/check.out")" -eq 0 ] && ! grep -q "$(printf '\033\|\007\|\302\205')" "$tmp/check.out" &&
	grep -qF 'slow_init\x0aPASS: nothing slower beyond the threshold\x1b[2J\x07\xc2\x85' "$tmp/check.out"
ok $? "--check: a newline, ESC, BEL, C1 in a reference's name are escaped (\\xNN): no forged PASS line"
"$KD" --boot --diff "$tmp/forge.json" $fx/boot-new.log > "$tmp/forge-diff.out" &&
	[ "$(grep -c '^PASS' "$tmp/forge-diff.out")" -eq 0 ] && grep -qF 'slow_init\x0aPASS' "$tmp/forge-diff.out"
ok $? "--boot --diff: a reference's name escaped too"
printf 'bad\xffname\033' > "$tmp/odd"
sed "s/slow_init do_one/$(cat "$tmp/odd") do_one/" $fx/boot.log > "$tmp/odd.log"
"$KD" --boot "$tmp/odd.log" > "$tmp/odd.out" && ! grep -q "$(printf '\033')" "$tmp/odd.out" && grep -qF 'bad�name\x1b' "$tmp/odd.out" &&
	"$KD" --boot --json "$tmp/odd.log" > "$tmp/odd.json" &&
	check 0 --min 0 --threshold 0 "$tmp/odd.json" "$tmp/odd.log" && ! grep -q 'new\|-100.0%' "$tmp/check.out"
ok $? "--boot: a log's name with a byte not UTF-8 and ESC: U+FFFD and \\x1b; its boot checks against its own --json (same names)"

# An initcall that never returned (the boot hung in it): no "returned"
# line, as the kernel prints none; the text report says so.
awk '$4 == "do_one_initcall" && $1 == 4220 || $4 == "slow_init" { $2 = -1 } { print } $4 == "probe_hw" { exit }' $fx/boot.log |
	awk '$4 == "do_basic_setup" || $4 == "do_initcalls" || $4 == "kernel_init_freeable" || $4 == "do_initcall_level" && $1 == 4210 { $2 = -1 } { print }' > "$tmp/hang.log"
"$KD" --boot --initcall-debug "$tmp/hang.log" > "$tmp/hang.dmesg" &&
	grep -q '^\[    0.004245\] calling  slow_init+0x0/0x0 @ 1$' "$tmp/hang.dmesg" && ! grep -q 'slow_init.*returned' "$tmp/hang.dmesg" &&
	grep -q 'early_fn+0x0/0x0 returned 0 after 560 usecs' "$tmp/hang.dmesg"
ok $? "--initcall-debug: an initcall that never returned has its 'calling' line and no 'returned' line"
"$KD" --boot "$tmp/hang.log" | grep -q ' slow_init (never returned: running at the end of the log): ' &&
	"$KD" --boot --json "$tmp/hang.log" | python3 -c '
import json, sys
r = json.load(sys.stdin)
ic = {i["name"]: i for i in r["initcalls"]}
assert ic["slow_init"]["returned"] is False and "returned" not in ic["early_fn"], ic'
ok $? "--boot says the initcall never returned (text; JSON \"returned\": false)"
# A boot that never reached user space has no boot time: --diff and
# --check say so, not "7390 us -> 4490 us", the hang not listed as the
# boot got faster.
"$KD" --boot --diff $fx/boot.log "$tmp/hang.log" > "$tmp/hdiff.out" 2> "$tmp/hdiff.err" &&
	head -n 1 "$tmp/hdiff.out" | grep -qx 'Boot time: 7390 us -> 4490 us (no first user program: the log ends there)' &&
	"$KD" --boot --diff "$tmp/hang.log" $fx/boot.log | head -n 1 |
		grep -qx 'Boot time: 4490 us (no first user program: the log ends there) -> 7390 us'
ok $? "--boot --diff with a boot that never reached user space: no boot-time change, its log's end said ($(head -n 1 "$tmp/hdiff.out"))"
check 1 $fx/boot.log "$tmp/hang.log" && grep -q '^FAIL: the boot did not reach' "$tmp/check.out" &&
	! grep -q '^  boot ' "$tmp/check.out" && ! grep -q 'Faster beyond' "$tmp/check.out" &&
	{ "$KD" --boot --check --ktap $fx/boot.log "$tmp/hang.log" > "$tmp/hktap.out"; [ $? -eq 1 ]; } &&
	grep -qx '# boot: reference 7390 us, this boot - us, change - us' "$tmp/hktap.out"
ok $? "--check of a boot that never reached user space: FAIL, its boot time not listed as faster (-2900 us)"
# Initcalls that overlap (one run inside another: a module's init from a
# request_module()): the kernel's lines in time order.
awk '{ print } $4 == "__const_udelay" {
	printf "%12s %12s %6s %32s %-40s %4s\n", 4400, 15, 1, "do_one_initcall", "slow_init+0x40", 0
	printf "%12s %12s %6s %32s %-40s %4s\n", 4401, 10, 1, "mod_init", "do_one_initcall+0x84", 0 }' $fx/boot.log > "$tmp/nested.log"
"$KD" --boot --initcall-debug "$tmp/nested.log" > "$tmp/nested.dmesg" &&
	awk -F'[][]' '{ t = $2 + 0; if (t < last) exit 1; last = t }' "$tmp/nested.dmesg" &&
	grep -A3 'calling  slow_init' "$tmp/nested.dmesg" | sed -n 2,3p | grep -c mod_init | grep -qx 2
ok $? "--initcall-debug: overlapping initcalls' lines in time order (mod_init's inside slow_init's)"
if [ -f "$bootgraph" ]; then
	perl "$bootgraph" "$tmp/nested.dmesg" > "$tmp/nested.svg" && python3 - "$tmp/nested.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
w = float(root.get("width", "0") or 0)
for r in root.iter("{http://www.w3.org/2000/svg}rect"):
    x, rw = float(r.get("x", 0)), float(r.get("width", 0))
    assert rw >= 0 and (not w or x + rw <= w + 1), (x, rw, w)
PY
	ok $? "the kernel's bootgraph.pl draws overlapping initcalls inside its canvas"
fi

# Levels: names only where the log saw the eight levels.
awk '!($4 == "do_initcall_level" && ($1 == 2610 || $1 == 3010 || $1 == 3810 || $1 == 4610 || $1 == 5410))' $fx/boot.log > "$tmp/three.log"
"$KD" --boot "$tmp/three.log" > "$tmp/three.out" &&
	grep -q ' #1  *slow_init' "$tmp/three.out" && grep -q ' #2  *dev_init' "$tmp/three.out" &&
	! grep -q ' [0-7] \(pure\|core\|postcore\|arch\|subsys\|fs\|device\|late\) ' "$tmp/three.out"
ok $? "--boot: three levels in the log: initcalls at #1 and #2, not '1 core'"

# Compensation: a calibration that cannot be this log's is refused.
sed 's/^Hook cost = .*/Hook cost = 900000.0 ns dropped, 900000.0 ns logged, 500.0 ns own/' $fx/boot-hooks.log > "$tmp/badcost.log"
"$KD" --boot "$tmp/badcost.log" > "$tmp/badcost.out" 2> "$tmp/badcost.err" &&
	grep -q 'KFT.s hooks took 2164501 us, more than the 7390 us boot: a calibration not of this log' "$tmp/badcost.err" &&
	head -n 1 "$tmp/badcost.out" | grep -q '^times: as measured: ' &&
	grep -q '^Boot: start_kernel at 10 us, first user program at 7400 us: 7390 us$' "$tmp/badcost.out" &&
	! grep -q 'without them' "$tmp/badcost.out" && ! grep -q -- ' -[0-9]' "$tmp/badcost.out" &&
	"$KD" --boot --json "$tmp/badcost.log" 2> /dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["times"] == "measured" and r["boot"]["time"] == 7390 and r["instrumentation"] is None, r
assert all(p["time"] >= 0 for p in r["phases"]) and r["initcalls"][0]["time"] == 1900, r'
ok $? "--boot: hooks longer than the boot (a calibration not of this log): refused with a warning, times as measured, none negative"
sed -n '/^Kernel Instrumentation/,$p' $fx/boot-hooks.log > "$tmp/bh.log"
sed -n '/^Kernel Instrumentation/,$p' $fx/hooks.log >> "$tmp/bh.log"
"$KD" --boot "$tmp/bh.log" > "$tmp/bh.out" 2> "$tmp/bh.err" &&
	grep -q "^KFT's hooks: 2414.000 us" "$tmp/bh.out" && grep -q '1 other run in the log (the first from line [0-9]*) is not the boot.s: left out' "$tmp/bh.err"
ok $? "--boot: a second run in the file adds nothing to the boot's hooks (2414 us), and is said to be left out"

# -m with a map that has no __initcall table: said, not 'give -m System.map'.
printf 'ffffffff81000000 T _stext\n' > "$tmp/noinit.map"
"$KD" --boot -m "$tmp/noinit.map" $fx/boot-inlined.log > "$tmp/noinit.out" &&
	grep -q 'the symbols given have no __initcall\* table' "$tmp/noinit.out" && ! grep -q 'kd -m System.map' "$tmp/noinit.out"
ok $? "--boot -m MAP without an __initcall table: says the map lacks it"
# --check --ktap: the verdicts as KTAP version 1, for CI systems; read by a
# strict checker after Documentation/dev-tools/ktap.rst and by the kernel's
# own KTAP parser (tools/testing/kunit/kunit_parser.py) when a tree is here.
ktap_check() {	# ktap_check FILE EXPECTED-NOT-OK-NAMES (a Python set)
	python3 - "$1" "$2" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
assert lines[-1] == "", "no final newline"
lines = lines[:-1]
assert lines[0] == "KTAP version 1", lines[0]
m = re.fullmatch(r"1\.\.([0-9]+)", lines[1])
assert m, lines[1]
n, want_fail = int(m.group(1)), eval(sys.argv[2])
results = []
for line in lines[2:]:
    if line.startswith("# "):
        continue
    r = re.fullmatch(r"(ok|not ok) ([0-9]+) ([^#\n]+)", line)
    assert r, "not a KTAP line: %r" % line
    assert int(r.group(2)) == len(results) + 1, line
    results.append((r.group(1), r.group(3)))
assert len(results) == n, (len(results), n)
names = [x[1] for x in results]
assert len(set(names)) == n, "names not unique"
assert names[0] == "boot start_kernel to the first user program", names[0]
assert all(x[1].split(" ")[0] in ("boot", "phase", "initcall") for x in results)
fails = {x[1] for x in results if x[0] == "not ok"}
assert fails == want_fail, (fails, want_fail)
PY
}
kunit=$KFT_CACHE/src/linux-source-$KFT_KVER_DEFAULT/tools/testing/kunit
kunit_check() {	# kunit_check FILE PASSED FAILED: the kernel's parser's counts
	python3 - "$kunit" "$@" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import kunit_parser
t = kunit_parser.parse_run_tests(open(sys.argv[2], encoding="utf-8").read().splitlines())
c = t.counts
assert (c.passed, c.failed, c.errors, c.crashed) == (int(sys.argv[3]), int(sys.argv[4]), 0, 0), str(c)
assert len(t.subtests) == int(sys.argv[3]) + int(sys.argv[4])
PY
}
"$KD" --boot --check --ktap --min 100 $fx/boot.log $fx/boot-new.log > "$tmp/ktap.out"
rc=$?
[ $rc -eq 1 ] && ktap_check "$tmp/ktap.out" '{"phase kernel_init, other", "initcall dev_init"}'
ok $? "--check --ktap: exit 1 as without it; KTAP version 1, one test per item, not ok: dev_init and kernel_init, other"
"$KD" --boot --check --ktap $fx/boot.log $fx/boot.log > "$tmp/ktap-pass.out" &&
	ktap_check "$tmp/ktap-pass.out" 'set()' && [ "$(grep -c '^ok ' "$tmp/ktap-pass.out")" -eq 22 ]
ok $? "--check --ktap: a boot against itself, exit 0, 22 tests ok"
"$KD" --boot --check --ktap $fx/boot.log "$tmp/hung.log" > "$tmp/ktap-hung.out"
[ $? -eq 1 ] && grep -q '^not ok 1 boot start_kernel to the first user program$' "$tmp/ktap-hung.out" &&
	grep -q '^# the boot did not reach the first user program' "$tmp/ktap-hung.out"
ok $? "--check --ktap: a boot that never reached user space: the boot not ok, exit 1"
sed 's/ slow_init do_one/ a#b\x01c\xffd do_one/; s/ slow_init$/ a#b\x01c\xffd/' $fx/boot-new.log > "$tmp/odd-new.log"
"$KD" --boot --check --ktap --min 100 $fx/boot.log "$tmp/odd-new.log" > "$tmp/ktap-odd.out"
[ $? -eq 1 ] && ktap_check "$tmp/ktap-odd.out" '{"phase kernel_init, other", "initcall dev_init", "initcall a\\x23b\\x01c\ufffdd"}'
ok $? "--check --ktap: a name with '#', a control and a byte not UTF-8 stays one test name (\\x23, \\x01, U+FFFD)"
"$KD" --boot --ktap $fx/boot.log > /dev/null 2> "$tmp/ktap.err"
[ $? -eq 2 ] && grep -q -- '--ktap go with --check' "$tmp/ktap.err"
ok $? "--ktap without --check: refused, exit 2"
"$KD" --boot --check --ktap $fx/boot.log /nonexistent > "$tmp/ktap-none.out" 2> /dev/null
[ $? -eq 2 ] && [ ! -s "$tmp/ktap-none.out" ]
ok $? "--check --ktap: boots that cannot be compared, exit 2, no verdicts"
if [ -f "$kunit/kunit_parser.py" ]; then
	kunit_check "$tmp/ktap.out" 20 2 > /dev/null && kunit_check "$tmp/ktap-pass.out" 22 0 > /dev/null &&
		kunit_check "$tmp/ktap-odd.out" 20 3 > /dev/null
	ok $? "--check --ktap read by the kernel's kunit_parser.py: the passes and failures, no parse errors"
else
	tap_skip "no kernel tree with tools/testing/kunit/kunit_parser.py (make deps)"
fi

tap_done
