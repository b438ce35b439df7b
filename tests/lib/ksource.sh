#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The source tree of a kernel series (patches/SERIES), extracted into the
# cache once (patches/install.sh then puts KFT in it); prints its path.
#   deb  Debian's linux-source-SERIES package, installed by make deps;
#   src  the upstream tarball of Debian's source package "linux" at the
#        pinned version;
#   pkg  Debian's linux-source-SERIES package at the pinned version, not
#        installed: for a series whose upstream tarball the archive lists
#        but no longer serves.
# src and pkg are downloaded with a private apt configuration (its own
# sources list, lists and cache under $KFT_CACHE/apt: the machine's apt
# setup is not touched) and checked against the pinned SHA256.
#
# usage: tests/lib/ksource.sh SERIES
# Exit status 3 (with a message) when the pinned version has left the
# archive: callers skip that series rather than fail obscurely.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/common.sh"

series=${1:?series}
read -r _ source version sha256 < <(kft_series_line "$series") ||
	kft_die "no series $series in patches/SERIES (it has: $(kft_series_list))"
mkdir -p "$KFT_CACHE/src"
dl=$KFT_CACHE/download
upstream=${version%%-*}
case $source in
deb)
	tarball=$(ls /usr/src/linux-source-"$series".tar.* 2>/dev/null | head -n1)
	[ -n "$tarball" ] || kft_die "no /usr/src/linux-source-$series.tar.*: run 'make deps'"
	tree=$KFT_CACHE/src/linux-source-$series
	stamp=$(stat -c %Y "$tarball")	# a newer package means a new tree
	;;
src)
	tree=$KFT_CACHE/src/linux-$upstream
	file=linux_$upstream.orig.tar.xz
	stamp=$sha256
	;;
pkg)
	tree=$KFT_CACHE/src/linux-source-$upstream
	pkg=linux-source-$series
	file=${pkg}_${version}_all.deb
	stamp=$sha256
	;;
*) kft_die "patches/SERIES: series $series: source must be deb, src or pkg, not $source" ;;
esac
# One fetch and extraction of a tree at a time: tests/lib/prebuild.sh and
# the test that needs the tree can both get here first (a cold make check).
exec 7>"$tree.lock"
flock 7
if [ -f "$tree/.kft-tarball" ] && [ "$(cat "$tree/.kft-tarball")" = "$stamp" ]; then
	echo "$tree"
	exit 0
fi

# fetch: $dl/$file, as the archive's index names it, with the pinned SHA256.
fetch() {
	local apt=$KFT_CACHE/apt mirror key uri code suite have
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/preferences.d" "$dl"
	mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
	mirror=${mirror:-http://deb.debian.org/debian}
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	for suite in bookworm trixie trixie-backports sid; do
		echo "deb-src [signed-by=$key] $mirror $suite main"
		echo "deb [arch=$(dpkg --print-architecture) signed-by=$key] $mirror $suite main"
	done > "$apt/sources.list"
	local aptopts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
		 -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt"
		 -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts="$apt/preferences.d"
		 -o APT::Sandbox::User=root -o Acquire::Languages=none)
	kft_log "fetching $file (private apt configuration in $apt)"
	apt-get -q "${aptopts[@]}" update >&2 ||
		kft_log "apt-get update had errors; trying the download all the same"
	if [ "$source" = src ]; then
		have=$(apt-cache "${aptopts[@]}" showsrc linux 2>/dev/null | sed -n 's/^Version: //p')
		uri=$(apt-get -q "${aptopts[@]}" --print-uris source "linux=$version" 2>/dev/null |
			awk -v f="$file" '$2 == f { gsub(/\047/, "", $1); print $1 " " $4 }')
	else
		have=$(apt-cache "${aptopts[@]}" madison "$pkg" 2>/dev/null | awk -F' [|] ' '{ print $2 }')
		uri=$(cd "$dl" && apt-get -q "${aptopts[@]}" --print-uris download "$pkg=$version" 2>/dev/null |
			awk '{ gsub(/\047/, "", $1); print $1 " " $4 }')
	fi
	if ! grep -qxF -- "$version" <<< "$have"; then
		echo "kft: Linux $series: the pinned source, Debian's $([ "$source" = src ] && echo linux || echo "$pkg") $version, is no longer in the archive ($mirror); skipping this series (update patches/SERIES)" >&2
		exit 3
	fi
	[ -n "$uri" ] || kft_die "apt names no $file for $version"
	[ "${uri#* SHA256:}" = "$sha256" ] ||
		kft_die "the archive's $file has SHA256 ${uri#* SHA256:}, not the one patches/SERIES pins ($sha256)"
	code=$(curl -sS -o "$dl/$file.part" -w '%{http_code}' "${uri%% *}") || code=${code:-000}
	if [ "$code" = 404 ] || [ "$code" = 410 ]; then
		rm -f "$dl/$file.part"
		echo "kft: Linux $series: the pinned source, ${uri%% *}, is no longer in the archive (HTTP $code); skipping this series (update patches/SERIES)" >&2
		exit 3
	fi
	[ "$code" = 200 ] || kft_die "cannot download ${uri%% *} (HTTP $code)"
	echo "$sha256  $dl/$file.part" | sha256sum -c --status ||
		kft_die "${uri%% *}: SHA256 is not the one patches/SERIES pins ($sha256)"
	mv "$dl/$file.part" "$dl/$file"
}

if [ "$source" != deb ]; then
	if ! echo "$sha256  $dl/$file" | sha256sum -c --status 2>/dev/null; then
		start=$SECONDS
		fetch
		kft_timing source "$file" $((SECONDS - start)) downloaded
	fi
	tarball=$dl/$file
fi

kft_log "extracting $tarball"
start=$SECONDS
rm -rf "$tree" "$tree.tmp"
mkdir -p "$tree.tmp"
if [ "$source" = pkg ]; then
	# The package holds the tree as /usr/src/linux-source-SERIES.tar.xz.
	dpkg-deb --fsys-tarfile "$tarball" |
		tar -xO "./usr/src/linux-source-$series.tar.xz" |
		tar -C "$tree.tmp" --strip-components=1 -xJ
else
	tar -C "$tree.tmp" --strip-components=1 -xf "$tarball"
fi
echo "$stamp" > "$tree.tmp/.kft-tarball"
mv "$tree.tmp" "$tree"
kft_timing source "$(basename "$tarball")" $((SECONDS - start)) extracted
echo "$tree"
