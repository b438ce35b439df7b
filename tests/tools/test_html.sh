#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kd --boot --html: the boot report as one self-contained page.  On the
# boot fixtures and generated boots (many initcalls, long names, bytes
# that are not UTF-8, names made to break out of a script element:
# "</script>", "<!--", U+2028, U+2029, quotes), compensated and --raw:
# the page parsed with html.parser (tests/tools/html_check.py): nothing
# loaded from elsewhere, its scripts the data and its own and no more, the
# data as JSON equal to kd --boot --json's (and --raw --json's, which the
# page switches to); the page's text besides the data the same for every
# log; its script through node --check, and its layout() run under node
# on the data, checked against the data's numbers (bars where their start
# and time put them, inside the axis, labels in their room, axis labels
# apart).  Options it does not take are refused.  In make check-full
# (KFT_TIER=full, or KFT_CHROMIUM=1): headless Chromium loads the pages
# with nothing in its console, and screenshots of the whole boot and of
# a zoomed view show each bar's colour where the page's geometry put it;
# with chromedriver (chromium-driver), real input events through WebDriver
# (webdriver_check.py): a click on a bar shows its calls, the wheel zooms.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
KD=${BUILD:-build}/asan/kd
fx=tests/tools/fixtures/kd
chk=tests/tools/html_check.py
tap_tmpdir
[ -n "${KFT_HTML_KEEP:-}" ] && trap - EXIT && echo "# $tmp"

# page NAME LOG [KD-OPTIONS...]: kd --boot --html LOG, checked against
# kd --boot --json LOG (and --raw --json where the times are compensated).
page() {
	local name=$1 log=$2 raw=()
	shift 2
	"$KD" --boot --html "$@" "$log" > "$tmp/$name.html" 2> "$tmp/$name.err" &&
		"$KD" --boot --json "$@" "$log" > "$tmp/$name.json" 2> /dev/null || return 1
	if grep -q '"times": "compensated"' "$tmp/$name.json"; then
		"$KD" --boot --json --raw "$@" "$log" > "$tmp/$name.raw.json" 2> /dev/null || return 1
		raw=("$tmp/$name.raw.json")
	fi
	python3 "$chk" page "$tmp/$name.html" "$tmp/$name.json" "${raw[@]}" > "$tmp/$name.chk" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/$name.chk"
	return $rc
}

for log in boot boot-new boot-hooks boot-inlined; do
	page "$log" $fx/$log.log
	ok $? "$log.log: a self-contained page; its data kd --boot --json's$([ $log = boot-hooks ] && echo ', and --raw --json'"'"'s to switch to')"
done
page inlined-map $fx/boot-inlined.log -m $fx/boot-initcalls.map
ok $? "boot-inlined.log -m: the levels from the map, as --json has them"
page hooks-raw $fx/boot-hooks.log --raw &&
	grep -q '"times": "measured"' "$tmp/hooks-raw.html" && ! grep -q 'id="kft-boot-raw"' "$tmp/hooks-raw.html"
ok $? "boot-hooks.log --raw: the times as measured, nothing to switch to"
grep -q '"times": "compensated"' "$tmp/boot-hooks.html" && grep -q 'id="kft-boot-raw"' "$tmp/boot-hooks.html" &&
	[ "$(grep -c '"time": 6078.000}' "$tmp/boot-hooks.html")" = 1 ] &&
	[ "$(grep -c '"time": 7390.000}' "$tmp/boot-hooks.html")" = 1 ]
ok $? "boot-hooks.log: the boot compensated (6078 us) and as measured (7390 us), both in the page"

# Generated boots: many initcalls and kthreads, long names, odd bytes,
# names made to break out; with a hook cost (both reports).
python3 tests/tools/gen_boot_log.py 60 25 70 odd > "$tmp/gen.log"
python3 tests/tools/gen_boot_log.py 300 200 300 > "$tmp/big.log"
python3 tests/tools/gen_boot_log.py 40 5 30 html > "$tmp/hostile.log"
awk '/^------------ / { print "Hook cost = 84.3 ns dropped, 131.0 ns logged, 38.2 ns own"; d = 1; print; next }
	d && NF == 6 { print $0, (NR * 7) % 1000 + 5, NR % 5; next } { print }' \
	"$tmp/hostile.log" > "$tmp/hostile-hooks.log"
