// SPDX-License-Identifier: GPL-2.0
/*
 * kd (KFT dump): what a KFT log says.
 *
 * Summary mode (default): per function, count, total, average, local time
 * (total minus time in callees, minus time other tasks had the CPU), and
 * more with -f.  Call-trace mode (-c): the calls as a nested tree.  Input is
 * addr2sym output, or raw /proc/kft_data with -m/-e.  Options may come in
 * any order.  Layouts follow the original kd.
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kft/export.h"
#include "kft/kd_types.h"
#include "kft/kd_boot.h"
#include "kft/optnum.h"
#include "kft/optonce.h"
#include "kft/tracecmd.h"
#include "kft/output.h"

/* --threshold: a percentage, '%' optional, as a fraction. */
static bool threshold_arg(const char *s, double *v)
{
	char buf[64];
	size_t n = strlen(s);

	if (n && s[n - 1] == '%')
		n--;
	if (n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!kft_opt_real(buf, 0, 100000, v))
		return false;
	*v /= 100;
	return true;
}

/* --min: a time in us, or with a unit: us, ms, s. */
static bool time_arg(const char *s, double *v)
{
	static const struct { const char *unit; double us; } units[] = {
		{ "us", 1 }, { "ms", 1e3 }, { "s", 1e6 },
	};
	char buf[64];
	size_t n = strlen(s), k, u;

	if (n >= sizeof(buf))
		return false;
	for (k = 0; k < sizeof(units) / sizeof(*units); k++) {
		u = strlen(units[k].unit);
		if (n > u && !strcmp(s + n - u, units[k].unit)) {
			memcpy(buf, s, n - u);
			buf[n - u] = '\0';
			if (!kft_opt_real(buf, 0, 1e12 / units[k].us, v))
				return false;
			*v *= units[k].us;
			return true;
		}
	}
	return kft_opt_real(s, 0, 1e12, v);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kd [options] [LOG]\n"
		"       kd --diff [options] OLD NEW\n"
		"Summarise a KFT log, or show its call trees.  LOG defaults to standard input\n"
		"(also '-').  A line kd cannot read is named (file:line), left out, and\n"
		"makes the exit status 1; the output shows the rest.\n"
		"\n"
		"Summary mode (default):\n"
		"  -n N        show the top N functions\n"
		"  -t T        only functions whose total time exceeds T us\n"
		"  -s C        sort by column C: F c t a r s l w (default t)\n"
		"  -f FMT      columns (default Fctal):\n"
		"                F function   c count   t total time   a average\n"
		"                r range (min-max)   s time in callees\n"
		"                l local time on the CPU (total - callees - time\n"
		"                  other tasks ran; __switch_to's is all off the\n"
		"                  CPU)   w local wall time\n"
		"                m callee with the most time   n its call count\n"
		"                u callees with call counts\n"
		"                h hooks' share, ! if half or more (when compensated)\n"
		"  -l          long listing, -f Fctalsmn\n"
		"Call-trace mode:\n"
		"  -c          nested call trees\n"
		"  -f FMT      columns: e entry  t duration  l local  p pid  h the hooks' share,\n"
		"              '!' where it is half or more (default etlp, etlph when\n"
		"              compensated)\n"
		"  -i          interlace: splice other tasks' and interrupts' trees, and\n"
		"              calls their enclosing call did not make (its call site\n"
		"              says), in by entry time, between start/end markers\n"
		"Other outputs:\n"
		"  --folded    folded stacks weighted by self time in ns (flamegraph.pl,\n"
		"              speedscope, inferno)\n"
		"  --chrome    Chrome Trace Event JSON (Perfetto UI, chrome://tracing,\n"
		"              speedscope)\n"
		"  --svg       a flame graph, as a self-contained SVG picture\n"
		"  --timeline  a timeline (lanes per task, calls as bars), as SVG\n"
		"  --trace-cmd FILE  a trace-cmd data file: function_graph events\n"
		"              (trace-cmd report, KernelShark)\n"
		"  --diff OLD NEW  per function: count, time, average, local in OLD\n"
		"              and the change in NEW, largest change in time first\n"
		"Boot runs:\n"
		"  --boot      the boot from start_kernel to the first user program: its\n"
		"              phases (setup_arch, mm_core_init, each initcall level, ...;\n"
		"              they add up to the boot time), then the initcalls, longest\n"
		"              first (-n N: the first N; -t T: phases and initcalls of T us\n"
		"              or more), with their longest calls and time off the CPU\n"
		"              (schedule) and busy-waiting (udelay); with --svg as a\n"
		"              picture, with --diff OLD NEW the change per phase and initcall\n"
		"  --boot --json  as JSON (schema: boot.rst, Boot time in CI)\n"
		"  --boot --html  as an HTML page: zoomable, its calls on click\n"
		"  --boot --initcall-debug  the initcalls as the kernel's initcall_debug\n"
		"              lines (bootgraph.pl, pm-graph, analyze-initcall-debug)\n"
		"  --boot --boot-data  those lines as a grab-boot-data file's kernel\n"
		"              messages (the Boot Time SIG's boot-data top, compare)\n"
		"  --boot --check [--ktap] [--threshold P%%] [--min T] REFERENCE... LOG\n"
		"              fail (exit 1) if the boot, a phase or an initcall of\n"
		"              LOG got slower than in the reference boots (logs or\n"
		"              --json reports; several: the slowest of them) by more\n"
		"              than P%% (default 10) and T (default 1ms; us, ms or s);\n"
		"              lists what got faster (--ktap: KTAP); exit 2: could not compare\n"
		"Filters (calls outside them are left out of the analysis):\n"
		"  --pid P     calls of task P (-1: interrupt context)\n"
		"  --cpu C     calls on CPU C\n"
		"  --from T, --to T   calls entered between T and T us\n"
		"  --subtree F calls of F and everything they called\n"
		"Input:\n"
		"  -m MAP      resolve raw /proc/kft_data with System.map or kallsyms;\n"
		"              with --boot, initcall levels where the log lacks them\n"
		"  -e VMLINUX  resolve raw /proc/kft_data with vmlinux; levels as -m\n"
		"  -r          with -c: print trees while reading, each when it is\n"
		"              complete (with -i: each call as soon as its local time\n"
		"              is known), and forget them: for pipes and huge logs\n"
		"  --raw       times as measured, KFT's hooks in them (see below)\n"
		"  --no-waits  leave other tasks' hooks in the calls that waited for them\n"
		"  -h, --help  this help;  -V, --version  version\n"
		"Times are in microseconds.  Durations -1 (exit not seen) and -2 (stack\n"
		"watch) count as calls but add no time.  A log with a 'Hook cost = D ns\n"
		"dropped, L ns logged, O ns own' line and Calls and Logged columns has\n"
		"its times compensated: less (Calls-Logged)*D + Logged*L + O (>= 0), and,\n"
		"in a run on one CPU, less the hooks of other tasks' calls while it waited\n"
		"(not with -r, which prints before the log ends, --pid, --cpu, --from or\n"
		"--to, which leave calls unread, nor --no-waits).\n");
}

