// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the KFT config language: kernel/kft_config.c compiled as
 * it is, against scripts/kft/include.  Every statement, the round trip
 * through kft_config_print(), name resolution, and a table of bad configs
 * with the error each must give.
 */
#include <linux/kernel.h>
#include <stdlib.h>
#include <string.h>

#include "kft_config.h"
#include "tap.h"

static int parse(struct kft_config *cfg, const char *text,
		 struct kft_config_error *err)
{
	return kft_config_parse(cfg, text, strlen(text), 0, err);
}

static void test_full_config(void)
{
	static const char text[] =
		"# a comment\n"
		"new\n"
		"begin\n"
		"  trigger start entry 0xffffffff81001000   # the start\n"
		"  trigger stop time 5ms\n"
		"  filter mintime 10\n"
		"  filter maxtime 400\n"
		"  filter noints\n"
		"  filter funclist do_fork 0xffffffff81002000 sys_read fend\n"
		"  logentries 500\n"
		"  autorepeat\n"
		"  watch worst-stack 4096\n"
		"end\n";
	struct kft_config_error err;
	struct kft_config cfg;
	int ret = parse(&cfg, text, &err);

	tap_ok(ret == 0, "full config parses (%s)", ret ? err.msg : "ok");
	tap_ok(cfg.start.kind == KFT_TRIGGER_ENTRY &&
	       cfg.start.fn.addr == 0xffffffff81001000UL &&
	       !cfg.start.fn.name, "trigger start entry by address");
	tap_ok(cfg.stop.kind == KFT_TRIGGER_TIME &&
	       cfg.stop.time_ns == 5000000, "trigger stop time with ms suffix");
	tap_ok(cfg.mintime_ns == 10000 && cfg.maxtime_ns == 400000,
	       "bare times are microseconds");
	tap_ok(cfg.noints && !cfg.onlyints, "filter noints");
	tap_ok(cfg.nfuncs == 3 && !strcmp(cfg.funcs[0].name, "do_fork") &&
	       cfg.funcs[1].addr == 0xffffffff81002000UL &&
	       !strcmp(cfg.funcs[2].name, "sys_read"),
	       "funclist keeps names and addresses in order");
	tap_ok(cfg.logentries == 500, "logentries");
	tap_ok(cfg.autorepeat, "autorepeat");
	tap_ok(cfg.watch == KFT_WATCH_WORST_STACK && cfg.watch_bytes == 4096,
	       "watch worst-stack");
	tap_ok(cfg.funcs[0].line == 9 &&
	       !strncmp(text + cfg.funcs[0].offset, "do_fork",
			cfg.funcs[0].len), "names remember line and place");
	kft_config_free(&cfg);
}

static int fake_lookup(void *priv, const char *name, unsigned long *addr)
{
	(void)priv;
	if (!strcmp(name, "dup"))
		return -ENOTUNIQ;
	if (!strcmp(name, "missing"))
		return -ENOENT;
	*addr = 0xffffffff80000000UL + strlen(name);
	return 0;
}

static const char *fake_name(void *priv, unsigned long addr, char *buf,
			     size_t size)
{
	(void)priv;
	snprintf(buf, size, "fn_%lx", addr & 0xfff);
	return buf;
}

static void test_resolve_and_round_trip(void)
{
	struct kft_config cfg, again;
	struct kft_config_error err;
	char out[1024], out2[1024];
	size_t need;

	parse(&cfg, "new trigger start entry start_kernel trigger stop exit "
		    "to_userspace filter mintime 1500ns filter onlyints "
		    "filter funclist a bb fend logentries 7 end", &err);
	tap_ok(kft_config_resolve(&cfg, fake_lookup, NULL, &err) == 0 &&
	       cfg.start.fn.addr == 0xffffffff8000000cUL &&
	       cfg.funcs[1].addr == 0xffffffff80000002UL,
	       "names resolve through the lookup");
	need = kft_config_print(&cfg, out, sizeof(out), fake_name, NULL);
	tap_ok(need == strlen(out), "print returns its length");
	tap_ok(kft_config_print(&cfg, NULL, 0, NULL, NULL) > 0,
	       "print can measure without a buffer");
	tap_ok(strstr(out, "filter mintime 1500ns") != NULL,
	       "sub-microsecond time printed with its unit");
	tap_ok(parse(&again, out, &err) == 0, "printed config parses back");
	kft_config_print(&again, out2, sizeof(out2), fake_name, NULL);
	tap_ok(!strcmp(out, out2), "round trip is exact");
	tap_ok(again.mintime_ns == 1500 && again.onlyints &&
	       again.logentries == 7 && again.nfuncs == 2,
	       "round trip keeps every setting");
	kft_config_free(&cfg);
	kft_config_free(&again);

	parse(&cfg, "new trigger start entry dup end", &err);
	tap_ok(kft_config_resolve(&cfg, fake_lookup, NULL, &err) == -ENOTUNIQ &&
	       !strcmp(err.token, "dup") &&
	       !strcmp(err.msg, "ambiguous function name"),
	       "ambiguous name is named in the error");
	kft_config_free(&cfg);
	parse(&cfg, "new\nfilter funclist a\n missing fend end", &err);
	tap_ok(kft_config_resolve(&cfg, fake_lookup, NULL, &err) == -ENOENT &&
	       err.line == 3 && !strcmp(err.msg, "unknown function"),
	       "unknown name: error gives its line");
	kft_config_free(&cfg);
}

