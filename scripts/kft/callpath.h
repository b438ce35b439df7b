/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Calls merged by call path (a trie: a node per distinct path from a root
 * call), weighted by time on the CPU: what a flame graph draws and folded
 * stacks list.  Interrupts' paths hang below an "[irq]"-like node of the
 * caller's choosing, not below what they interrupted.  Everything here is
 * iterative and hashed: no recursion for deep logs, no sibling scans for
 * wide ones.
 */
#ifndef _KFT_CALLPATH_H
#define _KFT_CALLPATH_H

#include "calltree.h"
#include "pairmap.h"

struct kft_path {
	uint32_t fn;		/* name id; UINT32_MAX for the root */
	uint32_t parent;	/* 0 for the root's children */
	uint32_t first_child, next;	/* 0: none (0 is the root) */
	uint32_t depth;		/* the root's children: 1 */
	double self;		/* own time on the CPU of the calls here */
	double total;		/* self plus the paths below */
};

struct kft_paths {
	struct kft_path *p;	/* p[0] is the root */
	uint32_t n, cap;
	struct kft_pairmap child_of;	/* (parent, fn) -> index */
	uint32_t max_depth;
};

/* The paths of t's shown calls; interrupts' below irq_fn's node. */
void kft_paths_build(struct kft_paths *ps, const struct kft_tree *t,
		     uint32_t irq_fn);
/* Each node's children sorted by name (for output in a stable order). */
void kft_paths_sort(struct kft_paths *ps, const struct kft_names *names);
void kft_paths_free(struct kft_paths *ps);

#endif /* _KFT_CALLPATH_H */
