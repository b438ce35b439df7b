// SPDX-License-Identifier: GPL-2.0
/* bench/realcpu: the TSC's rate, measured once a process. */
#include <time.h>
#include <x86intrin.h>

#include "realcpu.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

double realcpu_tsc_hz(void)
{
	static double hz;
	double t0, t1;
	unsigned long long c0, c1;

	if (hz)
		return hz;
	t0 = now();
	c0 = __rdtsc();
	do
		t1 = now();
	while (t1 - t0 < 0.05);
	c1 = __rdtsc();
	hz = (c1 - c0) / (t1 - t0);
	return hz;
}
