// SPDX-License-Identifier: GPL-2.0
/*
 * addr2sym: turn the addresses in a KFT log (/proc/kft_data) into function
 * names.  The function and caller columns of each data line become
 * "name" (exact match) or "name+0xoff" (inside a function); an address no
 * symbol holds stays as it is.  Header lines pass through.
 *
 * Symbols come from System.map or a saved /proc/kallsyms (-m, module
 * symbols included) or from vmlinux (-e).  A log from a kernel whose base
 * was randomised (KASLR) carries its text base in the header ("Kernel text
 * base 0x..."); the difference to the map's _text is applied to every
 * lookup.  --offset sets it by hand.
 *
 * A capture of the console that kft_dump= printed a log on (a serial log)
 * is read too: the log is taken out of it (scripts/kft/console.c) and
 * translated alone.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kft/console.h"
#include "kft/crlines.h"
#include "kft/optnum.h"
#include "kft/optonce.h"
#include "kft/output.h"
#include "kft/symtab.h"

#define KFT_VERSION "2.0"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: addr2sym (-m MAP | -e VMLINUX) [options] [LOG]\n"
		"Replace the function and caller addresses in a KFT log with names.\n"
		"\n"
		"  -m, --map FILE       System.map or a saved /proc/kallsyms\n"
		"  -e, --elf FILE       vmlinux (ELF symbol table)\n"
		"  -o, --output FILE    write here instead of standard output\n"
		"      --offset OFF     KASLR offset to subtract (default: from the log)\n"
		"  -j, --jobs N         translate with N threads (default: one per CPU, up to 8)\n"
		"  -h, --help           this help\n"
		"  -V, --version        version\n"
		"LOG defaults to standard input (also '-').  A data line without two\n"
		"addresses is kept as it is, with a warning naming its line.\n");
}

/*
 * Recent lookups: a log names the same functions and call sites over and
 * over, and a direct-mapped cache in front of the symbol search answers
 * most of them without touching the 150,000-symbol table.  Each worker
 * has its own.
 */
#define CACHE_BITS	14

struct cached {
	uint64_t addr;		/* 0: empty */
	const struct kft_sym *s;
};

struct lookup_cache {
	struct cached e[1 << CACHE_BITS];
};

struct a2s {
	struct kft_symtab st;	/* read-only once data lines start */
	bool offset_given;
	unsigned int jobs;
	unsigned long lineno;	/* lines written so far */
	unsigned long warnings;
	const char *path;
	bool in_capture;	/* reading the log taken out of a capture */
	size_t name_max;	/* the longest "name+0xoff[module]" */
};

/*
 * Data lines are translated a chunk of whole lines at a time: the main
 * thread reads chunks and writes their results in order, workers translate
 * them in between.  A malformed line is reported by its line number when
 * its chunk is written, so warnings and output keep the log's order.
 */
#define CHUNK_BYTES	(1 << 20)

struct chunk {
	char *in;
	size_t in_len, in_cap;
	char *out;
	size_t out_len, out_cap;
	unsigned long lines;
	unsigned long *bad;	/* malformed lines, counted from 1 in the chunk */
	size_t nbad, bad_cap;
	bool oom;
	bool done;		/* translated; under pool.lock */
};

/*
 * The output line, built by hand: printf's format parsing was most of
 * addr2sym's time on logs of millions of lines.
 */
struct line_buf {
	char *s;
	size_t n, cap;		/* cap: line_room(), never reached */
};

static void put(struct line_buf *b, const char *s, size_t n)
{
	char *d = b->s + b->n;

	if (n > b->cap - 1 - b->n)	/* a bound for safety: not reached */
		n = b->cap - 1 - b->n;
	b->n += n;
	if (n > 32) {
		memcpy(d, s, n);
		return;
	}
	while (n--)		/* names and numbers: shorter than a call */
		*d++ = *s++;
}

