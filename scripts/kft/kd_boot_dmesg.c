// SPDX-License-Identifier: GPL-2.0
/*
 * kd --boot --initcall-debug: a boot run's initcalls as the lines the
 * kernel prints with initcall_debug, so that the tools that read those from
 * dmesg (scripts/bootgraph.pl, pm-graph's bootgraph, the Boot Time SIG's
 * analyze-initcall-debug) read a KFT log unchanged:
 *
 *   [    0.123456] calling  pty_init+0x0/0x0 @ 1
 *   [    0.134567] initcall pty_init+0x0/0x0 returned 0 after 11111 usecs
 *   [    0.400000] Run init as init process
 *
 * Timestamps are KFT's clock, printk's layout (seconds since the run's time
 * base: for a boot run, the kernel's start); the duration is the
 * initcall's own call, as initcall_debug measures it.  What a KFT log does
 * not hold is written as a constant: the offset and size (+0x0/0x0), the
 * return value (0), the init program's name ("init").  Initcalls shorter
 * than the run's mintime are not in the log, and so not here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kd_boot.h"
#include "xalloc.h"

/* A time as printk prints it: "[%5lu.%06lu]". */
static void stamp(double us)
{
	long long t = isfinite(us) && us > 0 ? llround(us) : 0;

	printf("[%5lld.%06lld] ", t / 1000000, t % 1000000);
}

static int by_start(const void *a, const void *b)
{
	const struct boot_initcall *x = *(const struct boot_initcall *const *)a;
	const struct boot_initcall *y = *(const struct boot_initcall *const *)b;

	return x->start < y->start ? -1 : x->start > y->start;
}

void kd_boot_print_initcall_debug(const struct boot_report *r)
{
	const struct boot_initcall **order = xmalloc((r->ncalls + 1) * sizeof(*order));
	uint32_t i, n = 0;

	for (i = 0; i < r->ncalls; i++)
		if (r->calls[i].name)
			order[n++] = &r->calls[i];
	qsort(order, n, sizeof(*order), by_start);
	for (i = 0; i < n; i++) {
		const struct boot_initcall *ic = order[i];
		double at = r->t0 + ic->start;

		stamp(at);
		printf("calling  %s+0x0/0x0 @ %ld\n", ic->name, ic->pid);
		stamp(at + ic->time);
		printf("initcall %s+0x0/0x0 returned 0 after %lld usecs\n",
		       ic->name, isfinite(ic->time) && ic->time > 0 ?
		       llround(ic->time) : 0);
	}
	if (r->reached) {
		stamp(r->end);
		printf("Run init as init process\n");
	}
	free(order);
}
