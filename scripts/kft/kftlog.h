/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading KFT logs on the host: /proc/kft_data as the kernel writes it
 * (addresses) or after addr2sym (names), in this KFT's format or the
 * original's (integer microseconds, "pid.cpu").  Used by kd.
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
	double delta;		/* microseconds; < 0: KFT_DELTA_* */
	int32_t pid;		/* -1: interrupt context */
	int32_t cpu;		/* -1: not in the log */
	uint32_t fn;		/* name id, see kft_names */
	uint32_t line;		/* in the log, for messages */
	uint64_t site;		/* hash of the CALLER column: the call site */
	bool rewound;		/* earlier than the line before: a new run */
	bool irq;		/* interrupt context (pid -1, or see kd.c) */
	bool legacy;		/* the original's 5 columns: no CPU column */
	/*
	 * The function the CALLER column names (the call site's function,
	 * a .cold part as its function), as a name id; KFT_CALLER_UNKNOWN
	 * when it names none: an address no symbol holds, 0, a number.
	 */
	uint32_t caller_fn;
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

struct kft_site_fn {
	uint64_t site;
	uint32_t fn;
	uint32_t gen;			/* valid while the reader's */
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
	bool new_log;			/* a header began after another's data */
	struct kft_console console;	/* a console capture's dump */
	struct kft_site_fn *sites;	/* caller names by call site, cached */
	uint32_t sites_gen;		/* new symbol table offset: new cache */
	char *buf;
	size_t cap;
};

void kft_log_open(struct kft_log_reader *r, FILE *f, const char *path,
		  struct kft_symtab *st, struct kft_names *names);
/*
 * Next call of the log; false at the end.  Header lines are skipped (and
 * give the symbol table its KASLR offset); a line that starts another
 * log's header ("Kernel Instrumentation Run ID") ends this one's data,
 * and its first call starts a new run (kft_call.rewound).  In a console
 * capture, all but the lines kft_dump= printed are skipped (console.h).
 * A malformed line is a warning with its line number, and is skipped; so
 * is a line with a NUL byte, a time that is not finite or beyond 104
 * days, or a CPU beyond 65535.
 */
bool kft_log_next(struct kft_log_reader *r, struct kft_call *c);
void kft_log_close(struct kft_log_reader *r);
/* "path:line: what" on stderr, for the line just read (at most 20). */
void kft_log_warn(struct kft_log_reader *r, const char *what);

#endif /* _KFT_LOG_H */