/* Scoped runs: which tasks, how deep, which subtrees left out. */
static void test_scope(void)
{
	struct kft_config cfg, again;
	struct kft_config_error err;
	char out[1024], out2[1024];
	int ret;

	ret = parse(&cfg, "new filter pid 4194304 filter comm kworker/0:1H "
			  "filter children filter depth 0 filter notunder "
			  "do_filp_open filter notunder 0xffffffff81000010 end",
		    &err);
	tap_ok(ret == 0 && cfg.pid_set && cfg.pid == 4194304 &&
	       !strcmp(cfg.comm, "kworker/0:1H") && cfg.children &&
	       cfg.depth_set && cfg.depth == 0 && cfg.nnotunder == 2 &&
	       !strcmp(cfg.notunder[0].name, "do_filp_open") &&
	       cfg.notunder[1].addr == 0xffffffff81000010UL,
	       "scope: pid, comm, children, depth 0, two notunder (%s)",
	       ret ? err.msg : "ok");
	tap_ok(kft_config_resolve(&cfg, fake_lookup, NULL, &err) == 0 &&
	       cfg.notunder[0].addr == 0xffffffff8000000cUL,
	       "scope: notunder names resolve");
	kft_config_print(&cfg, out, sizeof(out), NULL, NULL);
	tap_ok(parse(&again, out, &err) == 0, "scope: printed config parses back");
	kft_config_print(&again, out2, sizeof(out2), NULL, NULL);
	tap_ok(!strcmp(out, out2) && strstr(out, "  filter pid 4194304\n") &&
	       strstr(out, "  filter comm kworker/0:1H\n") &&
	       strstr(out, "  filter children\n") &&
	       strstr(out, "  filter depth 0\n") &&
	       strstr(out, "  filter notunder 0xffffffff8000000c\n"),
	       "scope: round trip exact");
	kft_config_free(&cfg);
	kft_config_free(&again);
	ret = parse(&cfg, "new filter notunder missing end", &err);
	tap_ok(ret == 0 && kft_config_resolve(&cfg, fake_lookup, NULL, &err) == -ENOENT &&
	       !strcmp(err.token, "missing"),
	       "scope: an unknown notunder function is named");
	kft_config_free(&cfg);
	ret = parse(&cfg, "new filter pid 0 filter depth 65535 end", &err);
	tap_ok(ret == 0 && cfg.pid_set && !cfg.pid && cfg.depth == 65535 &&
	       !cfg.comm[0] && !cfg.children && !cfg.nnotunder,
	       "scope: pid 0 (the idle tasks) is a pid, depth at its bound");
	kft_config_free(&cfg);
}

static void test_static_form(void)
{
	struct kft_config_error err;
	struct kft_config cfg;
	static const char text[] =
		"trigger start entry start_kernel\n"
		"trigger stop entry to_userspace\n"
		"filter funclist schedule, do_fork\n"
		"filter mintime 500\n";
	int ret = kft_config_parse(&cfg, text, strlen(text),
				   KFT_PARSE_STATIC, &err);

	tap_ok(ret == 0 && cfg.nfuncs == 2 && cfg.mintime_ns == 500000,
	       "static form: no new/end, commas, funclist without fend");
	kft_config_free(&cfg);
	tap_ok(kft_config_complete("new\nbegin\n", 10, 0) == false &&
	       kft_config_complete("new # end\n", 10, 0) == false &&
	       kft_config_complete("new\nend\n", 8, 0) == true,
	       "config_complete finds end outside comments");
}

static void test_times(void)
{
	u64 ns;

	tap_ok(!kft_parse_time("7", &ns) && ns == 7000, "time: bare us");
	tap_ok(!kft_parse_time("7ns", &ns) && ns == 7, "time: ns");
	tap_ok(!kft_parse_time("7us", &ns) && ns == 7000, "time: us");
	tap_ok(!kft_parse_time("7ms", &ns) && ns == 7000000, "time: ms");
	tap_ok(!kft_parse_time("7s", &ns) && ns == 7000000000ULL, "time: s");
	tap_ok(kft_parse_time("99999999999999999999", &ns) != 0,
	       "time: overflow refused");
	tap_ok(kft_parse_time("18446744073709551s", &ns) == -ERANGE,
	       "time: overflow in unit refused");
}

