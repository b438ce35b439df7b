// SPDX-License-Identifier: GPL-2.0
/*
 * Reading KFT logs on the host.  A data line is
 *	ENTRY DELTA PID FUNCTION CALLER [CPU [CALLS LOGGED]]
 * with FUNCTION and CALLER names (after addr2sym) or 0x addresses (raw
 * /proc/kft_data, resolved here when a symbol table is given).  The
 * original KFT wrote PID as "pid.cpu" on SMP and had no CPU column.
 * CALLS and LOGGED count the calls made inside the call, and of those the
 * ones logged: with the header's "Hook cost = ..." line they say how much
 * of DELTA was KFT's hooks (kftlog.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kftlog.h"
#include "xalloc.h"

/* A log of a million bad lines says so twenty times, then counts. */
#define WARN_MAX	20

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
	uint64_t *slots = xcalloc(n, sizeof(*slots));

	for (i = 0; i < nt->nslots; i++) {	/* a slot keeps its hash */
		uint32_t h;

		if (!nt->slots[i])
			continue;
		h = (uint32_t)(nt->slots[i] >> 32) & (n - 1);
		while (slots[h])
			h = (h + 1) & (n - 1);
		slots[h] = nt->slots[i];
	}
	free(nt->slots);
	nt->slots = slots;
	nt->nslots = n;
}

/*
 * Names are packed into 1 MiB blocks as they are first seen, so the names
 * of the hot functions (seen first, mostly) share a few cache lines; each
 * block starts with a pointer to the one before.
 */
#define NAME_BLOCK	(1 << 20)

static char *name_copy(struct kft_names *nt, const char *s, size_t len)
{
	char *p;

	if (len + 1 > nt->left) {
		size_t size = sizeof(char *) + len + 1;

		if (size < NAME_BLOCK)
			size = NAME_BLOCK;
		p = xrealloc(NULL, size);
		memcpy(p, &nt->blocks, sizeof(char *));
		nt->blocks = p;
		nt->cursor = p + sizeof(char *);
		nt->left = size - sizeof(char *);
	}
	p = nt->cursor;
	memcpy(p, s, len);
	p[len] = '\0';
	nt->cursor += len + 1;
	nt->left -= len + 1;
	return p;
}

uint32_t kft_name_id(struct kft_names *nt, const char *s, size_t len)
{
	uint32_t h, want = hash(s, len);

	if (nt->n * 2 >= nt->nslots)
		grow_slots(nt);
	/* A slot holds the name's hash too: most probes end there. */
	for (h = want & (nt->nslots - 1); nt->slots[h];
	     h = (h + 1) & (nt->nslots - 1)) {
		uint32_t id = (uint32_t)nt->slots[h] - 1;

		if ((uint32_t)(nt->slots[h] >> 32) == want &&
		    nt->len[id] == len && !memcmp(nt->name[id], s, len))
			return id;
	}
	if (nt->n == nt->cap) {
		nt->cap = nt->cap ? nt->cap * 2 : 1024;
		nt->name = xrealloc(nt->name, nt->cap * sizeof(*nt->name));
		nt->len = xrealloc(nt->len, nt->cap * sizeof(*nt->len));
	}
	nt->name[nt->n] = name_copy(nt, s, len);
	nt->len[nt->n] = len;
	nt->slots[h] = (uint64_t)want << 32 | ++nt->n;
	return nt->n - 1;
}

void kft_names_free(struct kft_names *nt)
{
	while (nt->blocks) {
		char *prev;

		memcpy(&prev, nt->blocks, sizeof(char *));
		free(nt->blocks);
		nt->blocks = prev;
	}
	free(nt->name);
	free(nt->len);
	free(nt->slots);
	memset(nt, 0, sizeof(*nt));
}

void kft_log_open(struct kft_log_reader *r, FILE *f, const char *path,
		  struct kft_symtab *st, struct kft_names *names)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->path = path;
	r->st = st;
	r->names = names;
}

/*
 * The log read so far is over (another's header begins, or the input
 * ends): count it, and forget its hook cost.
 */
