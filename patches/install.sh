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
#     is kept in $KSRC/.kft/, and a changed series is first reversed;
#   - a file an earlier KFT installed and this one does not ship is
#     removed: those the last install listed in $KSRC/.kft/files, and
#     those patches/RETIRED names (KFT's files before that list was kept).
#
# All or nothing: the queue is applied to copies of the files it touches,
# every path to be written is checked (a regular file or nothing, in a
# real directory of the tree, writable), every new file is written next
# to its place, and only when all are written are they renamed into
# place, the record last.  A failure before that removes what was
# written: "nothing was changed" is then true.  A file of the tree that
# is a symbolic link or a hard link (a tree made with lndir, cp -rs or
# cp -al) is replaced by a patched copy: nothing outside the tree is
# written.  A directory on the way that is a symbolic link is refused.
#
# "up to date" only when the tree carries every hunk of the queue (it
# reverses exactly), whatever the record says: a tree whose files were
# reverted (git checkout) is installed again.  A KFT found without a
# record that is not this queue (an older one, applied by hand) is named
# as such.
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

# The tree's version, from its Makefile alone: run from make (make -C,
# make install), MAKEFLAGS would add "Entering directory" lines and the
# caller's options.
ver=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
	make -s --no-print-directory -C "$ksrc" kernelversion 2>/dev/null) ||
	die "$ksrc: not a kernel tree"
[[ $ver =~ ^[0-9]+\.[0-9]+[^[:space:]]*$ ]] ||
	die "$ksrc: not a kernel tree ('make kernelversion' printed '$(echo "$ver" | head -c 200 | tr '\n' ' ')', not a version)"
