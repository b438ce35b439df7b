// SPDX-License-Identifier: GPL-2.0
/*
 * kd --boot --initcall-debug: a boot run's initcalls as the lines the
 * kernel prints with initcall_debug, so that the tools that read those from
 * dmesg (scripts/bootgraph.pl, pm-graph's bootgraph, the Boot Time SIG's
 * analyze-initcall-debug) read a KFT log unchanged:
 *
 *   [    0.123456] calling  pty_init+0x0/0x0 @ 1
 *   [    0.134567] initcall pty_init+0x0/0x0 returned 0 after 11111 usecs
 *   [    0.400000] Run /init as init process
 *
 * Timestamps are KFT's clock, printk's layout (seconds since the run's time
 * base: for a boot run, the kernel's start); the duration is the
 * initcall's own call, as initcall_debug measures it.  What a KFT log does
 * not hold is written as a constant: the offset and size (+0x0/0x0), the
 * return value (0), the init program's path ("/init": the initramfs's, the
 * kernel's first choice; a log does not say which one ran - the Boot Time
 * SIG's boot-data reads time-to-init from this line, /init or /sbin/init,
 * and needs a path there).  Initcalls shorter
 * than the run's mintime are not in the log, and so not here.  An
 * initcall that never returned has no "returned" line; lines are in time
 * order when initcalls overlap (one nested in another, or in other tasks).
 * A name is one word (kd_boot_esc_word()): no name forges a line, or a
 * message another tool looks for in any line.
 *
 * kd --boot --boot-data: those lines as the kernel's messages of a
 * boot-data file, as the Boot Time SIG's grab-boot-data.sh writes it for
 * its boot-data tool (github.com/tbird20d/boot-time-wizard: boot-data,
 * boot_data_parser.py, grab-boot-data.sh).  The parser there starts a
 * section at a line that begins "== " and ends " ==", and reads in any
 * line an initcall (".* initcall NAME+... returned R after N usecs"; the
 * last one of a name counts), time-to-init (a line with "Run /init as init
 * process" or /sbin/init: the seconds in its "[...]") and a few other
 * messages; it reads "Kernel Info" (KERNEL_VERSION=, KERNEL_CMDLINE=) and
 * other sections grab-boot-data writes from the machine.  A KFT log holds
 * none of those (no version, command line, CPUs, memory or config), so
 * this file has what KFT knows in a section of its own, which boot-data
 * passes over:
 *
 *   == KFT INFO ==
 *   KFT_KD_VERSION="2.0"
 *   KFT_SOURCE="boot.log"		the log, as one word
 *   KFT_TIMES="compensated"		or "measured": KFT's hooks taken off
 *   KFT_START_KERNEL_USECS="10"		if the log has start_kernel
 *   KFT_TIME_TO_INIT_USECS="7400"	if it reached user space
 *   KFT_INITCALLS="3"			in the log (mintime and longer)
 *
 *   == KERNEL MESSAGES ==
 *   [    0.001820] calling  early_fn+0x0/0x0 @ 1
 *   ...
 *   [    0.007400] Run /init as init process
 *
 * every section ended by an empty line, as grab-boot-data's are.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kd_types.h"
#include "kd_boot.h"
#include "xalloc.h"

/* A time as printk prints it: "[%5lu.%06lu]". */
static void stamp(double us)
{
	long long t = isfinite(us) && us > 0 ? llround(us) : 0;

	printf("[%5lld.%06lld] ", t / 1000000, t % 1000000);
}

/*
 * A line to print: an initcall's call or return.  Lines go in time order;
 * at one time, the returns of initcalls that started before it, then each
 * initcall that took no time (its call, then its return), then the calls
 * of those that go on: so a line never comes before one it follows.
 */
struct event {
	double at;
	int rank;		/* 0 a return, 1 no time, 2 a call */
	uint32_t seq;		/* the initcall, by start */
	bool ret;
	const struct boot_initcall *ic;
};

static int by_start(const void *a, const void *b)
{
	const struct boot_initcall *x = *(const struct boot_initcall *const *)a;
	const struct boot_initcall *y = *(const struct boot_initcall *const *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x < y ? -1 : x > y;	/* the report's order: longest first */
}

static int by_time(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->ret - y->ret;
}

/*
 * An initcall that never returned (no exit in the log: where a boot hung)
 * gets its "calling" line and no "returned" line, as the kernel prints.
 */
void kd_boot_print_initcall_debug(const struct boot_report *r)
{
	const struct boot_initcall **order = xmalloc((r->ncalls + 1) * sizeof(*order));
	struct event *ev = xmalloc((2 * r->ncalls + 1) * sizeof(*ev));
	uint32_t i, n = 0, m = 0;

	for (i = 0; i < r->ncalls; i++)
		if (r->calls[i].name)
			order[n++] = &r->calls[i];
	qsort(order, n, sizeof(*order), by_start);
	for (i = 0; i < n; i++) {
		const struct boot_initcall *ic = order[i];
		double at = r->t0 + ic->start;
		double end = at + (isfinite(ic->time) && ic->time > 0 ? ic->time : 0);
		int rank = end > at ? 2 : 1;

		ev[m++] = (struct event){ at, rank, i, false, ic };
		if (!ic->open)
			ev[m++] = (struct event){ end, rank == 2 ? 0 : 1, i, true, ic };
	}
	qsort(ev, m, sizeof(*ev), by_time);
	for (i = 0; i < m; i++) {
		const struct boot_initcall *ic = ev[i].ic;
		char *name = kd_boot_esc_word(ic->name);

		stamp(ev[i].at);
		if (!ev[i].ret)
			printf("calling  %s+0x0/0x0 @ %ld\n", name, ic->pid);
		else
			printf("initcall %s+0x0/0x0 returned 0 after %lld usecs\n",
			       name, isfinite(ic->time) && ic->time > 0 ?
			       llround(ic->time) : 0);
		free(name);
	}
	if (r->reached) {
		stamp(r->end);
		printf("Run /init as init process\n");
	}
	free(order);
	free(ev);
}

void kd_boot_print_boot_data(const struct boot_report *r, const char *source)
{
	char *src = kd_boot_esc_word(source);
	uint32_t i, n = 0;

	for (i = 0; i < r->ncalls; i++)
		n += r->calls[i].name != NULL;
	printf("== KFT INFO ==\n");
	printf("KFT_KD_VERSION=\"%s\"\n", KD_VERSION);
	printf("KFT_SOURCE=\"%s\"\n", src);
	printf("KFT_TIMES=\"%s\"\n", r->note.times ? r->note.times : "measured");
	if (r->has_start && isfinite(r->t0))
		printf("KFT_START_KERNEL_USECS=\"%lld\"\n", llround(r->t0));
	if (r->reached && isfinite(r->end))
		printf("KFT_TIME_TO_INIT_USECS=\"%lld\"\n", llround(r->end));
	printf("KFT_INITCALLS=\"%u\"\n", n);
	printf("\n== KERNEL MESSAGES ==\n");
	kd_boot_print_initcall_debug(r);
	printf("\n");
	free(src);
}