static void end_log(struct kft_log_reader *r)
{
	struct kft_comp_stats *cs = r->comp;

	if (cs && r->log_data) {
		cs->logs++;
		if (r->cost_ok && r->log_columns) {
			if (!cs->costed++)
				cs->first = r->cost;
			else if (cs->first.dropped != r->cost.dropped ||
				 cs->first.logged != r->cost.logged ||
				 cs->first.own != r->cost.own)
				cs->differ = true;
		} else if (r->cost_ok || r->log_columns) {
			cs->partial++;
		}
	}
	r->cost_ok = r->uncalibrated = false;
	r->log_data = r->log_columns = r->log_without = false;
	r->cost_warned = false;
}

void kft_log_close(struct kft_log_reader *r)
{
	end_log(r);
	if (r->warnings > WARN_MAX)
		fprintf(stderr, "%s: %lu warnings in all, %lu lines skipped\n",
			r->path, r->warnings, r->skipped);
	free(r->buf);
	r->buf = NULL;
	free(r->sites);
	r->sites = NULL;
	free(r->pending);
	r->pending = NULL;
}

void kft_log_warn(struct kft_log_reader *r, const char *what)
{
	r->warnings++;
	if (r->quiet || r->warnings > WARN_MAX)
		return;
	fprintf(stderr, "%s:%lu: %s\n", r->path, r->lineno, what);
	if (r->warnings == WARN_MAX)
		fprintf(stderr, "%s: further warnings not shown\n", r->path);
}

static void warn(struct kft_log_reader *r, const char *what)
{
	r->skipped++;
	if (r->warnings < WARN_MAX) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s; line skipped", what);
		kft_log_warn(r, msg);
	} else {
		kft_log_warn(r, what);
	}
}

/*
 * Times are microseconds below 2^53 ns, so that a nanosecond is still
 * exact in a double: 104 days.  Larger, inf and nan are not a KFT log's.
 */
#define US_MAX	9e12

/*
 * A number of microseconds: digits, optionally a fraction, or -1/-2.  The
 * usual forms are parsed by hand (strtod() was a fifth of kd's time):
 * digits and up to 9 decimals as one exact integer over an exact power of
 * ten, a division IEEE rounds as strtod() would.  Longer ones go to
 * strtod(); anything else (hex, an exponent, a sign, inf) is no time KFT
 * writes.
 */
static bool parse_us(const char *tok, double *v)
{
	static const double pow10[] = {
		1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	};
	const char *p = tok + (*tok == '-');
	uint64_t num = 0;
	int digits = 0, decimals = 0;
	char *end;

	for (; *p >= '0' && *p <= '9' && digits < 15; p++, digits++)
		num = num * 10 + (*p - '0');
	if (*p == '.' && digits) {
		for (p++; *p >= '0' && *p <= '9' && digits < 15 && decimals < 9;
		     p++, digits++, decimals++)
			num = num * 10 + (*p - '0');
	}
	if (digits && !*p) {
		*v = (double)num / pow10[decimals];
		if (*tok == '-')
			*v = -*v;
		return true;
	}
	/* Longer, but decimal all the same: no exponent, no hex, no sign. */
	p = tok + (*tok == '-');
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	if (*p)
		return false;
	errno = 0;
	*v = strtod(tok, &end);
	return !errno && !*end && end != tok && isfinite(*v) && fabs(*v) < US_MAX;
}

/*
 * A CPU number, or -1.  Per-CPU state is sized by the largest CPU seen, so
 * a number no machine has (Linux's NR_CPUS is at most 8192) is refused.
 */
#define CPU_MAX	65536

/*
 * A decimal integer, optionally negative, in [lo, hi]: by hand (strtol()
 * was a twentieth of kd -c's time).
 */
static bool parse_int(const char *tok, int64_t lo, int64_t hi, int64_t *v)
{
	const char *p = tok + (*tok == '-');
	int64_t x = 0;

	if (!*p)
		return false;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || x > hi)
			return false;
		x = x * 10 + (*p - '0');
	}
	*v = *tok == '-' ? -x : x;
	return *v >= lo && *v <= hi;
}

static int32_t parse_cpu(const char *tok)
{
	int64_t cpu;

	if (*tok < '0' || *tok > '9')
		return -1;
	return parse_int(tok, 0, CPU_MAX - 1, &cpu) ? (int32_t)cpu : -1;
}

