// SPDX-License-Identifier: GPL-2.0
/*
 * kd (KFT dump): what a KFT log says.
 *
 * Summary mode (default): per function, count, total, average, local time
 * (total minus time in callees, minus time other tasks had the CPU), and
 * more with -f.  Call-trace mode (-c): the calls as a nested tree.  Input is
 * addr2sym output, or raw /proc/kft_data with -m/-e.  Options may come in
 * any order.  Layouts follow the original kd.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kft/calltree.h"
#include "kft/export.h"
#include "kft/kftlog.h"
#include "kft/symtab.h"
#include "kft/xalloc.h"

#define KD_VERSION "2.0"

struct callee {
	uint32_t fn;
	uint32_t count;
	double time;
};

struct fstat {
	uint32_t count;		/* calls with a duration */
	uint32_t open;		/* calls without one (-1, -2) */
	double total, min, max, sub, local, wall_local;
	struct callee *callees;
	uint32_t ncallees, cap;
};

/* Where (caller, callee) is in the caller's callee list: a hash map. */
struct callee_map {
	uint64_t *keys;		/* caller << 32 | callee, + 1; 0: empty */
	uint32_t *pos;
	uint32_t n, nslots;
};

struct kd {
	struct kft_names names;
	struct fstat *fs;
	uint32_t nfs;
	struct callee_map cm;
	bool fractions;		/* print 3 decimals: the log has them */
	/* options */
	const char *format;
	char sort;
	long top;
	double min_total;
	bool tree, interlace, running, diff;
	bool callees;		/* columns m, n or u: keep who called whom */
	char output;		/* 0 text, 'f' folded, 'j' JSON, 's' svg, 't' timeline */
	/* filters */
	long pid, cpu;		/* LONG_MIN: any */
	double from, to;
	const char *subtree;
	int64_t subtree_fn;	/* name id, -1 if not in the log (yet) */
	/* -c -i: the trees open in the listing, outermost first */
	int32_t *splice;
	int32_t depth, splice_cap;
	/* -r: calls waiting to be printed, in entry order (with -i) */
	bool stream, header_done;
	double last_flush;	/* CLOCK_MONOTONIC seconds */
	int32_t *queue, *scratch;
	uint32_t qhead, qlen, qcap, scratch_cap;
};

static bool wanted(const struct kd *kd, const struct kft_call *c)
{
	return (kd->pid == LONG_MIN || c->pid == kd->pid) &&
	       (kd->cpu == LONG_MIN || c->cpu == kd->cpu) &&
	       c->entry >= kd->from && c->entry <= kd->to;
}

static struct fstat *fstat_of(struct kd *kd, uint32_t fn)
{
	if (fn >= kd->nfs) {
		uint32_t n = kd->names.cap > fn ? kd->names.cap : fn + 1;
		struct fstat *fs = xrealloc(kd->fs, n * sizeof(*fs));

		memset(fs + kd->nfs, 0, (n - kd->nfs) * sizeof(*fs));
		kd->fs = fs;
		kd->nfs = n;
	}
	return &kd->fs[fn];
}

static uint32_t cm_slot(const struct callee_map *cm, uint64_t key)
{
	uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) &
		     (cm->nslots - 1);

	while (cm->keys[h] && cm->keys[h] != key)
		h = (h + 1) & (cm->nslots - 1);
	return h;
}

static void cm_grow(struct callee_map *cm)
{
	struct callee_map old = *cm;
	uint32_t i;

	cm->nslots = old.nslots ? old.nslots * 2 : 4096;
	cm->keys = xcalloc(cm->nslots, sizeof(*cm->keys));
	cm->pos = xcalloc(cm->nslots, sizeof(*cm->pos));
	for (i = 0; i < old.nslots; i++) {
		if (old.keys[i]) {
			uint32_t h = cm_slot(cm, old.keys[i]);

			cm->keys[h] = old.keys[i];
			cm->pos[h] = old.pos[i];
		}
	}
	free(old.keys);
	free(old.pos);
}

/* A call of fn made by caller: a function calls thousands of others. */
static void add_callee(struct kd *kd, uint32_t caller, uint32_t fn, double time)
{
	struct fstat *f = fstat_of(kd, caller);
	struct callee_map *cm = &kd->cm;
	uint64_t key = ((uint64_t)caller << 32 | fn) + 1;
	uint32_t h;

	if (cm->n * 2 >= cm->nslots)
		cm_grow(cm);
	h = cm_slot(cm, key);
	if (cm->keys[h]) {
		f->callees[cm->pos[h]].count++;
		f->callees[cm->pos[h]].time += time;
		return;
	}
	if (f->ncallees == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 4;
		f->callees = xrealloc(f->callees, f->cap * sizeof(*f->callees));
	}
	cm->keys[h] = key;
	cm->pos[h] = f->ncallees;
	cm->n++;
	f->callees[f->ncallees++] = (struct callee){ fn, 1, time };
}

