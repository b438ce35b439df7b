#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# KFT's compiler plugin (CONFIG_KFT_AFTER_INLINING) is the default on
# x86_64 and arm64 where the compiler can build it, and the build says
# why it is not where it cannot: Kconfig and the top Makefile of a real
# tree (the default series, KFT installed), configured as a user would
# (tinyconfig, CONFIG_KFT=y, olddefconfig; GCC_PLUGINS left to its
# default).  What the compiler can do is set by wrappers that answer
# -print-file-name=plugin (GCC's plugin headers) and
# -print-prog-name=llvm-config (Clang's LLVM) as a machine with or without
# the packages would, and pass everything else to the real compiler.  No
# kernel is built: the plugin's kernels are test_accuracy.sh's (Clang) and
# make check-full's (GCC).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
. tests/lib/common.sh
tap_tmpdir

ksrc=$(KFT_ARCH=x86_64 kft_kernel_tree) || exit 1

# A plugin directory with GCC's plugin headers (as far as Kconfig looks).
mkdir -p "$tmp/plugin/include" "$tmp/noplugin"
: > "$tmp/plugin/include/plugin-version.h"
cat > "$tmp/cc" <<'EOF'
#!/bin/sh
# cc REAL-COMPILER ARGS...: REAL-COMPILER, but with the answers asked for.
real=$1
shift
case $1 in
-print-file-name=plugin) [ -n "${FAKE_PLUGIN:-}" ] && { echo "$FAKE_PLUGIN"; exit 0; } ;;
-print-prog-name=llvm-config) [ -n "${FAKE_LLVM_CONFIG:-}" ] && { echo "$FAKE_LLVM_CONFIG"; exit 0; } ;;
esac
exec "$real" "$@"
EOF
chmod +x "$tmp/cc"
printf 'CONFIG_PROC_FS=y\nCONFIG_FTRACE=y\n# CONFIG_FUNCTION_TRACER is not set\nCONFIG_KFT=y\n' > "$tmp/kft.config"
# As a distribution's config has it (tinyconfig turns it off): it stays
# only where the compiler has its plugin headers.
echo CONFIG_GCC_PLUGINS=y > "$tmp/plugins.config"

# configure NAME ARCH CC [FRAGMENT...]: tinyconfig (made once an ARCH and
# CC) with CONFIG_KFT and the FRAGMENTs into $tmp/NAME, CC one of gcc,
# clang; make's arguments in mk[].
configure() {
	local name=$1 arch=$2 cc=$3 cross="" base
	shift 3
	out=$tmp/$name
	base=$tmp/tiny-$arch-$cc
	mkdir -p "$out" "$base"
	case $arch in
	arm64) [ "$cc" = gcc ] && cross=aarch64-linux-gnu- ;;
	riscv) [ "$cc" = gcc ] && cross=riscv64-linux-gnu- ;;
	esac
	mk=(ARCH="$arch")
	if [ "$cc" = gcc ]; then
		mk+=(CROSS_COMPILE="$cross" CC="$tmp/cc ${cross}gcc")
	else
		mk+=(LLVM=1 CC="$tmp/cc clang")
	fi
	[ -f "$base/.config" ] ||
		make -s -C "$ksrc" O="$base" "${mk[@]}" tinyconfig > "$base/config.log" 2>&1 ||
		return
	mk=(-C "$ksrc" O="$out" "${mk[@]}")
	"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$out" "$base/.config" \
		"$tmp/kft.config" "$@" > "$out/config.log" 2>&1 &&
		make -s "${mk[@]}" olddefconfig >> "$out/config.log" 2>&1
}

# says: what the top Makefile prints of KFT when it reads the .config
# (make -n: nothing is built).
says() {
	make -n "${mk[@]}" scripts_basic 2>&1 | grep '^KFT: ' || true
}

has() { grep -qx "$1" "$out/.config"; }
hasnt() { ! grep -q "^$1=" "$out/.config"; }

