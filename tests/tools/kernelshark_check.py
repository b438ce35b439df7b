#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What KernelShark drew: read an X window dump (xwd -root) of KernelShark,
find in its window the task-coloured bars its CPU plots draw (rows with
100 coloured pixels or more), print how many there are, and save the
window as PNG for a human to look at.

usage: kernelshark_check.py XWD WIDTHxHEIGHT+X+Y PNG
Prints "bars N"; exit 0, or 1 if the dump cannot be read.
"""
import struct
import sys

from kftpng import write_png


def read_xwd(path):
    d = open(path, "rb").read()
    if len(d) < 100:
        raise ValueError("not an xwd dump")
    f = struct.unpack(">25I", d[:100])
    header, width, height, bpl, ncolors = f[0], f[4], f[5], f[12], f[19]
    if header < 100 or bpl < 4 * width:	# Xvfb's 24-bit: 4 bytes a pixel
        raise ValueError("not a 4-byte-a-pixel xwd dump")
    off = header + ncolors * 12
    if len(d) < off + bpl * height:
        raise ValueError("xwd dump cut short")

    def px(x, y):
        i = off + y * bpl + 4 * x
        return d[i + 2], d[i + 1], d[i]
    return width, height, px


def png(path, w, h, px, x0, y0):
    write_png(path, w, h, [b"".join(bytes(px(x0 + x, y0 + y)) for x in range(w))
                           for y in range(h)])


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    try:
        sw, sh, px = read_xwd(sys.argv[1])
        size, _, pos = sys.argv[2].partition("+")
        w, h = (int(v) for v in size.split("x"))
        x0, y0 = (int(v) for v in pos.split("+"))
    except (OSError, ValueError) as e:
        print("kernelshark_check: %s" % e)
        sys.exit(1)
    w, h = min(w, sw - x0), min(h, sh - y0)
    # A bar's row: 100 coloured (not grey) pixels or more; a bar is a run
    # of such rows.
    plots, inside = 0, False
    for y in range(y0, y0 + h):
        coloured = 0
        for x in range(x0, x0 + w):
            r, g, b = px(x, y)
            coloured += max(r, g, b) - min(r, g, b) > 40
        full = coloured >= 100
        plots += full and not inside
        inside = full
    png(sys.argv[3], w, h, px, x0, y0)
    print("bars %d" % plots)


main()