static void stream_close(struct kd *kd, struct kft_tree *t, int32_t i);

/* A call is complete: account it to its function and its caller's. */
static void on_close(void *priv, struct kft_tree *t, int32_t i)
{
	struct kd *kd = priv;
	const struct kft_node *n = &t->nodes[i];
	struct fstat *f;
	double wall, local;

	if (kd->stream) {
		stream_close(kd, t, i);
		return;
	}
	if (n->hidden || kd->tree || kd->output)
		return;		/* only summaries count */
	f = fstat_of(kd, n->c.fn);
	if (n->c.delta < 0) {
		f->open++;	/* -1/-2: no time to add, ever */
		return;
	}
	wall = kft_node_local(n);
	local = wall - n->offcpu;
	if (local < 0)
		local = 0;
	if (!f->count || n->c.delta < f->min)
		f->min = n->c.delta;
	if (!f->count || n->c.delta > f->max)
		f->max = n->c.delta;
	f->count++;
	f->total += n->c.delta;
	f->sub += n->sub;
	f->local += local;
	f->wall_local += wall;
	if (n->parent >= 0 && kd->callees)
		add_callee(kd, t->nodes[n->parent].c.fn, n->c.fn, n->c.delta);
}

/*
 * v in microseconds, with 3 decimals if the log has them: "%.3f" / "%.0f"
 * by hand for the usual range (printf's float formatting was a third of
 * kd -c's time); values out of that range go to snprintf().
 */
static const char *fmt_us(const struct kd *kd, double v, char *buf, size_t n)
{
	int scale = kd->fractions ? 1000 : 1;
	double r = v * scale;
	char tmp[32];
	int64_t x;
	int i = sizeof(tmp), d;

	/* Near a half, only printf() rounds the binary value as printf() does. */
	if (!(fabs(r) < 9e15) || n < 24 ||
	    fabs(fabs(r - trunc(r)) - 0.5) < 1e-6) {
		snprintf(buf, n, kd->fractions ? "%.3f" : "%.0f", v);
		return buf;
	}
	x = llround(r);
	tmp[--i] = '\0';
	for (d = 0; d < (kd->fractions ? 3 : 0); d++) {
		tmp[--i] = '0' + (char)(llabs(x) % 10);
		x = x < 0 ? -(-x / 10) : x / 10;
	}
	if (kd->fractions)
		tmp[--i] = '.';
	do {
		tmp[--i] = '0' + (char)(llabs(x) % 10);
		x = x < 0 ? -(-x / 10) : x / 10;
	} while (x);
	if (r < 0 && llround(r) != 0)
		tmp[--i] = '-';
	memcpy(buf, tmp + i, sizeof(tmp) - i);
	return buf;
}

static const char *fmt_change(const struct kd *kd, double v, char *buf, size_t n)
{
	char num[32];

	fmt_us(kd, v, num, sizeof(num));
	snprintf(buf, n, "%s%s", v > 0 && strcmp(num, "0") ? "+" : "", num);
	return buf;
}

static const struct callee *max_sub(const struct fstat *f)
{
	const struct callee *m = NULL;
	uint32_t i;

	for (i = 0; i < f->ncallees; i++)
		if (!m || f->callees[i].time > m->time)
			m = &f->callees[i];
	return m;
}

static double sort_key(const struct kd *kd, const struct fstat *f, char col)
{
	switch (col) {
	case 'c': return f->count;
	case 'a': return f->count ? f->total / f->count : 0;
	case 's': return f->sub;
	case 'l': return f->local;
	case 'w': return f->wall_local;
	case 'r': return f->max - f->min;
	default: (void)kd; return f->total;
	}
}

static struct kd *sort_kd;
static int by_column(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct fstat *fx = &sort_kd->fs[x], *fy = &sort_kd->fs[y];
	double kx, ky;

	if (sort_kd->sort == 'F')
		return strcmp(sort_kd->names.name[x], sort_kd->names.name[y]);
	kx = sort_key(sort_kd, fx, sort_kd->sort);
	ky = sort_key(sort_kd, fy, sort_kd->sort);
	if (kx != ky)
		return kx > ky ? -1 : 1;
	return strcmp(sort_kd->names.name[x], sort_kd->names.name[y]);
}

static const struct {
	char col;
	const char *title;
	int width;
	bool left;
} columns[] = {
	{ 'F', "Function", 25, true },
	{ 'c', "Count", 5, false },
	{ 't', "Time", 8, false },
	{ 'a', "Average", 8, false },
	{ 'r', "Range", 17, false },
	{ 's', "Sub-time", 8, false },
	{ 'l', "Local", 8, false },
	{ 'w', "WallLocal", 9, false },
	{ 'm', "Max-sub", 25, true },
	{ 'n', "Ms count", 8, false },
	{ 'u', "Sub-list", 0, true },
};

