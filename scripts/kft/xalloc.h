/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory for the host tools' modules: a tool has nothing better to do
 * without it than to say so, under its own name, and exit.
 */
#ifndef _KFT_XALLOC_H
#define _KFT_XALLOC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The tool's own name for its message: glibc and musl set it before main
 * (<errno.h> declares it the same way under _GNU_SOURCE).
 */
extern char *program_invocation_short_name;

static inline void *xalloc_check(void *p)
{
	if (!p) {
		fprintf(stderr, "%s: out of memory\n",
			program_invocation_short_name);
		exit(1);
	}
	return p;
}

static inline void *xrealloc(void *p, size_t n)
{
	return xalloc_check(realloc(p, n ? n : 1));
}

static inline void *xcalloc(size_t n, size_t size)
{
	return xalloc_check(calloc(n ? n : 1, size ? size : 1));
}

static inline void *xmalloc(size_t n)
{
	return xalloc_check(malloc(n ? n : 1));
}

static inline char *xstrdup(const char *s)
{
	return xalloc_check(strdup(s));
}

#endif /* _KFT_XALLOC_H */