/*
 * Split at blanks, in place; at most max tokens.  *stop: where the scan
 * ended, the line's NUL unless max tokens came first.
 */
static int split(char *p, char **tok, int max, char **stop)
{
	int n = 0;

	while (n < max) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p)
			break;
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
		if (*p)
			*p++ = '\0';
	}
	*stop = p;
	return n;
}

/* The function id of a FUNCTION column: a name, name+0xoff, or 0xaddr. */
static uint32_t function_id(struct kft_log_reader *r, const char *tok)
{
	const char *plus;

	if (r->st && tok[0] == '0' && tok[1] == 'x') {
		uint64_t off, addr = strtoull(tok, NULL, 16);
		const struct kft_sym *s = kft_symtab_find(r->st, addr, &off);

		if (s)
			return kft_name_id(r->names, s->name, s->name_len);
	}
	for (plus = tok; *plus; plus++)
		if (plus[0] == '+' && plus[1] == '0' && plus[2] == 'x')
			break;
	return kft_name_id(r->names, tok, plus - tok);
}

/*
 * The length of a name less GCC's ".cold" or ".cold.N" suffix: code moved
 * out of a function (cold paths) calls from there, but is that function.
 */
static size_t without_cold(const char *s, size_t len)
{
	size_t n = len;

	while (n && s[n - 1] >= '0' && s[n - 1] <= '9')
		n--;
	if (n < len) {
		if (!n || s[n - 1] != '.')
			return len;
		n--;
	}
	if (n > 5 && !memcmp(s + n - 5, ".cold", 5))
		return n - 5;
	return len;
}

/*
 * The function a CALLER column names: name, name+0xoff, name+0xoff[mod],
 * or a 0x address the symbol table holds.  None (KFT_CALLER_UNKNOWN) for
 * an address it does not, and for a column that is no name at all: 0, a
 * number, a bare address (8 hex digits or more, as KFI wrote them).
 */
static uint32_t caller_id(struct kft_log_reader *r, const char *tok)
{
	const char *p;
	bool letter = false, hex = true;

	if (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
		uint64_t off, addr = strtoull(tok, NULL, 16);
		const struct kft_sym *s = r->st ?
			kft_symtab_find(r->st, addr, &off) : NULL;

		if (!s)
			return KFT_CALLER_UNKNOWN;
		return kft_name_id(r->names, s->name,
				   without_cold(s->name, s->name_len));
	}
	for (p = tok; *p; p++) {
		if (p[0] == '+' && p[1] == '0' && p[2] == 'x')
			break;
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    *p == '_')
			letter = true;
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
		      (*p >= 'A' && *p <= 'F')))
			hex = false;
	}
	if (!letter || (hex && *p == '\0' && p - tok >= 8))
		return KFT_CALLER_UNKNOWN;
	return kft_name_id(r->names, tok, without_cold(tok, p - tok));
}

/*
 * caller_id() by the call site's hash, from a cache: a log's lines come
 * from a few call sites mostly, and kd reads millions of them.
 */
#define SITE_CACHE	16384

static uint32_t cached_caller_id(struct kft_log_reader *r, const char *tok,
				 uint64_t site)
{
	struct kft_site_fn *e;

	if (!r->sites)
		r->sites = xcalloc(SITE_CACHE, sizeof(*r->sites));
	e = &r->sites[(site ^ site >> 32) & (SITE_CACHE - 1)];
	if (e->gen != r->sites_gen + 1 || e->site != site) {
		e->site = site;
		e->fn = caller_id(r, tok);
		e->gen = r->sites_gen + 1;
	}
	return e->fn;
}

/* FNV-1a of a call site as the log writes it (0xaddr, or name+0xoff). */
static uint64_t site_hash(const char *tok)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *tok; tok++)
		h = (h ^ (unsigned char)*tok) * 0x100000001b3ULL;
	return h;
}

/*
 * The most a hook pair may cost: a millisecond.  A header that says more
 * is no calibration (a kernel whose hooks took that long would not boot).
 */
#define COST_MAX_NS	1e6

