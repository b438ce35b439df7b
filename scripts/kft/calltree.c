// SPDX-License-Identifier: GPL-2.0
/*
 * Call trees from KFT logs.  Each task has a stack of open calls; a call
 * closes when a later call of the same context starts after its end, or at
 * the end of the log.  Closing a call adds its time to its caller's
 * callee time, so local time = duration - time in callees.
 *
 * Who was running comes from the task (or, in an interrupt, the CPU) and
 * the time window: a function calls many others and is called from many
 * places, and interrupts and other tasks interleave in the log, so names
 * alone cannot say it (the original kd matched callers by name only).  Who
 * called whom is the call site's to say: see call_site_parent().
 *
 * A call whose exit the run never saw (-1) returned, at the latest, when
 * its caller did, or when a later call's call site says so; with no
 * caller that returned, it holds every later call of its context, unless
 * the same call site calls the same function again
 * (a log of repeated runs: autorepeat, or runs put end to end), or more of
 * them pile up than a kernel stack holds (left open by many runs).  So a
 * context's stack holds only calls that can still be open, and the work
 * per call does not grow with the log.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calltree.h"
#include "xalloc.h"

#define EPS 0.0005	/* half the log's resolution, 1 ns */
/*
 * More calls that never returned, one inside the other, than any kernel
 * stack nests (KFT logs calls CONFIG_KFT_STACK_DEPTH deep, 96 by default):
 * they were left open by different runs.
 */
#define OPEN_MAX 128
/*
 * KFT tracks at most 1,024 open calls per task (CONFIG_KFT_STACK_DEPTH's
 * range), and an interrupt adds its own: a call nested deeper is not from
 * a kernel stack.  It is shown as a root of its own, so that what kd
 * writes per call (indentation, stacks) stays bounded.
 */
#define DEPTH_MAX 2048
/*
 * How far down a stack the call site's function is looked for.  A caller
 * is the enclosing call, or a few below it (calls whose exit the log did
 * not see, a helper inlined into the caller): a bounded search costs
 * nothing on the calls whose caller encloses them, and stays linear on
 * any log; a per-function index of open calls would cost every call an
 * update.  A caller further down than this is taken as not open.
 */
#define SEARCH_MAX 128

static void push(struct kft_stack *s, int32_t i)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->idx = xrealloc(s->idx, s->cap * sizeof(*s->idx));
	}
	s->idx[s->n++] = i;
}

void kft_tree_init(struct kft_tree *t,
		   void (*on_close)(void *, struct kft_tree *, int32_t),
		   void *priv)
{
	memset(t, 0, sizeof(*t));
	t->on_close = on_close;
	t->priv = priv;
	t->switch_fn = UINT32_MAX;
}

/* The idle tasks all have pid 0: tell them apart by CPU. */
static int64_t task_key(const struct kft_call *c)
{
	return c->pid ? c->pid : -((int64_t)c->cpu + 2);
}

static uint32_t task_hash(int64_t key, uint32_t nslots)
{
	return (uint32_t)(((uint64_t)key * 0x9e3779b97f4a7c15ULL) >> 32) &
	       (nslots - 1);
}

/* Keep the task hash at most half full. */
static void task_rehash(struct kft_tree *t)
{
	uint32_t i, h;

	t->task_nslots = t->task_nslots ? t->task_nslots * 2 : 256;
	free(t->task_slots);
	t->task_slots = xcalloc(t->task_nslots, sizeof(*t->task_slots));
	for (i = 0; i < t->ntasks; i++) {
		h = task_hash(t->task_keys[i], t->task_nslots);
		while (t->task_slots[h])
			h = (h + 1) & (t->task_nslots - 1);
		t->task_slots[h] = i + 1;
	}
}

