/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory for kd's modules: a host tool has nothing better to do without
 * it than to say so and exit.
 */
#ifndef _KFT_XALLOC_H
#define _KFT_XALLOC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void *xalloc_check(void *p)
{
	if (!p) {
		fprintf(stderr, "kd: out of memory\n");
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