/* Bad configs: each must fail, at the right line, with the right words. */
static const struct {
	const char *text;
	unsigned int line;
	const char *msg;
} bad[] = {
	{ "", 1, "empty config" },
	{ "   \n# only a comment\n", 3, "empty config" },
	{ "begin end", 1, "a config starts with new" },
	{ "trigger start entry 0x10 end", 1, "a config starts with new" },
	{ "new", 1, "missing end" },
	{ "new begin trigger start entry 0x10", 1, "missing end" },
	{ "new new end", 1, "new given twice" },
	{ "new end end", 1, "text after end" },
	{ "new end trigger", 1, "text after end" },
	{ "new bogus end", 1, "unknown keyword" },
	{ "new\n\nfrobnicate\nend", 3, "unknown keyword" },
	{ "new trigger", 1, "missing start or stop" },
	{ "new trigger begin 0x1 end", 1, "missing start or stop" },
	{ "new trigger now 0x1 end", 1, "expected start or stop" },
	{ "new trigger start", 1, "missing entry, exit or time" },
	{ "new trigger start enter 0x10 end", 1, "expected entry, exit or time" },
	{ "new trigger start entry", 1, "missing function" },
	{ "new trigger start entry 0x end", 1, "bad function address" },
	{ "new trigger start entry 0xzz end", 1, "bad function address" },
	{ "new trigger start entry 0x0 end", 1, "bad function address" },
	{ "new trigger start entry 0x1ffffffffffffffff end", 1, "bad function address" },
	{ "new trigger start entry 1234 end", 1, "function must be a name or a 0x address" },
	{ "new trigger start entry foo-bar end", 1, "bad function name" },
	{ "new trigger start entry foo/bar end", 1, "bad function name" },
	{ "new trigger start entry "
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  " end", 1, "function name too long" },
	{ "new trigger start entry a trigger start exit b end", 1, "trigger given twice" },
	{ "new trigger stop time 1 trigger stop time 2 end", 1, "trigger given twice" },
	{ "new trigger start time end", 1, "missing time" },
	{ "new trigger start time", 1, "missing time" },
	{ "new trigger stop time -5 end", 1, "bad time (microseconds, or a number with ns/us/ms/s)" },
	{ "new trigger stop time 5m end", 1, "bad time (microseconds, or a number with ns/us/ms/s)" },
	{ "new trigger stop time 5.5 end", 1, "bad time (microseconds, or a number with ns/us/ms/s)" },
	{ "new trigger stop time ms end", 1, "bad time (microseconds, or a number with ns/us/ms/s)" },
	{ "new trigger stop time 99999999999999999999999 end", 1, "bad time (microseconds, or a number with ns/us/ms/s)" },
	{ "new filter", 1, "missing filter kind" },
	{ "new filter everything end", 1, "expected mintime, maxtime, noints, onlyints, funclist, pid, comm, children, depth or notunder" },
	{ "new filter pid end", 1, "missing number" },
	{ "new filter pid -1 end", 1, "bad number" },
	{ "new filter pid 4194305 end", 1, "pid must be 0..4194304" },
	{ "new filter pid 99999999999999999999999 end", 1, "bad number" },
	{ "new filter pid 1\nfilter pid 2 end", 2, "pid given twice" },
	{ "new filter depth 65536 end", 1, "depth must be 0..65535" },
	{ "new filter depth 1 filter depth 1 end", 1, "depth given twice" },
	{ "new filter comm", 1, "missing task name" },
	{ "new filter comm abcdefghijklmnop end", 1, "task name longer than 15 characters" },
	{ "new filter comm a\x01b end", 1, "task name with a byte that is not printable" },
	{ "new filter comm sh\nfilter comm sh end", 2, "comm given twice" },
	{ "new filter notunder end", 1, "missing function" },
	{ "new filter notunder 1abc end", 1, "function must be a name or a 0x address" },
	{ "new filter notunder a filter notunder b filter notunder c filter notunder d filter notunder e filter notunder f filter notunder g filter notunder h filter notunder i end", 1, "more than 8 notunder functions" },
	{ "new filter mintime", 1, "missing time" },
	{ "new filter mintime abc end", 1, "bad time (microseconds, or a number with ns/us/ms/s)" },
	{ "new filter maxtime 1x end", 1, "bad time (microseconds, or a number with ns/us/ms/s)" },
	{ "new filter noints filter onlyints end", 1, "noints and onlyints exclude each other" },
	{ "new filter mintime 10 filter maxtime 5 end", 1, "maxtime is below mintime" },
	{ "new filter funclist fend end", 1, "empty funclist" },
	{ "new filter funclist end", 1, "empty funclist" },
	{ "new filter funclist a fend filter funclist b fend end", 1, "funclist given twice" },
	{ "new filter funclist a 99 fend end", 1, "function must be a name or a 0x address" },
	{ "new filter funclist a b@c fend end", 1, "bad function name" },
	{ "new logentries end", 1, "missing number" },
	{ "new logentries", 1, "missing number" },
	{ "new logentries 0 end", 1, "logentries must be 1..16777216" },
	{ "new logentries 16777217 end", 1, "logentries must be 1..16777216" },
	{ "new logentries -1 end", 1, "bad number" },
	{ "new logentries 12ab end", 1, "bad number" },
	{ "new logentries 0x100 end", 1, "bad number" },
	{ "new logentries 99999999999999999999999 end", 1, "bad number" },
	{ "new watch", 1, "missing stack or worst-stack" },
	{ "new watch heap 10 end", 1, "expected stack or worst-stack" },
	{ "new watch stack end", 1, "missing number" },
	{ "new watch stack 0 end", 1, "stack threshold out of range" },
	{ "new watch stack 99999999 end", 1, "stack threshold out of range" },
	{ "new\nbegin\n  filter mintime 10\n  trigger stop exit\nend", 4, "missing function" },
	{ "new autorepeat autorepeat2 end", 1, "unknown keyword" },
	{ "new fend end", 1, "unknown keyword" },
};

