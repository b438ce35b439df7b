#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The pristine source tree of a kernel series (patches/SERIES), extracted
# into the cache once; prints its path.  A "deb" series comes from Debian's
# linux-source-SERIES package (make deps); a "src" series from the
# upstream tarball of Debian's source package "linux" at the pinned
# version, downloaded with a private apt configuration (its own sources
# list, lists and cache under $KFT_CACHE/apt: the machine's apt setup is
# not touched) and checked against the pinned SHA256.
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

if [ "$source" = deb ]; then
	tarball=$(ls /usr/src/linux-source-"$series".tar.* 2>/dev/null | head -n1)
	[ -n "$tarball" ] || kft_die "no /usr/src/linux-source-$series.tar.*: run 'make deps'"
	tree=$KFT_CACHE/src/linux-source-$series
	stamp=$(stat -c %Y "$tarball")	# a newer package means a new tree
else
	upstream=${version%%-*}
	tree=$KFT_CACHE/src/linux-$upstream
	stamp=$sha256
fi
if [ -f "$tree/.kft-tarball" ] && [ "$(cat "$tree/.kft-tarball")" = "$stamp" ]; then
	echo "$tree"
	exit 0
fi

if [ "$source" = src ]; then
	dl=$KFT_CACHE/download
	tarball=$dl/linux_$upstream.orig.tar.xz
	if ! echo "$sha256  $tarball" | sha256sum -c --status 2>/dev/null; then
		apt=$KFT_CACHE/apt
		mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/preferences.d" "$dl"
		mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
		mirror=${mirror:-http://deb.debian.org/debian}
		key=/usr/share/keyrings/debian-archive-keyring.gpg
		for suite in bookworm trixie trixie-backports sid; do
			echo "deb-src [signed-by=$key] $mirror $suite main"
		done > "$apt/sources.list"
		aptopts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
			 -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt"
			 -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts="$apt/preferences.d"
			 -o APT::Sandbox::User=root -o Acquire::Languages=none)
		start=$SECONDS
		kft_log "fetching linux $version's source (private apt configuration in $apt)"
		apt-get -q "${aptopts[@]}" update >&2 ||
			kft_log "apt-get update had errors; trying the download all the same"
		versions=$(apt-cache "${aptopts[@]}" showsrc linux 2>/dev/null | sed -n 's/^Version: //p')
		if ! grep -qxF -- "$version" <<< "$versions"; then
			echo "kft: Linux $series: the pinned source, Debian's linux $version, is no longer in the archive ($mirror); skipping this series (update patches/SERIES)" >&2
			exit 3
		fi
		# Only the upstream tarball: apt names it and its checksum (from the
		# signed index); the Debian packaging is not needed.
		uri=$(apt-get -q "${aptopts[@]}" --print-uris source "linux=$version" 2>/dev/null |
			awk -v f="linux_$upstream.orig.tar.xz" '$2 == f { gsub(/\047/, "", $1); print $1 " " $4 }')
		[ -n "$uri" ] || kft_die "apt names no linux_$upstream.orig.tar.xz for linux $version"
		[ "${uri#* SHA256:}" = "$sha256" ] ||
			kft_die "the archive's linux_$upstream.orig.tar.xz has SHA256 ${uri#* SHA256:}, not the one patches/SERIES pins ($sha256)"
		code=$(curl -sS -o "$tarball.part" -w '%{http_code}' "${uri%% *}") || code=${code:-000}
		if [ "$code" = 404 ] || [ "$code" = 410 ]; then
			rm -f "$tarball.part"
			echo "kft: Linux $series: the pinned source, ${uri%% *}, is no longer in the archive (HTTP $code); skipping this series (update patches/SERIES)" >&2
			exit 3
		fi
		[ "$code" = 200 ] || kft_die "cannot download ${uri%% *} (HTTP $code)"
		echo "$sha256  $tarball.part" | sha256sum -c --status ||
			kft_die "${uri%% *}: SHA256 is not the one patches/SERIES pins ($sha256)"
		mv "$tarball.part" "$tarball"
		kft_timing source "linux_$upstream.orig.tar.xz" $((SECONDS - start)) downloaded
	fi
fi

kft_log "extracting $tarball"
start=$SECONDS
rm -rf "$tree" "$tree.tmp"
mkdir -p "$tree.tmp"
tar -C "$tree.tmp" --strip-components=1 -xf "$tarball"
echo "$stamp" > "$tree.tmp/.kft-tarball"
mv "$tree.tmp" "$tree"
kft_timing source "$(basename "$tarball")" $((SECONDS - start)) extracted
echo "$tree"