kver=$(echo "$ver" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
series_dir=$patches/linux-$kver
if [ -z "$kver" ] || [ ! -f "$series_dir/series" ]; then
	have=$(awk '!/^#/ && NF { printf "%s%s.y", sep, $1; sep = ", " }' "$patches/SERIES")
	die "$ksrc is Linux $ver; KFT has patches for Linux $have (patches/SERIES)"
fi
nochange="nothing was changed"

work=$(mktemp -d)
staged=()	# files written next to their place, not renamed yet
made=()		# directories made for new files
cleanup() {
	local i
	for i in "${staged[@]}"; do rm -f "$i" 2>/dev/null || true; done
	for ((i = ${#made[@]} - 1; i >= 0; i--)); do rmdir "${made[i]}" 2>/dev/null || true; done
	rm -rf "$work" "$state.new"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

cd "$repo"
git_files() {
	if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$repo" ls-files --cached --others --exclude-standard -- "$@"
	else
		find "$@" -type f
	fi
}

# Where a path of the tree may be written: every directory on the way a
# real directory of the tree (or not there yet); the path itself a
# regular file, a symbolic link (replaced by a file) or nothing.  What is
# wrong goes to problems[]; each directory is looked at once.
problems=()
declare -A dir_seen
check_path() {	# check_path RELPATH
	local rel=$1 dir=$ksrc part d=${1%/*}
	local -a parts
	[ "$d" != "$rel" ] || d=
	if [ -z "${dir_seen[/$d]+y}" ]; then
		dir_seen[/$d]=1
		IFS=/ read -r -a parts <<< "$d"
		for part in "${parts[@]}"; do
			[ -n "$part" ] || continue
			dir=$dir/$part
			if [ -L "$dir" ]; then
				problems+=("$dir is a symbolic link (to $(readlink "$dir")): KFT writes only inside the tree")
				return
			fi
			[ -e "$dir" ] || break
			[ -d "$dir" ] || { problems+=("$dir is not a directory"); return; }
		done
		# The nearest directory there is must take new files.
		while [ ! -e "$dir" ]; do dir=${dir%/*}; done
		[ -w "$dir" ] && [ -x "$dir" ] || problems+=("$dir is not writable")
	fi
	if [ -e "$ksrc/$rel" ] && [ ! -L "$ksrc/$rel" ] && [ ! -f "$ksrc/$rel" ]; then
		problems+=("$ksrc/$rel is not a regular file")
	fi
	return 0
}

# The files the queues touch, copied: $work/orig as the tree has them.
touched() {	# the files a series' patches touch
	local dir=$1 p
	[ -f "$dir/series" ] || return 0
	while read -r p; do
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$dir/$p"
	done < "$dir/series"
}
[ ! -L "$state" ] || die "$state is a symbolic link: KFT writes only inside the tree; $nochange"
[ ! -e "$state" ] || [ -d "$state" ] || die "$state is not a directory; $nochange"
mapfile -t files < <({ touched "$state/patches"; touched "$series_dir"; } | sort -u)
mkdir -p "$work/orig"
for f in "${files[@]}"; do
	[ -f "$ksrc/$f" ] || die "$ksrc/$f is missing or not a regular file; $nochange"
	mkdir -p "$work/orig/$(dirname "$f")"
	cp -p "$ksrc/$f" "$work/orig/$f"
done
fresh() { rm -rf "$work/tree"; cp -a "$work/orig" "$work/tree"; }
fresh

# Does the tree carry the recorded queue?  Reversed exactly, in the copy.
record=
if [ -f "$state/patches/series" ]; then
	record=ok
	while read -r p; do
		if ! patch -s -p1 -F0 -R -f -d "$work/tree" < "$state/patches/$p" > /dev/null 2>&1; then
			record=stale
			break
		fi
	done < <(tac "$state/patches/series")
	if [ $record = stale ]; then
		echo "kft-install: $state records a queue the tree does not carry (its files reverted or changed: $p does not reverse); ignoring the record"
		fresh
	fi
fi

# A KFT in the tree other than the recorded one: "" or what shows it.
kft_found() {
	local f
	for f in kernel/Kconfig.kft kernel/kft.c include/linux/kft.h; do
		[ -e "$ksrc/$f" ] && { echo "$f"; return; }
	done
	for f in "${files[@]}"; do
		grep -qw 'CONFIG_KFT\|kft' "$work/orig/$f" 2>/dev/null && { echo "KFT's lines in $f"; return; }
	done
	return 0
}

if [ "$record" = ok ] && diff -qr "$state/patches" "$series_dir" >/dev/null; then
	uptodate=1
	fresh		# the queue stays: the copies as the tree has them
else
	uptodate=
	while read -r p; do
		if [ "$record" != ok ] &&
		   patch -s -p1 -F0 -R --dry-run -f -d "$work/tree" < "$series_dir/$p" >/dev/null 2>&1; then
			echo "kft-install: $p already applied"
			patch -s -p1 -F0 -R -d "$work/tree" < "$series_dir/$p"
		fi
		# No fuzz, and no patch at all unless every hunk applies: a hunk
		# applied with fuzz can land in the wrong function without an error.
		if ! out=$(patch -p1 -F0 -N --dry-run -d "$work/tree" < "$series_dir/$p" 2>&1); then
			echo "$out" | sed 's/^/  /' >&2
			found=
			[ "$record" = ok ] || found=$(kft_found)
			if [ -n "$found" ]; then
				die "$ksrc (Linux $ver) already has a KFT ($found) with no record in .kft/ that is not linux-$kver's queue (an older KFT, or one applied by hand): linux-$kver/$p does not apply over it; $nochange.  Restore the files it patched (git checkout, or a fresh tree) and install again"
			fi
			die "linux-$kver/$p does not apply to $ksrc (Linux $ver) without fuzz; $nochange.  See Documentation/trace/kft/arch.rst, \"Installing into your own tree\""
		fi
		patch -s -p1 -F0 -N -d "$work/tree" < "$series_dir/$p"
	done < "$series_dir/series"
fi

# What to write: KFT's files, and the patched files that changed.
srcs=() dsts=()
want() {	# want SRC RELPATH: when the tree's differs or is a link
	if [ -L "$ksrc/$2" ] || ! cmp -s "$1" "$ksrc/$2" ||
	   [ "$(stat -c %h "$ksrc/$2")" != 1 ]; then
		srcs+=("$1")
		dsts+=("$2")
	fi
}
for f in $(git_files kernel include scripts Documentation arch); do
	[ -f "$f" ] && want "$repo/$f" "$f"
done
want "$repo/Kconfig.kft" kernel/Kconfig.kft
for f in "${files[@]}"; do
	want "$work/tree/$f" "$f"
done

# What an earlier KFT installed and this one does not ship: to remove.
shipped=$work/shipped
{ git_files kernel include scripts Documentation arch; echo kernel/Kconfig.kft; } | sort -u > "$shipped"
stale=()
while read -r f; do
	[ -n "$f" ] && [[ $f != \#* ]] || continue
	case $f in /* | *..* | *[[:space:]]*) continue ;; esac
	grep -qxF -- "$f" "$shipped" && continue
	if [ -L "$ksrc/$f" ] || [ -f "$ksrc/$f" ]; then
		stale+=("$f")
	fi
done < <({ cat "$state/files" 2>/dev/null; cat "$patches/RETIRED" 2>/dev/null; } | sort -u)

if [ -n "$uptodate" ] && [ ${#dsts[@]} = 0 ] && [ ${#stale[@]} = 0 ] &&
   cmp -s "$shipped" "$state/files"; then
	echo "kft-install: $ksrc is up to date (Linux $ver)"
	exit 0
fi

# Check every path first.
for f in "${dsts[@]}" "${stale[@]}" .kft/patches/series; do
	check_path "$f"
done
if [ ${#problems[@]} != 0 ]; then
	printf '  %s\n' "${problems[@]}" | sort -u | head -n 20 >&2
	die "cannot install into $ksrc: ${#problems[@]} path(s) above cannot be written; $nochange"
fi

# Write every file next to its place (same directory: the rename is
# atomic); any failure undoes them all (cleanup).
for i in "${!dsts[@]}"; do
	dst=$ksrc/${dsts[i]}
	d=$(dirname "$dst")
	if [ ! -d "$d" ]; then
		missing=()
		while [ ! -d "$d" ]; do missing=("$d" "${missing[@]}"); d=$(dirname "$d"); done
		for d in "${missing[@]}"; do
			mkdir "$d" || die "cannot make $d; $nochange"
			made+=("$d")
		done
	fi
	staged+=("$dst.kft-new")
	rm -f "$dst.kft-new" 2>/dev/null || true	# an interrupted install's
	cp -T --preserve=mode "${srcs[i]}" "$dst.kft-new" ||
		die "cannot write $dst.kft-new; $nochange"
done
mkdir "$state.new" && cp -r "$series_dir" "$state.new/patches" &&
	cp "$shipped" "$state.new/files" ||
	die "cannot write $state.new; $nochange"

# Into place, uninterrupted: the files, then the record.
trap '' INT TERM HUP
for i in "${!dsts[@]}"; do
	dst=$ksrc/${dsts[i]}
	mv -f -T "$dst.kft-new" "$dst" || die "cannot rename $dst.kft-new to $dst: the tree is half installed"
done
staged=()
made=()
for f in "${stale[@]}"; do
	rm -f "$ksrc/$f" || die "cannot remove $ksrc/$f, which KFT no longer ships: the tree is half installed"
	echo "kft-install: removed $f (KFT no longer ships it)"
done
rm -rf "$state"
mv -T "$state.new" "$state"
if [ -n "$uptodate" ]; then
	echo "kft-install: KFT's files updated in $ksrc (${#dsts[@]} files, ${#stale[@]} removed, Linux $ver)"
else
	echo "kft-install: KFT installed in $ksrc (Linux $ver)"
fi
