#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The manual, Documentation/trace/kft/, reads as reStructuredText should
# (docutils, Debian's, as make deps installs it), hangs together as the
# kernel's Sphinx build needs it, and carries no history.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
docs=Documentation/trace/kft
# doc_check NAME PYTHON: run a python check on the manual's directory, its
# output as TAP comments.
doc_check() {
	local out rc
	out=$(/usr/bin/python3 - "$docs" 2>&1 <<<"$2")
	rc=$?
	[ -n "$out" ] && echo "$out" | sed 's/^/# /'
	ok $rc "$1"
}
# Every chapter parsed by docutils: no error or warning but for Sphinx's
# own roles and directives (:ref:, toctree), which docutils alone does not
# know.
doc_check "$docs/*.rst: valid reStructuredText (docutils), no warnings" '
import glob, io, re, sys
import docutils.core
files = sorted(glob.glob(sys.argv[1] + "/*.rst"))
bad = [] if files else ["no .rst files in " + sys.argv[1]]
for f in files:
    err = io.StringIO()
    docutils.core.publish_doctree(open(f).read(), source_path=f,
                                  settings_overrides={"warning_stream": err, "report_level": 2})
    bad += [l for l in err.getvalue().splitlines()
            if re.search(r"\((WARNING|ERROR|SEVERE)/", l)
            and "Unknown interpreted text role \"ref\"" not in l
            and "Unknown directive type \"toctree\"" not in l]
for l in bad:
    print(l)
print(len(files), "files parsed")
sys.exit(1 if bad else 0)
'
# index.rst's toctree lists every chapter, and every chapter it lists
# exists.
doc_check "$docs/index.rst: its toctree lists every chapter, each exists" '
import glob, os, re, sys
d = sys.argv[1]
lines = open(d + "/index.rst").read().split("\n")
entries, inside = [], False
for l in lines:
    if l.startswith(".. toctree::"):
        inside = True
    elif inside and l.strip() and not l.startswith((" ", "\t")):
        inside = False
    elif inside and l.strip() and not l.strip().startswith(":"):
        entries.append(l.strip())
chapters = {os.path.basename(f)[:-4] for f in glob.glob(d + "/*.rst")} - {"index"}
bad = 0
for e in entries:
    if not os.path.isfile(os.path.join(d, e + ".rst")):
        print("toctree lists a missing chapter:", e); bad = 1
for c in sorted(chapters - set(entries)):
    print("not in the toctree:", c + ".rst"); bad = 1
if not entries:
    print("no toctree in index.rst"); bad = 1
print(len(entries), "chapters")
sys.exit(bad)
'
# Cross-references between chapters are :ref: labels (docutils resolves
# only a file'"'"'s own `Section`_ links): each names a label some chapter
# defines, and no label is defined twice.
doc_check "$docs: every :ref: names a label a chapter defines, once" '
import glob, re, sys
labels, refs, bad = {}, [], 0
for f in sorted(glob.glob(sys.argv[1] + "/*.rst")):
    t = open(f).read()
    for m in re.finditer(r"^\.\. _([^:`]+):\s*$", t, re.M):
        if m.group(1) in labels:
            print(f"{f}: label {m.group(1)} also in {labels[m.group(1)]}"); bad = 1
        labels[m.group(1)] = f
    for m in re.finditer(r":ref:`([^`]*)`", t):
        target = m.group(1)
        tm = re.search(r"<([^>]+)>\s*$", target)
        refs.append((f, t.count("\n", 0, m.start()) + 1, (tm.group(1) if tm else target).strip()))
for f, line, r in refs:
    if r not in labels:
        print(f"{f}:{line}: :ref: to an unknown label {r}"); bad = 1
print(len(refs), "references to", len(labels), "labels")
sys.exit(bad)
'
# No chapter carries a commit hash: the manual gives current figures and
# behaviour, the history is in git.  A hash is a token of 7 to 40 hex
# digits with letters and digits in it (an address is written 0x...), or
# a revision named by digits alone ("at 8971031", not "at 1992007.156" or
# "at 10764155 usec").
hash_check='
import glob, re, sys
bad = 0
for f in sorted(glob.glob(sys.argv[1] + "/*.rst")):
    for n, l in enumerate(open(f), 1):
        for m in re.finditer(r"(?<![0-9A-Za-z_.])[0-9a-f]{7,40}(?![0-9A-Za-z_])", l):
            tok = m.group(0)
            if re.search(r"[a-f]", tok) and re.search(r"[0-9]", tok) and not l[:m.start()].endswith("0x"):
                print(f"{f}:{n}: a commit hash? {tok}"); bad = 1
        for m in re.finditer(r"\bat ([0-9]{7,12})(?![0-9.,])(?! ?(usec|[unm]?s)\b)", l):
            print(f"{f}:{n}: a commit hash? {m.group(1)}"); bad = 1
