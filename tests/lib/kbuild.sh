#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a kernel for the tests and benchmarks, reusing everything cached.
#
# usage: tests/lib/kbuild.sh VARIANT COMPILER [BASE]
#   VARIANT   kft | vanilla | ftrace      (tests/configs/VARIANT.config)
#   COMPILER  gcc | clang                 (clang builds with LLVM=1)
#   BASE      tiny (default: tinyconfig + tests/configs/base.config)
#             | defconfig (x86_64_defconfig)
# Prints the build directory (holding arch/x86/boot/bzImage, System.map,
# vmlinux) on the last line of stdout.
#
# Environment: KFT_CACHE (default ~/.cache/kft) holds the kernel source,
# build trees and ccache; KSRC overrides the kernel tree; JOBS.
set -euo pipefail

variant=${1:?variant}
compiler=${2:?compiler}
base=${3:-tiny}
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/common.sh"

ksrc=$(kft_kernel_tree)
out=$KFT_CACHE/build/$variant-$compiler-$base
mkdir -p "$out"

makeargs=(-C "$ksrc" O="$out" ARCH=x86_64 -j"${JOBS:-$(nproc)}"
	  KBUILD_BUILD_TIMESTAMP="2025-01-01" KBUILD_BUILD_USER=kft
	  KBUILD_BUILD_HOST=kft)
case $compiler in
gcc)   makeargs+=(CC="ccache gcc" HOSTCC="ccache gcc") ;;
clang) makeargs+=(LLVM=1 CC="ccache clang" HOSTCC="ccache clang") ;;
*) kft_die "compiler must be gcc or clang, not $compiler" ;;
esac
export CCACHE_DIR=${CCACHE_DIR:-$KFT_CACHE/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime

frags=("$repo/tests/configs/$variant.config")
[ -f "${frags[0]}" ] || kft_die "no config fragment for variant $variant"
case $base in
tiny)      basetarget=tinyconfig; frags=("$repo/tests/configs/base.config" "${frags[@]}") ;;
defconfig) basetarget=x86_64_defconfig ;;
*) kft_die "base must be tiny or defconfig, not $base" ;;
esac

# Regenerate .config only when a fragment is newer than it.
stamp=$out/.kft-config-stamp
want=$(cat "${frags[@]}" | md5sum | cut -d' ' -f1)-$base
if [ ! -f "$out/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	kft_log "configuring $variant-$compiler-$base"
	make "${makeargs[@]}" -s $basetarget >&2
	"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null
	make "${makeargs[@]}" -s olddefconfig >&2
	echo "$want" > "$stamp"
fi
# Every option a fragment sets must have survived olddefconfig.
for f in "${frags[@]}"; do
	{ grep -E '^CONFIG_[A-Z0-9_]+=.*$' "$f" || true; } | while read -r line; do
		grep -qxF -- "$line" "$out/.config" ||
			kft_die "$variant-$compiler-$base: '$line' did not stick in .config"
	done
	# "is not set": absent is as good (a symbol whose dependencies fail).
	sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$f" | while read -r sym; do
		! grep -q "^$sym=" "$out/.config" ||
			kft_die "$variant-$compiler-$base: $sym is set in .config"
	done
done

kft_log "building $variant-$compiler-$base (log: $out/build.log)"
start=$SECONDS
if ! make "${makeargs[@]}" bzImage > "$out/build.log" 2>&1; then
	grep -E 'error|Error|undefined|warning:' "$out/build.log" | tail -30 >&2
	kft_die "build of $variant-$compiler-$base failed; see $out/build.log"
fi
if grep -q 'WARNING: modpost: .*section mismatch' "$out/build.log"; then
	grep 'section mismatch' "$out/build.log" >&2
	kft_die "$variant-$compiler-$base: section mismatch"
fi
kft_log "built $variant-$compiler-$base in $((SECONDS - start)) s"
echo "$out"
