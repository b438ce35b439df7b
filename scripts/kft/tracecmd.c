// SPDX-License-Identifier: GPL-2.0
/*
 * kd --trace-cmd FILE: a KFT log's calls as a trace-cmd data file, the
 * events function_graph writes (ftrace:funcgraph_entry at a call's entry,
 * ftrace:funcgraph_exit with its calltime and rettime at its return), so
 * that trace-cmd report prints the calls as the kernel's function_graph
 * tracer would, and KernelShark shows them.
 *
 * Written by hand, file format version 6, as U-Boot's proftool does:
 * libtracecmd 3.1.6 (Debian 12) declares no writer in its public header
 * (trace-cmd.h reads files only; tracecmd_output_create() and friends are
 * in the private header that no package ships), and its writer takes the
 * headers and event formats from a live tracefs and the CPU data from
 * ring buffer pages already made: neither exists on the host.  Version 6
 * is the one every trace-cmd since 2010 reads (3.x reads 6 and 7).
 *
 * Layout: the magic and version; endianness (little), long size (8),
 * page size; the ring buffer's page and event headers (text, as tracefs
 * has them); the ftrace events' formats (print, funcgraph_exit,
 * funcgraph_entry, as a 6.x kernel has them); no other event systems;
 * kallsyms (the names, at addresses made up for them: the log's names
 * are all trace-cmd needs); no printk formats, no task names; the CPU
 * count; options (the uname option says what wrote the file and how its
 * times were taken); "flyrecord" and per CPU the offset and size of its
 * data: ring buffer pages of 4096 bytes, each a u64 timestamp, a u64
 * commit (the bytes of events in it) and the events, each a u32 header
 * (5 bits type_len, 27 bits time delta in ns from the one before) and
 * its record, 4-byte aligned; a delta of 2^27 ns or more goes in a time
 * extend (type_len 30) first.
 *
 * Times: each call where kd places it (kft_node.at: its entry less the
 * hooks' time before it; with --raw, its entry), in ns, its exit that
 * plus its duration, compensated or raw as kd's.  funcgraph_exit's
 * calltime and rettime give the duration exactly; the events' timestamps
 * are kept in nesting order within each tree (a callee never before its
 * caller's entry, its exit never after its caller's; where the log's
 * times overlap, a call's entry stays and the exits before it move to
 * it), and each CPU's events are in time order.  A log of several runs (times that start
 * again) has each run after the one before.  A call whose exit was not
 * seen (-1) or a stack-watch marker (-2) has an entry and no exit, as a
 * call still running when tracing stopped has in function_graph.
 *
 * Interrupt context: a call in it has the hardirq flag and the pid of the
 * task it interrupted (as ftrace records it), 0 if kd knows of none; a
 * task's call in an interrupt's tree (the softirqs an interrupt runs on
 * its way out, logged with the task's pid) has the softirq flag.  A call
 * kd puts in a task's tree is the task's, whatever its log says (the
 * original KFT logged -1 for calls made with bottom halves disabled).
 * Depth: within kd's trees, as kd -c shows them (an interrupt's calls
 * from 0).  Linear: the events are sorted by a radix sort.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kd_types.h"
#include "tracecmd.h"
#include "utf8.h"
#include "xalloc.h"

#define TC_PAGE		4096
#define TC_PAGE_HDR	16		/* u64 timestamp, u64 commit */
#define TC_DELTA_BITS	27
#define TC_TYPE_EXTEND	30
#define TC_ID_PRINT	5
#define TC_ID_EXIT	10
#define TC_ID_ENTRY	11
#define TC_FLAG_IRQS_OFF 0x01
#define TC_FLAG_HARDIRQ	0x08
#define TC_FLAG_SOFTIRQ	0x10
#define TC_OPT_UNAME	5
#define TC_TEXT_BASE	0xffffffff81000000ULL
#define TC_NOTE_MAX	1000		/* bytes of the note's text */

enum { EV_ENTRY, EV_EXIT, EV_NOTE };

struct tc_ev {
	uint64_t ts;
	uint32_t node;
	uint32_t kind;
};

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

#define COMMON_FIELDS \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n"