static void test_bad_configs(void)
{
	struct kft_config_error err;
	struct kft_config cfg;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret = parse(&cfg, bad[i].text, &err);

		tap_ok(ret == -EINVAL && err.line == bad[i].line && err.msg &&
		       !strcmp(err.msg, bad[i].msg) && cfg.nfuncs == 0 &&
		       !cfg.funcs,
		       "bad config %u refused at line %u: %s (got %d, line %u: %s)",
		       i, bad[i].line, bad[i].msg, ret, err.line,
		       err.msg ? err.msg : "-");
	}
	tap_ok(ARRAY_SIZE(bad) >= 50, "at least 50 bad configs (%zu)",
	       ARRAY_SIZE(bad));
}

static void test_nul_and_long_input(void)
{
	struct kft_config_error err;
	struct kft_config cfg;
	size_t n = 3000, i, len = 0;
	char *text = malloc(n * 16 + 64);

	len += sprintf(text, "new filter funclist");
	for (i = 0; i < n; i++)
		len += sprintf(text + len, " f%zu", i);
	len += sprintf(text + len, " fend end");
	tap_ok(kft_config_parse(&cfg, text, len, 0, &err) == 0 &&
	       cfg.nfuncs == n, "funclist of %zu names in %zu bytes", n, len);
	kft_config_free(&cfg);
	free(text);
	tap_ok(kft_config_parse(&cfg, "new\0 end", 8, 0, &err) == 0,
	       "NUL bytes are separators, not terminators");
	kft_config_free(&cfg);
}

/* Boot runs parse before kmalloc() works: all memory from an arena. */
static void test_arena(void)
{
	static const char text[] =
		"trigger start entry start_kernel\n"
		"trigger stop entry to_userspace\n"
		"filter funclist a b c d e f g h i j k l m n o p q r s t u v w\n";
	static char mem[4096];
	struct kft_arena arena = { .base = mem, .size = sizeof(mem) };
	struct kft_arena tiny = { .base = mem, .size = 200 };
	struct kft_config_error err;
	struct kft_config cfg;
	int ret;

	ret = kft_config_parse_in(&cfg, text, strlen(text), KFT_PARSE_STATIC,
				  &arena, &err);
	tap_ok(ret == 0 && cfg.nfuncs == 23 &&
	       !strcmp(cfg.funcs[22].name, "w") &&
	       !strcmp(cfg.stop.fn.name, "to_userspace"),
	       "arena parse: 23 functions and both triggers");
	tap_ok((char *)cfg.funcs >= mem && (char *)cfg.funcs < mem + sizeof(mem) &&
	       cfg.start.fn.name >= mem && cfg.start.fn.name < mem + sizeof(mem),
	       "arena parse: the config lives in the arena");
	tap_ok(arena.used > 0 && arena.used <= sizeof(mem),
	       "arena parse: %zu of %zu bytes used", arena.used, sizeof(mem));
	kft_config_free(&cfg);	/* must not free() arena memory (ASan) */
	tap_ok(cfg.nfuncs == 0 && !cfg.funcs && !cfg.arena,
	       "freeing an arena config empties it");

	ret = kft_config_parse_in(&cfg, text, strlen(text), KFT_PARSE_STATIC,
				  &tiny, &err);
	tap_ok(ret == -ENOMEM && err.msg && !strcmp(err.msg, "out of memory") &&
	       tiny.used <= tiny.size,
	       "a full arena is 'out of memory' (line %u), within its size",
	       err.line);
}

/* A case a loop found wrong, as a TAP comment. */
static void tap_diag(const char *text, const char *got, const char *want)
{
	char esc[128];

	printf("# %s: got \"%s\", want \"%s\"\n",
	       kft_config_escape(esc, sizeof(esc), text, strlen(text)), got,
	       want);
}

/* The error as /proc/kft, mkkftrun and sym2addr print it, or "ok". */
static const char *error_of(const char *text, size_t len, unsigned int flags,
			    char *buf, size_t size)
{
	struct kft_config_error err;
	struct kft_config cfg;
	int ret = kft_config_parse(&cfg, text, len, flags, &err);

	if (!ret) {
		kft_config_free(&cfg);
		return "ok";
	}
	if (ret == -EAGAIN)
		return "EAGAIN";
	snprintf(buf, size, "line %u: ", err.line);
	kft_config_strerror(&err, buf + strlen(buf), size - strlen(buf));
	return buf;
}

