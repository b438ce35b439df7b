// SPDX-License-Identifier: GPL-2.0
/*
 * KFT run configuration language: parser, resolver and printer.
 *
 * Shared, unchanged, by the kernel (/proc/kft, boot runs) and the host
 * (scripts/mkkftrun, scripts/sym2addr, tests), so it uses only what
 * scripts/kft/include provides on the host.  Every refusal says the line,
 * the token and why; a refused config leaves the caller's config empty.
 *
 * Statements (see Documentation/trace/kft/config.rst):
 *	new | begin | end
 *	trigger start|stop entry|exit <fn>
 *	trigger start|stop time <time>
 *	filter mintime|maxtime <time>
 *	filter noints | filter onlyints
 *	filter funclist <fn> ... [fend]
 *	filter pid <n> | filter comm <name> | filter children
 *	filter depth <n> | filter notunder <fn>
 *	logentries <n> | autorepeat
 *	watch stack|worst-stack <bytes>
 * <fn> is a hex address (0x...) or a name; <time> is a decimal number of
 * microseconds, or carries a ns/us/ms/s suffix.  '#' starts a comment.
 */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

#include "kft_config.h"

struct kft_lexer {
	const char *text;
	const char *p;
	const char *end;
	unsigned int line;
};

struct kft_token {
	const char *s;
	size_t len;
	size_t offset;		/* in the text */
	unsigned int line;
};

static bool kft_is_sep(char c)
{
	return isspace((unsigned char)c) || c == ',';
}

/* Lines end in LF, CR LF or a lone CR (a file from an old Mac editor). */
static bool kft_is_eol(char c)
{
	return c == '\n' || c == '\r';
}

/* Next word; false at the end of the text. Comments run to end of line. */
static bool kft_next(struct kft_lexer *lx, struct kft_token *tok)
{
	while (lx->p < lx->end) {
		char c = *lx->p;

		if (kft_is_eol(c)) {
			/* CR LF is one line end: count its LF. */
			if (c == '\n' || lx->p + 1 == lx->end || lx->p[1] != '\n')
				lx->line++;
			lx->p++;
		} else if (c == '#') {
			while (lx->p < lx->end && !kft_is_eol(*lx->p))
				lx->p++;
		} else if (kft_is_sep(c) || c == '\0') {
			lx->p++;
		} else {
			break;
		}
	}
	if (lx->p >= lx->end)
		return false;
	tok->s = lx->p;
	tok->offset = lx->p - lx->text;
	tok->line = lx->line;
	while (lx->p < lx->end && !kft_is_sep(*lx->p) && *lx->p != '#' &&
	       *lx->p != '\0')
		lx->p++;
	tok->len = lx->p - tok->s;
	return true;
}

static bool kft_peek(const struct kft_lexer *lx, struct kft_token *tok)
{
	struct kft_lexer copy = *lx;

	return kft_next(&copy, tok);
}

static bool kft_tok_is(const struct kft_token *tok, const char *word)
{
	return tok->len == strlen(word) && !memcmp(tok->s, word, tok->len);
}

static int kft_fail(struct kft_config_error *err, unsigned int line,
		    const struct kft_token *tok, const char *msg)
{
	size_t n = 0;

	if (tok) {
		n = min_t(size_t, tok->len, sizeof(err->token) - 1);
		memcpy(err->token, tok->s, n);
	}
	err->token[n] = '\0';
	err->token_len = n;
	err->cut = tok && n < tok->len;
	err->stmt[0] = '\0';
	err->line = line;
	err->msg = msg;
	return -EINVAL;
}

/* The same, for a statement's value: the error names the statement. */
static int kft_fail_in(struct kft_config_error *err, const char *stmt,
		       unsigned int line, const struct kft_token *tok,
		       const char *msg)
{
	kft_fail(err, line, tok, msg);
	snprintf(err->stmt, sizeof(err->stmt), "%s", stmt);
	return -EINVAL;
}