/* How many of the map and the logs are standard input (no log: one). */
static int stdin_uses(const char *map, int nlogs, char **logs)
{
	int n = map && !strcmp(map, "-");

	if (!nlogs)
		return n + 1;
	for (int i = 0; i < nlogs; i++)
		n += !strcmp(logs[i], "-");
	return n;
}

/* getopt_long()'s values for the options without a letter. */
enum {
	OPT_FOLDED = 256, OPT_CHROME, OPT_SVG, OPT_TIMELINE, OPT_JSON, OPT_HTML,
	OPT_INITCALL_DEBUG, OPT_BOOT_DATA, OPT_TRACECMD, OPT_DIFF, OPT_BOOT, OPT_CHECK, OPT_KTAP,
	OPT_THRESHOLD, OPT_MIN, OPT_RAW, OPT_NO_WAITS, OPT_PID, OPT_CPU, OPT_FROM, OPT_TO,
	OPT_SUBTREE,
};

static const struct option long_opts[] = {
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "subtree", required_argument, NULL, OPT_SUBTREE },
	{ "chrome", no_argument, NULL, OPT_CHROME },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "svg", no_argument, NULL, OPT_SVG },
	{ "timeline", no_argument, NULL, OPT_TIMELINE },
	{ "boot", no_argument, NULL, OPT_BOOT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "html", no_argument, NULL, OPT_HTML },
	{ "initcall-debug", no_argument, NULL, OPT_INITCALL_DEBUG },
	{ "boot-data", no_argument, NULL, OPT_BOOT_DATA },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "ktap", no_argument, NULL, OPT_KTAP },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "min", required_argument, NULL, OPT_MIN },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "no-waits", no_argument, NULL, OPT_NO_WAITS },
	{ "trace-cmd", required_argument, NULL, OPT_TRACECMD },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ }
};

