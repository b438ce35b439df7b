#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run each libFuzzer target for a bounded time (FUZZ_SECONDS each, default
# 20), starting from its corpus in tests/fuzz/corpus-NAME; new inputs go to
# a temporary directory, not into the repository.
#   fuzz_config    the config parser (kernel/kft_config.c)
#   fuzz_kftsites  scripts/kftsites on any file
#   fuzz_kd        kd, every mode (first byte), on any log
#   fuzz_symtab    System.map / kallsyms / ELF readers, lookups checked
#   fuzz_mkkftrun  mkkftrun on any kftstatic.conf
#   fuzz_kft       kft (the target's recorder) on any log and kallsyms
#   fuzz_addr2sym  addr2sym on any log or console capture
#   fuzz_optnum    the tools' numeric options
# First the canary (fuzz_canary.c): a UBSan report must fail a target.
# The tools' own output (kd's text, warnings) is muted: -close_fd_mask=3.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
tap_tmpdir
artifacts=$repo/${BUILD:-build}/fuzz-artifacts

# fuzz NAME MAX_LEN WHAT
fuzz() {
	local name=$1 max_len=$2 what=$3 rc runs
	mkdir -p "$tmp/$name"
	(cd "$tmp" && "$repo/${BUILD:-build}/fuzz_$name" "$tmp/$name" "$repo/tests/fuzz/corpus-$name" \
		-max_total_time="${FUZZ_SECONDS:-20}" -rss_limit_mb=2048 \
		-max_len="$max_len" -close_fd_mask=3 -print_final_stats=1 > "$tmp/$name.log" 2>&1)
	rc=$?
	tail -n 12 "$tmp/$name.log"
	if [ $rc -ne 0 ]; then
		# The report and the input that made it, kept for the fix.
		mkdir -p "$artifacts"
		sed -n '/ERROR: \|runtime error\|Assertion/,/^SUMMARY/p' "$tmp/$name.log" | head -n 60
		cp "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* "$tmp"/oom-* "$artifacts/" 2>/dev/null &&
			echo "input kept in $artifacts/: $(cd "$artifacts" && ls)"
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$name.log")
	[ $rc -eq 0 ] && [ "${runs:-0}" -gt 1000 ]
	ok $? "libFuzzer, $what: ${runs:-0} inputs (${FUZZ_SECONDS:-20} s), no crash, leak, UB or failed check"
}
# Undefined behaviour ends a run: the canary's overflow must fail it.
printf 'UB' > "$tmp/ub-input"
"$repo/${BUILD:-build}/fuzz_canary" "$tmp/ub-input" > "$tmp/canary.log" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'runtime error: signed integer overflow' "$tmp/canary.log"
ok $? "a UBSan report fails a fuzz target (the canary exits $rc)"
printf 'ok' > "$tmp/ok-input"
"$repo/${BUILD:-build}/fuzz_canary" "$tmp/ok-input" > "$tmp/canary.log" 2>&1
ok $? "the canary passes an input without undefined behaviour"

fuzz config 4096 "config parser (round trip)"
fuzz kftsites 16384 "scripts/kftsites (a rewritten object reads back)"
fuzz kd 8192 "kd's reader, tree builder and every output mode"
fuzz symtab 8192 "symbol maps, kallsyms and ELF symbol tables (lookups consistent)"
fuzz mkkftrun 8192 "mkkftrun (written only without NUL bytes)"
fuzz kft 8192 "kft's log and kallsyms readers, config wrapping"
fuzz addr2sym 8192 "addr2sym on any log, console captures too"
fuzz optnum 64 "the tools' numeric options (scripts/kft/optnum.h)"
tap_done
