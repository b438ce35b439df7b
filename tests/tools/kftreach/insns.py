#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare kftsites --insns with objdump -d on one object.

usage: insns.py ARCH OBJDUMP-DR-OUTPUT KFTSITES-INSNS-OUTPUT

Every instruction kftsites decoded must start where objdump's does, run
to where objdump's next one starts (or further: objdump's padding), and a
direct branch without a relocation must go where objdump says; every
direct branch objdump shows inside a decoded function must be one
kftsites decoded.  Prints a
summary line; exit status 1 on any mismatch.
"""
import bisect
import collections
import re
import sys

BRANCH = {
    "x86_64": r"(call|jmp|j[a-z]{1,3}|loop[a-z]*|j[er]?cxz)",
    "arm64": r"(b|bl|b\.[a-z]{2}|cbn?z|tbn?z)",
    "riscv64": r"(j|jal|b[a-z]{1,4}|c\.j|c\.beqz|c\.bnez)",
    "arm": r"(b|bl|blx|b[a-z]{2}|cbn?z)(\.[nw])?",
}
PREFIXES = {"lock", "rep", "repz", "repnz", "data16", "cs", "ds", "notrack", "bnd"}

arch, objdump_out, mine_out = sys.argv[1:4]
branch = re.compile(BRANCH[arch] + r"$")
target_re = re.compile(r"(?:^|[\s,])([0-9a-f]+) <")
starts = collections.defaultdict(list)
insn = {}
relocs = collections.defaultdict(set)
zeros = collections.defaultdict(list)	# objdump's "...": zero bytes skipped
sec = None
last = gap = None
for line in open(objdump_out, errors="replace"):
    m = re.match(r"^Disassembly of section (\S+):", line)
    if m:
        sec = m.group(1)
        last = gap = None
        continue
    if line.strip() == "...":
        gap = last
        continue
    m = re.match(r"^\t+([0-9a-f]+): R_", line)
    if m and sec is not None:
        relocs[sec].add(int(m.group(1), 16))
        continue
    m = re.match(r"^\s*([0-9a-f]+):\t(.*)$", line)
    if not m or sec is None:
        continue
    off, text = int(m.group(1), 16), m.group(2).strip()
    if gap is not None:
        zeros[sec].append((gap, off))
        gap = None
    last = off
    words = text.split(None, 1)
    while len(words) > 1 and words[0] in PREFIXES:
        words = words[1].split(None, 1)
    mnem = words[0] if words else ""
    ops = words[1] if len(words) > 1 else ""
    # Not an indirect branch, whose memory operand objdump annotates.
    t = target_re.search(ops) if branch.match(mnem) and not ops.startswith("*") else None
    starts[sec].append(off)
    insn[sec, off] = (mnem, int(t.group(1), 16) if t else None)
for s in starts:
    starts[s].sort()

bad = n = nbranch = 0
decoded_branches = set()
ranges = collections.defaultdict(list)


def mismatch(msg):
    global bad
    bad += 1
    if bad <= 10:
        print("mismatch:", msg)


for line in open(mine_out):
    f = line.split()
    if f[2] == "?":
        mismatch("undecoded at %s %s" % (f[0], f[1]))
        continue
    s, off, ln = f[0], int(f[1], 16), int(f[2], 16)
    n += 1
    ranges[s].append((off, off + ln))
    v = starts.get(s, [])
    i = bisect.bisect_left(v, off)
    if any(a < off < b for a, b in zeros.get(s, ())):
        continue		# zero bytes objdump did not show
    if i >= len(v) or v[i] != off:
        mismatch("%s+%#x: objdump has no instruction there" % (s, off))
        continue
    if i + 1 < len(v) and v[i + 1] < off + ln:
        mismatch("%s+%#x: %d bytes, objdump's next at %#x" % (s, off, ln, v[i + 1]))
    if len(f) > 3:
        nbranch += 1
        decoded_branches.add((s, off))
        mnem, t = insn[s, off]
        relocated = any(x in relocs[s] for x in range(off, off + ln))
        if t is not None and not relocated and t != int(f[3], 16):
            mismatch("%s+%#x: %s to %s, objdump says %#x" % (s, off, mnem, f[3], t))
# The other way: objdump's direct branches inside what was decoded.
for (s, off), (mnem, t) in insn.items():
    if t is None or (s, off) in decoded_branches:
        continue
    r = ranges.get(s, [])
    i = bisect.bisect_right(r, (off, float("inf"))) - 1
    if i >= 0 and r[i][0] == off:
        mismatch("%s+%#x: objdump's %s to %#x not decoded as a branch" % (s, off, mnem, t))
print("%d instructions, %d branches decoded; %d mismatches" % (n, nbranch, bad))
sys.exit(1 if bad else 0)