/* The index of a task's stack, made on first sight. */
static int32_t task_index(struct kft_tree *t, int64_t key)
{
	uint32_t h, i;

	if (2 * (t->ntasks + 1) > t->task_nslots)
		task_rehash(t);
	h = task_hash(key, t->task_nslots);
	for (; t->task_slots[h]; h = (h + 1) & (t->task_nslots - 1))
		if (t->task_keys[t->task_slots[h] - 1] == key)
			return t->task_slots[h] - 1;
	if (t->ntasks == t->task_cap) {
		t->task_cap = t->task_cap ? t->task_cap * 2 : 64;
		t->task_keys = xrealloc(t->task_keys,
					t->task_cap * sizeof(*t->task_keys));
		t->task_stacks = xrealloc(t->task_stacks,
					  t->task_cap * sizeof(*t->task_stacks));
	}
	i = t->ntasks++;
	t->task_keys[i] = key;
	memset(&t->task_stacks[i], 0, sizeof(struct kft_stack));
	t->task_slots[h] = i + 1;
	return i;
}

static void grow_cpus(struct kft_tree *t, int32_t cpu)
{
	uint32_t n = t->ncpus, i;

	if ((uint32_t)cpu < n)
		return;
	t->ncpus = cpu + 1;
	t->irq = xrealloc(t->irq, t->ncpus * sizeof(*t->irq));
	t->cpu_task = xrealloc(t->cpu_task, t->ncpus * sizeof(*t->cpu_task));
	t->irq_last = xrealloc(t->irq_last, t->ncpus * sizeof(*t->irq_last));
	for (i = n; i < t->ncpus; i++) {
		memset(&t->irq[i], 0, sizeof(t->irq[i]));
		t->cpu_task[i] = -1;
		t->irq_last[i] = false;
	}
}

void kft_tree_release(struct kft_tree *t, int32_t i)
{
	if (t->nfree == t->free_cap) {
		t->free_cap = t->free_cap ? t->free_cap * 2 : 256;
		t->free_nodes = xrealloc(t->free_nodes, t->free_cap *
					 sizeof(*t->free_nodes));
	}
	t->free_nodes[t->nfree++] = i;
}

static void close_node(struct kft_tree *t, int32_t i)
{
	struct kft_node *n = &t->nodes[i];

	/*
	 * A call lasts at least as long as the calls inside it: a
	 * compensated time that came out shorter (the hook cost is a
	 * calibration, its callees' counts another's) is theirs.
	 */
	if (n->c.compensated && n->sub > n->c.delta) {
		n->c.delta = n->sub < n->c.raw ? n->sub : n->c.raw;
		n->c.hooks = (float)(n->c.raw - n->c.delta);
	}
	if (n->parent >= 0 && n->c.delta > 0)
		t->nodes[n->parent].sub += n->c.delta;
	if (n->c.fn == t->switch_fn && n->c.delta > 0)
		n->offcpu = kft_node_local(n);	/* switched out, all of it */
	n->closed = true;
	if (t->on_close)
		t->on_close(t->priv, t, i);
}

static void unwind_stack(struct kft_tree *t, struct kft_stack *s, double time)
{
	while (s->n && t->nodes[s->idx[s->n - 1]].end <= time + EPS)
		close_node(t, s->idx[--s->n]);
}

/*
 * Close the calls on s that ended before time.  Interrupts that nested in
 * one of them end before it does, and are closed first, so that their
 * time reaches the caller before the caller is accounted.
 */
static void unwind(struct kft_tree *t, struct kft_stack *s, double time)
{
	while (s->n) {
		const struct kft_node *n = &t->nodes[s->idx[s->n - 1]];
		int32_t cpu = n->c.cpu < 0 ? 0 : n->c.cpu;

		if (n->end > time + EPS)
			break;
		if ((uint32_t)cpu < t->ncpus && &t->irq[cpu] != s)
			unwind_stack(t, &t->irq[cpu], n->end);
		close_node(t, s->idx[--s->n]);
	}
}

static int32_t top(const struct kft_stack *s)
{
	return s->n ? s->idx[s->n - 1] : -1;
}

static bool never_returned(const struct kft_tree *t, int32_t i)
{
	return t->nodes[i].end == INFINITY;
}

