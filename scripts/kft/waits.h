/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Waiting, compensated.  A call that waits off the CPU (for devtmpfs, a
 * kthread, a work item) lasts while other tasks run on it, and KFT's hooks
 * in their calls lengthen it as surely as its own do.  kft_tree_waits()
 * takes them off every timed call of a finished tree.
 *
 * Per CPU, a density of hooks' time: in each task, a call's own hooks
 * (the hooks' time in it, less its timed callees') spread evenly over its
 * own time (less theirs), where the dropped calls could be; a call that
 * never returned holds its task's hooks to the log's end, so a kthread
 * whose calls were too short to log still has its hooks where it was not
 * asleep in a timed call; __switch_to() holds none (switched out).  Its
 * integral over a call's window, less its own task's (its own hooks), is
 * the other tasks' hooks in it.
 *
 * Right on one CPU for a call that waits for work, whose end the hooks
 * move; a wait for a timer or a device does not end sooner without them.
 * The idle task's hooks keep no one waiting, and it waits for no one.  A
 * run on several CPUs is left as it is: a log says only where a call
 * returned, and a task that moved would hold its hooks on a CPU where
 * other tasks ran beside it, not while it waited.
 */
#ifndef _KFT_WAITS_H
#define _KFT_WAITS_H

#include <stdbool.h>
#include <stdint.h>

struct kft_waits_cpu {
	/* Breakpoints: a time, the integral to it, the density after it. */
	double *t, *h, *rate;
	uint32_t n, cap;
	/* Changes not yet ended, a min-heap by end: what they take back. */
	struct kft_waits_end { double end, d; } *ends;
	uint32_t nends, ends_cap;
};

struct kft_waits {
	struct kft_waits_cpu *cpu;
	uint32_t ncpus;
};

struct kft_tree;

/*
 * Take the other tasks' hooks off each timed call's compensated time (its
 * delta, not below its callees'), in a tree finished with every node
 * kept; false if no run of it was on one CPU.  Linear but for a log n of
 * bisection.
 */
bool kft_tree_waits(struct kft_tree *t);

/*
 * cpu's density changes by d from start to end.  Changes come in the order
 * they start, on every CPU (the log's order).
 */
void kft_waits_change(struct kft_waits *w, uint32_t cpu, double start,
		      double end, double d);
/*
 * The integral of cpu's density up to time x: x no later than the start
 * of any change still to come (any x once all are in).
 */
double kft_waits_at(struct kft_waits *w, uint32_t cpu, double x);
void kft_waits_reset(struct kft_waits *w);	/* a new run: nothing yet */
void kft_waits_free(struct kft_waits *w);

#endif /* _KFT_WAITS_H */
