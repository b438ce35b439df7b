#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read a boot-data file as the Boot Time SIG's boot-data tool does, and
check it against kd --boot --json:

  boot_data_read.py FILE REPORT.json [N]

boot-data (github.com/tbird20d/boot-time-wizard: boot-data,
boot_data_parser.py; the files grab-boot-data.sh writes) reads a file of
sections: a line that begins "== " starts one, named by the rest of the
line stripped, less its closing " ==" (a header without it is malformed);
the lines up to the next header are its body.  It looks at every line,
whatever its section, for
  - an initcall: a line with "initcall " and "returned " in it, matched by
    ".* initcall (.*) returned ([-0-9]+) after ([0-9]+) usecs"; the name is
    what comes before the first "+"; a later line of a name replaces an
    earlier one;
  - time-to-init: a line with "Run /init as init process" (or /sbin/init):
    the seconds between its leading "[" and the first "]";
and reads its own sections (Kernel Info, MEMORY, CORES, ...) by name;
others it passes over.  This reader is written from that description (its
code read, none copied); it adds checks of its own: the file is ASCII, every
line is a header, a KEY="VALUE" line of KFT INFO, an empty line ending a
section or a kernel message as kd writes them, and every initcall and
time-to-init comes from KERNEL MESSAGES.

Then it computes what boot-data top and compare show - the N longest
initcalls (default 10), time-to-init - and compares them, and every
initcall, with the JSON report of the same log: names written as one word
(bytes from '!' to '~' but '+', '"' and backslash, others \\xNN), durations in
whole microseconds.  Exit 0 if all agree, else 1 with what differs.
"""
import json
import math
import re
import sys

INITCALL = re.compile(r".* initcall (.*) returned ([-0-9]+) after ([0-9]+) usecs")
STAMP = r"\[ *[0-9]+\.[0-9]{6}\] "
KMSG = re.compile(STAMP + r"(calling  [!-~]+\+0x0/0x0 @ -?[0-9]+|"
                  r"initcall [!-~]+\+0x0/0x0 returned 0 after [0-9]+ usecs|"
                  r"Run /init as init process)$")
INFO = re.compile(r'KFT_[A-Z_]+="[!-~]*"$')


def word(name):
    """A name as kd writes it in a kernel message: one word."""
    return "".join(chr(b) if 0x21 <= b <= 0x7e and b not in (0x22, 0x2b, 0x5c)
                   else "\\x%02x" % b for b in name.encode("utf-8"))


def read(path):
    raw = open(path, "rb").read()
    bad = [i for i, b in enumerate(raw) if b > 0x7e or (b < 0x20 and b != 0x0a)]
    assert not bad, "not ASCII text at byte %d" % bad[0]
    # boot-data opens the file as text: universal newlines, as here.
    lines = open(path, encoding="ascii").readlines()
    assert lines == raw.decode("ascii").splitlines(keepends=True), "a line break other than \\n"
    sections, section, order = {}, "", []
    initcalls, time_to_init = {}, None
    for no, line in enumerate(lines, 1):
        where = "%s:%d" % (path, no)
        if line.startswith("== "):
            name = line[3:].strip()
            assert name.endswith(" =="), "%s: malformed section header" % where
            section = name[:-3]
            assert section not in sections, "%s: section %s twice" % (where, section)
            sections[section] = []
            order.append(section)
            continue
        body = line.rstrip("\n")
        if section:
            sections[section].append(body)
        if "initcall " in line and "returned " in line:
            m = INITCALL.match(line)
            assert m, "%s: an initcall line boot-data cannot parse" % where
            assert section == "KERNEL MESSAGES", "%s: an initcall outside KERNEL MESSAGES" % where
            initcalls[m.group(1).split("+", 1)[0]] = int(m.group(3))
        if "Run /init as init process" in line or "Run /sbin/init as init process" in line:
            assert section == "KERNEL MESSAGES", "%s: time-to-init outside KERNEL MESSAGES" % where
            stamp = line.split("]", 1)[0]
            assert stamp.startswith("["), where
            time_to_init = float(stamp[1:])
        # kd's own forms, line by line.
        if section == "KFT INFO":
            assert INFO.match(body) or body == "", "%s: not a KFT INFO line: %r" % (where, body)
        elif section == "KERNEL MESSAGES":
            assert KMSG.match(body) or body == "", "%s: not a kernel message: %r" % (where, body)
        else:
            assert False, "%s: a line outside kd's sections: %r" % (where, body)
    for name, body in sections.items():
        assert body and body[-1] == "" and "" not in body[:-1], \
            "section %s: not ended by one empty line" % name
    info = dict(l.split("=", 1) for l in sections.get("KFT INFO", []) if l)
    info = {k: v.strip('"') for k, v in info.items()}
    return order, info, initcalls, time_to_init


def half_up(us):
    """kd's whole microseconds (C's llround(): halves away from 0)."""
    return math.floor(us + 0.5)


def top(initcalls, n):
    """boot-data top -t initcall: longest first (ties: by name, here)."""
    return sorted(initcalls.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def main():
    path, report = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    order, info, initcalls, tti = read(path)
    assert order == ["KFT INFO", "KERNEL MESSAGES"], order
    r = json.load(open(report, encoding="utf-8"))
    want = {}
    # The lines come in the order of the initcalls' ends: the last wins.
    for ic in sorted((i for i in r["initcalls"] if i["name"] is not None
                      and i.get("returned", True)),
                     key=lambda i: i["start"] + i["time"]):
        want[word(ic["name"])] = half_up(ic["time"])
    assert initcalls == want, (initcalls, want)
    assert top(initcalls, n) == top(want, n)
    b = r["boot"]
    if b["reached_user_space"]:
        assert tti is not None and abs(tti - b["end"] / 1e6) < 5e-7, (tti, b["end"])
        assert int(info["KFT_TIME_TO_INIT_USECS"]) == half_up(b["end"]), info
    else:
        assert tti is None and "KFT_TIME_TO_INIT_USECS" not in info, (tti, info)
    if b["start_kernel"]:
        assert int(info["KFT_START_KERNEL_USECS"]) == half_up(b["start"]), info
    assert int(info["KFT_INITCALLS"]) == sum(i["name"] is not None for i in r["initcalls"]), info
    assert info["KFT_TIMES"] == r.get("times", "measured"), info
    for name, us in top(initcalls, n):
        print("%-40s = %8d usecs" % (name, us))
    print("time_to_init = %s" % tti)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("boot_data_read.py: %s" % e, file=sys.stderr)
        sys.exit(1)
