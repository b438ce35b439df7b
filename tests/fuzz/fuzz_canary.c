// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzers' own canary: built with the same flags as every libFuzzer
 * target (FUZZ_CC), it overflows a signed int on an input that starts with
 * "UB".  tests/fuzz/test_fuzz.sh feeds it that input and must see the run
 * fail: if UBSan were left to recover, a fuzz run would pass while it
 * reports undefined behaviour.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile int big = INT_MAX;

	if (size >= 2 && !memcmp(data, "UB", 2))
		big = big + 1;
	return big == 0;
}
