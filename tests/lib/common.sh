# SPDX-License-Identifier: GPL-2.0
# Shared by the build, boot and test scripts: cache location, logging, the
# kernel tree.  Source it; it expects $repo to be the repository root.

KFT_CACHE=${KFT_CACHE:-$HOME/.cache/kft}
export KFT_CACHE
# The kernel series KFT is for, and its patches (patches/KERNEL_VERSION).
KFT_KVER=$(cat "$repo/patches/KERNEL_VERSION")

kft_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
kft_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The kernel tree with KFT installed: $KSRC, or Debian's linux-source-$KFT_KVER
# extracted into the cache.  Prints its path.
kft_kernel_tree() {
	local tarball tree
	mkdir -p "$KFT_CACHE"
	exec 9>"$KFT_CACHE/.tree.lock"
	flock 9			# parallel builds share the tree
	if [ -n "${KSRC:-}" ]; then
		tree=$KSRC
	else
		tarball=$(ls /usr/src/linux-source-"$KFT_KVER".tar.* 2>/dev/null | head -n1)
		[ -n "$tarball" ] || kft_die "no /usr/src/linux-source-$KFT_KVER.tar.*: run 'make deps'"
		tree=$KFT_CACHE/src/linux-source-$KFT_KVER
		# A newer Debian package means a new tree.
		if [ ! -f "$tree/.kft-tarball" ] ||
		   [ "$(cat "$tree/.kft-tarball")" != "$(stat -c %Y "$tarball")" ]; then
			kft_log "extracting $tarball"
			rm -rf "$tree"
			mkdir -p "$KFT_CACHE/src"
			tar -C "$KFT_CACHE/src" -xf "$tarball"
			stat -c %Y "$tarball" > "$tree/.kft-tarball"
		fi
	fi
	# A command substitution does not inherit set -e: fail out loud, or a
	# patch that no longer applies would build the tree as it was.
	"$repo/patches/install.sh" "$tree" >&2 ||
		kft_die "installing KFT into $tree failed"
	flock -u 9
	echo "$tree"
}