static int column(char c)
{
	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		if (columns[i].col == c)
			return i;
	return -1;
}

static void summary(struct kd *kd)
{
	uint32_t *order = xcalloc(kd->names.n + 1, sizeof(*order));
	uint32_t i, n = 0;
	const char *fmt = kd->format;
	char buf[64], buf2[64];
	long shown = 0;

	for (i = 0; i < kd->names.n && i < kd->nfs; i++)
		if (kd->fs[i].count || kd->fs[i].open)
			order[n++] = i;
	sort_kd = kd;
	qsort(order, n, sizeof(*order), by_column);

	for (const char *p = fmt; *p; p++) {
		int c = column(*p);

		printf(columns[c].left ? "%-*s" : "%*s", columns[c].width,
		       columns[c].title);
		putchar(p[1] ? ' ' : '\n');
	}
	for (const char *p = fmt; *p; p++) {
		int c = column(*p), w = columns[c].width ? columns[c].width : 25;

		for (int k = 0; k < w; k++)
			putchar('-');
		putchar(p[1] ? ' ' : '\n');
	}
	for (i = 0; i < n; i++) {
		const struct fstat *f = &kd->fs[order[i]];
		const struct callee *m = max_sub(f);

		if (f->total <= kd->min_total && kd->min_total > 0)
			continue;
		if (kd->top >= 0 && shown >= kd->top)
			break;
		shown++;
		for (const char *p = fmt; *p; p++) {
			int c = column(*p), w = columns[c].width;
			const char *sep = p[1] ? " " : "\n";

			switch (*p) {
			case 'F': printf("%-*s%s", w, kd->names.name[order[i]], sep); break;
			case 'c': printf("%*u%s", w, f->count + f->open, sep); break;
			case 't': printf("%*s%s", w, fmt_us(kd, f->total, buf, sizeof(buf)), sep); break;
			case 'a': printf("%*s%s", w, fmt_us(kd, f->count ? f->total / f->count : 0, buf, sizeof(buf)), sep); break;
			case 'r': {
				char r[140];

				snprintf(r, sizeof(r), "%s-%s", fmt_us(kd, f->min, buf, sizeof(buf)),
					 fmt_us(kd, f->max, buf2, sizeof(buf2)));
				printf("%*s%s", w, r, sep);
				break;
			}
			case 's': printf("%*s%s", w, fmt_us(kd, f->sub, buf, sizeof(buf)), sep); break;
			case 'l': printf("%*s%s", w, fmt_us(kd, f->local, buf, sizeof(buf)), sep); break;
			case 'w': printf("%*s%s", w, fmt_us(kd, f->wall_local, buf, sizeof(buf)), sep); break;
			case 'm': printf("%-*s%s", w, m ? kd->names.name[m->fn] : "", sep); break;
			case 'n': printf("%*u%s", w, m ? m->count : 0, sep); break;
			case 'u':
				for (uint32_t k = 0; k < f->ncallees; k++)
					printf("%s%s:%u", k ? "," : "",
					       kd->names.name[f->callees[k].fn],
					       f->callees[k].count);
				fputs(sep, stdout);
				break;
			}
		}
	}
	free(order);
}

/* -c: the call tree.  Each display tree has its own marker character. */
static const char markers[] = "|!@[#$%&*+=?";

static void tree_header(const struct kd *kd)
{
	for (const char *p = kd->format; *p; p++)
		printf("%s", *p == 'e' ? " Entry     " : *p == 't' ? " Duration  " :
			     *p == 'l' ? " Local     " : *p == 'p' ? "    Pid " : "");
	printf(" Trace\n");
	for (const char *p = kd->format; *p; p++)
		printf("%s", *p == 'p' ? "------- " : "---------- ");
	printf("---------------------------------\n");
}

/* Right-align s in width columns, then a blank, at *p. */
static char *put_col(char *p, const char *s, int width)
{
	int n = strlen(s);

	if (n < width) {
		memset(p, ' ', width - n);
		p += width - n;
	}
	memcpy(p, s, n);
	p[n] = ' ';
	return p + n + 1;
}

