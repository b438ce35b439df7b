// SPDX-License-Identifier: GPL-2.0
/*
 * kd's analysis driver: a log read (kftlog.c) into call trees
 * (calltree.c).  The call trees printed while reading (kd -r, kd_tree.c)
 * get each call as its caller becomes known and as it completes; every
 * other mode gets the whole tree once the log is read and other tasks'
 * hooks are off the calls that waited for them (waits.c): the summary's
 * statistics (kd_summary.c), the trees, the boot report, the exports.
 * Every mode reads its logs here; kd.c only parses the command line.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crlines.h"
#include "kd_types.h"
#include "waits.h"

/* Does a filter leave some of the log's calls unread? */
static bool kd_filtered(const struct kd_options *o)
{
	return o->pid != LONG_MIN || o->cpu != LONG_MIN || o->from > -INFINITY ||
	       o->to < INFINITY;
}

static bool wanted(const struct kd *kd, const struct kft_call *c)
{
	const struct kd_options *o = &kd->opt;

	return (o->pid == LONG_MIN ||
		(o->pid == -1 ? c->irq : c->pid == o->pid && !c->irq)) &&
	       (o->cpu == LONG_MIN || c->cpu == o->cpu) &&
	       c->entry >= o->from && c->entry <= o->to;
}

/* A call is complete: to the mode that wants it. */
static void on_close(void *priv, struct kft_tree *t, int32_t i)
{
	struct kd *kd = priv;
	const struct kft_node *n = &t->nodes[i];

	/* The traced time: the calls shown that no timed call shown holds. */
	if (!n->hidden && !n->covered && n->c.raw > 0) {
		kd->traced += n->c.raw;
		kd->traced_hooks += n->c.hooks;
	}

	if (kd->stream)
		kd_stream_close(kd, t, i);
}

/* A call's caller is known: is it in --subtree, and -r's bookkeeping. */
static void on_add(void *priv, struct kft_tree *t, int32_t i)
{
	struct kd *kd = priv;
	struct kft_node *n = &t->nodes[i];

	if (kd->opt.subtree)
		n->hidden = n->c.fn != kd->subtree_fn &&
			    (n->parent < 0 || t->nodes[n->parent].hidden);
	if (n->parent >= 0) {
		const struct kft_node *p = &t->nodes[n->parent];

		n->covered = !p->hidden && (p->c.raw >= 0 || p->covered);
	}
	if (kd->stream)
		kd_stream_add(kd, t, i);
}

void kd_free(struct kd *kd)
{
	for (uint32_t i = 0; i < kd->nfs; i++)
		free(kd->fs[i].callees);
	kft_pairmap_free(&kd->callee_at);
	free(kd->fs);
	kd->fs = NULL;
	kd->nfs = 0;
	free(kd->splice);
	free(kd->spliced);
	kd->spliced = NULL;
	kd->spliced_cap = 0;
	free(kd->queue);
	free(kd->scratch);
	kd->splice = kd->queue = kd->scratch = NULL;
	kft_names_free(&kd->names);
}

/* One call of the log to the tree, and to the modes that watch it. */
static void add_call(struct kd *kd, struct kft_tree *t,
		     const struct kft_log_reader *r, struct kft_call *c)
{
	/* Back in time: another run, whose calls nest in none before. */
	if (c->rewound) {
		kft_tree_finish(t);
		if (kd->stream && kd->opt.interlace)
			kd_stream_flush(kd, t);
	}
	if (!wanted(kd, c))
		return;
	/*
	 * Decimals if a time needs them; printing as we go cannot wait to
	 * see, and keeps the decimals the log has.
	 */
	if (kd->stream ? !kd->header_done && r->decimals :
	    c->entry != floor(c->entry) ||
	    (c->delta > 0 && c->delta != floor(c->delta)))
		kd->fractions = true;
	kft_tree_add(t, c);
	if (kd->stream && kd->opt.interlace)
		kd_stream_flush(kd, t);
}

/* Read a log (NULL: standard input) into kd's statistics and the tree t. */
int kd_analyse(struct kd *kd, const char *path, struct kft_symtab *st,
	       struct kft_tree *t)
{
	FILE *in = stdin;
	int ret;

