// SPDX-License-Identifier: GPL-2.0
/*
 * kd's machine-readable outputs, for the tools people already use:
 *  - folded stacks ("a;b;c N", N = self time in ns) for flamegraph.pl,
 *    speedscope, inferno;
 *  - Chrome Trace Event JSON for Perfetto UI, chrome://tracing, speedscope.
 * An interrupt's calls form their own stacks ("[irq] ...", their own
 * track per CPU), not part of whatever they interrupted.
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "xalloc.h"

struct folded {
	char *stack;
	double ns;
};

static int by_stack(const void *a, const void *b)
{
	return strcmp(((const struct folded *)a)->stack,
		      ((const struct folded *)b)->stack);
}

void kft_export_folded(FILE *out, const struct kft_tree *t,
		       const struct kft_names *names)
{
	struct folded *f = xmalloc(t->n * sizeof(*f));
	int32_t *path = xmalloc((t->n + 1) * sizeof(*path));
	uint32_t i, nf = 0;

	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		size_t len = 8;
		int32_t depth = 0, k;
		char *s;

		if (n->hidden || kft_node_self(n) <= 0)
			continue;
		for (k = i; k >= 0; k = t->nodes[k].tree == k ? -1 : t->nodes[k].parent) {
			path[depth++] = k;
			len += strlen(names->name[t->nodes[k].c.fn]) + 1;
		}
		s = xmalloc(len);
		s[0] = '\0';
		if (n->c.pid < 0)
			strcat(s, "[irq];");
		while (depth--) {
			strcat(s, names->name[t->nodes[path[depth]].c.fn]);
			if (depth)
				strcat(s, ";");
		}
		f[nf].stack = s;
		f[nf++].ns = kft_node_self(n) * 1000;
	}
	qsort(f, nf, sizeof(*f), by_stack);
	for (i = 0; i < nf; i++) {
		double ns = f[i].ns;

		while (i + 1 < nf && !strcmp(f[i].stack, f[i + 1].stack)) {
			free(f[i].stack);
			ns += f[++i].ns;
		}
		fprintf(out, "%s %.0f\n", f[i].stack, ns);
		free(f[i].stack);
	}
	free(path);
	free(f);
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* Interrupt context gets a track per CPU, above any pid. */
#define KFT_IRQ_TID	1000000

void kft_export_chrome(FILE *out, const struct kft_tree *t,
		       const struct kft_names *names)
{
	double last = 0;
	uint32_t i, ncpu = 0;
	bool first = true;

	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		double end = n->c.entry + (n->c.delta > 0 ? n->c.delta : 0);

		if (end > last)
			last = end;
		if (n->c.cpu >= 0 && (uint32_t)n->c.cpu + 1 > ncpu)
			ncpu = n->c.cpu + 1;
	}
	fprintf(out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	fprintf(out, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"kernel (KFT)\"}}");
	for (i = 0; i < (ncpu ? ncpu : 1); i++)
		fprintf(out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%u,\"args\":{\"name\":\"interrupts, CPU %u\"}}",
			KFT_IRQ_TID + i, i);
	first = false;
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		long tid = n->c.pid >= 0 ? n->c.pid :
			   KFT_IRQ_TID + (n->c.cpu > 0 ? n->c.cpu : 0);

		if (n->hidden)
			continue;
		fprintf(out, "%s\n{\"name\":", first ? "" : ",");
		json_string(out, names->name[n->c.fn]);
		if (n->c.delta == KFT_DELTA_STACK)
			fprintf(out, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":%.3f", n->c.entry);
		else
			fprintf(out, ",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f", n->c.entry,
				n->c.delta >= 0 ? n->c.delta : last - n->c.entry);
		/*
		 * The CPU as the category, and args only for open calls:
		 * speedscope tells frames apart by name and args.
		 */
		fprintf(out, ",\"pid\":0,\"tid\":%ld,\"cat\":\"cpu%d\"%s}",
			tid, n->c.cpu,
			n->c.delta == KFT_DELTA_OPEN ?
			",\"args\":{\"exit\":\"not seen\"}" : "");
	}
	fprintf(out, "\n]}\n");
}
