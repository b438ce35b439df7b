// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for scripts/kft/optnum.h, the tools' numeric options:
 * any bytes as an option's value.  What is taken must be in its range,
 * finite, and what strtoll()/strtod() read from the whole of it; empty
 * values, leading blanks and trailing junk must be refused.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kft/optnum.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int bases[] = { 0, 10 };
	long long lo, hi, v;
	char *s, *end;
	double d;
	size_t i;

	if (size < 2)
		return 0;
	/* First byte: the range; the rest: the value, as a C string. */
	lo = (data[0] & 1) ? -1 : 0;
	hi = (data[0] & 2) ? 64 : LLONG_MAX;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		if (!kft_opt_int(s, bases[i], lo, hi, &v))
			continue;
		if (v < lo || v > hi || !*s || strtoll(s, &end, bases[i]) != v || *end)
			abort();
	}
	if (kft_opt_real(s, -1e6, 1e6, &d) &&
	    (!isfinite(d) || d < -1e6 || d > 1e6 || strtod(s, &end) != d || *end || !*s))
		abort();
	free(s);
	return 0;
}
