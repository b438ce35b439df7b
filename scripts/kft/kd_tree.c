// SPDX-License-Identifier: GPL-2.0
/*
 * kd -c: the calls as nested trees, in the original kd's layout; -i
 * splices other tasks' and interrupts' trees in by time; -r prints while
 * the log is read, for pipes and logs larger than memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kd_types.h"
#include "xalloc.h"

/* -c: the call tree.  Each display tree has its own marker character. */
static const char markers[] = "|!@[#$%&*+=?";

static void tree_header(const struct kd *kd)
{
	for (const char *p = kd->opt.format; *p; p++)
		printf("%s", *p == 'e' ? " Entry     " : *p == 't' ? " Duration  " :
			     *p == 'l' ? " Local     " : *p == 'p' ? "    Pid " :
			     *p == 'h' ? "Hooks " : "");
	printf(" Trace\n");
	for (const char *p = kd->opt.format; *p; p++)
		printf("%s", *p == 'p' ? "------- " : *p == 'h' ? "----- " : "---------- ");
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

/* A pid as text, written backwards from end (snprintf() was slow here). */
static const char *fmt_pid(int32_t pid, char *end)
{
	uint32_t x = pid < 0 ? -(uint32_t)pid : (uint32_t)pid;

	*--end = '\0';
	do {
		*--end = '0' + x % 10;
		x /= 10;
	} while (x);
	if (pid < 0)
		*--end = '-';
	return end;
}

/* One line of a call tree, built by hand: kd -c prints millions. */
static void tree_line(struct kd *kd, const struct kft_tree *t,
		      const struct kft_node *n, char marker)
{
	const char *name = kd->names.name[n->c.fn];
	size_t namelen = kd->names.len[n->c.fn];
	char buf[64], *line, *p;
	/* A column is at most a buf and a blank; a level is 3 characters. */
	size_t need = (sizeof(buf) + 1) * strlen(kd->opt.format) +
		      3 * (size_t)n->depth + namelen + 2;
	static char *mem;
	static size_t cap;
	double l;

	if (cap < need) {
		cap = 2 * need;
		mem = xrealloc(mem, cap);
	}
	line = p = mem;
	for (const char *f = kd->opt.format; *f; f++) {
		switch (*f) {
		case 'e':
			p = put_col(p, kd_fmt_us(kd, n->c.entry, buf, sizeof(buf)), 10);
			break;
		case 't':
			if (n->c.delta < 0)
				snprintf(buf, sizeof(buf), "%.0f", n->c.delta);
			else
				kd_fmt_us(kd, n->c.delta, buf, sizeof(buf));
			p = put_col(p, buf, 10);
			break;
		case 'l':
			l = kft_node_local(n) - n->offcpu;
			p = put_col(p, kd_fmt_us(kd, l < 0 ? 0 : l, buf, sizeof(buf)), 10);
			break;
		case 'p':
			p = put_col(p, fmt_pid(n->c.pid, buf + sizeof(buf)), 7);
			break;
		case 'h':	/* the hooks' share of its measured time */
			p = put_col(p, n->c.compensated && n->c.delta >= 0 ?
				    kd_fmt_hooks_share(n->c.raw, n->c.raw - n->c.delta,
						       &kd->tree_uncertain, buf, sizeof(buf)) :
				    "-", 5);
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

/* Under a tree whose h column marked a call: what '!' means. */
static void uncertain_note(struct kd *kd)
{
	if (kd->tree_uncertain)
		kd_uncertain_note();
	kd->tree_uncertain = false;
}

static void print_header(struct kd *kd)
{
	char note[512];

	if (kd->header_done)
		return;
	/* Compensated: the default columns say how much of each is hooks. */
	if (kd->opt.format_default && kd_costed(kd) && !kd->opt.raw &&
	    !strchr(kd->opt.format, 'h')) {
		static char fmt[16];

		snprintf(fmt, sizeof(fmt), "%sh", kd->opt.format);
		kd->opt.format = fmt;
	}
	/* (-r: the cost its header gave; the share comes last.) */
	if (kd_times_note(kd, !kd->stream, note, sizeof(note)))
		printf("%s\n", note);
	tree_header(kd);
	kd->header_done = true;
}

static void stream_release(struct kd *kd, struct kft_tree *t, int32_t i);

static void splice_end(struct kd *kd)
{
	while (kd->depth > 1)
		splice_marker(--kd->depth, "end ----------------");
	while (kd->depth)
		kd->spliced[kd->splice[--kd->depth]] = false;
}

/*
 * -i lists all calls in entry order; a tree that starts while another is
 * open is spliced in between start/end markers, indented with its own
 * marker character.  Call i comes next: close the splices it is past,
 * open one if it starts a tree, then list it.
 */
/* Is the tree of root i open in the listing (the splice stack)? */
static bool is_spliced(const struct kd *kd, int32_t i)
{
	return (uint32_t)i < kd->spliced_cap && kd->spliced[i];
}

static void splice_line(struct kd *kd, struct kft_tree *t, int32_t i)
{
	const struct kft_node *n = &t->nodes[i];

	if (n->c.rewound)	/* another run: nothing before is open */
		splice_end(kd);
	while (kd->depth > 0 && kd->splice[kd->depth - 1] != n->tree) {
		int32_t root = kd->splice[kd->depth - 1];
		const struct kft_node *r = &t->nodes[root];
		bool open = r->c.delta == KFT_DELTA_OPEN ||
			    n->c.entry < r->c.entry + r->c.raw;
		bool below = is_spliced(kd, n->tree);

		if (open && !below)
			break;	/* n's tree starts inside this one */
		if (kd->depth > 1)
			splice_marker(kd->depth - 1, "end ----------------");
		kd->depth--;
		kd->spliced[root] = false;
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
		if ((uint32_t)n->tree >= kd->spliced_cap) {
			uint32_t cap = t->cap > (uint32_t)n->tree ? t->cap : (uint32_t)n->tree + 1;

			kd->spliced = xrealloc(kd->spliced, cap);
			memset(kd->spliced + kd->spliced_cap, 0, cap - kd->spliced_cap);
			kd->spliced_cap = cap;
		}
		kd->spliced[n->tree] = true;
	}
	tree_line(kd, t, n, markers[(kd->depth - 1) % (sizeof(markers) - 1)]);
}

/*
 * Without -i, each tree (a task's calls with no caller in the log, or an
 * interrupt's) is listed whole, in the order the trees start.
 */
void kd_call_trees(struct kd *kd, struct kft_tree *t)
{
	uint32_t i;

	print_header(kd);
	if (!kd->opt.interlace) {
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
	} else {
		for (i = 0; i < t->n; i++)
			if (!t->nodes[i].hidden)
				splice_line(kd, t, i);
		splice_end(kd);
	}
	uncertain_note(kd);
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
	if (kd->opt.interlace && n->tree == i && n->next > 0)
		return;		/* calls of its tree wait to be printed */
	if (is_spliced(kd, i))
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
void kd_stream_flush(struct kd *kd, struct kft_tree *t)
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

void kd_stream_add(struct kd *kd, struct kft_tree *t, int32_t i)
{
	struct kft_node *n = &t->nodes[i];

	/*
	 * With -i, root->next counts its tree's calls in the queue: the root
	 * is kept while they wait, for splice_line() to look at.
	 */
	if (kd->opt.interlace && n->tree == i)
		n->next = 0;
	if (n->hidden) {
		n->mark = STREAM_PRINTED;	/* nothing to print */
		return;
	}
	if (!kd->opt.interlace) {
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

void kd_stream_close(struct kd *kd, struct kft_tree *t, int32_t i)
{
	struct kft_node *root = &t->nodes[i];
	uint32_t n = 0, k;
	int32_t j;

	if (kd->opt.interlace || root->tree != i) {
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

/* The end of the log: what is left of -r's queue, and the last splices. */
void kd_stream_end(struct kd *kd, struct kft_tree *t)
{
	kd_stream_flush(kd, t);
	splice_end(kd);
	print_header(kd);
	uncertain_note(kd);
}
