// SPDX-License-Identifier: GPL-2.0
/*
 * kd's summary mode: per function, count, total, average, local time
 * (total minus time in callees, minus time other tasks had the CPU), and
 * the other columns of -f; who called whom for columns m, n and u.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kd_types.h"
#include "xalloc.h"

struct fstat *kd_fstat_of(struct kd *kd, uint32_t fn)
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

/* A call of fn made by caller: a function calls thousands of others. */
static void add_callee(struct kd *kd, uint32_t caller, uint32_t fn, double time)
{
	struct fstat *f = kd_fstat_of(kd, caller);
	uint32_t at, slot;

	if (kft_pairmap_get(&kd->callee_at, caller, fn, &at, &slot)) {
		f->callees[at].count++;
		f->callees[at].time += time;
		return;
	}
	if (f->ncallees == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 4;
		f->callees = xrealloc(f->callees, f->cap * sizeof(*f->callees));
	}
	kft_pairmap_put(&kd->callee_at, slot, caller, fn, f->ncallees);
	f->callees[f->ncallees++] = (struct callee){ fn, 1, time };
}

/* A call is complete: account it to its function and its caller's. */
void kd_summary_close(struct kd *kd, struct kft_tree *t, int32_t i)
{
	const struct kft_node *n = &t->nodes[i];
	struct fstat *f;
	double wall, local;

	if (n->hidden)
		return;
	f = kd_fstat_of(kd, n->c.fn);
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
	if (n->c.compensated) {
		f->raw += n->c.raw;
		f->hooks += n->c.raw - n->c.delta;
	}
	f->sub += n->sub;
	f->local += local;
	f->wall_local += wall;
	if (n->parent >= 0 && kd->opt.callees)
		add_callee(kd, t->nodes[n->parent].c.fn, n->c.fn, n->c.delta);
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

	if (sort_kd->opt.sort == 'F')
		return strcmp(sort_kd->names.name[x], sort_kd->names.name[y]);
	kx = sort_key(sort_kd, fx, sort_kd->opt.sort);
	ky = sort_key(sort_kd, fy, sort_kd->opt.sort);
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
	{ 'h', "Hooks", 5, false },
	{ 'u', "Sub-list", 0, true },
};


static int column(char c)
{
	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		if (columns[i].col == c)
			return i;
	return -1;
}

void kd_summary(struct kd *kd)
{
	uint32_t *order = xcalloc(kd->names.n + 1, sizeof(*order));
	uint32_t i, n = 0;
	const char *fmt = kd->opt.format;
	char buf[64], buf2[64], buf3[512];
	bool uncertain = false;
	long shown = 0;

	for (i = 0; i < kd->names.n && i < kd->nfs; i++)
		if (kd->fs[i].count || kd->fs[i].open)
			order[n++] = i;
	sort_kd = kd;
	qsort(order, n, sizeof(*order), by_column);

	if (kd_times_note(kd, true, buf3, sizeof(buf3)))
		printf("%s\n", buf3);
	/* Compensated: the default columns say how much of each is hooks. */
	if (kd->opt.format_default && kd_costed(kd) && !kd->opt.raw) {
		snprintf(buf3, sizeof(buf3), "%sh", fmt);
		fmt = buf3;
	}

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

		if (f->total <= kd->opt.min_total && kd->opt.min_total > 0)
			continue;
		if (kd->opt.top >= 0 && shown >= kd->opt.top)
			break;
		shown++;
		for (const char *p = fmt; *p; p++) {
			int c = column(*p), w = columns[c].width;
			const char *sep = p[1] ? " " : "\n";

			switch (*p) {
			case 'F': printf("%-*s%s", w, kd->names.name[order[i]], sep); break;
			case 'c': printf("%*u%s", w, f->count + f->open, sep); break;
			case 't': printf("%*s%s", w, kd_fmt_us(kd, f->total, buf, sizeof(buf)), sep); break;
			case 'a': printf("%*s%s", w, kd_fmt_us(kd, f->count ? f->total / f->count : 0, buf, sizeof(buf)), sep); break;
			case 'r': {
				char r[140];

				snprintf(r, sizeof(r), "%s-%s", kd_fmt_us(kd, f->min, buf, sizeof(buf)),
					 kd_fmt_us(kd, f->max, buf2, sizeof(buf2)));
				printf("%*s%s", w, r, sep);
				break;
			}
			case 's': printf("%*s%s", w, kd_fmt_us(kd, f->sub, buf, sizeof(buf)), sep); break;
			case 'l': printf("%*s%s", w, kd_fmt_us(kd, f->local, buf, sizeof(buf)), sep); break;
			case 'w': printf("%*s%s", w, kd_fmt_us(kd, f->wall_local, buf, sizeof(buf)), sep); break;
			case 'm': printf("%-*s%s", w, m ? kd->names.name[m->fn] : "", sep); break;
			case 'n': printf("%*u%s", w, m ? m->count : 0, sep); break;
			case 'h': printf("%*s%s", w, kd_fmt_hooks_share(f->raw, f->hooks, &uncertain, buf, sizeof(buf)), sep); break;
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
	if (uncertain)
		kd_uncertain_note();
	free(order);
}

bool kd_summary_column(char c)
{
	return column(c) >= 0;
}