static const char *const formats[] = {
	"name: print\nID: 5\n" COMMON_FIELDS
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n"
	"\nprint fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n",

	"name: funcgraph_exit\nID: 10\n" COMMON_FIELDS
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\nprint fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", "
	"(void *)REC->func, REC->depth, REC->calltime, REC->rettime, REC->depth\n",

	"name: funcgraph_entry\nID: 11\n" COMMON_FIELDS
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\nprint fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n",
};

/* Little-endian numbers, whatever the host's order. */
static void le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++, v >>= 8)
		p[i] = v & 0xff;
}

static void put(FILE *f, uint64_t v, int n)
{
	uint8_t b[8];

	le(b, v, n);
	fwrite(b, 1, n, f);
}

static void put_str(FILE *f, const char *s)
{
	fwrite(s, 1, strlen(s) + 1, f);
}

static void put_text(FILE *f, const char *s, int sizelen)
{
	put(f, strlen(s), sizelen);
	fputs(s, f);
}

/*
 * A name as kallsyms holds it: one word.  Blanks, control bytes, a
 * backslash and bytes that are no UTF-8 are written \xNN (kallsyms lines
 * are split at blanks); out NULL: only the length.
 */
static size_t sym_name(FILE *out, const char *s)
{
	size_t len = 0;

	while (*s) {
		unsigned char b = *s;
		size_t n = kft_utf8_seq(s);

		if (n > 1 || (n == 1 && b > 0x20 && b < 0x7f && b != '\\')) {
			if (out)
				fwrite(s, 1, n, out);
			len += n;
			s += n;
			continue;
		}
		if (out)
			fprintf(out, "\\x%02x", b);
		len += 4;
		s++;
	}
	return len;
}

/* kallsyms: name k at TC_TEXT_BASE + 16 k; then the note's function. */
#define SYM_LINE_FIXED	(16 + 3 + 1)	/* "%016llx t " and "\n" */
static const char mark_fn[] = "tracing_mark_write";

static uint64_t fn_addr(uint64_t k)
{
	return TC_TEXT_BASE + 16 * k;
}

static void put_kallsyms(FILE *f, const struct kft_names *names)
{
	uint64_t len = 0;
	uint32_t k;

	for (k = 0; k < names->n; k++)
		len += SYM_LINE_FIXED + sym_name(NULL, names->name[k]);
	len += SYM_LINE_FIXED + strlen(mark_fn);
	put(f, len, 4);
	for (k = 0; k < names->n; k++) {
		fprintf(f, "%016llx t ", (unsigned long long)fn_addr(k));
		sym_name(f, names->name[k]);
		fputc('\n', f);
	}
	fprintf(f, "%016llx t %s\n", (unsigned long long)fn_addr(names->n), mark_fn);
}

/* An event's CPU: its call's (the log's, 0 if it has none); the note's 0. */
static uint32_t ev_cpu(const struct tc_ev *e, const struct kft_tree *t)
{
	int32_t cpu = e->kind == EV_NOTE ? 0 : t->nodes[e->node].c.cpu;

	return cpu > 0 ? (uint32_t)cpu : 0;
}

/*
 * Stable LSD radix sort of the events by timestamp, 16 bits a pass (a
 * pass whose digit is the same for all is skipped), then by CPU: each
 * CPU's events in time order, ties in the order they came (nesting).
 * cpu_start[c] is then where CPU c's events begin (ncpus + 1 entries).
 */
