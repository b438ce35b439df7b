/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel interfaces kernel/kft_config.c uses, for building it on the
 * host (scripts/mkkftrun, scripts/sym2addr, tests).  Each header in linux/ here
 * includes only this file, but for linux/math64.h's helper (the engine's host
 * harness has its own).
 */
#ifndef _KFT_HOST_H
#define _KFT_HOST_H

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kft_host_types.h"

#define U64_MAX		UINT64_MAX
#define U32_MAX		UINT32_MAX
#define GFP_KERNEL	0
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, v, lo), hi)
#define __printf(a, b)	__attribute__((format(printf, a, b)))

#define kmalloc(n, gfp)		malloc(n)
#define krealloc(p, n, gfp)	realloc(p, n)
#define kfree(p)		free((void *)(p))
#define kstrdup(s, gfp)		strdup(s)

/* As the kernel's: digits only, the whole string, no sign or spaces. */
static inline int kstrtoull(const char *s, unsigned int base,
			    unsigned long long *res)
{
	char *end;

	if (!isxdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	*res = strtoull(s, &end, base);
	if (*end && !(*end == '\n' && !end[1]))
		return -EINVAL;
	return errno ? -ERANGE : 0;
}

#endif /* _KFT_HOST_H */