static void pad(struct line_buf *b, size_t n)
{
	if (n > b->cap - 1 - b->n)
		n = b->cap - 1 - b->n;
	memset(b->s + b->n, ' ', n);
	b->n += n;
}

/* s, right-aligned in width (printf's %*s), or left-aligned (%-*s). */
static void put_right(struct line_buf *b, const char *s, size_t n,
		      size_t width)
{
	if (n < width)
		pad(b, width - n);
	put(b, s, n);
}

static void put_hex(struct line_buf *b, uint64_t v)
{
	char tmp[16];
	int i = 16;

	do {
		tmp[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	put(b, tmp + i, 16 - i);
}

/* "0x<hex>" to a number; false if tok is not one. */
static bool parse_addr(const char *tok, size_t n, uint64_t *addr)
{
	uint64_t v = 0;
	size_t i;

	if (n < 3 || n > 18 || tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X'))
		return false;
	for (i = 2; i < n; i++) {
		char c = tok[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = v << 4 | ((c | 0x20) - 'a' + 10);
		else
			return false;
	}
	*addr = v;
	return true;
}

static const struct kft_sym *lookup(const struct a2s *a,
				    struct lookup_cache *lc, uint64_t addr,
				    uint64_t *off)
{
	struct cached *c;

	if (!addr)
		return kft_symtab_find(&a->st, addr, off);
	c = &lc->e[(addr * 0x9e3779b97f4a7c15ULL) >> (64 - CACHE_BITS)];
	if (c->addr != addr) {
		c->addr = addr;
		c->s = kft_symtab_find(&a->st, addr, off);
		return c->s;
	}
	if (c->s)
		*off = addr - a->st.bias - c->s->addr;
	return c->s;
}

static unsigned int hex_digits(uint64_t v)
{
	unsigned int n = 1;

	while (v >>= 4)
		n++;
	return n;
}

/* The name of the address in tok (or tok itself), padded to width. */
static void put_symbol(const struct a2s *a, struct lookup_cache *lc,
		       struct line_buf *b, const char *tok, size_t n,
		       size_t width, bool left)
{
	const struct kft_sym *s = NULL;
	uint64_t addr, off = 0;
	size_t len;

	if (parse_addr(tok, n, &addr))
		s = lookup(a, lc, addr, &off);
	if (!s) {
		len = n;
	} else {
		len = s->name_len;
		if (off)
			len += 3 + hex_digits(off);
		if (off && s->module)
			len += strlen(s->module) + 2;
	}
	if (!left && len < width)
		pad(b, width - len);
	if (!s) {
		put(b, tok, n);
	} else {
		put(b, s->name, s->name_len);
		if (off) {
			put(b, "+0x", 3);
			put_hex(b, off);
		}
		if (off && s->module) {
			put(b, "[", 1);
			put(b, s->module, strlen(s->module));
			put(b, "]", 1);
		}
	}
	if (left && len < width)
		pad(b, width - len);
}

static bool is_addr(const char *tok, size_t n)
{
	return n > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X');
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\0';
}

/*
 * The most a line of len bytes can become: each of its two addresses
 * (18 bytes at least) a name, and the columns' padding.
 */
static size_t line_room(const struct a2s *a, size_t len)
{
	return len + 2 * a->name_max + 128;
}

/*
 * A data line (p up to end, without its newline): entry delta pid function
 * caller [cpu [calls logged]].  The two addresses become names; the other
 * columns keep their text (right-aligned as the kernel's titles are: CPU
 * in 4, Calls in 10, Logged in 8), and words past the sixteenth are kept
 * as they are.  A line with no pair of addresses is copied as it is;
 * false for it.
 */
static bool data_line(const struct a2s *a, struct lookup_cache *lc,
		      const char *p, const char *end, struct line_buf *b)
{
	static const size_t lead[] = { 12, 12, 6 };
	const char *tok[16], *line = p;
	size_t len[16];
	int n = 0, first = -1, i;

	while (n < 16) {
		while (p < end && is_space(*p))
			p++;
		if (p == end)
			break;
		tok[n] = p;
		while (p < end && !is_space(*p))
			p++;
		len[n] = p - tok[n];
		n++;
	}
	for (i = 0; i < n - 1; i++) {
		if (is_addr(tok[i], len[i]) && is_addr(tok[i + 1], len[i + 1])) {
			first = i;
			break;
		}
	}
	if (first < 0) {
		put(b, line, end - line);
		return n == 0;
	}
	for (i = 0; i < first; i++) {
		put_right(b, tok[i], len[i], i < 3 ? lead[i] : 6);
		put(b, " ", 1);
	}
	put_symbol(a, lc, b, tok[first], len[first], 32, false);
	put(b, " ", 1);
	put_symbol(a, lc, b, tok[first + 1], len[first + 1], 40, true);
	for (i = first + 2; i < n; i++) {
		static const size_t tail[] = { 4, 10, 8 };

		put(b, " ", 1);
		put_right(b, tok[i], len[i], i - first - 2 < 3 ? tail[i - first - 2] : 4);
	}
	if (p < end)		/* past the sixteenth word: as it was */
		put(b, p, end - p);
	return true;
}

static bool grow(void *pp, size_t *cap, size_t need, size_t size)
{
	void **p = pp;
	size_t ncap = *cap ? *cap : 64;
	void *n;

	if (need <= *cap)
		return true;
	while (ncap < need)
		ncap *= 2;
	n = realloc(*p, ncap * size);
	if (!n)
		return false;
	*p = n;
	*cap = ncap;
	return true;
}

/* Translate every line of a chunk into c->out. */
static void translate_chunk(const struct a2s *a, struct lookup_cache *lc,
			    struct chunk *c)
{
	const char *p = c->in, *end = c->in + c->in_len;

	c->out_len = 0;
	c->lines = 0;
	c->nbad = 0;
	c->oom = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		struct line_buf b;

		if (!nl)
			nl = end;
		c->lines++;
		b.cap = line_room(a, nl - p);
		if (!grow(&c->out, &c->out_cap, c->out_len + b.cap + 1, 1)) {
			c->oom = true;
			return;
		}
		b.s = c->out + c->out_len;
		b.n = 0;
		if (!data_line(a, lc, p, nl, &b)) {
			if (!grow(&c->bad, &c->bad_cap, c->nbad + 1,
				  sizeof(*c->bad))) {
				c->oom = true;
				return;
			}
			c->bad[c->nbad++] = c->lines;
		}
		b.s[b.n++] = '\n';
		c->out_len += b.n;
		p = nl + 1;
	}
}

/*
 * Our own column header gets widths that fit names; others pass through.
 * Calls and Logged after CPU (the calls inside each call, which kd needs
 * with the header's hook cost) keep their titles.
 */
static void column_header(const char *titles, const char *dashes, FILE *out)
{
	const char *cpu = strstr(titles, "CPU");

	if (strstr(titles, "Function") && cpu) {
		bool inner = strstr(cpu, "Calls") && strstr(cpu, "Logged");

		fprintf(out, "%12s %12s %6s %32s %-40s %4s", "Entry", "Delta",
			"PID", "Function", "Caller", "CPU");
		if (inner)
			fprintf(out, " %10s %8s", "Calls", "Logged");
		fprintf(out, "\n------------ ------------ ------ %.32s %.40s ----%s\n",
			"----------------------------------------",
			"----------------------------------------",
			inner ? " ---------- --------" : "");
		return;
	}
	fputs(titles, out);
	fputs(dashes, out);
}

/* Reads chunks of whole lines; a line cut by a read waits in carry. */
struct reader {
	FILE *in;
	char *carry;
	size_t carry_len, carry_cap;
	bool eof;
	bool next_log;		/* carry starts another log: header again */
};

/* Where in buf[0, len) a line starts another log's header, or len. */
static size_t next_log_at(const char *buf, size_t len)
{
	static const char tag[] = "Kernel Instrumentation Run ID";
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);

		if ((size_t)(end - p) >= sizeof(tag) - 1 &&
		    !memcmp(p, tag, sizeof(tag) - 1))
			return p - buf;
		if (!nl)
			break;
		p = nl + 1;
	}
	return len;
}

/*
 * Ends c at i, the rest carried to the next chunk; at another log's
 * header before i (logs put end to end: cat one.log two.log), there,
 * the rest to be read as a header, with its own text base.
 */
static bool end_chunk(struct reader *r, struct chunk *c, size_t i)
{
	size_t at = next_log_at(c->in, i), tail;

	if (at < i) {
		i = at;
		r->next_log = true;
		r->eof = true;
	}
	tail = c->in_len - i;
	if (!grow(&r->carry, &r->carry_cap, tail, 1))
		return false;
	if (tail)
		memcpy(r->carry, c->in + i, tail);
	r->carry_len = tail;
	c->in_len = i;
	return true;
}

/* False only when out of memory; an empty chunk at the end of the log. */
static bool fill_chunk(struct reader *r, struct chunk *c)
{
	if (!grow(&c->in, &c->in_cap, r->carry_len + CHUNK_BYTES, 1))
		return false;
	if (r->carry_len)
		memcpy(c->in, r->carry, r->carry_len);
	c->in_len = r->carry_len;
	r->carry_len = 0;
	for (;;) {
		size_t got = fread(c->in + c->in_len, 1, c->in_cap - c->in_len,
				   r->in);
		size_t i = c->in_len + got;

		c->in_len += got;
		if (!got) {
			r->eof = true;
			return end_chunk(r, c, c->in_len);
		}
		while (i > 0 && c->in[i - 1] != '\n')
			i--;
		if (i > 0)
			return end_chunk(r, c, i);
		/* One line longer than the chunk: read on. */
		if (!grow(&c->in, &c->in_cap, c->in_cap * 2, 1))
			return false;
	}
}

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct chunk *slot;
	unsigned int nslots;
	unsigned long filled, taken;	/* chunks handed out, taken */
	bool quit;
	const struct a2s *a;
};