	kd->syms = st;
	if (path && !strcmp(path, "-"))
		path = NULL;
	if (path) {
		in = fopen(path, "r");
		if (!in) {
			kft_tree_init(t, on_close, kd);
			fprintf(stderr, "kd: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	ret = kd_analyse_file(kd, in, path ? path : "<stdin>", st, t);
	if (in != stdin)
		fclose(in);
	return ret;
}

/* Read the log in IN, called NAME in messages; IN stays open. */
int kd_analyse_file(struct kd *kd, FILE *in, const char *name,
		    struct kft_symtab *st, struct kft_tree *t)
{
	struct kft_log_reader r;
	struct kft_call c, next;
	FILE *lines;
	bool data, failed, have = false;

	kft_tree_init(t, on_close, kd);
	/* A capture's lines may end in a lone CR. */
	lines = kft_crlines_open(in);
	if (!lines) {
		fprintf(stderr, "kd: out of memory\n");
		return 1;
	}
	t->on_add = on_add;
	kd->stream = kd->opt.running && kd->opt.tree &&
		     kd->opt.output == KD_OUT_TEXT;
	t->switch_fn = kft_name_id(&kd->names, "__switch_to",
				   strlen("__switch_to"));
	kft_log_open(&r, lines, name, st, &kd->names);
	r.raw = kd->opt.raw;
	r.comp = &kd->comp;
	kd->reader = &r;
	if (kd->opt.subtree)
		kd->subtree_fn = kft_name_id(&kd->names, kd->opt.subtree,
					     strlen(kd->opt.subtree));
	while (kft_log_next(&r, &next)) {
		/*
		 * In the original's logs (2.6 kernels), an interrupt's first
		 * function ran before the kernel counted the interrupt: it
		 * carries the interrupted task's pid, its callees -1.  A -1
		 * call right after a task's call, called from it, marks that
		 * one as the interrupt's - unless its own call site is in a
		 * call still open: that call made it, and its callees log -1
		 * for bottom halves disabled (spin_lock_bh()) or a softirq.
		 * Only such a call waits a line.
		 */
		if (have) {
			if (next.irq && next.legacy && !next.rewound &&
			    next.caller_fn == c.fn &&
			    !(wanted(kd, &c) && kft_tree_called_open(t, &c)))
				c.irq = true;
			add_call(kd, t, &r, &c);
			have = false;
		}
		if (next.legacy && !next.irq) {
			c = next;
			have = true;
		} else {
			add_call(kd, t, &r, &next);
		}
	}
	if (have)
		add_call(kd, t, &r, &c);
	kft_tree_finish(t);
	/*
	 * Other tasks' hooks in waiting calls: known once every call is in,
	 * every task's (-r prints as it reads, before; --pid, --cpu, --from
	 * and --to leave calls unread).  Then the summary, of the calls as
	 * compensated.
	 */
	if (!kd->stream && !kd->opt.raw && !kd->opt.no_waits &&
	    !kd_filtered(&kd->opt))
		kd->waits_taken = kft_tree_waits(t);
	if (!kd->stream && !kd->opt.tree && kd->opt.output == KD_OUT_TEXT)
		for (uint32_t i = 0; i < t->n; i++)
			kd_summary_close(kd, t, (int32_t)i);
	if (t->too_deep) {
		fprintf(stderr, "%s: %llu calls nested deeper than any kernel stack; shown as roots\n",
			r.path, (unsigned long long)t->too_deep);
		kd->skipped++;
	}
	data = r.seen_data;
	failed = r.failed;
	if (kd->stream && data)
		kd_stream_end(kd, t);
	kft_log_close(&r);
	kd->reader = NULL;
	fclose(lines);
	if (kd->stream && data) {
		char note[512];

		/* The traced time's hooks are known now: said last. */
		if (kd_times_note(kd, true, note, sizeof(note)))
			printf("%s\n", note);
	} else if (data && (kd->opt.boot || kd->opt.output == KD_OUT_CHROME ||
			    kd->opt.output == KD_OUT_TIMELINE ||
			    kd->opt.output == KD_OUT_TRACECMD)) {
		kft_tree_place(t);	/* what places calls in time */
	}
	if (failed)
		return 1;
	if (!data) {
		fprintf(stderr, "kd: %s: no KFT log data (no '--------' line)\n",
			name);
		return 1;
	}
	/* Output from the lines read; the exit status says some were not. */
	kd->skipped += r.skipped;
	return 0;
}
