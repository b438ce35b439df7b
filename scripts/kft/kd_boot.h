/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kd --boot's report as data: built from a boot run's log (kd_boot.c) or
 * read back from its JSON (kd_boot_json.c), and written as text, SVG, the
 * kernel's initcall_debug lines or JSON, or checked against a reference
 * (kd_boot_check.c).  Times in microseconds; every string on the heap.
 */
#ifndef _KFT_KD_BOOT_H
#define _KFT_KD_BOOT_H

#include <stdbool.h>
#include <stdint.h>

#include "export.h"
#include "kd_types.h"

#define BOOT_TOP	3	/* longest calls kept inside an initcall */

/* An initcall's level: 0..7, or one of these. */
#define BOOT_LEVEL_NONE		(-1)	/* outside every level (no do_initcalls) */
#define BOOT_LEVEL_EARLY	(-2)	/* do_pre_smp_initcalls() */

struct boot_phase {
	char *name;
	double start;		/* first moment in it, us since start_kernel */
	double time;
};

/* A stretch of the boot in one phase: phases[phase], from start for time. */
struct boot_seg {
	uint32_t phase;
	double start, time;
};

struct boot_call {
	char *name;
	double time;
};

struct boot_initcall {
	char *name;		/* NULL: shorter than the log's mintime */
	int level;		/* 0..7, #N if !levels8, BOOT_LEVEL_* */
	long pid;
	double start, time, offcpu, busy;
	double hooks_share;	/* of its measured time, compensated; else 0 */
	bool open;		/* never returned: no exit in the log (a hang) */
	struct boot_call top[BOOT_TOP];	/* its longest calls, longest first */
	unsigned int ntop;
};

struct boot_report {
	double t0, end;		/* start_kernel's entry; the first user program */
	bool has_start, reached;
	bool levels8;		/* the eight initcall levels were all seen,
				 * or the symbols (-m, -e) gave them */
	bool levels_hidden;	/* do_initcall_level() is not in the log and
				 * no symbols gave the levels */
	bool levels_partial;	/* do_initcall_level() is in the log, not
				 * eight times, and no symbols named them */
	bool levels_nosyms;	/* ... symbols were given, without the table */
	bool cost_refused;	/* the log's hook cost cannot be its own:
				 * times as measured (note says so) */
	struct boot_phase *phases;	/* in boot order */
	uint32_t nphases, phases_cap;
	/* The boot's stretches in order (a phase may have several): --svg. */
	struct boot_seg *segs;		/* none in a report read back */
	uint32_t nsegs, segs_cap;
	struct boot_initcall *calls;	/* longest first */
	uint32_t ncalls, calls_cap;
	uint32_t nafter;	/* initcalls after the first user program */
	/*
	 * The boot as the log measured it (raw entries, start_kernel to the
	 * first user program), and KFT's hooks in it: those of every task's
	 * outermost calls (an interrupt's are its task's).  On one CPU the
	 * boot without KFT is the difference.  hooks < 0: the log has no cost.
	 */
	double raw_total, hooks;
	uint32_t ncpus;
	/*
	 * KFT's hooks: note.times NULL if the log does not say what they
	 * cost (kd_export_note()); note.text in note_buf.  A JSON report
	 * read back gives "times" alone.
	 */
	struct kft_export_note note;
	char note_buf[512];
};

/*
 * kd_boot_report.c: what the report's builder, writers and reader share;
 * it calls none of them.
 */
extern const char *const kd_boot_level_names[8];
void kd_boot_free(struct boot_report *r);
/* "6 device", "early", "-", or "#N" where the eight levels were not seen. */
char *kd_boot_level_text(const struct boot_report *r,
			 const struct boot_initcall *ic, char *buf, size_t n);
/*
 * A name for a terminal, on the heap: control characters, bytes that are
 * not UTF-8 and backslashes as \xNN (\\): no name can forge a line.
 */
char *kd_boot_esc(const char *s);
/*
 * A name as one word of the kernel's log lines, on the heap: ASCII from
 * '!' to '~' but for '+', '"' and '\\', every other byte as \xNN.  No name can
 * forge a line, a section header or another message in it (those all
 * have spaces), nor end early where a reader cuts at "+0x" (boot-data,
 * pm-graph, analyze-initcall-debug).
 */
char *kd_boot_esc_word(const char *s);

/* kd_boot.c */
/*
 * The report of the boot in the log kd read into t (called source in
 * messages): the last run with start_kernel when the log holds several.
 * 0, or 2 (said on stderr) when the log is not one boot: none of the
 * boot's functions in it, a boot's calls twice in one run, or a run
 * without start_kernel after another boot's.
 */
int kd_boot_build(struct kd *kd, const struct kft_tree *t,
		  struct boot_report *r, const char *source);
/* The boot report of one file: a boot run's log, or a kd --boot --json. */
int kd_boot_load(struct kd *kd, const char *path, struct kft_symtab *st,
		 struct boot_report *r);
/*
 * Can the report be compared with another (--diff, --check)?  A log
 * without start_kernel began after the boot did: its boot time is not
 * the boot's.  If not, says so on stderr.
 */
bool kd_boot_comparable(const struct boot_report *r, const char *path);
/*
 * Are two reports' times alike (both compensated for KFT's hooks, or
 * both as measured)?  If not, says so on stderr.  say: print each one's
 * note, as "old: ..." and "new: ...".
 */
bool kd_boot_times_alike(const struct boot_report *a, const char *pa,
			 const struct boot_report *b, const char *pb,
			 bool say);

/*
 * kd_boot_json.c: --json out, and back in.  segments: the boot's
 * stretches too ("segments", the HTML page's; not in --json's schema).
 */
void kd_boot_write_json(FILE *out, const struct boot_report *r,
			const char *source, bool segments);
int kd_boot_read_json(const char *path, const char *text, size_t len,
		      struct boot_report *r, char *err, size_t errlen);

/*
 * kd_boot_html.c: --html, a self-contained page drawing the report, and
 * the report as measured (raw; NULL if the times are) to switch to.
 */
void kd_boot_print_html(const struct boot_report *r,
			const struct boot_report *raw, const char *source);

/* kd_boot_dmesg.c: --initcall-debug, the kernel's own lines, in time order. */
void kd_boot_print_initcall_debug(const struct boot_report *r);
/*
 * --boot-data: those lines in a boot-data file's "KERNEL MESSAGES", after
 * a "KFT INFO" section (the format: kd_boot_dmesg.c).
 */
void kd_boot_print_boot_data(const struct boot_report *r, const char *source);

/* kd_boot_check.c: --check REFERENCE... LOG. */
int kd_boot_check(struct kd *kd, char **paths, int npaths,
		  struct kft_symtab *st);

#endif /* _KFT_KD_BOOT_H */
