#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install KFT into a Linux source tree of one of the series in
# patches/SERIES, idempotently:
#   - files under kernel/ include/ scripts/ Documentation/ arch/ are copied
#     to the same path in the tree (Kconfig.kft goes to kernel/Kconfig.kft);
#     an unchanged file is not touched, so rebuilds stay incremental;
#   - patches/linux-SERIES/series, for the tree's `make kernelversion`, is
#     applied with patch -p1 and no fuzz (a hunk whose context does not
#     match exactly is refused, never applied elsewhere); the applied copy
#     is kept in $KSRC/.kft/, and a changed series is first reversed.
#
# A tree the queue does not apply to is left as it was: nothing is copied
# or patched unless every hunk applies.
#
# usage: patches/install.sh KSRC
# KFT_PATCHES: another directory of SERIES and queues (the tests').
set -euo pipefail

die() { echo "kft-install: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: $0 KSRC"
ksrc=$(cd "$1" && pwd) || die "no kernel tree at $1"
repo=$(cd "$(dirname "$0")/.." && pwd)
patches=$(cd "${KFT_PATCHES:-$repo/patches}" && pwd)
state=$ksrc/.kft

ver=$(make -s -C "$ksrc" kernelversion 2>/dev/null) || die "$ksrc: not a kernel tree"
kver=$(echo "$ver" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
series_dir=$patches/linux-$kver
if [ -z "$kver" ] || [ ! -f "$series_dir/series" ]; then
	have=$(awk '!/^#/ && NF { printf "%s%s.y", sep, $1; sep = ", " }' "$patches/SERIES")
	die "$ksrc is Linux $ver; KFT has patches for Linux $have (patches/SERIES)"
fi

copy() {	# copy SRC DST: only when the content differs
	mkdir -p "$(dirname "$2")"
	cmp -s "$1" "$2" || cp "$1" "$2"
}

cd "$repo"
git_files() {
	if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$repo" ls-files --cached --others --exclude-standard -- "$@"
	else
		find "$@" -type f
	fi
}
copy_kft_files() {
	local f
	for f in $(git_files kernel include scripts Documentation arch); do
		[ -f "$f" ] && copy "$f" "$ksrc/$f"
	done
	copy Kconfig.kft "$ksrc/kernel/Kconfig.kft"
}

# Patches: nothing to do if the same series is applied already.
if [ -d "$state/patches" ] && diff -qr "$state/patches" "$series_dir" >/dev/null; then
	copy_kft_files
	echo "kft-install: $ksrc is up to date (Linux $ver)"
	exit 0
fi

# Work on copies of the files the old and new series touch: reverse the old
# series there, apply the new one, and copy back only the files whose
# content changed, so that unchanged files keep their timestamps and a
# rebuild stays incremental.
touched() {	# the files a series' patches touch
	local dir=$1 p
	[ -f "$dir/series" ] || return 0
	while read -r p; do
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$dir/$p"
	done < "$dir/series"
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t files < <({ touched "$state/patches"; touched "$series_dir"; } | sort -u)
for f in "${files[@]}"; do
	[ -f "$ksrc/$f" ] || die "$ksrc/$f is missing"
	mkdir -p "$work/$(dirname "$f")"
	cp -p "$ksrc/$f" "$work/$f"
done
if [ -f "$state/patches/series" ]; then
	tac "$state/patches/series" | while read -r p; do
		patch -s -p1 -F0 -R -d "$work" < "$state/patches/$p" ||
			die "cannot reverse the installed $p: restore the tree and retry"
	done
fi
while read -r p; do
	if [ ! -f "$state/patches/series" ] &&
	   patch -s -p1 -F0 -R --dry-run -f -d "$work" < "$series_dir/$p" >/dev/null 2>&1; then
		echo "kft-install: $p already applied"
		patch -s -p1 -F0 -R -d "$work" < "$series_dir/$p"
	fi
	# No fuzz, and no patch at all unless every hunk applies: a hunk
	# applied with fuzz can land in the wrong function without an error.
	if ! out=$(patch -p1 -F0 -N --dry-run -d "$work" < "$series_dir/$p" 2>&1); then
		echo "$out" | sed 's/^/  /' >&2
		die "linux-$kver/$p does not apply to $ksrc (Linux $ver) without fuzz; nothing was changed.  See Documentation/trace/kft/arch.rst, \"Installing into your own tree\""
	fi
	patch -s -p1 -F0 -N -d "$work" < "$series_dir/$p"
done < "$series_dir/series"
copy_kft_files
for f in "${files[@]}"; do
	copy "$work/$f" "$ksrc/$f"
done
rm -rf "$state"
mkdir -p "$state"
cp -r "$series_dir" "$state/patches"
echo "kft-install: KFT installed in $ksrc (Linux $ver)"