static struct tc_ev *sort_events(struct tc_ev *ev, size_t n,
				 const struct kft_tree *t, uint32_t ncpus,
				 size_t *cpu_start)
{
	struct tc_ev *tmp = xmalloc(n * sizeof(*tmp)), *sw;
	size_t *cnt = xcalloc(65537, sizeof(*cnt));
	size_t i;

	for (int shift = 0; shift < 64; shift += 16) {
		memset(cnt, 0, 65537 * sizeof(*cnt));
		for (i = 0; i < n; i++)
			cnt[(ev[i].ts >> shift & 0xffff) + 1]++;
		if (n && cnt[(ev[0].ts >> shift & 0xffff) + 1] == n)
			continue;
		for (i = 1; i <= 65536; i++)
			cnt[i] += cnt[i - 1];
		for (i = 0; i < n; i++)
			tmp[cnt[ev[i].ts >> shift & 0xffff]++] = ev[i];
		sw = ev, ev = tmp, tmp = sw;
	}
	free(cnt);
	memset(cpu_start, 0, ((size_t)ncpus + 1) * sizeof(*cpu_start));
	for (i = 0; i < n; i++)
		cpu_start[ev_cpu(&ev[i], t) + 1]++;
	for (i = 1; i <= ncpus; i++)
		cpu_start[i] += cpu_start[i - 1];
	for (i = 0; i < n; i++)
		tmp[cpu_start[ev_cpu(&ev[i], t)]++] = ev[i];
	/* cpu_start[c] is now where CPU c + 1's begin: shift back. */
	memmove(cpu_start + 1, cpu_start, (size_t)ncpus * sizeof(*cpu_start));
	cpu_start[0] = 0;
	free(ev);
	return tmp;
}

/* The calls as events, in nesting order; per call its times and pid. */
struct tc_calls {
	struct tc_ev *ev;
	size_t nev;
	int64_t *at;		/* entry, ns */
	int64_t *dur;		/* ns, -1: no exit */
	int64_t *ets;		/* its entry event's timestamp */
	int32_t *pid;		/* the pid its events carry */
	uint32_t *depth;
	uint32_t ncpus;
	unsigned long calls;
};

static int64_t ns(double us)
{
	return llround(us * 1000);
}

/*
 * Times in ns from 0: each run (kft_call.rewound) after the one before,
 * 1 us on; no call before its run's first.
 */
static bool tc_times(struct tc_calls *tc, const struct kft_tree *t)
{
	int64_t off = 0, run_start = 0, last = INT64_MIN, min = INT64_MAX;
	uint32_t i;

	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		int64_t a = ns(n->at), e;

		if (i == 0 || n->c.rewound) {
			/* (2^62 ns: 146 years; each run is under 104 days.) */
			if (last > INT64_C(1) << 62)
				return false;
			if (i > 0 && last != INT64_MIN)
				off = last + 1000 - a;
			run_start = a + off;
		}
		a += off;
		if (a < run_start)
			a = run_start;
		tc->at[i] = a;
		tc->dur[i] = n->c.delta >= 0 ? ns(n->c.delta) : -1;
		e = a + (tc->dur[i] > 0 ? tc->dur[i] : 0);
		if (e > last)
			last = e;
		if (a < min)
			min = a;
		if (n->c.cpu >= 0 && (uint32_t)n->c.cpu >= tc->ncpus)
			tc->ncpus = n->c.cpu + 1;
		/* Interrupt context: the interrupted task's pid. */
		if (n->c.irq)
			tc->pid[i] = n->parent >= 0 && (uint32_t)n->parent < i ?
				     tc->pid[n->parent] : 0;
		else
			tc->pid[i] = n->c.pid;
	}
	if (min < 0)
		for (i = 0; i < t->n; i++)
			tc->at[i] -= min;
	return true;
}

static void tc_push(struct tc_calls *tc, int64_t ts, uint32_t node,
		    uint32_t kind)
{
	tc->ev[tc->nev++] = (struct tc_ev){ .ts = ts, .node = node, .kind = kind };
}

/*
 * Entry and exit events of the calls shown, tree by tree, depth first:
 * the order function_graph would record them in.  Timestamps never go
 * back within a tree, so that sorting by time keeps that order.
 */