for log in gen big hostile hostile-hooks; do
	page "$log" "$tmp/$log.log"
	ok $? "generated $log.log: a self-contained page, its data kd --boot --json's"
done
grep -q 'id="kft-boot-raw"' "$tmp/hostile-hooks.html" &&
	[ "$(grep -c '</script>' "$tmp/hostile-hooks.html")" = 3 ] &&
	[ "$(grep -ci '<script' "$tmp/hostile-hooks.html")" = 3 ] &&
	! grep -q '<!--' "$tmp/hostile-hooks.html" &&
	! LC_ALL=C grep -q $'\xe2\x80\xa8\|\xe2\x80\xa9' "$tmp/hostile-hooks.html" &&
	grep -q 'probe_1_\\u003c/script\\u003e\\u003cscript\\u003ealert(1)' "$tmp/hostile-hooks.html" &&
	python3 -c 'import sys; open(sys.argv[1], encoding="utf-8").read()' "$tmp/hostile-hooks.html"
ok $? "names with </script>, <!--, U+2028/2029: escaped in the data (\\u003c...), three script elements, the page UTF-8"

# The page besides its data: the same whatever the log (no name in it).
for log in boot boot-hooks gen hostile-hooks; do
	sed '/^<script type="application\/json"/,/^<\/script>$/d' "$tmp/$log.html" > "$tmp/$log.frame"
done
cmp -s "$tmp/boot.frame" "$tmp/gen.frame" && cmp -s "$tmp/boot.frame" "$tmp/hostile-hooks.frame" &&
	cmp -s "$tmp/boot.frame" "$tmp/boot-hooks.frame"
ok $? "the page's text besides its data is the same for every log"

# Its script: syntax, and its layout under node.
if command -v node > /dev/null; then
	python3 "$chk" script "$tmp/hostile-hooks.html" "$tmp/page.js" &&
		node --check "$tmp/page.js"
	ok $? "the page's script: node --check"
	for log in boot-hooks boot-inlined gen big hostile-hooks; do
		python3 "$chk" layout "$tmp/$log.html" "$tmp/page.js" > "$tmp/$log.lay" 2>&1
		rc=$?
		[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/$log.lay"
		ok $rc "$log: layout() under node, whole boot and zoomed, 1200 and 700 px: bars where the data puts them, labels in their room"
	done
else
	tap_skip "node is not installed: the page's script not checked"
fi

# Options it does not take, and outputs that fail.
for args in "--html" "--boot --html --json" "--boot --html -n 3" "--boot --html -t 100" \
	"--boot --html -c" "--boot --diff --html $fx/boot.log" "--boot --check --html $fx/boot.log"; do
	# shellcheck disable=SC2086
	"$KD" $args $fx/boot.log > "$tmp/opt.out" 2> "$tmp/opt.err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/opt.out" ] && grep -q -- '--html\|another output' "$tmp/opt.err"
	ok $? "kd $args: refused, exit 2, said ($(head -c 80 "$tmp/opt.err"))"
done
"$KD" --boot --html $fx/hooks.log > "$tmp/nb.out" 2> "$tmp/nb.err"
[ $? -eq 2 ] && [ ! -s "$tmp/nb.out" ] && grep -q 'not a boot' "$tmp/nb.err"
ok $? "a log that is not a boot: exit 2, no page"
"$KD" --boot --html "$tmp/big.log" > /dev/full 2> "$tmp/full.err"
[ $? -eq 1 ] && grep -q 'No space left' "$tmp/full.err"
ok $? "the page to a full disk: an error, exit 1"

# Headless Chromium: make check-full's.
if [ "${KFT_TIER:-}" != full ] && [ -z "${KFT_CHROMIUM:-}" ]; then
	tap_skip "headless Chromium: make check-full (or KFT_CHROMIUM=1)"
	tap_done
	exit
fi
if ! command -v chromium > /dev/null; then
	ok 1 "headless Chromium: chromium is not installed (make deps-full)"
	tap_done
	exit