/* The outputs an option without an argument picks, and its name. */
static const struct {
	int opt;
	const char *name;
	enum kd_output output;
} outputs[] = {
	{ OPT_FOLDED, "--folded", KD_OUT_FOLDED },
	{ OPT_CHROME, "--chrome", KD_OUT_CHROME },
	{ OPT_SVG, "--svg", KD_OUT_SVG },
	{ OPT_TIMELINE, "--timeline", KD_OUT_TIMELINE },
	{ OPT_JSON, "--json", KD_OUT_BOOT_JSON },
	{ OPT_HTML, "--html", KD_OUT_BOOT_HTML },
	{ OPT_INITCALL_DEBUG, "--initcall-debug", KD_OUT_INITCALL_DEBUG },
	{ OPT_BOOT_DATA, "--boot-data", KD_OUT_BOOT_DATA },
};

/*
 * An output mode (-c, --folded, ...; --diff): one at a time.  *mode is the
 * first given; another is refused, named with it.
 */
static bool one_mode(const char **mode, const char *name)
{
	if (*mode && strcmp(*mode, name)) {
		fprintf(stderr, "kd: %s and %s are two outputs: give one\n",
			*mode, name);
		return false;
	}
	*mode = name;
	return true;
}

/* The command line besides the options: the files, and what was given. */
struct cmdline {
	const char *map, *elf;	/* -m, -e */
	char **logs;		/* the logs (and references), nlogs of them */
	int nlogs;
	const char *mode;	/* the output's option, as given */
	/* -n, -t, -s, -f or -l given: not every output has them. */
	bool opt_n, opt_t, opt_s, long_fmt;
	const char *opt_f;
	bool boot_opts;		/* --threshold, --min or --ktap given */
};

/*
 * The options into o and cl, each value checked: -1, or kd's exit status
 * (--help, --version; 2, said, for a value that is not one).
 */
static int parse_options(int argc, char **argv, struct kd_options *o,
			 struct cmdline *cl)
{
	static const char shortopts[] = "n:t:s:f:lcirm:e:hV";
	struct kft_optonce once = { 0 };
	long long n;
	int opt;

