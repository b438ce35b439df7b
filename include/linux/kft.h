/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel Function Trace: what the rest of the kernel sees of KFT.
 * See Documentation/trace/kft/index.rst.
 */
#ifndef _LINUX_KFT_H
#define _LINUX_KFT_H

#include <linux/types.h>

struct task_struct;

#ifdef CONFIG_KFT

/*
 * A call the running trace saw enter and has not yet seen leave.  Its
 * function and call site are also one word, as in a log entry, for the
 * hooks to move in one load or store (kernel/kft_internal.h: kft_word()).
 */
struct kft_frame {
	u64 entry_ns;		/* the hooks' clock; top bits: KFT_FRAME_* */
	union {
		struct {
			s32 fn;		/* offsets from _text */
			s32 site;
		};
		u64 call;
	};
	u64 count;		/* kft_task.count as the call entered */
};

/*
 * Per-task shadow stack of open calls, in task_struct.  Interrupts nest on
 * the interrupted task's stack, as calls do, so one stack per task is enough.
 * A forked task's copy starts empty (kft_task_init()); a stack of an older
 * run's generation is emptied on first use.
 */
struct kft_task {
	u32 gen;
	u32 depth;		/* may exceed CONFIG_KFT_STACK_DEPTH */
	/*
	 * Calls entered (low 32 bits) and calls logged (high 32 bits) on
	 * this stack, interrupts' included: a logged call's difference is
	 * what ran inside it, for kd to take the hooks' cost off its time.
	 */
	u64 count;
	struct kft_frame frames[CONFIG_KFT_STACK_DEPTH];
};

/* dup_task_struct(): the new task's copy of its parent's stack is empty. */
void kft_task_init(struct task_struct *t);

/* Empty, instrumented: entered just before the first user program runs. */
void to_userspace(void);

#else

static inline void kft_task_init(struct task_struct *t) { }
static inline void to_userspace(void) { }

#endif /* CONFIG_KFT */

#endif /* _LINUX_KFT_H */