/* One line of a call tree, built by hand: kd -c prints millions. */
static void tree_line(const struct kd *kd, const struct kft_tree *t,
		      const struct kft_node *n, char marker)
{
	const char *name = kd->names.name[n->c.fn];
	size_t namelen = kd->names.len[n->c.fn];
	size_t need = 40 * strlen(kd->format) + 3 * n->depth + namelen + 2;
	char buf[64], *line, *p;
	static char *mem;
	static size_t cap;
	double l;

	if (cap < need) {
		cap = 2 * need;
		mem = xrealloc(mem, cap);
	}
	line = p = mem;
	for (const char *f = kd->format; *f; f++) {
		switch (*f) {
		case 'e':
			p = put_col(p, fmt_us(kd, n->c.entry, buf, sizeof(buf)), 10);
			break;
		case 't':
			if (n->c.delta < 0)
				snprintf(buf, sizeof(buf), "%.0f", n->c.delta);
			else
				fmt_us(kd, n->c.delta, buf, sizeof(buf));
			p = put_col(p, buf, 10);
			break;
		case 'l':
			l = kft_node_local(n) - n->offcpu;
			p = put_col(p, fmt_us(kd, l < 0 ? 0 : l, buf, sizeof(buf)), 10);
			break;
		case 'p':
			snprintf(buf, sizeof(buf), "%d", n->c.pid);
			p = put_col(p, buf, 7);
			break;
		}
	}
	for (uint32_t d = 0; d < n->depth; d++) {
		*p++ = marker;
		*p++ = ' ';
		*p++ = ' ';
	}
	memcpy(p, name, namelen);
	p += namelen;
	*p++ = '\n';
	fwrite(line, 1, p - line, stdout);
	(void)t;
}

static void splice_marker(int depth, const char *what)
{
	char m = markers[depth % (sizeof(markers) - 1)];

	printf("----------- %c%c%c%c %s\n", m, m, m, m, what);
}

static void print_header(struct kd *kd)
{
	if (!kd->header_done)
		tree_header(kd);
	kd->header_done = true;
}

static void stream_release(struct kd *kd, struct kft_tree *t, int32_t i);

/*
 * -i lists all calls in entry order; a tree that starts while another is
 * open is spliced in between start/end markers, indented with its own
 * marker character.  Call i comes next: close the splices it is past,
 * open one if it starts a tree, then list it.
 */
static void splice_line(struct kd *kd, struct kft_tree *t, int32_t i)
{
	const struct kft_node *n = &t->nodes[i];

	while (kd->depth > 0 && kd->splice[kd->depth - 1] != n->tree) {
		int32_t root = kd->splice[kd->depth - 1];
		const struct kft_node *r = &t->nodes[root];
		bool open = r->c.delta == KFT_DELTA_OPEN ||
			    n->c.entry < r->c.entry + r->c.delta;
		bool below = false;

		for (int32_t k = 0; k < kd->depth - 1; k++)
			below |= kd->splice[k] == n->tree;
		if (open && !below)
			break;	/* n's tree starts inside this one */
		if (kd->depth > 1)
			splice_marker(kd->depth - 1, "end ----------------");
		kd->depth--;
		if (kd->stream)
			stream_release(kd, t, root);
	}
	if (!kd->depth || kd->splice[kd->depth - 1] != n->tree) {
		if (kd->depth)
			splice_marker(kd->depth, "start --------------");
		if (kd->depth == kd->splice_cap) {
			kd->splice_cap = kd->splice_cap ? 2 * kd->splice_cap : 16;
			kd->splice = xrealloc(kd->splice, kd->splice_cap *
					      sizeof(*kd->splice));
		}
		kd->splice[kd->depth++] = n->tree;
	}
	tree_line(kd, t, n, markers[(kd->depth - 1) % (sizeof(markers) - 1)]);
}

static void splice_end(struct kd *kd)
{
	while (kd->depth > 1)
		splice_marker(--kd->depth, "end ----------------");
	kd->depth = 0;
}

/*
 * Without -i, each tree (a task's calls with no caller in the log, or an
 * interrupt's) is listed whole, in the order the trees start.
 */
static void call_trees(struct kd *kd, struct kft_tree *t)
{
	uint32_t i;

	print_header(kd);
	if (!kd->interlace) {
		/* Link each tree's calls from its root, in entry order. */
		for (i = t->n; i-- > 0;) {
			struct kft_node *n = &t->nodes[i];

			if (n->tree != (int32_t)i) {
				n->next = t->nodes[n->tree].next;
				t->nodes[n->tree].next = i;
			}
		}
		for (i = 0; i < t->n; i++) {
			if (t->nodes[i].tree != (int32_t)i)
				continue;
			for (int32_t j = i; j >= 0; j = t->nodes[j].next)
				if (!t->nodes[j].hidden)
					tree_line(kd, t, &t->nodes[j], markers[0]);
		}
		return;
	}
	for (i = 0; i < t->n; i++)
		if (!t->nodes[i].hidden)
			splice_line(kd, t, i);
	splice_end(kd);
}