struct worker {
	pthread_t thread;
	struct pool *pool;
	struct lookup_cache cache;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct chunk *c;

		while (!p->quit && p->taken == p->filled)
			pthread_cond_wait(&p->work, &p->lock);
		if (p->taken == p->filled)
			break;
		c = &p->slot[p->taken++ % p->nslots];
		pthread_mutex_unlock(&p->lock);
		translate_chunk(p->a, &w->cache, c);
		pthread_mutex_lock(&p->lock);
		c->done = true;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* A translated chunk to out, its warnings to stderr; false on no memory. */
static bool write_chunk(struct a2s *a, const struct chunk *c, FILE *out)
{
	size_t i;

	if (c->oom)
		return false;
	fwrite(c->out, 1, c->out_len, out);
	for (i = 0; i < c->nbad; i++)
		fprintf(stderr, "addr2sym: %s:%lu: no function and caller addresses; line kept\n",
			a->path, a->lineno + c->bad[i]);
	a->warnings += c->nbad;
	a->lineno += c->lines;
	return true;
}

/*
 * The data lines: with one job, read, translate and write each chunk in
 * turn; with more, workers translate up to two chunks each while this
 * thread reads ahead and writes finished chunks in order.
 */
/*
 * The input: bytes read ahead (the start of another log, when logs are
 * put end to end), then the file.
 */
struct source {
	FILE *in;
	char *pre;		/* malloc()ed */
	size_t len, pos;
};

/* getline() from the bytes read ahead, then from the file. */
static ssize_t source_getline(struct source *src, char **line, size_t *cap)
{
	const char *p, *nl;
	size_t n;
	ssize_t more;

	if (src->pos >= src->len)
		return getline(line, cap, src->in);
	p = src->pre + src->pos;
	nl = memchr(p, '\n', src->len - src->pos);
	n = nl ? (size_t)(nl - p) + 1 : src->len - src->pos;
	if (!grow(line, cap, n + 1, 1))
		return -1;
	memcpy(*line, p, n);
	(*line)[n] = '\0';
	src->pos += n;
	if (!nl) {	/* the line goes on in the file */
		char *tail = NULL;
		size_t tail_cap = 0;

		more = getline(&tail, &tail_cap, src->in);
		if (more > 0 && grow(line, cap, n + more + 1, 1)) {
			memcpy(*line + n, tail, more + 1);
			n += more;
		}
		free(tail);
	}
	return n;
}

/*
 * The data lines, to the end of the log: the input's end, or another
 * log's header, whose bytes read already src->pre holds then.
 */
static int translate_data(struct a2s *a, struct source *src, FILE *out)
{
	unsigned int jobs = a->jobs, started = 0, i;
	struct pool p = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.work = PTHREAD_COND_INITIALIZER,
		.done = PTHREAD_COND_INITIALIZER,
		.nslots = jobs > 1 ? 2 * jobs : 1,
		.a = a,
	};
	struct reader r = { .in = src->in };
	unsigned long fill = 0, written = 0;
	struct worker *w = calloc(jobs, sizeof(*w));
	bool ok = true;