/*
 * The calls on top of s that never returned, as far as the log says: if
 * one of them is the function c calls, from the same call site, it had
 * returned after all, and so had every call above it; so had all of them
 * if there are more than OPEN_MAX.
 */
static void close_stale(struct kft_tree *t, struct kft_stack *s,
			const struct kft_call *c)
{
	uint32_t k;

	for (k = s->n; k > 0 && never_returned(t, s->idx[k - 1]); k--) {
		const struct kft_node *e = &t->nodes[s->idx[k - 1]];

		if (c->site && e->c.fn == c->fn && e->c.site == c->site) {
			while (s->n >= k)
				close_node(t, s->idx[--s->n]);
			return;
		}
		if (s->n - k >= OPEN_MAX) {
			while (s->n && never_returned(t, top(s)))
				close_node(t, s->idx[--s->n]);
			return;
		}
	}
}

/* Note that fn is a function the log shows calls of. */
static void set_logged(struct kft_tree *t, uint32_t fn)
{
	if (fn >= t->nlogged) {
		uint32_t n = t->nlogged ? t->nlogged : 1024;

		while (n <= fn)
			n *= 2;
		t->logged = xrealloc(t->logged, n);
		memset(t->logged + t->nlogged, 0, n - t->nlogged);
		t->nlogged = n;
	}
	t->logged[fn] = 1;
}

static bool is_logged(const struct kft_tree *t, uint32_t fn)
{
	return fn < t->nlogged && t->logged[fn];
}

/* The position on s of the innermost open call of fn, or -1. */
static int64_t find_open(const struct kft_tree *t, const struct kft_stack *s,
			 uint32_t fn)
{
	uint32_t k, low = s->n > SEARCH_MAX ? s->n - SEARCH_MAX : 0;

	for (k = s->n; k > low; k--)
		if (t->nodes[s->idx[k - 1]].c.fn == fn)
			return k - 1;
	return -1;
}

/* Inlined into inlined into ...: how far up inlined_call() looks. */
#define INLINE_MAX 8

/*
 * Was c, called from want inside open call i's window, made by i's code
 * all the same?  GCC logs a function it inlined into another, but its
 * call site (the return address) is the other's: the calls the inlined
 * code makes are logged as called from the function it is inlined into,
 * the inlined function as called from that one's caller.  So yes if i
 * (whose window is the log's: it has a duration) was called from want
 * too, or if i is inlined into a caller (called from that one's caller,
 * and so on up) that is want.
 */
static bool inlined_call(const struct kft_tree *t, int32_t i, uint32_t want)
{
	const struct kft_node *p = &t->nodes[i];
	int d;

	if (p->c.delta < 0)
		return false;
	if (p->c.caller_fn == want)
		return true;
	for (d = 0; d < INLINE_MAX && p->parent >= 0; d++) {
		const struct kft_node *q = &t->nodes[p->parent];

		if (p->c.caller_fn == KFT_CALLER_UNKNOWN ||
		    p->c.caller_fn != q->c.caller_fn)
			return false;
		if (q->c.fn == want)
			return true;
		p = q;
	}
	return false;
}

/*
 * The call site decides who called c.  parent is the call c ran inside
 * (the innermost open call of its context); c's caller is the function
 * its call site is in.  If parent is not that function, c is not its
 * callee, and its caller is the innermost open call of that function: on
 * c's stack (the calls above it there are calls whose exit the log did
 * not see, and had returned: they are closed, if they all are such), or,
 * for a task's call, on its CPU's interrupt stack, where the task's pid
 * was logged for work an interrupt did on its way out (softirqs in the
 * original KFT's logs); c then goes on that stack.  The time window keeps
 * deciding when the call site cannot:
 *  - it names no function (an address no symbol holds, 0);
 *  - parent's code made the call, inlined into c's caller (see
 *    inlined_call());
 *  - c's caller is no open call and the log has no call of it: notrace
 *    or assembly code (__schedule(), __switch_to_asm), or filtered out;
 *    the log cannot show it, so cannot show it absent.  Unless c is its
 *    task's first call on its CPU after an interrupt there returned:
 *    then c came from the interrupt's way out, as a preemption does
 *    (preempt_schedule_irq(), from the entry code).
 * Otherwise c's caller is not open in its context: it ran inside parent
 * but for someone else, as an interrupt does; *foreign says so.  Returns
 * the parent; *dest is the stack c goes on.
 */
