/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kd's modes over one reader and one tree builder: kd.c parses the
 * command line and dispatches; kd_analyse.c reads the log (kftlog.c) into
 * call trees (calltree.c) and hands each call to the mode asked for --
 * summary (kd_summary.c), call trees (kd_tree.c), --diff (kd_diff.c),
 * folded/Chrome (export.c), SVG (svg.c), the boot report (kd_boot.c).
 * Numbers are printed by kd_format.c.
 */
#ifndef _KFT_KD_TYPES_H
#define _KFT_KD_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "calltree.h"
#include "kftlog.h"
#include "pairmap.h"
#include "symtab.h"

#define KD_VERSION "2.0"


/*
 * Where KFT's hooks were half or more of a call's measured time, its
 * compensated time is mostly the calibration's estimate: on a real CPU
 * the hooks' cost in place differs from it both ways (accuracy.rst).  The
 * summary's h column and the boot report's initcalls mark it with '!'.
 */
#define HOOKS_UNCERTAIN	0.5
struct callee {
	uint32_t fn;
	uint32_t count;
	double time;
};

struct fstat {
	uint32_t count;		/* calls with a duration */
	uint32_t open;		/* calls without one (-1, -2) */
	double total, min, max, sub, local, wall_local;
	/* Of calls whose time was compensated: measured, and taken off. */
	double raw, hooks;
	struct callee *callees;
	uint32_t ncallees, cap;
};


/* What kd writes: one output at a time. */
enum kd_output {
	KD_OUT_TEXT,		/* the summary, or -c's call trees */
	KD_OUT_FOLDED,		/* --folded */
	KD_OUT_CHROME,		/* --chrome: Chrome Trace Event JSON */
	KD_OUT_SVG,		/* --svg; with --boot, the report drawn */
	KD_OUT_TIMELINE,	/* --timeline */
	KD_OUT_TRACECMD,	/* --trace-cmd FILE */
	KD_OUT_BOOT_JSON,	/* --boot --json */
	KD_OUT_BOOT_HTML,	/* --boot --html */
	KD_OUT_INITCALL_DEBUG,	/* --boot --initcall-debug */
	KD_OUT_BOOT_DATA,	/* --boot --boot-data */
};

/* The command line, as kd.c parsed and checked it; read-only after. */
struct kd_options {
	const char *format;	/* -f (or -l's, or the default) */
	bool format_default;	/* neither -f nor -l: Hooks too if compensated */
	char sort;		/* -s: a summary column */
	long top;		/* -n: -1 all */
	double min_total;	/* -t */
	bool tree, interlace, running, diff;	/* -c, -i, -r, --diff */
	bool boot;		/* --boot: the boot report (kd_boot.c) */
	bool callees;		/* columns m, n or u: keep who called whom */
	bool raw;		/* --raw: times as measured */
	bool no_waits;		/* --no-waits: other tasks' hooks left in */
	enum kd_output output;
	const char *tracecmd;	/* --trace-cmd's file */
	bool check;		/* --boot --check REFERENCE... LOG */
	bool ktap;		/* --check: the verdicts as KTAP */
	double threshold;	/* --check: slower by more than this fraction */
	double min_change;	/* --check: and by more than this many us */
	/* filters */
	long pid, cpu;		/* LONG_MIN: any */
	double from, to;
	const char *subtree;
};

/* One log's analysis: the options, and what reading the log built. */
struct kd {
	struct kd_options opt;
	struct kft_names names;
	struct fstat *fs;
	uint32_t nfs;
	struct kft_pairmap callee_at;	/* (caller, callee) -> callees[] */
	bool fractions;		/* print 3 decimals: the log has them */
	unsigned long skipped;	/* malformed lines left out */
	/*
	 * KFT's hooks: what the logs said they cost, and in the calls with
	 * no timed call shown around them, their time as measured and the
	 * hooks' part of it.
	 */
	struct kft_comp_stats comp;
	double traced, traced_hooks;
	bool waits_taken;	/* waits.c took other tasks' hooks off */
	const struct kft_log_reader *reader;	/* while reading a log */
	const struct kft_symtab *syms;	/* -m, -e: the log's, if given */
	int64_t subtree_fn;	/* --subtree's name id; -1: not in the log yet */
	/* -c -i: the trees open in the listing, outermost first */
	int32_t *splice;
	int32_t depth, splice_cap;
	bool *spliced;		/* by root node: on the splice stack */
	uint32_t spliced_cap;
	/* -r: calls waiting to be printed, in entry order (with -i) */
	bool stream, header_done;
	bool tree_uncertain;		/* -c -f h marked a call '!' */
	double last_flush;	/* CLOCK_MONOTONIC seconds */
	int32_t *queue, *scratch;
	uint32_t qhead, qlen, qcap, scratch_cap;
};

