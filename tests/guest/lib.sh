#!/bin/sh
# Helpers the guest test steps share (sourced as /tests/lib.sh).

# The system call functions' prefix: __x64_sys_openat, __arm64_sys_openat;
# 32-bit arm has no wrappers: sys_openat.
case $(uname -m) in
aarch64) SYS=__arm64_sys_ ;;
riscv64) SYS=__riscv_sys_ ;;
armv*) SYS=sys_ ;;
*) SYS=__x64_sys_ ;;
esac

# What openat() opens its file through: do_file_open() from 7.x on,
# do_filp_open() before.
if grep -q ' do_file_open$' /proc/kallsyms 2>/dev/null; then
	FILE_OPEN=do_file_open
else
	FILE_OPEN=do_filp_open
fi

check() {	# check NAME COMMAND...: prints "check NAME ok|FAIL"
	name=$1
	shift
	if "$@" >/dev/null 2>&1; then echo "check $name ok"; else echo "check $name FAIL"; fi
}

# The hooks' call sites, from /proc/kft (a run must be registered): "N STATE".
sites() { cat /proc/kft | sed -n 's/^hook sites: \([0-9]*\), \([A-Za-z]*\).*/\1 \2/p'; }
sites_are() { [ "$(sites | cut -d' ' -f2)" = "$1" ]; }
# sites_become STATE: wait up to 30 s (patching takes seconds under QEMU
# without KVM).
sites_become() {
	for i in $(seq 60); do
		sites_are "$1" && return 0
		sleep 0.5
	done
	return 1
}
# sites_settled: before timing anything, wait for the poll that NOPs the
# sites after a run (it holds the lock /proc/kft's writes take, for
# seconds under QEMU on a loaded host: a timing it lands in is its own).
sites_settled() {
	sites_are calls && sites_become NOPs
	return 0
}
