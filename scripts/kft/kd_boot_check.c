// SPDX-License-Identifier: GPL-2.0
/*
 * kd --boot --check REFERENCE... LOG: a boot against reference boots, as a
 * pass or fail a CI can act on.  The whole boot, each phase and each
 * initcall (by name) fails the check when it got slower than its reference
 * by more than --threshold (a fraction of the reference's time) and by more
 * than --min (microseconds): the first keeps long items' noise out, the
 * second short ones'.  With several references, an item's reference is the
 * slowest of them: the spread of the reference boots is allowed for.
 * Items faster by as much are listed too.  An item missing from a boot
 * counts as 0 there (a boot run's log keeps only calls over its mintime).
 *
 * --ktap writes the verdicts as KTAP version 1 (the kernel's
 * Documentation/dev-tools/ktap.rst) instead, for CI systems that read
 * kselftest and KUnit results: the boot, then each phase and initcall
 * judged, one test each ("ok" within or faster, "not ok" slower; the
 * boot also "not ok" when it did not reach user space), with the times
 * as diagnostic lines.
 *
 * Exit status: 0 nothing slower beyond the thresholds; 1 something was, or
 * the boot did not reach user space; 2 the boots could not be compared
 * (a file unreadable, not a boot or not one, a boot without start_kernel,
 * a reference that is not a possible boot, lines that could not be read,
 * or two files from standard input).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kd_boot.h"
#include "xalloc.h"

enum { K_BOOT, K_PHASE, K_INITCALL, K_NR };
static const char *const kind_names[K_NR] = { "boot", "phase", "initcall" };

struct item {
	int kind;
	const char *name;
	double ref, now;	/* NAN: in no reference / not in the boot */
	double change;		/* now - ref, either missing as 0 */
	int verdict;		/* 1 slower, -1 faster, 0 within */
};

struct items {
	struct kft_names ids[K_NR];	/* name -> index into index[kind] */
	uint32_t *index[K_NR];
	uint32_t cap[K_NR];
	struct item *v;
	uint32_t n, vcap;
};

static uint32_t item_of(struct items *it, int kind, const char *name)
{
	uint32_t id = kft_name_id(&it->ids[kind], name, strlen(name));

	if (id >= it->cap[kind]) {
		uint32_t cap = it->cap[kind] ? 2 * it->cap[kind] : 64;

		while (cap <= id)
			cap *= 2;
		it->index[kind] = xrealloc(it->index[kind], cap * sizeof(uint32_t));
		memset(it->index[kind] + it->cap[kind], 0xff,
		       (cap - it->cap[kind]) * sizeof(uint32_t));
		it->cap[kind] = cap;
	}
	if (it->index[kind][id] == UINT32_MAX) {
		if (it->n == it->vcap) {
			it->vcap = it->vcap ? 2 * it->vcap : 64;
			it->v = xrealloc(it->v, it->vcap * sizeof(*it->v));
		}
		it->v[it->n] = (struct item){ kind, name, NAN, NAN, 0, 0 };
		it->index[kind][id] = it->n++;
	}
	return it->index[kind][id];
}

/* Add x to *acc, NAN meaning none yet. */
static void add(double *acc, double x)
{
	*acc = isnan(*acc) ? x : *acc + x;
}

#define BOOT_ITEM	"start_kernel to the first user program"

/*
 * One boot's values into the items: .now for the boot checked, else .ref,
 * the largest over the references.  A name repeated within a boot: the sum.
 */
static void collect(struct items *it, const struct boot_report *r, bool now)
{
	uint32_t i, n, *at = xmalloc((1 + r->nphases + r->ncalls) * sizeof(*at));
	double *sum;

	n = 0;
	at[n++] = item_of(it, K_BOOT, BOOT_ITEM);
	for (i = 0; i < r->nphases; i++)
		at[n++] = item_of(it, K_PHASE, r->phases[i].name);
	for (i = 0; i < r->ncalls; i++)
		if (r->calls[i].name)
			at[n++] = item_of(it, K_INITCALL, r->calls[i].name);
	sum = xmalloc((it->n + 1) * sizeof(*sum));
	for (i = 0; i < it->n; i++)
		sum[i] = NAN;
	n = 0;
	/* A boot that never reached user space has no boot time: "-". */
	if (r->reached)
		add(&sum[at[n]], r->end - r->t0);
	n++;
	for (i = 0; i < r->nphases; i++)
		add(&sum[at[n++]], r->phases[i].time);
	for (i = 0; i < r->ncalls; i++)
		if (r->calls[i].name)
			add(&sum[at[n++]], r->calls[i].time);
	for (i = 0; i < it->n; i++) {
		double *dst = now ? &it->v[i].now : &it->v[i].ref;

		if (!isnan(sum[i]) && (now || isnan(*dst) || sum[i] > *dst))
			*dst = sum[i];
	}
	free(sum);
	free(at);
}

