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
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "callpath.h"
#include "export.h"
#include "utf8.h"
#include "xalloc.h"

/* The UTF-8 sequence at s, n bytes: U+FFFE or U+FFFF, not XML 1.0's. */
static bool xml_nonchar(const char *s, size_t n)
{
	return n == 3 && (unsigned char)s[0] == 0xef &&
	       (unsigned char)s[1] == 0xbf && (unsigned char)s[2] >= 0xbe;
}

/*
 * At most max characters of s as XML text: escaped, valid UTF-8, and no
 * control characters (XML 1.0 has no way to write them).  Returns how many
 * characters were written.
 */
size_t kft_xml_text_n(FILE *out, const char *s, size_t max)
{
	size_t chars = 0;

	for (; *s && chars < max; chars++) {
		size_t n = kft_utf8_seq(s);

		if (!n || ((unsigned char)*s < 0x20 && *s != '\t') ||
		    xml_nonchar(s, n)) {
			fputs(KFT_UTF8_REPLACEMENT, out);
			s += n ? n : 1;
			continue;
		}
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fwrite(s, 1, n, out);
		}
		s += n;
	}
	return chars;
}

void kft_xml_text(FILE *out, const char *s)
{
	kft_xml_text_n(out, s, SIZE_MAX);
}

size_t kft_xml_chars(const char *s)
{
	size_t chars = 0, n;

	for (; *s; s += n ? n : 1, chars++)
		n = kft_utf8_seq(s);
	return chars;
}

void kft_xml_fit(FILE *out, const char *s, size_t max)
{
	if (kft_xml_chars(s) <= max) {
		kft_xml_text(out, s);
	} else if (max >= 3) {
		kft_xml_text_n(out, s, max - 2);
		fputs("..", out);
	}
}

unsigned int kft_svg_lines(FILE *out, const char *attrs, double x, double y,
			   double lh, size_t max, unsigned int max_lines,
			   const char *s)
{
	unsigned int lines = 0;

	if (max < 1)
		max = 1;
	do {
		const char *p = s, *blank = NULL, *next;
		size_t chars = 0, cut = 0, n;

		while (*p && chars < max) {
			if (*p == ' ')
				blank = p, cut = chars;
			n = kft_utf8_seq(p);
			p += n ? n : 1;
			chars++;
		}
		if (!*p || *p == ' ') {		/* all of it, or cut at a blank */
			cut = chars;
			next = *p ? p + 1 : p;
		} else if (blank && cut > 0) {
			next = blank + 1;
		} else {
			cut = chars;
			next = p;
		}
		if (out) {
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\"%s%s>", x,
				y + lines * lh, attrs && *attrs ? " " : "",
				attrs ? attrs : "");
			/* The last line there is room for: the rest, cut. */
			if (lines + 1 == max_lines && *next)
				kft_xml_fit(out, s, max);
			else
				kft_xml_text_n(out, s, cut);
			fputs("</text>\n", out);
		}
		lines++;
		s = next;
	} while (*s && lines != max_lines);
	return lines;
}

/*
 * A bar's label: the name, cut with ".." to fit the room, or nothing where
 * not even a few characters fit.  char_px: width of a character.
 */
