// SPDX-License-Identifier: GPL-2.0
/*
 * The density of the hooks' time on the one CPU of a run, and its
 * integral (see waits.h).  A change adds a breakpoint where it starts and
 * one where it ends; a query finds its breakpoint by bisection.  Memory:
 * two breakpoints a timed call.
 */
#include <math.h>
#include <string.h>

#include "calltree.h"
#include "waits.h"
#include "xalloc.h"

/*
 * The density: breakpoints (a time, the integral to it, the density after
 * it), and the changes not yet ended, a min-heap by end: what they take
 * back.
 */
struct density {
	double *t, *h, *rate;
	uint32_t n, cap;
	struct density_end { double end, d; } *ends;
	uint32_t nends, ends_cap;
};

/* The density changes at time by d. */
static void breakpoint(struct density *c, double time, double d)
{
	double h = 0, rate = d;

	if (c->n) {
		h = c->h[c->n - 1] + c->rate[c->n - 1] * (time - c->t[c->n - 1]);
		rate += c->rate[c->n - 1];
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->t = xrealloc(c->t, c->cap * sizeof(*c->t));
		c->h = xrealloc(c->h, c->cap * sizeof(*c->h));
		c->rate = xrealloc(c->rate, c->cap * sizeof(*c->rate));
	}
	c->t[c->n] = time;
	c->h[c->n] = h;
	c->rate[c->n++] = rate;
}

static void heap_swap(struct density_end *a, struct density_end *b)
{
	struct density_end x = *a;

	*a = *b;
	*b = x;
}

/* The changes that ended by time x are taken back. */
static void advance(struct density *c, double x)
{
	while (c->nends && c->ends[0].end <= x) {
		struct density_end e = c->ends[0];
		uint32_t i = 0;

		c->ends[0] = c->ends[--c->nends];
		for (;;) {
			uint32_t l = 2 * i + 1, m = i;

			if (l < c->nends && c->ends[l].end < c->ends[m].end)
				m = l;
			if (l + 1 < c->nends && c->ends[l + 1].end < c->ends[m].end)
				m = l + 1;
			if (m == i)
				break;
			heap_swap(&c->ends[i], &c->ends[m]);
			i = m;
		}
		breakpoint(c, e.end, -e.d);
	}
}

/*
 * The density changes by d from start to end.  Changes come in the order
 * they start (the log's).
 */