/*
 * Every statement with a value, the value missing: an error naming the
 * statement, wherever the next statement or the end follows, and as
 * /proc/kft parses a config in pieces: refused at its end, not waiting for
 * another end (before: "filter pid end" took end for the pid, and the
 * write returned success with nothing said).
 */
static void test_missing_values(void)
{
	static const struct {
		const char *stmt, *error;
	} missing[] = {
		{ "trigger", "trigger: missing start or stop" },
		{ "trigger start", "trigger start: missing entry, exit or time" },
		{ "trigger stop", "trigger stop: missing entry, exit or time" },
		{ "trigger start entry", "trigger start entry: missing function" },
		{ "trigger start exit", "trigger start exit: missing function" },
		{ "trigger stop entry", "trigger stop entry: missing function" },
		{ "trigger stop exit", "trigger stop exit: missing function" },
		{ "trigger start time", "trigger start time: missing time" },
		{ "trigger stop time", "trigger stop time: missing time" },
		{ "filter", "filter: missing filter kind" },
		{ "filter mintime", "filter mintime: missing time" },
		{ "filter maxtime", "filter maxtime: missing time" },
		{ "filter funclist", "filter funclist: empty funclist" },
		{ "filter pid", "filter pid: missing number" },
		{ "filter depth", "filter depth: missing number" },
		{ "filter comm", "filter comm: missing task name" },
		{ "filter notunder", "filter notunder: missing function" },
		{ "logentries", "logentries: missing number" },
		{ "watch", "watch: missing stack or worst-stack" },
		{ "watch stack", "watch stack: missing number" },
		{ "watch worst-stack", "watch worst-stack: missing number" },
	};
	/* What may follow: the end, or another statement. */
	static const char *const next[] = {
		"end", "filter noints\nend", "trigger stop time 5\nend",
		"watch stack 100\nend", "autorepeat end", "new end",
		"begin end", "logentries 5 end",
	};
	char text[160], want[96], buf[KFT_ERROR_LEN + 16];
	unsigned int i, j, bad = 0;
	const char *got;

	for (i = 0; i < ARRAY_SIZE(missing); i++) {
		for (j = 0; j < ARRAY_SIZE(next); j++) {
			/* (a statement named twice is another error) */
			if (!strncmp(missing[i].stmt, next[j], 7))
				continue;
			snprintf(text, sizeof(text), "new\n%s\n%s\n",
				 missing[i].stmt, next[j]);
			snprintf(want, sizeof(want), "line 2: %s",
				 missing[i].error);
			got = error_of(text, strlen(text), 0, buf, sizeof(buf));
			if (strcmp(got, want)) {
				bad++;
				tap_diag(text, got, want);
			}
			got = error_of(text, strlen(text), KFT_PARSE_PIECE,
				       buf, sizeof(buf));
			if (strcmp(got, want)) {
				bad++;
				tap_diag(text, got, want);
			}
		}
		/* The end of the text, and the static form (mkkftrun). */
		snprintf(text, sizeof(text), "%s\n", missing[i].stmt);
		snprintf(want, sizeof(want), "line 1: %s", missing[i].error);
		got = error_of(text, strlen(text), KFT_PARSE_STATIC, buf,
			       sizeof(buf));
		if (strcmp(got, want)) {
			bad++;
			tap_diag(text, got, want);
		}
	}
	tap_ok(!bad, "missing values: %zu statements, each followed by end or another statement, refused naming the statement, also in pieces (%u wrong)",
	       ARRAY_SIZE(missing), bad);
	got = error_of("new\nfilter pid end", 19, KFT_PARSE_PIECE, buf,
		       sizeof(buf));
	tap_ok(!strcmp(got, "line 2: filter pid: missing number"),
	       "missing values: 'filter pid end' in pieces is refused at that end (%s)",
	       got);
	got = error_of("new\nfilter comm filter noints\nend\n", 34, 0, buf,
		       sizeof(buf));
	tap_ok(!strcmp(got, "line 2: filter comm: missing task name"),
	       "missing values: a keyword is no task name ('filter comm filter noints': %s)",
	       got);
}

