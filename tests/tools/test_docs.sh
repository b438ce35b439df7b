#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The documentation reads as reStructuredText should: kft.rst parsed by
# docutils (Debian's, as make deps installs it) with no error or warning
# but for Sphinx's own roles, which docutils alone does not know.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
/usr/bin/python3 - Documentation/trace/kft.rst > "${TMPDIR:-/tmp}/kft-rst.$$" 2>&1 <<'PY'
import io, re, sys
import docutils.core
err = io.StringIO()
docutils.core.publish_doctree(open(sys.argv[1]).read(), source_path=sys.argv[1],
                              settings_overrides={"warning_stream": err, "report_level": 2})
bad = [l for l in err.getvalue().splitlines()
       if re.search(r"\((WARNING|ERROR|SEVERE)/", l) and "Unknown interpreted text role" not in l]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
rc=$?
sed 's/^/# /' "${TMPDIR:-/tmp}/kft-rst.$$"
rm -f "${TMPDIR:-/tmp}/kft-rst.$$"
[ $rc -eq 0 ]
ok $? "Documentation/trace/kft.rst: valid reStructuredText (docutils), no warnings"
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
