// SPDX-License-Identifier: GPL-2.0
/*
 * kd's machine-readable outputs, for the tools people already use:
 *  - folded stacks ("a;b;c N", N = self time in ns) for flamegraph.pl,
 *    speedscope, inferno; a ';' in a name is written ':';
 *  - Chrome Trace Event JSON for Perfetto UI, chrome://tracing, speedscope.
 * An interrupt's calls form their own stacks ("[irq] ...", their own
 * track per CPU), not part of whatever they interrupted.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callpath.h"
#include "export.h"
#include "utf8.h"
#include "xalloc.h"

/* Folded stacks from the call-path trie, depth first, one path buffer. */
void kft_export_folded(FILE *out, const struct kft_tree *t,
		       struct kft_names *names)
{
	struct kft_paths ps;
	size_t *off, len = 0, cap = 256;
	char *buf = xmalloc(cap);
	uint32_t c;

	kft_paths_build(&ps, t, kft_name_id(names, "[irq]", 5));
	kft_paths_sort(&ps, names);
	off = xcalloc(ps.max_depth + 2, sizeof(*off));
	for (c = ps.p[0].first_child; c;) {
		const struct kft_path *p = &ps.p[c];
		size_t nl = names->len[p->fn];

		len = off[p->depth - 1];
		if (len + nl + 2 > cap) {
			cap = 2 * (len + nl + 2);
			buf = xrealloc(buf, cap);
		}
		if (p->depth > 1)
			buf[len++] = ';';
		memcpy(buf + len, names->name[p->fn], nl);
		/* ';' separates frames: in a name it would make two. */
		for (char *q = buf + len; (q = memchr(q, ';', buf + len + nl - q)); q++)
			*q = ':';
		len += nl;
		off[p->depth] = len;
		if (p->self > 0) {
			fwrite(buf, 1, len, out);
			fprintf(out, " %.0f\n", p->self * 1000);
		}
		if (p->first_child) {
			c = p->first_child;
			continue;
		}
		while (c && !ps.p[c].next)
			c = ps.p[c].parent;
		c = c ? ps.p[c].next : 0;
	}
	free(off);
	free(buf);
	kft_paths_free(&ps);
}

/* A JSON string: escaped, and valid UTF-8 whatever the name's bytes. */
void kft_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	while (*s) {
		size_t n = kft_utf8_seq(s);

		if (!n) {
			fputs(KFT_UTF8_REPLACEMENT, out);
			s++;
			continue;
		}
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fwrite(s, 1, n, out);
		s += n;
	}
	fputc('"', out);
}

void kft_json_note(FILE *out, const struct kft_export_note *en,
		   const char *prefix, const char *indent)
{
	if (!en || !en->times)
		return;
	fprintf(out, "%s\"%stimes\": \"%s\",%s", indent, prefix, en->times,
		*indent ? "\n" : "");
	if (en->waits)
		fprintf(out, "%s\"%swaits\": \"%s\",%s", indent, prefix,
			en->waits, *indent ? "\n" : "");
	fprintf(out, "%s\"%shook_cost_ns\": ", indent, prefix);
	if (en->cost_known)
		fprintf(out, "{\"dropped\": %.1f, \"logged\": %.1f, \"own\": %.1f},%s",
			en->cost.dropped * 1000, en->cost.logged * 1000,
			en->cost.own * 1000, *indent ? "\n" : "");
	else
		fprintf(out, "null,%s", *indent ? "\n" : "");
	/* Where the kernel measured it (its "Calibrated on CPU" line). */
	fprintf(out, "%s\"%shook_cost_measured\": ", indent, prefix);
	if (en->cost_known && en->cost.cpu >= 0) {
		fprintf(out, "{\"cpu\": %ld, \"clock_khz\": ", en->cost.cpu);
		if (en->cost.khz > 0)
			fprintf(out, "%.0f", en->cost.khz);
		else
			fputs("null", out);
		fputs(", \"after_stop_ms\": ", out);
		if (en->cost.after_ms >= 0)
			fprintf(out, "%.0f", en->cost.after_ms);
		else
			fputs("null", out);
		fprintf(out, "},%s", *indent ? "\n" : "");
	} else {
		fprintf(out, "null,%s", *indent ? "\n" : "");
	}
	fprintf(out, "%s\"%sinstrumentation\": ", indent, prefix);
	if (isfinite(en->share))
		fprintf(out, "%.4f,%s", en->share, *indent ? "\n" : "");
	else
		fprintf(out, "null,%s", *indent ? "\n" : "");
}

