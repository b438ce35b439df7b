#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run KFT's tests and count their TAP lines ("ok N - ..." / "not ok N - ...").
#
# usage: tests/run.sh unit|e2e|all
#   unit  host tests: the engine (hooks, runs, boot runs, parser; ASan/UBSan
#         against shims), the host tools
#   e2e   kernels built with GCC and Clang, booted in QEMU, traces checked;
#         boot runs (kft=, kftstatic.conf)
# Ends with the line "N passed, N failed"; exit status 0 only if none failed.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export BUILD=${BUILD:-build}
what=${1:-all}

unit_tests=("$BUILD/asan/test_config" "$BUILD/asan/test_engine" tests/fuzz/test_fuzz.sh tests/tools/test_addr2sym.sh tests/tools/test_sym2addr.sh tests/tools/test_kd.sh tests/tools/test_mkkftrun.sh tests/tools/test_kftsites.sh tests/tools/test_linear.sh tests/tools/test_hostile.sh tests/tools/test_kft.sh tests/tools/test_docs.sh tests/tools/test_bench_reports.sh)
e2e_tests=(tests/style/test_kernel_style.sh tests/e2e/test_kft_kernel.sh tests/e2e/test_boot_run.sh tests/e2e/test_modules.sh tests/e2e/test_debug_kernel.sh)

case $what in
unit) tests=("${unit_tests[@]}") ;;
e2e)  tests=("${e2e_tests[@]}") ;;
all)  tests=("${unit_tests[@]}" "${e2e_tests[@]}") ;;
*) echo "usage: tests/run.sh unit|e2e|all" >&2; exit 2 ;;
esac

passed=0 failed=0
logdir=$BUILD/test-logs
mkdir -p "$logdir"
for t in "${tests[@]}"; do
	name=$(basename "$t")
	log=$logdir/$name.log
	echo "=== $name"
	start=$SECONDS
	"$t" > "$log" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	grep '^not ok ' "$log" | sed 's/^/    /'
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		# It died before saying what failed: count that as a failure.
		echo "    $name exited with $rc; last lines of $log:"
		tail -n 15 "$log" | sed 's/^/      /'
		f=1
	fi
	echo "    $p passed, $f failed ($((SECONDS - start)) s, log: $log)"
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