/* A value and more words on its line: the error gives them all. */
static void test_extra_words(void)
{
	static const struct {
		const char *text, *error;
	} extra[] = {
		{ "new\nfilter comm my prog\nend\n",
		  "line 2: filter comm: 'my prog': a task name is one word" },
		{ "new\nfilter comm my\tprog  x\nend\n",
		  "line 2: filter comm: 'my\\tprog  x': a task name is one word" },
		{ "new\nfilter comm my,prog\nend\n",
		  "line 2: filter comm: 'my,prog': a task name is one word" },
		{ "new\nfilter comm my prog filter noints\nend\n",
		  "line 2: filter comm: 'my prog': a task name is one word" },
		{ "new\nfilter pid 1 2\nend\n",
		  "line 2: filter pid: '1 2': one number only" },
		{ "new\nfilter depth 3 4 end\n",
		  "line 2: filter depth: '3 4': one number only" },
		{ "new\nlogentries 5 6\nend\n",
		  "line 2: logentries: '5 6': one number only" },
		{ "new\nwatch stack 10 20\nend\n",
		  "line 2: watch stack: '10 20': one number only" },
		{ "new\nfilter mintime 10 20\nend\n",
		  "line 2: filter mintime: '10 20': one time only" },
		{ "new\ntrigger stop time 1ms 2ms\nend\n",
		  "line 2: trigger stop time: '1ms 2ms': one time only" },
		{ "new\ntrigger start entry foo bar\nend\n",
		  "line 2: trigger start entry: 'foo bar': one function only (a funclist takes many)" },
		{ "new\nfilter notunder a b\nend\n",
		  "line 2: filter notunder: 'a b': one function only (a funclist takes many)" },
		/* A word on the next line is a statement of its own. */
		{ "new\nfilter comm my\nprog\nend\n",
		  "line 3: 'prog': unknown keyword" },
		/* Bad values name their statement too. */
		{ "new\nfilter pid x\nend\n", "line 2: filter pid: 'x': bad number" },
		{ "new\nfilter comm abcdefghijklmnop\nend\n",
		  "line 2: filter comm: 'abcdefghijklmnop': task name longer than 15 characters" },
		{ "new\ntrigger stop exit 12\nend\n",
		  "line 2: trigger stop exit: '12': function must be a name or a 0x address" },
		{ "new\nfilter funclist a b@c\nend\n",
		  "line 2: filter funclist: 'b@c': bad function name" },
	};
	char buf[KFT_ERROR_LEN + 16];
	unsigned int i;
	const char *got;

	for (i = 0; i < ARRAY_SIZE(extra); i++) {
		got = error_of(extra[i].text, strlen(extra[i].text), 0, buf,
			       sizeof(buf));
		tap_ok(!strcmp(got, extra[i].error),
		       "values: error %u is \"%s\" (got \"%s\")", i,
		       extra[i].error, got);
	}
	got = error_of("new\nfilter comm my\0prog\nend\n", 26, 0, buf,
		       sizeof(buf));
	tap_ok(!strcmp(got, "line 2: filter comm: 'my\\x00prog': a task name is one word"),
	       "values: a NUL between the words is shown, not cut at (%s)", got);
}

/*
 * /proc/kft's writes, as kft_proc.c feeds them to kft_config_piece(): the
 * text so far after each write; "" stands for closing the file (a newline
 * added).  The result after the last, as error_of() gives it.
 */
static const char *piece_result(const char *const *writes, unsigned int n,
				char *buf, size_t size, struct kft_config *cfg)
{
	struct kft_config_scan scan = { 0 };
	struct kft_config_error err;
	static char text[512];
	size_t len = 0;
	unsigned int i;
	int ret = -EAGAIN;

	for (i = 0; i < n && ret == -EAGAIN; i++) {
		const char *w = writes[i][0] ? writes[i] : "\n";

		memcpy(text + len, w, strlen(w));
		len += strlen(w);
		ret = kft_config_piece(text, len, &scan, cfg, &err);
	}
	if (ret == -EAGAIN)
		return i < n ? "EAGAIN before the last write" : "EAGAIN";
	if (i < n)
		return "ended before the last write";
	if (!ret)
		return "ok";
	snprintf(buf, size, "line %u: ", err.line);
	kft_config_strerror(&err, buf + strlen(buf), size - strlen(buf));
	return buf;
}

/* A write that ends inside a word leaves it pending, "end" included. */
static void test_piece_writes(void)
{
	static const char *const cut_end[] = {
		"new\nfilter funclist getname end", "_page_writeback\nend\n",
	};
	static const char *const cut_end_closed[] = {
		"new\nfilter funclist getname end", "",
	};
	static const char *const cut_end_only[] = {
		"new\nfilter mintime 9\nend",
	};
	static const char *const missing[] = {
		"new\nfilter pid ", "end", "\n",
	};
	static const char *const after[] = {
		"new\nfilter mintime 9\nend\n\x1b[2J",
	};
	static const char *const after_closed[] = {
		"new\nfilter mintime 9\nend\nprime",
	};
	char buf[KFT_ERROR_LEN + 16];
	struct kft_config cfg;
	const char *got;

	got = piece_result(cut_end, 2, buf, sizeof(buf), &cfg);
	tap_ok(!strcmp(got, "ok") && cfg.nfuncs == 2 &&
	       !strcmp(cfg.funcs[1].name, "end_page_writeback"),
	       "piece writes: '... getname end' then '_page_writeback': a funclist of getname, end_page_writeback (%s)",
	       got);
	if (!strcmp(got, "ok"))
		kft_config_free(&cfg);
	got = piece_result(cut_end_closed, 2, buf, sizeof(buf), &cfg);
	tap_ok(!strcmp(got, "ok") && cfg.nfuncs == 1,
	       "piece writes: ... and the file closed after 'end': the config ends there (%s)",
	       got);
	if (!strcmp(got, "ok"))
		kft_config_free(&cfg);
	got = piece_result(cut_end_only, 1, buf, sizeof(buf), &cfg);
	tap_ok(!strcmp(got, "EAGAIN"),
	       "piece writes: a write ending in 'end' without whitespace leaves it pending (%s)",
	       got);
	got = piece_result(missing, 3, buf, sizeof(buf), &cfg);
	tap_ok(!strcmp(got, "line 2: filter pid: missing number"),
	       "piece writes: 'filter pid ' then 'end', then a newline: refused naming the statement (%s)",
	       got);
	got = piece_result(after, 1, buf, sizeof(buf), &cfg);
	tap_ok(!strcmp(got, "line 4: '\\x1b[2J': text after end"),
	       "piece writes: a word after end in its write: text after end, escaped, with its line (%s)",
	       got);
	got = piece_result(after_closed, 1, buf, sizeof(buf), &cfg);
	tap_ok(!strcmp(got, "line 4: 'prime': text after end"),
	       "piece writes: ... a command after end is not carried out (%s)",
	       got);
}