static void tc_events(struct tc_calls *tc, const struct kft_tree *t)
{
	int32_t *first = xmalloc(((size_t)t->n + 1) * sizeof(*first));
	int32_t *next = xmalloc(((size_t)t->n + 1) * sizeof(*next));
	int32_t *stk = xmalloc(((size_t)t->n + 1) * sizeof(*stk));
	int64_t i;

	for (i = 0; i < t->n; i++)
		first[i] = next[i] = -1;
	/* A call's callees shown, in entry order. */
	for (i = (int64_t)t->n - 1; i >= 0; i--) {
		const struct kft_node *n = &t->nodes[i];
		int32_t p = n->parent;

		if (n->hidden || n->tree == i || p < 0 || p >= i ||
		    t->nodes[p].hidden)
			continue;
		next[i] = first[p];
		first[p] = i;
	}
	for (i = 0; i < t->n; i++) {
		const struct kft_node *n = &t->nodes[i];
		int32_t p = n->parent, sp = 0;
		int64_t cur;

		if (n->hidden || !(n->tree == i || p < 0 || p >= i ||
				   t->nodes[p].hidden))
			continue;
		cur = tc->at[i];
		tc->ets[i] = cur;
		tc->depth[i] = 0;
		tc_push(tc, cur, i, EV_ENTRY);
		stk[sp++] = i;
		while (sp) {
			int32_t x = stk[sp - 1], c = first[x];

			if (c >= 0) {
				size_t k = tc->nev;

				first[x] = next[c];
				tc->depth[c] = sp;
				/*
				 * At its entry, not before its caller's:
				 * its caller's callees before it that
				 * the log has returning later (the log's
				 * times overlap) return at its entry.
				 */
				cur = tc->at[c] > tc->ets[x] ? tc->at[c] : tc->ets[x];
				while (k > 0 && (int64_t)tc->ev[k - 1].ts > cur)
					tc->ev[--k].ts = cur;
				tc->ets[c] = cur;
				tc_push(tc, cur, c, EV_ENTRY);
				stk[sp++] = c;
				continue;
			}
			sp--;
			tc->calls++;
			if (tc->dur[x] < 0)
				continue;
			if (tc->at[x] + tc->dur[x] > cur)
				cur = tc->at[x] + tc->dur[x];
			tc_push(tc, cur, x, EV_EXIT);
		}
	}
	free(first);
	free(next);
	free(stk);
}

/* One CPU's events as ring buffer pages. */
struct tc_page {
	uint8_t b[TC_PAGE];
	size_t used;
	uint64_t last;
	uint64_t pages;
};

static void page_flush(FILE *f, struct tc_page *pg)
{
	if (pg->used == TC_PAGE_HDR)
		return;
	le(pg->b + 8, pg->used - TC_PAGE_HDR, 8);
	memset(pg->b + pg->used, 0, TC_PAGE - pg->used);
	fwrite(pg->b, 1, TC_PAGE, f);
	pg->pages++;
	pg->used = TC_PAGE_HDR;
}

/* A record of len bytes (a multiple of 4) at ts. */
static void page_add(FILE *f, struct tc_page *pg, uint64_t ts,
		     const uint8_t *rec, size_t len)
{
	size_t need = 4 + len + (len > 28 * 4 ? 4 : 0);
	uint64_t delta = ts - pg->last;
	size_t ext = pg->used > TC_PAGE_HDR && delta >> TC_DELTA_BITS ? 8 : 0;
	uint8_t *p;

	if (pg->used + ext + need > TC_PAGE) {
		page_flush(f, pg);
		ext = 0;
	}
	if (pg->used == TC_PAGE_HDR) {
		le(pg->b, ts, 8);
		delta = 0;
	}
	p = pg->b + pg->used;
	if (ext) {
		le(p, TC_TYPE_EXTEND | (delta & ((1u << TC_DELTA_BITS) - 1)) << 5, 4);
		le(p + 4, delta >> TC_DELTA_BITS, 4);
		p += 8;
		delta = 0;
	}
	if (len <= 28 * 4) {
		le(p, len / 4 | delta << 5, 4);
		p += 4;
	} else {	/* type_len 0: the length follows */
		le(p, delta << 5, 4);
		le(p + 4, len + 4, 4);
		p += 8;
	}
	memcpy(p, rec, len);
	pg->used = p + len - pg->b;
	pg->last = ts;
}

