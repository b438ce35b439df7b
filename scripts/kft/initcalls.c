// SPDX-License-Identifier: GPL-2.0
/*
 * Initcall levels from the kernel's table of initcalls.  The linker script
 * (INIT_CALLS) lays the table out as
 *
 *	__initcall_start  early entries  __initcall0_start  level 0's ...
 *	__initcall5_start ... __initcallrootfs_start ... __initcall6_start ...
 *	__initcall7_start ... __initcall_end
 *
 * and do_initcall_level(N) runs the entries from __initcallN_start to the
 * next level's start (rootfs's run in level 5).  Each entry is named after
 * its function: __initcall__kmod_MOD__COUNTER_LINE_FN ID (ID: early, N, Ns
 * or rootfs), or __initcall_FN ID in kernels before 5.13.  An entry's place
 * gives its level, the level its ID, and what is left its function.
 */
#include <stdlib.h>
#include <string.h>

#include "initcalls.h"

#define PREFIX		"__initcall"
#define ENTRY_RANK	100	/* after every marker at the same address */
#define NO_LEVEL	(-3)	/* outside the table */

/* A marker's rank, in table order, or ENTRY_RANK for an entry. */
static int rank_of(const char *name)
{
	const char *s = name + strlen(PREFIX);

	if (!strcmp(s, "_start"))
		return 0;
	if (s[0] >= '0' && s[0] <= '7' && !strcmp(s + 1, "_start"))
		return 2 * (s[0] - '0') + 2;
	if (!strcmp(s, "rootfs_start"))
		return 2 * 5 + 3;
	if (!strcmp(s, "_end"))
		return 2 * 8 + 2;
	return ENTRY_RANK;
}

int kft_initcalls_note(struct kft_initcalls *ic, uint64_t addr,
		       const char *name)
{
	if (strncmp(name, PREFIX, strlen(PREFIX)))
		return 0;
	if (ic->n == ic->cap) {
		size_t ncap = ic->cap ? 2 * ic->cap : 256;
		struct kft_initcall *v = realloc(ic->v, ncap * sizeof(*v));

		if (!v)
			return -1;
		ic->v = v;
		ic->cap = ncap;
	}
	ic->v[ic->n++] = (struct kft_initcall){
		.addr = addr, .name = name, .rank = rank_of(name),
	};
	return 0;
}

static int by_place(const void *a, const void *b)
{
	const struct kft_initcall *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_fn(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

static int by_fn(const void *a, const void *b)
{
	const struct kft_initcall *x = a, *y = b;

	return cmp_fn(x->name, x->len, y->name, y->len);
}

static size_t digits(const char *s)
{
	return strspn(s, "0123456789");
}

/*
 * Where FN starts in an entry's name, or NULL.  The name may be the prefix
 * alone ("__initcall", a symbol anyone can define): nothing is read past
 * its NUL.
 */
static const char *fn_of(const char *name)
{
	const char *s = name + strlen(PREFIX), *p;
	size_t c, l;

	if (*s++ != '_')
		return NULL;			/* __initcallFOO: no entry */
	if (*s != '_')
		return s;			/* __initcall_FN ID */
	/* _kmod_MOD__COUNTER_LINE_FN ID: MOD may hold "__" itself. */
	for (p = strstr(s + 1, "__"); p; p = strstr(p + 1, "__")) {
		c = digits(p + 2);
		if (!c || p[2 + c] != '_')
			continue;
		l = digits(p + 3 + c);
		if (l && p[3 + c + l] == '_')
			return p + 4 + c + l;
	}
	return NULL;
}

/* The length of FN in "FN ID" for an entry of level lv, or 0. */
static size_t strip_id(const char *fn, int lv)
{
	size_t n = strlen(fn);
	char id[3] = { (char)('0' + lv), 's', '\0' };

	if (lv == KFT_INITCALL_EARLY)
		return n > 5 && !strcmp(fn + n - 5, "early") ? n - 5 : 0;
	if (lv == 5 && n > 6 && !strcmp(fn + n - 6, "rootfs"))
		return n - 6;
	if (n > 2 && !strcmp(fn + n - 2, id))
		return n - 2;
	id[1] = '\0';
	return n > 1 && !strcmp(fn + n - 1, id) ? n - 1 : 0;
}

int kft_initcalls_index(struct kft_initcalls *ic)
{
	static const int8_t level_of_rank[] = {
		[0] = KFT_INITCALL_EARLY,
		[2] = 0, [4] = 1, [6] = 2, [8] = 3, [10] = 4, [12] = 5,
		[13] = 5, [14] = 6, [16] = 7, [18] = NO_LEVEL,
	};
	int lv = NO_LEVEL;
	size_t i, k = 0;

	if (ic->n)
		qsort(ic->v, ic->n, sizeof(*ic->v), by_place);
	for (i = 0; i < ic->n; i++) {
		struct kft_initcall *e = &ic->v[i];
		const char *fn;
		size_t len;

		if (e->rank != ENTRY_RANK) {
			lv = level_of_rank[e->rank];
			continue;
		}
		if (lv == NO_LEVEL)
			continue;
		fn = fn_of(e->name);
		len = fn ? strip_id(fn, lv) : 0;
		if (!len || len > UINT32_MAX)
			continue;
		ic->v[k++] = (struct kft_initcall){
			.addr = e->addr, .name = fn, .len = (uint32_t)len,
			.level = (int8_t)lv,
		};
	}
	ic->n = k;
	if (!k)
		return 0;
	qsort(ic->v, ic->n, sizeof(*ic->v), by_fn);
	/* Two static functions of one name at different levels: neither. */
	for (i = 1; i < ic->n; i++) {
		struct kft_initcall *a = &ic->v[i - 1], *b = &ic->v[i];

		if (!by_fn(a, b) && a->level != b->level) {
			for (k = i; k < ic->n && !by_fn(a, &ic->v[k]); k++)
				ic->v[k].level = KFT_INITCALL_UNKNOWN;
			for (k = i; k-- > 0 && !by_fn(&ic->v[i], &ic->v[k]);)
				ic->v[k].level = KFT_INITCALL_UNKNOWN;
		}
	}
	return 0;
}

int kft_initcall_level(const struct kft_initcalls *ic, const char *fn)
{
	size_t lo = 0, hi = ic->n, n = strlen(fn);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_fn(ic->v[mid].name, ic->v[mid].len, fn, n);

		if (!c)
			return ic->v[mid].level;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return KFT_INITCALL_UNKNOWN;
}

void kft_initcalls_free(struct kft_initcalls *ic)
{
	free(ic->v);
	memset(ic, 0, sizeof(*ic));
}
