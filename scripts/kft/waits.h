/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Waiting, compensated.  A call that waits off the CPU (for devtmpfs, a
 * kthread, a work item) lasts while other tasks run on it, and KFT's hooks
 * in their calls lengthen it as surely as its own do.  kft_tree_waits()
 * takes them off every timed call of a finished tree.
 *
 * A density of hooks' time on the CPU: in each task, a call's own hooks
 * (the hooks' time in it, less its timed callees') spread evenly over its
 * own time (less theirs), where the dropped calls could be; a call that
 * never returned holds its task's hooks to the last time the log shows
 * that task, so a kthread whose calls were too short to log still has its
 * hooks where it was not asleep in a timed call; __switch_to() holds none
 * (switched out).  Its
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

struct kft_tree;

/*
 * Take the other tasks' hooks off each timed call's compensated time (its
 * delta, not below its callees'), in a tree finished with every node
 * kept; false if no run of it was on one CPU.  Linear but for a log n of
 * bisection.
 */
bool kft_tree_waits(struct kft_tree *t);

#endif /* _KFT_WAITS_H */