static int32_t call_site_parent(struct kft_tree *t, const struct kft_call *c,
				int32_t cpu, struct kft_stack *own,
				struct kft_stack *running,
				int32_t parent, struct kft_stack **dest,
				bool *foreign)
{
	uint32_t want = c->caller_fn;
	struct kft_stack *irq = c->irq ? NULL : &t->irq[cpu];
	int64_t k, x = -1;

	*dest = own;
	*foreign = false;
	if (want == KFT_CALLER_UNKNOWN)
		return parent;
	if (parent >= 0 && (t->nodes[parent].c.fn == want ||
			    inlined_call(t, parent, want)))
		return parent;
	k = find_open(t, own, want);
	if (irq && irq->n) {
		unwind_stack(t, irq, c->entry);
		x = find_open(t, irq, want);
	}
	if (x >= 0 && (k < 0 || t->nodes[irq->idx[x]].c.entry >
			t->nodes[own->idx[k]].c.entry)) {
		*dest = irq;
		return irq->idx[x];
	}
	/*
	 * In the original's logs, a -1 call made by the task's code: a
	 * softirq's handler from the __do_softirq() the task ran (from
	 * local_bh_enable(), or from an irq_exit() the log does not show),
	 * a call with bottom halves disabled.  It stays on the interrupt
	 * stack, as its callees do.
	 */
	if (c->irq && c->legacy && running && running != own) {
		x = find_open(t, running, want);
		if (x >= 0 && (k < 0 || t->nodes[running->idx[x]].c.entry >
				t->nodes[own->idx[k]].c.entry))
			return running->idx[x];
	}
	if (k >= 0) {
		uint32_t j;

		for (j = k + 1; j < own->n; j++)
			if (t->nodes[own->idx[j]].c.delta != KFT_DELTA_OPEN)
				break;
		/* (Not under an interrupt still open: it nests in them.) */
		if (j == own->n && !(irq && irq->n))
			while (own->n > k + 1)
				close_node(t, own->idx[--own->n]);
		return own->idx[k];
	}
	/*
	 * In the original's logs, where the call site cannot say (a caller
	 * the log never shows: entry code, irq_exit() there), as the
	 * original kd did: a block of its own.
	 */
	if (parent >= 0 && (is_logged(t, want) || c->legacy ||
			    (irq && t->irq_last[cpu] && !irq->n)))
		*foreign = true;
	return parent;
}

/*
 * Does c's call site lie in a call open at its entry in its context: its
 * task's calls, or its CPU's interrupt's (c not yet added)?  Read only: the
 * calls that ended before c are skipped, not closed.
 */
static bool open_in(const struct kft_tree *t, const struct kft_stack *s,
		    const struct kft_call *c)
{
	uint32_t k, low = s->n > SEARCH_MAX ? s->n - SEARCH_MAX : 0;

	for (k = s->n; k > low; k--) {
		const struct kft_node *n = &t->nodes[s->idx[k - 1]];

		if (n->end > c->entry + EPS && n->c.fn == c->caller_fn)
			return true;
	}
	return false;
}

bool kft_tree_called_open(struct kft_tree *t, const struct kft_call *c)
{
	int32_t cpu = c->cpu < 0 ? 0 : c->cpu;
	uint32_t h;

	if (c->caller_fn == KFT_CALLER_UNKNOWN)
		return false;
	if ((uint32_t)cpu < t->ncpus && open_in(t, &t->irq[cpu], c))
		return true;
	if (c->irq || !t->task_nslots)
		return false;
	h = task_hash(task_key(c), t->task_nslots);
	for (; t->task_slots[h]; h = (h + 1) & (t->task_nslots - 1))
		if (t->task_keys[t->task_slots[h] - 1] == task_key(c))
			return open_in(t, &t->task_stacks[t->task_slots[h] - 1], c);
	return false;
}

