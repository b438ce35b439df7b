#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a kernel for the tests and benchmarks, reusing everything cached.
#
# usage: tests/lib/kbuild.sh VARIANT COMPILER [BASE]
#   VARIANT   kft | vanilla | ftrace      (tests/configs/VARIANT.config);
#             A+B merges A.config and B.config (kft+static: a boot run).
#             In a fragment, @KFT_BUILD@ is the build directory, where a
#             fragment's companion file X.conf is copied (a boot run file).
#   COMPILER  gcc | clang                 (clang builds with LLVM=1, or
#                                          LLVM=-19 where the series needs
#                                          a newer clang than Debian's 14)
#   BASE      tiny (default: tinyconfig + tests/configs/base-ARCH.config)
#             | defconfig (the architecture's defconfig)
# Prints the build directory (holding the boot image, System.map, vmlinux;
# with CONFIG_MODULES, the modules and Module.symvers for building more) on
# the last line of stdout.
#
# Environment: KFT_ARCH (x86_64 or arm64, tests/lib/arch.sh); KFT_CACHE
# (default ~/.cache/kft) holds the kernel source, build trees and ccache;
# KSRC overrides the kernel tree; JOBS; KFT_PREBUILD (set by prebuild.sh).
set -euo pipefail

variant=${1:?variant}
compiler=${2:?compiler}
base=${3:-tiny}
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/common.sh"
. "$repo/tests/lib/arch.sh"

ksrc=$(kft_kernel_tree)
name=$(kft_arch_name "$variant" "$compiler" "$base")
out=$KFT_CACHE/build/$name
mkdir -p "$out"
# One build of a directory at a time: a test waits here for the same
# kernel that tests/lib/prebuild.sh is building ahead of it, then finds it
# up to date.
exec 8>"$out/.kft-build.lock"
flock 8

makeargs=(-C "$ksrc" O="$out" ARCH="$KARCH" -j"${JOBS:-$(nproc)}"
	  KBUILD_BUILD_TIMESTAMP="2025-01-01" KBUILD_BUILD_USER=kft
	  KBUILD_BUILD_HOST=kft)
case $compiler in
gcc)   makeargs+=(CROSS_COMPILE="$KCROSS" CC="ccache ${KCROSS}gcc" HOSTCC="ccache gcc") ;;
clang)	llvm=$(kft_llvm_suffix "$ksrc")
	makeargs+=(LLVM="${llvm:-1}" CC="ccache clang$llvm" HOSTCC="ccache clang$llvm") ;;
*) kft_die "compiler must be gcc or clang, not $compiler" ;;
esac
export CCACHE_DIR=${CCACHE_DIR:-$KFT_CACHE/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime

case $base in
tiny)      basetarget=tinyconfig; srcfrags=("$repo/tests/configs/base-$KFT_ARCH.config") ;;
defconfig) basetarget=defconfig; [ "$KFT_ARCH" = x86_64 ] && basetarget=x86_64_defconfig
	   srcfrags=() ;;
*) kft_die "base must be tiny or defconfig, not $base" ;;
esac
IFS=+ read -r -a parts <<< "$variant"
for p in "${parts[@]}"; do
	f=$repo/tests/configs/$p.config
	[ -f "$f" ] || kft_die "no config fragment $f for variant $variant"
	srcfrags+=("$f")
	# Copied only when changed: the kernel rebuilds what depends on it.
	if [ -f "${f%.config}.conf" ]; then
		cmp -s "${f%.config}.conf" "$out/$p.conf" ||
			cp "${f%.config}.conf" "$out/$p.conf"
	fi
done
mkdir -p "$out/fragments"
frags=()
for f in "${srcfrags[@]}"; do
	sed "s|@KFT_BUILD@|$out|g" "$f" > "$out/fragments/$(basename "$f")"
	frags+=("$out/fragments/$(basename "$f")")
done

# Regenerate .config only when a fragment is newer than it, or when what
# the compiler can build changed: GCC's plugin headers make GCC_PLUGINS
# visible, Clang's LLVM development files KFT's pass.  A symbol that was
# invisible when .config was made is not in it, so a fragment's "is not
# set" could not stick; once visible, the next syncconfig (any Kconfig
# file changed) gives it its default, y, and KFT's plugin with it.
caps=
if [ "$compiler" = gcc ]; then
	if [ -e "$("${KCROSS}gcc" -print-file-name=plugin)/include/plugin-version.h" ]; then
		caps=+gcc-plugins
	fi
elif llvm_version=$("$("clang$llvm" -print-prog-name=llvm-config)" --version 2>/dev/null); then
	caps=+llvm-$llvm_version
fi
stamp=$out/.kft-config-stamp
want=$(cat "${frags[@]}" | md5sum | cut -d' ' -f1)-$base$caps
if [ ! -f "$out/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	kft_log "configuring $name"
	make "${makeargs[@]}" -s $basetarget >&2
	"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null
	make "${makeargs[@]}" -s olddefconfig >&2
	echo "$want" > "$stamp"
fi
# Every option the fragments set (the last one wins) must have survived
# olddefconfig; "is not set" is met by an absent symbol too.
declare -A want_cfg=()
for f in "${frags[@]}"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) want_cfg[${line%%=*}]=$line ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; want_cfg[${sym%% *}]=unset ;;
		esac
	done < "$f"
done
# GCC_PLUGINS is GCC's: a fragment shared with Clang (afterinlining) sets
# it, and a Clang build drops it.
[ "$compiler" = gcc ] || unset 'want_cfg[CONFIG_GCC_PLUGINS]'
for sym in "${!want_cfg[@]}"; do
	if [ "${want_cfg[$sym]}" = unset ]; then
		! grep -q "^$sym=" "$out/.config" ||
			kft_die "$name: $sym is set in .config"
	else
		grep -qxF -- "${want_cfg[$sym]}" "$out/.config" ||
			kft_die "$name: '${want_cfg[$sym]}' did not stick in .config"
	fi
done

kft_log "building $name (log: $out/build.log)"
start=$SECONDS
targets=("$(basename "$KIMAGE")")
grep -q '^CONFIG_MODULES=y' "$out/.config" && targets+=(modules)
# What this build compiled, for the timing table.
touch "$out/.kft-build-stamp"
if ! make "${makeargs[@]}" "${targets[@]}" > "$out/build.log" 2>&1; then
	grep -E 'error|Error|undefined|warning:' "$out/build.log" | tail -30 >&2
	kft_die "build of $name failed; see $out/build.log"
fi
if grep -q 'WARNING: modpost: .*section mismatch' "$out/build.log"; then
	grep 'section mismatch' "$out/build.log" >&2
	kft_die "$name: section mismatch"
fi
compiled=$(find "$out" -name '*.o' -newer "$out/.kft-build-stamp" | wc -l)
if [ "$out/$KIMAGE" -nt "$out/.kft-build-stamp" ]; then
	what="built: $compiled objects compiled${KFT_PREBUILD:+ (ahead, in the background)}"
else
	what="up to date"
fi
kft_log "$name: $what in $((SECONDS - start)) s"
kft_timing kernel "$name" $((SECONDS - start)) "$what"
echo "$out"
