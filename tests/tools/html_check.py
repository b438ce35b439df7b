#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of kd --boot --html's page (tests/tools/test_html.sh).

html_check.py page PAGE JSON [RAWJSON]
    PAGE parsed with html.parser: self-contained (no src, href, link,
    url() or address but the SVG namespace), its scripts exactly the data
    (kft-boot, kft-boot-raw iff RAWJSON) and the page's own, no '<',
    U+2028 or U+2029 in the data; the data as JSON equal to kd --boot
    --json's (JSON) and --raw's (RAWJSON), and its segments the phases'
    times.
html_check.py script PAGE OUT
    the page's own script into OUT (for node --check and layout).
html_check.py layout PAGE SCRIPT
    the script's layout() run under node on the page's data, at views of
    the whole boot and zoomed, checked against the data: each bar where
    its start and time put it, inside the axis; rows apart; every label
    inside its room; axis labels apart.
html_check.py shot DOM PNG
    Chromium's --dump-dom and --screenshot of one view of the page: it
    drew (data-ready), no error, and at the centre of each bar the
    geometry puts on the screen, the bar's colour.
"""
import html.parser
import json
import os
import subprocess
import sys

from kftpng import read_png

SVG_NS = "http://www.w3.org/2000/svg"


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []		# (tag, attrs)
        self.scripts = []	# (attrs, text)
        self.style = ""
        self._in = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("script", "style"):
            self._in = (tag, dict(attrs), [])

    def handle_endtag(self, tag):
        if self._in and tag == self._in[0]:
            text = "".join(self._in[2])
            if tag == "script":
                self.scripts.append((self._in[1], text))
            else:
                self.style += text
            self._in = None

    def handle_data(self, data):
        if self._in:
            self._in[2].append(data)


def parse(path):
    raw = open(path, "rb").read()
    text = raw.decode("utf-8")		# strict: the page is UTF-8
    p = Page()
    p.feed(text)
    p.close()
    return p, text


def fail(msg):
    print("html_check:", msg, file=sys.stderr)
    sys.exit(1)


def data_of(p):
    out = {}
    for attrs, text in p.scripts:
        if attrs.get("type") == "application/json":
            out[attrs.get("id")] = text
    return out


def check_page(path, jpath, rawpath):
    p, text = parse(path)
    for tag, attrs in p.tags:
        if tag in ("link", "img", "iframe", "object", "embed", "base", "meta") and \
                not (tag == "meta" and set(attrs) <= {"charset", "name", "content"}):
            fail("an element that loads or points elsewhere: <%s %s>" % (tag, attrs))
        for k, v in attrs.items():
            if k in ("src", "href", "action", "srcset", "background"):
                fail("<%s %s=%r>: the page loads nothing" % (tag, k, v))
            if k.startswith("on"):
                fail("<%s %s>: an inline handler" % (tag, k))
    for bad in ("url(", "@import", "@font-face"):
        if bad in p.style:
            fail("the style sheet loads something: " + bad)
    stripped = text.replace(SVG_NS, "")
    for bad in ("http://", "https://", "//cdn", "fetch(", "XMLHttpRequest", "import("):
        if bad in stripped:
            fail("an address or a network call in the page: " + bad)
    ids = [a.get("id") for a, _ in p.scripts]
    want = ["kft-boot"] + (["kft-boot-raw"] if rawpath else []) + [None]
    if ids != want:
        fail("scripts %r, not %r: a name broke out of the data?" % (ids, want))
    if p.scripts[-1][0]:
        fail("the page's script has attributes %r" % p.scripts[-1][0])
    data = data_of(p)
    for key, jp in (("kft-boot", jpath), ("kft-boot-raw", rawpath)):
        if not jp:
            continue
        t = data[key]
        for ch in ("<", ">", "\u2028", "\u2029"):
            if ch in t:
                fail("%s: %r in the data as it is" % (key, ch))
        d = json.loads(t)
        segs = d.pop("segments")
        want = json.load(open(jp, encoding="utf-8"))
        if d != want:
            for k in sorted(set(d) | set(want)):
                if d.get(k) != want.get(k):
                    fail("%s: %r differs from kd --boot --json's: %.200r / %.200r"
                         % (key, k, d.get(k), want.get(k)))
        sums = [0.0] * len(d["phases"])
        last = -1e300
        for s in segs:
            ph, start, time = s
            if not 0 <= ph < len(sums):
                fail("%s: a segment of phase %r, of %d" % (key, ph, len(sums)))
            if start is None:
                continue
            if start < last - 0.002:
                fail("%s: segments out of order at %r" % (key, s))
            last = start
            sums[ph] += time
        for i, ph in enumerate(d["phases"]):
            if ph["time"] is not None and abs(sums[i] - ph["time"]) > 0.002 * (len(segs) + 1):
                fail("%s: phase %d (%s): segments %.3f us, phase %.3f us"
                     % (key, i + 1, ph["name"], sums[i], ph["time"]))
    print("page: %d scripts, data equal to --json%s" % (len(ids), " and --raw --json" if rawpath else ""))


def check_script(path, out):
    p, _ = parse(path)
    open(out, "w", encoding="utf-8").write(p.scripts[-1][1])


NODE_DRIVER = r"""
const K = require(process.argv[1]);
const inp = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = inp.views.map(v => K.layout(inp.rep, v, inp.width));
process.stdout.write(JSON.stringify({ CW: K.CW, fmt: inp.rep.initcalls.map(ic => K.fmtUs(ic.time)), g: out }));
"""


def check_layout(path, script):
    p, _ = parse(path)
    data = data_of(p)
    n = 0
    for key in ("kft-boot", "kft-boot-raw"):
        if key not in data:
            continue
        rep = json.loads(data[key])
        total = rep["boot"]["time"] or 1
        views = [{"from": 0, "to": total}, {"from": total * 0.3, "to": total * 0.4},
                 {"from": total * 0.5, "to": total * 0.5 + 1}]
        for width in (1200, 700):
            r = subprocess.run(["node", "-e", NODE_DRIVER, os.path.abspath(script)], input=json.dumps(
                {"rep": rep, "views": views, "width": width}), capture_output=True, text=True)
            if r.returncode:
                fail("node: " + r.stderr[-2000:])
            res = json.loads(r.stdout)
            for v, g in zip(views, res["g"]):
                check_geometry(key, rep, v, g, res["CW"], res["fmt"])
                n += 1
    print("layout: %d views checked" % n)


def check_geometry(key, rep, v, g, cw, fmt):
    where = "%s, view %.3f-%.3f us, width %d" % (key, v["from"], v["to"], g["width"])
    x0, x1, scale = g["x0"], g["x1"], g["scale"]
    eps = 1e-6
    if abs(scale - (x1 - x0) / (v["to"] - v["from"])) > 1e-9 * scale:
        fail(where + ": scale")
    if not 0 < x0 < x1 <= g["width"]:
        fail(where + ": the axis outside the picture")
    ics = rep["initcalls"]
    if sorted(r["i"] for r in g["rows"]) != list(range(len(ics))):
        fail(where + ": not one row per initcall")
    starts = [ics[r["i"]]["start"] for r in g["rows"]]
    known = [s for s in starts if s is not None]
    if known != sorted(known) or starts[:len(known)] != known:
        fail(where + ": rows not in start order")
    for k, r in enumerate(g["rows"]):
        ic = ics[r["i"]]
        if k and r["y"] < g["rows"][k - 1]["y"] + g["rows"][k - 1]["h"]:
            fail(where + ": row %d over the one before" % k)
        label_room = x0 - 16
        if len(r["label"]) * cw > label_room + eps:
            fail(where + ": label %r wider than its room" % r["label"])
        if not r["label"].endswith(" %s us" % fmt[r["i"]]):
            fail(where + ": label %r without its time" % r["label"])
        name = ic["name"] if ic["name"] is not None else "(initcall not in the log)"
        shown = r["label"][:-len(" %s us" % fmt[r["i"]])]
        if shown != name and not (shown.endswith("\u2026") and name.startswith(shown[:-1])):
            fail(where + ": label %r is not the name %r" % (shown, name))
        s, t = ic["start"], ic["time"]
        inside = s is not None and t is not None and s + t >= v["from"] and s <= v["to"]
        if r["x"] is None:
            if inside and not (s + t == v["from"] and t > 0):
                fail(where + ": %r in the view, without a bar" % name)
            continue
        if not inside:
            fail(where + ": %r outside the view, with a bar" % name)
        a = max(x0, x0 + (s - v["from"]) * scale)
        b = min(x1, x0 + (s + t - v["from"]) * scale)
        if r["x"] < x0 - eps or r["x"] + r["w"] > x1 + eps or r["w"] < 1 - eps:
            fail(where + ": %r's bar off the axis" % name)
        if b - a >= 1 and (abs(r["x"] - a) > 1e-6 * x1 or abs(r["x"] + r["w"] - b) > 1e-6 * x1):
            fail(where + ": %r's bar at %.3f-%.3f, not %.3f-%.3f"
                 % (name, r["x"], r["x"] + r["w"], a, b))
        if r["fill"] != ("#d04030" if ic.get("returned") is False else "#e8a040"):
            fail(where + ": %r's colour" % name)
    last = None
    for p in sorted(g["phases"], key=lambda p: p["x"]):
        ph = rep["phases"][p["phase"]]
        if p["x"] < x0 - eps or p["x"] + p["w"] > x1 + eps:
            fail(where + ": phase %r off the axis" % ph["name"])
        if p["label"] and len(p["label"]) * cw + 6 > p["w"] + eps:
            fail(where + ": phase label %r wider than its stretch" % p["label"])
        if p["label"] not in ("", ph["name"], str(p["phase"] + 1)):
            fail(where + ": phase label %r" % p["label"])
        if last and p["x"] < last["x"] + last["w"] - 1 - eps:
            fail(where + ": phases over each other")
        last = p
    ticks = g["ticks"]
    for k, t in enumerate(ticks):
        if not x0 - eps <= t["x"] <= x1 + eps:
            fail(where + ": tick %r off the axis" % t["label"])
        if k and t["x"] - ticks[k - 1]["x"] < len(ticks[k - 1]["label"]) * cw + 8 - eps:
            fail(where + ": tick labels %r and %r over each other" % (ticks[k - 1]["label"], t["label"]))
    labels = [t["label"] for t in ticks]
    if len(set(labels)) != len(labels):
        fail(where + ": two ticks with one label: %r" % labels)
    if len(ticks) < 2 and v["to"] - v["from"] > 1:
        fail(where + ": %d ticks" % len(ticks))


def png_pixels(path):
    """An 8-bit RGB or RGBA, non-interlaced PNG: (width, height, rows of bytes, bytes a pixel)."""
    try:
        return read_png(path)
    except ValueError as e:
        fail(str(e))


def rgb(hexcol):
    return tuple(int(hexcol[i:i + 2], 16) for i in (1, 3, 5))


def check_shot(dom, png):
    p, _ = parse(dom)
    body = [a for t, a in p.tags if t == "body"][0]
    if body.get("data-ready") != "1":
        fail(dom + ": the page did not finish drawing")
    errs = [a for t, a in p.tags if t == "pre" and a.get("id") == "errors"][0]
    if "hidden" not in errs:
        fail(dom + ": the page reported an error")
    svg = [a for t, a in p.tags if t == "svg" and a.get("id") == "chart"][0]
    lay = json.loads(svg["data-layout"])
    w, h, rows, bpp = png_pixels(png)
    colours = set()
    for y in range(0, h, 7):
        for x in range(0, w, 7):
            colours.add(bytes(rows[y][x * bpp:x * bpp + 3]))
    if len(colours) < 8:
        fail(png + ": nearly blank (%d colours)" % len(colours))
    checked = 0
    for tag, a in p.tags:
        if tag != "rect" or a.get("class", "").split()[:1] not in (["ic"], ["phase"]):
            continue
        x, y, bw, bh = (float(a[k]) for k in ("x", "y", "width", "height"))
        if not lay["x0"] - 1e-6 <= x and x + bw <= lay["x1"] + 1e-6:
            fail(dom + ": a bar off the axis")
        if bw < 4 or bh < 4 or "sel" in a.get("class", ""):
            continue
        # a phase's name is written over its middle: below it, then
        cx = int(lay["left"] + x + bw / 2)
        cy = int(lay["top"] + y + (bh - 3 if a["class"] == "phase" else bh / 2))
        if not (0 <= cx < w and 0 <= cy < h):
            continue
        got = tuple(rows[cy][cx * bpp:cx * bpp + 3])
        want = rgb(a["fill"])
        if max(abs(g - e) for g, e in zip(got, want)) > 12:
            fail("%s: at (%d, %d), the centre of a bar %s, the colour %r" % (png, cx, cy, a["fill"], got))
        checked += 1
    if checked < 3:
        fail(png + ": %d bars on the screen to check" % checked)
    print("shot: %d bars where the geometry puts them, view %.3f-%.3f us" % (checked, lay["from"], lay["to"]))
    return lay


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "page":
        check_page(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    elif cmd == "script":
        check_script(sys.argv[2], sys.argv[3])
    elif cmd == "layout":
        check_layout(sys.argv[2], sys.argv[3])
    elif cmd == "shot":
        check_shot(sys.argv[2], sys.argv[3])
    else:
        fail("usage: html_check.py page|script|layout|shot ...")