/* Past blanks. */
static const char *blanks(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

/* A cost in ns: digits, optionally a fraction; *p moves past it. */
static bool cost_ns(const char **p, double *v)
{
	const char *q = *p;
	char *end;

	if (*q < '0' || *q > '9')
		return false;
	while ((*q >= '0' && *q <= '9') || *q == '.')
		q++;
	errno = 0;
	*v = strtod(*p, &end);		/* no exponent, no hex: digits alone */
	*p = end;
	return end == q && !errno && isfinite(*v) && *v <= COST_MAX_NS;
}

/*
 * "Hook cost = D ns dropped, L ns logged, O ns own" (kernel/kft_log_text.c),
 * or "Hook cost = not calibrated", or "... not calibrated (untrusted
 * repeats: ...)" where the kernel refused what it measured.  Any other
 * text after "Hook cost", or a dropped or logged call costing 0 (no
 * calibration measures that), is a warning: the log's times are then as
 * measured.
 */
static void hook_cost_line(struct kft_log_reader *r, const char *line)
{
	static const char *const what[] = { "dropped", "logged", "own" };
	const char *p = blanks(line);
	double v[3];
	int i;

	if (strncmp(p, "Hook cost", 9))
		return;
	r->cost_ok = r->uncalibrated = false;
	p = blanks(p + 9);
	if (*p++ != '=')
		goto bad;
	p = blanks(p);
	if (!strncmp(p, "not calibrated", 14) && !*blanks(p + 14)) {
		r->uncalibrated = true;
		return;
	}
	if (!strncmp(p, "not calibrated (", 16) && strchr(p, ')') &&
	    !*blanks(strrchr(p, ')') + 1)) {
		r->uncalibrated = true;
		kft_log_warn(r, "the kernel refused its calibration of the hooks' cost (its repeats disagreed: the line gives the best and the median): this log's times as measured");
		return;
	}
	for (i = 0; i < 3; i++) {
		size_t n = strlen(what[i]);

		if (!cost_ns(&p, &v[i]))
			goto bad;
		p = blanks(p);
		if (strncmp(p, "ns", 2))
			goto bad;
		p = blanks(p + 2);
		if (strncmp(p, what[i], n))
			goto bad;
		p = blanks(p + n);
		if (i < 2 && *p++ != ',')
			goto bad;
		p = blanks(p);
	}
	if (*p)
		goto bad;
	if (v[0] == 0 || v[1] == 0) {
		r->uncalibrated = true;		/* said once, here */
		kft_log_warn(r, "a Hook cost of 0 ns a dropped or logged call is no calibration (a clock that did not move): this log's times as measured");
		return;
	}
	r->cost.dropped = v[0] / 1000;
	r->cost.logged = v[1] / 1000;
	r->cost.own = v[2] / 1000;
	r->cost.cpu = -1;		/* until a Calibrated line says */
	r->cost.khz = r->cost.after_ms = -1;
	r->cost_ok = true;
	return;
bad:
	kft_log_warn(r, "a Hook cost line that is not 'Hook cost = D ns dropped, L ns logged, O ns own' (each 0 to 1000000): this log's times as measured");
}

/* Digits alone, at most max: *p moves past them. */
static bool count_at(const char **p, double max, double *v)
{
	const char *q = *p;

	if (*q < '0' || *q > '9')
		return false;
	*v = 0;
	while (*q >= '0' && *q <= '9' && *v <= max)
		*v = *v * 10 + (*q++ - '0');
	*p = q;
	return *v <= max;
}

/* *p starts with word: *p moves past it. */
static bool word_at(const char **p, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(*p, word, n))
		return false;
	*p += n;
	return true;
}

/*
 * "Calibrated on CPU N, back to back, cycle counter at K kHz, M ms after
 * the stop" (kernel/kft_log_text.c; "sched_clock()" for the counter, and
 * the stop's part only when the kernel knew it), after the Hook cost
 * line: where the cost was measured, for kd's headers.  Anything else
 * after "Calibrated" is a warning, and the cost stands without it.
 */
