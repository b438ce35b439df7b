/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel Function Trace: what the rest of the kernel sees of KFT.
 * See Documentation/trace/kft.rst.
 */
#ifndef _LINUX_KFT_H
#define _LINUX_KFT_H

#include <linux/types.h>

#ifdef CONFIG_KFT

/* A call the running trace saw enter and has not yet seen leave. */
struct kft_frame {
	u64 entry_ns;		/* sched_clock(); high bits: KFT_FRAME_* */
	s32 fn;			/* offsets from _text */
	s32 site;
};

/*
 * Per-task shadow stack of open calls, in task_struct.  Interrupts nest on
 * the interrupted task's stack, as calls do, so one stack per task is enough.
 * A stack whose owner or generation is stale (a fork copy, an older run) is
 * emptied on first use instead of being reset at fork.
 */
struct kft_task {
	const void *owner;
	u32 gen;
	u32 depth;		/* may exceed CONFIG_KFT_STACK_DEPTH */
	struct kft_frame frames[CONFIG_KFT_STACK_DEPTH];
};

/* Empty, instrumented: entered just before the first user program runs. */
void to_userspace(void);

#else

static inline void to_userspace(void) { }

#endif /* CONFIG_KFT */

#endif /* _LINUX_KFT_H */