	p.slot = calloc(p.nslots, sizeof(*p.slot));
	if (!w || !p.slot)
		ok = false;
	/* What was read ahead comes first. */
	if (ok && src->pos < src->len) {
		r.carry = src->pre;
		r.carry_len = src->len - src->pos;
		r.carry_cap = src->len;
		memmove(r.carry, r.carry + src->pos, r.carry_len);
		src->pre = NULL;
	}
	free(src->pre);
	src->pre = NULL;
	src->len = src->pos = 0;
	for (i = 0; ok && jobs > 1 && i < jobs; i++) {
		w[i].pool = &p;
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i]))
			break;
		started++;
	}
	if (ok && jobs > 1 && !started)
		jobs = 1;	/* no threads: translate here */
	while (ok) {
		struct chunk *c;

		if (!r.eof && fill - written < p.nslots) {
			c = &p.slot[fill % p.nslots];
			if (!fill_chunk(&r, c)) {
				ok = false;
				break;
			}
			if (!c->in_len)
				continue;
			if (jobs == 1) {
				translate_chunk(a, &w[0].cache, c);
				c->done = true;
			} else {
				pthread_mutex_lock(&p.lock);
				c->done = false;
				p.filled = fill + 1;
				pthread_cond_signal(&p.work);
				pthread_mutex_unlock(&p.lock);
			}
			fill++;
			continue;
		}
		if (written == fill)
			break;
		c = &p.slot[written % p.nslots];
		pthread_mutex_lock(&p.lock);
		while (!c->done)
			pthread_cond_wait(&p.done, &p.lock);
		pthread_mutex_unlock(&p.lock);
		ok = write_chunk(a, c, out);
		written++;
	}
	pthread_mutex_lock(&p.lock);
	p.quit = true;
	pthread_cond_broadcast(&p.work);
	pthread_mutex_unlock(&p.lock);
	for (i = 0; i < started; i++)
		pthread_join(w[i].thread, NULL);
	for (i = 0; p.slot && i < p.nslots; i++) {
		free(p.slot[i].in);
		free(p.slot[i].out);
		free(p.slot[i].bad);
	}
	free(p.slot);
	if (ok && r.next_log) {
		src->pre = r.carry;
		src->len = r.carry_len;
	} else {
		free(r.carry);
	}
	free(w);
	if (!ok) {
		fprintf(stderr, "addr2sym: out of memory\n");
		return 1;
	}
	return 0;
}