static void label(FILE *out, const char *name, double x, double y,
		  double room, double char_px)
{
	size_t fit = room > 0 ? (room / char_px < 4096 ? room / char_px : 4096) : 0;

	if (fit < 5)
		return;
	fprintf(out, "<text x=\"%.2f\" y=\"%.1f\">", x, y);
	kft_xml_fit(out, name, fit);
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

/* One bar of the flame graph: a call path, its width its time. */
static void flame_rect(FILE *out, const char *name, double time, double x,
		       double y, double w)
{
	char fill[32];

	colour(name, fill, sizeof(fill));
	fprintf(out, "<g><title>");
	kft_xml_text(out, name);
	fprintf(out, " (%.3f us)</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"15\" fill=\"%s\" rx=\"2\"/>",
		time, x, y, w, fill);
	label(out, name, x + 3, y + 11.5, w - 6, 12 * KFT_SVG_ADVANCE);
	fprintf(out, "</g>\n");
}

/*
 * A picture's title: its name, what it shows, and the note on KFT's hooks,
 * on the heap.
 */
static char *title_text(const char *title, const char *what,
			const struct kft_export_note *en)
{
	const char *note = en && en->times ? en->text : "";
	size_t n = strlen(title) + strlen(what) + strlen(note) + 8;
	char *buf = xmalloc(n);

	snprintf(buf, n, "%s - %s%s%s", title, what, *note ? "; " : "", note);
	return buf;
}

/*
 * The title, in two lines that fit width px at 15 px (cut with ".." past
 * them): the same room whatever its length, so that pictures of one log
 * with and without the note on KFT's hooks compare line by line.
 */
static double title_lines(FILE *out, const char *text, double width)
{
	kft_svg_lines(out, "font-size=\"15\"", 10, 18, 21,
		      (width - 20) / (15 * KFT_SVG_ADVANCE), 2, text);
	return 42.0;
}

void kft_export_flamegraph(FILE *out, const struct kft_tree *t,
			   struct kft_names *names, const char *title,
			   const struct kft_export_note *en)
{
	struct kft_paths ps;
	double width = 1200, height, scale, *xs, head;
	char what[96], *text;
	uint32_t c;

	kft_paths_build(&ps, t, kft_name_id(names, "[interrupts]", 12));
	kft_paths_sort(&ps, names);
	snprintf(what, sizeof(what),
		 "flame graph, width = time on the CPU (%.3f us in all)",
		 ps.p[0].total);
	text = title_text(title, what, en);
	head = title_lines(NULL, text, width + 20);
	height = (ps.max_depth + 2) * 16.0 + 19 + head;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" font-size=\"12\">\n",
		width + 20, height, width + 20, height);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fdfdf5\"/>\n");
	title_lines(out, text, width + 20);
	free(text);
	fprintf(out, "<g transform=\"translate(10,0)\">\n");
	/* Depth first, without recursion: xs[d] is where depth d's next bar goes. */
	xs = xcalloc(ps.max_depth + 2, sizeof(*xs));
	scale = ps.p[0].total > 0 ? width / ps.p[0].total : 0;
	if (scale > 0)
		flame_rect(out, "all", ps.p[0].total, 0, height - 26, width);
	for (c = scale > 0 ? ps.p[0].first_child : 0; c;) {
		const struct kft_path *p = &ps.p[c];
		double x = xs[p->depth], w = p->total * scale;

		xs[p->depth] += w;
		/* Too narrow to see: so is everything it called. */
		if (w >= 0.1) {
			flame_rect(out, names->name[p->fn], p->total, x,
				   height - (p->depth + 1) * 16.0 - 10, w);
			if (p->first_child) {
				xs[p->depth + 1] = x;
				c = p->first_child;
				continue;
			}
		}
		while (c && !ps.p[c].next)
			c = ps.p[c].parent;
		c = c ? ps.p[c].next : 0;
	}
	fprintf(out, "</g>\n</svg>\n");
	free(xs);
	kft_paths_free(&ps);
}

static int64_t lane_key(const struct kft_node *n)
{
	return kft_track_key(&n->c);
}

/* Lanes by key, hashed: a log may have thousands of tasks. */
struct lanes {
	int64_t *key;		/* in order of appearance */
	uint32_t n;
	uint32_t *slots;	/* lane + 1, 0 empty */
	uint32_t nslots;
};

static uint32_t lane_of(struct lanes *ls, int64_t key, bool add)
{
	uint32_t h = (uint32_t)(((uint64_t)key * 0x9e3779b97f4a7c15ULL) >> 32) &
		     (ls->nslots - 1);

	for (; ls->slots[h]; h = (h + 1) & (ls->nslots - 1))
		if (ls->key[ls->slots[h] - 1] == key)
			return ls->slots[h] - 1;
	if (!add)
		return UINT32_MAX;
	ls->key[ls->n] = key;
	ls->slots[h] = ++ls->n;
	return ls->n - 1;
}