static bool kft_is_keyword(const struct kft_token *tok)
{
	static const char *const words[] = {
		"new", "begin", "end", "trigger", "filter", "logentries",
		"autorepeat", "watch",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (kft_tok_is(tok, words[i]))
			return true;
	return false;
}

/*
 * A statement's next word, its value: false, consuming nothing, at the end
 * of the text or at a keyword, which begins the next statement (so that
 * "filter pid end" is a pid missing, not a config missing its end).
 */
static bool kft_next_value(struct kft_lexer *lx, struct kft_token *tok)
{
	if (!kft_peek(lx, tok) || kft_is_keyword(tok))
		return false;
	return kft_next(lx, tok);
}

/*
 * A statement takes one value: more words on its line, before the next
 * statement, are refused with the value ("filter comm my prog": 'my prog').
 */
static int kft_one_value(struct kft_lexer *lx, const char *stmt,
			 const struct kft_token *val, const char *msg,
			 struct kft_config_error *err)
{
	struct kft_token all = *val, more;
	bool extra = false;

	while (kft_peek(lx, &more) && more.line == val->line &&
	       !kft_is_keyword(&more)) {
		kft_next(lx, &more);
		all.len = more.s + more.len - all.s;
		extra = true;
	}
	return extra ? kft_fail_in(err, stmt, val->line, &all, msg) : 0;
}

/* Copy a token into a NUL-terminated buffer; false if it does not fit. */
static bool kft_tok_str(const struct kft_token *tok, char *buf, size_t size)
{
	if (tok->len >= size)
		return false;
	memcpy(buf, tok->s, tok->len);
	buf[tok->len] = '\0';
	return true;
}

static bool kft_parse_ull(const char *s, unsigned int base, u64 *val)
{
	unsigned long long v;

	if (!*s || kstrtoull(s, base, &v))
		return false;
	*val = v;
	return true;
}

int kft_parse_time(const char *tok, u64 *ns)
{
	/* max: the largest count that fits, without a 64-bit division here */
	static const struct {
		const char *suffix;
		u64 mult, max;
	} units[] = {
		{ "ns", 1, U64_MAX }, { "us", 1000, U64_MAX / 1000 },
		{ "ms", 1000000, U64_MAX / 1000000 },
		{ "s", 1000000000, U64_MAX / 1000000000 },
		{ "", 1000, U64_MAX / 1000 },
	};
	char num[24];
	size_t digits = 0;
	unsigned int i;
	u64 v;

	while (isdigit((unsigned char)tok[digits]))
		digits++;
	if (!digits || digits >= sizeof(num))
		return -EINVAL;
	memcpy(num, tok, digits);
	num[digits] = '\0';
	if (!kft_parse_ull(num, 10, &v))
		return -ERANGE;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(tok + digits, units[i].suffix))
			continue;
		if (v > units[i].max)
			return -ERANGE;
		*ns = v * units[i].mult;
		return 0;
	}
	return -EINVAL;
}

/* stmt: the statement, as its error names it ("filter mintime"). */
static int kft_expect_time(struct kft_lexer *lx, const char *stmt,
			   struct kft_token *kw, u64 *ns,
			   struct kft_config_error *err)
{
	struct kft_token tok;
	char buf[32];

	if (!kft_next_value(lx, &tok))
		return kft_fail_in(err, stmt, kw->line, NULL, "missing time");
	if (!kft_tok_str(&tok, buf, sizeof(buf)) || kft_parse_time(buf, ns))
		return kft_fail_in(err, stmt, tok.line, &tok,
				   "bad time (microseconds, or a number with ns/us/ms/s)");
	return kft_one_value(lx, stmt, &tok, "one time only", err);
}

static int kft_expect_count(struct kft_lexer *lx, const char *stmt,
			    struct kft_token *kw, u64 *val,
			    struct kft_config_error *err)
{
	struct kft_token tok;
	char buf[24];

	if (!kft_next_value(lx, &tok))
		return kft_fail_in(err, stmt, kw->line, NULL, "missing number");
	if (!kft_tok_str(&tok, buf, sizeof(buf)) ||
	    !kft_parse_ull(buf, 10, val))
		return kft_fail_in(err, stmt, tok.line, &tok, "bad number");
	return kft_one_value(lx, stmt, &tok, "one number only", err);
}

static bool kft_is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

/*
 * Memory for a config: kmalloc(), or the caller's arena when the config is
 * parsed before the kernel's allocators are up (boot runs).  Arena memory
 * is never freed.
 */
static void *kft_cfg_alloc(struct kft_config *cfg, size_t size)
{
	struct kft_arena *a = cfg->arena;
	void *p;

	if (!a)
		return kmalloc(size, GFP_KERNEL);
	size = (size + sizeof(long) - 1) & ~(sizeof(long) - 1);
	if (a->size - a->used < size)
		return NULL;
	p = a->base + a->used;
	a->used += size;
	return p;
}

static void kft_cfg_free(struct kft_config *cfg, const void *p)
{
	if (!cfg->arena)
		kfree(p);
}

static char *kft_cfg_strdup(struct kft_config *cfg, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = kft_cfg_alloc(cfg, n);

	if (p)
		memcpy(p, s, n);
	return p;
}

/* A function: 0x<hex> address, or a symbol name kept for kft_config_resolve. */
static int kft_parse_fref(const char *stmt, const struct kft_token *tok,
			  struct kft_fref *ref, struct kft_config *cfg,
			  struct kft_config_error *err)
{
	char buf[KFT_NAME_MAX];
	size_t i;
	u64 addr;