static void density_change(struct density *c, double start, double end,
			   double d)
{
	uint32_t i;

	if (!(end > start) || !d)
		return;
	advance(c, start);
	breakpoint(c, start, d);
	if (c->nends == c->ends_cap) {
		c->ends_cap = c->ends_cap ? 2 * c->ends_cap : 16;
		c->ends = xrealloc(c->ends, c->ends_cap * sizeof(*c->ends));
	}
	i = c->nends++;
	c->ends[i].end = end;
	c->ends[i].d = d;
	while (i && c->ends[(i - 1) / 2].end > c->ends[i].end) {
		heap_swap(&c->ends[i], &c->ends[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

/*
 * The density's integral up to time x: x no later than the start of any
 * change still to come (any x once all are in).
 */
static double density_at(struct density *c, double x)
{
	uint32_t lo = 0, hi;

	advance(c, x);
	hi = c->n;
	/* The last breakpoint at or before x. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->t[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	lo--;
	return c->h[lo] + c->rate[lo] * (x - c->t[lo]);
}

static void density_free(struct density *c)
{
	free(c->t);
	free(c->h);
	free(c->rate);
	free(c->ends);
}

/* A call's part in the density: which, and its window. */
struct wait_call {
	double s, e;		/* its window, inside its caller's */
	double hooks;		/* the hooks' time in it */
	double sub_hooks, sub_span;	/* of its callees in the density */
	double rate;		/* its own hooks over its own time */
	double own;		/* its task's integral over its window */
	bool on, nested;	/* in the density; in its caller's part */
};

/*
 * The latest time each task's calls show it, by pid (> 0): a call that
 * never returned holds its task's hooks no further, nothing in the log
 * says it ran after.  Open addressing, twice the calls' slots.  One run's
 * (calltree.c's table of tasks spans the runs of a log).
 */
struct task_last {
	int32_t *pid;
	double *at;
	uint32_t mask;
};

static double *task_last_of(struct task_last *tl, int32_t pid)
{
	uint32_t h = ((uint32_t)pid * 0x9e3779b1u) & tl->mask;

	while (tl->pid[h] && tl->pid[h] != pid)
		h = (h + 1) & tl->mask;
	tl->pid[h] = pid;
	return &tl->at[h];
}

static void task_last_fill(struct task_last *tl, const struct kft_tree *t,
			   uint32_t a, uint32_t b)
{
	uint32_t i, n = 64;

	while (n < 2 * (b - a))
		n *= 2;
	tl->pid = xcalloc(n, sizeof(*tl->pid));
	tl->at = xcalloc(n, sizeof(*tl->at));
	tl->mask = n - 1;
	for (i = a; i < b; i++) {
		const struct kft_call *c = &t->nodes[i].c;
		double end = c->delta >= 0 ? c->entry + c->raw : c->entry, *at;

		if (c->irq || c->pid <= 0)
			continue;
		at = task_last_of(tl, c->pid);
		if (end > *at)
			*at = end;
	}
}

/* Is n in the density, and what of it (times end at most at last)? */
static bool wait_take(const struct kft_tree *t, const struct kft_node *n,
		      const struct wait_call *wc, struct wait_call *w,
		      struct task_last *tl)
{
	const struct kft_node *p = n->parent >= 0 ? &t->nodes[n->parent] : NULL;
	double e;

	if (n->c.irq || n->c.pid <= 0 || isnan(n->c.hooks))
		return false;
	if (n->c.delta >= 0 && n->c.raw > 0 && n->c.compensated)
		e = n->c.entry + n->c.raw;
	else if (n->c.delta == KFT_DELTA_OPEN && n->c.hooks > 0)
		e = fmin(n->end, *task_last_of(tl, n->c.pid));
	else
		return false;
	w->s = n->c.entry;
	w->e = e;
	w->hooks = n->c.fn == t->switch_fn ? 0 : n->c.hooks;
	if (p && wc[n->parent].on && !p->c.irq && p->c.pid == n->c.pid &&
	    p->c.cpu == n->c.cpu) {
		w->nested = true;
		if (w->e > wc[n->parent].e)
			w->e = wc[n->parent].e;
	}
	if (w->e < w->s)
		w->e = w->s;
	w->on = true;
	return true;
}

/* Calls a to b, one run's: the density, then each call's wait. */
static void waits_of_run(struct kft_tree *t, struct wait_call *wc,
			 uint32_t a, uint32_t b)
{
	struct density dens = { 0 };
	struct task_last tl;
	uint32_t i;

	task_last_fill(&tl, t, a, b);
	/* Which calls, and their callees' part of each. */
	for (i = a; i < b; i++) {
		struct wait_call *w = &wc[i];

		if (!wait_take(t, &t->nodes[i], wc, w, &tl) || !w->nested)
			continue;
		wc[t->nodes[i].parent].sub_hooks += w->hooks;
		wc[t->nodes[i].parent].sub_span += w->e - w->s;
	}
	/* Own rates in entry order: a callee's in place of its caller's. */
	for (i = a; i < b; i++) {
		struct wait_call *w = &wc[i];
		double h = w->hooks - w->sub_hooks, span = w->e - w->s - w->sub_span;

		if (!w->on)
			continue;
		w->rate = h > 0 && span > 0 ? h / span : 0;
		w->own += w->rate * (span > 0 ? span : 0);
		density_change(&dens, w->s, w->e, w->rate -
			       (w->nested ? wc[t->nodes[i].parent].rate : 0));
	}
	/*
	 * Callees before callers: a call's task's integral is its own part
	 * and its callees'; the rest of the integral over its window is the
	 * other tasks'.  Its callees' time shrank: so did its sub.
	 */
	for (i = b; i-- > a;) {
		struct kft_node *n = &t->nodes[i];
		struct wait_call *w = &wc[i];
		double x, d, before = n->c.delta;

		if (!w->on)
			continue;
		if (w->nested)
			wc[n->parent].own += w->own;
		if (n->c.delta < 0)
			continue;
		x = density_at(&dens, w->e) - density_at(&dens, w->s) - w->own;
		x = round(x * 1000) / 1000;	/* to the ns: rounding is no wait */
		if (!(x > 0))
			continue;
		d = before - x;
		if (d < n->sub)
			d = n->sub < before ? n->sub : before;
		if (d < 0)
			d = 0;
		n->c.delta = d;
		if (n->parent >= 0 && before > 0)
			t->nodes[n->parent].sub -= before - d;
	}
	density_free(&dens);
	free(tl.pid);
	free(tl.at);
}

/*
 * Did the run's calls all return on one CPU?  With more, a task that
 * moved between CPUs holds its hooks on the one its calls returned on,
 * and other tasks' calls there ran beside it, not while it waited.
 */
static bool one_cpu(const struct kft_tree *t, uint32_t a, uint32_t b)
{
	for (uint32_t i = a; i < b; i++)
		if (t->nodes[i].c.cpu > 0)
			return false;
	return true;
}

bool kft_tree_waits(struct kft_tree *t)
{
	struct wait_call *wc;
	uint32_t i, a = 0;
	bool taken = false;

	if (!t->n)
		return false;
	wc = xcalloc(t->n, sizeof(*wc));
	/* A run's calls in entry order; back in time, another run. */
	for (i = 1; i <= t->n; i++)
		if (i == t->n || t->nodes[i].c.rewound ||
		    t->nodes[i].c.entry < t->nodes[i - 1].c.entry) {
			if (one_cpu(t, a, i)) {
				waits_of_run(t, wc, a, i);
				taken = true;
			}
			a = i;
		}
	free(wc);
	return taken;
}