fi
# chrome OUT URL: Chromium's DOM after the page's script (OUT.dom), a
# screenshot (OUT.png), its console and log (OUT.log); each run a new
# empty profile, nothing from the network.
chrome() {
	local out=$1 url=$2 how
	: > "$out.log"
	for how in "--dump-dom" "--screenshot=$out.png"; do
		rm -rf "$tmp/profile"
		mkdir "$tmp/profile"
		timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
			--no-first-run --disable-background-networking --disable-component-update \
			--disable-sync --user-data-dir="$tmp/profile" --window-size=1200,900 \
			--force-device-scale-factor=1 --hide-scrollbars --enable-logging=stderr --v=0 \
			$how "$url" > "$out.out" 2>> "$out.log" || return 1
		[ "$how" = --dump-dom ] && mv "$out.out" "$out.dom"
	done
	[ -s "$out.dom" ] && [ -s "$out.png" ]
}
# console OUT: what the page said in the console (nothing, if all went well).
console() {
	grep ':CONSOLE' "$1.log"
}
# shot NAME PAGE [#HASH]: loaded, nothing in the console, bars on the screen.
shot() {
	chrome "$tmp/$1" "file://$tmp/$2${3:-}" &&
		! console "$tmp/$1" &&
		python3 "$chk" shot "$tmp/$1.dom" "$tmp/$1.png" > "$tmp/$1.shot" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || { console "$tmp/$1"; cat "$tmp/$1.shot"; } | head -10 | sed 's/^/# /'
	return $rc
}
# view NAME: the from and to (us) the page drew.
view() {
	python3 - "$tmp/$1.dom" <<'PY'
import html, re, sys, json
d = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'data-layout="([^"]*)"', d)
v = json.loads(html.unescape(m.group(1)))
print("%.3f %.3f" % (v["from"], v["to"]))
PY
}
# widest NAME: the widest initcall bar, in px.
widest() {
	python3 - "$tmp/$1.dom" <<'PY'
import re, sys
d = open(sys.argv[1], encoding="utf-8").read()
print(max(float(w) for w in re.findall(r'<rect [^>]*width="([0-9.]+)"[^>]*class="ic', d)))
PY
}

shot whole boot-hooks.html
ok $? "Chromium: boot-hooks.html loads, nothing in the console; the whole boot's bars in the screenshot where the geometry puts them"
shot zoomed boot-hooks.html '#from=3500&to=5700'
ok $? "Chromium: zoomed (#from=3500&to=5700): bars in the screenshot where the geometry puts them"
[ "$(view whole)" = "0.000 6078.000" ] && [ "$(view zoomed)" = "3500.000 5700.000" ] &&
	python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(not b > 2.5 * a)' "$(widest whole)" "$(widest zoomed)"
ok $? "Chromium: the two zoom levels: the views asked for, my_init's bar $(widest whole 2>/dev/null) px, then $(widest zoomed 2>/dev/null) px"
shot raw boot-hooks.html '#times=raw&initcall=0'
[ $? -eq 0 ] && [ "$(view raw)" = "0.000 7390.000" ] &&
	grep -q "<p id=\"note\">times: as measured, KFT's hooks included</p>" "$tmp/raw.dom" &&
	grep -q '<h2>my_init</h2>' "$tmp/raw.dom" && grep -q '<td>1900 us</td><td>1399.5 us</td>' "$tmp/raw.dom"
ok $? "Chromium: #times=raw: the boot as measured (7390 us); my_init selected, 1900 us measured beside 1399.5 compensated"
# The longest initcall with a call of a hostile name in it, selected.
n=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(next(i for i, c in enumerate(r["initcalls"]) if c["top_calls"]))' "$tmp/hostile-hooks.json")
shot hostile hostile-hooks.html "#initcall=$n"
[ $? -eq 0 ] && ! grep -q 'alert(1)</script>' "$tmp/hostile.dom" &&
	[ "$(grep -c '<script' "$tmp/hostile.dom")" = 3 ] && grep -q '<h3>its longest calls (1)</h3>' "$tmp/hostile.dom" &&
	grep -q '<td>probe_[0-9]*_&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--&lt;script&gt;' "$tmp/hostile.dom"