	if (!kft_tok_str(tok, buf, sizeof(buf)))
		return kft_fail_in(err, stmt, tok->line, tok,
				   "function name too long");
	ref->line = tok->line;
	ref->offset = tok->offset;
	ref->len = tok->len;
	ref->name = NULL;
	if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
		if (!kft_parse_ull(buf + 2, 16, &addr) || !addr ||
		    addr != (unsigned long)addr)
			return kft_fail_in(err, stmt, tok->line, tok,
					   "bad function address");
		ref->addr = addr;
		return 0;
	}
	if (isdigit((unsigned char)buf[0]))
		return kft_fail_in(err, stmt, tok->line, tok,
				   "function must be a name or a 0x address");
	for (i = 0; buf[i]; i++)
		if (!kft_is_name_char(buf[i]))
			return kft_fail_in(err, stmt, tok->line, tok,
					   "bad function name");
	ref->addr = 0;
	ref->name = kft_cfg_strdup(cfg, buf);
	return ref->name ? 0 : -ENOMEM;
}

/* One function, the statement's value: trigger ... entry|exit, notunder. */
static int kft_expect_fref(struct kft_lexer *lx, const char *stmt,
			   const struct kft_token *kw, struct kft_fref *ref,
			   struct kft_config *cfg,
			   struct kft_config_error *err)
{
	struct kft_token tok;
	int ret;

	if (!kft_next_value(lx, &tok))
		return kft_fail_in(err, stmt, kw->line, NULL,
				   "missing function");
	ret = kft_parse_fref(stmt, &tok, ref, cfg, err);
	if (!ret)
		ret = kft_one_value(lx, stmt, &tok,
				    "one function only (a funclist takes many)",
				    err);
	if (ret) {
		/* (a notunder refused is not counted, nor freed with cfg) */
		kft_cfg_free(cfg, ref->name);
		ref->name = NULL;
	}
	return ret;
}

static int kft_parse_trigger(struct kft_lexer *lx, struct kft_token *kw,
			     struct kft_config *cfg,
			     struct kft_config_error *err)
{
	static const char *const stmts[2][3] = {
		{ "trigger start entry", "trigger start exit",
		  "trigger start time" },
		{ "trigger stop entry", "trigger stop exit",
		  "trigger stop time" },
	};
	struct kft_token which, how;
	struct kft_trigger *t;
	unsigned int stop;

	if (!kft_next_value(lx, &which))
		return kft_fail_in(err, "trigger", kw->line, NULL,
				   "missing start or stop");
	if (kft_tok_is(&which, "start"))
		t = &cfg->start;
	else if (kft_tok_is(&which, "stop"))
		t = &cfg->stop;
	else
		return kft_fail(err, which.line, &which,
				"expected start or stop");
	stop = t == &cfg->stop;
	if (t->kind != KFT_TRIGGER_NONE)
		return kft_fail(err, which.line, &which, "trigger given twice");
	if (!kft_next_value(lx, &how))
		return kft_fail_in(err, stop ? "trigger stop" : "trigger start",
				   which.line, NULL,
				   "missing entry, exit or time");
	if (kft_tok_is(&how, "time")) {
		t->kind = KFT_TRIGGER_TIME;
		return kft_expect_time(lx, stmts[stop][2], &how, &t->time_ns,
				       err);
	}
	if (kft_tok_is(&how, "entry"))
		t->kind = KFT_TRIGGER_ENTRY;
	else if (kft_tok_is(&how, "exit"))
		t->kind = KFT_TRIGGER_EXIT;
	else
		return kft_fail(err, how.line, &how,
				"expected entry, exit or time");
	return kft_expect_fref(lx, stmts[stop][t->kind == KFT_TRIGGER_EXIT],
			       &how, &t->fn, cfg, err);
}

/* funclist ends at fend, at the next statement, or at the end of the text. */
static int kft_parse_funclist(struct kft_lexer *lx, struct kft_token *kw,
			      struct kft_config *cfg,
			      struct kft_config_error *err)
{
	struct kft_token tok;
	int ret;