static int by_change(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->verdict != y->verdict)
		return x->verdict > y->verdict ? -1 : 1;
	if (fabs(x->change) != fabs(y->change))
		return fabs(x->change) > fabs(y->change) ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void print_item(const struct kd *kd, const struct item *x)
{
	char a[32], b[32], c[32], rel[32], *name = kd_boot_esc(x->name);

	if (!isnan(x->ref) && x->ref > 0)
		snprintf(rel, sizeof(rel), "%+.1f%%", 100 * x->change / x->ref);
	else
		snprintf(rel, sizeof(rel), "%s", isnan(x->ref) ? "new" : "-");
	printf("  %-8s %-44s %12s -> %12s us %14s us %9s\n", kind_names[x->kind],
	       name, isnan(x->ref) ? "-" : kd_fmt_us(kd, x->ref, a, sizeof(a)),
	       isnan(x->now) ? "-" : kd_fmt_us(kd, x->now, b, sizeof(b)),
	       kd_fmt_change(kd, x->change, c, sizeof(c)), rel);
	free(name);
}

/*
 * An item as a KTAP test name: its kind and name as the text report
 * writes it, '#' (KTAP's directive mark) as \x23: a name of the log
 * cannot end the name early or forge a line.
 */
static void ktap_name(const struct item *x)
{
	char *name = kd_boot_esc(x->name), *p;

	printf("%s ", kind_names[x->kind]);
	for (p = name; *p; p++)
		if (*p == '#')
			printf("\\x23");
		else
			putchar(*p);
	free(name);
}

static void print_ktap(const struct kd *kd, const struct items *it,
		       bool reached)
{
	char a[32], b[32], c[32];
	uint32_t j;

	printf("KTAP version 1\n1..%u\n", it->n);
	for (j = 0; j < it->n; j++) {
		const struct item *x = &it->v[j];
		bool fail = x->verdict > 0 || (x->kind == K_BOOT && !reached);

		printf("# %s: reference %s us, this boot %s us, change %s us%s\n",
		       kind_names[x->kind],
		       isnan(x->ref) ? "-" : kd_fmt_us(kd, x->ref, a, sizeof(a)),
		       isnan(x->now) ? "-" : kd_fmt_us(kd, x->now, b, sizeof(b)),
		       x->kind == K_BOOT && !reached ? "-" :
		       kd_fmt_change(kd, x->change, c, sizeof(c)),
		       x->verdict > 0 ? ": slower beyond the threshold" :
		       x->verdict < 0 ? ": faster beyond the threshold" : "");
		if (x->kind == K_BOOT && !reached)
			printf("# the boot did not reach the first user program (to_userspace)\n");
		printf("%s %u ", fail ? "not ok" : "ok", j + 1);
		ktap_name(x);
		putchar('\n');
	}
}

/* "1 initcall, 2 phases and the boot" */
static void print_counts(const unsigned int *count)
{
	static const char *const plural[K_NR] = { "boot", "phases", "initcalls" };
	int k, parts = 0, done = 0;

	for (k = 0; k < K_NR; k++)
		parts += count[k] > 0;
	for (k = K_NR - 1; k >= 0; k--) {
		if (!count[k])
			continue;
		done++;
		printf("%s", done == 1 ? "" : done == parts ? " and " : ", ");
		if (k == K_BOOT)
			printf("the boot");
		else
			printf("%u %s", count[k], count[k] == 1 ? kind_names[k] : plural[k]);
	}
}

int kd_boot_check(struct kd *kd, char **paths, int npaths,
		  struct kft_symtab *st)
{
	struct boot_report *r = xcalloc(npaths, sizeof(*r));
	struct items it = { 0 };
	unsigned int slower[K_NR] = { 0 }, faster[K_NR] = { 0 }, within = 0;
	bool fail = false;
	char a[32];
	int i, k, ret = 0, loaded = 0, stdin_at = -1;
	uint32_t j;

