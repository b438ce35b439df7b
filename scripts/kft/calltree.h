/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rebuild who called whom from a KFT log: the calls come in entry order,
 * and a call's caller is the innermost open call of the same task whose
 * function its call site is in (see calltree.c); a call in interrupt
 * context (pid -1) nests in whatever was running on its CPU, a tree of
 * its own, and so does a call that no open call made.  In the original's
 * logs (-1: in_interrupt(), bottom halves disabled too) a -1 call whose
 * call site is in the running task's open call is that call's callee.
 * Time other tasks ran on the CPU inside a call is counted as off-CPU, and
 * so is the context switch function's own time: a task that calls it is
 * switched out until it returns.  In a log filtered by duration the other
 * tasks' calls are mostly missing; the switch still shows.
 */
#ifndef _KFT_CALLTREE_H
#define _KFT_CALLTREE_H

#include "kftlog.h"

struct kft_node {
	struct kft_call c;
	int32_t parent;		/* its caller; for an interrupt, or a call no
				 * open call made, the one it ran in; -1 */
	int32_t tree;		/* index of the root of its display tree */
	uint32_t depth;		/* within its display tree */
	int32_t next;		/* free for the caller: kd links a tree's calls */
	double end;		/* when it returned, see kft_tree_add() */
	double sub;		/* time in direct callees */
	double offcpu;		/* time other tasks had the CPU */
	/*
	 * When it was entered on the compensated clock (kft_tree_place()):
	 * its entry, less the time KFT's hooks took before it.
	 */
	double at;
	bool hidden;		/* left out of the output by a filter */
	bool closed;		/* sub and offcpu are final */
	bool covered;		/* free for the caller (kd: inside a timed call shown) */
	uint8_t mark;		/* free for the caller */
};

struct kft_stack {
	int32_t *idx;
	uint32_t n, cap;
};

struct kft_tree {
	struct kft_node *nodes;
	uint32_t n, cap;
	/* open calls: per task (pid, or idle task per CPU), per CPU in irq */
	int64_t *task_keys;
	struct kft_stack *task_stacks;
	uint32_t ntasks, task_cap;
	uint32_t *task_slots;	/* hash of task_keys: index + 1, 0 empty */
	uint32_t task_nslots;
	struct kft_stack *irq;
	int32_t *cpu_task;	/* per CPU: the task last seen there, or -1 */
	bool *irq_last;		/* per CPU: its last call was an interrupt's */
	uint32_t ncpus;
	uint32_t switch_fn;	/* name id of __switch_to, or UINT32_MAX */
	uint64_t too_deep;	/* calls nested too deep, made roots */
	uint8_t *logged;	/* by name id: the log has calls of it */
	uint32_t nlogged;
	/*
	 * Closed calls' nodes given back (kft_tree_release()) for reuse:
	 * memory then follows the calls open at once, not the log's length
	 * (kd -r).
	 */
	int32_t *free_nodes;
	uint32_t nfree, free_cap;
	/*
	 * Called once per call: on_add when its caller is known (its callers
	 * are all still open then), on_close when its last callee is.
	 */
	void (*on_add)(void *priv, struct kft_tree *t, int32_t node);
	void (*on_close)(void *priv, struct kft_tree *t, int32_t node);
	void *priv;
};

void kft_tree_init(struct kft_tree *t,
		   void (*on_close)(void *, struct kft_tree *, int32_t),
		   void *priv);
void kft_tree_add(struct kft_tree *t, const struct kft_call *c);
/*
 * Does c's call site lie in a call still open at its entry, in its task or
 * its CPU's interrupt (c is next to be added)?  Then that call made it.
 */
bool kft_tree_called_open(struct kft_tree *t, const struct kft_call *c);
/* A closed call's node is no longer needed: reuse it. */
void kft_tree_release(struct kft_tree *t, int32_t node);
void kft_tree_finish(struct kft_tree *t);	/* close every open call */
/*
 * Each call's place on the compensated clock (kft_node.at), once the tree
 * is finished (and no node was released).  Linear.
 */
void kft_tree_place(struct kft_tree *t);
void kft_tree_free(struct kft_tree *t);

/*
 * A call's track in the timeline and the Chrome trace, and its own clock
 * on the compensated time line: its task's, but pid 0 is each CPU's own
 * idle task (swapper/N), and interrupt context a track per CPU.  Keys:
 * the pid (> 0); KFT_TRACK_IRQ - cpu; and KFT_TRACK_IDLE - cpu, ranges
 * that a CPU number (< 2^31) keeps apart.
 */
#define KFT_TRACK_IRQ	(-1LL)
#define KFT_TRACK_IDLE	(-(1LL << 32))

static inline int64_t kft_track_key(const struct kft_call *c)
{
	int64_t cpu = c->cpu > 0 ? c->cpu : 0;

	return c->irq ? KFT_TRACK_IRQ - cpu : c->pid ? c->pid : KFT_TRACK_IDLE - cpu;
}

static inline double kft_node_local(const struct kft_node *n)
{
	return n->c.delta >= 0 ? n->c.delta - n->sub : 0;
}

/* A call's own time on the CPU: local time, less the time it was off it. */
static inline double kft_node_self(const struct kft_node *n)
{
	double l = kft_node_local(n) - n->offcpu;

	return l > 0 ? l : 0;
}

#endif /* _KFT_CALLTREE_H */