	if (cfg->funcs)
		return kft_fail(err, kw->line, kw, "funclist given twice");
	while (kft_peek(lx, &tok)) {
		struct kft_fref *grown;

		if (kft_tok_is(&tok, "fend")) {
			kft_next(lx, &tok);
			break;
		}
		if (kft_is_keyword(&tok))
			break;
		kft_next(lx, &tok);
		if (cfg->nfuncs >= KFT_MAX_FUNCLIST)
			return kft_fail(err, tok.line, &tok, "funclist too long");
		if (cfg->nfuncs == cfg->funcs_room) {
			unsigned int room = cfg->funcs_room ?
					    cfg->funcs_room * 2 : 8;

			/*
			 * An arena never frees: one array, as long as a boot
			 * run's funclist may be or half the arena allows.
			 */
			if (cfg->arena && !cfg->funcs_room)
				room = clamp_t(size_t, (cfg->arena->size - cfg->arena->used) /
					       2 / sizeof(*grown), 8, KFT_BOOT_MAX_FUNCS);

			grown = kft_cfg_alloc(cfg, sizeof(*grown) * room);
			if (!grown)
				return -ENOMEM;
			if (cfg->nfuncs)
				memcpy(grown, cfg->funcs,
				       sizeof(*grown) * cfg->nfuncs);
			kft_cfg_free(cfg, cfg->funcs);
			cfg->funcs = grown;
			cfg->funcs_room = room;
		}
		ret = kft_parse_fref("filter funclist", &tok,
				     &cfg->funcs[cfg->nfuncs], cfg, err);
		if (ret)
			return ret;
		cfg->nfuncs++;
	}
	if (!cfg->nfuncs)
		return kft_fail_in(err, "filter funclist", kw->line, NULL,
				   "empty funclist");
	return 0;
}

/* filter pid <n>, filter depth <n>: once each. */
static int kft_parse_number_filter(struct kft_lexer *lx,
				   struct kft_token *what,
				   struct kft_config *cfg,
				   struct kft_config_error *err)
{
	bool pid = kft_tok_is(what, "pid");
	bool *set = pid ? &cfg->pid_set : &cfg->depth_set;
	unsigned int *val = pid ? &cfg->pid : &cfg->depth;
	u64 max = pid ? KFT_MAX_PID : KFT_MAX_DEPTH;
	u64 n;
	int ret;

	if (*set)
		return kft_fail(err, what->line, what,
				pid ? "pid given twice" : "depth given twice");
	ret = kft_expect_count(lx, pid ? "filter pid" : "filter depth", what,
			       &n, err);
	if (ret)
		return ret;
	if (n > max)
		return kft_fail(err, what->line, what,
				pid ? "pid must be 0..4194304" :
				      "depth must be 0..65535");
	*val = n;
	*set = true;
	return 0;
}

/*
 * filter comm <name>: a task name as the kernel keeps it, 15 printable
 * characters, one word, and not a keyword of the language (which begins
 * the next statement).
 */
static int kft_parse_comm(struct kft_lexer *lx, struct kft_token *what,
			  struct kft_config *cfg,
			  struct kft_config_error *err)
{
	struct kft_token tok;
	char comm[KFT_COMM_LEN];
	size_t i;
	int ret;

	if (cfg->comm[0])
		return kft_fail(err, what->line, what, "comm given twice");
	if (!kft_next_value(lx, &tok))
		return kft_fail_in(err, "filter comm", what->line, NULL,
				   "missing task name");
	ret = kft_one_value(lx, "filter comm", &tok,
			    "a task name is one word", err);
	if (ret)
		return ret;
	if (!kft_tok_str(&tok, comm, sizeof(comm)))
		return kft_fail_in(err, "filter comm", tok.line, &tok,
				   "task name longer than 15 characters");
	for (i = 0; i < tok.len; i++)
		if (comm[i] < 0x21 || comm[i] > 0x7e)
			return kft_fail_in(err, "filter comm", tok.line, &tok,
					   "task name with a byte that is not printable");
	memcpy(cfg->comm, comm, sizeof(comm));
	return 0;
}

static int kft_parse_notunder(struct kft_lexer *lx, struct kft_token *what,
			      struct kft_config *cfg,
			      struct kft_config_error *err)
{
	int ret;

	if (cfg->nnotunder >= KFT_MAX_NOTUNDER)
		return kft_fail(err, what->line, what,
				"more than 8 notunder functions");
	ret = kft_expect_fref(lx, "filter notunder", what,
			      &cfg->notunder[cfg->nnotunder], cfg, err);
	if (ret)
		return ret;
	cfg->nnotunder++;
	return 0;
}

static int kft_parse_filter(struct kft_lexer *lx, struct kft_token *kw,
			    struct kft_config *cfg,
			    struct kft_config_error *err)
{
	struct kft_token what;