/*
 * -r: call trees printed while the log is read, and their calls' memory
 * reused.  Without -i, a tree is printed when its first call closes (its
 * calls are linked from its root); with -i, a call is printed when it and
 * every call before it are final (closed, or without a duration).  A call
 * is given back once printed and closed; a tree's root (which splice_line()
 * reads) also not before its tree's calls are printed and its splice ended.
 */
#define STREAM_PRINTED	1
#define STREAM_RELEASED	2

static void stream_release(struct kd *kd, struct kft_tree *t, int32_t i)
{
	struct kft_node *n = &t->nodes[i];

	if (!n->closed || !(n->mark & STREAM_PRINTED) ||
	    (n->mark & STREAM_RELEASED))
		return;
	if (kd->interlace && n->tree == i && n->next > 0)
		return;		/* calls of its tree wait to be printed */
	for (int32_t k = 0; k < kd->depth; k++)
		if (kd->splice[k] == i)
			return;
	n->mark |= STREAM_RELEASED;
	kft_tree_release(t, i);
}

/*
 * What is printed should reach a pipe soon, without a write per line:
 * at most ten writes a second, the first at once.
 */
static void stream_output(struct kd *kd)
{
	struct timespec ts;
	double now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec + ts.tv_nsec * 1e-9;
	if (now - kd->last_flush >= 0.1) {
		fflush(stdout);
		kd->last_flush = now;
	}
}

/* Print the queue's calls that are final, in order. */
static void stream_flush(struct kd *kd, struct kft_tree *t)
{
	bool printed = false;

	while (kd->qlen) {
		int32_t i = kd->queue[kd->qhead];
		struct kft_node *n = &t->nodes[i];

		if (!n->closed && n->c.delta >= 0)
			break;	/* its local time is not known yet */
		print_header(kd);
		splice_line(kd, t, i);
		n->mark |= STREAM_PRINTED;
		kd->qhead = (kd->qhead + 1) % kd->qcap;
		kd->qlen--;
		if (!--t->nodes[n->tree].next)
			stream_release(kd, t, n->tree);
		stream_release(kd, t, i);
		printed = true;
	}
	if (printed)
		stream_output(kd);
}

static void stream_add(struct kd *kd, struct kft_tree *t, int32_t i)
{
	struct kft_node *n = &t->nodes[i];

	/*
	 * With -i, root->next counts its tree's calls in the queue: the root
	 * is kept while they wait, for splice_line() to look at.
	 */
	if (kd->interlace && n->tree == i)
		n->next = 0;
	if (n->hidden) {
		n->mark = STREAM_PRINTED;	/* nothing to print */
		return;
	}
	if (!kd->interlace) {
		if (n->tree != i) {	/* root->next: its tree's newest call */
			n->next = t->nodes[n->tree].next;
			t->nodes[n->tree].next = i;
		}
		return;
	}
	t->nodes[n->tree].next++;
	if (kd->qlen == kd->qcap) {	/* grow the ring, oldest first */
		uint32_t cap = kd->qcap ? 2 * kd->qcap : 1024, k;
		int32_t *q = xcalloc(cap, sizeof(*q));

		for (k = 0; k < kd->qlen; k++)
			q[k] = kd->queue[(kd->qhead + k) % kd->qcap];
		free(kd->queue);
		kd->queue = q;
		kd->qcap = cap;
		kd->qhead = 0;
	}
	kd->queue[(kd->qhead + kd->qlen++) % kd->qcap] = i;
}

static void stream_close(struct kd *kd, struct kft_tree *t, int32_t i)
{
	struct kft_node *root = &t->nodes[i];
	uint32_t n = 0, k;
	int32_t j;

	if (kd->interlace || root->tree != i) {
		stream_release(kd, t, i);
		return;
	}
	/* A tree is complete when its root closes: its calls, oldest first. */
	for (j = root->next; j >= 0; j = t->nodes[j].next) {
		if (n == kd->scratch_cap) {
			kd->scratch_cap = kd->scratch_cap ? 2 * kd->scratch_cap : 1024;
			kd->scratch = xrealloc(kd->scratch, kd->scratch_cap *
					       sizeof(*kd->scratch));
		}
		kd->scratch[n++] = j;
	}
	print_header(kd);
	if (!root->hidden)
		tree_line(kd, t, root, markers[0]);
	root->mark |= STREAM_PRINTED;
	for (k = n; k-- > 0;) {
		tree_line(kd, t, &t->nodes[kd->scratch[k]], markers[0]);
		t->nodes[kd->scratch[k]].mark |= STREAM_PRINTED;
		stream_release(kd, t, kd->scratch[k]);
	}
	stream_release(kd, t, i);
	stream_output(kd);
}

