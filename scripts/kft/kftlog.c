// SPDX-License-Identifier: GPL-2.0
/*
 * Reading KFT logs on the host.  A data line is
 *	ENTRY DELTA PID FUNCTION CALLER [CPU]
 * with FUNCTION and CALLER names (after addr2sym) or 0x addresses (raw
 * /proc/kft_data, resolved here when a symbol table is given).  The
 * original KFT wrote PID as "pid.cpu" on SMP and had no CPU column.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kftlog.h"

static uint32_t hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	while (len--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void grow_slots(struct kft_names *nt)
{
	uint32_t n = nt->nslots ? nt->nslots * 2 : 1024, i;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (i = 0; i < nt->n; i++) {
		uint32_t h = hash(nt->name[i], strlen(nt->name[i])) & (n - 1);

		while (slots[h])
			h = (h + 1) & (n - 1);
		slots[h] = i + 1;
	}
	free(nt->slots);
	nt->slots = slots;
	nt->nslots = n;
}

uint32_t kft_name_id(struct kft_names *nt, const char *s, size_t len)
{
	uint32_t h;

	if (nt->n * 2 >= nt->nslots)
		grow_slots(nt);
	for (h = hash(s, len) & (nt->nslots - 1); nt->slots[h];
	     h = (h + 1) & (nt->nslots - 1)) {
		const char *c = nt->name[nt->slots[h] - 1];

		if (!strncmp(c, s, len) && !c[len])
			return nt->slots[h] - 1;
	}
	if (nt->n == nt->cap) {
		uint32_t cap = nt->cap ? nt->cap * 2 : 1024;
		char **name = realloc(nt->name, cap * sizeof(*name));

		if (!name) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
		nt->name = name;
		nt->cap = cap;
	}
	nt->name[nt->n] = strndup(s, len);
	if (!nt->name[nt->n]) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	nt->slots[h] = ++nt->n;
	return nt->n - 1;
}

void kft_names_free(struct kft_names *nt)
{
	uint32_t i;

	for (i = 0; i < nt->n; i++)
		free(nt->name[i]);
	free(nt->name);
	free(nt->slots);
	memset(nt, 0, sizeof(*nt));
}

void kft_log_open(struct kft_log_reader *r, FILE *f, const char *path,
		  const struct kft_symtab *st, struct kft_names *names)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->path = path;
	r->st = st;
	r->names = names;
}

void kft_log_close(struct kft_log_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

static void warn(struct kft_log_reader *r, const char *what)
{
	r->warnings++;
	if (!r->quiet)
		fprintf(stderr, "%s:%lu: %s; line skipped\n", r->path,
			r->lineno, what);
}

/* A number of microseconds: digits, optionally a fraction, or -1/-2. */
static bool parse_us(const char *tok, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(tok, &end);
	return !errno && !*end && end != tok;
}

/* The function id of a FUNCTION column: a name, name+0xoff, or 0xaddr. */
static uint32_t function_id(struct kft_log_reader *r, const char *tok)
{
	const char *plus;

	if (r->st && tok[0] == '0' && tok[1] == 'x') {
		uint64_t off, addr = strtoull(tok, NULL, 16);
		const struct kft_sym *s = kft_symtab_find(r->st, addr, &off);

		if (s)
			return kft_name_id(r->names, s->name, strlen(s->name));
	}
	plus = strstr(tok, "+0x");
	return kft_name_id(r->names, tok, plus ? (size_t)(plus - tok) : strlen(tok));
}

static bool data_line(struct kft_log_reader *r, char *line, struct kft_call *c)
{
	char *tok[8], *save = NULL, *dot;
	int n = 0;

	for (char *t = strtok_r(line, " \t\r\n", &save); t && n < 8;
	     t = strtok_r(NULL, " \t\r\n", &save))
		tok[n++] = t;
	if (!n)
		return false;
	if (n < 5) {
		warn(r, "fewer than 5 columns");
		return false;
	}
	if (!parse_us(tok[0], &c->entry) || c->entry < 0) {
		warn(r, "bad entry time");
		return false;
	}
	if (!parse_us(tok[1], &c->delta) ||
	    (c->delta < 0 && c->delta != KFT_DELTA_OPEN &&
	     c->delta != KFT_DELTA_STACK)) {
		warn(r, "bad duration");
		return false;
	}
	c->cpu = -1;
	dot = strchr(tok[2], '.');
	if (dot) {			/* original SMP form: pid.cpu */
		*dot = '\0';
		c->cpu = atoi(dot + 1);
	}
	{
		char *end;
		long pid = strtol(tok[2], &end, 10);

		if (*end || pid < -1 || pid > INT32_MAX) {
			warn(r, "bad pid");
			return false;
		}
		c->pid = pid;
	}
	if (n >= 6) {
		char *end;
		long cpu = strtol(tok[n - 1], &end, 10);

		if (!*end && cpu >= 0 && cpu < 65536)
			c->cpu = cpu;
	}
	c->fn = function_id(r, tok[3]);
	c->line = r->lineno;
	return true;
}

bool kft_log_next(struct kft_log_reader *r, struct kft_call *c)
{
	ssize_t len;

	while ((len = getline(&r->buf, &r->cap, r->f)) > 0) {
		unsigned long long base;

		r->lineno++;
		if (r->in_data) {
			if (data_line(r, r->buf, c))
				return true;
			continue;
		}
		if (!strncmp(r->buf, "--------", 8))
			r->in_data = true;
		else if (r->st && sscanf(r->buf, "Kernel text base 0x%llx",
					 &base) == 1) {
			const struct kft_sym *text =
				kft_symtab_named(r->st, "_text");

			if (text)
				((struct kft_symtab *)r->st)->bias =
					(int64_t)(base - text->addr);
		}
	}
	return false;
}