/* Where a task leaves the CPU: as kd --boot counts time off it. */
static const char *const sleep_fns[] = {
	"schedule", "io_schedule", "preempt_schedule",
	"preempt_schedule_common", "preempt_schedule_irq",
};

/* Per name id: a call of it is time off the CPU (or the switch itself). */
static uint8_t *sleepers(const struct kft_tree *t, const struct kft_names *names)
{
	uint8_t *k = xcalloc(names->n + 1, 1);
	uint32_t i, j;

	for (i = 0; i < names->n; i++)
		for (j = 0; j < sizeof(sleep_fns) / sizeof(*sleep_fns); j++)
			if (!strcmp(names->name[i], sleep_fns[j]))
				k[i] = 1;
	if (t->switch_fn < names->n)
		k[t->switch_fn] = 1;
	return k;
}

struct tl {
	FILE *out;
	double start, end, scale, margin, lane_h, row, top;
	uint32_t maxdepth;
};

static double tl_end(const struct tl *g, const struct kft_node *n)
{
	return n->at + (n->c.delta > 0 ? n->c.delta :
			n->c.delta == KFT_DELTA_OPEN ? g->end - n->at : 0);
}

/* Time off the CPU in lane l, from s to e, over rows 0..depth. */
static void tl_off(const struct tl *g, uint32_t l, double s, double e,
		   uint32_t depth)
{
	double x = g->margin + (s - g->start) * g->scale;
	double w = (e - s) * g->scale;

	if (depth >= g->maxdepth)
		depth = g->maxdepth - 1;
	if (w < 0.5)
		return;
	fprintf(g->out, "<rect class=\"off\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"url(#off)\"/>\n",
		x, g->top + l * g->lane_h, w, (depth + 1) * g->row - 1);
}

/*
 * Lanes: one per task in order of appearance, then interrupts per CPU.
 * Calls at their place on the compensated clock (kft_node.at).  Time off
 * the CPU hatched over the calls waiting then: calls of schedule() and its
 * kin, of the context switch, and where KFT's log shows another task's
 * calls on the CPU of a task with calls open (as kd counts time off the
 * CPU: calltree.h).
 */
void kft_export_timeline(FILE *out, const struct kft_tree *t,
			 const struct kft_names *names, const char *title,
			 const struct kft_export_note *en)
{
	const double width = 1400, adv = 11 * KFT_SVG_ADVANCE;
	struct tl g = { .out = out, .margin = 130, .row = 14, .maxdepth = 6 };
	struct lanes ls = { 0 };
	uint32_t nlanes, i, l, k, ncpus = 0;
	double head, tick, tick_w = 0, height;
	bool any = false;
	char fill[32], what[64], *text, lab[48];
	uint8_t *sleep;
	int32_t *prev, *ltop, *running;
	double *rowx, *nextx;

	g.lane_h = g.maxdepth * g.row + 8;
	for (ls.nslots = 64; ls.nslots < 2 * (uint64_t)t->n + 2; ls.nslots *= 2)
		;
	ls.key = xcalloc(t->n + 1, sizeof(*ls.key));
	ls.slots = xcalloc(ls.nslots, sizeof(*ls.slots));
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];

		if (n->c.cpu >= 0 && (uint32_t)n->c.cpu >= ncpus)
			ncpus = n->c.cpu + 1;
		if (n->hidden)
			continue;
		if (!any || n->at < g.start)
			g.start = n->at;
		any = true;
		if (n->at + (n->c.delta > 0 ? n->c.delta : 0) > g.end)
			g.end = n->at + (n->c.delta > 0 ? n->c.delta : 0);
		lane_of(&ls, lane_key(n), true);
	}
	nlanes = ls.n;
	g.scale = g.end > g.start ? (width - g.margin - 20) / (g.end - g.start) : 1;
	snprintf(what, sizeof(what), "timeline, %.3f ms", (g.end - g.start) / 1000);
	text = title_text(title, what, en);
	head = title_lines(NULL, text, width);
	g.top = head + 56;
	height = g.top + nlanes * g.lane_h + 4;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" font-size=\"11\">\n",
		width, height, width, height);
	/* Hatching drawn diagonally in its tile: a rotated pattern takes
	 * librsvg seconds a bar. */
	fprintf(out, "<defs><pattern id=\"off\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" height=\"6\" fill=\"#fdfdf5\" fill-opacity=\"0.7\"/><path d=\"M0,6L6,0M-1,1L1,-1M5,7L7,5\" stroke=\"#777\" stroke-width=\"1.2\"/></pattern></defs>\n");
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fdfdf5\"/>\n");
	title_lines(out, text, width);
	free(text);
	/* The legend: what solid and hatched mean. */
	fprintf(out, "<rect x=\"10\" y=\"%.1f\" width=\"24\" height=\"11\" fill=\"rgb(230,150,30)\"/>", head + 2);
	fprintf(out, "<text x=\"40\" y=\"%.1f\">on the CPU</text>", head + 11);
	fprintf(out, "<rect x=\"130\" y=\"%.1f\" width=\"24\" height=\"11\" fill=\"rgb(230,150,30)\"/><rect class=\"off\" x=\"130\" y=\"%.1f\" width=\"24\" height=\"11\" fill=\"url(#off)\"/>",
		head + 2, head + 2);
	fprintf(out, "<text x=\"160\" y=\"%.1f\">off the CPU: asleep or waiting in schedule() and its kin, or switched out (another task's calls on its CPU)</text>\n",
		head + 11);
	/* Time axis: ticks at a round step, their labels apart. */
	for (tick = 1; (g.end - g.start) / tick > 10; tick *= 10)
		;
	if ((g.end - g.start) / tick < 3)
		tick /= 5;
	for (k = 0; k < 2; k++)
		tick_w = fmax(tick_w, adv * snprintf(lab, sizeof(lab), "%.6g ms",
					   (k ? g.end : g.start) / 1000));
	while (tick * g.scale < tick_w + 8 && tick < 1e300)
		tick *= 2;
	for (k = 0; k <= 100; k++) {
		double tt = (ceil(g.start / tick) + k) * tick, x = g.margin + (tt - g.start) * g.scale;
		int len;

		if (tt > g.end)
			break;
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>",
			x, g.top - 14, x, height - 4);
		len = snprintf(lab, sizeof(lab), "%.6g ms", tt / 1000);
		if (x + 2 + len * adv <= width - 2)
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#666\">%s</text>", x + 2, g.top - 6, lab);
		fputc('\n', out);
	}
	for (l = 0; l < nlanes; l++) {
		double y = g.top + l * g.lane_h + 11;
		int64_t key = ls.key[l];

		if (key > 0)
			fprintf(out, "<text x=\"4\" y=\"%.1f\">pid %lld</text>\n", y, (long long)key);
		else if (key > KFT_TRACK_IDLE)
			fprintf(out, "<text x=\"4\" y=\"%.1f\">irq CPU %lld</text>\n", y, (long long)(KFT_TRACK_IRQ - key));
		else
			fprintf(out, "<text x=\"4\" y=\"%.1f\">pid 0, CPU %lld</text>\n", y, (long long)(KFT_TRACK_IDLE - key));
	}
	/* The bars. */
	sleep = sleepers(t, names);
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		const char *name = names->name[n->c.fn];
		double x, w;

		if (n->hidden || n->depth >= g.maxdepth)
			continue;
		l = lane_of(&ls, lane_key(n), false);
		x = g.margin + (n->at - g.start) * g.scale;
		w = (tl_end(&g, n) - n->at) * g.scale;
		if (w < 0.5)
			w = 0.5;
		colour(name, fill, sizeof(fill));
		fprintf(out, "<g><title>");
		kft_xml_text(out, name);
		if (n->c.delta >= 0)
			fprintf(out, ": %.3f us at %.3f us", n->c.delta, n->at);
		else
			fprintf(out, ": still running at the end, entered at %.3f us", n->at);
		if (sleep[n->c.fn])
			fprintf(out, ", off the CPU");
		else if (n->offcpu > 0)
			fprintf(out, ", %.3f us of it switched out", n->offcpu);
		fprintf(out, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\"/></g>\n",
			x, g.top + l * g.lane_h + n->depth * g.row, w, g.row - 1,
			sleep[n->c.fn] ? "#e4e4e4" : fill);
	}
	/*
	 * Time off the CPU, over the calls open then: a sleeping call's
	 * span from its lane's top row to its own; another task's first
	 * call on a CPU, over the calls open in the task that had the CPU
	 * (kept as a stack per lane: prev links a lane's open calls).
	 */
	prev = xmalloc((t->n + 1) * sizeof(*prev));
	ltop = xmalloc((nlanes + 1) * sizeof(*ltop));
	running = xmalloc((ncpus + 1) * sizeof(*running));
	for (l = 0; l < nlanes; l++)
		ltop[l] = -1;
	for (k = 0; k < ncpus; k++)
		running[k] = -1;
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		uint32_t r;

		if (n->c.irq)
			continue;
		l = lane_of(&ls, lane_key(n), false);
		if (!n->hidden && l != UINT32_MAX && sleep[n->c.fn])
			tl_off(&g, l, n->at, tl_end(&g, n), n->depth);
		if (n->c.cpu < 0 || l == UINT32_MAX)
			continue;
		r = running[n->c.cpu];
		if (r != UINT32_MAX && r != l && n->parent < 0) {
			while (ltop[r] >= 0 && tl_end(&g, &t->nodes[ltop[r]]) <= n->at)
				ltop[r] = prev[ltop[r]];
			if (ltop[r] >= 0) {
				const struct kft_node *o = &t->nodes[ltop[r]];

				tl_off(&g, r, n->at, fmin(tl_end(&g, n), tl_end(&g, o)),
				       o->depth);
			}
		}
		running[n->c.cpu] = l;
		if (!n->hidden) {
			while (ltop[l] >= 0 && tl_end(&g, &t->nodes[ltop[l]]) <= n->at)
				ltop[l] = prev[ltop[l]];
			prev[i] = ltop[l];
			ltop[l] = i;
		}
	}
	/*
	 * The labels, over everything: each in its bar, clear of the bars
	 * of its row before and after it (calls of a row may overlap: runs
	 * put end to end, calls no open call made).
	 */
	rowx = xmalloc(((size_t)nlanes * g.maxdepth + 1) * sizeof(*rowx));
	nextx = xmalloc((t->n + 1) * sizeof(*nextx));
	for (k = 0; k < nlanes * g.maxdepth; k++)
		rowx[k] = INFINITY;
	for (i = t->n; i-- > 0;) {
		const struct kft_node *n = &t->nodes[i];

		if (n->hidden || n->depth >= g.maxdepth)
			continue;
		k = lane_of(&ls, lane_key(n), false) * g.maxdepth + n->depth;
		nextx[i] = rowx[k];
		rowx[k] = fmin(rowx[k], g.margin + (n->at - g.start) * g.scale);
	}
	for (k = 0; k < nlanes * g.maxdepth; k++)
		rowx[k] = -INFINITY;
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		double x, e;

		if (n->hidden || n->depth >= g.maxdepth)
			continue;
		l = lane_of(&ls, lane_key(n), false);
		k = l * g.maxdepth + n->depth;
		x = g.margin + (n->at - g.start) * g.scale;
		e = g.margin + (tl_end(&g, n) - g.start) * g.scale;
		label(out, names->name[n->c.fn], fmax(x, rowx[k]) + 2,
		      g.top + l * g.lane_h + n->depth * g.row + 10,
		      fmin(e, nextx[i]) - fmax(x, rowx[k]) - 4, adv);
		rowx[k] = fmax(rowx[k], fmax(e, x + 0.5));
	}
	free(rowx);
	free(nextx);
	fprintf(out, "</svg>\n");
	free(prev);
	free(ltop);
	free(running);
	free(sleep);
	free(ls.key);
	free(ls.slots);
}