void kft_tree_add(struct kft_tree *t, const struct kft_call *c)
{
	struct kft_stack *own, *dest, *running = NULL;
	int32_t i, parent, task, cpu = c->cpu < 0 ? 0 : c->cpu;
	bool own_tree = false, foreign = false;
	struct kft_node *n;

	if (t->nfree) {
		i = t->free_nodes[--t->nfree];
	} else {
		if (t->n == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 4096;
			t->nodes = xrealloc(t->nodes, t->cap * sizeof(*t->nodes));
		}
		i = t->n++;
	}
	n = &t->nodes[i];
	memset(n, 0, sizeof(*n));
	n->c = *c;
	grow_cpus(t, cpu);

	/* The task that had this CPU last, if its current call is still open. */
	if (t->cpu_task[cpu] >= 0) {
		running = &t->task_stacks[t->cpu_task[cpu]];
		unwind(t, running, c->entry);
	}
	if (c->irq) {
		own = &t->irq[cpu];
		unwind(t, own, c->entry);
		close_stale(t, own, c);
		/*
		 * An interrupt: a tree of its own, inside the call it
		 * interrupted.  The original kd left an interrupt's time in
		 * that call; its logs' Local times are read the same way.
		 */
		own_tree = !own->n;
		parent = own->n ? top(own) : (running ? top(running) : -1);
		/*
		 * Unless, in the original's logs (-1: in_interrupt()), its
		 * call site is in the running task's open call: that call
		 * made it, with bottom halves disabled (spin_lock_bh()), or
		 * running softirqs (local_bh_enable()); whatever its pid says.
		 * (In this KFT's, -1 is !in_task(): an interrupt's first call
		 * is made by the entry code, never by the task's.)
		 */
		if (!own->n && running && c->legacy &&
		    c->caller_fn != KFT_CALLER_UNKNOWN) {
			int64_t k = find_open(t, running, c->caller_fn);

			if (k >= 0) {
				own_tree = false;
				parent = running->idx[k];
			}
		}
		if (own_tree && c->legacy)
			parent = -1;
	} else {
		task = task_index(t, task_key(c));
		own = &t->task_stacks[task];
		/* The stacks may have moved: find the running one again. */
		if (running)
			running = &t->task_stacks[t->cpu_task[cpu]];
		unwind(t, own, c->entry);
		close_stale(t, own, c);
		parent = top(own);
		/*
		 * Another task's call on this CPU: this one had it meanwhile,
		 * hooks and all (they were not the waiting call's).
		 */
		if (running && running != own && parent < 0 && running->n &&
		    c->raw > 0) {
			struct kft_node *r = &t->nodes[top(running)];
			double until = r->end < c->entry + c->raw ?
				       r->end : c->entry + c->raw;

			r->offcpu += until - c->entry;
		}
		t->cpu_task[cpu] = task;
		if (t->irq[cpu].n)
			unwind(t, &t->irq[cpu], c->entry);
	}
	dest = own;
	if (!own_tree)
		parent = call_site_parent(t, c, cpu, own, running, parent,
					  &dest, &foreign);
	/* Someone else's call: a tree of its own, as an interrupt is. */
	if (foreign && c->legacy)
		parent = -1;
	n = &t->nodes[i];
	n->parent = parent;
	/* A call that never returned did so when its caller did, if that did. */
	if (c->delta == KFT_DELTA_OPEN)
		n->end = parent >= 0 ? t->nodes[parent].end : INFINITY;
	else if (c->delta == KFT_DELTA_STACK)
		n->end = c->entry;
	else
		n->end = c->entry + c->raw;	/* the log's window */
	if (parent < 0 || own_tree || foreign) {
		n->tree = i;		/* a tree of its own: task or interrupt */
		n->depth = 0;
	} else if (t->nodes[parent].depth + 1 >= DEPTH_MAX) {
		n->tree = i;
		n->depth = 0;
		t->too_deep++;
	} else {
		n->tree = t->nodes[parent].tree;
		n->depth = t->nodes[parent].depth + 1;
	}
	n->next = -1;
	if (t->on_add)
		t->on_add(t->priv, t, i);
	set_logged(t, c->fn);
	t->irq_last[cpu] = c->irq;
	if (c->delta == KFT_DELTA_STACK)
		close_node(t, i);	/* a marker: no callees */
	else
		push(dest, i);
}