/* A call's caller is known: is it in --subtree, and -r's bookkeeping. */
static void on_add(void *priv, struct kft_tree *t, int32_t i)
{
	struct kd *kd = priv;
	struct kft_node *n = &t->nodes[i];

	if (kd->subtree)
		n->hidden = n->c.fn != kd->subtree_fn &&
			    (n->parent < 0 || t->nodes[n->parent].hidden);
	if (kd->stream)
		stream_add(kd, t, i);
}

static void kd_free(struct kd *kd)
{
	for (uint32_t i = 0; i < kd->nfs; i++)
		free(kd->fs[i].callees);
	free(kd->cm.keys);
	free(kd->cm.pos);
	memset(&kd->cm, 0, sizeof(kd->cm));
	free(kd->fs);
	kd->fs = NULL;
	kd->nfs = 0;
	free(kd->splice);
	free(kd->queue);
	free(kd->scratch);
	kd->splice = kd->queue = kd->scratch = NULL;
	kft_names_free(&kd->names);
}

/* Read a log (NULL: standard input) into kd's statistics and the tree t. */
static int analyse(struct kd *kd, const char *path, const struct kft_symtab *st,
		   struct kft_tree *t)
{
	struct kft_log_reader r;
	struct kft_call c;
	FILE *in = stdin;
	bool data;