static void calibrated_line(struct kft_log_reader *r, const char *line)
{
	const char *p = blanks(line);
	double cpu, khz = 0, after = -1;

	if (strncmp(p, "Calibrated", 10))
		return;
	if (!word_at(&p, "Calibrated on CPU ") || !count_at(&p, 1e6, &cpu) ||
	    !word_at(&p, ", back to back, "))
		goto bad;
	if (word_at(&p, "cycle counter at ")) {
		if (!count_at(&p, 1e9, &khz) || khz == 0 || !word_at(&p, " kHz"))
			goto bad;
	} else if (!word_at(&p, "sched_clock()")) {
		goto bad;
	}
	if (*blanks(p) && (!word_at(&p, ", ") || !count_at(&p, 1e12, &after) ||
		   !word_at(&p, " ms after the stop")))
		goto bad;
	if (*blanks(p))
		goto bad;
	r->cost.cpu = (long)cpu;
	r->cost.khz = khz;
	r->cost.after_ms = after;
	return;
bad:
	kft_log_warn(r, "a Calibrated line that is not 'Calibrated on CPU N, back to back, cycle counter at K kHz' or '... sched_clock()', with ', M ms after the stop' or not: left out");
}

/* A word that is meant as a number: a digit first, or a sign. */
static bool numeric(const char *tok)
{
	return (*tok >= '0' && *tok <= '9') || *tok == '-' || *tok == '+';
}

/*
 * The Calls and Logged columns of a line, c its call so far: take the
 * hooks' time off its duration if the log says what they cost.
 */
static void inner_calls(struct kft_log_reader *r, const char *calls_tok,
			const char *logged_tok, struct kft_call *c)
{
	int64_t calls, logged;
	double hooks, comp;

	if (!parse_int(calls_tok, 0, UINT32_MAX, &calls) ||
	    !parse_int(logged_tok, 0, UINT32_MAX, &logged)) {
		kft_log_warn(r, "Calls and Logged columns that are not counts (0 to 4294967295): left out, this call's time as measured");
		return;
	}
	if (logged > calls) {
		kft_log_warn(r, "more calls Logged than Calls: the columns left out, this call's time as measured");
		return;
	}
	r->log_columns = true;
	if (!r->cost_ok) {
		/*
		 * "not calibrated" is what the kernel says of a run ended by
		 * a panic: no warning, the times line says they are measured.
		 */
		if (!r->cost_warned && !r->uncalibrated)
			kft_log_warn(r, "Calls and Logged columns, but no 'Hook cost = ...' line in the log's header: its times as measured");
		r->cost_warned = true;
		return;
	}
	/* At most 2^32 calls of at most 1 ms: no overflow, no rounding to inf. */
	hooks = (double)(calls - logged) * r->cost.dropped +
		(double)logged * r->cost.logged + r->cost.own;
	if (c->delta < 0) {
		/* -1: still open, its hooks so far; -2: no duration either. */
		if (c->delta == KFT_DELTA_OPEN)
			c->hooks = (float)hooks;
		return;
	}
	/* To the ns, the log's resolution: no time is finer. */
	comp = round((c->raw - hooks) * 1000) / 1000;
	if (!(comp > 0))
		comp = 0;
	c->hooks = (float)(c->raw - comp);
	if (!r->raw) {
		c->delta = comp;
		c->compensated = true;
		r->decimals = true;
	}
}

/*
 * Lines in a log's data that are no data lines wait, a few of them, for
 * what follows: more data (they were bad lines: each is a warning), or a
 * dashed header line (they were another log's header, put after this one
 * without its "Kernel Instrumentation Run ID" line: read as its header).
 */
#define PENDING_MAX	64

static void flush_pending(struct kft_log_reader *r)
{
	unsigned long lineno = r->lineno;
	uint32_t i;

	for (i = 0; i < r->npending; i++) {
		r->lineno = r->pending[i].lineno;
		warn(r, r->pending[i].why);
		free(r->pending[i].text);
	}
	r->npending = 0;
	r->lineno = lineno;
}

