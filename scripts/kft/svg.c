// SPDX-License-Identifier: GPL-2.0
/*
 * kd's pictures, as self-contained SVG files: open them in a browser.
 *  - a flame graph: calls merged by call path, width = time on the CPU
 *    (own time plus callees'; time switched out left out, interrupts
 *    shown apart), hover for numbers;
 *  - a timeline: one lane per task (and per CPU for interrupts), the
 *    calls as bars at their time, nested calls below their callers - for a
 *    boot trace, where the boot's time went, in order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "xalloc.h"

static void xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

/*
 * A bar's label: the name, cut with ".." to fit the room, or nothing where
 * not even a few characters fit.  char_px: width of a character.
 */
static void label(FILE *out, const char *name, double x, double y,
		  double room, double char_px)
{
	size_t fit = room > 0 ? room / char_px : 0;

	if (fit < 5)
		return;
	fprintf(out, "<text x=\"%.2f\" y=\"%.1f\">", x, y);
	if (strlen(name) > fit) {
		char cut[256];

		snprintf(cut, sizeof(cut), "%.*s..", (int)(fit - 2), name);
		xml_text(out, cut);
	} else {
		xml_text(out, name);
	}
	fprintf(out, "</text>");
}

/* Warm colours by name, so a function keeps its colour across pictures. */
static void colour(const char *name, char *buf, size_t n)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	snprintf(buf, n, "rgb(%u,%u,%u)", 205 + h % 50, 80 + (h >> 8) % 130,
		 (h >> 16) % 60);
}

/* The merged call-path tree behind the flame graph. */
struct fnode {
	uint32_t fn;
	double time;		/* on-CPU time of the calls on this path */
	uint32_t first_child, next;	/* indices, 0 = none */
	uint32_t depth;
};

struct flame {
	struct fnode *n;
	uint32_t len, cap;
	uint32_t depth;
};

static uint32_t child(struct flame *f, uint32_t parent, uint32_t fn)
{
	uint32_t c;

	for (c = f->n[parent].first_child; c; c = f->n[c].next)
		if (f->n[c].fn == fn)
			return c;
	if (f->len == f->cap) {
		f->cap *= 2;
		f->n = xrealloc(f->n, f->cap * sizeof(*f->n));
	}
	c = f->len++;
	f->n[c] = (struct fnode){ fn, 0, 0, f->n[parent].first_child,
				  f->n[parent].depth + 1 };
	if (f->n[c].depth > f->depth)
		f->depth = f->n[c].depth;
	f->n[parent].first_child = c;
	return c;
}

/*
 * A path's width: its calls' own time on the CPU plus its callees' paths.
 * Calls whose exit was not seen (start_kernel in a boot trace) have no own
 * time but their callees'.
 */
static double settle(struct flame *f, uint32_t i)
{
	uint32_t c;

	for (c = f->n[i].first_child; c; c = f->n[c].next)
		f->n[i].time += settle(f, c);
	return f->n[i].time;
}

static void flame_rects(FILE *out, const struct flame *f, uint32_t i,
			const struct kft_names *names, double x, uint32_t depth,
			double scale, double height)
{
	const struct fnode *n = &f->n[i];
	double w = n->time * scale;
	char fill[32];
	uint32_t c;

	if (i && w >= 0.1) {
		const char *name = i == 1 ? "all" : names->name[n->fn];
		double y = height - (depth + 1) * 16.0 - 10;

		colour(name, fill, sizeof(fill));
		fprintf(out, "<g><title>");
		xml_text(out, name);
		fprintf(out, " (%.3f us)</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"15\" fill=\"%s\" rx=\"2\"/>",
			n->time, x, y, w, fill);
		label(out, name, x + 3, y + 11.5, w - 6, 7);
		fprintf(out, "</g>\n");
	}
	for (c = n->first_child; c; c = f->n[c].next) {
		flame_rects(out, f, c, names, x, depth + (i ? 1 : 0), scale, height);
		x += f->n[c].time * scale;
	}
}

void kft_export_flamegraph(FILE *out, const struct kft_tree *t,
			   struct kft_names *names, const char *title)
{
	struct flame f = { .cap = 1024 };
	uint32_t *at = xcalloc(t->n, sizeof(*at));
	uint32_t irq_fn = kft_name_id(names, "[interrupts]", 12);
	uint32_t i, depth = 0;
	double width = 1200, height;

	f.n = xcalloc(f.cap, sizeof(*f.n));
	f.len = 2;		/* 0: unused, 1: the root ("all") */
	f.n[1].fn = UINT32_MAX;
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		uint32_t parent = 1;

