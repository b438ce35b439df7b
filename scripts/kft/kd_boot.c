// SPDX-License-Identifier: GPL-2.0
/*
 * kd --boot: a boot run's log as the answer to "where did boot go".
 *
 * - Phases, from start_kernel() to the first user program (to_userspace()):
 *   the calls start_kernel(), kernel_init(), kernel_init_freeable(),
 *   do_basic_setup() and do_initcalls() make (setup_arch, mm_core_init,
 *   each initcall level, ...) and those five themselves.  Every moment of
 *   the boot belongs to the innermost of them running then, so the phases
 *   add up to the boot time.
 * - Initcalls, longest first, with the calls inside each that took the
 *   most, and how much of each was spent off the CPU (in schedule(): a
 *   sleep, a wait) or busy-waiting (udelay() and its kin).
 *
 * A boot run keeps only calls over its mintime (500 us by default): shorter
 * initcalls, sleeps and phases are not in its log, and not in the report.
 * --diff OLD NEW compares two boots phase by phase and initcall by initcall;
 * --svg draws the report.  Linear in the log's length.
 */
#include <math.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "kd_boot.h"
#include "slurp.h"
#include "utf8.h"
#include "xalloc.h"

/* A formatted string on the heap, whatever its length. */
static char *xstrfmt(const char *fmt, ...)
{
	va_list ap;
	char *buf;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	buf = xmalloc(n + 1);
	va_start(ap, fmt);
	vsnprintf(buf, n + 1, fmt, ap);
	va_end(ap);
	return buf;
}

/*
 * A name of the log as the report keeps it: valid UTF-8, every other byte
 * U+FFFD, as its JSON writes it (a boot checked against its own --json
 * finds its names).
 */
static char *utf8_copy(const char *s)
{
	char *out = xmalloc(3 * strlen(s) + 1), *o = out;

	while (*s) {
		size_t n = kft_utf8_seq(s);

		if (!n) {
			memcpy(o, KFT_UTF8_REPLACEMENT, 3);
			o += 3;
			s++;
			continue;
		}
		memcpy(o, s, n);
		o += n;
		s += n;
	}
	*o = '\0';
	return out;
}

