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
tap_done
