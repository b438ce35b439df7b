// SPDX-License-Identifier: GPL-2.0
/* bench/realcpu: the variants without KFT: no run to start or stop. */
#include <stdio.h>
#include <stdlib.h>

#include "realcpu.h"

int realcpu_kft(void)
{
	return 0;
}

void realcpu_kft_start(const char *config)
{
	(void)config;
}

void realcpu_kft_stop(const char *path, void *const *keep,
		      const unsigned long long *calls, int n)
{
	(void)path;
	(void)keep;
	(void)calls;
	(void)n;
}
