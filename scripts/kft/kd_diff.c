// SPDX-License-Identifier: GPL-2.0
/*
 * kd --diff OLD NEW: both logs summarised, then per function what changed,
 * largest change in time first ("which function got slower").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kd_types.h"
#include "xalloc.h"

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

/*
 * Read OLD into a and ta, NEW into b and tb, each with names of its own;
 * kd learns their malformed lines and decimals.  Free with kd_pair_free(),
 * whatever this returns.
 */
int kd_analyse_pair(struct kd *kd, const char *old, const char *new,
		    struct kft_symtab *st, struct kd *a, struct kd *b,
		    struct kft_tree *ta, struct kft_tree *tb)
{
	int ret;

	*a = *kd;
	*b = *kd;
	memset(&a->names, 0, sizeof(a->names));
	memset(&b->names, 0, sizeof(b->names));
	a->fs = b->fs = NULL;
	a->nfs = b->nfs = 0;
	ret = kd_analyse(a, old, st, ta);
	if (!ret)
		ret = kd_analyse(b, new, st, tb);
	else
		kft_tree_init(tb, NULL, NULL);
	kd->skipped = a->skipped + b->skipped;
	kd->fractions = a->fractions || b->fractions;
	return ret;
}

void kd_pair_free(struct kd *a, struct kd *b, struct kft_tree *ta,
		  struct kft_tree *tb)
{
	kft_tree_free(ta);
	kft_tree_free(tb);
	kd_free(a);
	kd_free(b);
}

/*
 * Each log's note on KFT's hooks, "old: ..." and "new: ..."; if one's
 * times are compensated and the other's not, a warning.
 */
void kd_times_alike(const struct kd *a, const char *pa, const struct kd *b,
		    const char *pb)
{
	bool ca = a->comp.costed && !a->opt.raw;
	bool cb = b->comp.costed && !b->opt.raw;
	char note[512];

	if (kd_times_note(a, true, note, sizeof(note)))
		printf("old: %s\n", note);
	if (kd_times_note(b, true, note, sizeof(note)))
		printf("new: %s\n", note);
	if (ca != cb)
		fprintf(stderr, "kd: %s's times are %s, %s's %s: not alike (kd --raw reads every log's as measured)\n",
			pa, ca ? "compensated for KFT's hooks" : "as measured",
			pb, cb ? "compensated for KFT's hooks" : "as measured");
	else if (ca && a->waits_taken != b->waits_taken)
		fprintf(stderr, "kd: %s's waiting calls have other tasks' hooks %s, %s's %s: not alike (kd --no-waits leaves them in every log's)\n",
			pa, a->waits_taken ? "taken off" : "left in",
			pb, b->waits_taken ? "taken off" : "left in");
}

/* --diff OLD NEW: per function, what changed, largest change in time first. */
int kd_diff(struct kd *kd, const char *old, const char *new,
		struct kft_symtab *st)
{
	struct kd a, b;
	struct kft_tree ta, tb;
	struct diff_row *rows;
	uint32_t i, n = 0, na;
	long shown = 0;
	char v[6][48];
	int ret;

	ret = kd_analyse_pair(kd, old, new, st, &a, &b, &ta, &tb);
	if (ret)
		goto out;
	rows = xcalloc(a.names.n + b.names.n + 1, sizeof(*rows));
	for (i = 0; i < a.names.n; i++) {
		const struct fstat *fa = i < a.nfs ? &a.fs[i] : NULL;
		uint32_t j = kft_name_id(&b.names, a.names.name[i],
					 strlen(a.names.name[i]));
		const struct fstat *fb = kd_fstat_of(&b, j);

		if (fa && !fa->count && !fa->open)
			fa = NULL;
		if (!fb->count && !fb->open)
			fb = NULL;
		if (fa || fb)
			rows[n++] = (struct diff_row){ a.names.name[i], fa, fb,
						       total_of(fb) - total_of(fa) };
	}
	for (i = 0, na = a.names.n; i < b.names.n; i++) {
		const struct fstat *fb = kd_fstat_of(&b, i);
		bool known = kft_name_id(&a.names, b.names.name[i],
					 strlen(b.names.name[i])) < na;

		if (!known && (fb->count || fb->open))
			rows[n++] = (struct diff_row){ b.names.name[i], NULL, fb,
						       total_of(fb) };
	}
	qsort(rows, n, sizeof(*rows), by_change);
	kd_times_alike(&a, old, &b, new);
	printf("%-25s %13s %21s %21s %21s\n", "Function", "Count", "Time",
	       "Average", "Local");
	printf("%-25s %6s %6s %10s %10s %10s %10s %10s %10s\n", "",
	       "old", "new", "old", "change", "old", "change", "old", "change");
	printf("------------------------- ------------- --------------------- --------------------- ---------------------\n");
	for (i = 0; i < n; i++) {
		const struct diff_row *r = &rows[i];

		if (kd->opt.top >= 0 && shown >= kd->opt.top)
			break;
		shown++;
		printf("%-25s %6.0f %6.0f %10s %10s %10s %10s %10s %10s\n", r->name,
		       count_of(r->a), count_of(r->b),
		       kd_fmt_us(kd, total_of(r->a), v[0], 48),
		       kd_fmt_change(kd, total_of(r->b) - total_of(r->a), v[1], 48),
		       kd_fmt_us(kd, avg_of(r->a), v[2], 48),
		       kd_fmt_change(kd, avg_of(r->b) - avg_of(r->a), v[3], 48),
		       kd_fmt_us(kd, local_of(r->a), v[4], 48),
		       kd_fmt_change(kd, local_of(r->b) - local_of(r->a), v[5], 48));
	}
	free(rows);
out:
	kd_pair_free(&a, &b, &ta, &tb);
	return ret;
}
