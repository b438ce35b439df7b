#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's own bar for KFT's kernel code: checkpatch.pl --strict, a W=1
# build of the KFT objects without warnings, and sparse (C=1).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
. tests/lib/common.sh

kdir=$(tests/lib/kbuild.sh kft gcc | tail -n 1)
ok $? "reference kernel builds" || { tap_done; exit; }
ksrc=$(kft_kernel_tree)
files=$(git ls-files kernel include arch | grep -E '\.(c|h)$')
objs=$(git ls-files kernel | grep -E '\.c$' | sed 's/\.c$/.o/')

# checkpatch looks for a __setup() parameter's documentation in the same
# patch, which -f cannot give it: kft= is documented by patch 0004, and
# checked for below.
# shellcheck disable=SC2086
"$ksrc/scripts/checkpatch.pl" --strict --no-tree --quiet \
	--ignore UNDOCUMENTED_SETUP -f $files > "$kdir/checkpatch.txt" 2>&1
[ ! -s "$kdir/checkpatch.txt" ]
ok $? "checkpatch.pl --strict is clean on $(echo $files | wc -w) files"
cat "$kdir/checkpatch.txt"
grep -q '^	kft=' "$ksrc/Documentation/admin-guide/kernel-parameters.txt"
ok $? "kft= is documented in Documentation/admin-guide/kernel-parameters.txt"

# rebuild_clean NAME DESCRIPTION MAKE-ARGS...: rebuild the KFT objects with
# extra make arguments; no warning or error may come out.
rebuild_clean() {
	local name=$1 desc=$2
	shift 2
	touch $(for o in $objs; do echo "$ksrc/${o%.o}.c"; done)
	# shellcheck disable=SC2086
	make -s -C "$ksrc" O="$kdir" ARCH=x86_64 CC="ccache gcc" "$@" $objs > "$kdir/$name.txt" 2>&1 &&
		! grep -qE 'warning:|error:' "$kdir/$name.txt"
	ok $? "$desc"
	cat "$kdir/$name.txt"
}

rebuild_clean w1 "W=1 build of the KFT objects has no warnings" W=1
if command -v sparse >/dev/null; then
	rebuild_clean sparse "sparse (C=1) is clean on the KFT objects" C=1
else
	ok 1 "sparse is installed (make deps)"
fi
tap_done
