#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest initramfs: busybox-static, tests/guest/init as /init, the
# guest test steps (tests/guest/*.sh -> /tests/) and the guest programs
# (tests/guest/*.c, linked statically -> /bin/); any FILEs go to /lib/.
#
# usage: tests/lib/initramfs.sh OUTPUT.cpio.gz [FILE...]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/common.sh"

out=${1:?output}
shift
busybox=$(command -v busybox || true)
[ -n "$busybox" ] && file -L "$busybox" | grep -q 'statically linked' ||
	kft_die "a static busybox is needed: apt-get install busybox-static"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,etc,lib,proc,sys,dev,tmp,tests}
cp "$busybox" "$root/bin/busybox"
install -m 0755 "$repo/tests/guest/init" "$root/init"
for s in "$repo"/tests/guest/*.sh; do
	install -m 0755 "$s" "$root/tests/"
done
for c in "$repo"/tests/guest/*.c; do
	gcc -static -O2 -Wall -Wextra -Werror -o "$root/bin/$(basename "$c" .c)" "$c"
done
for f in "$@"; do
	install -m 0644 "$f" "$root/lib/"
done
echo kft-guest > "$root/etc/hostname"
(cd "$root" && find . -print0 | sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -9n > "$out.tmp"
mv "$out.tmp" "$out"