/* The line just read waits; text, its copy or NULL, is the pending's. */
static void add_pending(struct kft_log_reader *r, char *text)
{
	struct kft_pending *p;

	if (r->npending == PENDING_MAX)
		flush_pending(r);
	if (!r->pending)
		r->pending = xcalloc(PENDING_MAX, sizeof(*r->pending));
	p = &r->pending[r->npending++];
	p->lineno = r->lineno;
	snprintf(p->why, sizeof(p->why), "%s", r->why);
	p->text = text;
}

/* Why the line just read is no data line: fmt with tok (or NULL) in it. */
static void fail(struct kft_log_reader *r, const char *fmt, const char *tok)
{
	snprintf(r->why, sizeof(r->why), fmt, tok);
}

/*
 * A data line, into c; false for a line that is none, r->why saying what
 * is wrong with it (empty for a blank line).
 */
static bool data_line(struct kft_log_reader *r, char *line, size_t len,
		      struct kft_call *c)
{
	char *tok[9], *dot, *stop;
	int n = split(line, tok, 9, &stop);
	bool columns = false;
	int64_t pid;

	r->why[0] = '\0';

	/* A NUL before the line's end would hide what follows it. */
	if (n < 9 ? stop != line + len : !!memchr(stop, '\0', line + len - stop)) {
		fail(r, "NUL byte in the line", NULL);
		return false;
	}
	if (!n)
		return false;
	if (n < 5) {
		fail(r, "fewer than 5 columns", NULL);
		return false;
	}
	if (!parse_us(tok[0], &c->entry) || c->entry < 0) {
		fail(r, "bad entry time '%.40s': not a decimal number of microseconds", tok[0]);
		return false;
	}
	if (!r->decimals && strchr(tok[0], '.'))
		r->decimals = true;
	if (!parse_us(tok[1], &c->delta) ||
	    (c->delta < 0 && c->delta != KFT_DELTA_OPEN &&
	     c->delta != KFT_DELTA_STACK)) {
		fail(r, "bad duration '%.40s': not a decimal number of microseconds, -1 or -2", tok[1]);
		return false;
	}
	c->cpu = -1;
	dot = strchr(tok[2], '.');
	if (dot) {			/* original SMP form: pid.cpu */
		*dot = '\0';
		c->cpu = parse_cpu(dot + 1);
		if (c->cpu < 0) {
			fail(r, "bad CPU after the pid '%.40s'", dot + 1);
			return false;
		}
	}
	if (!parse_int(tok[2], -1, INT32_MAX, &pid)) {
		fail(r, "bad pid '%.40s'", tok[2]);
		return false;
	}
	c->pid = pid;
	c->raw = c->delta;
	c->hooks = 0;
	c->compensated = false;
	if (n >= 6) {
		/*
		 * The sixth column, the CPU; after it Calls and Logged, or
		 * words that are no part of the call.
		 */
		int32_t cpu = parse_cpu(tok[5]);

		if (cpu < 0) {
			fail(r, !tok[5][strspn(tok[5], "0123456789")] ?
			     "CPU number out of range: '%.40s' (0 to 65535)" :
			     "CPU column '%.40s' is not a CPU number", tok[5]);
			return false;
		}
		c->cpu = cpu;
		/* Words that are no numbers are not Calls and Logged. */
		columns = n >= 8 && numeric(tok[6]) &&
			  numeric(tok[7]);
		if (columns)
			inner_calls(r, tok[6], tok[7], c);
		if (n > (columns ? 8 : 6))
			kft_log_warn(r, columns ?
				     "extra words after the Logged column: ignored" :
				     "extra words after the CPU column: ignored");
	}
	if (!columns) {
		r->log_without = true;
		if (r->cost_ok && !r->cost_warned) {
			kft_log_warn(r, "the log's header gives a hook cost, but this line has no Calls and Logged columns: its time as measured");
			r->cost_warned = true;
		}
	}
	r->log_data = true;
	c->fn = function_id(r, tok[3]);
	c->site = site_hash(tok[4]);
	c->irq = c->pid < 0;
	c->legacy = n < 6;
	c->caller_fn = cached_caller_id(r, tok[4], c->site);
	c->line = r->lineno;
	return true;
}

/*
 * KFT writes a run's log sorted by entry time.  A line earlier than the
 * one before starts another run (logs put end to end) or the log was
 * shuffled: say so, and let the caller start its trees afresh.
 */