	if (!kft_next_value(lx, &what))
		return kft_fail_in(err, "filter", kw->line, NULL,
				   "missing filter kind");
	if (kft_tok_is(&what, "mintime"))
		return kft_expect_time(lx, "filter mintime", &what,
				       &cfg->mintime_ns, err);
	if (kft_tok_is(&what, "maxtime"))
		return kft_expect_time(lx, "filter maxtime", &what,
				       &cfg->maxtime_ns, err);
	if (kft_tok_is(&what, "noints")) {
		cfg->noints = true;
		return 0;
	}
	if (kft_tok_is(&what, "onlyints")) {
		cfg->onlyints = true;
		return 0;
	}
	if (kft_tok_is(&what, "funclist"))
		return kft_parse_funclist(lx, &what, cfg, err);
	if (kft_tok_is(&what, "children")) {
		cfg->children = true;
		return 0;
	}
	if (kft_tok_is(&what, "pid") || kft_tok_is(&what, "depth"))
		return kft_parse_number_filter(lx, &what, cfg, err);
	if (kft_tok_is(&what, "comm"))
		return kft_parse_comm(lx, &what, cfg, err);
	if (kft_tok_is(&what, "notunder"))
		return kft_parse_notunder(lx, &what, cfg, err);
	return kft_fail(err, what.line, &what,
			"expected mintime, maxtime, noints, onlyints, funclist, pid, comm, children, depth or notunder");
}

static int kft_parse_watch(struct kft_lexer *lx, struct kft_token *kw,
			   struct kft_config *cfg,
			   struct kft_config_error *err)
{
	struct kft_token what;
	u64 bytes;
	int ret;

	if (!kft_next_value(lx, &what))
		return kft_fail_in(err, "watch", kw->line, NULL,
				   "missing stack or worst-stack");
	if (kft_tok_is(&what, "stack"))
		cfg->watch = KFT_WATCH_STACK;
	else if (kft_tok_is(&what, "worst-stack"))
		cfg->watch = KFT_WATCH_WORST_STACK;
	else
		return kft_fail(err, what.line, &what,
				"expected stack or worst-stack");
	ret = kft_expect_count(lx, cfg->watch == KFT_WATCH_STACK ?
			       "watch stack" : "watch worst-stack",
			       &what, &bytes, err);
	if (ret)
		return ret;
	if (!bytes || bytes > (1UL << 24))
		return kft_fail(err, what.line, &what,
				"stack threshold out of range");
	cfg->watch_bytes = bytes;
	return 0;
}

static int kft_parse_statement(struct kft_lexer *lx, struct kft_token *kw,
			       struct kft_config *cfg,
			       struct kft_config_error *err)
{
	u64 n;
	int ret;

	if (kft_tok_is(kw, "trigger"))
		return kft_parse_trigger(lx, kw, cfg, err);
	if (kft_tok_is(kw, "filter"))
		return kft_parse_filter(lx, kw, cfg, err);
	if (kft_tok_is(kw, "watch"))
		return kft_parse_watch(lx, kw, cfg, err);
	if (kft_tok_is(kw, "autorepeat")) {
		cfg->autorepeat = true;
		return 0;
	}
	if (kft_tok_is(kw, "logentries")) {
		ret = kft_expect_count(lx, "logentries", kw, &n, err);
		if (ret)
			return ret;
		if (!n || n > KFT_MAX_LOGENTRIES)
			return kft_fail(err, kw->line, kw,
					"logentries must be 1..16777216");
		cfg->logentries = n;
		cfg->logentries_set = true;
		return 0;
	}
	return kft_fail(err, kw->line, kw, "unknown keyword");
}

/* Checks that need the whole config. */
static int kft_config_check(struct kft_config *cfg, unsigned int line,
			    struct kft_config_error *err)
{
	if (cfg->noints && cfg->onlyints)
		return kft_fail(err, line, NULL,
				"noints and onlyints exclude each other");
	if (cfg->maxtime_ns && cfg->maxtime_ns < cfg->mintime_ns)
		return kft_fail(err, line, NULL, "maxtime is below mintime");
	return 0;
}

void kft_config_init(struct kft_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->logentries = KFT_DEFAULT_LOGENTRIES;
}

void kft_config_free(struct kft_config *cfg)
{
	struct kft_fref *ref;
	unsigned int i;

	for (i = 0; (ref = kft_config_fref(cfg, i)); i++)
		kft_cfg_free(cfg, ref->name);
	kft_cfg_free(cfg, cfg->funcs);
	kft_config_init(cfg);
}

/*
 * A dynamic config is "new [begin] statements end"; a static one is just
 * the statements (new/begin/end are accepted there too).
 */
int kft_config_parse(struct kft_config *cfg, const char *text, size_t len,
		     unsigned int flags, struct kft_config_error *err)
{
	return kft_config_parse_in(cfg, text, len, flags, NULL, err);
}

int kft_config_parse_in(struct kft_config *cfg, const char *text, size_t len,
			unsigned int flags, struct kft_arena *arena,
			struct kft_config_error *err)
{
	struct kft_lexer lx = {
		.text = text, .p = text, .end = text + len, .line = 1,
	};
	bool dynamic = !(flags & KFT_PARSE_STATIC);
	bool seen_new = false, seen_end = false;
	struct kft_token tok;
	int ret = 0;

