#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A static busybox for another architecture's guest: Debian's
# busybox-static for that architecture, downloaded (not installed: it would
# replace the host's) and unpacked into the cache.  Adds the architecture to
# dpkg and updates the package lists the first time.  Prints its path.
#
# usage: tests/lib/guest-busybox.sh arm64
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/common.sh"

debarch=${1:?debian architecture}
dir=$KFT_CACHE/guest/$debarch
bb=$dir/bin/busybox
if [ ! -x "$bb" ]; then
	if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
	if ! dpkg --print-foreign-architectures | grep -qx "$debarch"; then
		kft_log "adding $debarch to dpkg's architectures"
		$SUDO dpkg --add-architecture "$debarch"
		$SUDO apt-get update -qq >&2
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