static size_t tc_record(const struct tc_calls *tc, const struct kft_tree *t,
			const struct tc_ev *e, const char *note,
			uint64_t mark_addr, uint8_t *r)
{
	const struct kft_node *n = &t->nodes[e->node];
	size_t len;

	if (e->kind == EV_NOTE) {
		len = strlen(note) + 1;
		memset(r, 0, 16 + len + 3);
		le(r, TC_ID_PRINT, 2);
		le(r + 8, mark_addr, 8);
		memcpy(r + 16, note, len);
		return (16 + len + 3) & ~(size_t)3;
	}
	memset(r, 0, 40);
	le(r, e->kind == EV_ENTRY ? TC_ID_ENTRY : TC_ID_EXIT, 2);
	/* In a task's tree an interrupt-context call is the task's (the
	 * original KFT's -1 under spin_lock_bh(): kd -c nests it so). */
	if (!t->nodes[n->tree].c.irq)
		r[2] = 0;
	else
		r[2] = n->c.irq ? TC_FLAG_HARDIRQ | TC_FLAG_IRQS_OFF :
		       TC_FLAG_SOFTIRQ;
	le(r + 4, (uint32_t)tc->pid[e->node], 4);
	le(r + 8, fn_addr(n->c.fn), 8);
	le(r + 16, tc->depth[e->node], 4);
	if (e->kind == EV_ENTRY)
		return 20;
	le(r + 24, tc->at[e->node], 8);
	le(r + 32, tc->at[e->node] + tc->dur[e->node], 8);
	return 40;
}

/* Everything before the CPU data; the offset of its table in *table. */
static void put_headers(FILE *f, const struct kft_names *names,
			uint32_t ncpus, const char *uname, off_t *table)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	size_t k;
	long pad;

	fwrite(magic, 1, sizeof(magic), f);
	put_str(f, "6");
	put(f, 0, 1);		/* little endian */
	put(f, 8, 1);		/* long size */
	put(f, TC_PAGE, 4);
	put_str(f, "header_page");
	put_text(f, header_page, 8);
	put_str(f, "header_event");
	put_text(f, header_event, 8);
	put(f, sizeof(formats) / sizeof(*formats), 4);
	for (k = 0; k < sizeof(formats) / sizeof(*formats); k++)
		put_text(f, formats[k], 8);
	put(f, 0, 4);		/* event systems */
	put_kallsyms(f, names);
	put(f, 0, 4);		/* printk formats */
	put(f, 0, 8);		/* task names */
	put(f, ncpus, 4);
	fwrite("options  ", 1, 10, f);
	put(f, TC_OPT_UNAME, 2);
	put(f, strlen(uname) + 1, 4);
	put_str(f, uname);
	put(f, 0, 2);		/* end of options */
	fwrite("flyrecord", 1, 10, f);
	*table = ftello(f);
	for (k = 0; k < 2 * (size_t)ncpus; k++)
		put(f, 0, 8);
	/* CPU data starts on a page. */
	pad = (TC_PAGE - ftello(f) % TC_PAGE) % TC_PAGE;
	while (pad-- > 0)
		fputc(0, f);
}

static bool write_file(FILE *f, const struct kft_tree *t,
		       const struct kft_names *names, struct tc_calls *tc,
		       const size_t *cpu_start, const char *note,
		       const char *uname)
{
	struct tc_page *pg = xmalloc(sizeof(*pg));
	uint8_t rec[16 + TC_NOTE_MAX + 8];
	off_t table;
	uint32_t cpu;

	put_headers(f, names, tc->ncpus, uname, &table);
	for (cpu = 0; cpu < tc->ncpus; cpu++) {
		off_t start = ftello(f);
		uint8_t entry[16];

		pg->used = TC_PAGE_HDR;
		pg->last = 0;
		pg->pages = 0;
		for (size_t i = cpu_start[cpu]; i < cpu_start[cpu + 1]; i++) {
			size_t len = tc_record(tc, t, &tc->ev[i], note,
					       fn_addr(names->n), rec);

			page_add(f, pg, tc->ev[i].ts, rec, len);
		}
		page_flush(f, pg);
		/* This CPU's offset and size, in the table. */
		le(entry, start, 8);
		le(entry + 8, pg->pages * TC_PAGE, 8);
		if (fseeko(f, table + 16 * (off_t)cpu, SEEK_SET) ||
		    fwrite(entry, 1, 16, f) != 16 ||
		    fseeko(f, 0, SEEK_END)) {
			free(pg);
			return false;
		}
	}
	free(pg);
	return !ferror(f);
}