/*
 * A console capture (kft_dump=): the log in it, translated alone.  Its
 * lines are numbered within the log in messages, after "(kft_dump)".
 */
static int translate_capture(struct a2s *a, FILE *in, FILE *out,
			     int64_t offset, char *line, size_t len);

/*
 * The header up to and with the column titles, then the data lines.  The
 * header is held until its end: a console capture's boot messages before
 * the log are no part of it.
 */
static int translate(struct a2s *a, FILE *in, FILE *out, int64_t offset)
{
	struct source src = { .in = in };
	char *line = NULL, *held = NULL, *pending = NULL;
	size_t cap = 0, pending_len = 0;
	FILE *header;
	struct kft_console con = { 0 };
	bool in_header;
	ssize_t got;
	char *p;
	size_t n;
	int ret = 0;

	if (a->offset_given)
		a->st.bias = offset;
next_log:
	header = open_memstream(&pending, &pending_len);
	in_header = true;
	if (!header) {
		fprintf(stderr, "addr2sym: out of memory\n");
		free(src.pre);
		return 1;
	}
	while (in_header && (got = source_getline(&src, &line, &cap)) > 0) {
		a->lineno++;
		/*
		 * A capture is taken apart once: in the log taken out of it, a
		 * tag is text (nested tags made this recurse, a level a tag).
		 */
		if (!a->in_capture && !src.pre &&
		    kft_console_line(&con, line, got, &p, &n) != KFT_CONSOLE_NONE) {
			fclose(header);
			free(pending);
			free(held);
			ret = translate_capture(a, in, out, offset, line, got);
			free(line);
			return ret;
		}
		/* An offset given on the command line wins over the log's. */
		if (kft_log_header_line(line, a->offset_given ? NULL : &a->st)) {
			fclose(header);
			fwrite(pending, 1, pending_len, out);
			column_header(held ? held : "", line, out);
			in_header = false;
			break;
		}
		if (held)
			fputs(held, header);
		free(held);
		held = strdup(line);
		if (!held) {
			fprintf(stderr, "addr2sym: out of memory\n");
			fclose(header);
			free(pending);
			free(line);
			free(src.pre);
			return 1;
		}
	}
	if (in_header) {
		if (held)
			fputs(held, header);
		fclose(header);
		fwrite(pending, 1, pending_len, out);
	}
	free(pending);
	pending = NULL;
	pending_len = 0;
	free(held);
	held = NULL;
	if (!in_header) {
		ret |= translate_data(a, &src, out);
		if (src.pre)	/* another log follows: its header */
			goto next_log;
	}
	free(line);
	free(src.pre);
	if (ferror(in)) {
		fprintf(stderr, "addr2sym: %s: %s\n", a->path, strerror(errno));
		return 1;
	}
	if (a->lineno == 0) {
		fprintf(stderr, "addr2sym: %s: empty log\n", a->path);
	} else if (in_header) {
		/* Copied all the same: it may be a message worth reading. */
		fprintf(stderr, "addr2sym: %s: no KFT log in it (no column header line): copied as it is\n",
			a->path);
		ret = 1;
	}
	/* A line warned about is kept as it was: nothing is lost. */
	return ret;
}