void kft_tree_finish(struct kft_tree *t)
{
	uint32_t i;

	for (i = 0; i < t->ncpus; i++)
		while (t->irq[i].n)
			close_node(t, t->irq[i].idx[--t->irq[i].n]);
	for (i = 0; i < t->ntasks; i++)
		while (t->task_stacks[i].n)
			close_node(t, t->task_stacks[i].idx[--t->task_stacks[i].n]);
}

/* Track keys to their clock's shift, hashed: a log may have many tasks. */
struct shifts {
	int64_t *key;
	double *shift;
	uint32_t n, nslots;
};

static uint32_t shift_hash(int64_t key, uint32_t nslots)
{
	return (uint32_t)(((uint64_t)key * 0x9e3779b97f4a7c15ULL) >> 32) &
	       (nslots - 1);
}

/* The shift of key's clock; a new one starts at *start. */
static double *shift_of(struct shifts *m, int64_t key, double start)
{
	uint32_t h, i;

	if (2 * (m->n + 1) > m->nslots) {
		struct shifts g = { NULL, NULL, m->n, m->nslots ? 2 * m->nslots : 64 };

		g.key = xmalloc(g.nslots * sizeof(*g.key));
		g.shift = xmalloc(g.nslots * sizeof(*g.shift));
		for (i = 0; i < g.nslots; i++)
			g.shift[i] = NAN;	/* empty */
		for (i = 0; i < m->nslots; i++) {
			if (isnan(m->shift[i]))
				continue;
			for (h = shift_hash(m->key[i], g.nslots); !isnan(g.shift[h]);
			     h = (h + 1) & (g.nslots - 1))
				;
			g.key[h] = m->key[i];
			g.shift[h] = m->shift[i];
		}
		free(m->key);
		free(m->shift);
		*m = g;
	}
	for (h = shift_hash(key, m->nslots); !isnan(m->shift[h]);
	     h = (h + 1) & (m->nslots - 1))
		if (m->key[h] == key)
			return &m->shift[h];
	m->n++;
	m->key[h] = key;
	m->shift[h] = start;
	return &m->shift[h];
}

static void shifts_clear(struct shifts *m)
{
	uint32_t i;

	for (i = 0; i < m->nslots; i++)
		m->shift[i] = NAN;
	m->n = 0;
}

/*
 * The compensated clock: each call's entry less the time KFT's hooks took
 * before it (its shift).  Inside a call, a callee's shift is its caller's,
 * plus the hooks' time of the callees before it (their raw less their
 * delta), plus the caller's own hooks' time spread evenly over the time
 * its callees leave it (the dropped calls in it could be anywhere): so a
 * callee starts and ends inside its caller on this clock too.  A call
 * with no caller starts on its track's clock (its task, a CPU's
 * interrupts or idle task), which each such call with a duration moves
 * on by its hooks' time; a track's first call takes its CPU's clock: the
 * shift of the calls entered on that CPU, and of those that returned, with
 * their hooks' time (the boot's kernel_init starts where start_kernel's
 * calls left the clock).  No call starts before the log's time 0.  A new
 * run starts every clock afresh.  Nothing moves in a log that does not
 * say what its hooks cost: at is entry, exactly.
 */
struct cpu_clock {
	double shift;		/* the furthest it is known to have moved */
	struct { double end, shift; } *open;	/* timed calls, as entered */
	uint32_t n, cap;
};