/* The user's bytes in errors are escaped: one line, no terminal codes. */
static void test_escaped_errors(void)
{
	char buf[KFT_ERROR_LEN + 16], text[256], esc[64];
	const char *got;
	size_t i, n;
	bool clean = true;

	tap_ok(!strcmp(kft_config_escape(esc, sizeof(esc), "a\nb\tc\rd\\e\x1b\x7f\xff", 12),
		       "a\\nb\\tc\\rd\\\\e\\x1b\\x7f\\xff"),
	       "escape: newline, tab, CR, backslash, ESC, DEL, 0xff (%s)", esc);
	tap_ok(!strcmp(kft_config_escape(esc, 8, "abcdefghij", 10), "abcd...") &&
	       !strcmp(kft_config_escape(esc, 8, "abcdefg", 7), "abcdefg") &&
	       !strcmp(kft_config_escape(esc, 8, "ab\x1b\x1b", 4), "ab...") &&
	       !strcmp(kft_config_escape(esc, 4, "", 0), ""),
	       "escape: what does not fit ends in ..., an escape is never split");
	got = error_of("new\nfoo\x1b[31mbar\nend\n", 18, 0, buf, sizeof(buf));
	tap_ok(!strcmp(got, "line 2: 'foo\\x1b[31mbar': unknown keyword"),
	       "escape: ESC in an unknown keyword (%s)", got);
	got = error_of("new\nfilter comm a\x01\x1b\nend\n", 21, 0, buf, sizeof(buf));
	tap_ok(!strcmp(got, "line 2: filter comm: 'a\\x01\\x1b': task name with a byte that is not printable"),
	       "escape: control bytes in a task name (%s)", got);
	got = error_of("new\nend \\x\xc3\xa9\n", 14, 0, buf, sizeof(buf));
	tap_ok(!strcmp(got, "line 2: '\\\\x\\xc3\\xa9': text after end"),
	       "escape: a backslash doubled, UTF-8 as bytes (%s)", got);
	/* The longest token, every byte escaped: cut, marked, one line. */
	n = snprintf(text, sizeof(text), "new\ntrigger start entry ");
	for (i = 0; i < 100; i++)
		text[n++] = 0x1b;
	n += snprintf(text + n, sizeof(text) - n, "\nend\n");
	got = error_of(text, n, 0, buf, sizeof(buf));
	for (i = 0; got[i]; i++)
		clean &= got[i] >= 0x20 && got[i] < 0x7f;
	tap_ok(clean && strlen(got) < KFT_ERROR_LEN + 8 &&
	       strstr(got, "\\x1b...': bad function name"),
	       "escape: 100 ESC bytes, cut with ... and printable (%s)", got);
	n = snprintf(text, sizeof(text), "new\n");
	for (i = 0; i < 60; i++)
		text[n++] = 'a' + i % 26;
	n += snprintf(text + n, sizeof(text) - n, " end\n");
	got = error_of(text, n, 0, buf, sizeof(buf));
	tap_ok(!strcmp(got, "line 2: 'abcdefghijklmnopqrstuvwxyzabcdefghijklmn...': unknown keyword"),
	       "escape: a token longer than the error holds ends in ... (%s)", got);
}

/* Feeds text to kft_config_scan_end() in pieces of n bytes: where is end? */
static size_t scan_in_pieces(const char *text, size_t n)
{
	struct kft_config_scan scan = { 0 };
	size_t len = 0, total = strlen(text);

	while (len < total) {
		len = len + n < total ? len + n : total;
		if (kft_config_scan_end(text, len, &scan) &&
		    kft_config_complete(text, scan.pos, 0))
			return scan.pos;
	}
	return 0;
}

