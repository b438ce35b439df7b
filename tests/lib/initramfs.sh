#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest initramfs for KFT_ARCH: busybox-static, tests/guest/init
# as /init, the guest test steps (tests/guest/*.sh -> /tests/) and the guest
# programs (tests/guest/*.c and the target tool scripts/kft.c, linked
# statically -> /bin/); any FILEs go to
# /lib/.  Another arch's busybox comes from Debian's busybox-static for it,
# unpacked into the cache by tests/lib/guest-busybox.sh (make deps).
#
# usage: tests/lib/initramfs.sh OUTPUT.cpio.gz [FILE...]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/common.sh"
. "$repo/tests/lib/arch.sh"

out=${1:?output}
shift
if [ "$KFT_ARCH" = x86_64 ]; then
	busybox=$(command -v busybox || true)
else
	busybox=$("$repo/tests/lib/guest-busybox.sh" "$DEBARCH")
fi
[ -n "$busybox" ] && file -L "$busybox" | grep -q 'statically linked' ||
	kft_die "a static busybox for $KFT_ARCH is needed: make deps"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,etc,lib,proc,sys,dev,tmp,tests}
cp "$busybox" "$root/bin/busybox"
install -m 0755 "$repo/tests/guest/init" "$root/init"
for s in "$repo"/tests/guest/*.sh; do
	install -m 0755 "$s" "$root/tests/"
done
for c in "$repo"/tests/guest/*.c "$repo"/scripts/kft.c; do
	# kft.c reads configs with the kernel's parser (kernel/kft_config.c)
	# and files with the host tools' reader (scripts/kft/slurp.c).
	more=()
	[ "$c" = "$repo/scripts/kft.c" ] &&
		more=("$repo/scripts/kft/slurp.c" "$repo/kernel/kft_config.c")
	"$GUEST_CC" -static -O2 -Wall -Wextra -Werror -I"$repo/scripts/kft/include" -I"$repo/kernel" \
		-o "$root/bin/$(basename "$c" .c)" "$c" "${more[@]}"
done
for f in "$@"; do
	install -m 0644 "$f" "$root/lib/"
done
echo kft-guest > "$root/etc/hostname"
(cd "$root" && find . -print0 | sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -9n > "$out.tmp"
mv "$out.tmp" "$out"