	while ((opt = getopt_long(argc, argv, shortopts, long_opts, NULL)) != -1) {
		if (!kft_opt_once(&once, "kd", opt, shortopts, long_opts))
			return 2;
		switch (opt) {
		case 'n':
			if (!kft_opt_int(optarg, 10, 0, LONG_MAX, &n)) {
				fprintf(stderr, "kd: -n takes a number of lines (0 or more), not '%s'\n", optarg);
				return 2;
			}
			o->top = n;
			cl->opt_n = true;
			break;
		case 't':
			if (!kft_opt_real(optarg, 0, HUGE_VAL, &o->min_total)) {
				fprintf(stderr, "kd: -t takes microseconds (0 or more), not '%s'\n", optarg);
				return 2;
			}
			cl->opt_t = true;
			break;
		case 's':
			if (strlen(optarg) != 1 || !strchr("Fctarslw", optarg[0])) {
				fprintf(stderr, "kd: -s takes one of F c t a r s l w, not '%s'\n", optarg);
				return 2;
			}
			o->sort = optarg[0];
			cl->opt_s = true;
			break;
		case 'f':
			if (!*optarg) {
				fprintf(stderr, "kd: -f takes one or more columns, not ''\n");
				return 2;
			}
			o->format = optarg;
			cl->opt_f = "-f";
			break;
		case 'l': cl->long_fmt = true; cl->opt_f = "-l"; break;
		case 'c':
			if (!one_mode(&cl->mode, "-c"))
				return 2;
			o->tree = true;
			break;
		case 'i': o->interlace = true; break;
		case 'r': o->running = true; break;
		case 'm': cl->map = optarg; break;
		case 'e': cl->elf = optarg; break;
		case OPT_PID:	/* a pid, or -1 for interrupts */
		case OPT_CPU:
			if (!kft_opt_int(optarg, 10, opt == OPT_PID ? -1 : 0, INT32_MAX, &n)) {
				fprintf(stderr, "kd: --%s takes %s, not '%s'\n",
					opt == OPT_PID ? "pid" : "cpu",
					opt == OPT_PID ? "a pid (-1: interrupts)" : "a CPU number", optarg);
				return 2;
			}
			*(opt == OPT_PID ? &o->pid : &o->cpu) = n;
			break;
		case OPT_FROM:
		case OPT_TO:
			if (!kft_opt_real(optarg, -HUGE_VAL, HUGE_VAL, opt == OPT_FROM ? &o->from : &o->to)) {
				fprintf(stderr, "kd: --%s takes microseconds, not '%s'\n",
					opt == OPT_FROM ? "from" : "to", optarg);
				return 2;
			}
			break;
		case OPT_SUBTREE: o->subtree = optarg; break;
		case OPT_DIFF:
			if (!one_mode(&cl->mode, "--diff"))
				return 2;
			o->diff = true;
			break;
		case OPT_BOOT: o->boot = true; break;
		case OPT_FOLDED:
		case OPT_CHROME:
		case OPT_SVG:
		case OPT_TIMELINE:
		case OPT_JSON:
		case OPT_HTML:
		case OPT_INITCALL_DEBUG:
		case OPT_BOOT_DATA:
			for (size_t k = 0; k < sizeof(outputs) / sizeof(*outputs); k++) {
				if (outputs[k].opt != opt)
					continue;
				if (!one_mode(&cl->mode, outputs[k].name))
					return 2;
				o->output = outputs[k].output;
			}
			break;
		case OPT_CHECK: o->check = true; break;
		case OPT_KTAP: o->ktap = true; cl->boot_opts = true; break;
		case OPT_THRESHOLD:
			if (!threshold_arg(optarg, &o->threshold)) {
				fprintf(stderr, "kd: --threshold takes a percentage (0 to 100000, '%%' optional), not '%s'\n", optarg);
				return 2;
			}
			cl->boot_opts = true;
			break;
		case OPT_MIN:
			if (!time_arg(optarg, &o->min_change)) {
				fprintf(stderr, "kd: --min takes a time of 0 or more, in us (the default), ms or s, not '%s'\n", optarg);
				return 2;
			}
			cl->boot_opts = true;
			break;
		case OPT_RAW: o->raw = true; break;
		case OPT_NO_WAITS: o->no_waits = true; break;
		case OPT_TRACECMD:
			if (!one_mode(&cl->mode, "--trace-cmd"))
				return 2;
			o->output = KD_OUT_TRACECMD;
			o->tracecmd = optarg;
			break;
		case 'h': {
			/*
			 * One buffer for all of it: a write that fails midway
			 * (a full disk) would leave kft_output_done() no errno.
			 */
			static char buf[1 << 14];

			setvbuf(stdout, buf, _IOFBF, sizeof(buf));
			usage(stdout);
			return kft_output_done("kd", 0);
		}
		case 'V': printf("kd (KFT) %s\n", KD_VERSION); return kft_output_done("kd", 0);
		default: usage(stderr); return 2;
		}
	}
	cl->logs = argv + optind;
	cl->nlogs = argc - optind;
	return -1;
}

/* Does --boot write this output (the report as text, SVG, JSON, lines)? */
static bool boot_output(enum kd_output out)
{
	return out == KD_OUT_TEXT || out == KD_OUT_SVG ||
	       out == KD_OUT_BOOT_JSON || out == KD_OUT_BOOT_HTML ||
	       out == KD_OUT_INITCALL_DEBUG || out == KD_OUT_BOOT_DATA;
}

/*
 * The options together: one command, every option one its output has,
 * the files it takes; -f's columns (the default's, or -l's, set here).
 * false (said on stderr: exit 2) if not.
 */
