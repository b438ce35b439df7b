#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A static busybox for another architecture's guest: Debian's
# busybox-static for that architecture, downloaded (not installed: it would
# replace the host's) and unpacked into the cache.  Adds the architecture to
# dpkg and updates the package lists the first time.  Debian 12 has no
# riscv64 port: there, the source of the host's busybox (Debian's orig
# tarball, from the archive) is cross-built once into the cache.  Prints
# its path.
#
# usage: tests/lib/guest-busybox.sh arm64|armhf|riscv64
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/common.sh"

debarch=${1:?debian architecture}
dir=$KFT_CACHE/guest/$debarch
bb=$dir/bin/busybox
# build_busybox CROSS_COMPILE: from source, static, into $bb.
build_busybox() {
	local ver mirror
	ver=$(dpkg-query -W -f '${Version}' busybox-static | sed 's/^[0-9]*://; s/-.*//')
	mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
	mirror=${mirror:-http://deb.debian.org/debian}
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	kft_log "building busybox $ver for $debarch"
	curl -fsS -o "$tmp/bb.tar.bz2" "$mirror/pool/main/b/busybox/busybox_$ver.orig.tar.bz2" ||
		kft_die "cannot download busybox $ver's source from $mirror"
	tar -C "$tmp" -xjf "$tmp/bb.tar.bz2"
	(cd "$tmp/busybox-$ver" && make -s defconfig >/dev/null &&
		# static; tc does not build against newer kernel headers
		sed -i 's/^# CONFIG_STATIC is not set/CONFIG_STATIC=y/; s/^CONFIG_TC=y/# CONFIG_TC is not set/' .config &&
		make -s -j"$(nproc)" CROSS_COMPILE="$1" >/dev/null 2>&1) ||
		kft_die "cannot build busybox for $debarch"
	mkdir -p "$dir/bin"
	install -m 0755 "$tmp/busybox-$ver/busybox" "$bb.tmp"
	mv "$bb.tmp" "$bb"
}

if [ ! -x "$bb" ] && [ "$debarch" = riscv64 ]; then
	build_busybox riscv64-linux-gnu-
fi
if [ ! -x "$bb" ]; then
	if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
	if ! dpkg --print-foreign-architectures | grep -qx "$debarch"; then
		kft_log "adding $debarch to dpkg's architectures"
		$SUDO dpkg --add-architecture "$debarch"
		# An index mid-sync (often the security suite's) fails the
		# update, not the download below, which says if it does.
		$SUDO apt-get update -qq >&2 ||
			kft_log "apt-get update had errors; downloading all the same"
	fi
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "busybox-static:$debarch" >&2) ||
		kft_die "cannot download busybox-static:$debarch"
	mkdir -p "$tmp/x"
	dpkg-deb -x "$tmp"/busybox-static_*.deb "$tmp/x"
	mkdir -p "$dir/bin"
	install -m 0755 "$tmp/x/bin/busybox" "$bb.tmp"
	mv "$bb.tmp" "$bb"
fi
echo "$bb"
