# SPDX-License-Identifier: GPL-2.0
"""PNG for the tests' picture checks, with Python's standard library only:
read an 8-bit RGB or RGBA, non-interlaced PNG (what rsvg-convert and
Chromium write), write an RGB one (a screen dump kept for a human).
Used by svg_layout.py, html_check.py and kernelshark_check.py."""
import struct
import zlib

MAGIC = b"\x89PNG\r\n\x1a\n"


def read_png(path):
    """(width, height, rows of bytes, bytes a pixel); ValueError if the
    file is no PNG this reads."""
    b = open(path, "rb").read()
    if b[:8] != MAGIC:
        raise ValueError(path + ": not a PNG")
    pos, idat, w, h, bpp = 8, b"", None, 0, 0
    while pos + 8 <= len(b):
        n, kind = struct.unpack(">I4s", b[pos:pos + 8])
        body = b[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or inter:
                raise ValueError("%s: a PNG this reader does not read (depth %d, type %d)"
                                 % (path, depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if w is None:
        raise ValueError(path + ": a PNG without its header")
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        cur = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            up = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                cur[i] = (cur[i] + a) & 255
            elif f == 2:
                cur[i] = (cur[i] + up) & 255
            elif f == 3:
                cur[i] = (cur[i] + (a + up) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(up - c), abs(a - c), abs(a + up - 2 * c)
                pr = a if pa <= pb and pa <= pc else up if pb <= pc else c
                cur[i] = (cur[i] + pr) & 255
        rows.append(cur)
        prev = cur
    return w, h, rows, bpp


def write_png(path, w, h, rows):
    """rows: h byte strings of w RGB pixels."""
    def chunk(t, data):
        return struct.pack(">I", len(data)) + t + data + \
            struct.pack(">I", zlib.crc32(t + data) & 0xffffffff)
    with open(path, "wb") as out:
        out.write(MAGIC)
        out.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
        out.write(chunk(b"IDAT", zlib.compress(b"".join(b"\0" + bytes(r) for r in rows))))
        out.write(chunk(b"IEND", b""))