for arch in x86_64 arm64; do
	[ $arch = x86_64 ] || command -v aarch64-linux-gnu-gcc > /dev/null || {
		tap_skip "$arch: no aarch64-linux-gnu-gcc (make deps)"; continue; }
	pkg=gcc-$(gcc -dumpversion | cut -d. -f1)-plugin-dev
	[ $arch = arm64 ] && pkg=gcc-$(aarch64-linux-gnu-gcc -dumpversion | cut -d. -f1)-plugin-dev-aarch64-linux-gnu
	FAKE_PLUGIN=$tmp/plugin configure gcc-$arch-headers $arch gcc "$tmp/plugins.config"
	ok $? "$arch gcc, with GCC's plugin headers: configured"
	has CONFIG_GCC_PLUGINS=y && has CONFIG_KFT_PLUGIN_BUILDS=y && has CONFIG_KFT_AFTER_INLINING=y
	ok $? "$arch gcc, with GCC's plugin headers: the plugin by default ($(grep -E '^CONFIG_(KFT_AFTER_INLINING|GCC_PLUGINS)=' "$out/.config" | tr '\n' ' '))"
	said=$(FAKE_PLUGIN=$tmp/plugin says)
	[ -z "$said" ]
	ok $? "$arch gcc, with the plugin: the build says nothing of it${said:+ ($said)}"

	FAKE_PLUGIN=$tmp/noplugin configure gcc-$arch-noheaders $arch gcc "$tmp/plugins.config"
	ok $? "$arch gcc, no plugin headers: configured"
	hasnt CONFIG_KFT_AFTER_INLINING && hasnt CONFIG_KFT_PLUGIN_BUILDS && has CONFIG_KFT=y
	ok $? "$arch gcc, no plugin headers: KFT with -finstrument-functions"
	said=$(FAKE_PLUGIN=$tmp/noplugin says)
	[ "$(wc -l <<< "$said")" = 1 ] && [[ $said = *"GCC instruments before inlining (-finstrument-functions)"* ]] &&
		[[ $said = *"plugin headers are not in $tmp/noplugin/include (Debian: apt-get install $pkg)"* ]]
	ok $? "$arch gcc, no plugin headers: the build says so once, and what to install: $said"
done

FAKE_PLUGIN=$tmp/plugin configure gcc-riscv-headers riscv gcc "$tmp/plugins.config"
ok $? "riscv gcc, with GCC's plugin headers: configured"
has CONFIG_KFT_PLUGIN_BUILDS=y && hasnt CONFIG_KFT_AFTER_INLINING
ok $? "riscv gcc: not the default where the plugin is untested (riscv, arm), though it builds"
said=$(FAKE_PLUGIN=$tmp/plugin says)
[ -z "$said" ]
ok $? "riscv gcc: and the build says nothing of it${said:+ ($said)}"

echo '# CONFIG_KFT_AFTER_INLINING is not set' > "$tmp/said-n.config"
FAKE_PLUGIN=$tmp/plugin configure gcc-x86_64-said-n x86_64 gcc "$tmp/plugins.config" "$tmp/said-n.config"
hasnt CONFIG_KFT_AFTER_INLINING && has CONFIG_KFT_PLUGIN_BUILDS=y
ok $? "x86_64 gcc, the plugin said no to: -finstrument-functions, as asked"
said=$(FAKE_PLUGIN=$tmp/plugin says)
[ -z "$said" ]
ok $? "x86_64 gcc, the plugin said no to: the build does not nag${said:+ ($said)}"

FAKE_PLUGIN=$tmp/plugin configure gcc-x86_64-tiny x86_64 gcc
hasnt CONFIG_GCC_PLUGINS && hasnt CONFIG_KFT_AFTER_INLINING
ok $? "x86_64 gcc, plugin headers but tinyconfig's CONFIG_GCC_PLUGINS off: -finstrument-functions"
said=$(FAKE_PLUGIN=$tmp/plugin says)
[ "$(wc -l <<< "$said")" = 1 ] && [[ $said = *"lighter kernel: CONFIG_GCC_PLUGINS is off" ]]
ok $? "x86_64 gcc, CONFIG_GCC_PLUGINS off: the build says that is why: $said"

major=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
if [ -z "$(sh "$ksrc/scripts/llvm-plugins/kft_pass_toolchain.sh" "$((major * 10000))" clang)" ]; then
	for arch in x86_64 arm64; do
		configure clang-$arch $arch clang
		ok $? "$arch clang $major: configured"
		has CONFIG_KFT_PLUGIN_BUILDS=y && has CONFIG_KFT_AFTER_INLINING=y && has CONFIG_KFT_LLVM_PASS=y
		ok $? "$arch clang $major, with LLVM $major's development files: the LLVM pass by default"
	done
else
	tap_skip "clang $major: LLVM $major's development files are not installed (make deps: llvm-dev)"
fi
FAKE_LLVM_CONFIG=$tmp/none/llvm-config configure clang-nollvm x86_64 clang
ok $? "x86_64 clang, no llvm-config: configured"
hasnt CONFIG_KFT_AFTER_INLINING && hasnt CONFIG_KFT_PLUGIN_BUILDS && has CONFIG_KFT=y
ok $? "x86_64 clang, no llvm-config: Clang's own calls"
said=$(FAKE_LLVM_CONFIG=$tmp/none/llvm-config says)
[ "$(wc -l <<< "$said")" = 1 ] && [[ $said = *"Clang's own hook calls (-finstrument-functions-after-inlining)"* ]] &&
	[[ $said = *"'$tmp/none/llvm-config --version' says ''"*"(Debian: apt-get install llvm-$major-dev)"* ]]
ok $? "x86_64 clang, no llvm-config: the build says so once, and what to install: $said"
tap_done
