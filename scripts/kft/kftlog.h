/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading KFT logs on the host: /proc/kft_data as the kernel writes it
 * (addresses) or after addr2sym (names), in this KFT's format or the
 * original's (integer microseconds, "pid.cpu").  Used by kd.
 *
 * A log whose header says what KFT's hooks cost ("Hook cost = D ns
 * dropped, L ns logged, O ns own") and whose lines count the calls made
 * inside each call (the Calls and Logged columns) has its durations
 * compensated: less the hooks' time they hold, (Calls - Logged) * D +
 * Logged * L + O, and never below 0.  Logs put end to end each have
 * their own header, and their own cost.
 */
#ifndef _KFT_LOG_H
#define _KFT_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "console.h"
#include "symtab.h"

#define KFT_DELTA_OPEN	(-1.0)	/* exit not seen */
#define KFT_DELTA_STACK	(-2.0)	/* stack watch chain */

struct kft_call {
	double entry;		/* microseconds since the run started */
	/*
	 * Microseconds: the log's Delta, less the hooks' time in it when
	 * compensated; < 0: KFT_DELTA_*.
	 */
	double delta;
	double raw;		/* the log's Delta, as measured */
	int32_t pid;		/* -1: interrupt context */
	int32_t cpu;		/* -1: not in the log */
	uint32_t fn;		/* name id, see kft_names */
	uint32_t line;		/* in the log, for messages */
	uint64_t site;		/* hash of the CALLER column: the call site */
	bool rewound;		/* earlier than the line before: a new run */
	bool irq;		/* interrupt context (pid -1, or see kd_analyse.c) */
	bool legacy;		/* the original's 5 columns: no CPU column */
	bool compensated;	/* delta is raw less hooks */
	/*
	 * The function the CALLER column names (the call site's function,
	 * a .cold part as its function), as a name id; KFT_CALLER_UNKNOWN
	 * when it names none: an address no symbol holds, 0, a number.
	 */
	uint32_t caller_fn;
	/*
	 * Of raw, the time KFT's hooks took, as the log's hook cost and
	 * Calls and Logged columns say (whether delta is less it or not,
	 * --raw); 0 when the log does not say.  For the hooks' share of the
	 * traced time: a float fits the padding.
	 */
	float hooks;
};

#define KFT_CALLER_UNKNOWN	UINT32_MAX

/* Interned function names: ids are dense, from 0. */
struct kft_names {
	char **name;
	uint32_t *len;		/* of each name */
	uint32_t n, cap;
	uint64_t *slots;	/* open addressing: hash << 32 | id + 1 */
	uint32_t nslots;
	char *blocks;		/* the names, packed in first-seen order */
	char *cursor;		/* free space in the newest block */
	size_t left;
};

uint32_t kft_name_id(struct kft_names *nt, const char *s, size_t len);
void kft_names_free(struct kft_names *nt);

/* What one call's hooks cost, as a log's header says, in microseconds. */
struct kft_hook_cost {
	double dropped;		/* both hooks of a call the run's filters dropped */
	double logged;		/* both hooks of a call the run logged */
	double own;		/* of a logged call's two, the part in its time */
	/* "Calibrated on CPU ...": where, with which clock, when; -1: not said */
	long cpu;
	double khz;		/* the cycle counter's rate; 0: sched_clock() */
	double after_ms;	/* from the run's stop */
};

/* What the logs read said of their hooks' cost, for kd's headers. */
struct kft_comp_stats {
	unsigned long logs;		/* logs with data lines */
	unsigned long costed;		/* of which with a hook cost and the columns */
	unsigned long partial;		/* with one but not the other */
	struct kft_hook_cost first;	/* the first costed log's */
	bool differ;			/* another costed log's is not the same */
};

struct kft_site_fn {
	uint64_t site;
	uint32_t fn;
	uint32_t gen;			/* valid while the reader's */
};

/* A line of a log's data that is none, until what follows says what it is. */
struct kft_pending {
	unsigned long lineno;
	char *text;			/* the line, if it may be a header's */
	char why[192];			/* what is wrong with it as data */
};

struct kft_log_reader {
	FILE *f;
	const char *path;
	struct kft_symtab *st;		/* resolve 0x addresses, or NULL */
	struct kft_names *names;
	unsigned long lineno;
	unsigned long warnings;		/* lines warned about */
	unsigned long skipped;		/* of which skipped */
	double last_entry;
	bool any;			/* a data line was read */
	bool failed;			/* a read error: the log is not whole */
	bool in_data;			/* past the dashed header line */
	bool decimals;			/* entry times have decimals */
	bool quiet;
	bool seen_data;			/* a dashed header line was read */
	/*
	 * Times as measured (kd --raw): the hooks' time is still worked out
	 * (kft_call.hooks), but not taken off.
	 */
	bool raw;
	/* The log being read (logs may be put end to end). */
	bool new_log;			/* its header began after another's data */
	bool cost_ok;			/* its header gave a hook cost ... */
	struct kft_hook_cost cost;	/* ... this one */
	bool uncalibrated;		/* "Hook cost = not calibrated" */
	bool log_data;			/* it has data lines */
	bool log_columns;		/* a line had Calls and Logged */
	bool log_without;		/* a line did not */
	bool cost_warned;		/* a mismatch was said */
	struct kft_comp_stats *comp;	/* NULL, or where to count the logs */
	struct kft_console console;	/* a console capture's dump */
	struct kft_site_fn *sites;	/* caller names by call site, cached */
	uint32_t sites_gen;		/* new symbol table offset: new cache */
	char why[192];			/* the last line that is no data line */
	struct kft_pending *pending;	/* such lines since the last data */
	uint32_t npending;
	char *buf;
	size_t cap;
};

void kft_log_open(struct kft_log_reader *r, FILE *f, const char *path,
		  struct kft_symtab *st, struct kft_names *names);
/*
 * Next call of the log; false at the end.  Header lines are skipped (and
 * give the symbol table its KASLR offset, and the log its hook cost); a
 * line that starts another log's header ("Kernel Instrumentation Run
 * ID") ends this one's data, and its first call starts a new run
 * (kft_call.rewound); so does a dashed header line among the data (a log
 * put after another without that line), the lines since the last data
 * line then read as its header.  In a console capture, all but the lines kft_dump=
 * printed are skipped (console.h).  A malformed line is a warning with
 * its line number, and is skipped; so is a line with a NUL byte, a time
 * that is not finite or beyond 104 days, or a CPU beyond 65535.  Calls
 * and Logged columns that are not counts (0 to 2^32 - 1, Logged at most
 * Calls) are a warning too, and left out: that line's time stays as
 * measured.
 */
bool kft_log_next(struct kft_log_reader *r, struct kft_call *c);
/* The end of the input: the last log counted, memory freed. */
void kft_log_close(struct kft_log_reader *r);
/* "path:line: what" on stderr, for the line just read (at most 20). */
void kft_log_warn(struct kft_log_reader *r, const char *what);

#endif /* _KFT_LOG_H */
