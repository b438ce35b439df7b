#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kd's pictures as a static view shows them (a screenshot, a slide, a PDF):
# every SVG kd writes (--svg flame graph, --timeline, --boot --svg), on the
# fixtures and on generated boots (long names, many rows, names with bytes
# XML cannot hold as they are), rendered by a real renderer (rsvg-convert)
# and checked by geometry (tests/tools/svg_layout.py): everything inside
# the canvas, no text over another text or over a bar not its own.  The
# font assumption the geometry rests on (monospace, 0.61 em a character)
# is checked once against the ink rsvg-convert puts in a PNG.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
KD=${BUILD:-build}/asan/kd
fx=tests/tools/fixtures/kd
layout=tests/tools/svg_layout.py
tap_tmpdir

if ! command -v rsvg-convert > /dev/null; then
	tap_skip "no rsvg-convert (Debian's librsvg2-bin: make deps)"
	tap_done
	exit
fi

# The font's metrics, as kd assumes them.
cat > "$tmp/metrics.svg" <<'SVG'
<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" width="600" height="120" viewBox="0 0 600 120" font-family="monospace" font-size="11">
<rect width="100%" height="100%" fill="white"/>
<text x="10" y="20">Wjgl|_dp Qy(initcall) 12345.678 us</text>
<text x="10" y="50" font-size="12">MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM</text>
<text x="10" y="90" font-size="15">Boot: 7390 us, start_kernel to the first user [program]</text>
</svg>
SVG
rsvg-convert "$tmp/metrics.svg" -o "$tmp/metrics.png" &&
	python3 $layout metrics "$tmp/metrics.svg" "$tmp/metrics.png" > "$tmp/metrics.out"
ok $? "rsvg-convert's monospace: each text's ink inside width = characters x 0.61 em, 0.8 em up, 0.26 down"

# render NAME KD-ARGS...: kd's SVG, rendered to PNG and checked.
render() {
	local name=$1
	shift
	"$KD" "$@" > "$tmp/$name.svg" 2> "$tmp/$name.err" &&
		rsvg-convert "$tmp/$name.svg" -o "$tmp/$name.png" &&
		python3 -c 'import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])' "$tmp/$name.svg" &&
		python3 $layout check "$tmp/$name.svg" > /dev/null
}

for log in boot boot-new boot-hooks boot-inlined; do
	for mode in flame timeline boot; do
		case $mode in
		flame) args=(--svg) ;;
		timeline) args=(--timeline) ;;
		boot) args=(--boot --svg) ;;
		esac
		render "$log-$mode" "${args[@]}" $fx/$log.log
		ok $? "$log.log, kd ${args[*]}: renders; inside the canvas, no text over text or another's bar"
	done
done
for log in switch nested hooks original original-irq callsite; do
	render "$log-flame" --svg $fx/$log.log && render "$log-timeline" --timeline $fx/$log.log
	ok $? "$log.log: flame graph and timeline render, laid out"
done

# Runs put end to end: calls of one row overlap; labels stay apart.
cat $fx/boot.log $fx/boot-new.log $fx/callsite.log > "$tmp/spliced.log"
for m in timeline svg; do
	"$KD" --$m "$tmp/spliced.log" > "$tmp/spliced-$m.svg" 2> /dev/null	# a warning: runs spliced
done
rsvg-convert "$tmp/spliced-timeline.svg" -o "$tmp/spliced.png" &&
	python3 $layout check "$tmp/spliced-timeline.svg" "$tmp/spliced-svg.svg" > /dev/null
ok $? "runs put end to end: overlapping calls in a row, labels clear of each other"

# Generated boots: many initcalls and kthreads, long names, odd bytes.
python3 tests/tools/gen_boot_log.py 60 25 70 odd > "$tmp/gen.log"
python3 tests/tools/gen_boot_log.py 300 200 300 > "$tmp/big.log"
for log in gen big; do
	for mode in flame timeline boot; do
		case $mode in
		flame) args=(--svg) ;;
		timeline) args=(--timeline) ;;
		boot) args=(--boot --svg) ;;
		esac
		render "$log-$mode" "${args[@]}" "$tmp/$log.log"
		ok $? "generated $log.log, kd ${args[*]}: renders (long names, many rows, odd bytes), laid out"
	done
done

# The boot report reads without hovering.
"$KD" --boot --json "$tmp/gen.log" > "$tmp/gen.json"
python3 - "$tmp/gen-boot.svg" "$tmp/gen.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
texts = ["".join(t.itertext()) for t in root.iter(ns + "text")]
r = json.load(open(sys.argv[2]))
for i, p in enumerate(r["phases"]):
    # every phase in the legend, by its number, with its time
    assert any(t.startswith("%d %s" % (i + 1, p["name"][:20])) for t in texts), p["name"]
assert sum(t.endswith(" ms") for t in texts) >= 4, "no time axis"
# a row without a name is explained
assert any(t.startswith("(initcall not in the log)") and " us" in t for t in texts)
assert any(t.startswith("(initcall not in the log): ") for t in texts)
# odd bytes: replaced, the rest kept (UTF-8 is)
assert any("<a&b\"c" in t and "\ufffd" in t and "\u00e9" in t for t in texts), texts
PY
ok $? "--boot --svg: every phase in the legend with its time, a time axis, a nameless row explained, odd names readable"
python3 - "$tmp/gen-timeline.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
off = [r for r in root.iter(ns + "rect") if r.get("class") == "off"]
# 25 kthreads asleep in schedule(): hatched over the kthread and the
# sleeping call, over (nearly) the whole boot
wide = [r for r in off if float(r.get("width")) > 1000 and float(r.get("height")) >= 27]
assert len(wide) >= 25, len(wide)
texts = ["".join(t.itertext()) for t in root.iter(ns + "text")]
assert any(t.startswith("off the CPU") for t in texts) and "on the CPU" in texts
PY
ok $? "--timeline: time asleep in schedule() hatched over the call and its callers, with a legend"
# The manual's picture (a real boot's report): renders, laid out.
pic=Documentation/trace/kft/boot-report.svg
rsvg-convert "$pic" -o "$tmp/manual.png" && python3 $layout check "$pic" > /dev/null &&
	grep -q 'image:: boot-report.svg' Documentation/trace/kft/boot.rst
ok $? "the manual's boot-report.svg renders and passes the layout checks; boot.rst shows it"
tap_done
