#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run KFT's tests and count their TAP lines ("ok N - ..." / "not ok N - ...").
#
# usage: tests/run.sh unit|e2e|check|full
#   unit   host tests: the engine (hooks, runs, boot runs, parser; ASan/UBSan
#          against shims), the host tools
#   e2e    the kernel tests of the check tier alone
#   check  `make check`: unit, then every part of KFT on every architecture
#          and kernel series once, with the fewest kernels that do it
#          (KFT_TIER=check: one GCC kernel per architecture carrying the
#          boot run and modules, the KUnit/lockdep kernel, one kernel per
#          other series)
#   full   `make check-full`: check, plus the whole matrix (KFT_TIER=full:
#          every compiler, CPU count and config variant, longer stress)
# Ends with the line "N passed, N failed"; exit status 0 only if none failed.
# Before it, a timing table (suites, kernel builds, boots), also written to
# $BUILD/test-logs/timing.txt.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export BUILD=${BUILD:-build}
what=${1:-check}

unit_tests=("$BUILD/asan/test_config" "$BUILD/asan/test_hostlib" "$BUILD/asan/test_engine" tests/fuzz/test_fuzz.sh tests/tools/test_addr2sym.sh tests/tools/test_sym2addr.sh tests/tools/test_kd.sh tests/tools/test_tracecmd.sh tests/tools/test_kernelshark.sh tests/tools/test_kd_boot_ci.sh tests/tools/test_svg.sh tests/tools/test_html.sh tests/tools/test_mkkftrun.sh tests/tools/test_kftsites.sh tests/tools/test_kftreach.sh tests/tools/test_llvm_pass.sh tests/tools/test_hook_abi.sh tests/tools/test_linear.sh tests/tools/test_hostile.sh tests/tools/test_kft.sh tests/tools/test_docs.sh tests/tools/test_bench_reports.sh tests/tools/test_realcpu.sh tests/tools/test_install.sh tests/tools/test_structure.sh)
e2e_tests=(tests/e2e/test_plugin_default.sh tests/e2e/test_kft_kernel.sh tests/e2e/test_boot_run.sh tests/e2e/test_accuracy.sh tests/e2e/test_modules.sh tests/e2e/test_debug_kernel.sh tests/e2e/test_series.sh tests/style/test_kernel_style.sh)

export KFT_TIER=check
case $what in
unit)  tests=("${unit_tests[@]}") ;;
e2e)   tests=("${e2e_tests[@]}") ;;
check) tests=("${unit_tests[@]}" "${e2e_tests[@]}") ;;
full)  tests=("${unit_tests[@]}" "${e2e_tests[@]}"); KFT_TIER=full ;;
*) echo "usage: tests/run.sh unit|e2e|check|full" >&2; exit 2 ;;
esac

passed=0 failed=0
logdir=$BUILD/test-logs
mkdir -p "$logdir"
export KFT_TIMING=$repo/$logdir/timing.tsv
: > "$KFT_TIMING"
run_start=$SECONDS
. tests/lib/common.sh
read -r hits0 misses0 < <(kft_ccache_hits)
# The check tier's kernels, built ahead while the host tests and QEMU
# (one host thread) leave a core free.
if [ "$what" != unit ]; then
	setsid tests/lib/prebuild.sh > "$logdir/prebuild.log" 2>&1 &
	prebuild=$!
	trap 'kill -- -$prebuild 2>/dev/null' EXIT
fi
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
	printf 'suite\t%s\t%s\t%s passed, %s failed\n' "$name" $((SECONDS - start)) "$p" "$f" >> "$KFT_TIMING"
	passed=$((passed + p))
	failed=$((failed + f))
done

# The timing table: where this run's time went.  A kernel is listed once:
# built (by whichever build did it) or up to date.
read -r hits1 misses1 < <(kft_ccache_hits)
awk -F'\t' -v total=$((SECONDS - run_start)) -v what="$what" \
	-v ccache="$((hits1 - hits0)) of $((hits1 - hits0 + misses1 - misses0))" '
	function row(k, i) { printf "    %-44s %6d s  %s\n", substr(name[k, i], 1, 44), secs[k, i], detail[k, i] }
	$1 == "kernel" && ($2 in kernel) {
		i = kernel[$2]
		if ($4 ~ /^built/ && detail["kernel", i] !~ /^built/) {
			sum["kernel"] += $3 - secs["kernel", i]
			secs["kernel", i] = $3; detail["kernel", i] = $4
		}
		next
	}
	$1 == "kernel" { kernel[$2] = n["kernel"] + 1 }
	{ n[$1]++; name[$1, n[$1]] = $2; secs[$1, n[$1]] = $3; detail[$1, n[$1]] = $4; sum[$1] += $3 }
	END {
		for (i = 1; i <= n["kernel"]; i++)
			if (detail["kernel", i] ~ /^built/) built++; else uptodate++
		printf "Timing of tests/run.sh %s (%d s in all):\n", what, total
		split("suite source kernel style boot", kinds, " ")
		title["suite"] = "suites"; title["source"] = "kernel sources"
		title["style"] = "W=1 and sparse builds of the KFT objects"
		title["kernel"] = sprintf("kernels: %d built, %d up to date; ccache hits %s compiles", built, uptodate, ccache)
		title["boot"] = "QEMU boots"
		for (j = 1; j <= 5; j++) {
			k = kinds[j]
			if (!n[k]) continue
			printf "  %s (%d, %d s):\n", title[k], n[k], sum[k]
			for (i = 1; i <= n[k]; i++) row(k, i)
		}
	}' "$KFT_TIMING" | tee "$logdir/timing.txt"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