sys.exit(bad)
'
doc_check "$docs: no commit hash in the manual" "$hash_check"
# ... and the check finds one: a hash, a digits-only one; not an address,
# a number, a time.
tmp=$(mktemp -d)
printf 'Measured at 234c8b8, 0.93x.\n' > "$tmp/a.rst"
! /usr/bin/python3 - "$tmp" <<<"$hash_check" >/dev/null
ok $? "the commit hash check finds a hash (234c8b8)"
printf 'As run at 8971031 (median).\n' > "$tmp/a.rst"
! /usr/bin/python3 - "$tmp" <<<"$hash_check" >/dev/null
ok $? "the commit hash check finds a digits-only hash (at 8971031)"
printf '0xffffffff811b6f40 at 1992007.156 us, at 10764155 usec, 16777216 calls, 4294967295, 1.046x, x86_64, addr2sym, 3689 passed\n' > "$tmp/a.rst"
/usr/bin/python3 - "$tmp" <<<"$hash_check" >/dev/null
ok $? "the commit hash check passes addresses, numbers and names"
rm -rf "$tmp"
# What points at the manual finds it: every Documentation/trace/kft...
# path named in KFT's code, Kconfig, patch queues (the lines they add or
# keep), installer, tests and READMEs is a file or directory of the manual
# (but in patches/RETIRED, the files KFT no longer ships).
doc_check "references to Documentation/trace/kft* name files that exist" '
import os, re, subprocess, sys
files = subprocess.run(["git", "ls-files", "kernel", "include", "arch", "scripts", "patches",
                        "tests", "bench", "Kconfig.kft", "README.md", "Makefile"],
                       capture_output=True, text=True, check=True).stdout.split()
bad, n = 0, 0
for f in files:
    if "/corpus" in f or f == "patches/RETIRED" or not os.path.isfile(f):
        continue
    try:
        text = open(f, encoding="utf-8").read()
    except UnicodeDecodeError:
        continue
    for ln, l in enumerate(text.split("\n"), 1):
        if l.startswith("-") and f.startswith("patches/"):
            continue
        for m in re.finditer(r"Documentation/trace/kft[A-Za-z0-9_./-]*", l):
            p = m.group(0).rstrip(".")
            n += 1
            if not os.path.exists(p):
                print(f"{f}:{ln}: {p} does not exist"); bad = 1
print(n, "references")
sys.exit(bad)
'
# README's Layout table names every file of KFT (by its path, by its name
# in a row of its folder, or by a folder or pattern that holds it), and
# its links lead to files that exist.
/usr/bin/python3 - > "${TMPDIR:-/tmp}/kft-layout.$$" 2>&1 <<'PY'
import fnmatch, os, re, subprocess, sys
readme = open("README.md").read()
layout = readme.split("\n## Layout", 1)[1] if "\n## Layout" in readme else ""
rows = [l for l in layout.splitlines() if l.startswith("| `")]
names = [[n for n in re.findall(r"`([^`]+)`", r.split("|")[1])] for r in rows]
files = subprocess.run(["git", "ls-files", "kernel", "include", "arch", "scripts", "bench",
                        "Documentation", "Kconfig.kft", "patches/SERIES", "patches/install.sh", ".ci"],
                       capture_output=True, text=True, check=True).stdout.split()
def named(f):
    for row in names:
        base = None
        for n in row:
            if n == f or fnmatch.fnmatch(f, n) or (n.endswith("/") and f.startswith(n)):
                return True
            if "/" in n:
                base = os.path.dirname(n.rstrip("/"))
            elif base is not None and f == base + "/" + n:
                return True
    return False
bad = [f for f in files if not named(f)]
for f in bad:
    print("not in README's Layout:", f)
for link in re.findall(r"\]\(([^)#]+)\)", readme):
    if not os.path.exists(link):
        bad.append(link)
        print("README links to a missing file:", link)
print(len(files), "files checked")
sys.exit(1 if bad or not rows else 0)
PY
rc=$?
sed 's/^/# /' "${TMPDIR:-/tmp}/kft-layout.$$"
rm -f "${TMPDIR:-/tmp}/kft-layout.$$"
ok $rc "README.md: the Layout table names every file of KFT; its links exist"
tap_done