static int translate_capture(struct a2s *a, FILE *in, FILE *out,
			     int64_t offset, char *line, size_t len)
{
	const char *path = a->path;
	char *dumped;
	FILE *log;
	int ret;

	log = kft_console_extract(in, path, line, len, a->lineno);
	if (!log)
		return 1;
	dumped = malloc(strlen(path) + sizeof(" (kft_dump)"));
	if (!dumped) {
		fprintf(stderr, "addr2sym: out of memory\n");
		fclose(log);
		return 1;
	}
	sprintf(dumped, "%s (kft_dump)", path);
	a->path = dumped;
	a->lineno = 0;
	a->in_capture = true;
	ret = translate(a, log, out, offset);
	a->in_capture = false;
	a->path = path;
	free(dumped);
	fclose(log);
	return ret;
}

/* One job per CPU, within reason. */
static unsigned int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 8 ? 8 : (unsigned int)n;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "map", required_argument, NULL, 'm' },
		{ "elf", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "offset", required_argument, NULL, 'O' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	const char *map = NULL, *elf = NULL, *output = NULL;
	static struct a2s a = { .path = "<stdin>" };
	FILE *in = stdin, *out = stdout, *lines;
	int64_t offset = 0;
	long long n;
	char err[512];
	int c, ret;
	struct kft_optonce once = { 0 };

	a = (struct a2s){ .path = "<stdin>" };	/* main may run again: fuzz_addr2sym */
	while ((c = getopt_long(argc, argv, "m:e:o:j:hV", opts, NULL)) != -1) {
		if (!kft_opt_once(&once, "addr2sym", c, "m:e:o:j:hV", opts))
			return 2;
		switch (c) {
		case 'm': map = optarg; break;
		case 'e': elf = optarg; break;
		case 'o': output = optarg; break;
		case 'O':
			if (!kft_opt_int(optarg, 0, LLONG_MIN, LLONG_MAX, &n)) {
				fprintf(stderr, "addr2sym: bad --offset '%s' (a number of bytes, 0x for hex)\n", optarg);
				return 2;
			}
			offset = n;
			a.offset_given = true;
			break;
		case 'j': {
			if (!kft_opt_int(optarg, 10, 1, 64, &n)) {
				fprintf(stderr, "addr2sym: bad --jobs '%s' (1 to 64)\n", optarg);
				return 2;
			}
			a.jobs = n;
			break;
		}
		case 'h': usage(stdout); return kft_output_done("addr2sym", 0);
		case 'V': printf("addr2sym (KFT) %s\n", KFT_VERSION); return kft_output_done("addr2sym", 0);
		default: usage(stderr); return 2;
		}
	}
	if (!a.jobs)
		a.jobs = default_jobs();
	if (!map == !elf || argc - optind > 1) {
		usage(stderr);
		return 2;
	}
	if (map && !strcmp(map, "-") &&
	    (optind == argc || !strcmp(argv[optind], "-"))) {
		fprintf(stderr, "addr2sym: the map and the log cannot both be standard input ('-')\n");
		return 2;
	}
	/* Opened for writing first, an input would be emptied unread. */
	if (kft_same_file(output, optind < argc ? argv[optind] : NULL) ||
	    kft_same_file(output, map) || kft_same_file(output, elf)) {
		fprintf(stderr, "addr2sym: %s: the output would replace an input\n",
			output);
		return 2;
	}
	if (kft_symtab_load(&a.st, map, elf, err, sizeof(err))) {
		fprintf(stderr, "addr2sym: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < a.st.n; i++) {
		const struct kft_sym *sym = &a.st.syms[i];
		size_t l = sym->name_len + 19 + (sym->module ? strlen(sym->module) + 2 : 0);

		if (l > a.name_max)
			a.name_max = l;
	}
	if (optind < argc && strcmp(argv[optind], "-")) {
		a.path = argv[optind];
		in = fopen(a.path, "r");
		if (!in) {
			fprintf(stderr, "addr2sym: %s: %s\n", a.path, strerror(errno));
			kft_symtab_free(&a.st);
			return 1;
		}
	}
	if (output && !(out = fopen(output, "w"))) {
		fprintf(stderr, "addr2sym: %s: %s\n", output, strerror(errno));
		return 1;
	}
	setvbuf(out, NULL, _IOFBF, 1 << 20);
	/* A capture's lines may end in a lone CR. */
	lines = kft_crlines_open(in);
	if (!lines) {
		fprintf(stderr, "addr2sym: out of memory\n");
		return 1;
	}
	ret = translate(&a, lines, out, offset);
	fclose(lines);
	if (in != stdin)
		fclose(in);
	if (fclose(out)) {
		fprintf(stderr, "addr2sym: write error: %s\n", strerror(errno));
		ret = 1;
	}
	kft_symtab_free(&a.st);
	return ret;
}