static bool check_options(struct kd_options *o, const struct cmdline *cl)
{
	const char *map = cl->map;
	bool text = o->output == KD_OUT_TEXT;

	if (map && cl->elf) {
		fprintf(stderr, "kd: -m and -e are two symbol sources: give one\n");
		return false;
	}
	/* (--check names the arguments itself, kd_boot_check.c.) */
	if ((!o->check || (map && !strcmp(map, "-"))) &&
	    stdin_uses(map, cl->nlogs, cl->logs) > 1) {
		fprintf(stderr, "kd: standard input ('-') can be read once: give the %s as a file\n",
			map && !strcmp(map, "-") ? "map" : "logs");
		return false;
	}
	if ((o->interlace || o->running) && !o->tree) {
		fprintf(stderr, "kd: %s goes with -c (call trees)\n",
			o->interlace ? "-i" : "-r");
		return false;
	}
	/*
	 * The summary's options with -c or an export (--folded, --chrome,
	 * --svg, --timeline; --boot has -n and -t of its own): they would
	 * change nothing, silently.  -c has -f and -l.
	 */
	if ((o->tree || (!text && !o->boot)) &&
	    (cl->opt_n || cl->opt_t || cl->opt_s || (cl->opt_f && !o->tree))) {
		fprintf(stderr, "kd: %s goes with a summary, not with %s\n",
			cl->opt_n ? "-n" : cl->opt_t ? "-t" : cl->opt_s ? "-s" : cl->opt_f,
			cl->mode);
		return false;
	}
	if ((o->output == KD_OUT_BOOT_JSON || o->output == KD_OUT_BOOT_HTML ||
	     o->output == KD_OUT_INITCALL_DEBUG ||
	     o->output == KD_OUT_BOOT_DATA || o->check || cl->boot_opts) &&
	    !o->boot) {
		fprintf(stderr, "kd: --json, --html, --initcall-debug, --boot-data, --check, --threshold, --min and --ktap go with --boot (a trace as JSON: --chrome)\n");
		return false;
	}
	/*
	 * --boot's -n and -t cut the report as text and --svg; its data
	 * (--json, --html, --initcall-debug, --boot-data) has every phase and
	 * initcall.
	 */
	if (o->boot && (o->output == KD_OUT_BOOT_JSON ||
			o->output == KD_OUT_BOOT_HTML ||
			o->output == KD_OUT_INITCALL_DEBUG ||
			o->output == KD_OUT_BOOT_DATA) &&
	    (cl->opt_n || cl->opt_t || cl->opt_s || cl->opt_f)) {
		fprintf(stderr, "kd: %s goes with the boot report as text or --svg, not with %s: it has every phase and initcall\n",
			cl->opt_n ? "-n" : cl->opt_t ? "-t" : cl->opt_s ? "-s" : cl->opt_f,
			cl->mode);
		return false;
	}
	if (cl->boot_opts && !o->check) {
		fprintf(stderr, "kd: --threshold, --min and --ktap go with --check\n");
		return false;
	}
	if (o->check && (o->diff || !text || o->tree)) {
		fprintf(stderr, "kd: --boot --check is a verdict of its own: not with --diff, -c or another output\n");
		return false;
	}
	if (o->tracecmd && (o->output != KD_OUT_TRACECMD || o->tree ||
			    o->boot || o->diff)) {
		fprintf(stderr, "kd: --trace-cmd writes a file of its own: not with -c, --boot, --diff or another output\n");
		return false;
	}
	if (o->check) {
		if (cl->nlogs < 2) {
			fprintf(stderr, "kd: --boot --check takes a reference boot or more, then the boot to check\n");
			return false;
		}
	} else if (cl->nlogs > 1 + o->diff || (o->diff && cl->nlogs != 2)) {
		usage(stderr);
		return false;
	}
	if (o->boot && (o->tree || !boot_output(o->output))) {
		fprintf(stderr, "kd: --boot makes a report of its own: not with -c, --folded, --chrome or --timeline\n");
		return false;
	}
	if (o->boot && o->diff && !text) {
		fprintf(stderr, "kd: --boot --diff is a table: not with --svg, --json, --html, --initcall-debug or --boot-data\n");
		return false;
	}
	if (o->diff && !strcmp(cl->logs[0], "-") && !strcmp(cl->logs[1], "-")) {
		fprintf(stderr, "kd: --diff reads one of its logs from standard input, not both\n");
		return false;
	}
	if (!o->format) {
		o->format = o->tree ? "etlp" : cl->long_fmt ? "Fctalsmn" : "Fctal";
		o->format_default = !cl->long_fmt;
	} else if (cl->long_fmt)
		o->format = o->tree ? "etlp" : "Fctalsmn";
	o->callees = !o->tree && strpbrk(o->format, "mnu");
	for (const char *p = o->format; *p; p++) {
		if (o->tree ? !strchr("etlph", *p) : !kd_summary_column(*p)) {
			fprintf(stderr, "kd: unknown column '%c' in -f %s\n", *p, o->format);
			return false;
		}
	}
	return true;
}