/* Room for one more of *n items in *p (capacity *cap), doubling. */
static void grow(void *pp, uint32_t n, uint32_t *cap, size_t size)
{
	void **p = pp;

	if (n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 16;
	*p = xrealloc(*p, (size_t)*cap * size);
}

/* The functions the report is built from, as name ids of the log. */
enum {
	F_START_KERNEL, F_REST_INIT, F_KERNEL_INIT, F_KERNEL_INIT_FREEABLE,
	F_DO_BASIC_SETUP, F_DO_INITCALLS, F_DO_INITCALL_LEVEL,
	F_DO_PRE_SMP_INITCALLS, F_DO_ONE_INITCALL, F_TO_USERSPACE, F_NR,
};

static const char *const fn_names[F_NR] = {
	"start_kernel", "rest_init", "kernel_init", "kernel_init_freeable",
	"do_basic_setup", "do_initcalls", "do_initcall_level",
	"do_pre_smp_initcalls", "do_one_initcall", "to_userspace",
};

/* Where a task leaves the CPU, and where it spins: by name. */
static const char *const offcpu_fns[] = {
	"schedule", "io_schedule", "preempt_schedule",
	"preempt_schedule_common", "preempt_schedule_irq",
};
static const char *const busy_fns[] = {
	"__udelay", "__const_udelay", "__ndelay", "__delay", "udelay",
	"mdelay", "ndelay", "delay_tsc", "delay_loop", "delay_halt",
	"__timer_delay",
};

struct boot_scan {
	const struct kft_tree *t;
	const struct kft_names *names;
	uint32_t id[F_NR];
	int32_t *first, *next, *last;	/* children of each node, in order */
	uint8_t *kind;			/* per name id: 1 off-CPU, 2 busy */
	double *offcpu, *busy;		/* per node: in its subtree */
	bool levels_named;		/* do_initcall_level()s' levels known */
};

static uint32_t id_of(struct kd *kd, const char *name)
{
	return kft_name_id(&kd->names, name, strlen(name));
}

static bool is(const struct boot_scan *s, int32_t i, int f)
{
	return s->t->nodes[i].c.fn == s->id[f];
}

static const char *name_of(const struct boot_scan *s, int32_t i)
{
	return s->names->name[s->t->nodes[i].c.fn];
}

/*
 * A call's end, for the report: open calls run to the end of the boot.
 * The report's times are on the compensated clock (kft_node.at).
 */
static double end_of(const struct boot_report *r, const struct kft_node *n)
{
	double e = n->c.delta >= 0 ? n->at + n->c.delta : r->end;

	return e < r->end ? e : r->end;
}

static bool usable(const struct kft_node *n)
{
	return !n->hidden && !n->c.irq;
}

/* Children lists, and time off the CPU and busy-waiting per subtree. */
static void scan_init(struct boot_scan *s, struct kd *kd,
		      const struct kft_tree *t)
{
	uint32_t i, n = t->n;
	int32_t i32;

	s->t = t;
	for (i = 0; i < F_NR; i++)
		s->id[i] = id_of(kd, fn_names[i]);
	for (i = 0; i < sizeof(offcpu_fns) / sizeof(*offcpu_fns); i++)
		id_of(kd, offcpu_fns[i]);
	for (i = 0; i < sizeof(busy_fns) / sizeof(*busy_fns); i++)
		id_of(kd, busy_fns[i]);
	s->names = &kd->names;
	s->kind = xcalloc(kd->names.n, 1);
	for (i = 0; i < sizeof(offcpu_fns) / sizeof(*offcpu_fns); i++)
		s->kind[id_of(kd, offcpu_fns[i])] = 1;
	for (i = 0; i < sizeof(busy_fns) / sizeof(*busy_fns); i++)
		s->kind[id_of(kd, busy_fns[i])] = 2;
	s->first = xmalloc((n + 1) * sizeof(*s->first));
	s->next = xmalloc((n + 1) * sizeof(*s->next));
	s->last = xmalloc((n + 1) * sizeof(*s->last));
	s->offcpu = xcalloc(n + 1, sizeof(*s->offcpu));
	s->busy = xcalloc(n + 1, sizeof(*s->busy));
	for (i = 0; i < n; i++)
		s->first[i] = s->next[i] = s->last[i] = -1;
	/* Nodes are in log order: a caller before its callees. */
	for (i = 0; i < n; i++) {
		int32_t p = t->nodes[i].parent;

		if (p < 0)
			continue;
		if (s->last[p] < 0)
			s->first[p] = i;
		else
			s->next[s->last[p]] = i;
		s->last[p] = i;
	}
	for (i32 = (int32_t)n - 1; i32 >= 0; i32--) {
		const struct kft_node *nd = &t->nodes[i32];
		double d = nd->c.delta > 0 ? nd->c.delta : 0;
		uint8_t k = nd->c.fn < kd->names.n ? s->kind[nd->c.fn] : 0;
		int32_t p = nd->parent;

		if (k == 1)
			s->offcpu[i32] = d, s->busy[i32] = 0;
		else if (k == 2)
			s->busy[i32] = d, s->offcpu[i32] = 0;
		/* Interrupts are the CPU's, not the task's. */
		if (p >= 0 && nd->c.pid == t->nodes[p].c.pid) {
			s->offcpu[p] += s->offcpu[i32];
			s->busy[p] += s->busy[i32];
		}
	}
}

static void scan_free(struct boot_scan *s)
{
	free(s->first);
	free(s->next);
	free(s->last);
	free(s->kind);
	free(s->offcpu);
	free(s->busy);
}

/* The first call of f outside interrupts, or -1. */
static int32_t find_first(const struct boot_scan *s, int f)
{
	uint32_t i;

	for (i = 0; i < s->t->n; i++)
		if (is(s, i, f) && usable(&s->t->nodes[i]))
			return i;
	return -1;
}

/*
 * The phase a named call stands for.  A do_one_initcall() is one where
 * do_initcall_level() was inlined: it stands for its level's initcalls.
 */
static char *phase_name(const struct boot_scan *s, int32_t i, const uint8_t *role,
			const int32_t *level, uint32_t nlevels)
{
	if (is(s, i, F_DO_ONE_INITCALL)) {
		if (level[i] == BOOT_LEVEL_EARLY)
			return xstrfmt("early initcalls (do_pre_smp_initcalls)");
		if (level[i] >= 0)
			return xstrfmt("initcall level %d (%s)", level[i],
				       kd_boot_level_names[level[i]]);
		return xstrfmt("initcalls, level unknown");
	}
	if (is(s, i, F_DO_INITCALL_LEVEL)) {
		if (s->levels_named)
			return xstrfmt("initcall level %d (%s)", level[i],
				       kd_boot_level_names[level[i]]);
		return xstrfmt("initcall level #%d of %u", level[i], nlevels);
	}
	if (is(s, i, F_DO_PRE_SMP_INITCALLS))
		return xstrfmt("early initcalls (do_pre_smp_initcalls)");
	if (role[i] == 2) {
		char *name = utf8_copy(name_of(s, i)), *p;

		p = xstrfmt("%s, other", name);
		free(name);
		return p;
	}
	return utf8_copy(name_of(s, i));
}

struct span {
	double s, e;
	int32_t node;
};

static int by_end(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->e != y->e)
		return x->e < y->e ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static int by_start(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/*
 * Cut [t0, end] at the named calls: each moment goes to the latest-entered
 * named call still running then (calls of one task nest; kernel_init's
 * task starts after start_kernel's last call), the rest to "other".  Calls
 * with one key[] share a phase.
 */
static void build_phases(struct boot_report *r, const struct boot_scan *s,
			 const uint8_t *role, const int32_t *level,
			 uint32_t nlevels, const int32_t *key)
{
	const struct kft_tree *t = s->t;
	uint32_t n = 0, i, j = 0, k = 0, top = 0, other = UINT32_MAX;
	struct span *sp = xmalloc((t->n + 1) * sizeof(*sp));
	struct span *ends = xmalloc((t->n + 1) * sizeof(*ends));
	int32_t *stack = xmalloc((t->n + 1) * sizeof(*stack));
	uint32_t *phase_of = xmalloc((t->n + 1) * sizeof(*phase_of));
	bool *closed = xcalloc(t->n + 1, sizeof(*closed));
	double cur = r->t0;

	for (i = 0; i < t->n; i++) {
		const struct kft_node *nd = &t->nodes[i];
		double st = nd->at > r->t0 ? nd->at : r->t0;
		double e = end_of(r, nd);

		phase_of[i] = UINT32_MAX;
		if (!role[i] || e <= st)
			continue;
		sp[n].s = st;
		sp[n].e = e;
		sp[n].node = i;
		n++;
	}
	memcpy(ends, sp, n * sizeof(*sp));
	qsort(ends, n, sizeof(*ends), by_end);
	/*
	 * sp is in log order, and so by entry; on the compensated clock, in
	 * a task's order, but another task's clock may put a call earlier.
	 */
	for (i = 1; i < n && sp[i - 1].s <= sp[i].s; i++)
		;
	if (i < n)
		qsort(sp, n, sizeof(*sp), by_start);
	while (cur < r->end) {
		double next = r->end;
		uint32_t ph;
		int32_t who;

		if (j < n && sp[j].s < next)
			next = sp[j].s;
		if (k < n && ends[k].e < next)
			next = ends[k].e;
		while (top && closed[stack[top - 1]])
			top--;
		who = top ? stack[top - 1] : -1;
		if (next > cur) {
			if (who >= 0)
				who = key[who];
			ph = who >= 0 ? phase_of[who] : other;
			if (ph == UINT32_MAX) {
				grow(&r->phases, r->nphases, &r->phases_cap,
				     sizeof(*r->phases));
				ph = r->nphases++;
				r->phases[ph].start = cur - r->t0;
				r->phases[ph].time = 0;
				if (who >= 0) {
					r->phases[ph].name = phase_name(s, who, role, level,
									nlevels);
					phase_of[who] = ph;
				} else {
					r->phases[ph].name = xstrfmt("(outside the calls listed)");
					other = ph;
				}
			}
			r->phases[ph].time += next - cur;
			if (r->nsegs && r->segs[r->nsegs - 1].phase == ph) {
				r->segs[r->nsegs - 1].time += next - cur;
			} else {
				grow(&r->segs, r->nsegs, &r->segs_cap,
				     sizeof(*r->segs));
				r->segs[r->nsegs++] = (struct boot_seg){
					ph, cur - r->t0, next - cur };
			}
			cur = next;
		}
		while (k < n && ends[k].e <= cur)
			closed[ends[k++].node] = true;
		while (j < n && sp[j].s <= cur) {
			if (!closed[sp[j].node])
				stack[top++] = sp[j].node;
			j++;
		}
		if (j == n && k == n && next >= r->end)
			break;
	}
	free(sp);
	free(ends);
	free(stack);
	free(phase_of);
	free(closed);
}

static int by_time(const void *a, const void *b)
{
	const struct boot_initcall *x = a, *y = b;

	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The BOOT_TOP longest direct callees of node i, into ic->top. */
static void top_calls(const struct boot_scan *s, const struct boot_report *r,
		      int32_t i, struct boot_initcall *ic)
{
	int32_t best[BOOT_TOP], c;
	double bt[BOOT_TOP];
	int k, m = 0;

	for (c = s->first[i]; c >= 0; c = s->next[c]) {
		const struct kft_node *nd = &s->t->nodes[c];
		double d = end_of(r, nd) - nd->at;

		if (!usable(nd) || nd->c.pid != s->t->nodes[i].c.pid)
			continue;
		for (k = m < BOOT_TOP ? m++ : BOOT_TOP; k > 0 && bt[k - 1] < d; k--) {
			if (k < BOOT_TOP) {
				best[k] = best[k - 1];
				bt[k] = bt[k - 1];
			}
		}
		if (k < BOOT_TOP) {
			best[k] = c;
			bt[k] = d;
		}
	}
	for (k = 0; k < m; k++) {
		ic->top[k].name = utf8_copy(name_of(s, best[k]));
		ic->top[k].time = bt[k];
	}
	ic->ntop = m;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Where do_one_initcall() calls the initcall: the call site most of its
 * callees share (with initcall_debug it also calls printk(), elsewhere).
 */
static uint64_t initcall_site(const struct boot_scan *s)
{
	uint64_t *sites = xmalloc((s->t->n + 1) * sizeof(*sites)), best = 0;
	uint32_t i, n = 0, run = 0, most = 0;

	for (i = 0; i < s->t->n; i++) {
		int32_t p = s->t->nodes[i].parent;

		if (p >= 0 && is(s, p, F_DO_ONE_INITCALL) &&
		    usable(&s->t->nodes[i]))
			sites[n++] = s->t->nodes[i].c.site;
	}
	qsort(sites, n, sizeof(*sites), by_u64);
	for (i = 0; i < n; i++) {
		run = i && sites[i] == sites[i - 1] ? run + 1 : 1;
		if (run > most) {
			most = run;
			best = sites[i];
		}
	}
	free(sites);
	return best;
}

/* The initcall do_one_initcall() node i called (at site), or -1. */
static int32_t initcall_of(const struct boot_scan *s, uint64_t site, int32_t i)
{
	int32_t fn = s->first[i];

	while (fn >= 0 && (!usable(&s->t->nodes[fn]) ||
			   s->t->nodes[fn].c.site != site))
		fn = s->next[fn];
	return fn;
}

/* Node fn's initcall level, as the symbols (-m, -e) give it. */
static int symbol_level(const struct kd *kd, const struct boot_scan *s,
			int32_t fn)
{
	int l;

	if (fn < 0)
		return BOOT_LEVEL_NONE;
	l = kft_initcall_level(&kd->syms->initcalls, name_of(s, fn));
	return l == KFT_INITCALL_EARLY ? BOOT_LEVEL_EARLY :
	       l == KFT_INITCALL_UNKNOWN ? BOOT_LEVEL_NONE : l;
}

/*
 * The levels of a log's n do_initcall_level() calls lv[], not eight (one
 * shorter than the log's mintime is not in it): each has the level its
 * initcalls have in the symbols; one whose initcalls are not in the log,
 * the level its place gives, where as many levels as calls lie between
 * the known ones (levels run in order, 0 to 7).  If every call's level is
 * known, level[] takes them.
 */
static bool symbol_levels(const struct kd *kd, const struct boot_scan *s,
			  uint64_t site, const int32_t *lv, uint32_t n,
			  int32_t *level)
{
	int32_t *got = xmalloc((n + 1) * sizeof(*got));
	int32_t c, l, prev_l = -1;
	int64_t prev_i = -1, j;
	uint32_t i;
	bool all = n <= 8;

	for (i = 0; i < n && all; i++) {
		got[i] = BOOT_LEVEL_NONE;
		for (c = s->first[lv[i]]; c >= 0 && got[i] < 0; c = s->next[c]) {
			if (!is(s, c, F_DO_ONE_INITCALL))
				continue;
			l = symbol_level(kd, s, initcall_of(s, site, c));
			if (l >= 0 && l < 8)
				got[i] = l;
		}
	}
	/* Between two known (or the ends, -1 and 8): fill if it adds up. */
	for (i = 0; i <= n && all; i++) {
		l = i < n ? got[i] : 8;
		if (l < 0)
			continue;
		if (l <= prev_l || l - prev_l < (int64_t)i - prev_i) {
			all = false;		/* out of order: the symbols are not the log's */
			break;
		}
		if (l - prev_l == (int64_t)i - prev_i)
			for (j = prev_i + 1; j < i; j++)
				got[j] = prev_l + (int32_t)(j - prev_i);
		prev_i = i;
		prev_l = l;
	}
	for (i = 0; i < n && all; i++)
		all = got[i] >= 0;
	for (i = 0; i < n && all; i++)
		level[lv[i]] = got[i];
	free(got);
	return all;
}

/*
 * The initcalls and their levels: from the do_initcall_level() (or
 * do_pre_smp_initcalls()) around each, or where the eight levels are not
 * all in the log, from the symbols if kd has them.
 */
static void build_initcalls(struct kd *kd, struct boot_report *r,
			    const struct boot_scan *s, const uint8_t *role,
			    const int32_t *level, uint32_t nlevels,
			    uint64_t site)
{
	const struct kft_tree *t = s->t;
	int32_t *group = xmalloc((t->n + 1) * sizeof(*group));
	bool symbols = kd->syms && kd->syms->initcalls.n && !s->levels_named;
	uint32_t i;

	/* The initcall level (or early initcalls) around each call. */
	for (i = 0; i < t->n; i++) {
		int32_t p = t->nodes[i].parent;

		if (is(s, i, F_DO_INITCALL_LEVEL) ||
		    is(s, i, F_DO_PRE_SMP_INITCALLS))
			group[i] = i;
		else
			group[i] = p >= 0 ? group[p] : -1;
	}

	for (i = 0; i < t->n; i++) {
		const struct kft_node *nd = &t->nodes[i];
		struct boot_initcall *ic;
		int32_t fn = s->first[i], p, at;

		if (!is(s, i, F_DO_ONE_INITCALL) || !usable(nd))
			continue;
		/* A module's init once user space runs: not the boot's. */
		if (r->reached && nd->at >= r->end) {
			r->nafter++;
			continue;
		}
		fn = initcall_of(s, site, i);
		grow(&r->calls, r->ncalls, &r->calls_cap, sizeof(*r->calls));
		ic = &r->calls[r->ncalls++];
		memset(ic, 0, sizeof(*ic));
		/* Initcalls shorter than the log's mintime are not in it. */
		ic->name = fn >= 0 ? utf8_copy(name_of(s, fn)) : NULL;
		ic->pid = nd->c.pid;
		/*
		 * The initcall's own call, as initcall_debug times it; if it
		 * is not in the log, do_one_initcall()'s (a bound).
		 */
		at = fn >= 0 ? fn : (int32_t)i;
		ic->start = t->nodes[at].at - r->t0;
		ic->time = end_of(r, &t->nodes[at]) - t->nodes[at].at;
		/* No exit in the log: it never returned (a hang, if the boot stopped). */
		ic->open = t->nodes[at].c.delta < 0;
		ic->offcpu = s->offcpu[at];
		ic->busy = s->busy[at];
		/* What compensation took off: its hooks, others' it waited for. */
		if (t->nodes[at].c.compensated && t->nodes[at].c.raw > 0 &&
		    t->nodes[at].c.delta >= 0)
			ic->hooks_share = 1 - t->nodes[at].c.delta / t->nodes[at].c.raw;
		if (fn >= 0)
			top_calls(s, r, fn, ic);
		p = nd->parent >= 0 ? group[nd->parent] : -1;
		ic->level = p < 0 ? BOOT_LEVEL_NONE :
			    is(s, p, F_DO_PRE_SMP_INITCALLS) ? BOOT_LEVEL_EARLY :
			    level[p];
		/* A phase of its own: kd_boot_build() found its level. */
		if (role[i] == 1)
			ic->level = level[i];
		else if (symbols && ic->level != BOOT_LEVEL_EARLY)
			ic->level = symbol_level(kd, s, fn);
		if (!nlevels && !symbols && ic->level == BOOT_LEVEL_NONE) {
			r->levels_hidden = true;
			r->levels_nosyms = kd->syms;
		}
	}
	r->levels8 = s->levels_named || symbols;
	r->levels_partial = nlevels && !s->levels_named;
	if (r->levels_partial)
		r->levels_nosyms = kd->syms;
	free(group);
	if (r->ncalls)		/* calls is NULL until the first */
		qsort(r->calls, r->ncalls, sizeof(*r->calls), by_time);
}

/* The report of one boot's run, t. */
static void build(struct kd *kd, const struct kft_tree *t,
		  struct boot_report *r)
{
	static const int containers[] = {
		F_START_KERNEL, F_KERNEL_INIT, F_KERNEL_INIT_FREEABLE,
		F_DO_BASIC_SETUP, F_DO_INITCALLS,
	};
	struct boot_scan s;
	uint8_t *role = xcalloc(t->n + 1, 1);	/* 1 phase, 2 container */
	int32_t *level = xcalloc(t->n + 1, sizeof(*level));
	int32_t *key = xmalloc((t->n + 1) * sizeof(*key));
	int32_t *ics = xmalloc((t->n + 1) * sizeof(*ics));
	int32_t *lv = xmalloc((t->n + 1) * sizeof(*lv));	/* do_initcall_level()s */
	/* per container and level (+2): its first do_one_initcall() phase */
	int32_t first[5][10];
	uint32_t i, nlevels = 0;
	int32_t start, user, c;
	uint64_t site;

	memset(r, 0, sizeof(*r));
	scan_init(&s, kd, t);
	start = find_first(&s, F_START_KERNEL);
	user = find_first(&s, F_TO_USERSPACE);
	r->has_start = start >= 0;
	r->reached = user >= 0;
	r->t0 = start >= 0 ? t->nodes[start].at :
		t->n ? t->nodes[0].at : 0;
	if (user >= 0) {
		r->end = t->nodes[user].at;
	} else {
		r->end = r->t0;
		for (i = 0; i < t->n; i++) {
			double e = t->nodes[i].at +
				   (t->nodes[i].c.delta > 0 ? t->nodes[i].c.delta : 0);

			if (e > r->end)
				r->end = e;
		}
	}
	/* The hooks' time in the boot, on every CPU: every task's roots. */
	r->hooks = -1;
	r->ncpus = t->ncpus;
	if (r->reached && start >= 0) {
		double t0 = t->nodes[start].c.entry, t1 = t->nodes[user].c.entry;

		r->raw_total = t1 - t0;
		if (kd->comp.costed) {
			r->hooks = 0;
			for (i = 0; i < t->n; i++)
				if (t->nodes[i].parent < 0 && !t->nodes[i].c.irq &&
				    t->nodes[i].c.entry <= t1)
					r->hooks += t->nodes[i].c.hooks;
		}
	}
	/*
	 * The first call of each container, and every call it made.  Where
	 * do_initcall_level() or do_pre_smp_initcalls() was inlined, a
	 * container calls do_one_initcall(): the initcalls of one level (as
	 * the symbols say, if kd has them) make one phase.
	 */
	site = initcall_site(&s);
	memset(first, -1, sizeof(first));
	for (i = 0; i < t->n; i++)
		key[i] = i;
	for (i = 0; i < sizeof(containers) / sizeof(*containers); i++) {
		int32_t at = find_first(&s, containers[i]);
		uint32_t n = 0, j, known;

		if (at < 0)
			continue;
		role[at] = 2;
		for (c = s.first[at]; c >= 0; c = s.next[c]) {
			if (!usable(&t->nodes[c]) ||
			    t->nodes[c].c.pid != t->nodes[at].c.pid)
				continue;
			if (!role[c])
				role[c] = 1;
			if (is(&s, c, F_DO_INITCALL_LEVEL)) {
				lv[nlevels] = c;
				level[c] = nlevels++;
			}
			if (!is(&s, c, F_DO_ONE_INITCALL) || role[c] != 1)
				continue;
			level[c] = kd->syms ? symbol_level(kd, &s,
							  initcall_of(&s, site, c)) :
				   BOOT_LEVEL_NONE;
			ics[n++] = c;
		}
		/*
		 * Levels run in order: an initcall between two of one level
		 * (one shorter than the log's mintime, not in it) is of it.
		 */
		for (j = 0, known = UINT32_MAX; j < n; j++) {
			if (level[ics[j]] == BOOT_LEVEL_NONE)
				continue;
			if (known != UINT32_MAX && level[ics[known]] == level[ics[j]])
				while (++known < j)
					level[ics[known]] = level[ics[j]];
			known = j;
		}
		for (j = 0; j < n; j++) {
			int32_t *k = &first[i][level[ics[j]] + 2];

			if (*k < 0)
				*k = ics[j];
			key[ics[j]] = *k;
		}
	}
	s.levels_named = nlevels == 8 ||
		(nlevels && kd->syms && kd->syms->initcalls.n &&
		 symbol_levels(kd, &s, site, lv, nlevels, level));
	build_phases(r, &s, role, level, nlevels, key);
	build_initcalls(kd, r, &s, role, level, nlevels, site);
	kd_export_note(kd, &r->note, r->note_buf, sizeof(r->note_buf));
	scan_free(&s);
	free(role);
	free(level);
	free(key);
	free(ics);
	free(lv);
}

/* A run of the log: its nodes [lo, hi), its first start_kernel. */
struct boot_run {
	uint32_t lo, hi;
	int32_t start;
	bool boot;		/* one of the boot's functions is in it */
};

/* The boot's functions that run once a boot. */
static const int once_fns[] = {
	F_START_KERNEL, F_REST_INIT, F_KERNEL_INIT, F_KERNEL_INIT_FREEABLE,
	F_DO_BASIC_SETUP, F_DO_INITCALLS, F_DO_PRE_SMP_INITCALLS,
	F_TO_USERSPACE,
};

#define NONCE	(sizeof(once_fns) / sizeof(*once_fns))

static uint32_t line_of(const struct kft_tree *t, uint32_t i)
{
	return t->nodes[i].c.line;
}

/*
 * The runs of the log (a log's header, or a time earlier than the line
 * before, starts one), and the boot to report: the last run with the
 * boot's functions in it.  -1 (said) if there is none, or it is not one
 * boot.
 */
static int32_t choose_run(struct kd *kd, const struct kft_tree *t,
			  const char *src, struct boot_run **runs,
			  uint32_t *nruns, bool say)
{
	uint32_t id[F_NR], i, k, n = 0, cap = 0, nboots = 0;
	int32_t b = -1, prev = -1, seen[NONCE];
	struct boot_run *v = NULL;

	for (k = 0; k < F_NR; k++)
		id[k] = id_of(kd, fn_names[k]);
	for (i = 0; i < t->n; i++) {
		const struct kft_node *nd = &t->nodes[i];

		if (!i || nd->c.rewound) {
			grow(&v, n, &cap, sizeof(*v));
			v[n++] = (struct boot_run){ i, i, -1, false };
		}
		v[n - 1].hi = i + 1;
		if (!usable(nd))
			continue;
		for (k = 0; k < F_NR; k++)
			if (nd->c.fn == id[k] && k != F_DO_ONE_INITCALL)
				v[n - 1].boot = true;
		if (nd->c.fn == id[F_START_KERNEL] && v[n - 1].start < 0)
			v[n - 1].start = i;
	}
	*runs = v;
	*nruns = n;
	for (k = 0; k < n; k++) {
		if (!v[k].boot)
			continue;
		nboots++;
		prev = b;
		b = k;
	}
	if (b < 0) {
		fprintf(stderr, "kd: %s: not a boot: none of start_kernel, rest_init, kernel_init, kernel_init_freeable, do_basic_setup, do_initcalls, do_initcall_level, do_pre_smp_initcalls or to_userspace is in the log (a trace of a task or a fork: kd without --boot reads it)\n",
			src);
		return -1;
	}
	if (prev >= 0 && v[b].start < 0) {
		fprintf(stderr, "kd: %s: the run from line %u has the boot's calls but no start_kernel, after another boot's run (from line %u): a log spliced from two boots, not one boot\n",
			src, line_of(t, v[b].lo), line_of(t, v[prev].lo));
		return -1;
	}
	/* One boot's functions twice in a run: two boots' calls, mixed. */
	for (k = 0; k < NONCE; k++)
		seen[k] = -1;
	for (i = v[b].lo; i < v[b].hi; i++) {
		if (!usable(&t->nodes[i]))
			continue;
		for (k = 0; k < NONCE; k++) {
			if (t->nodes[i].c.fn != id[once_fns[k]])
				continue;
			if (seen[k] >= 0) {
				fprintf(stderr, "kd: %s: %s twice in one run (lines %u and %u): two boots' calls with no header between them, not one boot\n",
					src, fn_names[once_fns[k]],
					line_of(t, seen[k]), line_of(t, i));
				return -1;
			}
			seen[k] = i;
		}
	}
	if (nboots > 1 && say) {
		fprintf(stderr, "kd: %s: %u boots in the log, their runs from lines ",
			src, nboots);
		for (k = 0, i = 0; k < n; k++) {
			if (!v[k].boot)
				continue;
			i++;
			if (i > 10 && i < nboots)
				continue;
			fprintf(stderr, "%s%u", i == 1 ? "" : i == nboots ? " and " :
				i == 10 && nboots > 11 ? ", ..., " : ", ",
				line_of(t, v[k].lo));
		}
		fprintf(stderr, ": the report is of the last, from line %u\n",
			line_of(t, v[b].lo));
	}
	for (k = 0; k < n && v[k].boot; k++)
		;
	if (k < n && say)
		fprintf(stderr, "kd: %s: %u other run%s in the log (the first from line %u) %s not the boot's: left out\n",
			src, n - nboots, n - nboots == 1 ? "" : "s",
			line_of(t, v[k].lo), n - nboots == 1 ? "is" : "are");
	return b;
}

/* kd_boot_build(); say: the notes on the log's runs (not said twice). */
static int build_report(struct kd *kd, const struct kft_tree *t,
			struct boot_report *r, const char *source, bool say)
{
	struct boot_run *runs;
	struct kft_tree sub;
	uint32_t nruns, i, lo;
	int32_t b, start = -1, user = -1;
	double hooks = 0;
	bool refused = false;

	memset(r, 0, sizeof(*r));
	b = choose_run(kd, t, source, &runs, &nruns, say);
	if (b < 0) {
		free(runs);
		return 2;
	}
	/* The boot's run alone, its callers' indices its own. */
	lo = runs[b].lo;
	sub = *t;
	sub.n = runs[b].hi - lo;
	sub.nodes = xmalloc(((size_t)sub.n + 1) * sizeof(*sub.nodes));
	free(runs);
	for (i = 0; i < sub.n; i++) {
		struct kft_node *nd = &sub.nodes[i];

		*nd = t->nodes[lo + i];
		nd->parent = nd->parent >= (int32_t)lo ? nd->parent - (int32_t)lo : -1;
		nd->tree = nd->tree >= (int32_t)lo ? nd->tree - (int32_t)lo : -1;
		if (!usable(nd))
			continue;
		if (start < 0 && nd->c.fn == id_of(kd, "start_kernel"))
			start = i;
		if (user < 0 && nd->c.fn == id_of(kd, "to_userspace"))
			user = i;
	}
	/*
	 * KFT's hooks cannot take longer than the boot on all its CPUs: a
	 * hook cost that says so is a calibration of another kernel or
	 * machine.  Then the times as measured, and a warning.
	 */
	if (kd->comp.costed && !kd->opt.raw && start >= 0 && user >= 0) {
		double t0 = sub.nodes[start].c.entry, t1 = sub.nodes[user].c.entry;

		for (i = 0; i < sub.n; i++)
			if (sub.nodes[i].parent < 0 && !sub.nodes[i].c.irq &&
			    sub.nodes[i].c.entry <= t1)
				hooks += sub.nodes[i].c.hooks;
		if (hooks > (t1 - t0) * (sub.ncpus ? sub.ncpus : 1)) {
			for (i = 0; i < sub.n; i++) {
				struct kft_node *nd = &sub.nodes[i];

				if (nd->c.delta >= 0)
					nd->c.delta = nd->c.raw;
				nd->c.compensated = false;
				nd->at = nd->c.entry;
			}
			refused = true;
		}
	}
	build(kd, &sub, r);
	free(sub.nodes);
	r->cost_refused = refused;
	if (refused) {
		char a[32], c[32], cpus[32] = "";

		if (r->ncpus > 1)
			snprintf(cpus, sizeof(cpus), " on each of %u CPUs", r->ncpus);
		snprintf(r->note_buf, sizeof(r->note_buf),
			 "times: as measured: by the log's hook cost, KFT's hooks took %s us, more than the %s us boot%s: a calibration not of this log",
			 kd_fmt_us(kd, r->hooks, a, sizeof(a)),
			 kd_fmt_us(kd, r->raw_total, c, sizeof(c)), cpus);
		r->note.times = "measured";
		r->note.text = r->note_buf;
		r->note.share = NAN;
		fprintf(stderr, "kd: %s: %s\n", source, r->note_buf);
	}
	return 0;
}

int kd_boot_build(struct kd *kd, const struct kft_tree *t,
		  struct boot_report *r, const char *source)
{
	return build_report(kd, t, r, source, true);
}

/*
 * The report of t's boot with its times as measured (as --raw gives
 * them): the nodes' raw durations and entries.
 */
static int build_raw(struct kd *kd, const struct kft_tree *t,
		     struct boot_report *r, const char *source)
{
	struct kft_tree raw = *t;
	bool was = kd->opt.raw;
	uint32_t i;
	int ret;

	raw.nodes = xmalloc(((size_t)t->n + 1) * sizeof(*raw.nodes));
	for (i = 0; i < t->n; i++) {
		struct kft_node *nd = &raw.nodes[i];

		*nd = t->nodes[i];
		if (nd->c.delta >= 0)
			nd->c.delta = nd->c.raw;
		nd->c.compensated = false;
		nd->at = nd->c.entry;
	}
	kd->opt.raw = true;
	ret = build_report(kd, &raw, r, source, false);
	kd->opt.raw = was;
	free(raw.nodes);
	return ret;
}

static void print_report(const struct kd *kd, const struct boot_report *r)
{
	double total = r->end - r->t0, short_time = 0;
	uint32_t nshort = 0;
	char a[32], b[32], c[32], d[32], *name;
	uint32_t i;
	long shown = 0;
	bool uncertain = false;

	if (r->note.times)
		printf("%s\n", r->note.text);
	printf("Boot: %s at %s us, ",
	       r->has_start ? "start_kernel" : "the log's first call (no start_kernel)",
	       kd_fmt_us(kd, r->t0, a, sizeof(a)));
	if (r->reached)
		printf("first user program at %s us: %s us\n",
		       kd_fmt_us(kd, r->end, b, sizeof(b)),
		       kd_fmt_us(kd, total, c, sizeof(c)));
	else
		printf("no first user program in the log (to_userspace): to its last call at %s us, %s us\n",
		       kd_fmt_us(kd, r->end, b, sizeof(b)),
		       kd_fmt_us(kd, total, c, sizeof(c)));

	if (r->cost_refused)
		;	/* the note said why: times as measured */
	else if (r->hooks >= 0 && r->ncpus == 1)
		printf("KFT's hooks: %s us of the %s us measured; without them, on this one CPU: %s us\n",
		       kd_fmt_us(kd, r->hooks, a, sizeof(a)),
		       kd_fmt_us(kd, r->raw_total, b, sizeof(b)),
		       kd_fmt_us(kd, r->raw_total - r->hooks, c, sizeof(c)));
	else if (r->hooks >= 0)
		printf("KFT's hooks: %s us in all tasks on %u CPUs, of the %s us measured\n",
		       kd_fmt_us(kd, r->hooks, a, sizeof(a)), r->ncpus,
		       kd_fmt_us(kd, r->raw_total, b, sizeof(b)));
	printf("\nPhases: each moment in the innermost call listed; together, the boot\n\n");
	printf("%14s %14s %6s  %s\n", "start", "time", "%", "phase");
	for (i = 0; i < r->nphases; i++) {
		/* -t T: phases under T us go into one line. */
		if (r->phases[i].time < kd->opt.min_total) {
			short_time += r->phases[i].time;
			nshort++;
			continue;
		}
		name = kd_boot_esc(r->phases[i].name);
		printf("%14s %14s %6.1f  %s\n",
		       kd_fmt_us(kd, r->phases[i].start, a, sizeof(a)),
		       kd_fmt_us(kd, r->phases[i].time, b, sizeof(b)),
		       total > 0 ? 100 * r->phases[i].time / total : 0, name);
		free(name);
	}
	if (nshort)
		printf("%14s %14s %6.1f  (%u phases of less than %s us each)\n", "",
		       kd_fmt_us(kd, short_time, a, sizeof(a)),
		       total > 0 ? 100 * short_time / total : 0, nshort,
		       kd_fmt_us(kd, kd->opt.min_total, b, sizeof(b)));
	printf("%14s %14s %6.1f  %s\n", "", kd_fmt_us(kd, total, a, sizeof(a)),
	       total > 0 ? 100.0 : 0, "total");

	printf("\nInitcalls, longest first (%u in the log; shorter ones are not)\n",
	       r->ncalls);
	if (r->levels_hidden && r->levels_nosyms)
		printf("(levels: do_initcall_level() is not in the log, inlined, and the symbols given have no __initcall* table: this kernel's System.map or vmlinux has it)\n");
	else if (r->levels_hidden)
		printf("(levels: do_initcall_level() is not in the log, inlined; kd -m System.map or -e vmlinux gives them)\n");
	if (r->levels_partial)
		printf("(levels: do_initcall_level() is in the log, not eight times - one shorter than the log's mintime is not - so #N is the Nth in the log; %s)\n",
		       r->levels_nosyms ? "the symbols given could not place them" :
		       "kd -m System.map or -e vmlinux names them");
	if (r->nafter)
		printf("(and %u after the first user program - modules loaded then - not part of the boot)\n",
		       r->nafter);
	putchar('\n');
	printf("%14s %14s %14s %14s  %-10s %s\n", "start", "time", "off CPU",
	       "busy-wait", "level", "initcall: its longest calls");
	for (i = 0; i < r->ncalls; i++) {
		const struct boot_initcall *ic = &r->calls[i];
		char level[24];
		unsigned int k;

		if (kd->opt.top >= 0 && shown++ >= kd->opt.top)
			break;
		if (ic->time < kd->opt.min_total)
			break;
		name = kd_boot_esc(ic->name ? ic->name : "(not in the log)");
		printf("%14s %14s %14s %14s  %-10s %s%s",
		       kd_fmt_us(kd, ic->start, a, sizeof(a)),
		       kd_fmt_us(kd, ic->time, b, sizeof(b)),
		       kd_fmt_us(kd, ic->offcpu, c, sizeof(c)),
		       kd_fmt_us(kd, ic->busy, d, sizeof(d)),
		       kd_boot_level_text(r, ic, level, sizeof(level)), name,
		       ic->open ? " (never returned: running at the end of the log)" : "");
		free(name);
		for (k = 0; k < ic->ntop; k++) {
			name = kd_boot_esc(ic->top[k].name);
			printf("%s%s %s", k ? ", " : ": ", name,
			       kd_fmt_us(kd, ic->top[k].time, a, sizeof(a)));
			free(name);
		}
		if (ic->hooks_share >= HOOKS_UNCERTAIN) {
			printf("  (!: hooks %.0f%% of it as measured)",
			       100 * ic->hooks_share);
			uncertain = true;
		}
		putchar('\n');
	}
	if (uncertain)
		printf("!: KFT's hooks were half or more of the initcall's time as measured: its compensated\n"
		       "   time is mostly the calibration's estimate, uncertain on a real CPU (--raw for measured)\n");
}

static int by_start_p(const void *a, const void *b)
{
	const struct boot_initcall *x = *(const struct boot_initcall *const *)a;
	const struct boot_initcall *y = *(const struct boot_initcall *const *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x < y ? -1 : x > y;
}

#define UNNAMED	"(initcall not in the log)"

/*
 * The report as a picture that reads without hovering (names, times, a
 * time axis and a legend as text; hover titles repeat them): the phases
 * as a band on the time axis, each named in place where its name fits
 * and numbered where only its number does, all in the legend below; then
 * the longest initcalls, one row each, named in a column left of the
 * axis.  Every text is placed by the font's advance (KFT_SVG_ADVANCE):
 * none over another, over a bar not its own, or past the edge.
 */
static void print_svg(const struct kd *kd, const struct boot_report *r)
{
	const double width = 1200, adv = 11 * KFT_SVG_ADVANCE, x0 = 340;
	const double x1 = width - 20, row = 18, col_w = (width - 20) / 2;
	double total = r->end - r->t0, scale = total > 0 ? (x1 - x0) / total : 0;
	double axis_y, band_y, rows_y, height, tick, tick_w = 0;
	const struct boot_initcall **rows;
	uint32_t i, n = r->ncalls < 40 ? r->ncalls : 40, nrows;
	unsigned int title_n, sub_n, foot_n = 0;
	bool unnamed = false;
	char v[32], w[32], lab[48], *title, *sub;
	const char *note;
	const char *foot = UNNAMED ": do_one_initcall() is in the log, the initcall it called is not (shorter than the run's mintime); the time is do_one_initcall()'s.";
	size_t k;

	if (kd->opt.top >= 0 && (uint32_t)kd->opt.top < n)
		n = kd->opt.top;
	rows = xmalloc((n + 1) * sizeof(*rows));
	for (i = 0; i < n; i++) {
		rows[i] = &r->calls[i];
		unnamed = unnamed || !r->calls[i].name;
	}
	qsort(rows, n, sizeof(*rows), by_start_p);
	nrows = n;
	if (r->reached)
		title = xstrfmt("Boot: %s us, start_kernel to the first user program",
				kd_fmt_us(kd, total, v, sizeof(v)));
	else
		title = xstrfmt("Boot: no first user program in the log (to_userspace); %s us to its last call",
				kd_fmt_us(kd, total, v, sizeof(v)));
	sub = xstrfmt("Phases: each moment of the boot in the innermost call listed, named in place or numbered, all in the legend. Below: the %u longest initcalls of %u in the log, in start order, each bar its own call.",
		      nrows, r->ncalls);
	note = r->note.times ? r->note.text : "";
	title_n = kft_svg_lines(NULL, NULL, 10, 0, 21, (width - 20) / (15 * KFT_SVG_ADVANCE), 0, title);
	sub_n = kft_svg_lines(NULL, NULL, 10, 0, 15, (width - 20) / adv, 0, sub);
	if (*note)
		sub_n += kft_svg_lines(NULL, NULL, 10, 0, 15, (width - 20) / adv, 0, note);
	if (unnamed)
		foot_n = kft_svg_lines(NULL, NULL, 10, 0, 15, (width - 20) / adv, 0, foot);
	axis_y = 20 + 21.0 * (title_n - 1) + 8 + 15.0 * sub_n + 14;
	band_y = axis_y + 6;
	rows_y = band_y + 24 + 12 + 15.0 * ((r->nphases + 1) / 2) + 26;
	height = rows_y + row * nrows + 8 + 15.0 * foot_n + 4;

	printf("<?xml version=\"1.0\" standalone=\"no\"?>\n");
	printf("<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"monospace\" font-size=\"11\">\n",
	       width, height, width, height);
	printf("<rect width=\"100%%\" height=\"100%%\" fill=\"#fdfdf5\"/>\n");
	kft_svg_lines(stdout, "font-size=\"15\"", 10, 20, 21,
		      (width - 20) / (15 * KFT_SVG_ADVANCE), 0, title);
	k = kft_svg_lines(stdout, NULL, 10, 20 + 21.0 * (title_n - 1) + 20, 15,
			  (width - 20) / adv, 0, sub);
	if (*note)	/* lines of its own: "times: compensated for ..." */
		kft_svg_lines(stdout, NULL, 10, 20 + 21.0 * (title_n - 1) + 20 + 15.0 * k,
			      15, (width - 20) / adv, 0, note);
	free(title);
	free(sub);

	/* The time axis: round steps, labels apart and inside the canvas. */
	for (tick = 1; total / tick > 10 && tick < 1e300; tick *= 10)
		;
	if (total / tick < 3)
		tick /= 5;
	tick_w = adv * snprintf(lab, sizeof(lab), "%.6g ms", total / 1000);
	while (tick * scale < tick_w + 8 && tick < 1e300)
		tick *= 2;
	printf("<text x=\"10\" y=\"%.1f\">time since start_kernel</text>\n", axis_y);
	for (k = 0; scale > 0 && k <= 100; k++) {
		double t = k * tick, x = x0 + t * scale;
		int len;

		if (t > total)
			break;
		printf("<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#ccc\"/>",
		       x, axis_y + 2, x, rows_y + row * nrows);
		len = snprintf(lab, sizeof(lab), "%.6g ms", t / 1000);
		if (x + 2 + len * adv <= width - 4)
			printf("<text x=\"%.2f\" y=\"%.1f\" fill=\"#555\">%s</text>", x + 2, axis_y, lab);
		putchar('\n');
	}

	/*
	 * The phases: a band of the boot's stretches, each named or
	 * numbered where that fits.
	 */
	printf("<text x=\"10\" y=\"%.1f\">phases</text>\n", band_y + 16);
	for (i = 0; i < r->nsegs; i++) {
		const struct boot_seg *sg = &r->segs[i];
		const struct boot_phase *p = &r->phases[sg->phase];
		double x = x0 + sg->start * scale, pw = sg->time * scale;
		size_t chars = kft_xml_chars(p->name);

		if (!(x >= x0))
			x = x0;
		if (x > x1)
			x = x1;
		if (!(pw <= x1 - x))
			pw = x1 - x;
		printf("<g><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"24\" fill=\"hsl(%u,60%%,72%%)\" stroke=\"white\" stroke-width=\"0.5\"><title>",
		       x, band_y, pw, (sg->phase * 47) % 360);
		kft_xml_text(stdout, p->name);
		printf(": %s us at %s us", kd_fmt_us(kd, sg->time, v, sizeof(v)),
		       kd_fmt_us(kd, sg->start, w, sizeof(w)));
		if (sg->time != p->time)
			printf(" (%s us in all)", kd_fmt_us(kd, p->time, v, sizeof(v)));
		printf(" - phase %u</title></rect>", sg->phase + 1);
		if (chars * adv + 6 <= pw) {
			printf("<text x=\"%.2f\" y=\"%.1f\">", x + 3, band_y + 16);
			kft_xml_text(stdout, p->name);
			printf("</text>");
		} else if (snprintf(lab, sizeof(lab), "%u", sg->phase + 1) * adv + 6 <= pw) {
			printf("<text x=\"%.2f\" y=\"%.1f\">%s</text>", x + 3, band_y + 16, lab);
		}
		printf("</g>\n");
	}
	/* The legend: every phase, by number, in two columns. */
	for (i = 0; i < r->nphases; i++) {
		const struct boot_phase *p = &r->phases[i];
		double cx = 10 + (i % 2) * col_w, ly = band_y + 24 + 12 + 15.0 * (i / 2) + 11;
		int pre = snprintf(lab, sizeof(lab), "%u ", i + 1);
		char *post = xstrfmt(" %s us, %.1f%%", kd_fmt_us(kd, p->time, v, sizeof(v)),
				     total > 0 ? 100 * p->time / total : 0);
		double room = (col_w - 20) / adv - pre - strlen(post);

		printf("<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"hsl(%u,60%%,72%%)\"/><text x=\"%.1f\" y=\"%.1f\">%s",
		       cx, ly - 9, (i * 47) % 360, cx + 14, ly, lab);
		kft_xml_fit(stdout, p->name, room > 3 ? (size_t)room : 3);
		printf("%s</text>\n", post);
		free(post);
	}

	/* The initcalls: names and times left of the axis, bars on it. */
	printf("<text x=\"10\" y=\"%.1f\">initcall, its time</text>\n", rows_y - 8);
	for (i = 0; i < nrows; i++) {
		const struct boot_initcall *ic = rows[i];
		const char *name = ic->name ? ic->name : UNNAMED;
		double yy = rows_y + i * row, x = x0 + ic->start * scale;
		double bw = ic->time * scale;
		char *post = xstrfmt(" %s us%s", kd_fmt_us(kd, ic->time, v, sizeof(v)),
				     ic->open ? ", never returned" : "");
		double room = (x0 - 16) / adv - strlen(post);

		if (!(x >= x0))
			x = x0;
		if (x > x1)
			x = x1;
		if (!(bw >= 1))
			bw = 1;
		if (bw > x1 - x)
			bw = x1 - x;
		printf("<g><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\"><title>",
		       x, yy, bw, row - 4, ic->open ? "#d04030" : "#e8a040");
		kft_xml_text(stdout, name);
		printf(": %s us at %s us", kd_fmt_us(kd, ic->time, v, sizeof(v)),
		       kd_fmt_us(kd, ic->start, w, sizeof(w)));
		if (ic->offcpu > 0)
			printf(", %s us off the CPU", kd_fmt_us(kd, ic->offcpu, v, sizeof(v)));
		if (ic->busy > 0)
			printf(", %s us busy-waiting", kd_fmt_us(kd, ic->busy, v, sizeof(v)));
		printf("</title></rect></g>");
		printf("<text x=\"10\" y=\"%.1f\">", yy + 11);
		kft_xml_fit(stdout, name, room > 3 ? (size_t)room : 3);
		printf("%s</text>\n", post);
		free(post);
	}
	if (unnamed)
		kft_svg_lines(stdout, NULL, 10, rows_y + row * nrows + 16, 15,
			      (width - 20) / adv, 0, foot);
	printf("</svg>\n");
	free(rows);
}

/*
 * --html: the report, and where its times are compensated (and KFT's hook
 * cost was not refused), the same boot as measured to switch to.
 */
static void print_html(struct kd *kd, const struct kft_tree *t,
		       const struct boot_report *r, const char *source)
{
	struct boot_report raw;
	bool both = r->note.times && !strcmp(r->note.times, "compensated") &&
		    !build_raw(kd, t, &raw, source);

	kd_boot_print_html(r, both ? &raw : NULL, source);
	if (both)
		kd_boot_free(&raw);
}

/*
 * kd --boot [--svg | --json | --html | --initcall-debug | --boot-data] LOG:
 * 0, or 2 not a boot
 */
int kd_boot(struct kd *kd, const struct kft_tree *t, const char *source)
{
	struct boot_report r;

	if (kd_boot_build(kd, t, &r, source))
		return 2;
	if (kd->opt.output == KD_OUT_SVG)
		print_svg(kd, &r);
	else if (kd->opt.output == KD_OUT_BOOT_JSON)
		kd_boot_write_json(stdout, &r, source, false);
	else if (kd->opt.output == KD_OUT_BOOT_HTML)
		print_html(kd, t, &r, source);
	else if (kd->opt.output == KD_OUT_INITCALL_DEBUG)
		kd_boot_print_initcall_debug(&r);
	else if (kd->opt.output == KD_OUT_BOOT_DATA)
		kd_boot_print_boot_data(&r, source);
	else
		print_report(kd, &r);
	kd_boot_free(&r);
	return 0;
}

/* Decimals if a time of the report needs them, as a log's would. */
static bool has_fractions(const struct boot_report *r)
{
	uint32_t i;
	bool f = r->t0 != floor(r->t0) || r->end != floor(r->end);

	for (i = 0; i < r->nphases; i++)
		f = f || r->phases[i].time != floor(r->phases[i].time);
	for (i = 0; i < r->ncalls; i++)
		f = f || r->calls[i].time != floor(r->calls[i].time);
	return f;
}

#define BOM	"\xef\xbb\xbf"	/* UTF-8's byte-order mark, which JSON may start with */

/* Past a byte-order mark at the start of a text. */
static const char *past_bom(const char *s)
{
	return strncmp(s, BOM, 3) ? s : s + 3;
}

static int first_byte_of(const char *s)
{
	s = past_bom(s);
	while (*s && isspace((unsigned char)*s))
		s++;
	return *s ? *s : EOF;
}

/* What a JSON value is, for "not an object" errors. */
static const char *json_kind(const struct json *v)
{
	static const char *const kinds[] = {
		[JSON_NULL] = "null", [JSON_BOOL] = "a boolean",
		[JSON_NUMBER] = "a number", [JSON_STRING] = "a string",
		[JSON_ARRAY] = "an array", [JSON_OBJECT] = "an object",
	};

	return kinds[v->type];
}

/*
 * The first byte that is not white space (past a byte-order mark), or
 * EOF: consumed.
 */
static int first_byte(FILE *f)
{
	int c = getc(f);

	if (c == 0xef && getc(f) == 0xbb && getc(f) == 0xbf)
		c = getc(f);
	while (c != EOF && isspace(c))
		c = getc(f);
	return c;
}

/* Could a text starting with c be JSON that is not an object? */
static bool json_start(int c)
{
	return c != EOF && strchr("[\"-0123456789tfn", c);
}

/*
 * The boot report of PATH ("-": standard input): kd --boot --json's output
 * if its first non-blank byte (past a byte-order mark) is '{', else a boot
 * run's log; a text that is JSON but not an object is said to be so.
 * What it skipped and whether it has decimals go to kd.  The log reader
 * reads its file's descriptor, not stdio's buffer: a file is opened again
 * after the look at its first byte, standard input read into memory
 * first, and so is a file that may be JSON.  1: unreadable, 2: not a
 * boot report or a boot.
 */
int kd_boot_load(struct kd *kd, const char *path, struct kft_symtab *st,
		 struct boot_report *r)
{
	bool in = !strcmp(path, "-");
	const char *name = in ? "<stdin>" : path;
	FILE *f = in ? stdin : fopen(path, "r");
	char *text = NULL;
	size_t len = 0;
	struct kd k;
	struct kft_tree t;
	int ret, c;

	memset(r, 0, sizeof(*r));
	if (!f) {
		fprintf(stderr, "kd: %s: %s\n", path, strerror(errno));
		return 1;
	}
	c = in ? EOF : first_byte(f);
	if (in || c == '{' || json_start(c)) {
		/* Its descriptor from the start: stdio's buffer is left. */
		if (!in)
			lseek(fileno(f), 0, SEEK_SET);
		text = kft_slurp_fd(fileno(f), &len);
		ret = errno;
		if (!in)
			fclose(f);
		if (!text) {
			fprintf(stderr, "kd: %s: %s\n", name, strerror(ret));
			return 1;
		}
		f = NULL;
	} else {
		fclose(f);
	}
	if (text && json_start(first_byte_of(text))) {
		struct json v;
		char why[8];

		/* JSON, but not a report: say what it is (linear, once). */
		if (!json_parse(past_bom(text), len - (past_bom(text) - text), &v,
				why, sizeof(why))) {
			fprintf(stderr, "kd: %s: not a kd --boot --json report: %s, not a JSON object\n",
				name, json_kind(&v));
			json_free(&v);
			free(text);
			return 2;
		}
	}
	if (text && first_byte_of(text) == '{') {
		char err[256];
		const char *json = past_bom(text);

		ret = kd_boot_read_json(name, json, len - (json - text), r, err,
					sizeof(err)) ? 2 : 0;
		if (ret)
			fprintf(stderr, "kd: %s\n", err);
		else
			kd->fractions = kd->fractions || has_fractions(r);
		free(text);
		return ret;
	}
	k = *kd;
	memset(&k.names, 0, sizeof(k.names));
	k.fs = NULL;
	k.nfs = 0;
	k.skipped = 0;
	k.fractions = false;
	if (text) {
		f = fmemopen(text, len ? len : 1, "r");
		if (!f) {
			fprintf(stderr, "kd: %s: %s\n", name, strerror(errno));
			free(text);
			return 1;
		}
		ret = kd_analyse_file(&k, f, name, st, &t);
		fclose(f);
	} else {
		ret = kd_analyse(&k, path, st, &t);
	}
	free(text);
	if (!ret)
		ret = kd_boot_build(&k, &t, r, name);
	kd->skipped += k.skipped;
	kd->fractions = kd->fractions || k.fractions;
	kft_tree_free(&t);
	kd_free(&k);
	return ret;
}

struct boot_change {
	const char *name;
	double a, b;		/* NAN: not in that boot */
};

static int by_change(const void *x, const void *y)
{
	const struct boot_change *a = x, *b = y;
	double ca = fabs((isnan(a->b) ? 0 : a->b) - (isnan(a->a) ? 0 : a->a));
	double cb = fabs((isnan(b->b) ? 0 : b->b) - (isnan(b->a) ? 0 : b->a));

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Rows of two lists matched by name (a name repeated: the sum). */
static uint32_t match(struct boot_change *rows, const char *const *na,
		      const double *va, uint32_t n_a, const char *const *nb,
		      const double *vb, uint32_t n_b)
{
	struct kft_names ids = { 0 };
	uint32_t i, j, n = 0;

	for (i = 0; i < n_a + n_b; i++) {
		const char *name = i < n_a ? na[i] : nb[i - n_a];
		double v = i < n_a ? va[i] : vb[i - n_a];

		j = kft_name_id(&ids, name, strlen(name));
		if (j == n) {
			rows[n].name = name;
			rows[n].a = rows[n].b = NAN;
			n++;
		}
		if (i < n_a)
			rows[j].a = isnan(rows[j].a) ? v : rows[j].a + v;
		else
			rows[j].b = isnan(rows[j].b) ? v : rows[j].b + v;
	}
	kft_names_free(&ids);
	qsort(rows, n, sizeof(*rows), by_change);
	return n;
}

static void print_changes(const struct kd *kd, const char *what,
			  struct boot_change *rows, uint32_t n)
{
	char a[32], b[32], c[32];
	uint32_t i;
	long shown = 0;

	printf("\n%-44s %14s %14s %14s\n", what, "old", "new", "change");
	for (i = 0; i < n; i++) {
		double va = isnan(rows[i].a) ? 0 : rows[i].a;
		double vb = isnan(rows[i].b) ? 0 : rows[i].b;
		char *name;

		if (kd->opt.top >= 0 && shown++ >= kd->opt.top)
			break;
		name = kd_boot_esc(rows[i].name);
		printf("%-44s %14s %14s %14s\n", name,
		       isnan(rows[i].a) ? "-" : kd_fmt_us(kd, va, a, sizeof(a)),
		       isnan(rows[i].b) ? "-" : kd_fmt_us(kd, vb, b, sizeof(b)),
		       kd_fmt_change(kd, vb - va, c, sizeof(c)));
		free(name);
	}
}

/* Initcalls by name and time, for match(); those not in the log as one. */
static uint32_t initcall_rows(const struct boot_report *r, const char **n,
			      double *v)
{
	uint32_t i;

	for (i = 0; i < r->ncalls; i++) {
		n[i] = r->calls[i].name ? r->calls[i].name : "(not in the log)";
		v[i] = r->calls[i].time;
	}
	return r->ncalls;
}

bool kd_boot_comparable(const struct boot_report *r, const char *path)
{
	if (r->has_start)
		return true;
	fprintf(stderr, "kd: %s: no start_kernel in the log: the run began after the boot did, and its boot time is not the boot's; not comparable\n",
		!strcmp(path, "-") ? "<stdin>" : path);
	return false;
}

/* A report's times: compensated for KFT's hooks, or as measured. */
static bool compensated(const struct boot_report *r)
{
	return r->note.times && !strcmp(r->note.times, "compensated");
}

/* Compensated, and other tasks' hooks taken off the calls that waited? */
static bool waits_taken(const struct boot_report *r)
{
	return compensated(r) && r->note.waits &&
	       !strcmp(r->note.waits, "taken off");
}

bool kd_boot_times_alike(const struct boot_report *a, const char *pa,
			 const struct boot_report *b, const char *pb,
			 bool say)
{
	if (say && a->note.times && a->note.text[0])
		printf("old: %s\n", a->note.text);
	if (say && b->note.times && b->note.text[0])
		printf("new: %s\n", b->note.text);
	if (compensated(a) == compensated(b)) {
		if (!compensated(a) || waits_taken(a) == waits_taken(b))
			return true;
		fprintf(stderr, "kd: %s's waiting calls have other tasks' hooks %s, %s's %s: not alike (kd --no-waits leaves them in every log's)\n",
			pa, waits_taken(a) ? "taken off" : "left in",
			pb, waits_taken(b) ? "taken off" : "left in");
		return false;
	}
	fprintf(stderr, "kd: %s's times are %s, %s's %s: not alike (kd --raw reads every log's as measured)\n",
		pa, compensated(a) ? "compensated for KFT's hooks" : "as measured",
		pb, compensated(b) ? "compensated for KFT's hooks" : "as measured");
	return false;
}

/* A side's boot time for --diff's first line, in BUF. */
static const char *diff_boot_time(const struct kd *kd, const struct boot_report *r,
				  char *buf, size_t len)
{
	char t[32];
	int n;

	n = snprintf(buf, len, "%s us", kd_fmt_us(kd, r->end - r->t0, t, sizeof(t)));
	if (!r->reached && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " (no first user program: the log ends there)");
	return buf;
}

/* kd --boot --diff OLD NEW: which phase, which initcall got slower. */
int kd_boot_diff(struct kd *kd, const char *old, const char *new,
		 struct kft_symtab *st)
{
	struct boot_report ra, rb;
	const char **na, **nb;
	double *va, *vb;
	struct boot_change *rows;
	char x[96], y[96], z[32];
	uint32_t i, n, m, ka, kb;
	int ret;

	ret = kd_boot_load(kd, old, st, &ra);
	if (ret)
		return ret;
	ret = kd_boot_load(kd, new, st, &rb);
	if (ret || !kd_boot_comparable(&ra, old) || !kd_boot_comparable(&rb, new)) {
		kd_boot_free(&ra);
		kd_boot_free(&rb);
		return ret ? ret : 2;
	}
	/*
	 * A boot that never reached user space has no boot time: its log's
	 * end is said as such, and no change (it hung, or the log was cut).
	 */
	if (ra.reached && rb.reached)
		printf("Boot time: %s us -> %s us (%s us)\n",
		       kd_fmt_us(kd, ra.end - ra.t0, x, sizeof(x)),
		       kd_fmt_us(kd, rb.end - rb.t0, y, sizeof(y)),
		       kd_fmt_change(kd, (rb.end - rb.t0) - (ra.end - ra.t0), z, sizeof(z)));
	else
		printf("Boot time: %s -> %s\n",
		       diff_boot_time(kd, &ra, x, sizeof(x)),
		       diff_boot_time(kd, &rb, y, sizeof(y)));
	kd_boot_times_alike(&ra, old, &rb, new, true);

	m = ra.nphases > ra.ncalls ? ra.nphases : ra.ncalls;
	m = m > rb.nphases ? m : rb.nphases;
	m = m > rb.ncalls ? m : rb.ncalls;
	na = xmalloc((m + 1) * sizeof(*na));
	nb = xmalloc((m + 1) * sizeof(*nb));
	va = xmalloc((m + 1) * sizeof(*va));
	vb = xmalloc((m + 1) * sizeof(*vb));
	rows = xmalloc((2 * m + 1) * sizeof(*rows));
	for (i = 0; i < ra.nphases; i++)
		na[i] = ra.phases[i].name, va[i] = ra.phases[i].time;
	for (i = 0; i < rb.nphases; i++)
		nb[i] = rb.phases[i].name, vb[i] = rb.phases[i].time;
	n = match(rows, na, va, ra.nphases, nb, vb, rb.nphases);
	print_changes(kd, "phase", rows, n);
	ka = initcall_rows(&ra, na, va);
	kb = initcall_rows(&rb, nb, vb);
	n = match(rows, na, va, ka, nb, vb, kb);
	print_changes(kd, "initcall", rows, n);
	free(na);
	free(nb);
	free(va);
	free(vb);
	free(rows);
	kd_boot_free(&ra);
	kd_boot_free(&rb);
	return 0;
}