static void check_order(struct kft_log_reader *r, struct kft_call *c)
{
	c->rewound = r->any && (r->new_log || c->entry < r->last_entry);
	if (c->rewound && !r->new_log) {
		char msg[160];

		snprintf(msg, sizeof(msg),
			 "entry time %.3f is before the previous line's %.3f: not in entry order, a new run from here",
			 c->entry, r->last_entry);
		kft_log_warn(r, msg);
	}
	r->last_entry = c->entry;
	r->any = true;
	r->new_log = false;
}

/* The first line of a log's header: logs put end to end start there. */
static bool starts_log(const char *line)
{
	static const char tag[] = "Kernel Instrumentation Run ID";

	return !strncmp(line, tag, sizeof(tag) - 1);
}

/* A console capture: the dump's lines; false for a line to skip. */
static bool console_line(struct kft_log_reader *r, char **line, size_t *len)
{
	switch (kft_console_line(&r->console, r->buf, *len, line, len)) {
	case KFT_CONSOLE_LINE:
		return true;
	case KFT_CONSOLE_BEGIN:		/* a log's header follows */
		flush_pending(r);
		end_log(r);
		r->in_data = false;
		/* fall through */
	case KFT_CONSOLE_END:
		if (r->console.what[0])
			kft_log_warn(r, r->console.what);
		return false;
	case KFT_CONSOLE_NONE:
		break;
	}
	*line = r->buf;
	return !r->console.seen;	/* a capture's other lines: the kernel's */
}

/* A line of a log's header: its text base, its hook cost, its end. */
static void header_line(struct kft_log_reader *r, const char *line)
{
	int64_t bias = r->st ? r->st->bias : 0;

	hook_cost_line(r, line);
	calibrated_line(r, line);
	if (kft_log_header_line(line, r->st))
		r->in_data = r->seen_data = true;
	if (r->st && r->st->bias != bias)
		r->sites_gen++;	/* addresses name other functions */
}

bool kft_log_next(struct kft_log_reader *r, struct kft_call *c)
{
	ssize_t got;
	size_t len;
	char *line;

	while ((got = getline(&r->buf, &r->cap, r->f)) > 0) {
		r->lineno++;
		len = got;
		if (!console_line(r, &line, &len))
			continue;
		if (starts_log(line)) {
			flush_pending(r);	/* this log's bad lines */
			/* Another log's header: its own text base and cost. */
			end_log(r);
			r->in_data = false;
			r->new_log = true;
		}
		if (r->in_data && !strncmp(line, "--------", 8)) {
			/*
			 * After data, another log's header: the lines since
			 * the data.  Before any, still this one's.
			 */
			unsigned long lineno = r->lineno;
			uint32_t i;

			if (r->log_data) {
				end_log(r);
				r->new_log = true;
			}
			for (i = 0; i < r->npending; i++) {
				r->lineno = r->pending[i].lineno;
				/* (A line that starts with a number is no header's.) */
				if (r->pending[i].text)
					header_line(r, r->pending[i].text);
				else
					warn(r, r->pending[i].why);
				free(r->pending[i].text);
			}
			r->npending = 0;
			r->lineno = lineno;
			continue;
		}
		if (r->in_data) {
			const char *q = blanks(line);
			/* A header's line starts with a word, a data line not. */
			char *text = NULL;

			if (*q && (*q < '0' || *q > '9') &&
			    !memchr(line, '\0', len)) {
				text = xmalloc(len + 1);
				memcpy(text, line, len + 1);
			}
			if (data_line(r, line, len, c)) {
				free(text);
				flush_pending(r);
				check_order(r, c);
				return true;
			}
			if (r->why[0])
				add_pending(r, text);
			else
				free(text);
			continue;
		}
		if (memchr(line, '\0', len))
			continue;	/* a header line: nothing to misread */
		header_line(r, line);
	}
	flush_pending(r);
	if (ferror(r->f)) {
		fprintf(stderr, "%s: %s\n", r->path, strerror(errno));
		r->failed = true;
	}
	if (!kft_console_eof(&r->console))
		kft_log_warn(r, r->console.what);
	return false;
}