/*
 * A track's thread id: a task's pid; a CPU's interrupts and idle task
 * (kft_track_key()) get ids above every pid in the log, so that no pid,
 * however large, shares their track.
 */
static int64_t chrome_tid(int64_t key, int64_t base, uint32_t ncpu)
{
	return key > 0 ? key : key > KFT_TRACK_IDLE ? base + (KFT_TRACK_IRQ - key) :
	       base + ncpu + (KFT_TRACK_IDLE - key);
}

/*
 * Calls at their place on the compensated clock (kft_node.at: their entry
 * when the log does not say what its hooks cost), for their compensated
 * time.  With a note, its facts in "otherData", which the trace format
 * keeps for metadata (Perfetto and speedscope pass over it).
 */
void kft_export_chrome(FILE *out, const struct kft_tree *t,
		       const struct kft_names *names,
		       const struct kft_export_note *en)
{
	double last = 0;
	uint32_t i, ncpu = 1;
	int64_t base = 1;
	bool first = true;

	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		double end = n->at + (n->c.delta > 0 ? n->c.delta : 0);

		if (end > last)
			last = end;
		if (n->c.cpu >= 0 && (uint32_t)n->c.cpu + 1 > ncpu)
			ncpu = n->c.cpu + 1;
		if (n->c.pid >= base)
			base = (int64_t)n->c.pid + 1;
	}
	fprintf(out, "{\"displayTimeUnit\":\"ns\",");
	if (en && en->times) {
		fprintf(out, "\"otherData\":{");
		kft_json_note(out, en, "kft_", "");
		fprintf(out, "\"kft_note\":");
		kft_json_string(out, en->text);
		fprintf(out, "},");
	}
	fprintf(out, "\"traceEvents\":[\n");
	fprintf(out, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"kernel (KFT)\"}}");
	for (i = 0; i < ncpu; i++)
		fprintf(out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%lld,\"args\":{\"name\":\"interrupts, CPU %u\"}}"
			",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%lld,\"args\":{\"name\":\"swapper/%u (pid 0)\"}}",
			(long long)(base + i), i, (long long)(base + ncpu + i), i);
	first = false;
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		long long tid = chrome_tid(kft_track_key(&n->c), base, ncpu);

		if (n->hidden)
			continue;
		fprintf(out, "%s\n{\"name\":", first ? "" : ",");
		kft_json_string(out, names->name[n->c.fn]);
		/*
		 * Start and end to the ns, and the duration between them: a
		 * callee that ends where its caller does ends there printed
		 * too (compensated times have more digits than the log's).
		 */
		double ts = round(n->at * 1000);
		double end = round((n->c.delta >= 0 ? n->at + n->c.delta : last) * 1000);

		if (n->c.delta == KFT_DELTA_STACK)
			fprintf(out, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":%.3f", ts / 1000);
		else
			fprintf(out, ",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f", ts / 1000,
				(end - ts) / 1000);
		/*
		 * The CPU as the category, and args only for open calls:
		 * speedscope tells frames apart by name and args.
		 */
		fprintf(out, ",\"pid\":0,\"tid\":%lld,\"cat\":\"cpu%d\"%s}",
			tid, n->c.cpu,
			n->c.delta == KFT_DELTA_OPEN ?
			",\"args\":{\"exit\":\"not seen\"}" : "");
	}
	fprintf(out, "\n]}\n");
}
