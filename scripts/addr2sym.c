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
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		"  -h, --help           this help\n"
		"  -V, --version        version\n"
		"LOG defaults to standard input.\n");
}

/*
 * Recent lookups: a log names the same functions and call sites over and
 * over, and a direct-mapped cache in front of the symbol search answers
 * most of them without touching the 150,000-symbol table.
 */
#define CACHE_BITS	14

struct cached {
	uint64_t addr;		/* 0: empty */
	const struct kft_sym *s;
	uint64_t off;
};

struct a2s {
	struct cached cache[1 << CACHE_BITS];
	struct kft_symtab st;
	bool offset_given;
	unsigned long lineno;
	unsigned long warnings;
	const char *path;
};

/*
 * The output line, built by hand: printf's format parsing was most of
 * addr2sym's time on logs of millions of lines.
 */
struct line_buf {
	char s[1024];
	size_t n;
};

static void put(struct line_buf *b, const char *s, size_t n)
{
	char *d = b->s + b->n;

	if (n > sizeof(b->s) - 1 - b->n)
		n = sizeof(b->s) - 1 - b->n;
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
	if (n > sizeof(b->s) - 1 - b->n)
		n = sizeof(b->s) - 1 - b->n;
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

static const struct kft_sym *lookup(struct a2s *a, uint64_t addr,
				    uint64_t *off)
{
	struct cached *c;

	if (!addr)
		return kft_symtab_find(&a->st, addr, off);
	c = &a->cache[(addr * 0x9e3779b97f4a7c15ULL) >> (64 - CACHE_BITS)];
	if (c->addr != addr) {
		c->addr = addr;
		c->s = kft_symtab_find(&a->st, addr, &c->off);
	}
	*off = c->off;
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
static void put_symbol(struct a2s *a, struct line_buf *b, const char *tok,
		       size_t n, size_t width, bool left)
{
	const struct kft_sym *s = NULL;
	uint64_t addr, off = 0;
	size_t len;

	if (parse_addr(tok, n, &addr))
		s = lookup(a, addr, &off);
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

/*
 * A data line: entry delta pid function caller [cpu].  The two addresses
 * become names; the other columns keep their text.
 */
static void data_line(struct a2s *a, char *line, FILE *out)
{
	static const size_t lead[] = { 12, 12, 6 };
	const char *tok[16];
	size_t len[16];
	struct line_buf b;
	int n = 0, first = -1, i;
	char *p = line;

	while (n < 16) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		tok[n] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			p++;
		len[n] = p - tok[n];
		n++;
	}
	if (n == 0) {
		fputc('\n', out);
		return;
	}
	for (i = 0; i < n - 1; i++) {
		if (is_addr(tok[i], len[i]) && is_addr(tok[i + 1], len[i + 1])) {
			first = i;
			break;
		}
	}
	b.n = 0;
	if (first < 0) {
		fprintf(stderr, "addr2sym: %s:%lu: no function and caller addresses; line kept\n",
			a->path, a->lineno);
		a->warnings++;
		for (i = 0; i < n; i++) {
			if (i)
				put(&b, " ", 1);
			put(&b, tok[i], len[i]);
		}
	} else {
		for (i = 0; i < first; i++) {
			put_right(&b, tok[i], len[i], i < 3 ? lead[i] : 6);
			put(&b, " ", 1);
		}
		put_symbol(a, &b, tok[first], len[first], 32, false);
		put(&b, " ", 1);
		put_symbol(a, &b, tok[first + 1], len[first + 1], 40, true);
		for (i = first + 2; i < n; i++) {
			put(&b, " ", 1);
			put_right(&b, tok[i], len[i], 4);
		}
	}
	b.s[b.n++] = '\n';
	fwrite(b.s, 1, b.n, out);
}

/* Our own column header gets widths that fit names; others pass through. */
static void column_header(const char *titles, const char *dashes, FILE *out)
{
	if (strstr(titles, "Function") && strstr(titles, "CPU")) {
		fprintf(out, "%12s %12s %6s %32s %-40s %4s\n", "Entry", "Delta",
			"PID", "Function", "Caller", "CPU");
		fprintf(out, "------------ ------------ ------ %.32s %.40s ----\n",
			"----------------------------------------",
			"----------------------------------------");
		return;
	}
	fputs(titles, out);
	fputs(dashes, out);
}

static int translate(struct a2s *a, FILE *in, FILE *out, int64_t offset)
{
	const struct kft_sym *text = kft_symtab_named(&a->st, "_text");
	char *line = NULL, *held = NULL;
	bool header = true;
	size_t cap = 0;
	ssize_t len;

	if (a->offset_given)
		a->st.bias = offset;
	while ((len = getline(&line, &cap, in)) > 0) {
		unsigned long long base;

		a->lineno++;
		if (!header) {
			data_line(a, line, out);
			continue;
		}
		if (!strncmp(line, "--------", 8)) {
			column_header(held ? held : "", line, out);
			header = false;
			continue;
		}
		if (sscanf(line, "Kernel text base 0x%llx", &base) == 1 &&
		    !a->offset_given && text)
			a->st.bias = (int64_t)(base - text->addr);
		if (held)
			fputs(held, out);
		free(held);
		held = strdup(line);
		if (!held) {
			fprintf(stderr, "addr2sym: out of memory\n");
			return 1;
		}
	}
	if (held && header)
		fputs(held, out);
	free(held);
	free(line);
	if (a->lineno == 0)
		fprintf(stderr, "addr2sym: %s: empty log\n", a->path);
	return ferror(in) ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "map", required_argument, NULL, 'm' },
		{ "elf", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "offset", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	const char *map = NULL, *elf = NULL, *output = NULL;
	static struct a2s a = { .path = "<stdin>" };
	FILE *in = stdin, *out = stdout;
	int64_t offset = 0;
	char err[512];
	int c, ret;

	while ((c = getopt_long(argc, argv, "m:e:o:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'm': map = optarg; break;
		case 'e': elf = optarg; break;
		case 'o': output = optarg; break;
		case 'O': {
			char *end;

			offset = strtoll(optarg, &end, 0);
			if (*end) {
				fprintf(stderr, "addr2sym: bad --offset '%s'\n", optarg);
				return 2;
			}
			a.offset_given = true;
			break;
		}
		case 'h': usage(stdout); return 0;
		case 'V': printf("addr2sym (KFT) %s\n", KFT_VERSION); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!map == !elf || argc - optind > 1) {
		usage(stderr);
		return 2;
	}
	if (kft_symtab_load(&a.st, map, elf, err, sizeof(err))) {
		fprintf(stderr, "addr2sym: %s\n", err);
		return 1;
	}
	if (optind < argc) {
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
	ret = translate(&a, in, out, offset);
	if (in != stdin)
		fclose(in);
	if (fclose(out)) {
		fprintf(stderr, "addr2sym: write error: %s\n", strerror(errno));
		ret = 1;
	}
	kft_symtab_free(&a.st);
	return ret;
}
