// SPDX-License-Identifier: GPL-2.0
/*
 * kftsites --reach: can the hooks call instrumented code?
 *
 * The hooks, __cyg_profile_func_enter() and __cyg_profile_func_exit()
 * (kernel/kft.c), must call nothing that calls them.  Run on vmlinux.o,
 * this follows every direct call and jump from the hooks, through every
 * function it reaches that is not instrumented, and fails naming the path
 * to each function reached that calls a hook: one built with the
 * instrumentation.  It follows what the model of the code
 * (kftsites_code.c) says a branch goes to: relocations, displacements,
 * alternatives, static branches and static calls; not calls through
 * pointers.
 *
 * --stop FUNC: FUNC is checked, but what it calls is not followed: where
 * the hooks hand over to code that runs when it cannot harm them (the
 * kernel's: irq_work_queue() at the end of a run, the scheduler once a
 * hook has done its work).  --allow FUNC: FUNC is neither checked nor
 * followed.
 *
 * Uses the model of the code; called by kftsites.c's command line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kftsites_code.h"

/* A reached node's path from the hook it was reached from. */
static void print_path(const struct code *r, size_t v, FILE *f)
{
	size_t path[64], n = 0, u;

	for (u = v; u != NO_NODE && n < ARRAY_SIZE(path); u = r->nodes[u].parent)
		path[n++] = u;
	if (u != NO_NODE)
		fprintf(f, "... -> ");
	while (n--)
		fprintf(f, "%s%s", node_name(r, &r->nodes[path[n]]), n ? " -> " : "");
}

static int enqueue(struct code *r, size_t v, size_t parent)
{
	if (r->nodes[v].seen)
		return 0;
	if (r->nqueue == r->qcap) {
		size_t cap = r->qcap ? 2 * r->qcap : 256;
		size_t *q = realloc(r->queue, cap * sizeof(*q));

		if (!q)
			return -1;
		r->queue = q;
		r->qcap = cap;
	}
	r->nodes[v].seen = true;
	r->nodes[v].parent = parent;
	r->queue[r->nqueue++] = v;
	return 0;
}

/* The breadth-first walk from the hooks: 0 clean, 1 instrumented reached. */
static int reach_walk(struct code *r)
{
	struct edges e = { 0 };
	size_t i, q, nbad = 0, nallowed = 0, nstopped = 0, nundecoded = 0;
	int ret = -1;

	for (i = 0; i < r->nsorted; i++)
		if (r->nodes[i].hook && enqueue(r, i, NO_NODE))
			goto oom;
	if (!r->nqueue) {
		fprintf(stderr, "kftsites: %s: defines neither %s() nor %s()\n",
			r->o->path, hook_name[ENTER], hook_name[EXIT]);
		return -1;
	}
	for (q = 0; q < r->nqueue; q++) {
		size_t u = r->queue[q];

		if (r->nodes[u].allowed) {
			nallowed++;
			continue;
		}
		if (decode_node(r, u, &e))
			goto oom;
		if (r->nodes[u].undecoded)
			nundecoded++;
		if (e.hook) {
			r->nodes[u].instrumented = true;
			nbad++;
			continue;
		}
		if (r->nodes[u].stop) {
			nstopped++;
			continue;
		}
		for (i = 0; i < e.n; i++)
			if (enqueue(r, e.v[i], u))
				goto oom;
	}
	if (r->opt->verbose) {
		printf("%s: the hooks reach %zu functions: %zu instrumented, %zu stopped at, %zu allowed%s\n",
		       r->o->path, r->nqueue, nbad, nstopped, nallowed,
		       nundecoded ? " (some not decoded: marked ?)" : "");
		for (q = 0; q < r->nqueue; q++) {
			const struct node *n = &r->nodes[r->queue[q]];

			printf("  %s%s%s%s%s", node_name(r, n),
			       n->instrumented ? " (instrumented)" : "",
			       n->allowed ? " (allowed)" : "",
			       n->stop && !n->instrumented ? " (stop)" : "",
			       n->undecoded ? " ?" : "");
			if (n->parent != NO_NODE)
				printf(" <- %s", node_name(r, &r->nodes[n->parent]));
			putchar('\n');
		}
	}
	/* One line each, whole, for the build's log. */
	for (q = 0; q < r->nqueue; q++) {
		const struct node *n = &r->nodes[r->queue[q]];

		if (!n->instrumented)
			continue;
		fprintf(stderr, "kftsites: %s: error: the hooks reach %s, which calls them: ",
			r->o->path, node_name(r, n));
		print_path(r, r->queue[q], stderr);
		fputc('\n', stderr);
	}
	ret = nbad ? 1 : 0;
	free(e.v);
	return ret;
oom:
	free(e.v);
	return obj_fail(r->o, "out of memory");
}

/*
 * --reach (or --insns): 0 if the hooks reach nothing instrumented, 1 if
 * they do, -1 on an error.
 */
int reach(const char *path, const struct reach_opts *opt)
{
	struct object o;
	struct code r;
	int ret = -1;

	if (!code_open(&r, &o, path, opt)) {
		if (r.opt->insns) {
			code_insns(&r);
			ret = 0;
		} else {
			ret = reach_walk(&r);
		}
	}
	code_close(&r);
	return ret;
}
