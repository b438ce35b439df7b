#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's own bar for KFT's kernel code: checkpatch.pl --strict, a W=1
# build of the KFT objects without warnings, and sparse (C=2), on every
# architecture (KFT_ARCHES: x86_64 arm64 riscv64 arm), in a build directory
# beside each architecture's check kernel (KFT_CHECK_VARIANT).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
. tests/lib/common.sh

ksrc=$(kft_kernel_tree)
report=$KFT_CACHE/checkpatch.txt
files=$(git ls-files kernel include arch scripts/gcc-plugins scripts/llvm-plugins | grep -E '\.(c|h|cpp)$')
objs=$(git ls-files kernel | grep -E '\.c$' | sed 's/\.c$/.o/')

# checkpatch looks for a __setup() parameter's documentation in the same
# patch, which -f cannot give it: kft= is documented by patch 0004, and
# checked for below.
# shellcheck disable=SC2086
"$ksrc/scripts/checkpatch.pl" --strict --no-tree --quiet \
	--ignore UNDOCUMENTED_SETUP -f $(echo "$files" | grep -Ev '/kft_compat\.h$|^scripts/(gcc|llvm)-plugins/') > "$report" 2>&1
# The compiler plugins are C++: checkpatch reads GCC's vec<tree, va_gc> as
# two comparisons (SPACING), as it does in the kernel's own
# stackleak_plugin.c.
# shellcheck disable=SC2046
"$ksrc/scripts/checkpatch.pl" --strict --no-tree --quiet --ignore SPACING \
	-f $(echo "$files" | grep -E '^scripts/(gcc|llvm)-plugins/') >> "$report" 2>&1
# kft_compat.h keys what differs between kernel series on the version: the
# one place KFT may use LINUX_VERSION_CODE (patches/SERIES).
"$ksrc/scripts/checkpatch.pl" --strict --no-tree --quiet \
	--ignore LINUX_VERSION_CODE -f include/linux/kft_compat.h >> "$report" 2>&1
[ ! -s "$report" ]
ok $? "checkpatch.pl --strict is clean on $(echo $files | wc -w) files"
cat "$report"
grep -q '^	kft=' "$ksrc/Documentation/admin-guide/kernel-parameters.txt" &&
	grep -q '^	kft_dump=' "$ksrc/Documentation/admin-guide/kernel-parameters.txt"
ok $? "kft= and kft_dump= are documented in Documentation/admin-guide/kernel-parameters.txt"

# Not KFT's: arm64's vDSO, which make checks on the way (sparse); arm64's
# this_cpu_sub() casts its constant to every size, one branch per size,
# and sparse warns on the branches not taken (kernel/kft.c's this_cpu_dec()).
not_ours='arch/arm64/kernel/vdso/|arch/arm64/include/asm/percpu.h:[0-9]*:[0-9]*: warning: cast truncates bits from constant value'

# style_build NAME DESCRIPTION MAKE-ARGS...: build the KFT objects in
# $sdir, a build directory of their own with the check kernel's config
# (the kernel itself is never rebuilt for this); no warning or error may
# come out.
style_build() {
	local name=$1 desc=$2
	shift 2
	# shellcheck disable=SC2086
	make -s -C "$ksrc" O="$sdir" ARCH="$KARCH" CROSS_COMPILE="$KCROSS" \
		CC="ccache ${KCROSS}gcc" HOSTCC="ccache gcc" "$@" $objs > "$sdir/$name.txt" 2>&1 &&
		! grep -E 'warning:|error:' "$sdir/$name.txt" | grep -qvE "$not_ours"
	ok $? "$KFT_ARCH: $desc"
	cat "$sdir/$name.txt"
}

export CCACHE_DIR=${CCACHE_DIR:-$KFT_CACHE/ccache}
for KFT_ARCH in ${KFT_ARCHES:-x86_64 arm64 riscv64 arm}; do
	. tests/lib/arch.sh
	kdir=$(tests/lib/kbuild.sh "$KFT_CHECK_VARIANT" gcc | tail -n 1)
	ok $? "$KFT_ARCH: the check kernel builds" || continue
	start=$SECONDS
	sdir=$kdir.style
	mkdir -p "$sdir"
	if ! cmp -s "$kdir/.config" "$sdir/.config"; then
		cp "$kdir/.config" "$sdir/.config"
		make -s -C "$ksrc" O="$sdir" ARCH="$KARCH" CROSS_COMPILE="$KCROSS" olddefconfig
	fi
	# Compiled afresh each time (from ccache when unchanged), so that a
	# warning is seen on every run, not only the first.
	(cd "$sdir" && rm -f $objs)
	style_build w1 "W=1 build of the KFT objects has no warnings" W=1
	if command -v sparse >/dev/null; then
		style_build sparse "sparse (C=2) is clean on the KFT objects" C=2 \
			CHECK="$repo/tests/style/sparse.sh"
	else
		ok 1 "sparse is installed (make deps)"
	fi
	kft_timing style "$KFT_ARCH" $((SECONDS - start)) "W=1 and sparse on the KFT objects"
done
tap_done