	if (path) {
		in = fopen(path, "r");
		if (!in) {
			fprintf(stderr, "kd: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	kft_tree_init(t, on_close, kd);
	t->on_add = on_add;
	/* Summaries need each call only until it closes. */
	t->recycle = !kd->tree && !kd->output;
	kd->stream = kd->running && kd->tree && !kd->output;
	t->switch_fn = kft_name_id(&kd->names, "__switch_to",
				   strlen("__switch_to"));
	kft_log_open(&r, in, path ? path : "<stdin>", st, &kd->names);
	if (kd->subtree)
		kd->subtree_fn = kft_name_id(&kd->names, kd->subtree,
					     strlen(kd->subtree));
	while (kft_log_next(&r, &c)) {
		if (!wanted(kd, &c))
			continue;
		/*
		 * Decimals if a time needs them; printing as we go cannot
		 * wait to see, and keeps the decimals the log has.
		 */
		if (kd->stream ? !kd->header_done && r.decimals :
		    c.entry != floor(c.entry) ||
		    (c.delta > 0 && c.delta != floor(c.delta)))
			kd->fractions = true;
		kft_tree_add(t, &c);
		if (kd->stream && kd->interlace)
			stream_flush(kd, t);
	}
	kft_tree_finish(t);
	data = r.in_data;
	if (kd->stream && data) {
		stream_flush(kd, t);
		splice_end(kd);
		print_header(kd);
	}
	kft_log_close(&r);
	if (in != stdin)
		fclose(in);
	if (!data) {
		fprintf(stderr, "kd: %s: no KFT log data (no '--------' line)\n",
			path ? path : "<stdin>");
		return 1;
	}
	return 0;
}

struct diff_row {
	const char *name;
	const struct fstat *a, *b;
	double change;
};

static int by_change(const void *x, const void *y)
{
	const struct diff_row *a = x, *b = y;

	if (fabs(a->change) != fabs(b->change))
		return fabs(a->change) > fabs(b->change) ? -1 : 1;
	return strcmp(a->name, b->name);
}

static double total_of(const struct fstat *f) { return f ? f->total : 0; }
static double local_of(const struct fstat *f) { return f ? f->local : 0; }
static double count_of(const struct fstat *f) { return f ? f->count + f->open : 0; }
static double avg_of(const struct fstat *f)
{
	return f && f->count ? f->total / f->count : 0;
}

/* --diff OLD NEW: per function, what changed, largest change in time first. */
static int diff(struct kd *kd, const char *old, const char *new,
		const struct kft_symtab *st)
{
	struct kd a = *kd, b = *kd;
	struct kft_tree ta, tb;
	struct diff_row *rows;
	uint32_t i, n = 0, na;
	long shown = 0;
	char v[6][48];
	int ret;

	memset(&a.names, 0, sizeof(a.names));
	memset(&b.names, 0, sizeof(b.names));
	a.fs = b.fs = NULL;
	a.nfs = b.nfs = 0;
	ret = analyse(&a, old, st, &ta);
	if (!ret)
		ret = analyse(&b, new, st, &tb);
	else
		kft_tree_init(&tb, NULL, NULL);
	if (ret)
		goto out;
	kd->fractions = a.fractions || b.fractions;
	rows = xcalloc(a.names.n + b.names.n + 1, sizeof(*rows));
	for (i = 0; i < a.names.n; i++) {
		const struct fstat *fa = i < a.nfs ? &a.fs[i] : NULL;
		uint32_t j = kft_name_id(&b.names, a.names.name[i],
					 strlen(a.names.name[i]));
		const struct fstat *fb = fstat_of(&b, j);

		if (fa && !fa->count && !fa->open)
			fa = NULL;
		if (!fb->count && !fb->open)
			fb = NULL;
		if (fa || fb)
			rows[n++] = (struct diff_row){ a.names.name[i], fa, fb,
						       total_of(fb) - total_of(fa) };
	}
	for (i = 0, na = a.names.n; i < b.names.n; i++) {
		const struct fstat *fb = fstat_of(&b, i);
		bool known = kft_name_id(&a.names, b.names.name[i],
					 strlen(b.names.name[i])) < na;

		if (!known && (fb->count || fb->open))
			rows[n++] = (struct diff_row){ b.names.name[i], NULL, fb,
						       total_of(fb) };
	}
	qsort(rows, n, sizeof(*rows), by_change);
	printf("%-25s %13s %21s %21s %21s\n", "Function", "Count", "Time",
	       "Average", "Local");
	printf("%-25s %6s %6s %10s %10s %10s %10s %10s %10s\n", "",
	       "old", "new", "old", "change", "old", "change", "old", "change");
	printf("------------------------- ------------- --------------------- --------------------- ---------------------\n");
	for (i = 0; i < n; i++) {
		const struct diff_row *r = &rows[i];

		if (kd->top >= 0 && shown >= kd->top)
			break;
		shown++;
		printf("%-25s %6.0f %6.0f %10s %10s %10s %10s %10s %10s\n", r->name,
		       count_of(r->a), count_of(r->b),
		       fmt_us(kd, total_of(r->a), v[0], 48),
		       fmt_change(kd, total_of(r->b) - total_of(r->a), v[1], 48),
		       fmt_us(kd, avg_of(r->a), v[2], 48),
		       fmt_change(kd, avg_of(r->b) - avg_of(r->a), v[3], 48),
		       fmt_us(kd, local_of(r->a), v[4], 48),
		       fmt_change(kd, local_of(r->b) - local_of(r->a), v[5], 48));
	}
	free(rows);
out:
	kft_tree_free(&ta);
	kft_tree_free(&tb);
	kd_free(&a);
	kd_free(&b);
	return ret;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kd [options] [LOG]\n"
		"       kd --diff [options] OLD NEW\n"
		"Summarise a KFT log, or show its call trees.  LOG defaults to standard input.\n"
		"\n"
		"Summary mode (default):\n"
		"  -n N        show the top N functions\n"
		"  -t T        only functions whose total time exceeds T us\n"
		"  -s C        sort by column C: F c t a r s l w (default t)\n"
		"  -f FMT      columns (default Fctal):\n"
		"                F function   c count   t total time   a average\n"
		"                r range (min-max)   s time in callees\n"
		"                l local time on the CPU (total - callees - time\n"
		"                  other tasks ran; __switch_to's is all off the\n"
		"                  CPU)   w local wall time\n"
		"                m callee with the most time   n its call count\n"
		"                u callees with call counts\n"
		"  -l          long listing, -f Fctalsmn\n"
		"Call-trace mode:\n"
		"  -c          nested call trees\n"
		"  -f FMT      columns: e entry  t duration  l local  p pid (default etlp)\n"
		"  -i          interlace: splice other tasks' and interrupts' trees in\n"
		"              by entry time, between start/end markers\n"
		"Other outputs:\n"
		"  --folded    folded stacks weighted by self time in ns (flamegraph.pl,\n"
		"              speedscope, inferno)\n"
		"  --chrome    Chrome Trace Event JSON (Perfetto UI, chrome://tracing,\n"
		"              speedscope)\n"
		"  --svg       a flame graph, as a self-contained SVG picture\n"
		"  --timeline  a timeline (lanes per task, calls as bars), as SVG\n"
		"  --diff OLD NEW  per function: count, time, average, local in OLD\n"
		"              and the change in NEW, largest change in time first\n"
		"Filters (calls outside them are left out of the analysis):\n"
		"  --pid P     calls of task P (-1: interrupt context)\n"
		"  --cpu C     calls on CPU C\n"
		"  --from T, --to T   calls entered between T and T us\n"
		"  --subtree F calls of F and everything they called\n"
		"Input:\n"
		"  -m MAP      resolve raw /proc/kft_data with System.map or kallsyms\n"
		"  -e VMLINUX  resolve raw /proc/kft_data with vmlinux\n"
		"  -r          with -c: print trees while reading, each when it is\n"
		"              complete (with -i: each call as soon as its local time\n"
		"              is known), and forget them: for pipes and huge logs\n"
		"  -h, --help  this help;  -V, --version  version\n"
		"Times are in microseconds.  Durations -1 (exit not seen) and -2 (stack\n"
		"watch) count as calls but add no time.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "folded", no_argument, NULL, 'F' },
		{ "pid", required_argument, NULL, 'P' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "from", required_argument, NULL, 'A' },
		{ "to", required_argument, NULL, 'B' },
		{ "subtree", required_argument, NULL, 'S' },
		{ "chrome", no_argument, NULL, 'J' },
		{ "diff", no_argument, NULL, 'D' },
		{ "svg", no_argument, NULL, 'G' },
		{ "timeline", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	struct kd kd = { .sort = 't', .top = -1, .pid = LONG_MIN, .cpu = LONG_MIN,
			 .from = -INFINITY, .to = INFINITY, .subtree_fn = -1 };
	const char *map = NULL, *elf = NULL;
	struct kft_symtab st, *stp = NULL;
	struct kft_tree t;
	bool long_fmt = false;
	char err[512], *end;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "n:t:s:f:lcirm:e:hV", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			kd.top = strtol(optarg, &end, 10);
			if (*end || kd.top < 0) {
				fprintf(stderr, "kd: -n takes a number, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 't':
			kd.min_total = strtod(optarg, &end);
			if (*end) {
				fprintf(stderr, "kd: -t takes microseconds, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 's':
			if (strlen(optarg) != 1 || !strchr("Fctarslw", optarg[0])) {
				fprintf(stderr, "kd: -s takes one of F c t a r s l w, not '%s'\n", optarg);
				return 2;
			}
			kd.sort = optarg[0];
			break;
		case 'f': kd.format = optarg; break;
		case 'l': long_fmt = true; break;
		case 'c': kd.tree = true; break;
		case 'i': kd.interlace = true; break;
		case 'r': kd.running = true; break;
		case 'm': map = optarg; break;
		case 'e': elf = optarg; break;
		case 'P':
		case 'C': {
			long v = strtol(optarg, &end, 10);

			if (*end || !*optarg) {
				fprintf(stderr, "kd: --%s takes a number, not '%s'\n",
					opt == 'P' ? "pid" : "cpu", optarg);
				return 2;
			}
			*(opt == 'P' ? &kd.pid : &kd.cpu) = v;
			break;
		}
		case 'A':
		case 'B': {
			double v = strtod(optarg, &end);

			if (*end || !*optarg) {
				fprintf(stderr, "kd: --%s takes microseconds, not '%s'\n",
					opt == 'A' ? "from" : "to", optarg);
				return 2;
			}
			*(opt == 'A' ? &kd.from : &kd.to) = v;
			break;
		}
		case 'S': kd.subtree = optarg; break;
		case 'D': kd.diff = true; break;
		case 'G': kd.output = 's'; break;
		case 'T': kd.output = 't'; break;
		case 'F': kd.output = 'f'; break;
		case 'J': kd.output = 'j'; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("kd (KFT) %s\n", KD_VERSION); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (argc - optind > 1 + kd.diff || (kd.diff && argc - optind != 2) ||
	    (map && elf)) {
		usage(stderr);
		return 2;
	}
	if (!kd.format)
		kd.format = kd.tree ? "etlp" : long_fmt ? "Fctalsmn" : "Fctal";
	else if (long_fmt)
		kd.format = kd.tree ? "etlp" : "Fctalsmn";
	kd.callees = !kd.tree && strpbrk(kd.format, "mnu");
	for (const char *p = kd.format; *p; p++) {
		if (kd.tree ? !strchr("etlp", *p) : column(*p) < 0) {
			fprintf(stderr, "kd: unknown column '%c' in -f %s\n", *p, kd.format);
			return 2;
		}
	}
	if (map || elf) {
		if (kft_symtab_load(&st, map, elf, err, sizeof(err))) {
			fprintf(stderr, "kd: %s\n", err);
			return 1;
		}
		stp = &st;
	}
	if (kd.diff) {
		ret = diff(&kd, argv[optind], argv[optind + 1], stp);
	} else {
		ret = analyse(&kd, optind < argc ? argv[optind] : NULL, stp, &t);
		if (!ret && kd.output == 'f')
			kft_export_folded(stdout, &t, &kd.names);
		else if (!ret && kd.output == 'j')
			kft_export_chrome(stdout, &t, &kd.names);
		else if (!ret && kd.output == 's')
			kft_export_flamegraph(stdout, &t, &kd.names,
					      optind < argc ? argv[optind] : "KFT log");
		else if (!ret && kd.output == 't')
			kft_export_timeline(stdout, &t, &kd.names,
					    optind < argc ? argv[optind] : "KFT log");
		else if (!ret && kd.tree && !kd.stream)
			call_trees(&kd, &t);
		else if (!ret && !kd.tree)
			summary(&kd);
		kft_tree_free(&t);
		kd_free(&kd);
	}
	if (stp)
		kft_symtab_free(stp);
	return ret;
}
