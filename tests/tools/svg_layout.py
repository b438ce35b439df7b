#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check an SVG kd wrote by its geometry, as a static view shows it.

  svg_layout.py check FILE...   every text and shape within the canvas; no
                                text over another text, nor over a shape
                                unless wholly inside it (a label in its bar);
                                hatching (class "off") and lines are not shapes
  svg_layout.py metrics SVG PNG the font assumption: the ink of each text of
                                the SVG (rendered to PNG by rsvg-convert) lies
                                inside its computed box

Text boxes come from the font kd declares: monospace, ADVANCE font sizes a
character, ASCENT above the baseline and DESCENT below.
"""
import sys
import xml.etree.ElementTree as ET

from kftpng import read_png

ADVANCE, ASCENT, DESCENT = 0.61, 0.80, 0.26
NS = "{http://www.w3.org/2000/svg}"


def boxes(path):
    root = ET.parse(path).getroot()
    vb = root.get("viewBox")
    W, H = (float(root.get("width")), float(root.get("height")))
    if vb:
        assert [float(v) for v in vb.split()] == [0, 0, W, H], vb
    texts, shapes = [], []

    def walk(el, fs, dx, dy):
        tag = el.tag.replace(NS, "")
        if tag in ("defs", "pattern", "title"):
            return
        fs = float(el.get("font-size", fs))
        tr = el.get("transform")
        if tr:
            assert tr.startswith("translate(") and tr.endswith(")"), tr
            a, b = tr[10:-1].split(",")
            dx, dy = dx + float(a), dy + float(b)
        if tag == "text":
            s = "".join(el.itertext())
            x, y = float(el.get("x")) + dx, float(el.get("y")) + dy
            texts.append((x, y - ASCENT * fs, x + len(s) * ADVANCE * fs,
                          y + DESCENT * fs, s, fs))
        elif tag == "rect" and "%" not in el.get("width", ""):
            x, y = float(el.get("x", 0)) + dx, float(el.get("y", 0)) + dy
            box = (x, y, x + float(el.get("width")), y + float(el.get("height")))
            assert box[2] >= box[0] and box[3] >= box[1], box
            shapes.append(box + (el.get("class") == "off",))
        for c in el:
            walk(c, fs, dx, dy)
    walk(root, 16.0, 0.0, 0.0)
    return W, H, texts, shapes


def overlap(a, b, eps=0.01):
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


def inside(a, b, eps=0.6):
    return a[0] >= b[0] - eps and a[2] <= b[2] + eps and a[1] >= b[1] - eps and a[3] <= b[3] + eps


def grid(items, cell=64.0):
    g = {}
    for i, it in enumerate(items):
        for cx in range(int(it[0] // cell), int(it[2] // cell) + 1):
            for cy in range(int(it[1] // cell), int(it[3] // cell) + 1):
                g.setdefault((cx, cy), []).append(i)
    return g


def check(path):
    W, H, texts, shapes = boxes(path)
    bad = []
    for t in texts:
        if t[0] < -0.5 or t[1] < -0.5 or t[2] > W + 0.5 or t[3] > H + 0.5:
            bad.append("text past the edge (%gx%g): %r at %.1f..%.1f, %.1f..%.1f" % (W, H, t[4], t[0], t[2], t[1], t[3]))
    for s in shapes:
        if s[0] < -0.5 or s[1] < -0.5 or s[2] > W + 0.5 or s[3] > H + 0.5:
            bad.append("shape past the edge: %r" % (s,))
    tg = grid(texts)
    seen = set()
    for ids in tg.values():
        for i in ids:
            for j in ids:
                if i < j and (i, j) not in seen:
                    seen.add((i, j))
                    if overlap(texts[i], texts[j]):
                        bad.append("text over text: %r and %r" % (texts[i][4], texts[j][4]))
    solid = [s for s in shapes if not s[4]]
    sg = grid(solid)
    for t in texts:
        near = set()
        for cx in range(int(t[0] // 64), int(t[2] // 64) + 1):
            for cy in range(int(t[1] // 64), int(t[3] // 64) + 1):
                near.update(sg.get((cx, cy), ()))
        for k in near:
            s = solid[k]
            if overlap(t, s) and not inside(t, s):
                bad.append("text over a shape not its own: %r at %.1f..%.1f over %r" % (t[4], t[0], t[2], s[:4]))
    for b in bad[:20]:
        print("%s: %s" % (path, b), file=sys.stderr)
    return not bad, len(texts), len(shapes)


def png_alpha_ink(path):
    """(width, height, rows of booleans: dark ink) of an 8-bit RGBA/RGB PNG."""
    w, h, lines, bpp = read_png(path)
    rows = [[line[i * bpp] < 160 and (bpp == 3 or line[i * bpp + 3] > 100) for i in range(w)]
            for line in lines]
    return w, h, rows


def metrics(svg, png):
    """Each text of svg (black on white, apart) inked inside its box."""
    W, H, texts, _ = boxes(svg)
    w, h, rows = png_alpha_ink(png)
    assert (w, h) == (int(W), int(H)), (w, h, W, H)
    ok = True
    for t in texts:
        x0, y0, x1, y1 = int(t[0]) - 3, int(t[1]) - 6, int(t[2]) + 6, int(t[3]) + 6
        ink = [(x, y) for y in range(max(y0, 0), min(y1, h)) for x in range(max(x0, 0), min(x1, w)) if rows[y][x]]
        assert ink, t
        ix0, ix1 = min(p[0] for p in ink), max(p[0] for p in ink) + 1
        iy0, iy1 = min(p[1] for p in ink), max(p[1] for p in ink) + 1
        good = ix0 >= t[0] - 1 and ix1 <= t[2] + 1 and iy0 >= t[1] - 1 and iy1 <= t[3] + 1
        # The advance itself: a full line of characters is nearly as wide.
        good = good and ix1 - ix0 >= (t[2] - t[0]) * 0.9
        print("%r %gpx: ink %d..%d x %d..%d, box %.1f..%.1f x %.1f..%.1f %s" %
              (t[4], t[5], ix0, ix1, iy0, iy1, t[0], t[2], t[1], t[3], "ok" if good else "OUTSIDE"))
        ok = ok and good
    return ok


if __name__ == "__main__":
    if sys.argv[1] == "check":
        res = [check(p) for p in sys.argv[2:]]
        for p, r in zip(sys.argv[2:], res):
            print("%s: %s, %d texts, %d shapes" % (p, "ok" if r[0] else "BAD", r[1], r[2]))
        sys.exit(0 if all(r[0] for r in res) else 1)
    if sys.argv[1] == "metrics":
        sys.exit(0 if metrics(sys.argv[2], sys.argv[3]) else 1)
    sys.exit(2)
