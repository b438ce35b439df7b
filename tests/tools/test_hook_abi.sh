#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# CONFIG_KFT_AFTER_INLINING's calling convention, from the sources that
# make it (hook_abi.py): the GCC plugin's and the LLVM pass's asm clobbers,
# and the thunks of arch/arm64/include/asm/kft.h and
# arch/x86/include/asm/kft_thunk.h.  Every caller-saved register is either
# clobbered by the asm or saved by the thunk (else a traced function's
# register is corrupted at run time), none both (a store and a load a call
# for nothing), and the plugin and the pass agree.  The kernels that run
# these hooks are test_kft_kernel.sh's and test_accuracy.sh's; this one
# needs neither a plugin build nor a kernel.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
tap_tmpdir

python3 tests/tools/hook_abi.py "$repo" > "$tmp/abi.txt"
ok $? "hook_abi.py reads the plugin, the pass and the thunks"
while read -r verdict rest; do
	case $verdict in
	ok) ok 0 "$rest" ;;
	not) ok 1 "${rest#ok }" ;;
	esac
done < "$tmp/abi.txt"
[ "$(grep -c '' "$tmp/abi.txt")" -ge 16 ]
ok $? "every arch, hook and tool judged ($(grep -c '' "$tmp/abi.txt") lines)"
tap_done
