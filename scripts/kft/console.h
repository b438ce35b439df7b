/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A KFT log printed on the console by kft_dump= (kernel/kft_dump.c), back
 * out of a capture of that console (a serial log).  Each line of the log
 * is "kft_dump: LINE" behind whatever the console put before it (printk's
 * time stamp, a caller id, a syslog prefix), framed by
 * "kft_dump begin: run N, ..." and "kft_dump end: run N, L lines".  The
 * capture's other lines are the kernel's own messages, to be skipped.
 * Used by kd's log reader and addr2sym.
 */
#ifndef _KFT_CONSOLE_H
#define _KFT_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum kft_console_kind {
	KFT_CONSOLE_NONE,	/* not a kft_dump line */
	KFT_CONSOLE_BEGIN,	/* a dump begins */
	KFT_CONSOLE_LINE,	/* a line of the log: see kft_console_line() */
	KFT_CONSOLE_END,	/* a dump ends */
};

struct kft_console {
	bool seen;		/* a kft_dump line was read: a capture */
	bool open;		/* a dump began and has not ended */
	unsigned long lines;	/* log lines of the open dump */
	unsigned long run;	/* its run id */
	char what[160];		/* what is wrong with the dump, or "" */
};

/*
 * What a line of len bytes (NUL-terminated) is.  For KFT_CONSOLE_LINE,
 * *payload and *payload_len are the log's line within it.  c->what says
 * whether the dump just ended or begun lost lines on the way.
 */
enum kft_console_kind kft_console_line(struct kft_console *c, char *line,
				       size_t len, char **payload,
				       size_t *payload_len);
/* At the end of the input: false, and c->what, if a dump was left open. */
bool kft_console_eof(struct kft_console *c);

/*
 * The log lines of a capture, into a temporary file ready to read: the
 * line in line (already read from in, line lineno) and the rest of in.
 * Problems are said on stderr as "path:line: ...".  NULL if out of memory
 * or disk (said too).
 */
FILE *kft_console_extract(FILE *in, const char *path, char *line, size_t len,
			  unsigned long lineno);

#endif /* _KFT_CONSOLE_H */