	for (i = 0; i < npaths; i++) {
		if (strcmp(paths[i], "-"))
			continue;
		if (stdin_at >= 0) {
			fprintf(stderr, "kd: --boot --check reads one of its files from standard input ('-'), not two (arguments %d and %d)\n",
				stdin_at + 1, i + 1);
			ret = 2;
			goto out;
		}
		stdin_at = i;
	}
	for (i = 0; i < npaths && !ret; i++, loaded++)
		ret = kd_boot_load(kd, paths[i], st, &r[i]);
	for (i = 0; i < loaded && !ret; i++)
		if (!kd_boot_comparable(&r[i], paths[i]))
			ret = 2;
	if (ret) {
		ret = 2;
		goto out;
	}
	for (i = 0; i < npaths - 1; i++) {
		if (!r[i].reached) {
			fprintf(stderr, "kd: %s: the reference boot did not reach the first user program (to_userspace): not a reference\n",
				paths[i]);
			ret = 2;
			goto out;
		}
		collect(&it, &r[i], false);
		kd_boot_times_alike(&r[i], paths[i], &r[npaths - 1],
				    paths[npaths - 1], false);
	}
	collect(&it, &r[npaths - 1], true);

	for (j = 0; j < it.n; j++) {
		struct item *x = &it.v[j];
		double ref = isnan(x->ref) ? 0 : x->ref;
		double allowed = fmax(kd->opt.threshold * ref,
				      kd->opt.min_change);

		if (x->kind == K_BOOT && isnan(x->now)) {
			/* Not reached: no time to compare (the FAIL says why). */
			x->change = 0;
			x->verdict = 0;
			continue;
		}
		x->change = (isnan(x->now) ? 0 : x->now) - ref;
		x->verdict = x->change > allowed ? 1 : -x->change > allowed ? -1 : 0;
		if (x->verdict > 0)
			slower[x->kind]++;
		else if (x->verdict < 0)
			faster[x->kind]++;
		else
			within++;
	}
	if (kd->opt.ktap) {
		print_ktap(kd, &it, r[npaths - 1].reached);
		fail = !r[npaths - 1].reached ||
		       slower[K_BOOT] + slower[K_PHASE] + slower[K_INITCALL];
		goto verdict;
	}
	qsort(it.v, it.n, sizeof(*it.v), by_change);

	printf("Boot check: %s against %d reference boot%s (%s%s)\n",
	       paths[npaths - 1], npaths - 1, npaths > 2 ? "s" : "",
	       npaths > 2 ? "each item's reference the slowest of them; " : "",
	       paths[0]);
	printf("Fails when slower than the reference by more than %g%% and more than %s us\n",
	       100 * kd->opt.threshold,
	       kd_fmt_us(kd, kd->opt.min_change, a, sizeof(a)));
	if (r[npaths - 1].note.times && r[npaths - 1].note.text[0])
		printf("This boot's %s\n", r[npaths - 1].note.text);
	printf("\n  %-8s %-44s %12s    %12s    %14s    %9s\n", "", "", "reference",
	       "this boot", "change", "");
	for (k = 1; k >= -1; k -= 2) {
		bool head = false;

		for (j = 0; j < it.n; j++) {
			if (it.v[j].verdict != k)
				continue;
			if (!head)
				printf("%s\n", k > 0 ? "Slower beyond the threshold:" :
				       "Faster beyond the threshold:");
			head = true;
			print_item(kd, &it.v[j]);
		}
	}
	printf("Within the threshold: %u\n\n", within);

	if (!r[npaths - 1].reached) {
		printf("FAIL: the boot did not reach the first user program (to_userspace)\n");
		fail = true;
	} else if (slower[K_BOOT] + slower[K_PHASE] + slower[K_INITCALL]) {
		printf("FAIL: ");
		print_counts(slower);
		printf(" slower beyond the threshold\n");
		fail = true;
	} else {
		printf("PASS: nothing slower beyond the threshold");
		if (faster[K_BOOT] + faster[K_PHASE] + faster[K_INITCALL]) {
			printf("; faster: ");
			print_counts(faster);
		}
		printf("\n");
	}
verdict:
	ret = fail ? 1 : 0;
	if (kd->skipped) {
		fprintf(stderr, "kd: %lu line%s could not be read: the check is not to be trusted\n",
			kd->skipped, kd->skipped == 1 ? "" : "s");
		ret = 2;
	}
out:
	for (i = 0; i < loaded; i++)
		kd_boot_free(&r[i]);
	free(r);
	for (k = 0; k < K_NR; k++) {
		kft_names_free(&it.ids[k]);
		free(it.index[k]);
	}
	free(it.v);
	return ret;
}
