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
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kft/crlines.h"
#include "kft/export.h"
#include "kft/kd.h"
#include "kft/kd_boot.h"
#include "kft/optnum.h"
#include "kft/tracecmd.h"
#include "kft/output.h"
#include "kft/xalloc.h"

static bool wanted(const struct kd *kd, const struct kft_call *c)
{
	return (kd->pid == LONG_MIN ||
		(kd->pid == -1 ? c->irq : c->pid == kd->pid && !c->irq)) &&
	       (kd->cpu == LONG_MIN || c->cpu == kd->cpu) &&
	       c->entry >= kd->from && c->entry <= kd->to;
}

/* A call is complete: to the mode that wants it. */
static void on_close(void *priv, struct kft_tree *t, int32_t i)
{
	struct kd *kd = priv;
	const struct kft_node *n = &t->nodes[i];

	/* The traced time: the calls shown that no timed call shown holds. */
	if (!n->hidden && !n->covered && n->c.raw > 0) {
		kd->traced += n->c.raw;
		kd->traced_hooks += n->c.hooks;
	}

	if (kd->stream)
		kd_stream_close(kd, t, i);
	else if (!kd->tree && !kd->output)
		kd_summary_close(kd, t, i);
}

/* A call's caller is known: is it in --subtree, and -r's bookkeeping. */
static void on_add(void *priv, struct kft_tree *t, int32_t i)
{
	struct kd *kd = priv;
	struct kft_node *n = &t->nodes[i];

	if (kd->subtree)
		n->hidden = n->c.fn != kd->subtree_fn &&
			    (n->parent < 0 || t->nodes[n->parent].hidden);
	if (n->parent >= 0) {
		const struct kft_node *p = &t->nodes[n->parent];

		n->covered = !p->hidden && (p->c.raw >= 0 || p->covered);
	}
	if (kd->stream)
		kd_stream_add(kd, t, i);
}

void kd_free(struct kd *kd)
{
	for (uint32_t i = 0; i < kd->nfs; i++)
		free(kd->fs[i].callees);
	kft_pairmap_free(&kd->callee_at);
	free(kd->fs);
	kd->fs = NULL;
	kd->nfs = 0;
	free(kd->splice);
	free(kd->spliced);
	kd->spliced = NULL;
	kd->spliced_cap = 0;
	free(kd->queue);
	free(kd->scratch);
	kd->splice = kd->queue = kd->scratch = NULL;
	kft_names_free(&kd->names);
}

/* One call of the log to the tree, and to the modes that watch it. */
static void add_call(struct kd *kd, struct kft_tree *t,
		     const struct kft_log_reader *r, struct kft_call *c)
{
	/* Back in time: another run, whose calls nest in none before. */
	if (c->rewound) {
		kft_tree_finish(t);
		if (kd->stream && kd->interlace)
			kd_stream_flush(kd, t);
	}
	if (!wanted(kd, c))
		return;
	/*
	 * Decimals if a time needs them; printing as we go cannot wait to
	 * see, and keeps the decimals the log has.
	 */
	if (kd->stream ? !kd->header_done && r->decimals :
	    c->entry != floor(c->entry) ||
	    (c->delta > 0 && c->delta != floor(c->delta)))
		kd->fractions = true;
	kft_tree_add(t, c);
	if (kd->stream && kd->interlace)
		kd_stream_flush(kd, t);
}

/* Read a log (NULL: standard input) into kd's statistics and the tree t. */
int kd_analyse(struct kd *kd, const char *path, struct kft_symtab *st,
	       struct kft_tree *t)
{
	FILE *in = stdin;
	int ret;