ok $? "Chromium: the hostile names' page loads, no script of theirs; initcall $n's call named </script><script>alert(1)... shown as text"
shot big big.html '#from=100000&to=140000'
ok $? "Chromium: 300 initcalls with 300-character names, zoomed: bars where the geometry puts them"
shot odd boot-hooks.html '#from=abc&to=4500&initcall=0.5&times=x'
[ $? -eq 0 ] && [ "$(view odd)" = "0.000 4500.000" ] && ! grep -q '<h3>its longest calls' "$tmp/odd.dom"
ok $? "Chromium: an address with odd values (#from=abc&to=4500&initcall=0.5&times=x): what is no number left out, nothing in the console"
chrome "$tmp/narrow" "file://$tmp/boot-hooks.html#from=5000&to=-5" && ! console "$tmp/narrow" &&
	[ "$(view narrow)" = "5000.000 5001.000" ] && grep -q 'data-ready="1"' "$tmp/narrow.dom"
ok $? "Chromium: #from=5000&to=-5: the narrowest view (1 us) from 5000 us, nothing in the console"
# The checks see a broken page: an error in the console and on the page.
sed '0,/"format": "kft-boot-report",/s//"format": "kft-boot-report",,/' "$tmp/boot.html" > "$tmp/broken.html"
chrome "$tmp/broken" "file://$tmp/broken.html" && console "$tmp/broken" | grep -q 'Uncaught SyntaxError' &&
	! python3 "$chk" shot "$tmp/broken.dom" "$tmp/broken.png" > /dev/null 2>&1
ok $? "Chromium: a page whose data does not parse is caught (the console's error, the page's)"

# Real input events (chromedriver, the W3C WebDriver protocol from
# Python's urllib: tests/tools/webdriver_check.py): a pointer click on an
# initcall's bar shows its calls in the panel, a turn of the wheel over
# the timeline zooms in around the pointer; screenshots after each, the
# console empty.  And the check fails a page whose bars take no click,
# whose chart takes no wheel, or that logs an error.
wd=tests/tools/webdriver_check.py
if ! command -v chromedriver > /dev/null; then
	tap_skip "real clicks and wheel: chromedriver is not installed (make deps-full: chromium-driver)"
else
	# wd NAME PAGE JSON: the check's output in NAME.wd, its first lines said if it fails
	wdrun() {
		timeout 300 python3 "$wd" "$tmp/$2" "$tmp/$3" "$tmp/wd-$1" > "$tmp/$1.wd" 2>&1
		local rc=$?
		[ $rc -eq 0 ] || head -5 "$tmp/$1.wd" | sed 's/^/# /'
		return $rc
	}
	wdrun boot boot.html boot.json &&
		grep -q '^click: initcall 1 (slow_init) at ([0-9]*, [0-9]*): the panel names it and its 3 calls$' "$tmp/boot.wd" &&
		grep -q '^wheel: at ([0-9]*, [0-9]*): the view 0.000-7390.000 us, then ' "$tmp/boot.wd"
	ok $? "WebDriver: a click on slow_init's bar lists its 3 calls; the wheel zooms in from 0-7390 us; screenshots right, console empty"
	wdrun hostile hostile-hooks.html hostile-hooks.json &&
		grep -q '^click: initcall [0-9]* (init_[0-9]*_</script><script>alert(1)' "$tmp/hostile.wd"
	ok $? "WebDriver: the hostile names' page: a click lists the calls named </script><script>alert(1)... as text, in order"
	# broken NAME SED WHAT: boot.html edited by SED (the edit must take)
	# fails the check, and its report says WHAT.
	broken() {
		sed "$2" "$tmp/boot.html" > "$tmp/$1.html"
		! cmp -s "$tmp/boot.html" "$tmp/$1.html" &&
			! python3 "$wd" "$tmp/$1.html" "$tmp/boot.json" "$tmp/wd-$1" > "$tmp/$1.wd" 2>&1 &&
			grep -q "$3" "$tmp/$1.wd"
	}
	broken noclick 's/rc.addEventListener("click", function () { select(w.i); });//' \
		"after a click on initcall 1 ('slow_init')"
	ok $? "WebDriver: a page whose bars take no click fails the check"
	broken nowheel 's/svg.addEventListener("wheel"/svg.addEventListener("no-wheel"/' "no zoom"
	ok $? "WebDriver: a page whose chart takes no wheel fails the check"
	broken noisy 's/document.body.setAttribute("data-ready", "1");/console.error("planted"); &/' \
		"the console after loading: .*planted"
	ok $? "WebDriver: a page that logs an error in the console fails the check"
fi
tap_done