void kft_tree_place(struct kft_tree *t)
{
	/* Per call: its callees' raw time, and so far placed: raw, hooks. */
	double *sub_raw = xcalloc((size_t)t->n + 1, sizeof(*sub_raw));
	double *used = xcalloc(2 * (size_t)t->n + 2, sizeof(*used));
	struct cpu_clock *cc = xcalloc(t->ncpus + 1, sizeof(*cc));
	struct shifts m = { 0 };
	uint32_t i, k;

	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];

		if (n->parent >= 0 && (uint32_t)n->parent < i && n->c.raw > 0)
			sub_raw[n->parent] += n->c.raw;
	}

	for (i = 0; i < t->n; i++) {
		struct kft_node *n = &t->nodes[i];
		uint32_t cpu = n->c.cpu > 0 ? (uint32_t)n->c.cpu : 0;
		double hooks = n->c.raw > 0 ? n->c.raw - n->c.delta : 0;
		struct cpu_clock *c;
		double s, *track = NULL;
		int32_t p = n->parent;

		if (cpu >= t->ncpus)	/* (every call's CPU was grown for) */
			cpu = 0;
		if (n->c.rewound) {
			shifts_clear(&m);
			for (k = 0; k <= t->ncpus; k++)
				cc[k].shift = 0, cc[k].n = 0;
		}
		/* The calls that returned before this one: their hooks too. */
		c = &cc[cpu];
		while (c->n && c->open[c->n - 1].end <= n->c.entry) {
			c->n--;
			if (c->open[c->n].shift > c->shift)
				c->shift = c->open[c->n].shift;
		}
		if (p >= 0 && (uint32_t)p < i) {
			const struct kft_node *q = &t->nodes[p];
			double since = n->c.entry - q->c.entry, f = 1;
			double qs = q->c.entry - q->at;	/* its shift */
			double gap = since - used[2 * p];

			if (gap < 0)
				gap = 0;
			if (q->c.compensated) {
				double lr = q->c.raw - sub_raw[p];
				double lc = q->c.delta - q->sub;

				if (lr > 0 && lc < lr)
					f = lc > 0 ? lc / lr : 0;
			}
			s = qs + (1 - f) * gap + used[2 * p + 1];
			/* Not before its caller (callees that overlap). */
			if (since >= 0 && s > qs + since)
				s = qs + since;
			if (n->c.raw > 0) {
				used[2 * p] += n->c.raw;
				used[2 * p + 1] += hooks;
			}
		} else {
			track = shift_of(&m, kft_track_key(&n->c), c->shift);
			s = *track;
			if (s > n->c.entry)
				s = n->c.entry > 0 ? n->c.entry : 0;
		}
		/*
		 * To the ns, as times are: a callee that ends where its
		 * caller does then ends there exactly, not a rounding apart.
		 */
		s = round(s * 1000) / 1000;
		if (track)
			*track = s + hooks;
		n->at = n->c.entry - s;
		if (s > c->shift)
			c->shift = s;
		if (hooks > 0) {
			if (c->n == c->cap) {
				c->cap = c->cap ? 2 * c->cap : 16;
				c->open = xrealloc(c->open, c->cap * sizeof(*c->open));
			}
			c->open[c->n].end = n->c.entry + n->c.raw;
			c->open[c->n++].shift = s + hooks;
		}
	}
	for (k = 0; k <= t->ncpus; k++)
		free(cc[k].open);
	free(cc);
	free(sub_raw);
	free(used);
	free(m.key);
	free(m.shift);
}

void kft_tree_free(struct kft_tree *t)
{
	uint32_t i;

	for (i = 0; i < t->ntasks; i++)
		free(t->task_stacks[i].idx);
	for (i = 0; i < t->ncpus; i++)
		free(t->irq[i].idx);
	free(t->task_stacks);
	free(t->task_keys);
	free(t->task_slots);
	free(t->irq);
	free(t->cpu_task);
	free(t->irq_last);
	free(t->free_nodes);
	free(t->logged);
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}
