// SPDX-License-Identifier: GPL-2.0
/* kd's numbers: microseconds as the log writes them, fast. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kd.h"

/*
 * v in microseconds, with 3 decimals if the log has them: "%.3f" / "%.0f"
 * by hand for the usual range (printf's float formatting was a third of
 * kd -c's time); values out of that range go to snprintf().
 */
const char *kd_fmt_us(const struct kd *kd, double v, char *buf, size_t n)
{
	int scale = kd->fractions ? 1000 : 1;
	double r = v * scale;
	char tmp[32];
	int64_t x;
	int i = sizeof(tmp), d;

	/* Near a half, only printf() rounds the binary value as printf() does. */
	if (!(fabs(r) < 9e15) || n < 24 ||
	    fabs(fabs(r - trunc(r)) - 0.5) < 1e-6) {
		snprintf(buf, n, kd->fractions ? "%.3f" : "%.0f", v);
		return buf;
	}
	x = llround(r);
	tmp[--i] = '\0';
	for (d = 0; d < (kd->fractions ? 3 : 0); d++) {
		tmp[--i] = '0' + (char)(llabs(x) % 10);
		x = x < 0 ? -(-x / 10) : x / 10;
	}
	if (kd->fractions)
		tmp[--i] = '.';
	do {
		tmp[--i] = '0' + (char)(llabs(x) % 10);
		x = x < 0 ? -(-x / 10) : x / 10;
	} while (x);
	if (r < 0 && llround(r) != 0)
		tmp[--i] = '-';
	memcpy(buf, tmp + i, sizeof(tmp) - i);
	return buf;
}

const char *kd_fmt_change(const struct kd *kd, double v, char *buf, size_t n)
{
	char num[32];

	kd_fmt_us(kd, v, num, sizeof(num));
	snprintf(buf, n, "%s%s", v > 0 && strcmp(num, "0") ? "+" : "", num);
	return buf;
}