bool kft_export_tracecmd(const char *path, const struct kft_tree *t,
			 const struct kft_names *names,
			 const struct kft_export_note *en,
			 unsigned long *calls, unsigned long *cpus,
			 char *err, size_t errlen)
{
	struct tc_calls tc = { .ncpus = 1 };
	size_t n = t->n, *cpu_start, len = strlen(path);
	char note[TC_NOTE_MAX + 1], uname[TC_NOTE_MAX + 64];
	char *tmp = xmalloc(len + 8);
	mode_t mask;
	FILE *f;
	int fd;
	bool ok;

	snprintf(note, sizeof(note), "KFT: %s%s",
		 en && en->times ? en->text :
		 "times as the log has them (it does not say what KFT's hooks cost)",
		 "; calls whose exit was not seen have no exit event");
	snprintf(uname, sizeof(uname), "KFT kd %s: %s", KD_VERSION, note + 5);
	tc.ev = xmalloc((2 * n + 1) * sizeof(*tc.ev));
	tc.at = xmalloc((n + 1) * sizeof(*tc.at));
	tc.dur = xmalloc((n + 1) * sizeof(*tc.dur));
	tc.ets = xmalloc((n + 1) * sizeof(*tc.ets));
	tc.pid = xmalloc((n + 1) * sizeof(*tc.pid));
	tc.depth = xmalloc((n + 1) * sizeof(*tc.depth));
	cpu_start = NULL;
	if (!tc_times(&tc, t)) {
		snprintf(err, errlen, "%s: the log's runs, one after another, take more than 146 years: not written", path);
		ok = false;
		goto out;
	}
	/* The note first, on CPU 0, at the first call's time. */
	tc_push(&tc, 0, 0, EV_NOTE);
	tc_events(&tc, t);
	if (tc.nev > 1) {
		uint64_t first = UINT64_MAX;

		for (size_t i = 1; i < tc.nev; i++)
			if (tc.ev[i].ts < first)
				first = tc.ev[i].ts;
		tc.ev[0].ts = first;
	}
	cpu_start = xmalloc(((size_t)tc.ncpus + 1) * sizeof(*cpu_start));
	tc.ev = sort_events(tc.ev, tc.nev, t, tc.ncpus, cpu_start);

	memcpy(tmp, path, len);
	memcpy(tmp + len, ".XXXXXX", 8);
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "w+b");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		ok = false;
		goto out;
	}
	mask = umask(0);
	umask(mask);
	errno = 0;
	ok = write_file(f, t, names, &tc, cpu_start, note, uname) &&
	     !fchmod(fd, 0666 & ~mask);
	if (fclose(f))
		ok = false;
	if (ok && rename(tmp, path))
		ok = false;
	if (!ok) {
		snprintf(err, errlen, "%s: %s", path,
			 strerror(errno ? errno : EIO));
		unlink(tmp);
	}
out:
	*calls = tc.calls;
	*cpus = tc.ncpus;
	free(tmp);
	free(cpu_start);
	free(tc.ev);
	free(tc.at);
	free(tc.dur);
	free(tc.ets);
	free(tc.pid);
	free(tc.depth);
	return ok;
}

int kd_tracecmd(const struct kd *kd, const struct kft_tree *t,
		const char *path, const struct kft_export_note *en)
{
	unsigned long calls, cpus;
	char err[1024];

	if (!kft_export_tracecmd(path, t, &kd->names, en, &calls, &cpus,
				 err, sizeof(err))) {
		fprintf(stderr, "kd: %s\n", err);
		return 1;
	}
	printf("kd: wrote %s: %lu call%s on %lu CPU%s as function_graph events (trace-cmd report -i %s); %s\n",
	       path, calls, calls == 1 ? "" : "s", cpus, cpus == 1 ? "" : "s",
	       path, en && en->times ? en->text :
	       "times as the log has them (it does not say what KFT's hooks cost)");
	return 0;
}