	kft_config_init(cfg);
	cfg->arena = arena;
	memset(err, 0, sizeof(*err));
	while (!ret && kft_next(&lx, &tok)) {
		if (seen_end) {
			ret = kft_fail(err, tok.line, &tok, "text after end");
		} else if (kft_tok_is(&tok, "new")) {
			if (seen_new)
				ret = kft_fail(err, tok.line, &tok,
					       "new given twice");
			seen_new = true;
		} else if (dynamic && !seen_new) {
			ret = kft_fail(err, tok.line, &tok,
				       "a config starts with new");
		} else if (kft_tok_is(&tok, "begin")) {
			continue;
		} else if (kft_tok_is(&tok, "end")) {
			seen_end = true;
		} else {
			ret = kft_parse_statement(&lx, &tok, cfg, err);
		}
	}
	/*
	 * A piece of a config (KFT_PARSE_PIECE) may still be waiting for its
	 * end: while no word "end" follows, even an error may be the cut's
	 * (trigger start entry | foo).
	 */
	if ((flags & KFT_PARSE_PIECE) && !seen_end) {
		while (kft_next(&lx, &tok))
			if (kft_tok_is(&tok, "end"))
				seen_end = true;
		if (!seen_end) {
			kft_config_free(cfg);
			return -EAGAIN;
		}
	}
	if (!ret && dynamic && !seen_new)
		ret = kft_fail(err, lx.line, NULL, "empty config");
	if (!ret && dynamic && !seen_end)
		ret = kft_fail(err, lx.line, NULL, "missing end");
	if (!ret)
		ret = kft_config_check(cfg, lx.line, err);
	if (ret) {
		if (ret == -ENOMEM && !err->msg)
			kft_fail(err, lx.line, NULL, "out of memory");
		kft_config_free(cfg);
	}
	return ret;
}