/*
 * kd_analyse.c: read a log (NULL or "-": standard input) into kd and the
 * tree t; kd_analyse_file() reads an open file, called name in messages.
 */
int kd_analyse(struct kd *kd, const char *path, struct kft_symtab *st,
	       struct kft_tree *t);
int kd_analyse_file(struct kd *kd, FILE *in, const char *name,
		    struct kft_symtab *st, struct kft_tree *t);
void kd_free(struct kd *kd);

/* kd_format.c: microseconds as the log has them (3 decimals or none). */
const char *kd_fmt_us(const struct kd *kd, double v, char *buf, size_t n);
const char *kd_fmt_change(const struct kd *kd, double v, char *buf, size_t n);
/*
 * The h columns (the summary's, -c's): of a measured time raw, the share
 * hooks (the hooks' time taken off it), "53%", with '!' from
 * HOOKS_UNCERTAIN on (and *uncertain set); "-" for no time.  The note
 * printed under an output that marked one.
 */
const char *kd_fmt_hooks_share(double raw, double hooks, bool *uncertain,
			       char *buf, size_t n);
void kd_uncertain_note(void);
/*
 * How the times were taken, for the top of an output: "times: compensated
 * for KFT's hooks (...): instrumentation was N% of the traced time; --raw
 * for measured", or as measured; false (and "") for logs that do not say
 * what their hooks cost.  share: say how much of the traced time they
 * were (known once the log is read).
 */
bool kd_times_note(const struct kd *kd, bool share, char *buf, size_t n);
/*
 * Compensated times: some log read was, or, while the first is read
 * (kd -c -r), its header says it will be.
 */
bool kd_costed(const struct kd *kd);
/* Of the traced time, the hooks' part (0 to 1), NAN if none was traced. */
double kd_hooks_share(const struct kd *kd);
/* The same for the JSON and SVG outputs (buf holds its text). */
struct kft_export_note;
const struct kft_export_note *kd_export_note(const struct kd *kd,
					     struct kft_export_note *en,
					     char *buf, size_t n);

/* kd_summary.c: per-function statistics, and the summary table. */
struct fstat *kd_fstat_of(struct kd *kd, uint32_t fn);
void kd_summary_close(struct kd *kd, struct kft_tree *t, int32_t i);
bool kd_summary_column(char c);
void kd_summary(struct kd *kd);

/* kd_tree.c: -c call trees, -i splicing, -r printing while reading. */
void kd_call_trees(struct kd *kd, struct kft_tree *t);
void kd_stream_add(struct kd *kd, struct kft_tree *t, int32_t i);
void kd_stream_close(struct kd *kd, struct kft_tree *t, int32_t i);
void kd_stream_flush(struct kd *kd, struct kft_tree *t);
void kd_stream_end(struct kd *kd, struct kft_tree *t);

/* kd_diff.c: --diff OLD NEW; reading two logs for it and --boot --diff. */
int kd_analyse_pair(struct kd *kd, const char *old, const char *new,
		    struct kft_symtab *st, struct kd *a, struct kd *b,
		    struct kft_tree *ta, struct kft_tree *tb);
void kd_pair_free(struct kd *a, struct kd *b, struct kft_tree *ta,
		  struct kft_tree *tb);
int kd_diff(struct kd *kd, const char *old, const char *new,
	    struct kft_symtab *st);
void kd_times_alike(const struct kd *a, const char *pa, const struct kd *b,
		    const char *pb);

/*
 * kd_boot.c: --boot, a boot run's phases and initcalls; with --diff; the
 * report as data, JSON, initcall_debug lines and --check: kd_boot.h.
 */
int kd_boot(struct kd *kd, const struct kft_tree *t, const char *source);
int kd_boot_diff(struct kd *kd, const char *old, const char *new,
		 struct kft_symtab *st);

#endif /* _KFT_KD_TYPES_H */
