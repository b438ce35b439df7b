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

/*
 * At most max characters of s as XML text: escaped, valid UTF-8, and no
 * control characters (XML 1.0 has no way to write them).  Returns how many
 * characters were written.
 */
static size_t xml_text_n(FILE *out, const char *s, size_t max)
{
	size_t chars = 0;

	for (; *s && chars < max; chars++) {
		size_t n = kft_utf8_seq(s);

		if (!n || ((unsigned char)*s < 0x20 && *s != '\t')) {
			fputs(KFT_UTF8_REPLACEMENT, out);
			s++;
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

static void xml_text(FILE *out, const char *s)
{
	xml_text_n(out, s, SIZE_MAX);
}

/* Characters (not bytes) in s, as xml_text_n() counts them. */
static size_t xml_chars(const char *s)
{
	size_t chars = 0, n;

	for (; *s; s += n ? n : 1, chars++)
		n = kft_utf8_seq(s);
	return chars;
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
	if (xml_chars(name) > fit) {
		xml_text_n(out, name, fit - 2);
		fputs("..", out);
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

/* One bar of the flame graph: a call path, its width its time. */
static void flame_rect(FILE *out, const char *name, double time, double x,
		       double y, double w)
{
	char fill[32];

	colour(name, fill, sizeof(fill));
	fprintf(out, "<g><title>");
	xml_text(out, name);
	fprintf(out, " (%.3f us)</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"15\" fill=\"%s\" rx=\"2\"/>",
		time, x, y, w, fill);
	label(out, name, x + 3, y + 11.5, w - 6, 7);
	fprintf(out, "</g>\n");
}

/* The note on KFT's hooks, after a picture's title. */
static void title_note(FILE *out, const struct kft_export_note *en)
{
	if (!en || !en->times)
		return;
	fputs("; ", out);
	xml_text(out, en->text);
}

void kft_export_flamegraph(FILE *out, const struct kft_tree *t,
			   struct kft_names *names, const char *title,
			   const struct kft_export_note *en)
{
	struct kft_paths ps;
	double width = 1200, height, scale, *xs;
	uint32_t c;

	kft_paths_build(&ps, t, kft_name_id(names, "[interrupts]", 12));
	kft_paths_sort(&ps, names);
	height = (ps.max_depth + 2) * 16.0 + 40;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" font-size=\"12\">\n",
		width + 20, height, width + 20, height);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fdfdf5\"/>\n<text x=\"10\" y=\"18\" font-size=\"15\">");
	xml_text(out, title);
	fprintf(out, " - flame graph, width = time on the CPU (%.3f us in all)",
		ps.p[0].total);
	title_note(out, en);
	fprintf(out, "</text>\n");
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

/*
 * Lanes: one per task in order of appearance, then interrupts per CPU.
 * Calls at their place on the compensated clock (kft_node.at).
 */
void kft_export_timeline(FILE *out, const struct kft_tree *t,
			 const struct kft_names *names, const char *title,
			 const struct kft_export_note *en)
{
	const uint32_t maxdepth = 6, row = 14, margin = 130;
	struct lanes ls = { 0 };
	uint32_t nlanes, i, l, k;
	double start = 0, end = 0, width = 1400, scale, tick;
	bool any = false;
	char fill[32];

	for (ls.nslots = 64; ls.nslots < 2 * (uint64_t)t->n + 2; ls.nslots *= 2)
		;
	ls.key = xcalloc(t->n + 1, sizeof(*ls.key));
	ls.slots = xcalloc(ls.nslots, sizeof(*ls.slots));
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];

		if (n->hidden)
			continue;
		if (!any || n->at < start)
			start = n->at;
		any = true;
		if (n->at + (n->c.delta > 0 ? n->c.delta : 0) > end)
			end = n->at + (n->c.delta > 0 ? n->c.delta : 0);
		lane_of(&ls, lane_key(n), true);
	}
	nlanes = ls.n;
	scale = end > start ? (width - margin - 20) / (end - start) : 1;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%u\" font-family=\"monospace\" font-size=\"11\">\n",
		width, 60 + nlanes * (maxdepth * row + 8));
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fdfdf5\"/>\n<text x=\"10\" y=\"18\" font-size=\"15\">");
	xml_text(out, title);
	fprintf(out, " - timeline, %.3f ms", (end - start) / 1000);
	title_note(out, en);
	fprintf(out, "</text>\n");
	/* Time axis: about ten ticks at a round step. */
	for (tick = 1; (end - start) / tick > 10; tick *= 10)
		;
	if ((end - start) / tick < 3)
		tick /= 5;
	/* Ticks at round times: the first multiple of tick from start on. */
	for (k = 0; k <= 50; k++) {
		double t = (ceil(start / tick) + k) * tick, x = t - start;

		if (t > end)
			break;

		fprintf(out, "<line x1=\"%.1f\" y1=\"28\" x2=\"%.1f\" y2=\"%u\" stroke=\"#ddd\"/>",
			margin + x * scale, margin + x * scale, 40 + nlanes * (maxdepth * row + 8));
		fprintf(out, "<text x=\"%.1f\" y=\"36\" fill=\"#666\">%.6g ms</text>\n",
			margin + x * scale + 2, t / 1000);
	}
	for (l = 0; l < nlanes; l++) {
		uint32_t y = 44 + l * (maxdepth * row + 8);

		int64_t key = ls.key[l];

		if (key > 0)
			fprintf(out, "<text x=\"4\" y=\"%u\">pid %lld</text>\n", y + 11, (long long)key);
		else if (key > KFT_TRACK_IDLE)
			fprintf(out, "<text x=\"4\" y=\"%u\">irq CPU %lld</text>\n", y + 11, (long long)(KFT_TRACK_IRQ - key));
		else
			fprintf(out, "<text x=\"4\" y=\"%u\">pid 0, CPU %lld</text>\n", y + 11, (long long)(KFT_TRACK_IDLE - key));
	}
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		double x, w;
		const char *name = names->name[n->c.fn];

		if (n->hidden || n->depth >= maxdepth)
			continue;
		l = lane_of(&ls, lane_key(n), false);
		x = margin + (n->at - start) * scale;
		w = (n->c.delta > 0 ? n->c.delta : n->c.delta == KFT_DELTA_OPEN ? end - n->at : 0) * scale;
		if (w < 0.5)
			w = 0.5;
		colour(name, fill, sizeof(fill));
		fprintf(out, "<g><title>");
		xml_text(out, name);
		if (n->c.delta >= 0)
			fprintf(out, ": %.3f us at %.3f us</title>", n->c.delta, n->at);
		else
			fprintf(out, ": still running at the end, entered at %.3f us</title>", n->at);
		fprintf(out, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"%s\"/>",
			x, 44 + l * (maxdepth * row + 8) + n->depth * row, w, row - 1, fill);
		label(out, name, x + 2,
		      44 + l * (maxdepth * row + 8) + n->depth * row + 10,
		      w - 4, 6.6);
		fprintf(out, "</g>\n");
	}
	fprintf(out, "</svg>\n");
	free(ls.key);
	free(ls.slots);
}
