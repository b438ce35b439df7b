#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fuzz the config parser for a bounded time (FUZZ_SECONDS, default 20),
# starting from the corpus in tests/fuzz/corpus; new inputs go to a
# temporary directory, not into the repository.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
fuzzer=${BUILD:-build}/fuzz_config
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$fuzzer" "$tmp" tests/fuzz/corpus -max_total_time="${FUZZ_SECONDS:-20}" \
	-max_len=4096 -print_final_stats=1 > "$tmp/log" 2>&1
rc=$?
tail -n 12 "$tmp/log"
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/log")
[ $rc -eq 0 ] && [ "${runs:-0}" -gt 1000 ]
ok $? "libFuzzer: ${runs:-0} inputs, no crash, leak, UB or round-trip failure"
tap_done
