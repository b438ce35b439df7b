/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lines that end in a lone CR - a console captured by a tool that writes
 * CR alone - read as lines: kd and addr2sym read their input through it.
 */
#ifndef _KFT_CRLINES_H
#define _KFT_CRLINES_H

#include <stdio.h>
#include <string.h>

/*
 * A stream reading in, with each CR a newline and the LF of a CR LF
 * dropped; NULL if one cannot be made.  Closing it leaves in open.  In
 * must not have been read from: its descriptor is read directly.
 */
FILE *kft_crlines_open(FILE *in);

/*
 * A file read whole (a map, a config), its lone CRs made newlines in
 * place; a CR LF stays as it is.  Its lines then read, and are numbered
 * in messages, as the lines they are: by '\n' alone, a file with CR line
 * ends is one line.
 */
static inline void kft_crlines_fix(char *text, size_t len)
{
	char *p = text, *end = text + len;

	while (p < end && (p = memchr(p, '\r', end - p))) {
		if (p + 1 == end || p[1] != '\n')
			*p = '\n';
		p++;
	}
}

#endif /* _KFT_CRLINES_H */
