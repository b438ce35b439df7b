/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Numbers in a tool's options, taken only whole: empty, trailing words,
 * out of range (strtol's clamping too) and, for times, NaN and infinity
 * are refused, never read as 0 or as the nearest bound.  Header only: the
 * kernel build's mkkftrun includes it too.
 */
#ifndef _KFT_OPTNUM_H
#define _KFT_OPTNUM_H

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* A whole number in [lo, hi]; base as strtoll() takes it (0: 0x, 0 too). */
static inline bool kft_opt_int(const char *s, int base, long long lo,
			       long long hi, long long *v)
{
	char *end;
	long long n;

	if (!*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	n = strtoll(s, &end, base);
	if (errno || *end || n < lo || n > hi)
		return false;
	*v = n;
	return true;
}

/* A finite number in [lo, hi]. */
static inline bool kft_opt_real(const char *s, double lo, double hi, double *v)
{
	char *end;
	double d;

	if (!*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	d = strtod(s, &end);
	if (errno || *end || !isfinite(d) || d < lo || d > hi)
		return false;
	*v = d;
	return true;
}

#endif /* _KFT_OPTNUM_H */