		if (n->hidden)
			continue;
		if (n->tree != (int32_t)i && n->parent >= 0 && !t->nodes[n->parent].hidden) {
			parent = at[n->parent];
		} else if (n->c.pid < 0) {
			parent = child(&f, 1, irq_fn);
		}
		at[i] = child(&f, parent, n->c.fn);
		f.n[at[i]].time += kft_node_self(n);
	}
	settle(&f, 1);
	depth = f.depth;
	height = (depth + 2) * 16.0 + 40;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" font-size=\"12\">\n",
		width + 20, height, width + 20, height);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fdfdf5\"/>\n<text x=\"10\" y=\"18\" font-size=\"15\">");
	xml_text(out, title);
	fprintf(out, " - flame graph, width = time on the CPU (%.3f us in all)</text>\n",
		f.n[1].time);
	fprintf(out, "<g transform=\"translate(10,0)\">\n");
	if (f.n[1].time > 0)
		flame_rects(out, &f, 1, names, 0, 0, width / f.n[1].time, height);
	fprintf(out, "</g>\n</svg>\n");
	free(f.n);
	free(at);
}

/* Lanes: one per task in order of appearance, then interrupts per CPU. */
void kft_export_timeline(FILE *out, const struct kft_tree *t,
			 const struct kft_names *names, const char *title)
{
	const uint32_t maxdepth = 6, row = 14, margin = 130;
	int64_t *lanes = xcalloc(t->n + 1, sizeof(*lanes));
	uint32_t nlanes = 0, i, l;
	double start = -1, end = 0, width = 1400, scale, tick;
	char fill[32];

	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		int64_t key = n->c.pid >= 0 ? n->c.pid : -1 - (int64_t)(n->c.cpu > 0 ? n->c.cpu : 0);

		if (n->hidden)
			continue;
		if (start < 0 || n->c.entry < start)
			start = n->c.entry;
		if (n->c.entry + (n->c.delta > 0 ? n->c.delta : 0) > end)
			end = n->c.entry + (n->c.delta > 0 ? n->c.delta : 0);
		for (l = 0; l < nlanes && lanes[l] != key; l++)
			;
		if (l == nlanes)
			lanes[nlanes++] = key;
	}
	if (start < 0)
		start = 0;
	scale = end > start ? (width - margin - 20) / (end - start) : 1;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%u\" font-family=\"monospace\" font-size=\"11\">\n",
		width, 60 + nlanes * (maxdepth * row + 8));
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fdfdf5\"/>\n<text x=\"10\" y=\"18\" font-size=\"15\">");
	xml_text(out, title);
	fprintf(out, " - timeline, %.3f ms</text>\n", (end - start) / 1000);
	/* Time axis: about ten ticks at a round step. */
	for (tick = 1; (end - start) / tick > 10; tick *= 10)
		;
	if ((end - start) / tick < 3)
		tick /= 5;
	/* Ticks at round times: the first multiple of tick from start on. */
	for (double t = ceil(start / tick) * tick; t <= end; t += tick) {
		double x = t - start;

		fprintf(out, "<line x1=\"%.1f\" y1=\"28\" x2=\"%.1f\" y2=\"%u\" stroke=\"#ddd\"/>",
			margin + x * scale, margin + x * scale, 40 + nlanes * (maxdepth * row + 8));
		fprintf(out, "<text x=\"%.1f\" y=\"36\" fill=\"#666\">%.6g ms</text>\n",
			margin + x * scale + 2, t / 1000);
	}
	for (l = 0; l < nlanes; l++) {
		uint32_t y = 44 + l * (maxdepth * row + 8);

		if (lanes[l] >= 0)
			fprintf(out, "<text x=\"4\" y=\"%u\">pid %lld</text>\n", y + 11, (long long)lanes[l]);
		else
			fprintf(out, "<text x=\"4\" y=\"%u\">irq CPU %lld</text>\n", y + 11, (long long)(-1 - lanes[l]));
	}
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		int64_t key = n->c.pid >= 0 ? n->c.pid : -1 - (int64_t)(n->c.cpu > 0 ? n->c.cpu : 0);
		double x, w;
		const char *name = names->name[n->c.fn];

		if (n->hidden || n->depth >= maxdepth)
			continue;
		for (l = 0; lanes[l] != key; l++)
			;
		x = margin + (n->c.entry - start) * scale;
		w = (n->c.delta > 0 ? n->c.delta : n->c.delta == KFT_DELTA_OPEN ? end - n->c.entry : 0) * scale;
		if (w < 0.5)
			w = 0.5;
		colour(name, fill, sizeof(fill));
		fprintf(out, "<g><title>");
		xml_text(out, name);
		if (n->c.delta >= 0)
			fprintf(out, ": %.3f us at %.3f us</title>", n->c.delta, n->c.entry);
		else
			fprintf(out, ": still running at the end, entered at %.3f us</title>", n->c.entry);
		fprintf(out, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"%s\"/>",
			x, 44 + l * (maxdepth * row + 8) + n->depth * row, w, row - 1, fill);
		label(out, name, x + 2,
		      44 + l * (maxdepth * row + 8) + n->depth * row + 10,
		      w - 4, 6.6);
		fprintf(out, "</g>\n");
	}
	fprintf(out, "</svg>\n");
	free(lanes);
}