/* Configs in pieces (/proc/kft): where they end, wherever a write splits. */
static void test_pieces(void)
{
	static const char comm_end[] =
		"new\nfilter comm endless\ntrigger start entry a\nend\n";
	static const char funcs[] =
		"new\nfilter funclist end_page_writeback endless fend\nend\n";
	static const char comments[] =
		"# end of the old run; a new one\nnew # end\n#end\nend\n";
	struct kft_config_error err;
	struct kft_config cfg;
	size_t n, bad = 0;

	tap_ok(kft_config_complete(comm_end, strlen(comm_end), 0) &&
	       !kft_config_complete(comm_end, strlen("new\nfilter comm endless\n"), 0),
	       "pieces: 'filter comm endless' names a task, it does not end the config");
	tap_ok(kft_config_parse(&cfg, comm_end, strlen(comm_end), 0, &err) == 0 &&
	       !strcmp(cfg.comm, "endless"), "pieces: ... and the task is called endless");
	kft_config_free(&cfg);
	for (n = 1; n <= sizeof(funcs); n++)
		bad += scan_in_pieces(funcs, n) != strlen(funcs);
	tap_ok(!bad, "pieces: end_page_writeback split after 'end' at every write size: the config ends at its end");
	bad = 0;
	for (n = 1; n <= sizeof(comm_end); n++)
		bad += scan_in_pieces(comm_end, n) != strlen(comm_end);
	tap_ok(!bad, "pieces: filter comm endless, at every write size");
	bad = 0;
	for (n = 1; n <= sizeof(comments); n++)
		bad += scan_in_pieces(comments, n) != strlen(comments);
	tap_ok(!bad, "pieces: 'end' in comments, at every write size");
	tap_ok(scan_in_pieces("new\nend", 3) == 0,
	       "pieces: an end that may go on in the next write is not yet the end");
	tap_ok(kft_config_begins(comments, strlen(comments)) &&
	       kft_config_begins(" ,\n new", 8) &&
	       !kft_config_begins("newt", 4) && !kft_config_begins("# new", 5),
	       "pieces: a config's first word past comments is new");
	tap_ok(kft_config_may_begin("n", 1) && kft_config_may_begin(" ne", 3) &&
	       kft_config_may_begin("new", 3) && kft_config_may_begin("# x\n", 4) &&
	       kft_config_may_begin("# x\nnew\n", 8) &&
	       !kft_config_may_begin("newt", 4) && !kft_config_may_begin("prime\n", 6) &&
	       !kft_config_may_begin("\n", 1) && !kft_config_may_begin("n\n", 2),
	       "pieces: a first piece may end inside new, or hold comments alone");
	{
		struct kft_config_scan scan = { 0 };

		kft_config_scan_end("# c\nne", 6, &scan);
		n = scan.first;
		kft_config_scan_end("# c\nnew\n", 8, &scan);
		tap_ok(n == 0 && scan.first == 1,
		       "pieces: the first word is known once it is whole");
		scan = (struct kft_config_scan){ 0 };
		kft_config_scan_end("newt end\n", 9, &scan);
		tap_ok(scan.first == -1, "pieces: ... and newt is not new");
	}
	tap_ok(kft_config_parse(&cfg, "new\ntrigger start entry", 24,
				KFT_PARSE_PIECE, &err) == -EAGAIN,
	       "pieces: an error at the cut waits for more");
	tap_ok(kft_config_parse(&cfg, "new\nbogus\nend\n", 15,
				KFT_PARSE_PIECE, &err) == -EINVAL &&
	       !strcmp(err.msg, "unknown keyword"),
	       "pieces: an error before end is the config's");
	tap_ok(kft_config_complete("trigger start entry a\nend\n", 26,
				   KFT_PARSE_STATIC) &&
	       !kft_config_complete("filter comm endless\n", 20, KFT_PARSE_STATIC) &&
	       kft_config_complete("filter comm end\n", 16, KFT_PARSE_STATIC),
	       "pieces: a static config's end (sym2addr, kft record)");
}

/* Lines may end in LF, CR LF or a lone CR: comments end there, errors
 * name the line as an editor shows it. */
static void test_line_ends(void)
{
	static const char *const ends[] = { "\n", "\r\n", "\r" };
	struct kft_config_error err;
	struct kft_config cfg;
	char text[256];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		const char *e = ends[i];

		snprintf(text, sizeof(text),
			 "new%s# a comment%sfilter mintime 5%send%s", e, e, e, e);
		ret = kft_config_parse(&cfg, text, strlen(text), 0, &err);
		tap_ok(ret == 0 && cfg.mintime_ns == 5000,
		       "line ends %u: a comment ends at its line's end", i);
		kft_config_free(&cfg);
		snprintf(text, sizeof(text),
			 "new%s# a comment%s%sfilter pid x%send%s", e, e, e, e, e);
		ret = kft_config_parse(&cfg, text, strlen(text), 0, &err);
		tap_ok(ret == -EINVAL && err.line == 4,
		       "line ends %u: an error names line 4 (got %u)", i, err.line);
		kft_config_free(&cfg);
	}
}

int main(void)
{
	test_full_config();
	test_resolve_and_round_trip();
	test_scope();
	test_static_form();
	test_times();
	test_bad_configs();
	test_nul_and_long_input();
	test_arena();
	test_pieces();
	test_missing_values();
	test_extra_words();
	test_escaped_errors();
	test_piece_writes();
	test_line_ends();
	return tap_done();
}
