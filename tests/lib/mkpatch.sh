#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write KFT as one patch for a Linux series (KFT_KVER, default the first of
# patches/SERIES) to standard output, the way the original KFT was
# distributed: the new files, then that series' queue of hunks to existing
# files.  Apply with: patch -p1 < kft.patch
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

newfile() {	# newfile REPO-PATH TREE-PATH
	local n
	n=$(wc -l < "$1")
	echo "diff -uN a/$2 b/$2"
	echo "--- /dev/null"
	echo "+++ b/$2"
	echo "@@ -0,0 +1,$n @@"
	sed 's/^/+/' "$1"
}

. tests/lib/common.sh
kver=$KFT_KVER
[ -f "patches/linux-$kver/series" ] ||
	kft_die "no patches/linux-$kver: KFT has patches for Linux $(kft_series_list)"
echo "KFT (Kernel Function Trace) for Linux $kver, $(git describe --always --dirty 2>/dev/null || echo unknown)"
echo
for f in $(git ls-files kernel include scripts Documentation arch | sort); do
	newfile "$f" "$f"
done
newfile Kconfig.kft kernel/Kconfig.kft
while read -r p; do
	cat "patches/linux-$kver/$p"
done < "patches/linux-$kver/series"
