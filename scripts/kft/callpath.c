// SPDX-License-Identifier: GPL-2.0
/*
 * Calls merged by call path, for kd's flame graph and folded stacks.  A
 * path's index is always above its parent's, so one backward pass over
 * the array adds every path's time to its parent's.
 */
#include <stdlib.h>
#include <string.h>

#include "callpath.h"
#include "xalloc.h"

/* The path of fn called from path parent, made on first sight. */
static uint32_t child(struct kft_paths *ps, uint32_t parent, uint32_t fn)
{
	uint32_t c, slot;

	if (kft_pairmap_get(&ps->child_of, parent, fn, &c, &slot))
		return c;
	if (ps->n == ps->cap) {
		ps->cap *= 2;
		ps->p = xrealloc(ps->p, ps->cap * sizeof(*ps->p));
	}
	c = ps->n++;
	ps->p[c] = (struct kft_path){ fn, parent, 0, ps->p[parent].first_child,
				      ps->p[parent].depth + 1, 0, 0 };
	ps->p[parent].first_child = c;
	if (ps->p[c].depth > ps->max_depth)
		ps->max_depth = ps->p[c].depth;
	kft_pairmap_put(&ps->child_of, slot, parent, fn, c);
	return c;
}

void kft_paths_build(struct kft_paths *ps, const struct kft_tree *t,
		     uint32_t irq_fn)
{
	uint32_t *at = xcalloc(t->n, sizeof(*at));
	uint32_t i;

	memset(ps, 0, sizeof(*ps));
	ps->cap = 1024;
	ps->p = xcalloc(ps->cap, sizeof(*ps->p));
	ps->n = 1;
	ps->p[0].fn = UINT32_MAX;
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		uint32_t parent = 0;

		if (n->hidden)
			continue;
		/* A tree's root (a task's outermost call, an interrupt) starts a path. */
		if (n->tree != (int32_t)i && n->parent >= 0 &&
		    !t->nodes[n->parent].hidden)
			parent = at[n->parent];
		else if (n->c.irq)
			parent = child(ps, 0, irq_fn);
		at[i] = child(ps, parent, n->c.fn);
		ps->p[at[i]].self += kft_node_self(n);
	}
	free(at);
	for (i = 0; i < ps->n; i++)
		ps->p[i].total = ps->p[i].self;
	for (i = ps->n; i-- > 1;)
		ps->p[ps->p[i].parent].total += ps->p[i].total;
}

static const struct kft_names *sort_names;
static int by_name(const void *a, const void *b)
{
	return strcmp(sort_names->name[((const struct kft_path *)a)->fn],
		      sort_names->name[((const struct kft_path *)b)->fn]);
}

void kft_paths_sort(struct kft_paths *ps, const struct kft_names *names)
{
	struct kft_path *tmp = NULL;
	uint32_t i, cap = 0;

	sort_names = names;
	for (i = 0; i < ps->n; i++) {
		uint32_t c, k = 0;

		for (c = ps->p[i].first_child; c; c = ps->p[c].next) {
			if (k == cap) {
				cap = cap ? 2 * cap : 64;
				tmp = xrealloc(tmp, cap * sizeof(*tmp));
			}
			tmp[k] = ps->p[c];
			tmp[k++].next = c;	/* its index, for the relinking */
		}
		if (k > 1)
			qsort(tmp, k, sizeof(*tmp), by_name);
		ps->p[i].first_child = k ? tmp[0].next : 0;
		for (c = 0; c < k; c++)
			ps->p[tmp[c].next].next = c + 1 < k ? tmp[c + 1].next : 0;
	}
	free(tmp);
}

void kft_paths_free(struct kft_paths *ps)
{
	free(ps->p);
	kft_pairmap_free(&ps->child_of);
	memset(ps, 0, sizeof(*ps));
}