/* One byte as an error shows it; its length. */
static size_t kft_escape_byte(unsigned char c, char *e)
{
	static const char hex[] = "0123456789abcdef";

	if (c == '\\') {
		e[0] = '\\';
		e[1] = '\\';
		return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		e[0] = c;
		return 1;
	}
	e[0] = '\\';
	if (c == '\n' || c == '\t' || c == '\r') {
		e[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
		return 2;
	}
	e[1] = 'x';
	e[2] = hex[c >> 4];
	e[3] = hex[c & 15];
	return 4;
}

/* more: s goes on past len (a token cut short), so "..." ends it. */
static const char *kft_escape(char *buf, size_t size, const char *s,
			      size_t len, bool more)
{
	size_t i, k, n = 0, room;
	char e[4];

	for (i = 0; i < len; i++)
		n += kft_escape_byte(s[i], e);
	/* All of it, or as much as leaves room for "..." and the NUL. */
	more |= n >= size;
	room = more ? size - 4 : size - 1;
	n = 0;
	for (i = 0; i < len; i++) {
		k = kft_escape_byte(s[i], e);
		if (n + k > room)
			break;
		memcpy(buf + n, e, k);
		n += k;
	}
	if (more) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

const char *kft_config_escape(char *buf, size_t size, const char *s,
			      size_t len)
{
	return kft_escape(buf, size, s, len, false);
}

/* What err says, as every front end prints it after its "line N: ". */
const char *kft_config_strerror(const struct kft_config_error *err,
				char *buf, size_t size)
{
	char tok[44];
	size_t n = 0;

	if (err->stmt[0])
		n = snprintf(buf, size, "%s: ", err->stmt);
	if (err->token_len && n < size) {
		kft_escape(tok, sizeof(tok), err->token, err->token_len,
			   err->cut);
		n += snprintf(buf + n, size - n, "'%s': ", tok);
	}
	if (n < size)
		snprintf(buf + n, size - n, "%s", err->msg);
	return buf;
}

/* Does the text hold a config's end: an "end" where a statement may start? */
bool kft_config_complete(const char *text, size_t len, unsigned int flags)
{
	struct kft_config_error err;
	struct kft_config cfg;
	int ret;

	ret = kft_config_parse(&cfg, text, len, flags | KFT_PARSE_PIECE, &err);
	if (!ret)
		kft_config_free(&cfg);
	return ret != -EAGAIN;
}

/* Is the first word, past blanks and comments, "new"? */
bool kft_config_begins(const char *text, size_t len)
{
	struct kft_lexer lx = {
		.text = text, .p = text, .end = text + len, .line = 1,
	};
	struct kft_token tok;

	return kft_next(&lx, &tok) && kft_tok_is(&tok, "new");
}

/*
 * May the text be the first piece of a config: its first word "new", or
 * cut short in it ("n", "ne"), or comments with no word yet?
 */
bool kft_config_may_begin(const char *text, size_t len)
{
	struct kft_lexer lx = {
		.text = text, .p = text, .end = text + len, .line = 1,
	};
	struct kft_token tok;

	if (!kft_next(&lx, &tok))
		return memchr(text, '#', len);
	if (lx.p == lx.end)	/* the word may go on in the next piece */
		return tok.len <= 3 && !memcmp(tok.s, "new", tok.len);
	return kft_tok_is(&tok, "new");
}

/*
 * A config written in pieces: does text[scan->pos, cut) hold the word
 * "end" outside a comment, where cut follows the text's last separator
 * (a write may end inside a word: end|_page_writeback)?  Moves scan->pos
 * to cut, and says in scan->first whether the first word was "new".  Only
 * says when kft_config_parse() is worth trying; it reads each byte once,
 * however many pieces the text comes in.
 */
bool kft_config_scan_end(const char *text, size_t len,
			 struct kft_config_scan *scan)
{
	struct kft_lexer lx = { .text = text, .line = 1 };
	struct kft_token tok;
	const char *line, *p;
	bool found = false;
	size_t cut = len;

	while (cut > scan->pos && !kft_is_sep(text[cut - 1]) &&
	       text[cut - 1] != '\0' && text[cut - 1] != '#')
		cut--;
	lx.p = text + scan->pos;
	lx.end = text + cut;
	/* A comment that ran past the last piece goes on to its newline. */
	if (scan->in_comment)
		while (lx.p < lx.end && !kft_is_eol(*lx.p))
			lx.p++;
	if (!scan->in_comment || lx.p < lx.end) {
		/* On the last line, every '#' starts a comment or is in one. */
		line = lx.p;
		for (p = lx.p; p < lx.end; p++)
			if (kft_is_eol(*p))
				line = p + 1;
		scan->in_comment = memchr(line, '#', lx.end - line);
	}
	while (kft_next(&lx, &tok)) {
		if (!scan->first)
			scan->first = kft_tok_is(&tok, "new") ? 1 : -1;
		if (kft_tok_is(&tok, "end"))
			found = true;
	}
	scan->pos = cut;
	return found;
}

/*
 * A config written in pieces (/proc/kft), text[0, len) so far: -EAGAIN
 * while it has no end, where the last word, cut by the write, counts only
 * once whitespace follows it (or the writer closes the file, and the
 * caller adds a newline); else 0 with cfg parsed, or -EINVAL, err saying
 * why ("text after end": a word the write cut, after the end).
 */
int kft_config_piece(const char *text, size_t len,
		     struct kft_config_scan *scan, struct kft_config *cfg,
		     struct kft_config_error *err)
{
	struct kft_lexer lx = {
		.text = text, .end = text + len, .line = 1,
	};
	struct kft_token tok;
	const char *p;
	int ret;

	if (!kft_config_scan_end(text, len, scan))
		return -EAGAIN;
	ret = kft_config_parse(cfg, text, scan->pos, KFT_PARSE_PIECE, err);
	if (ret || scan->pos == len)
		return ret;
	/* The rest is a word the write cut, after the end. */
	kft_config_free(cfg);
	for (p = text; p < text + scan->pos; p++)
		lx.line += *p == '\n';
	lx.p = text + scan->pos;
	kft_next(&lx, &tok);
	return kft_fail(err, tok.line, &tok, "text after end");
}

static int kft_resolve_one(struct kft_fref *ref, kft_lookup_fn lookup,
			   void *priv, struct kft_config_error *err)
{
	struct kft_token tok;
	int ret;

	if (!ref->name)
		return 0;
	ret = lookup(priv, ref->name, &ref->addr);
	if (!ret)
		return 0;
	tok.s = ref->name;
	tok.len = strlen(ref->name);
	kft_fail(err, ref->line, &tok,
		 ret == -ENOTUNIQ ? "ambiguous function name" :
				    "unknown function");
	return ret;
}

/*
 * A config's function references, in one order for all who walk them:
 * the start and stop triggers', the funclist's, notunder's; NULL past the
 * last.  A trigger on time or no trigger has a reference without a name.
 */
struct kft_fref *kft_config_fref(struct kft_config *cfg, unsigned int i)
{
	if (i < 2)
		return i ? &cfg->stop.fn : &cfg->start.fn;
	i -= 2;
	if (i < cfg->nfuncs)
		return &cfg->funcs[i];
	i -= cfg->nfuncs;
	return i < cfg->nnotunder ? &cfg->notunder[i] : NULL;
}

int kft_config_resolve(struct kft_config *cfg, kft_lookup_fn lookup,
		       void *priv, struct kft_config_error *err)
{
	struct kft_fref *ref;
	unsigned int i;
	int ret = 0;

	memset(err, 0, sizeof(*err));
	for (i = 0; !ret && (ref = kft_config_fref(cfg, i)); i++)
		ret = kft_resolve_one(ref, lookup, priv, err);
	return ret;
}

struct kft_printer {
	char *buf;
	size_t size;
	size_t len;
	kft_name_fn names;
	void *priv;
};

static __printf(2, 3) void kft_out(struct kft_printer *pr, const char *fmt, ...)
{
	size_t room = pr->len < pr->size ? pr->size - pr->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? pr->buf + pr->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		pr->len += n;
}

static void kft_out_fref(struct kft_printer *pr, const struct kft_fref *ref)
{
	char name[KFT_NAME_MAX];
	const char *sym = NULL;

	if (!ref->addr) {
		kft_out(pr, " %s", ref->name);
		return;
	}
	if (pr->names)
		sym = pr->names(pr->priv, ref->addr, name, sizeof(name));
	kft_out(pr, " 0x%lx", ref->addr);
	if (sym)
		kft_out(pr, " # %s", sym);
}

static void kft_out_time(struct kft_printer *pr, u64 ns)
{
	u32 rem;
	u64 us = div_u64_rem(ns, 1000, &rem);

	if (rem)
		kft_out(pr, " %lluns", (unsigned long long)ns);
	else
		kft_out(pr, " %llu", (unsigned long long)us);
}

static void kft_out_trigger(struct kft_printer *pr, const char *which,
			    const struct kft_trigger *t)
{
	static const char *const kinds[] = {
		[KFT_TRIGGER_ENTRY] = "entry",
		[KFT_TRIGGER_EXIT] = "exit",
		[KFT_TRIGGER_TIME] = "time",
	};

	if (t->kind == KFT_TRIGGER_NONE)
		return;
	kft_out(pr, "  trigger %s %s", which, kinds[t->kind]);
	if (t->kind == KFT_TRIGGER_TIME)
		kft_out_time(pr, t->time_ns);
	else
		kft_out_fref(pr, &t->fn);
	kft_out(pr, "\n");
}

size_t kft_config_print(const struct kft_config *cfg, char *buf, size_t size,
			kft_name_fn names, void *priv)
{
	struct kft_printer pr = { buf, size, 0, names, priv };
	unsigned int i;

	if (size)
		buf[0] = '\0';
	kft_out(&pr, "new\nbegin\n");
	kft_out_trigger(&pr, "start", &cfg->start);
	kft_out_trigger(&pr, "stop", &cfg->stop);
	if (cfg->mintime_ns) {
		kft_out(&pr, "  filter mintime");
		kft_out_time(&pr, cfg->mintime_ns);
		kft_out(&pr, "\n");
	}
	if (cfg->maxtime_ns) {
		kft_out(&pr, "  filter maxtime");
		kft_out_time(&pr, cfg->maxtime_ns);
		kft_out(&pr, "\n");
	}
	if (cfg->noints)
		kft_out(&pr, "  filter noints\n");
	if (cfg->onlyints)
		kft_out(&pr, "  filter onlyints\n");
	if (cfg->nfuncs) {
		kft_out(&pr, "  filter funclist\n");
		for (i = 0; i < cfg->nfuncs; i++) {
			kft_out(&pr, "   ");
			kft_out_fref(&pr, &cfg->funcs[i]);
			kft_out(&pr, "\n");
		}
		kft_out(&pr, "  fend\n");
	}
	if (cfg->pid_set)
		kft_out(&pr, "  filter pid %u\n", cfg->pid);
	if (cfg->comm[0])
		kft_out(&pr, "  filter comm %s\n", cfg->comm);
	if (cfg->children)
		kft_out(&pr, "  filter children\n");
	if (cfg->depth_set)
		kft_out(&pr, "  filter depth %u\n", cfg->depth);
	for (i = 0; i < cfg->nnotunder; i++) {
		kft_out(&pr, "  filter notunder");
		kft_out_fref(&pr, &cfg->notunder[i]);
		kft_out(&pr, "\n");
	}
	kft_out(&pr, "  logentries %lu\n", cfg->logentries);
	if (cfg->autorepeat)
		kft_out(&pr, "  autorepeat\n");
	if (cfg->watch != KFT_WATCH_NONE)
		kft_out(&pr, "  watch %s %lu\n",
			cfg->watch == KFT_WATCH_STACK ? "stack" : "worst-stack",
			cfg->watch_bytes);
	kft_out(&pr, "end\n");
	return pr.len;
}