/* One log (NULL: standard input) read, and written as the options say. */
static int analyse(struct kd *kd, const char *log, struct kft_symtab *st)
{
	const char *title = log ? log : "KFT log";
	struct kft_export_note en;
	struct kft_tree t;
	char note[512];
	int ret;

	ret = kd_analyse(kd, log, st, &t);
	kd_export_note(kd, &en, note, sizeof(note));
	if (ret) {
		/* nothing to write */
	} else if (kd->opt.boot) {
		ret = kd_boot(kd, &t, log ? log : "<stdin>");
	} else {
		switch (kd->opt.output) {
		case KD_OUT_FOLDED:
			kft_export_folded(stdout, &t, &kd->names);
			break;
		case KD_OUT_CHROME:
			kft_export_chrome(stdout, &t, &kd->names, &en);
			break;
		case KD_OUT_SVG:
			kft_export_flamegraph(stdout, &t, &kd->names, title, &en);
			break;
		case KD_OUT_TIMELINE:
			kft_export_timeline(stdout, &t, &kd->names, title, &en);
			break;
		case KD_OUT_TRACECMD:
			ret = kd_tracecmd(kd, &t, kd->opt.tracecmd, &en);
			break;
		case KD_OUT_TEXT:
			if (!kd->opt.tree)
				kd_summary(kd);
			else if (!kd->stream)	/* -r printed them */
				kd_call_trees(kd, &t);
			break;
		case KD_OUT_BOOT_JSON:
		case KD_OUT_BOOT_HTML:
		case KD_OUT_INITCALL_DEBUG:
		case KD_OUT_BOOT_DATA:
			break;		/* --boot's (check_options()) */
		}
	}
	kft_tree_free(&t);
	kd_free(kd);
	return ret;
}

int main(int argc, char **argv)
{
	struct kd kd = {
		.opt = { .sort = 't', .top = -1, .pid = LONG_MIN,
			 .cpu = LONG_MIN, .from = -INFINITY, .to = INFINITY,
			 .threshold = 0.10, .min_change = 1000 },
		.subtree_fn = -1,
	};
	struct kft_symtab st, *stp = NULL;
	struct cmdline cl = { 0 };
	char **logs;
	char err[512];
	int ret;

	ret = parse_options(argc, argv, &kd.opt, &cl);
	if (ret >= 0)
		return ret;
	if (!check_options(&kd.opt, &cl))
		return 2;
	if (cl.map || cl.elf) {
		if (kft_symtab_load(&st, cl.map, cl.elf, err, sizeof(err))) {
			fprintf(stderr, "kd: %s\n", err);
			return 1;
		}
		stp = &st;
	}
	logs = cl.logs;
	if (kd.opt.check)
		ret = kd_boot_check(&kd, logs, cl.nlogs, stp);
	else if (kd.opt.diff && kd.opt.boot)
		ret = kd_boot_diff(&kd, logs[0], logs[1], stp);
	else if (kd.opt.diff)
		ret = kd_diff(&kd, logs[0], logs[1], stp);
	else
		ret = analyse(&kd, cl.nlogs ? logs[0] : NULL, stp);
	if (stp)
		kft_symtab_free(stp);
	/* A verdict that could not be written is no verdict. */
	if (kd.opt.check)
		return kft_output_done("kd", 0) ? 2 : ret;
	if (!ret && kd.skipped)
		ret = 1;
	return kft_output_done("kd", ret);
}
