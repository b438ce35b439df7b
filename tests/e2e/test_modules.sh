#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# KFT and modules (GCC, 2 CPUs), on each architecture (KFT_ARCHES: x86_64
# arm64): on the check kernel (KFT_CHECK_VARIANT, booted with kft=off), and
# with KFT_TIER=full also on tinyconfig with modules and no boot run.
# tests/module/kft_test_mod.ko is built against the kernel like any
# external module and loaded in the guest (tests/guest/modules.sh): its hook
# call sites must follow the kernel's - NOPs while no run is armed, calls while
# one is, whether it comes in before or during a run - and be left alone
# once it is unloaded.  A run triggered by the module's own function must
# trace the module's calls, resolved through the guest's /proc/kallsyms;
# a run naming its function must stop when it unloads.  Loaded so that its
# init (an initcall) panics, with kft_dump=panic, the armed run must be
# printed on the console, read back by addr2sym, showing where it died.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
. tests/lib/common.sh
BUILD=${BUILD:-build}
ARCHES=${KFT_ARCHES:-x86_64 arm64}

# module_test VARIANT
module_test() {
local out kdir ko enter exit_ root a="$KFT_TAG $1" args
out=$BUILD/e2e/$(kft_arch_name "modules-$1" gcc 2cpu)
kdir=$(tests/lib/kbuild.sh "$1" gcc | tail -n 1)
ok $? "$a: kernel with loadable modules builds" || return
args=$(kft_noboot_args "$1")

rm -rf "$out/module"
mkdir -p "$out/module"
cp tests/module/kft_test_mod.c tests/module/Kbuild "$out/module/"
CCACHE_DIR=${CCACHE_DIR:-$KFT_CACHE/ccache} \
make -C "$kdir" M="$(cd "$out/module" && pwd)" ARCH="$KARCH" \
	CROSS_COMPILE="$KCROSS" CC="ccache ${KCROSS}gcc" \
	modules > "$out/module/build.log" 2>&1 &&
	! grep -q 'warning:' "$out/module/build.log"
ok $? "$a: the test module builds against it, no warning" || { cat "$out/module/build.log" >&2; return; }
ko=$out/module/kft_test_mod.ko
sites_in() {	# sites_in SECTION: its entries (8-byte addresses)
	local size
	size=$(readelf -S -W "$ko" | sed -n "s/^ *\[ *[0-9]*\] $1 .*/&/p" | awk '{ print $(NF - 5) }')
	echo $((16#${size:-0} / 8))
}
enter=$(sites_in __kft_enter_loc)
exit_=$(sites_in __kft_exit_loc)
[ "${enter:-0}" -ge 4 ] && [ "${exit_:-0}" -ge 4 ]
ok $? "$a: the module's hook sites are listed (${enter:-0} entry, ${exit_:-0} exit)"

tests/lib/initramfs.sh "$out/initramfs.cpio.gz" "$ko" &&
tests/lib/qemu-run.sh -s 2 -i "$out/initramfs.cpio.gz" -a "$args" "$kdir" "$out" modules
ok $? "$a: boots, loads and unloads the module, kernel log clean"

while read -r _ name verdict; do
	[ "$verdict" = ok ]
	ok $? "$a module: $name"
done < <(grep '^check ' "$out/modules.out")
[ "$(grep -c '^check ' "$out/modules.out")" = "$(grep -c '^check ' tests/guest/modules.sh)" ]
ok $? "$a module: every check ran"

# The traced read of /proc/kft_test_mod, names from the guest's kallsyms.
sed -n '/^=== data$/,/^=== kallsyms$/p' "$out/modules.out" | sed '1d;$d' > "$out/raw.log"
sed -n '/^=== kallsyms$/,/^=== end$/p' "$out/modules.out" | sed '1d;$d' > "$out/kallsyms"
grep -q '\[kft_test_mod\]$' "$out/kallsyms"
ok $? "$a: the guest's kallsyms lists the module's functions"
"$BUILD/asan/addr2sym" -m "$out/kallsyms" "$out/raw.log" > "$out/resolved.log"
ok $? "$a: addr2sym resolves the log with them"
awk -f tests/lib/calltree.awk "$out/resolved.log" > "$out/tree.txt"
read -r _ root _ < <(grep '^root ' "$out/tree.txt")
[ "${root:-}" = kft_test_mod_show ]
ok $? "$a: the run starts at the module's kft_test_mod_show (got ${root:-none})"
grep -qx 'child kft_test_mod_work' "$out/tree.txt"
ok $? "$a: kft_test_mod_work is called from it"
[ "$(grep -c '^call kft_test_mod_leaf ' "$out/tree.txt")" = 3 ]
ok $? "$a: kft_test_mod_leaf is called three times"
! grep '^error' "$out/tree.txt" >&2
ok $? "$a: calls nest, entry times increase, callee durations add up"

panic_test "$kdir" "$out/initramfs.cpio.gz" "$1" "$args"
}

# panic_test KDIR INITRAMFS VARIANT ARGS: a panic in the module's init,
# kft_dump=panic.
panic_test() {
	local out=$BUILD/e2e/$(kft_arch_name "modpanic-$3" gcc 1cpu) a="$KFT_TAG $3"
	tests/lib/qemu-run.sh -x 'kft_dump end: ' -i "$2" -a "kft_dump=panic${4:+ $4}" \
		"$1" "$out" modpanic
	ok $? "$a kft_dump=panic: a module's init panics, the run is printed" || return
	awk '/Kernel panic - not syncing: kft_test_mod: panic_in_init/ { p = NR }
		/kft_dump begin: run 1, [0-9]+ calls, at panic/ { b = NR }
		END { exit !(p && b > p) }' "$out/console.log"
	ok $? "$a kft_dump=panic: the run follows the panic message"
	"$BUILD/asan/addr2sym" -m "$1/System.map" "$out/console.log" > "$out/dump.sym" 2> "$out/dump.err" &&
		[ ! -s "$out/dump.err" ] &&
		grep -q '^Logging stopped at [0-9]* usec by kernel panic$' "$out/dump.sym"
	ok $? "$a kft_dump=panic: addr2sym reads it from the console, whole; stopped by the panic"
	# In insmod's task, each open (-1), entered in this order.
	awk '/^------/ { d = 1; next }
		d && $2 == -1 && $4 == "load_module" { pid = $3; n = 1; next }
		d && $2 == -1 && $3 == pid && n == 1 && $4 == "do_init_module" { n = 2; next }
		d && $2 == -1 && $3 == pid && n == 2 && $4 == "do_one_initcall" { n = 3; next }
		d && $2 == -1 && $3 == pid && n == 3 && $4 == "panic" { n = 4 }
		END { exit n != 4 }' "$out/dump.sym"
	ok $? "$a kft_dump=panic: where it died: load_module -> do_init_module -> do_one_initcall -> panic, none returned"
}

for KFT_ARCH in $ARCHES; do
	. tests/lib/arch.sh
	module_test "$KFT_CHECK_VARIANT"
	[ "${KFT_TIER:-check}" = full ] && module_test kft+modules
done
tap_done