	kd->syms = st;
	if (path && !strcmp(path, "-"))
		path = NULL;
	if (path) {
		in = fopen(path, "r");
		if (!in) {
			kft_tree_init(t, on_close, kd);
			fprintf(stderr, "kd: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	ret = kd_analyse_file(kd, in, path ? path : "<stdin>", st, t);
	if (in != stdin)
		fclose(in);
	return ret;
}

/* Read the log in IN, called NAME in messages; IN stays open. */
int kd_analyse_file(struct kd *kd, FILE *in, const char *name,
		    struct kft_symtab *st, struct kft_tree *t)
{
	struct kft_log_reader r;
	struct kft_call c, next;
	FILE *lines;
	bool data, failed, have = false;

	kft_tree_init(t, on_close, kd);
	/* A capture's lines may end in a lone CR. */
	lines = kft_crlines_open(in);
	if (!lines) {
		fprintf(stderr, "kd: out of memory\n");
		return 1;
	}
	t->on_add = on_add;
	/* Summaries need each call only until it closes. */
	t->recycle = !kd->tree && !kd->output && !kd->boot;
	kd->stream = kd->running && kd->tree && !kd->output;
	t->switch_fn = kft_name_id(&kd->names, "__switch_to",
				   strlen("__switch_to"));
	kft_log_open(&r, lines, name, st, &kd->names);
	r.raw = kd->raw;
	r.comp = &kd->comp;
	kd->reader = &r;
	if (kd->subtree)
		kd->subtree_fn = kft_name_id(&kd->names, kd->subtree,
					     strlen(kd->subtree));
	while (kft_log_next(&r, &next)) {
		/*
		 * In the original's logs (2.6 kernels), an interrupt's first
		 * function ran before the kernel counted the interrupt: it
		 * carries the interrupted task's pid, its callees -1.  A -1
		 * call right after a task's call, called from it, marks that
		 * one as the interrupt's.  Only such a call waits a line.
		 */
		if (have) {
			if (next.irq && next.legacy && !next.rewound &&
			    next.caller_fn == c.fn)
				c.irq = true;
			add_call(kd, t, &r, &c);
			have = false;
		}
		if (next.legacy && !next.irq) {
			c = next;
			have = true;
		} else {
			add_call(kd, t, &r, &next);
		}
	}
	if (have)
		add_call(kd, t, &r, &c);
	kft_tree_finish(t);
	if (t->too_deep) {
		fprintf(stderr, "%s: %llu calls nested deeper than any kernel stack; shown as roots\n",
			r.path, (unsigned long long)t->too_deep);
		kd->skipped++;
	}
	data = r.seen_data;
	failed = r.failed;
	if (kd->stream && data)
		kd_stream_end(kd, t);
	kft_log_close(&r);
	kd->reader = NULL;
	fclose(lines);
	if (kd->stream && data) {
		char note[512];

		/* The traced time's hooks are known now: said last. */
		if (kd_times_note(kd, true, note, sizeof(note)))
			printf("%s\n", note);
	} else if (data && (kd->boot || kd->output == 'j' || kd->output == 't' ||
			    kd->output == 'c')) {
		kft_tree_place(t);	/* what places calls in time */
	}
	if (failed)
		return 1;
	if (!data) {
		fprintf(stderr, "kd: %s: no KFT log data (no '--------' line)\n",
			name);
		return 1;
	}
	/* Output from the lines read; the exit status says some were not. */
	kd->skipped += r.skipped;
	return 0;
}

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
		"  -l          long listing, -f Fctalsmn\n"
		"Call-trace mode:\n"
		"  -c          nested call trees\n"
		"  -f FMT      columns: e entry  t duration  l local  p pid (default etlp)\n"
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
		"  --boot      the boot from start_kernel to the first user program:\n"
		"              its phases (setup_arch, mm_core_init, each initcall\n"
		"              level, ...; they add up to the boot time), then the\n"
		"              initcalls, longest first (-n N: the first N; -t T:\n"
		"              phases and initcalls of T us or more), with\n"
		"              their longest calls and time off the CPU (schedule)\n"
		"              and busy-waiting (udelay); with --svg as a picture,\n"
		"              with --diff OLD NEW the change per phase and initcall\n"
		"  --boot --json  the report as JSON (schema: Boot time in CI,\n"
		"              Documentation/trace/kft/boot.rst)\n"
		"  --boot --initcall-debug  the initcalls as the kernel's initcall_debug\n"
		"              lines (bootgraph.pl, pm-graph, analyze-initcall-debug)\n"
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
		"  -h, --help  this help;  -V, --version  version\n"
		"Times are in microseconds.  Durations -1 (exit not seen) and -2 (stack\n"
		"watch) count as calls but add no time.  A log with a 'Hook cost = D ns\n"
		"dropped, L ns logged, O ns own' line and Calls and Logged columns has\n"
		"its times compensated: less (Calls-Logged)*D + Logged*L + O (>= 0).\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "folded", no_argument, NULL, 'F' },
		{ "pid", required_argument, NULL, 'P' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "from", required_argument, NULL, 'A' },
		{ "to", required_argument, NULL, 'B' },
		{ "subtree", required_argument, NULL, 'S' },
		{ "chrome", no_argument, NULL, 'J' },
		{ "diff", no_argument, NULL, 'D' },
		{ "svg", no_argument, NULL, 'G' },
		{ "timeline", no_argument, NULL, 'T' },
		{ "boot", no_argument, NULL, 'O' },
		{ "json", no_argument, NULL, 'j' },
		{ "initcall-debug", no_argument, NULL, 'I' },
		{ "check", no_argument, NULL, 'K' },
		{ "ktap", no_argument, NULL, 'Q' },
		{ "threshold", required_argument, NULL, 'H' },
		{ "min", required_argument, NULL, 'M' },
		{ "raw", no_argument, NULL, 'R' },
		{ "trace-cmd", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	struct kd kd = { .sort = 't', .top = -1, .pid = LONG_MIN, .cpu = LONG_MIN,
			 .from = -INFINITY, .to = INFINITY, .subtree_fn = -1,
			 .threshold = 0.10, .min_change = 1000 };
	bool boot_opts = false;
	const char *map = NULL, *elf = NULL, *tracecmd = NULL;
	struct kft_symtab st, *stp = NULL;
	struct kft_tree t;
	bool long_fmt = false;
	char err[512];
	long long n;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "n:t:s:f:lcirm:e:hV", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (!kft_opt_int(optarg, 10, 0, LONG_MAX, &n)) {
				fprintf(stderr, "kd: -n takes a number of lines (0 or more), not '%s'\n", optarg);
				return 2;
			}
			kd.top = n;
			break;
		case 't':
			if (!kft_opt_real(optarg, 0, HUGE_VAL, &kd.min_total)) {
				fprintf(stderr, "kd: -t takes microseconds (0 or more), not '%s'\n", optarg);
				return 2;
			}
			break;
		case 's':
			if (strlen(optarg) != 1 || !strchr("Fctarslw", optarg[0])) {
				fprintf(stderr, "kd: -s takes one of F c t a r s l w, not '%s'\n", optarg);
				return 2;
			}
			kd.sort = optarg[0];
			break;
		case 'f': kd.format = optarg; break;
		case 'l': long_fmt = true; break;
		case 'c': kd.tree = true; break;
		case 'i': kd.interlace = true; break;
		case 'r': kd.running = true; break;
		case 'm': map = optarg; break;
		case 'e': elf = optarg; break;
		case 'P':	/* a pid, or -1 for interrupts */
		case 'C':
			if (!kft_opt_int(optarg, 10, opt == 'P' ? -1 : 0, INT32_MAX, &n)) {
				fprintf(stderr, "kd: --%s takes %s, not '%s'\n",
					opt == 'P' ? "pid" : "cpu",
					opt == 'P' ? "a pid (-1: interrupts)" : "a CPU number", optarg);
				return 2;
			}
			*(opt == 'P' ? &kd.pid : &kd.cpu) = n;
			break;
		case 'A':
		case 'B':
			if (!kft_opt_real(optarg, -HUGE_VAL, HUGE_VAL, opt == 'A' ? &kd.from : &kd.to)) {
				fprintf(stderr, "kd: --%s takes microseconds, not '%s'\n",
					opt == 'A' ? "from" : "to", optarg);
				return 2;
			}
			break;
		case 'S': kd.subtree = optarg; break;
		case 'D': kd.diff = true; break;
		case 'O': kd.boot = true; break;
		case 'j': kd.output = 'J'; break;
		case 'I': kd.output = 'i'; break;
		case 'K': kd.check = true; break;
		case 'Q': kd.ktap = true; boot_opts = true; break;
		case 'H':
			if (!threshold_arg(optarg, &kd.threshold)) {
				fprintf(stderr, "kd: --threshold takes a percentage (0 to 100000, '%%' optional), not '%s'\n", optarg);
				return 2;
			}
			boot_opts = true;
			break;
		case 'M':
			if (!time_arg(optarg, &kd.min_change)) {
				fprintf(stderr, "kd: --min takes a time of 0 or more, in us (the default), ms or s, not '%s'\n", optarg);
				return 2;
			}
			boot_opts = true;
			break;
		case 'R': kd.raw = true; break;
		case 'G': kd.output = 's'; break;
		case 'T': kd.output = 't'; break;
		case 'F': kd.output = 'f'; break;
		case 'J': kd.output = 'j'; break;
		case 'X': kd.output = 'c'; tracecmd = optarg; break;
		case 'h': usage(stdout); return kft_output_done("kd", 0);
		case 'V': printf("kd (KFT) %s\n", KD_VERSION); return kft_output_done("kd", 0);
		default: usage(stderr); return 2;
		}
	}
	if ((kd.output == 'J' || kd.output == 'i' || kd.check || boot_opts) &&
	    !kd.boot) {
		fprintf(stderr, "kd: --json, --initcall-debug, --check, --threshold, --min and --ktap go with --boot (a trace as JSON: --chrome)\n");
		return 2;
	}
	if (boot_opts && !kd.check) {
		fprintf(stderr, "kd: --threshold, --min and --ktap go with --check\n");
		return 2;
	}
	if (kd.check && (kd.diff || kd.output || kd.tree)) {
		fprintf(stderr, "kd: --boot --check is a verdict of its own: not with --diff, -c or another output\n");
		return 2;
	}
	if (tracecmd && (kd.output != 'c' || kd.tree || kd.boot || kd.diff)) {
		fprintf(stderr, "kd: --trace-cmd writes a file of its own: not with -c, --boot, --diff or another output\n");
		return 2;
	}
	if (kd.check) {
		if (argc - optind < 2 || (map && elf)) {
			fprintf(stderr, "kd: --boot --check takes a reference boot or more, then the boot to check\n");
			return 2;
		}
	} else if (argc - optind > 1 + kd.diff || (kd.diff && argc - optind != 2) ||
		   (map && elf)) {
		usage(stderr);
		return 2;
	}
	if (kd.boot && (kd.tree || (kd.output && !strchr("sJi", kd.output)))) {
		fprintf(stderr, "kd: --boot makes a report of its own: not with -c, --folded, --chrome or --timeline\n");
		return 2;
	}
	if (kd.boot && kd.diff && kd.output) {
		fprintf(stderr, "kd: --boot --diff is a table: not with --svg, --json or --initcall-debug\n");
		return 2;
	}
	if (kd.diff && !strcmp(argv[optind], "-") && !strcmp(argv[optind + 1], "-")) {
		fprintf(stderr, "kd: --diff reads one of its logs from standard input, not both\n");
		return 2;
	}
	if (!kd.format)
		kd.format = kd.tree ? "etlp" : long_fmt ? "Fctalsmn" : "Fctal";
	else if (long_fmt)
		kd.format = kd.tree ? "etlp" : "Fctalsmn";
	kd.callees = !kd.tree && strpbrk(kd.format, "mnu");
	for (const char *p = kd.format; *p; p++) {
		if (kd.tree ? !strchr("etlp", *p) : !kd_summary_column(*p)) {
			fprintf(stderr, "kd: unknown column '%c' in -f %s\n", *p, kd.format);
			return 2;
		}
	}
	if (map || elf) {
		if (kft_symtab_load(&st, map, elf, err, sizeof(err))) {
			fprintf(stderr, "kd: %s\n", err);
			return 1;
		}
		stp = &st;
	}
	if (kd.check) {
		ret = kd_boot_check(&kd, argv + optind, argc - optind, stp);
		if (stp)
			kft_symtab_free(stp);
		/* A verdict that could not be written is no verdict. */
		return kft_output_done("kd", 0) ? 2 : ret;
	} else if (kd.diff && kd.boot) {
		ret = kd_boot_diff(&kd, argv[optind], argv[optind + 1], stp);
	} else if (kd.diff) {
		ret = kd_diff(&kd, argv[optind], argv[optind + 1], stp);
	} else {
		struct kft_export_note en;
		char note[512];

		ret = kd_analyse(&kd, optind < argc ? argv[optind] : NULL, stp, &t);
		kd_export_note(&kd, &en, note, sizeof(note));
		if (!ret && kd.boot)
			ret = kd_boot(&kd, &t, optind < argc ? argv[optind] : "<stdin>");
		else if (!ret && kd.output == 'f')
			kft_export_folded(stdout, &t, &kd.names);
		else if (!ret && kd.output == 'j')
			kft_export_chrome(stdout, &t, &kd.names, &en);
		else if (!ret && kd.output == 's')
			kft_export_flamegraph(stdout, &t, &kd.names,
					      optind < argc ? argv[optind] : "KFT log", &en);
		else if (!ret && kd.output == 't')
			kft_export_timeline(stdout, &t, &kd.names,
					    optind < argc ? argv[optind] : "KFT log", &en);
		else if (!ret && kd.output == 'c')
			ret = kd_tracecmd(&kd, &t, tracecmd, &en);
		else if (!ret && kd.tree && !kd.stream)
			kd_call_trees(&kd, &t);
		else if (!ret && !kd.tree)
			kd_summary(&kd);
		kft_tree_free(&t);
		kd_free(&kd);
	}
	if (stp)
		kft_symtab_free(stp);
	if (!ret && kd.skipped)
		ret = 1;
	return kft_output_done("kd", ret);
}
